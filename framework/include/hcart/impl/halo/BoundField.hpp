// A field bound to a halo exchange, type-erased (internal): it keeps the view alive while
// bound and tells the packer where the bytes of each of its components are (FieldRef).
#pragma once

#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace hcart::impl {

/// Fields one exchange can carry.
constexpr int kMaxHaloFields = 64;

/// A field as the packer sees it: bytes, LayoutRight (k contiguous).
struct FieldRef {
  unsigned char* data = nullptr;
  std::int64_t stride_i = 0; ///< bytes between cells (i, j, k) and (i + 1, j, k)
  std::int64_t stride_j = 0; ///< bytes between cells (i, j, k) and (i, j + 1, k)
  int elem_bytes = 0;
};
using FieldRefs = Kokkos::Array<FieldRef, kMaxHaloFields>;

class BoundField {
public:
  virtual ~BoundField() = default;
  virtual const std::type_info& type() const noexcept = 0;
  virtual std::size_t elem_bytes() const noexcept = 0;
  /// Values per cell: FieldTraits' components (each a slot of the packer).
  virtual int components() const noexcept = 0;
  /// Component `c` as the packer sees it.
  virtual FieldRef ref(int c) const noexcept = 0;
  /// The grid's contract (Grid::require_fits): an InputError unless the field fits `grid`.
  virtual void require_fits(const Grid& grid, const char* who) const = 0;
};

// Any field type, through its FieldTraits.
template <class F>
class BoundFieldOf final : public BoundField {
  using Traits = FieldTraits<F>;
  using T = typename Traits::value_type;

public:
  explicit BoundFieldOf(const F& field) : m_field(field) {}
  void rebind(const F& field) { m_field = field; }

  const std::type_info& type() const noexcept override { return typeid(T); }
  std::size_t elem_bytes() const noexcept override { return sizeof(T); }
  int components() const noexcept override { return Traits::components(m_field); }
  FieldRef ref(int c) const noexcept override {
    const Field<T> part = Traits::component(m_field, c);
    FieldRef r;
    r.data = reinterpret_cast<unsigned char*>(part.data());
    r.stride_i = static_cast<std::int64_t>(part.stride(0) * sizeof(T));
    r.stride_j = static_cast<std::int64_t>(part.stride(1) * sizeof(T));
    r.elem_bytes = static_cast<int>(sizeof(T));
    return r;
  }
  void require_fits(const Grid& grid, const char* who) const override {
    grid.require_fits(m_field, who);
  }

private:
  F m_field;
};

// What the exchanger takes as one argument: a field of arithmetic values (any field type),
// or a std::vector of one field type (a list of run-time length).
template <class F, class = void>
struct HaloArgument : std::false_type {};
template <class F>
struct HaloArgument<F, std::enable_if_t<is_field_v<F>>>
    : std::is_arithmetic<typename FieldTraits<F>::value_type> {
  using Bound = BoundFieldOf<F>;
  static std::size_t count(const F&) { return 1; }
};
template <class F>
struct HaloArgument<std::vector<F>, std::enable_if_t<is_field_v<F>>> : HaloArgument<F> {
  static std::size_t count(const std::vector<F>& list) { return list.size(); }
};
template <class... F>
constexpr bool halo_arguments = (HaloArgument<F>::value && ...);

} // namespace hcart::impl
