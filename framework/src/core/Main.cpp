#include <hcart/core/Error.hpp>
#include <hcart/core/Main.hpp>

#include <mpi.h>

#include <exception>
#include <iostream>

namespace hcart {

namespace {
int exit_code_of(const std::exception& e) {
  return dynamic_cast<const InputError*>(&e) != nullptr ? exit_code_input_error : exit_code_failure;
}
} // namespace

int run_main(int& argc, char**& argv, const std::string& program,
             const std::function<int(Environment&)>& body) {
  Environment env(argc, argv);
  if (env.kokkos_help_requested()) return 0; // Kokkos printed its options
  try {
    return body(env);
  } catch (const Error& e) {
    const int code = exit_code_of(e);
    if (e.collective()) {
      if (env.rank() == 0) std::cerr << program << ": error: " << e.what() << std::endl;
      return code;
    }
    std::cerr << program << ": error (rank " << env.rank() << "): " << e.what() << std::endl;
    MPI_Abort(MPI_COMM_WORLD, code);
    return code;
  } catch (const std::exception& e) {
    std::cerr << program << ": error (rank " << env.rank() << "): " << e.what() << std::endl;
    MPI_Abort(MPI_COMM_WORLD, exit_code_failure);
    return exit_code_failure;
  }
}

} // namespace hcart
