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
  /// Values per cell: 1, or a ComponentField's components (each a slot of the packer).
  virtual int components() const noexcept = 0;
  /// Component `c` as the packer sees it.
  virtual FieldRef ref(int c) const noexcept = 0;
  /// The grid's contract (Grid::require_fits): an InputError unless the field fits `grid`.
  virtual void require_fits(const Grid& grid, const char* who) const = 0;
};

template <class T>
class BoundFieldOf final : public BoundField {
public:
  explicit BoundFieldOf(const Field<T>& field) : m_field(field) {}
  void rebind(const Field<T>& field) { m_field = field; }

  const std::type_info& type() const noexcept override { return typeid(T); }
  std::size_t elem_bytes() const noexcept override { return sizeof(T); }
  int components() const noexcept override { return 1; }
  FieldRef ref(int) const noexcept override {
    FieldRef r;
    r.data = reinterpret_cast<unsigned char*>(m_field.data());
    r.stride_i = static_cast<std::int64_t>(m_field.stride(0) * sizeof(T));
    r.stride_j = static_cast<std::int64_t>(m_field.stride(1) * sizeof(T));
    r.elem_bytes = static_cast<int>(sizeof(T));
    return r;
  }
  void require_fits(const Grid& grid, const char* who) const override {
    grid.require_fits(m_field, who);
  }

private:
  Field<T> m_field;
};

template <class T>
class BoundComponentsOf final : public BoundField {
public:
  explicit BoundComponentsOf(const ComponentField<T>& field) : m_field(field) {}
  void rebind(const ComponentField<T>& field) { m_field = field; }

  const std::type_info& type() const noexcept override { return typeid(T); }
  std::size_t elem_bytes() const noexcept override { return sizeof(T); }
  int components() const noexcept override { return static_cast<int>(m_field.extent(0)); }
  FieldRef ref(int c) const noexcept override {
    FieldRef r;
    r.data = reinterpret_cast<unsigned char*>(m_field.data() + c * m_field.stride(0));
    r.stride_i = static_cast<std::int64_t>(m_field.stride(1) * sizeof(T));
    r.stride_j = static_cast<std::int64_t>(m_field.stride(2) * sizeof(T));
    r.elem_bytes = static_cast<int>(sizeof(T));
    return r;
  }
  void require_fits(const Grid& grid, const char* who) const override {
    grid.require_fits(m_field, who);
  }

private:
  ComponentField<T> m_field;
};

// What the exchanger takes as one argument: a Field, a ComponentField, or a std::vector of
// either (a list of run-time length).
template <class F>
struct HaloArgument : std::false_type {};
template <class T>
struct HaloArgument<Field<T>> : std::is_arithmetic<T> {
  using Bound = BoundFieldOf<T>;
  static std::size_t count(const Field<T>&) { return 1; }
};
template <class T>
struct HaloArgument<ComponentField<T>> : std::is_arithmetic<T> {
  using Bound = BoundComponentsOf<T>;
  static std::size_t count(const ComponentField<T>&) { return 1; }
};
template <class T>
struct HaloArgument<std::vector<Field<T>>> : HaloArgument<Field<T>> {
  static std::size_t count(const std::vector<Field<T>>& list) { return list.size(); }
};
template <class T>
struct HaloArgument<std::vector<ComponentField<T>>> : HaloArgument<ComponentField<T>> {
  static std::size_t count(const std::vector<ComponentField<T>>& list) { return list.size(); }
};
template <class... F>
constexpr bool halo_arguments = (HaloArgument<F>::value && ...);

} // namespace hcart::impl
