// HCART_MPI_CHECK: every MPI call in hcart goes through it. A failing call throws
// hcart::Error naming the call, where it was made and MPI's own error string. (MPI's
// default handler aborts before returning an error code; hcart::Environment installs
// MPI_ERRORS_RETURN on MPI_COMM_WORLD so that the codes reach this macro.)
#pragma once

#include <mpi.h>

#include <string>

namespace hcart::impl {
[[noreturn]] void throw_mpi_error(int code, const char* call, const char* file, int line);
} // namespace hcart::impl

/// \brief Calls an MPI function and throws hcart::Error if it does not return MPI_SUCCESS.
#define HCART_MPI_CHECK(call)                                                                      \
  do {                                                                                             \
    const int hcart_mpi_rc_ = (call);                                                              \
    if (hcart_mpi_rc_ != MPI_SUCCESS) {                                                            \
      ::hcart::impl::throw_mpi_error(hcart_mpi_rc_, #call, __FILE__, __LINE__);                    \
    }                                                                                              \
  } while (false)
