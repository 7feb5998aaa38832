// The throwing half of HCART_MPI_CHECK (HCART_HDF5_CHECK's is in io/Hdf5Check.cpp).
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>

#include <sstream>
#include <string>

namespace hcart::impl {

void throw_mpi_error(int code, const char* call, const char* file, int line) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  std::ostringstream out;
  out << call << " failed with MPI error " << code << " (" << std::string(text, length) << ") at "
      << file << ":" << line;
  throw Error(out.str());
}

} // namespace hcart::impl
