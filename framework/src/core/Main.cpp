#include <hcart/core/Error.hpp>
#include <hcart/core/Main.hpp>

#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <string>
#include <thread>

namespace hcart {

namespace {
int exit_code_of(const std::exception& e) {
  return dynamic_cast<const InputError*>(&e) != nullptr ? exit_code_input_error : exit_code_failure;
}

// A duplicate of MPI_COMM_WORLD for the agreement after a local error alone: no call of the
// application can match its barrier. Freed before the Environment finalizes MPI.
class ErrorComm {
public:
  ErrorComm() { MPI_Comm_dup(MPI_COMM_WORLD, &m_comm); }
  ~ErrorComm() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && m_comm != MPI_COMM_NULL) MPI_Comm_free(&m_comm);
  }
  ErrorComm(const ErrorComm&) = delete;
  ErrorComm& operator=(const ErrorComm&) = delete;
  MPI_Comm get() const noexcept { return m_comm; }

private:
  MPI_Comm m_comm = MPI_COMM_NULL;
};

// How long a rank with a local error waits for the others to hold one too
// (HCART_ERROR_WAIT_SECONDS: 0 to 600, default 2; anything else gives the default, so that a
// failing rank always reaches MPI_Abort).
double error_wait_seconds() {
  const char* text = std::getenv("HCART_ERROR_WAIT_SECONDS");
  if (text == nullptr) return 2.0;
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  return end != text && std::isfinite(seconds) && seconds >= 0 && seconds <= 600 ? seconds : 2.0;
}

// A message's shape: its numbers as '#', so that the same failure with each rank's own
// numbers (a field's extents on its block, "10x12x8") has one shape. Digits that continue
// a name ("u1", "field_2") are kept: another name is another failure.
std::string shape_of(const std::string& message) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto letter = [](char c) {
    return (c >= 'a' && c <= 'z' && c != 'x') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  std::string shape;
  bool in_name = false, in_number = false;
  for (const char c : message) {
    if (digit(c) && !in_name) {
      if (!in_number) shape += '#';
      in_number = true;
      continue;
    }
    in_number = false;
    in_name = letter(c) || (in_name && digit(c));
    shape += c;
  }
  return shape;
}

// Whether every rank's value equals this rank's (the largest of {v, ~v} over `comm`).
bool same_everywhere(MPI_Comm comm, unsigned long long value) {
  unsigned long long local[2] = {value, ~value}, global[2] = {0, 0};
  if (MPI_Allreduce(local, global, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm) != MPI_SUCCESS)
    return false;
  return global[0] == ~global[1];
}

// How a local error spread: to some ranks only (or unknown), to every rank with one shape
// of message, or to every rank with the same message.
enum class Spread { SomeRanks, EveryRankItsValues, EveryRankSame };

// After an error this rank saw on its own (not marked collective): whether every rank of the
// job holds one within error_wait_seconds() (a barrier on `comm` that only failing ranks
// enter), and then whether their messages and exit codes agree.
Spread spread_of(MPI_Comm comm, const std::string& message, int code) {
  if (comm == MPI_COMM_NULL) return Spread::SomeRanks;
  MPI_Request barrier = MPI_REQUEST_NULL;
  if (MPI_Ibarrier(comm, &barrier) != MPI_SUCCESS) return Spread::SomeRanks;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(error_wait_seconds());
  int done = 0;
  while (MPI_Test(&barrier, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done == 0) {
    if (std::chrono::steady_clock::now() >= deadline) return Spread::SomeRanks;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (done == 0) return Spread::SomeRanks;
  const std::hash<std::string> hash;
  const auto with_code = [&](const std::string& text) {
    return static_cast<unsigned long long>(hash(text)) * 31u + static_cast<unsigned>(code);
  };
  // Both reductions on every rank, whatever the first gives.
  const bool same_shape = same_everywhere(comm, with_code(shape_of(message)));
  const bool same = same_everywhere(comm, with_code(message));
  if (same) return Spread::EveryRankSame;
  return same_shape ? Spread::EveryRankItsValues : Spread::SomeRanks;
}
// The line and its newline in one write, so that the launcher cannot put another rank's
// output (Kokkos' warnings, another error) inside it: a line written in pieces was split by
// a Kokkos warning from the other rank (CI, the OpenMP stage, two ranks of two threads).
void print_error_line(const std::string& line) {
  std::cerr << (line + "\n") << std::flush;
}
} // namespace

int run_main(int& argc, char**& argv, const std::string& program,
             const std::function<int(Environment&)>& body) {
  Environment env(argc, argv);
  if (env.kokkos_help_requested()) return 0; // Kokkos printed its options
  const ErrorComm errors;
  std::string message;
  int code = exit_code_failure;
  try {
    return body(env);
  } catch (const Error& e) {
    code = exit_code_of(e);
    if (e.collective()) {
      if (env.rank() == 0) print_error_line(program + ": error: " + e.what());
      return code;
    }
    message = e.what();
  } catch (const std::exception& e) {
    message = e.what();
  }
  // An error this rank saw. Where every rank saw it (the same call failing everywhere, each
  // rank with its own numbers or not): one line from rank 0, and every rank returns.
  // Otherwise (some ranks only, or different failures, which may have left messages in
  // flight): each failing rank prints its line and MPI_Abort ends the job, so no rank waits
  // forever.
  const Spread spread = spread_of(errors.get(), message, code);
  if (spread != Spread::SomeRanks) {
    if (env.rank() == 0) {
      print_error_line(
          program + ": error: " + message +
          (spread == Spread::EveryRankSame ? "" : " (on every rank, with rank 0's values)"));
    }
    return code;
  }
  print_error_line(program + ": error (rank " + std::to_string(env.rank()) + "): " + message);
  MPI_Abort(MPI_COMM_WORLD, code);
  return code;
}

} // namespace hcart
