// A field bound to a halo exchange, type-erased (internal): it keeps the view alive while
// bound and tells the packer where its bytes are.
#pragma once

#include <hcart/grid/Field.hpp>
#include <hcart/impl/halo/CopyList.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <typeinfo>

namespace hcart::impl {

class BoundField {
public:
  virtual ~BoundField() = default;
  virtual const std::type_info& type() const noexcept = 0;
  virtual std::size_t elem_bytes() const noexcept = 0;
  virtual std::array<int, 3> extents() const noexcept = 0;
  virtual std::string label() const = 0;
  virtual FieldRef ref() const noexcept = 0;
};

template <class T>
class BoundFieldOf final : public BoundField {
public:
  explicit BoundFieldOf(const Field<T>& field) : m_field(field) {}
  void rebind(const Field<T>& field) { m_field = field; }

  const std::type_info& type() const noexcept override { return typeid(T); }
  std::size_t elem_bytes() const noexcept override { return sizeof(T); }
  std::array<int, 3> extents() const noexcept override {
    return {static_cast<int>(m_field.extent(0)), static_cast<int>(m_field.extent(1)),
            static_cast<int>(m_field.extent(2))};
  }
  std::string label() const override { return m_field.label(); }
  FieldRef ref() const noexcept override {
    FieldRef r;
    r.data = reinterpret_cast<unsigned char*>(m_field.data());
    r.stride_i = static_cast<std::int64_t>(m_field.stride(0) * sizeof(T));
    r.stride_j = static_cast<std::int64_t>(m_field.stride(1) * sizeof(T));
    r.elem_bytes = static_cast<int>(sizeof(T));
    return r;
  }

private:
  Field<T> m_field;
};

} // namespace hcart::impl
