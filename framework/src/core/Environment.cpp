#include <hcart/core/Environment.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/impl/core/HostAccessCheck.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace hcart {

Environment::Environment(int& argc, char**& argv) {
  int mpi_ready = 0;
  HCART_MPI_CHECK(MPI_Initialized(&mpi_ready));
  if (!mpi_ready) {
    int provided = 0;
    // Funneled: only the thread that called Environment makes MPI calls, which is what a
    // Kokkos OpenMP or Threads backend needs.
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
      throw Error("hcart::Environment: MPI_Init_thread failed");
    }
    m_owns_mpi = true;
    // Let error codes reach HCART_MPI_CHECK instead of aborting inside MPI.
    HCART_MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  }
  HCART_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &m_rank));
  HCART_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &m_size));
  if (!Kokkos::is_initialized()) {
    // Kokkos must not see the program's own help flags (Kokkos 4 answers --help with its
    // whole help block): they wait behind a placeholder that Kokkos ignores. --kokkos-help
    // is Kokkos' to print, on rank 0 only.
    static char placeholder[] = "--hcart-program-argument";
    std::vector<char*> hidden;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        hidden.push_back(argv[i]);
        argv[i] = placeholder;
      } else if (arg == "--kokkos-help") {
        m_kokkos_help = true;
        if (m_rank != 0) {
          for (int k = i; k < argc; ++k)
            argv[k] = argv[k + 1];
          --argc;
          --i;
        }
      }
    }
    Kokkos::initialize(argc, argv);
    m_owns_kokkos = true;
    std::size_t next = 0;
    for (int i = 1; i < argc && next < hidden.size(); ++i) {
      if (argv[i] == placeholder) argv[i] = hidden[next++];
    }
  }
}

Environment::~Environment() {
  impl::stop_host_access_check();
  if (m_owns_kokkos && Kokkos::is_initialized()) Kokkos::finalize();
  if (m_owns_mpi) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  }
}

} // namespace hcart
