// HCART_HDF5_CHECK: every HDF5 call in hcart goes through it. HDF5 functions return a
// negative herr_t or hid_t on failure; the macro then throws hcart::Error naming the call
// and where it was made. The value of a successful call is passed through, so
// `hid_t file = HCART_HDF5_CHECK(H5Fopen(...));` works.
#pragma once

#include <cstdint>

namespace hcart::impl {
[[noreturn]] void throw_hdf5_error(const char* call, const char* file, int line);

template <class T>
T hdf5_checked(T value, const char* call, const char* file, int line) {
  if (value < 0) throw_hdf5_error(call, file, line);
  return value;
}
} // namespace hcart::impl

/// \brief Evaluates an HDF5 call; throws hcart::Error if it returns a negative value,
/// otherwise yields that value.
#define HCART_HDF5_CHECK(call) ::hcart::impl::hdf5_checked((call), #call, __FILE__, __LINE__)
