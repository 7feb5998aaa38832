#include "HaloEngine.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/DeviceAwareMpi.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/core/Timers.hpp>

#include <climits>

#include <algorithm>
#include <chrono>

namespace hcart::impl {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

HaloEngine::HaloEngine(const Grid& grid, HaloMode mode, const HaloOptions& options)
    : m_grid(&grid), m_mode(mode), m_options(options), m_plans(grid, options) {
  const MPI_Comm comm = grid.decomposition().comm();
  agree_on_errors(comm, [&] {
    m_device_buffers = device_mpi().device_buffers || !device_mpi().device_build;
    m_stage_by_copy = staging_by_copy() && !m_device_buffers;
  });
  agree_on_errors(comm, [&] {
    m_default = &m_plans.get({mode, HaloWidth(options.width), {}}, m_allocations);
  });
  m_current = m_default;
  m_check.begin_call({mode, HaloWidth(options.width), {}});
  m_now.reserve(static_cast<std::size_t>(kMaxHaloFields));
  m_slot_bytes.reserve(static_cast<std::size_t>(kMaxHaloFields));
  // Its own communicator: its messages, tags and checks never meet the program's or
  // another exchanger's (a probe of a failed exchange takes only its own messages).
  MPI_Comm dup = MPI_COMM_NULL;
  HCART_MPI_CHECK(MPI_Comm_dup(comm, &dup));
  m_comm = Communicator(dup);
  // The order check's communicator on every rank or none: the option must agree.
  int order[2] = {options.check_binding_order ? 1 : 0, options.check_binding_order ? -1 : 0};
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, order, 2, MPI_INT, MPI_MIN, comm));
  if (order[0] != -order[1]) {
    InputError e("hcart::HaloExchanger: HaloOptions::check_binding_order is on on some ranks "
                 "and off on others, expected the same on every rank");
    e.set_collective(true);
    throw e;
  }
  if (options.check_binding_order) {
    HCART_MPI_CHECK(MPI_Comm_dup(comm, &dup));
    m_order_comm = Communicator(dup);
  }
  for (std::size_t p = 0; p < m_plans.most_phases(); ++p)
    m_buffers.push_back(std::make_unique<PhaseBuffers>(m_device_buffers, m_stage_by_copy));
  const Machine& machine = grid.decomposition().machine();
  for (const auto& level : machine.levels())
    m_counters.level_names.push_back(level.name);
  m_counters.level_names.push_back("self");
  m_counters.bytes.assign(m_counters.level_names.size(), 0);
  m_counters.messages.assign(m_counters.level_names.size(), 0);
}

HaloEngine::~HaloEngine() {
  if (m_in_flight && !m_requests.empty()) {
    MPI_Waitall(static_cast<int>(m_requests.size()), m_requests.data(), MPI_STATUSES_IGNORE);
  }
}

void HaloEngine::set_loop_pattern(LoopPattern pattern) {
  HCART_CHECK(pattern == LoopPattern::Portable || host_execution,
              "hcart::HaloExchanger::set_loop_pattern: the host row pattern cannot run on the "
                  << execution_space_name() << " execution space");
  m_pattern = pattern;
}

void HaloEngine::begin_call(HaloCall call) {
  HCART_CHECK(!m_in_flight, "hcart::HaloExchanger::start: an exchange is already in flight; "
                            "call finish() first");
  // A width this rank cannot exchange is its problem in the check, which every rank takes
  // part in; meanwhile the exchanger's own width gives the messages their sizes.
  m_check.begin_call(call);
  CallPlan* plan = m_default;
  if (call.width != HaloWidth(m_options.width) || call.mode != m_mode ||
      call.directions != HaloDirections{}) {
    try {
      plan = &m_plans.get(call, m_allocations);
    } catch (const InputError& e) {
      m_check.set_call_problem(e.what());
      plan = &m_plans.get({call.mode, HaloWidth(m_options.width), {}}, m_allocations);
    }
  }
  if (plan != m_current) m_active = nullptr; // another kind of exchange: its own copy lists
  m_current = plan;
}

// The fields of the exchange now (m_now: start()'s, or a binding's), and the values of a
// cell it moves, one per field or component: the packer's slots (m_slot_bytes). Allocates
// nothing within kMaxHaloFields.
void HaloEngine::use_fields(const std::unique_ptr<BoundField>* fields, std::size_t count) {
  m_now.clear();
  m_slot_bytes.clear();
  for (std::size_t f = 0; f < count; ++f) {
    m_now.push_back(fields[f].get());
    for (int c = 0; c < fields[f]->components(); ++c)
      m_slot_bytes.push_back(fields[f]->elem_bytes());
  }
}

void HaloEngine::start_checked(const std::unique_ptr<BoundField>* fields, std::size_t count) {
  use_fields(fields, count);
  m_now_comm = m_comm.get();
  m_flight = 0;
  double seconds = 0;
  bool go = false;
  try {
    go = m_check.check_exchange(
        *m_grid, m_now, m_slot_bytes.size(), m_comm.get(), m_options,
        [&](const HaloCall& call) -> const CallPlan& { return m_plans.get(call, m_allocations); },
        seconds);
  } catch (...) {
    m_times.check += seconds; // a judged check's error: its wait counted all the same
    throw;
  }
  m_times.check += seconds;
  if (!go) { // the check failed: nothing posted; finish() throws its error
    m_in_flight = true;
    return;
  }
  post_first_phase();
}

void HaloEngine::prepare() {
  if (m_active == nullptr || m_active->layout != m_slot_bytes)
    m_active = &m_current->copies_for(m_slot_bytes, m_allocations);
  // Buffers large enough for this layout (they only grow).
  for (std::size_t p = 0; p < m_current->plan.phases.size(); ++p) {
    std::size_t total = 0;
    for (const HaloPlan::Message& m : m_current->plan.phases[p].messages) {
      if (!m.local) total += message_bytes(m);
    }
    if (m_buffers[p]->reserve(total)) ++m_allocations;
  }
  std::size_t most_requests = 0;
  for (const HaloPlan::Phase& phase : m_current->plan.phases) {
    most_requests = std::max(most_requests, 2 * phase.messages.size() * m_slot_bytes.size());
  }
  ++most_requests; // and the fields' check, completed with the first phase
  if (m_requests.capacity() < most_requests) {
    m_requests.reserve(most_requests);
    m_statuses.reserve(most_requests);
    m_expected.reserve(most_requests);
    ++m_allocations;
  }
}

// Packs and posts the first phase of the exchange of m_now (checked, or bound).
void HaloEngine::post_first_phase() {
  try {
    prepare();
    std::size_t slot = 0; // (a rank with a problem packs nothing: its refs are not read)
    for (std::size_t f = 0; f < m_now.size() && m_check.problem().empty(); ++f) {
      for (int c = 0; c < m_now[f]->components(); ++c)
        m_refs[slot++] = m_now[f]->ref(c);
    }
    m_in_flight = true;
    begin_phase(0);
  } catch (...) {
    // Nothing stays active: the reduction (every rank posted it) completed, receives
    // cancelled. (Only a local failure gets here: MPI, memory, a message beyond an int.)
    m_in_flight = false;
    if (m_check.request() != MPI_REQUEST_NULL) m_check.wait();
    for (MPI_Request& r : m_requests) {
      if (r == MPI_REQUEST_NULL) continue;
      MPI_Cancel(&r);
      MPI_Request_free(&r);
    }
    m_requests.clear();
    throw;
  }
}

// bind(): the check of an exchange, once and blocking, then the binding's own communicator.
// Every rank takes part whatever its fields, so the ranks agree on the outcome.
long HaloEngine::bind(const std::vector<std::unique_ptr<BoundField>>& fields, HaloCall call,
                      BindingComm& comm) {
  HCART_CHECK(!m_in_flight, "hcart::HaloExchanger::bind: an exchange is in flight; call "
                            "finish() first");
  const auto t0 = Clock::now();
  m_check.begin_call(call);
  try {
    m_plans.get(call, m_allocations);
  } catch (const InputError& e) {
    m_check.set_call_problem(e.what());
  }
  use_fields(fields.data(), fields.size());
  try {
    m_check.check_binding(*m_grid, m_now, m_slot_bytes.size(), m_comm.get());
  } catch (...) {
    m_times.check += seconds_since(t0);
    throw;
  }
  m_times.check += seconds_since(t0);
  MPI_Comm dup = MPI_COMM_NULL;
  HCART_MPI_CHECK(MPI_Comm_dup(m_comm.get(), &dup));
  comm.comm = Communicator(dup);
  return ++m_bindings;
}

// A binding's exchange: no check (bind() made it, and the binding's views cannot change).
void HaloEngine::start_binding(const std::vector<std::unique_ptr<BoundField>>& fields,
                               HaloCall call, MPI_Comm comm, long id) {
  if (m_options.check_binding_order) {
    // The smallest and the largest binding number any rank starts now (equal where every
    // rank starts the same binding), and whether a rank has an exchange in flight: agreed
    // before anything else, so that no rank throws alone while the others wait here.
    const auto t0 = Clock::now();
    long agreed[3] = {id, -id, m_in_flight ? -1L : 0L};
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, agreed, 3, MPI_LONG, MPI_MIN, m_order_comm.get()));
    m_times.check += seconds_since(t0);
    if (agreed[2] < 0) {
      Error e("hcart::HaloBinding::start: an exchange of its exchanger is already in flight "
              "on some rank; call finish() first");
      e.set_collective(true);
      throw e;
    }
    if (agreed[0] != -agreed[1]) {
      InputError e("hcart::HaloBinding::start: the ranks start different bindings at once "
                   "(bindings " +
                   std::to_string(agreed[0]) + " to " + std::to_string(-agreed[1]) +
                   ", numbered in the order bind() made them): every rank must exchange its "
                   "bindings in the same order");
      e.set_collective(true);
      throw e;
    }
  }
  HCART_CHECK(!m_in_flight, "hcart::HaloBinding::start: an exchange of its exchanger is "
                            "already in flight; call finish() first");
  CallPlan* plan = &m_plans.get(call, m_allocations); // made at bind()
  if (plan != m_current) m_active = nullptr;
  m_current = plan;
  use_fields(fields.data(), fields.size());
  m_now_comm = comm;
  m_flight = id;
  m_check.clear();
  post_first_phase();
}

void HaloEngine::begin_phase(std::size_t p) {
  const HaloPlan::Phase& phase = m_current->plan.phases[p];
  const std::vector<CallPlan::Peer>& peers = m_current->peers[p];
  PhaseBuffers& buffers = *m_buffers[p];
  const bool aggregate = m_options.aggregate_fields;
  auto t0 = Clock::now();
  m_requests.clear();
  m_expected.clear();
  // Receives first.
  std::size_t offset = 0;
  for (std::size_t q = 0; q < phase.messages.size(); ++q) {
    const HaloPlan::Message& m = phase.messages[q];
    if (m.local) continue;
    const std::size_t bytes = message_bytes(m);
    HCART_CHECK(bytes <= static_cast<std::size_t>(INT_MAX),
                "hcart::HaloExchanger: a message of " << bytes
                                                      << " bytes, more than MPI's int count");
    if (aggregate) {
      m_requests.emplace_back();
      m_expected.push_back(static_cast<int>(bytes));
      HCART_MPI_CHECK(MPI_Irecv(buffers.recv() + offset, static_cast<int>(bytes), MPI_BYTE,
                                peers[q].rank, m.recv_tag, m_now_comm, &m_requests.back()));
    } else {
      std::size_t segment = offset;
      const auto cells = static_cast<std::size_t>(m.recv_box.cells());
      for (std::size_t f = 0; f < m_slot_bytes.size(); ++f) {
        const auto length = static_cast<int>(cells * m_slot_bytes[f]);
        m_requests.emplace_back();
        m_expected.push_back(length);
        HCART_MPI_CHECK(MPI_Irecv(buffers.recv() + segment, length, MPI_BYTE, peers[q].rank,
                                  m.recv_tag + 27 * static_cast<int>(f + 1), m_now_comm,
                                  &m_requests.back()));
        segment += aligned(cells * m_slot_bytes[f]);
      }
    }
    offset += bytes;
  }
  m_times.post += seconds_since(t0);
  // Pack every message and field, and the local copies, in one launch (nothing when a
  // field here does not fit: the messages still go, for the others not to wait).
  t0 = Clock::now();
  buffers.bytes = offset;
  if (m_check.problem().empty()) {
    m_active->pack[p].run(m_space, "hcart_pack", m_pattern, m_refs, buffers.packed());
    // MPI reads the packed messages: they must be there. A phase of local copies alone (one
    // rank's periodic sides) runs in order with the kernels around it, unwaited.
    if (buffers.bytes > 0) fence(m_space, "hcart_halo");
  }
  m_times.pack += seconds_since(t0);
  if (buffers.by_copy() && buffers.bytes > 0) {
    t0 = Clock::now();
    buffers.stage_out(m_space, buffers.bytes);
    m_times.stage += seconds_since(t0);
  }
  t0 = Clock::now();
  offset = 0;
  for (std::size_t q = 0; q < phase.messages.size(); ++q) {
    const HaloPlan::Message& m = phase.messages[q];
    const int level = peers[q].level;
    const auto bytes = static_cast<std::int64_t>(message_bytes(m));
    const int copies = aggregate ? 1 : static_cast<int>(m_slot_bytes.size());
    // Counted without the alignment padding, as the traffic model counts.
    for (const std::size_t elem : m_slot_bytes)
      m_counters.bytes[level] += m.recv_box.cells() * static_cast<std::int64_t>(elem);
    m_counters.messages[level] += copies;
    if (m.local) continue;
    if (aggregate) {
      m_requests.emplace_back();
      HCART_MPI_CHECK(MPI_Isend(buffers.send() + offset, static_cast<int>(bytes), MPI_BYTE,
                                peers[q].rank, m.send_tag, m_now_comm, &m_requests.back()));
    } else {
      std::size_t segment = offset;
      const auto cells = static_cast<std::size_t>(m.send_box.cells());
      for (std::size_t f = 0; f < m_slot_bytes.size(); ++f) {
        m_requests.emplace_back();
        HCART_MPI_CHECK(MPI_Isend(buffers.send() + segment,
                                  static_cast<int>(cells * m_slot_bytes[f]), MPI_BYTE,
                                  peers[q].rank, m.send_tag + 27 * static_cast<int>(f + 1),
                                  m_now_comm, &m_requests.back()));
        segment += aligned(cells * m_slot_bytes[f]);
      }
    }
    offset += static_cast<std::size_t>(bytes);
  }
  m_times.post += seconds_since(t0);
}

void HaloEngine::complete_phase(std::size_t p) {
  PhaseBuffers& buffers = *m_buffers[p];
  // The fields' check completes with the messages of the first phase (FieldCheck::check_exchange).
  const bool judge = m_check.request() != MPI_REQUEST_NULL;
  if (judge) m_requests.push_back(m_check.request());
  auto t0 = Clock::now();
  m_statuses.resize(m_requests.size());
  const int rc =
      MPI_Waitall(static_cast<int>(m_requests.size()), m_requests.data(), m_statuses.data());
  if (rc != MPI_SUCCESS) {
    // Requests that neither completed nor failed (MPI_ERR_PENDING) are still active: done
    // here, so that nothing stays in flight whatever is thrown below.
    for (std::size_t r = 0; r < m_requests.size(); ++r) {
      if (m_statuses[r].MPI_ERROR == MPI_ERR_PENDING) MPI_Wait(&m_requests[r], &m_statuses[r]);
    }
  }
  m_times.wait += seconds_since(t0);
  if (judge) {
    m_check.request() = MPI_REQUEST_NULL;
    m_requests.pop_back();
    m_statuses.pop_back();
    t0 = Clock::now();
    m_check.judge(m_comm.get());
    m_times.check += seconds_since(t0);
  }
  if (rc != MPI_SUCCESS) {
    for (const MPI_Status& s : m_statuses) {
      if (s.MPI_ERROR != MPI_SUCCESS && s.MPI_ERROR != MPI_ERR_PENDING) {
        char text[MPI_MAX_ERROR_STRING] = {};
        int length = 0;
        MPI_Error_string(s.MPI_ERROR, text, &length);
        throw Error("hcart::HaloExchanger: a message from rank " + std::to_string(s.MPI_SOURCE) +
                    " failed (" + std::string(text, length) +
                    "); did the ranks pass the same fields?");
      }
    }
    impl::throw_mpi_error(rc, "MPI_Waitall", __FILE__, __LINE__);
  }
  // A shorter message than expected: the sender passed other fields.
  for (std::size_t r = 0; r < m_expected.size(); ++r) {
    int count = 0;
    HCART_MPI_CHECK(MPI_Get_count(&m_statuses[r], MPI_BYTE, &count));
    HCART_CHECK(count == m_expected[r], "hcart::HaloExchanger: rank "
                                            << m_statuses[r].MPI_SOURCE << " sent " << count
                                            << " bytes where " << m_expected[r]
                                            << " were expected; did the ranks pass the same "
                                               "fields?");
  }
  if (buffers.by_copy() && buffers.bytes > 0) {
    t0 = Clock::now();
    buffers.stage_in(m_space, buffers.bytes);
    m_times.stage += seconds_since(t0);
  }
  t0 = Clock::now();
  m_active->unpack[p].run(m_space, "hcart_unpack", m_pattern, m_refs, buffers.unpacked());
  // The next exchange's receives write the buffers the unpack reads: it must be done where
  // messages came (the halo's cells themselves are in order with the kernels that read them).
  if (buffers.bytes > 0) fence(m_space, "hcart_halo");
  m_times.unpack += seconds_since(t0);
}

void HaloEngine::finish(long flight) {
  if (flight == 0) {
    HCART_CHECK(m_in_flight,
                "hcart::HaloExchanger::finish: no exchange in flight; call start() first");
    HCART_CHECK(m_flight == 0, "hcart::HaloExchanger::finish: the exchange in flight is a "
                               "binding's; call its finish()");
  }
  complete_exchange();
}

// The rest of the exchange in flight: the first phase's messages, then the other phases.
void HaloEngine::complete_exchange() {
  if (m_check.abandoned()) {
    m_in_flight = false;
    m_check.throw_abandoned(m_comm.get()); // as on the ranks that did not wait
  }
  try {
    complete_phase(0);
    for (std::size_t p = 1; p < m_current->plan.phases.size(); ++p) {
      begin_phase(p);
      complete_phase(p);
    }
  } catch (...) {
    m_in_flight = false;
    throw;
  }
  m_in_flight = false;
  ++m_counters.exchanges;
}

} // namespace hcart::impl
