#include "FieldCheck.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/core/Timers.hpp>

#include <algorithm>
#include <chrono>

namespace hcart::impl {

FieldCheck::~FieldCheck() {
  if (m_request != MPI_REQUEST_NULL) MPI_Wait(&m_request, MPI_STATUS_IGNORE);
}

long long FieldCheck::prepare(const Grid& grid, const std::vector<BoundField*>& fields,
                              std::size_t slots, const HaloCall& call,
                              const std::string& width_problem) {
  m_problem = width_problem;
  if (m_problem.empty() && slots > static_cast<std::size_t>(kMaxHaloFields)) {
    m_problem = "hcart::HaloExchanger: " + std::to_string(slots) +
                " values per cell (fields, and the components of fields with components), at "
                "most " +
                std::to_string(kMaxHaloFields);
  }
  for (std::size_t f = 0; f < fields.size() && m_problem.empty(); ++f) {
    try {
      fields[f]->require_fits(grid, "hcart::HaloExchanger");
    } catch (const InputError& e) {
      m_problem =
          std::string(e.what()) + " (rank " + std::to_string(grid.decomposition().rank()) + ")";
    }
  }
  // The signature (type_info::hash_code hashes the type's name: the same in every process
  // of one program).
  std::size_t signature = fields.size();
  for (const BoundField* field : fields) {
    signature = (signature * 1000003u) ^ field->type().hash_code();
    signature = (signature * 1000003u) ^ field->elem_bytes();
    signature = (signature * 1000003u) ^ static_cast<std::size_t>(field->components());
  }
  for (const int layers : call.width.layers)
    signature = (signature * 1000003u) ^ static_cast<std::size_t>(layers);
  signature = (signature * 1000003u) ^ static_cast<std::size_t>(call.mode);
  signature = (signature * 1000003u) ^ static_cast<std::size_t>(call.directions.mask());
  const auto sig = static_cast<long long>(signature & 0x3fffffffffffffffULL);
  m_values[0] = m_problem.empty() ? 0 : 1;
  m_values[1] = sig;
  m_values[2] = -sig;
  return sig;
}

bool FieldCheck::check_exchange(const Grid& grid, const std::vector<BoundField*>& fields,
                                std::size_t slots, MPI_Comm comm, const HaloOptions& options,
                                const std::function<const CallPlan&(const HaloCall&)>& plan_of,
                                double& seconds) {
  using Clock = std::chrono::steady_clock;
  seconds = 0;
  const long long sig = prepare(grid, fields, slots, m_call, m_call_problem);
  if (!options.collective_checks) {
    HCART_REQUIRE(m_problem.empty(), m_problem);
    return true;
  }
  const auto t0 = Clock::now();
  if (!options.aggregate_fields) {
    // One message per field: the number of messages depends on the fields too, so every
    // exchange waits.
    reduce(comm);
    seconds = seconds_since(t0);
    judge(comm);
    return true;
  }
  post(comm);
  if (sig == m_agreed) {
    seconds = seconds_since(t0);
    return true; // completed with the messages
  }
  wait();
  seconds = seconds_since(t0);
  if (failed()) {
    // Judged in finish(), where the ranks that did not wait find it too: every rank throws
    // from the same call, whatever the program does between start() and finish(). The ranks
    // that did not wait posted the messages of the exchange all agreed on last (its mode
    // decides which): those are drained. Before any agreement every rank waited: nothing
    // was posted.
    if (m_agreed != -1) {
      const CallPlan& posted = plan_of(m_agreed_call);
      drain(posted.plan.phases.front(), posted.first_peer_ranks(), comm);
    }
    m_abandoned = true;
    return false;
  }
  m_agreed = sig;
  m_agreed_call = m_call;
  return true;
}

void FieldCheck::throw_abandoned(MPI_Comm comm) {
  m_abandoned = false;
  judge(comm); // throws: the reduction failed
  throw Error("hcart::HaloExchanger: an abandoned exchange's check found nothing to report");
}

void FieldCheck::check_binding(const Grid& grid, const std::vector<BoundField*>& fields,
                               std::size_t slots, MPI_Comm comm) {
  prepare(grid, fields, slots, m_call, m_call_problem);
  reduce(comm);
  judge(comm);
}

void FieldCheck::reduce(MPI_Comm comm) {
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, m_values, 3, MPI_LONG_LONG, MPI_MAX, comm));
}

void FieldCheck::post(MPI_Comm comm) {
  HCART_MPI_CHECK(
      MPI_Iallreduce(MPI_IN_PLACE, m_values, 3, MPI_LONG_LONG, MPI_MAX, comm, &m_request));
}

void FieldCheck::wait() {
  HCART_MPI_CHECK(MPI_Wait(&m_request, MPI_STATUS_IGNORE));
}

void FieldCheck::judge(MPI_Comm comm) {
  if (m_values[0] > 0) {
    agree_on_errors(comm, [&] { HCART_REQUIRE(m_problem.empty(), m_problem); });
  }
  if (m_values[1] != -m_values[2]) {
    InputError error("hcart::HaloExchanger: the ranks passed different fields to the same "
                     "exchange (their number or types, or the width, mode or directions, differ)");
    error.set_collective(true);
    throw error;
  }
}

void FieldCheck::drain(const HaloPlan::Phase& first, const std::vector<int>& peer_ranks,
                       MPI_Comm comm) {
  std::vector<MPI_Request> sends;
  for (std::size_t q = 0; q < first.messages.size(); ++q) {
    if (first.messages[q].local) continue;
    sends.emplace_back();
    HCART_MPI_CHECK(MPI_Isend(nullptr, 0, MPI_BYTE, peer_ranks[q], first.messages[q].send_tag, comm,
                              &sends.back()));
  }
  std::vector<unsigned char> scratch;
  for (std::size_t q = 0; q < first.messages.size(); ++q) {
    if (first.messages[q].local) continue;
    MPI_Message message;
    MPI_Status status;
    HCART_MPI_CHECK(MPI_Mprobe(peer_ranks[q], first.messages[q].recv_tag, comm, &message, &status));
    int count = 0;
    HCART_MPI_CHECK(MPI_Get_count(&status, MPI_BYTE, &count));
    scratch.resize(static_cast<std::size_t>(std::max(count, 1)));
    HCART_MPI_CHECK(MPI_Mrecv(scratch.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE));
  }
  HCART_MPI_CHECK(MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE));
}

} // namespace hcart::impl
