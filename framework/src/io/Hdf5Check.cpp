// The throwing half of HCART_HDF5_CHECK (io/Hdf5Check.hpp).
#include "io/Hdf5Check.hpp"

#include <hcart/core/Error.hpp>

#include <sstream>

namespace hcart::impl {

void throw_hdf5_error(const char* call, const char* file, int line) {
  std::ostringstream out;
  out << call << " failed (HDF5 returned a negative value) at " << file << ":" << line;
  throw Error(out.str());
}

} // namespace hcart::impl
