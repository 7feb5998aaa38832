#include <hcart/core/Collective.hpp>
#include <hcart/core/DeviceAwareMpi.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/halo/HaloExchanger.hpp>

#include <climits>

#include <algorithm>
#include <chrono>
#include <functional>

namespace hcart {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

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
  unsigned char* send = nullptr; // what MPI and the kernels use
  unsigned char* recv = nullptr;
};

// The copy lists of one field layout (the element sizes of the fields of a call), per
// phase. Kept for every layout met, so that alternating between sets of fields allocates
// nothing after the first call with each.
struct HaloExchanger::Copies {
  std::vector<std::size_t> layout;
  std::vector<impl::CopyList> pack, unpack;
};

HaloExchanger::HaloExchanger(const Grid& grid, HaloMode mode, const HaloOptions& options)
    : m_grid(&grid), m_mode(mode), m_options(options) {
  const Decomposition& decomp = grid.decomposition();
  const MPI_Comm comm = decomp.comm();
  const Block& block = grid.block();
  agree_on_errors(comm, [&] {
    HCART_REQUIRE(options.width >= 0, "hcart::HaloExchanger: HaloOptions::width "
                                          << options.width << ", expected 0 (all) or more");
    for (int d = 0; d < 3; ++d) {
      m_width[d] =
          options.width == 0 ? block.halo_width[d] : std::min(options.width, block.halo_width[d]);
    }
    m_plan = plan_halo(block, m_width, mode, options.full_method);
    m_device_buffers = device_mpi().device_buffers || !device_mpi().device_build;
  });
  for (const HaloPlan::Phase& phase : m_plan.phases) {
    std::vector<Peer> peers;
    for (const HaloPlan::Message& m : phase.messages) {
      Peer p;
      p.rank = block.at(m.offset).rank;
      p.level = decomp.separating_level(decomp.rank(), p.rank);
      peers.push_back(p);
    }
    m_peers.push_back(peers);
    m_states.push_back(std::make_unique<PhaseState>());
  }
  const Machine& machine = decomp.machine();
  for (const auto& level : machine.levels())
    m_counters.level_names.push_back(level.name);
  m_counters.level_names.push_back("self");
  reset_counters();
}

HaloExchanger::~HaloExchanger() {
  if (m_in_flight && !m_requests.empty()) {
    MPI_Waitall(static_cast<int>(m_requests.size()), m_requests.data(), MPI_STATUSES_IGNORE);
  }
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

void HaloExchanger::begin_binding(std::size_t count) {
  HCART_CHECK(!m_in_flight, "hcart::HaloExchanger::start: an exchange is already in flight; "
                            "call finish() first");
  HCART_REQUIRE(count <= static_cast<std::size_t>(impl::kMaxHaloFields),
                "hcart::HaloExchanger: " << count << " fields, at most " << impl::kMaxHaloFields);
  if (m_fields.size() < count) {
    m_fields.resize(count);
    ++m_allocations;
  }
  m_bound = count;
}

// The check of the fields bound for an exchange, before anything is posted. Locally: each
// field has the grid's extents. Collectively (HaloOptions::collective_checks): one reduction
// per exchange of {any problem, the largest and the smallest signature (the number, types
// and sizes of the fields)}. Every rank takes part in every exchange's reduction, whatever
// its own fields look like, so the ranks never disagree about whether a collective happens,
// and after a failure every rank throws the same InputError with nothing in flight. (Its
// cost, and why not a nonblocking reduction behind the packing: docs/benchmarks.md.)
void HaloExchanger::check_fields() {
  const auto extent = m_grid->extent();
  std::string problem;
  for (std::size_t f = 0; f < m_bound && problem.empty(); ++f) {
    const auto e = m_fields[f]->extents();
    if (e != extent) {
      problem = "hcart::HaloExchanger: field '" + m_fields[f]->label() + "' has extents " +
                std::to_string(e[0]) + "x" + std::to_string(e[1]) + "x" + std::to_string(e[2]) +
                " on rank " + std::to_string(m_grid->decomposition().rank()) +
                ", expected the grid's " + std::to_string(extent[0]) + "x" +
                std::to_string(extent[1]) + "x" + std::to_string(extent[2]);
    }
  }
  if (!m_options.collective_checks) {
    HCART_REQUIRE(problem.empty(), problem);
    return;
  }
  // The signature: the number, types and sizes of the fields (type_info::hash_code hashes
  // the type's name: the same in every process of one program).
  std::size_t signature = m_bound;
  for (std::size_t f = 0; f < m_bound; ++f) {
    signature = (signature * 1000003u) ^ m_fields[f]->type().hash_code();
    signature = (signature * 1000003u) ^ m_fields[f]->elem_bytes();
  }
  const auto sig = static_cast<long long>(signature & 0x3fffffffffffffffULL);
  long long values[3] = {problem.empty() ? 0 : 1, sig, -sig};
  const MPI_Comm comm = m_grid->decomposition().comm();
  const auto t0 = Clock::now();
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values, 3, MPI_LONG_LONG, MPI_MAX, comm));
  m_times.check += since(t0);
  if (values[0] > 0) agree_on_errors(comm, [&] { HCART_REQUIRE(problem.empty(), problem); });
  if (values[1] != -values[2]) {
    InputError error("hcart::HaloExchanger: the ranks passed different fields to the same "
                     "exchange (their number or types differ)");
    error.set_collective(true);
    throw error;
  }
}

std::size_t HaloExchanger::message_bytes(const HaloPlan::Message& m) const {
  const auto cells = static_cast<std::size_t>(m.recv_box.cells());
  std::size_t bytes = 0;
  for (std::size_t f = 0; f < m_bound; ++f)
    bytes += aligned(cells * m_fields[f]->elem_bytes());
  return bytes;
}

bool HaloExchanger::layout_is(const std::vector<std::size_t>& layout) const {
  if (layout.size() != m_bound) return false;
  for (std::size_t f = 0; f < m_bound; ++f) {
    if (layout[f] != m_fields[f]->elem_bytes()) return false;
  }
  return true;
}

void HaloExchanger::build_copies() {
  auto copies = std::make_unique<Copies>();
  for (std::size_t f = 0; f < m_bound; ++f)
    copies->layout.push_back(m_fields[f]->elem_bytes());
  for (const HaloPlan::Phase& phase : m_plan.phases) {
    std::vector<impl::CopyItem> pack, unpack;
    std::size_t offset = 0;
    for (const HaloPlan::Message& m : phase.messages) {
      for (std::size_t f = 0; f < m_bound; ++f) {
        impl::CopyItem item;
        item.field = static_cast<int>(f);
        if (m.local) {
          item.kind = impl::CopyKind::Local;
          item.box = m.send_box;
          for (int d = 0; d < 3; ++d)
            item.shift[d] = m.recv_box.lo[d] - m.send_box.lo[d];
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
  m_copies.push_back(std::move(copies));
  ++m_allocations;
}

void HaloExchanger::prepare() {
  if (m_active == nullptr || !layout_is(m_active->layout)) {
    m_active = nullptr;
    for (const auto& c : m_copies) {
      if (layout_is(c->layout)) m_active = c.get();
    }
    if (m_active == nullptr) {
      build_copies();
      m_active = m_copies.back().get();
    }
  }
  // Buffers large enough for this layout (they only grow).
  for (std::size_t p = 0; p < m_plan.phases.size(); ++p) {
    std::size_t total = 0;
    for (const HaloPlan::Message& m : m_plan.phases[p].messages) {
      if (!m.local) total += message_bytes(m);
    }
    PhaseState& s = *m_states[p];
    if (total <= s.capacity) continue;
    using Device = Kokkos::View<unsigned char*, MemorySpace>;
    using Pinned = Kokkos::View<unsigned char*, PinnedSpace>;
    const auto uninitialised = [](const char* label) {
      return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
    };
    if (m_device_buffers) {
      s.send_device = Device(uninitialised("hcart::halo::send"), total);
      s.recv_device = Device(uninitialised("hcart::halo::recv"), total);
      s.send = s.send_device.data();
      s.recv = s.recv_device.data();
    } else {
      s.send_pinned = Pinned(uninitialised("hcart::halo::send_pinned"), total);
      s.recv_pinned = Pinned(uninitialised("hcart::halo::recv_pinned"), total);
      s.send = s.send_pinned.data();
      s.recv = s.recv_pinned.data();
    }
    s.capacity = total;
    ++m_allocations;
  }
  std::size_t most_requests = 0;
  for (const HaloPlan::Phase& phase : m_plan.phases) {
    most_requests = std::max(most_requests, 2 * phase.messages.size() * m_bound);
  }
  if (m_requests.capacity() < most_requests) {
    m_requests.reserve(most_requests);
    m_statuses.reserve(most_requests);
    m_expected.reserve(most_requests);
    ++m_allocations;
  }
}

void HaloExchanger::start_bound() {
  check_fields();
  prepare();
  for (std::size_t f = 0; f < m_bound; ++f)
    m_refs[f] = m_fields[f]->ref();
  m_in_flight = true;
  try {
    begin_phase(0);
  } catch (...) {
    m_in_flight = false;
    throw;
  }
}

void HaloExchanger::begin_phase(std::size_t p) {
  const MPI_Comm comm = m_grid->decomposition().comm();
  const HaloPlan::Phase& phase = m_plan.phases[p];
  const std::vector<Peer>& peers = m_peers[p];
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
                                peers[q].rank, m.recv_tag, comm, &m_requests.back()));
    } else {
      std::size_t segment = offset;
      const auto cells = static_cast<std::size_t>(m.recv_box.cells());
      for (std::size_t f = 0; f < m_bound; ++f) {
        const auto length = static_cast<int>(cells * m_fields[f]->elem_bytes());
        m_requests.emplace_back();
        m_expected.push_back(length);
        HCART_MPI_CHECK(MPI_Irecv(state.recv + segment, length, MPI_BYTE, peers[q].rank,
                                  m.recv_tag + 27 * static_cast<int>(f + 1), comm,
                                  &m_requests.back()));
        segment += aligned(cells * m_fields[f]->elem_bytes());
      }
    }
    offset += bytes;
  }
  m_times.post += since(t0);
  // Pack every message and field, and the local copies, in one launch.
  t0 = Clock::now();
  m_active->pack[p].run(m_space, "hcart_pack", m_pattern, m_refs, state.send);
  fence(m_space, "hcart_halo");
  m_times.pack += since(t0);
  t0 = Clock::now();
  offset = 0;
  for (std::size_t q = 0; q < phase.messages.size(); ++q) {
    const HaloPlan::Message& m = phase.messages[q];
    const int level = peers[q].level;
    const auto bytes = static_cast<std::int64_t>(message_bytes(m));
    const int copies = aggregate ? 1 : static_cast<int>(m_bound);
    // Counted without the alignment padding, as the traffic model counts.
    for (std::size_t f = 0; f < m_bound; ++f) {
      m_counters.bytes[level] +=
          m.recv_box.cells() * static_cast<std::int64_t>(m_fields[f]->elem_bytes());
    }
    m_counters.messages[level] += copies;
    if (m.local) continue;
    if (aggregate) {
      m_requests.emplace_back();
      HCART_MPI_CHECK(MPI_Isend(state.send + offset, static_cast<int>(bytes), MPI_BYTE,
                                peers[q].rank, m.send_tag, comm, &m_requests.back()));
    } else {
      std::size_t segment = offset;
      const auto cells = static_cast<std::size_t>(m.send_box.cells());
      for (std::size_t f = 0; f < m_bound; ++f) {
        m_requests.emplace_back();
        HCART_MPI_CHECK(MPI_Isend(
            state.send + segment, static_cast<int>(cells * m_fields[f]->elem_bytes()), MPI_BYTE,
            peers[q].rank, m.send_tag + 27 * static_cast<int>(f + 1), comm, &m_requests.back()));
        segment += aligned(cells * m_fields[f]->elem_bytes());
      }
    }
    offset += static_cast<std::size_t>(bytes);
  }
  m_times.post += since(t0);
}

void HaloExchanger::complete_phase(std::size_t p) {
  PhaseState& state = *m_states[p];
  auto t0 = Clock::now();
  m_statuses.resize(m_requests.size());
  const int rc =
      MPI_Waitall(static_cast<int>(m_requests.size()), m_requests.data(), m_statuses.data());
  m_times.wait += since(t0);
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
  t0 = Clock::now();
  m_active->unpack[p].run(m_space, "hcart_unpack", m_pattern, m_refs, state.recv);
  fence(m_space, "hcart_halo");
  m_times.unpack += since(t0);
}

void HaloExchanger::finish() {
  HCART_CHECK(m_in_flight,
              "hcart::HaloExchanger::finish: no exchange in flight; call start() first");
  try {
    complete_phase(0);
    for (std::size_t p = 1; p < m_plan.phases.size(); ++p) {
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
