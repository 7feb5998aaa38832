#include "CopyList.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/DeviceAwareMpi.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/core/Timers.hpp>
#include <hcart/halo/HaloExchanger.hpp>

#include <climits>
#include <cstdlib>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <utility>

namespace hcart {

namespace {

using Clock = std::chrono::steady_clock;

// Field segments inside a message start on 64-byte boundaries.
std::size_t aligned(std::size_t bytes) {
  return (bytes + 63) / 64 * 64;
}

// Pinned host memory, which device kernels can write and read directly, for staging.
#if defined(KOKKOS_ENABLE_CUDA)
using PinnedSpace = Kokkos::CudaHostPinnedSpace;
#elif defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
using PinnedSpace = Kokkos::HIPHostPinnedSpace;
#else
using PinnedSpace = Kokkos::HostSpace;
#endif

} // namespace

struct HaloExchanger::PhaseState {
  Kokkos::View<unsigned char*, MemorySpace> send_device, recv_device;
  Kokkos::View<unsigned char*, PinnedSpace> send_pinned, recv_pinned;
  std::size_t capacity = 0;
  std::size_t bytes = 0;         // of the messages in flight
  unsigned char* send = nullptr; // what MPI uses
  unsigned char* recv = nullptr;
  unsigned char* packed = nullptr; // what the kernels use (send / recv unless staged by copy)
  unsigned char* unpacked = nullptr;
};

namespace {

// HCART_HALO_STAGING: true for `copy`, false for `kernel` or unset.
bool staging_by_copy() {
  const char* value = std::getenv("HCART_HALO_STAGING");
  if (value == nullptr || *value == '\0' || std::string(value) == "kernel") return false;
  if (std::string(value) == "copy") return true;
  throw InputError(std::string("HCART_HALO_STAGING='") + value + "': expected 'kernel' (the pack "
                   "and unpack kernels use the pinned host buffers) or 'copy' (device buffers, "
                   "copied to and from pinned ones)");
}

} // namespace

// The copy lists of one field layout (the element sizes of the fields of a call), per
// phase. Kept for every layout met, so that alternating between sets of fields allocates
// nothing after the first call with each.
struct HaloExchanger::Copies {
  std::vector<std::size_t> layout;
  std::vector<impl::CopyList> pack, unpack;
};

// One width's messages: the plan, its peers (per phase, per message) and the copy lists of
// every field layout met at this width.
struct HaloExchanger::WidthPlan {
  std::array<int, 3> width{};
  HaloPlan plan;
  std::vector<std::vector<Peer>> peers;
  std::vector<std::unique_ptr<Copies>> copies;
};

HaloCounters& HaloCounters::operator+=(const HaloCounters& other) {
  HCART_CHECK(level_names == other.level_names,
              "hcart::HaloCounters: adding counters of other hardware levels");
  for (std::size_t l = 0; l < bytes.size(); ++l) {
    bytes[l] += other.bytes[l];
    messages[l] += other.messages[l];
  }
  exchanges += other.exchanges;
  return *this;
}

HaloExchanger::HaloExchanger(const Grid& grid, HaloMode mode, const HaloOptions& options)
    : m_grid(&grid), m_mode(mode), m_options(options) {
  const Block& block = grid.block();
  for (int d = 0; d < 3; ++d)
    m_full_layers = std::max(m_full_layers, block.halo_width[d]);
  m_plans.resize(static_cast<std::size_t>(m_full_layers) + 1);
  agree_on_errors(grid.decomposition().comm(), [&] {
    m_device_buffers = device_mpi().device_buffers || !device_mpi().device_build;
    m_stage_by_copy = staging_by_copy() && !m_device_buffers;
  });
  agree_on_errors(grid.decomposition().comm(), [&] { m_default = &plan_of(options.width); });
  m_now.reserve(static_cast<std::size_t>(impl::kMaxHaloFields));
  m_slot_bytes.reserve(static_cast<std::size_t>(impl::kMaxHaloFields));
  // Its own communicator: its messages, tags and checks never meet the program's or
  // another exchanger's (a probe of a failed exchange takes only its own messages).
  HCART_MPI_CHECK(MPI_Comm_dup(grid.decomposition().comm(), &m_comm));
  for (std::size_t p = 0; p < m_default->plan.phases.size(); ++p)
    m_states.push_back(std::make_unique<PhaseState>());
  const Machine& machine = grid.decomposition().machine();
  for (const auto& level : machine.levels())
    m_counters.level_names.push_back(level.name);
  m_counters.level_names.push_back("self");
  reset_counters();
}

const HaloPlan& HaloExchanger::plan() const noexcept {
  return m_default->plan;
}

std::array<int, 3> HaloExchanger::width() const noexcept {
  return m_default->width;
}

// The plan of `layers` (0: the whole halo), made at its first use. Local: the constructor
// agrees on its width's errors over the ranks; a width passed to one call is checked with
// the fields (begin_binding, check_fields). Widths beyond the deepest halo share its plan.
// (Every width of one mode has as many phases.)
HaloExchanger::WidthPlan& HaloExchanger::plan_of(int layers) {
  HCART_REQUIRE(layers >= 0,
                "hcart::HaloExchanger: width " << layers << ", expected 0 (all) or more");
  const Decomposition& decomp = m_grid->decomposition();
  const Block& block = m_grid->block();
  const int index = layers == 0 ? m_full_layers : std::min(layers, m_full_layers);
  auto& slot = m_plans[static_cast<std::size_t>(index)];
  if (slot) return *slot;
  auto made = std::make_unique<WidthPlan>();
  for (int d = 0; d < 3; ++d)
    made->width[d] = layers == 0 ? block.halo_width[d] : std::min(layers, block.halo_width[d]);
  made->plan = plan_halo(block, made->width, m_mode, m_options.full_method);
  for (const HaloPlan::Phase& phase : made->plan.phases) {
    std::vector<Peer> peers;
    for (const HaloPlan::Message& m : phase.messages) {
      Peer p;
      p.rank = block.at(m.offset).rank;
      p.level = decomp.separating_level(decomp.rank(), p.rank);
      peers.push_back(p);
    }
    made->peers.push_back(peers);
  }
  slot = std::move(made);
  ++m_allocations;
  return *slot;
}

HaloExchanger::~HaloExchanger() {
  if (m_in_flight && !m_requests.empty()) {
    MPI_Waitall(static_cast<int>(m_requests.size()), m_requests.data(), MPI_STATUSES_IGNORE);
  }
  if (m_check_request != MPI_REQUEST_NULL) MPI_Wait(&m_check_request, MPI_STATUS_IGNORE);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && m_comm != MPI_COMM_NULL) MPI_Comm_free(&m_comm);
}

void HaloExchanger::reset_counters() {
  m_counters.bytes.assign(m_counters.level_names.size(), 0);
  m_counters.messages.assign(m_counters.level_names.size(), 0);
  m_counters.exchanges = 0;
}

void HaloExchanger::set_loop_pattern(LoopPattern pattern) {
  HCART_CHECK(pattern == LoopPattern::Portable || host_execution,
              "hcart::HaloExchanger::set_loop_pattern: the host row pattern cannot run on the "
                  << execution_space_name() << " execution space");
  m_pattern = pattern;
}

void HaloExchanger::begin_binding(std::size_t count, HaloWidth width) {
  HCART_CHECK(!m_in_flight, "hcart::HaloExchanger::start: an exchange is already in flight; "
                            "call finish() first");
  // A width this rank cannot exchange is its problem in the check, which every rank takes
  // part in; meanwhile the exchanger's own width gives the messages their sizes.
  m_layers = width.layers;
  m_width_problem.clear();
  WidthPlan* plan = m_default;
  if (width.layers != m_options.width) {
    try {
      plan = &plan_of(width.layers);
    } catch (const InputError& e) {
      m_width_problem = e.what();
    }
  }
  if (plan != m_current) m_active = nullptr; // another width: its own copy lists
  m_current = plan;
  if (m_fields.size() < count) {
    m_fields.resize(count);
    ++m_allocations;
  }
  m_bound = count;
}

// The fields of the exchange now (m_now: start()'s, or a binding's), and the values of a
// cell it moves, one per field or component: the packer's slots (m_slot_bytes). Allocates
// nothing within kMaxHaloFields.
void HaloExchanger::use_fields(const std::unique_ptr<impl::BoundField>* fields, std::size_t count) {
  m_now.clear();
  m_slot_bytes.clear();
  for (std::size_t f = 0; f < count; ++f) {
    m_now.push_back(fields[f].get());
    for (int c = 0; c < fields[f]->components(); ++c)
      m_slot_bytes.push_back(fields[f]->elem_bytes());
  }
}

// This rank's side of the check of the fields in m_now, m_layers deep: its problem
// (m_problem: the width's, or the first field that does not fit the grid) and the values to
// reduce (m_check). Returns the signature.
long long HaloExchanger::local_check() {
  m_problem = m_width_problem;
  if (m_problem.empty() && m_slot_bytes.size() > static_cast<std::size_t>(impl::kMaxHaloFields)) {
    m_problem = "hcart::HaloExchanger: " + std::to_string(m_slot_bytes.size()) +
                " values per cell (fields, and the components of fields with components), at "
                "most " +
                std::to_string(impl::kMaxHaloFields);
  }
  for (std::size_t f = 0; f < m_now.size() && m_problem.empty(); ++f) {
    try {
      m_now[f]->require_fits(*m_grid, "hcart::HaloExchanger");
    } catch (const InputError& e) {
      m_problem =
          std::string(e.what()) + " (rank " + std::to_string(m_grid->decomposition().rank()) + ")";
    }
  }
  // The signature (type_info::hash_code hashes the type's name: the same in every process
  // of one program).
  std::size_t signature = m_now.size();
  for (std::size_t f = 0; f < m_now.size(); ++f) {
    signature = (signature * 1000003u) ^ m_now[f]->type().hash_code();
    signature = (signature * 1000003u) ^ m_now[f]->elem_bytes();
    signature = (signature * 1000003u) ^ static_cast<std::size_t>(m_now[f]->components());
  }
  signature = (signature * 1000003u) ^ static_cast<std::size_t>(m_layers);
  const auto sig = static_cast<long long>(signature & 0x3fffffffffffffffULL);
  m_check[0] = m_problem.empty() ? 0 : 1;
  m_check[1] = sig;
  m_check[2] = -sig;
  return sig;
}

// The check of the fields bound for an exchange. Locally: each field fits the grid
// (Grid::require_fits), every exchange. Collectively (HaloOptions::collective_checks): one
// reduction per exchange of {any misfit, the largest and the smallest signature (the number,
// types and sizes of the fields and the width)}, on every rank whatever its own fields, so
// the ranks never disagree about whether a collective happens.
//
// Why it need not wait before the messages: a message's size depends only on the signature
// (a rank whose field misfits sends an unpacked buffer of the right size, and packs nothing).
// So while every rank passes the signature of the exchange before (which all ranks agreed
// on), the messages are safe whatever the check finds, and the reduction completes with
// them (complete_phase), read before anything is unpacked. A rank whose signature changed
// (the first exchange, another width or other fields) cannot know what sizes the others
// send, so it waits for the reduction before posting anything ("careful"). If the ranks
// disagree, some are careful and see it before posting: they send empty messages and take
// whatever the others sent with a matched probe (abandon_exchange), so that no receive is
// ever posted for fewer bytes than arrive (Open MPI's single-copy transfer writes past the
// buffer of a receive that is too short). Every rank then throws the same InputError with
// nothing in flight. With one message per field (aggregate_fields off) the number of
// messages depends on the fields too: every exchange waits for the reduction first.
void HaloExchanger::check_fields() {
  const long long sig = local_check();
  if (!m_options.collective_checks) {
    HCART_REQUIRE(m_problem.empty(), m_problem);
    return;
  }
  const auto t0 = Clock::now();
  if (!m_options.aggregate_fields) {
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, m_check, 3, MPI_LONG_LONG, MPI_MAX, m_comm));
    m_times.check += seconds_since(t0);
    judge_check();
    return;
  }
  HCART_MPI_CHECK(
      MPI_Iallreduce(MPI_IN_PLACE, m_check, 3, MPI_LONG_LONG, MPI_MAX, m_comm, &m_check_request));
  if (sig == m_agreed) {
    m_times.check += seconds_since(t0);
    return; // completed with the messages
  }
  HCART_MPI_CHECK(MPI_Wait(&m_check_request, MPI_STATUS_IGNORE));
  m_times.check += seconds_since(t0);
  if (m_check[0] > 0 || m_check[1] != -m_check[2]) {
    // Judged in finish(), where the ranks that did not wait find it too: every rank throws
    // from the same call, whatever the program does between start() and finish().
    abandon_exchange();
    m_abandoned = true;
    return;
  }
  m_agreed = sig;
}

// A careful rank's side of an exchange the check failed: an empty message to each peer of
// the first phase, and each peer's message taken at the size it has.
void HaloExchanger::abandon_exchange() {
  const HaloPlan::Phase& phase = m_current->plan.phases.front();
  const std::vector<Peer>& peers = m_current->peers.front();
  std::vector<MPI_Request> sends;
  for (std::size_t q = 0; q < phase.messages.size(); ++q) {
    if (phase.messages[q].local) continue;
    sends.emplace_back();
    HCART_MPI_CHECK(MPI_Isend(nullptr, 0, MPI_BYTE, peers[q].rank, phase.messages[q].send_tag,
                              m_comm, &sends.back()));
  }
  std::vector<unsigned char> scratch;
  for (std::size_t q = 0; q < phase.messages.size(); ++q) {
    if (phase.messages[q].local) continue;
    MPI_Message message;
    MPI_Status status;
    HCART_MPI_CHECK(
        MPI_Mprobe(peers[q].rank, phase.messages[q].recv_tag, m_comm, &message, &status));
    int count = 0;
    HCART_MPI_CHECK(MPI_Get_count(&status, MPI_BYTE, &count));
    scratch.resize(static_cast<std::size_t>(std::max(count, 1)));
    HCART_MPI_CHECK(MPI_Mrecv(scratch.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE));
  }
  HCART_MPI_CHECK(MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE));
}

// The outcome of the reduction, the same on every rank: an InputError on all when a rank
// found a misfit (its message) or the signatures differ.
void HaloExchanger::judge_check() {
  const auto t0 = Clock::now();
  if (m_check[0] > 0) {
    agree_on_errors(m_comm, [&] { HCART_REQUIRE(m_problem.empty(), m_problem); });
  }
  m_times.check += seconds_since(t0);
  if (m_check[1] != -m_check[2]) {
    InputError error("hcart::HaloExchanger: the ranks passed different fields to the same "
                     "exchange (their number or types, or the width, differ)");
    error.set_collective(true);
    throw error;
  }
}

std::size_t HaloExchanger::message_bytes(const HaloPlan::Message& m) const {
  const auto cells = static_cast<std::size_t>(m.recv_box.cells());
  std::size_t bytes = 0;
  for (const std::size_t elem : m_slot_bytes)
    bytes += aligned(cells * elem);
  return bytes;
}

bool HaloExchanger::layout_is(const std::vector<std::size_t>& layout) const {
  return layout == m_slot_bytes;
}

void HaloExchanger::build_copies() {
  auto copies = std::make_unique<Copies>();
  copies->layout = m_slot_bytes;
  const std::size_t slots = m_slot_bytes.size();
  for (const HaloPlan::Phase& phase : m_current->plan.phases) {
    std::vector<impl::CopyItem> pack, unpack;
    std::size_t offset = 0;
    // A periodic direction with one rank: the messages towards o and -o are both local
    // copies of boxes of one shape. They go as one item (LocalPair), both sides of a row in
    // one pass, as a hand-written periodic copy does: the rows of a face across k are one
    // element each, and two passes read every cache line of the face twice.
    const std::size_t count = phase.messages.size();
    std::vector<std::size_t> partner(count, count);
    for (std::size_t q = 0; q < count; ++q) {
      const HaloPlan::Message& a = phase.messages[q];
      for (std::size_t r = q + 1; r < count && a.local && partner[q] == count; ++r) {
        const HaloPlan::Message& b = phase.messages[r];
        bool opposite = b.local && partner[r] == count;
        for (int d = 0; d < 3; ++d) {
          opposite = opposite && b.offset[d] == -a.offset[d] &&
                     b.send_box.extent(d) == a.send_box.extent(d);
        }
        if (opposite) {
          partner[q] = r;
          partner[r] = q;
        }
      }
    }
    for (std::size_t q = 0; q < count; ++q) {
      const HaloPlan::Message& m = phase.messages[q];
      if (m.local && partner[q] < q) continue; // went with its partner
      for (std::size_t f = 0; f < slots; ++f) {
        impl::CopyItem item;
        item.field = static_cast<int>(f);
        if (m.local) {
          item.kind = impl::CopyKind::Local;
          item.box = m.send_box;
          for (int d = 0; d < 3; ++d)
            item.shift[d] = m.recv_box.lo[d] - m.send_box.lo[d];
          if (partner[q] < count) {
            const HaloPlan::Message& other = phase.messages[partner[q]];
            item.kind = impl::CopyKind::LocalPair;
            for (int d = 0; d < 3; ++d) {
              item.lo2[d] = other.send_box.lo[d];
              item.shift2[d] = other.recv_box.lo[d] - other.send_box.lo[d];
            }
          }
          pack.push_back(item);
          continue;
        }
        item.kind = impl::CopyKind::Pack;
        item.box = m.send_box;
        item.buffer_offset = static_cast<std::int64_t>(offset);
        pack.push_back(item);
        item.kind = impl::CopyKind::Unpack;
        item.box = m.recv_box;
        unpack.push_back(item);
        offset += aligned(static_cast<std::size_t>(m.recv_box.cells()) * copies->layout[f]);
      }
    }
    copies->pack.emplace_back(std::move(pack));
    copies->unpack.emplace_back(std::move(unpack));
  }
  m_current->copies.push_back(std::move(copies));
  ++m_allocations;
}

void HaloExchanger::prepare() {
  if (m_active == nullptr || !layout_is(m_active->layout)) {
    m_active = nullptr;
    for (const auto& c : m_current->copies) {
      if (layout_is(c->layout)) m_active = c.get();
    }
    if (m_active == nullptr) {
      build_copies();
      m_active = m_current->copies.back().get();
    }
  }
  // Buffers large enough for this layout (they only grow).
  for (std::size_t p = 0; p < m_current->plan.phases.size(); ++p) {
    std::size_t total = 0;
    for (const HaloPlan::Message& m : m_current->plan.phases[p].messages) {
      if (!m.local) total += message_bytes(m);
    }
    PhaseState& s = *m_states[p];
    if (total <= s.capacity) continue;
    using Device = Kokkos::View<unsigned char*, MemorySpace>;
    using Pinned = Kokkos::View<unsigned char*, PinnedSpace>;
    const auto uninitialised = [](const char* label) {
      return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
    };
    if (m_device_buffers || m_stage_by_copy) {
      s.send_device = Device(uninitialised("hcart::halo::send"), total);
      s.recv_device = Device(uninitialised("hcart::halo::recv"), total);
      s.send = s.packed = s.send_device.data();
      s.recv = s.unpacked = s.recv_device.data();
    }
    if (!m_device_buffers) {
      s.send_pinned = Pinned(uninitialised("hcart::halo::send_pinned"), total);
      s.recv_pinned = Pinned(uninitialised("hcart::halo::recv_pinned"), total);
      s.send = s.send_pinned.data();
      s.recv = s.recv_pinned.data();
      if (!m_stage_by_copy) {
        s.packed = s.send;
        s.unpacked = s.recv;
      }
    }
    s.capacity = total;
    ++m_allocations;
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

void HaloExchanger::start_bound() {
  use_fields(m_fields.data(), m_bound);
  m_now_comm = m_comm;
  m_flight = 0;
  check_fields();
  if (m_abandoned) { // the check failed: nothing posted; finish() throws its error
    m_in_flight = true;
    return;
  }
  post_first_phase();
}

// Packs and posts the first phase of the exchange of m_now (checked, or bound).
void HaloExchanger::post_first_phase() {
  try {
    prepare();
    std::size_t slot = 0; // (a rank with a problem packs nothing: its refs are not read)
    for (std::size_t f = 0; f < m_now.size() && m_problem.empty(); ++f) {
      for (int c = 0; c < m_now[f]->components(); ++c)
        m_refs[slot++] = m_now[f]->ref(c);
    }
    m_in_flight = true;
    begin_phase(0);
  } catch (...) {
    // Nothing stays active: the reduction (every rank posted it) completed, receives
    // cancelled. (Only a local failure gets here: MPI, memory, a message beyond an int.)
    m_in_flight = false;
    if (m_check_request != MPI_REQUEST_NULL) MPI_Wait(&m_check_request, MPI_STATUS_IGNORE);
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
void HaloExchanger::make_binding(HaloBinding& binding, HaloWidth width) {
  HCART_CHECK(!m_in_flight, "hcart::HaloExchanger::bind: an exchange is in flight; call "
                            "finish() first");
  const auto t0 = Clock::now();
  m_layers = width.layers;
  m_width_problem.clear();
  try {
    plan_of(width.layers);
  } catch (const InputError& e) {
    m_width_problem = e.what();
  }
  use_fields(binding.m_fields.data(), binding.m_fields.size());
  local_check();
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, m_check, 3, MPI_LONG_LONG, MPI_MAX, m_comm));
  m_times.check += seconds_since(t0);
  judge_check();
  HCART_MPI_CHECK(MPI_Comm_dup(m_comm, &binding.m_comm));
  binding.m_exchanger = this;
  binding.m_layers = width.layers;
  binding.m_id = ++m_bindings;
}

// A binding's exchange: no check (bind() made it, and the binding's views cannot change).
void HaloExchanger::start_binding(const HaloBinding& binding) {
  HCART_CHECK(!m_in_flight, "hcart::HaloBinding::start: an exchange of its exchanger is "
                            "already in flight; call finish() first");
  WidthPlan* plan = &plan_of(binding.m_layers); // made at bind()
  if (plan != m_current) m_active = nullptr;
  m_current = plan;
  use_fields(binding.m_fields.data(), binding.m_fields.size());
  m_now_comm = binding.m_comm;
  m_flight = binding.m_id;
  m_problem.clear();
  post_first_phase();
}

void HaloExchanger::begin_phase(std::size_t p) {
  const HaloPlan::Phase& phase = m_current->plan.phases[p];
  const std::vector<Peer>& peers = m_current->peers[p];
  PhaseState& state = *m_states[p];
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
      HCART_MPI_CHECK(MPI_Irecv(state.recv + offset, static_cast<int>(bytes), MPI_BYTE,
                                peers[q].rank, m.recv_tag, m_now_comm, &m_requests.back()));
    } else {
      std::size_t segment = offset;
      const auto cells = static_cast<std::size_t>(m.recv_box.cells());
      for (std::size_t f = 0; f < m_slot_bytes.size(); ++f) {
        const auto length = static_cast<int>(cells * m_slot_bytes[f]);
        m_requests.emplace_back();
        m_expected.push_back(length);
        HCART_MPI_CHECK(MPI_Irecv(state.recv + segment, length, MPI_BYTE, peers[q].rank,
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
  state.bytes = offset;
  if (m_problem.empty()) {
    m_active->pack[p].run(m_space, "hcart_pack", m_pattern, m_refs, state.packed);
    fence(m_space, "hcart_halo");
  }
  m_times.pack += seconds_since(t0);
  if (m_stage_by_copy && state.bytes > 0) {
    t0 = Clock::now();
    const std::pair<std::size_t, std::size_t> sent(0, state.bytes);
    Kokkos::deep_copy(m_space, Kokkos::subview(state.send_pinned, sent),
                      Kokkos::subview(state.send_device, sent));
    fence(m_space, "hcart_halo");
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
      HCART_MPI_CHECK(MPI_Isend(state.send + offset, static_cast<int>(bytes), MPI_BYTE,
                                peers[q].rank, m.send_tag, m_now_comm, &m_requests.back()));
    } else {
      std::size_t segment = offset;
      const auto cells = static_cast<std::size_t>(m.send_box.cells());
      for (std::size_t f = 0; f < m_slot_bytes.size(); ++f) {
        m_requests.emplace_back();
        HCART_MPI_CHECK(MPI_Isend(state.send + segment, static_cast<int>(cells * m_slot_bytes[f]),
                                  MPI_BYTE, peers[q].rank,
                                  m.send_tag + 27 * static_cast<int>(f + 1), m_now_comm,
                                  &m_requests.back()));
        segment += aligned(cells * m_slot_bytes[f]);
      }
    }
    offset += static_cast<std::size_t>(bytes);
  }
  m_times.post += seconds_since(t0);
}

void HaloExchanger::complete_phase(std::size_t p) {
  PhaseState& state = *m_states[p];
  // The fields' check completes with the messages of the first phase (check_fields).
  const bool judge = m_check_request != MPI_REQUEST_NULL;
  if (judge) m_requests.push_back(m_check_request);
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
    m_check_request = MPI_REQUEST_NULL;
    m_requests.pop_back();
    m_statuses.pop_back();
    judge_check();
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
  if (m_stage_by_copy && state.bytes > 0) {
    t0 = Clock::now();
    const std::pair<std::size_t, std::size_t> received(0, state.bytes);
    Kokkos::deep_copy(m_space, Kokkos::subview(state.recv_device, received),
                      Kokkos::subview(state.recv_pinned, received));
    fence(m_space, "hcart_halo");
    m_times.stage += seconds_since(t0);
  }
  t0 = Clock::now();
  m_active->unpack[p].run(m_space, "hcart_unpack", m_pattern, m_refs, state.unpacked);
  fence(m_space, "hcart_halo");
  m_times.unpack += seconds_since(t0);
}

void HaloExchanger::finish() {
  HCART_CHECK(m_in_flight,
              "hcart::HaloExchanger::finish: no exchange in flight; call start() first");
  HCART_CHECK(m_flight == 0, "hcart::HaloExchanger::finish: the exchange in flight is a "
                             "binding's; call its finish()");
  complete_exchange();
}

void HaloBinding::start() {
  HCART_CHECK(m_exchanger != nullptr, "hcart::HaloBinding::start: an empty binding (made by "
                                      "HaloExchanger::bind, or moved from)");
  m_exchanger->start_binding(*this);
  m_started = true;
}

void HaloBinding::finish() {
  HCART_CHECK(m_started, "hcart::HaloBinding::finish: this binding has no exchange in flight; "
                         "call start() first");
  m_started = false;
  m_exchanger->complete_exchange();
}

HaloBinding::HaloBinding(HaloBinding&& other) noexcept
    : m_exchanger(other.m_exchanger), m_fields(std::move(other.m_fields)), m_layers(other.m_layers),
      m_id(other.m_id), m_comm(other.m_comm), m_started(other.m_started) {
  other.m_exchanger = nullptr;
  other.m_comm = MPI_COMM_NULL;
  other.m_started = false;
}

HaloBinding& HaloBinding::operator=(HaloBinding&& other) noexcept {
  if (this != &other) {
    release();
    m_exchanger = other.m_exchanger;
    m_fields = std::move(other.m_fields);
    m_layers = other.m_layers;
    m_id = other.m_id;
    m_comm = other.m_comm;
    m_started = other.m_started;
    other.m_exchanger = nullptr;
    other.m_comm = MPI_COMM_NULL;
    other.m_started = false;
  }
  return *this;
}

HaloBinding::~HaloBinding() {
  release();
}

// Completes an exchange of this binding still in flight (errors are lost: a destructor),
// and frees the communicator. The exchanger is touched only then: an idle binding may be
// destroyed after it.
void HaloBinding::release() noexcept {
  if (m_started) {
    m_started = false;
    try {
      m_exchanger->complete_exchange();
    } catch (...) {
    }
  }
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && m_comm != MPI_COMM_NULL) MPI_Comm_free(&m_comm);
  m_comm = MPI_COMM_NULL;
  m_exchanger = nullptr;
  m_fields.clear();
}

// The rest of the exchange in flight: the first phase's messages, then the other phases.
void HaloExchanger::complete_exchange() {
  if (m_abandoned) {
    m_abandoned = false;
    m_in_flight = false;
    judge_check(); // throws, as on the ranks that did not wait
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

} // namespace hcart
