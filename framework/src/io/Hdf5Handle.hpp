// RAII for HDF5 identifiers (internal): every file, dataset, dataspace, attribute, type
// and property list hcart opens is closed by its handle.
#pragma once

#include "io/Hdf5Check.hpp"

#include <hdf5.h>

namespace hcart::impl {

class Hdf5Handle {
public:
  using Closer = herr_t (*)(hid_t);
  Hdf5Handle() = default;
  Hdf5Handle(hid_t id, Closer close) : m_id(id), m_close(close) {}
  ~Hdf5Handle() { reset(); }
  Hdf5Handle(Hdf5Handle&& o) noexcept : m_id(o.m_id), m_close(o.m_close) { o.m_id = -1; }
  Hdf5Handle& operator=(Hdf5Handle&& o) noexcept {
    if (this != &o) {
      reset();
      m_id = o.m_id;
      m_close = o.m_close;
      o.m_id = -1;
    }
    return *this;
  }
  Hdf5Handle(const Hdf5Handle&) = delete;
  Hdf5Handle& operator=(const Hdf5Handle&) = delete;
  hid_t get() const noexcept { return m_id; }
  /// Closes now; reports whether the close succeeded (a failing file close means lost data).
  bool reset() noexcept {
    bool ok = true;
    if (m_id >= 0 && m_close != nullptr) ok = m_close(m_id) >= 0;
    m_id = -1;
    return ok;
  }

private:
  hid_t m_id = -1;
  Closer m_close = nullptr;
};

} // namespace hcart::impl
