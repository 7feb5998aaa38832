// hcart::run_main: the `main` of an hcart application, with the error convention applied.
//
//   int main(int argc, char* argv[]) {
//     return hcart::run_main(argc, argv, "jacobi3d", [&](hcart::Environment& env) {
//       ... return 0;
//     });
//   }
//
// It creates the hcart::Environment and runs the body. An hcart::Error that every rank
// holds (collective(), see Collective.hpp) is printed once by rank 0 as
// "<program>: error: <message>" and every rank returns 2 for hcart::InputError, 1 for
// anything else. So is an error every rank saw on its own (the same local check failing on
// every rank, found by a bounded wait on a communicator of run_main's own; docs/errors.md).
// An error seen on some ranks only, or different errors on different ranks, is printed by
// each of them with its rank and the job is ended with MPI_Abort (same exit codes), so no
// rank waits forever.
#pragma once

#include <hcart/core/Environment.hpp>

#include <functional>
#include <string>

namespace hcart {

/// \brief Exit code for bad input (decks, command lines, API arguments).
inline constexpr int exit_code_input_error = 2;
/// \brief Exit code for any other failure.
inline constexpr int exit_code_failure = 1;

/// \brief Runs an application body inside an Environment and maps errors to exit codes.
/// \param program name used as the prefix of error lines
/// \param body returns the exit code of a successful run
int run_main(int& argc, char**& argv, const std::string& program,
             const std::function<int(Environment&)>& body);

} // namespace hcart
