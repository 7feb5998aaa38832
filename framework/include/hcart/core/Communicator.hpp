// hcart::Communicator: an MPI communicator that hcart created and frees (RAII).
//
// Move-only. MPI_COMM_NULL, MPI_COMM_WORLD and MPI_COMM_SELF are never freed. Freeing
// after MPI_Finalize is skipped rather than attempted.
#pragma once

#include <mpi.h>

namespace hcart {

class Communicator {
public:
  Communicator() = default;
  /// \brief Takes ownership of `comm`.
  explicit Communicator(MPI_Comm comm) noexcept : m_comm(comm) {}
  ~Communicator() { reset(); }
  Communicator(Communicator&& other) noexcept : m_comm(other.m_comm) {
    other.m_comm = MPI_COMM_NULL;
  }
  Communicator& operator=(Communicator&& other) noexcept {
    if (this != &other) {
      reset();
      m_comm = other.m_comm;
      other.m_comm = MPI_COMM_NULL;
    }
    return *this;
  }
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  /// \brief The communicator (MPI_COMM_NULL when empty).
  MPI_Comm get() const noexcept { return m_comm; }
  /// \brief True unless empty.
  explicit operator bool() const noexcept { return m_comm != MPI_COMM_NULL; }
  /// \brief Frees the communicator now.
  void reset() noexcept {
    if (m_comm != MPI_COMM_NULL && m_comm != MPI_COMM_WORLD && m_comm != MPI_COMM_SELF) {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (!finalized) MPI_Comm_free(&m_comm);
    }
    m_comm = MPI_COMM_NULL;
  }

private:
  MPI_Comm m_comm = MPI_COMM_NULL;
};

} // namespace hcart
