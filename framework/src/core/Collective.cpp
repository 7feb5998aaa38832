#include <hcart/core/Collective.hpp>
#include <hcart/core/MpiCheck.hpp>

#include <string>
#include <vector>

namespace hcart::impl {

namespace {
enum class Kind : int { none = 0, input = 1, other = 2 };
} // namespace

std::string allgather_text(MPI_Comm comm, const std::string& mine) {
  int size = 1;
  HCART_MPI_CHECK(MPI_Comm_size(comm, &size));
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(size), displs(size, 0);
  HCART_MPI_CHECK(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm));
  for (int r = 1; r < size; ++r)
    displs[r] = displs[r - 1] + lengths[r - 1];
  std::string all(static_cast<std::size_t>(displs[size - 1] + lengths[size - 1]), '\0');
  HCART_MPI_CHECK(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(),
                                 displs.data(), MPI_CHAR, comm));
  return all;
}

void rethrow_agreed(MPI_Comm comm, const std::exception_ptr& local) {
  Kind kind = Kind::none;
  std::string message;
  if (local) {
    try {
      std::rethrow_exception(local);
    } catch (const InputError& e) {
      kind = Kind::input;
      message = e.what();
    } catch (const std::exception& e) {
      kind = Kind::other;
      message = e.what();
    } catch (...) {
      kind = Kind::other;
      message = "unknown exception";
    }
  }
  int rank = 0, size = 1;
  HCART_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  HCART_MPI_CHECK(MPI_Comm_size(comm, &size));
  const int mine = kind == Kind::none ? size : rank;
  int first_failing = size;
  HCART_MPI_CHECK(MPI_Allreduce(&mine, &first_failing, 1, MPI_INT, MPI_MIN, comm));
  if (first_failing == size) return;

  int header[2] = {static_cast<int>(kind), static_cast<int>(message.size())};
  HCART_MPI_CHECK(MPI_Bcast(header, 2, MPI_INT, first_failing, comm));
  std::vector<char> text(message.begin(), message.end());
  text.resize(static_cast<std::size_t>(header[1]));
  if (header[1] > 0) {
    HCART_MPI_CHECK(MPI_Bcast(text.data(), header[1], MPI_CHAR, first_failing, comm));
  }
  std::string agreed(text.begin(), text.end());
  if (static_cast<Kind>(header[0]) == Kind::input) {
    InputError error(agreed);
    error.set_collective(true);
    throw error;
  }
  Error error(agreed);
  error.set_collective(true);
  throw error;
}

} // namespace hcart::impl
