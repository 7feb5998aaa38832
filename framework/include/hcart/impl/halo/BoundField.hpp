// A field bound to a halo exchange, type-erased (internal): it keeps the view alive while
// bound and tells the packer where its bytes are (FieldRef).
#pragma once

#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>

#include <cstddef>
#include <cstdint>
#include <typeinfo>

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
  virtual FieldRef ref() const noexcept = 0;
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
  FieldRef ref() const noexcept override {
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

} // namespace hcart::impl
