// Type-erased access to a field for the halo exchanger: pack, unpack and copy kernels over
// boxes of local indices (internal).
#pragma once

#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <typeinfo>

namespace hcart::impl {

// Kernel labels stay within std::string's small-buffer size (15 characters) so that
// launching a kernel allocates nothing.

/// A fence that allocates nothing (named fences exist from Kokkos 3.6 on).
inline void fence_halo() {
#if KOKKOS_VERSION >= 30600
  Kokkos::fence("hcart_halo");
#else
  Kokkos::fence();
#endif
}

/// A box of local indices [lo, hi).
struct Box {
  std::array<int, 3> lo{}, hi{};
  std::int64_t cells() const noexcept {
    return static_cast<std::int64_t>(hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  }
};

class FieldHandleBase {
public:
  virtual ~FieldHandleBase() = default;
  virtual const std::type_info& type() const noexcept = 0;
  virtual std::size_t elem_bytes() const noexcept = 0;
  virtual std::array<int, 3> extents() const noexcept = 0;
  virtual std::string label() const = 0;
  /// Copies `box` into `out` (in the field's memory space), k fastest.
  virtual void pack(const Box& box, unsigned char* out) const = 0;
  /// Copies `in` into `box`.
  virtual void unpack(const Box& box, const unsigned char* in) const = 0;
  /// Copies the cells of `from` into `to` (same shape).
  virtual void copy(const Box& from, const Box& to) const = 0;
};

template <class T>
class FieldHandle final : public FieldHandleBase {
public:
  explicit FieldHandle(const Field<T>& field) : m_field(field) {}
  void rebind(const Field<T>& field) { m_field = field; }

  const std::type_info& type() const noexcept override { return typeid(T); }
  std::size_t elem_bytes() const noexcept override { return sizeof(T); }
  std::array<int, 3> extents() const noexcept override {
    return {static_cast<int>(m_field.extent(0)), static_cast<int>(m_field.extent(1)),
            static_cast<int>(m_field.extent(2))};
  }
  std::string label() const override { return m_field.label(); }

  void pack(const Box& box, unsigned char* out) const override {
    rows(box, reinterpret_cast<T*>(out), true);
  }

  void unpack(const Box& box, const unsigned char* in) const override {
    rows(box, const_cast<T*>(reinterpret_cast<const T*>(in)), false);
  }

  void copy(const Box& from, const Box& to) const override {
    const Field<T> f = m_field;
    const int di = from.lo[0] - to.lo[0], dj = from.lo[1] - to.lo[1], dk = from.lo[2] - to.lo[2];
    Kokkos::parallel_for(
        "hcart_copy", Grid::box_policy(to.lo, to.hi),
        KOKKOS_LAMBDA(int i, int j, int k) { f(i, j, k) = f(i + di, j + dj, k + dk); });
  }

private:
  // Copies between the box and a buffer holding it k fastest. On host memory: one loop
  // along k per row (i, j) on raw pointers, which Kokkos 3.4 runs markedly faster than a
  // 3D policy indexing the view; on a device: the grid's 3D policy.
  void rows(const Box& box, T* buffer, bool to_buffer) const {
    const Field<T> f = m_field;
    const int i0 = box.lo[0], j0 = box.lo[1], k0 = box.lo[2];
    const int nj = box.hi[1] - j0, nk = box.hi[2] - k0;
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible) {
      T* data = f.data();
      const std::size_t si = f.stride(0), sj = f.stride(1);
      const Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<int>> policy(0, (box.hi[0] - i0) *
                                                                                      nj);
      Kokkos::parallel_for(
          to_buffer ? "hcart_pack" : "hcart_unpack", policy, KOKKOS_LAMBDA(int r) {
            const int i = i0 + r / nj, j = j0 + r % nj;
            T* cells = data + i * si + j * sj + k0;
            T* packed = buffer + static_cast<std::size_t>(r) * nk;
            if (to_buffer) {
              for (int k = 0; k < nk; ++k)
                packed[k] = cells[k];
            } else {
              for (int k = 0; k < nk; ++k)
                cells[k] = packed[k];
            }
          });
    } else {
      Kokkos::parallel_for(
          to_buffer ? "hcart_pack" : "hcart_unpack", Grid::box_policy(box.lo, box.hi),
          KOKKOS_LAMBDA(int i, int j, int k) {
            T& packed = buffer[(static_cast<std::size_t>(i - i0) * nj + (j - j0)) * nk + (k - k0)];
            if (to_buffer)
              packed = f(i, j, k);
            else
              f(i, j, k) = packed;
          });
    }
  }

  Field<T> m_field;
};

} // namespace hcart::impl
