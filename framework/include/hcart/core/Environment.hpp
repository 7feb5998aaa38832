// hcart::Environment: the guard that brings up MPI and then Kokkos, and takes them down
// in reverse order when it goes out of scope. Create exactly one, first thing in main:
//
//   int main(int argc, char* argv[]) {
//     hcart::Environment env(argc, argv);
//     ...
//   }
//
// If MPI or Kokkos were already initialised by the caller, the guard leaves them to the
// caller and finalises only what it initialised itself. It cannot be copied or moved.
//
// Command lines: Kokkos takes its own `--kokkos-*` options (e.g. --kokkos-num-threads=4)
// out of argv. `--help` and `-h` stay the program's: Kokkos never sees them (Kokkos 4
// would print its whole help block). `--kokkos-help` prints Kokkos' options (on rank 0)
// and kokkos_help_requested() tells the program to stop; hcart::run_main does.
#pragma once

#include <mpi.h>

namespace hcart {

class Environment {
public:
  /// \brief Initialises MPI (MPI_THREAD_FUNNELED) and then Kokkos. Kokkos consumes its own
  /// `--kokkos-*` arguments from argc/argv; `--help` and `-h` are left to the program.
  /// \throws hcart::Error if MPI or Kokkos cannot be initialised.
  Environment(int& argc, char**& argv);
  /// \brief Finalises Kokkos, then MPI (only what this guard initialised).
  ~Environment();

  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
  Environment(Environment&&) = delete;
  Environment& operator=(Environment&&) = delete;

  /// \brief Rank in MPI_COMM_WORLD.
  int rank() const noexcept { return m_rank; }
  /// \brief Number of ranks in MPI_COMM_WORLD.
  int size() const noexcept { return m_size; }
  /// \brief True when the command line asked for Kokkos' options (`--kokkos-help`), which
  /// Kokkos has printed: the program should end.
  bool kokkos_help_requested() const noexcept { return m_kokkos_help; }

private:
  bool m_owns_mpi = false;
  bool m_owns_kokkos = false;
  bool m_kokkos_help = false;
  int m_rank = 0;
  int m_size = 1;
};

} // namespace hcart
