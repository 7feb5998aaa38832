// Collective validation: errors that only some ranks see must not hang the others.
//
// Validate input on every rank inside hcart::agree_on_errors before any communication that
// depends on it. If the check throws on any rank, every rank throws the same error (the one
// raised on the lowest failing rank), marked collective(), so all ranks can report it and
// end together:
//
//   hcart::agree_on_errors(comm, [&] { validate(spec); });   // throws on all ranks or none
#pragma once

#include <hcart/core/Error.hpp>

#include <mpi.h>

#include <exception>
#include <string>
#include <utility>

namespace hcart {

namespace impl {
/// \brief Collective over `comm`: if `local` holds an exception on any rank, every rank
/// throws the error of the lowest failing rank (hcart::InputError stays InputError,
/// anything else becomes hcart::Error), marked collective.
void rethrow_agreed(MPI_Comm comm, const std::exception_ptr& local);

/// \brief Collective over `comm`: every rank's `mine`, joined in rank order, on every rank.
std::string allgather_text(MPI_Comm comm, const std::string& mine);
} // namespace impl

/// \brief Runs `check` on every rank of `comm` and makes its outcome collective.
///
/// `check` must not communicate on `comm`. Costs two small collectives when all ranks
/// succeed. \throws hcart::InputError or hcart::Error (collective) when any rank failed.
template <class Check>
void agree_on_errors(MPI_Comm comm, Check&& check) {
  std::exception_ptr local;
  try {
    std::forward<Check>(check)();
  } catch (...) {
    local = std::current_exception();
  }
  impl::rethrow_agreed(comm, local);
}

} // namespace hcart
