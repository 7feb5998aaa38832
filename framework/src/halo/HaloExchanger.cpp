#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/halo/HaloExchanger.hpp>

#include <climits>

#include <chrono>
#include <functional>

namespace hcart {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

int tag_of(const std::array<int, 3>& o) {
  return (o[0] + 1) * 9 + (o[1] + 1) * 3 + (o[2] + 1);
}

// Field segments inside a message start on 64-byte boundaries.
std::size_t aligned(std::size_t bytes) {
  return (bytes + 63) / 64 * 64;
}

#ifdef HCART_GPU_AWARE_MPI
constexpr bool staged = false;
#else
constexpr bool staged = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;
#endif

} // namespace

struct HaloExchanger::Buffers {
  using Device = Kokkos::View<unsigned char*, MemorySpace>;
  using Host = Kokkos::View<unsigned char*, Kokkos::HostSpace>;
  std::vector<Device> send, recv;
  std::vector<Host> send_host, recv_host;
  std::vector<std::size_t> capacity;
  // The buffers MPI reads and writes (host staging areas when staged).
  unsigned char* mpi_send(std::size_t p) { return staged ? send_host[p].data() : send[p].data(); }
  unsigned char* mpi_recv(std::size_t p) { return staged ? recv_host[p].data() : recv[p].data(); }
};

HaloExchanger::HaloExchanger(const Grid& grid, HaloMode mode, const HaloOptions& options)
    : m_grid(&grid), m_mode(mode), m_options(options), m_buffers(std::make_unique<Buffers>()) {
  const Decomposition& decomp = grid.decomposition();
  const auto n = grid.local_size();
  const auto h = grid.halo_width();
  auto has_neighbour = [&](int dir, int side) {
    std::array<int, 3> o{0, 0, 0};
    o[dir] = side;
    return decomp.neighbour(o) != MPI_PROC_NULL;
  };
  // The boxes for offset o. `extended[j]`: direction j was exchanged in an earlier phase,
  // so its halos (where a neighbour filled them) travel along.
  auto boxes = [&](const std::array<int, 3>& o, const std::array<bool, 3>& extended,
                   impl::Box& send, impl::Box& recv) {
    for (int j = 0; j < 3; ++j) {
      if (o[j] > 0) {
        send.lo[j] = n[j];
        send.hi[j] = n[j] + h[j];
        recv.lo[j] = h[j] + n[j];
        recv.hi[j] = n[j] + 2 * h[j];
      } else if (o[j] < 0) {
        send.lo[j] = h[j];
        send.hi[j] = 2 * h[j];
        recv.lo[j] = 0;
        recv.hi[j] = h[j];
      } else {
        send.lo[j] = extended[j] && has_neighbour(j, -1) ? 0 : h[j];
        send.hi[j] = extended[j] && has_neighbour(j, +1) ? n[j] + 2 * h[j] : h[j] + n[j];
        recv.lo[j] = send.lo[j];
        recv.hi[j] = send.hi[j];
      }
    }
  };
  auto add = [&](Phase& phase, const std::array<int, 3>& o, const std::array<bool, 3>& extended) {
    const int peer = decomp.neighbour(o);
    if (peer == MPI_PROC_NULL) return;
    Message m;
    m.offset = o;
    m.peer = peer;
    boxes(o, extended, m.send_box, m.recv_box);
    if (m.recv_box.cells() == 0) return; // halo 0 in a crossed direction: nothing to send
    m.send_tag = tag_of(o);
    m.recv_tag = tag_of({-o[0], -o[1], -o[2]});
    m.level = decomp.separating_level(decomp.rank(), peer);
    if (peer == decomp.rank()) {
      // Periodic with one rank in every crossed direction: my own opposite boundary.
      m.local = true;
      impl::Box source, unused;
      boxes({-o[0], -o[1], -o[2]}, extended, source, unused);
      m.send_box = source;
    }
    phase.messages.push_back(m);
  };
  if (mode == HaloMode::Full && options.full_method == FullMethod::Concurrent) {
    Phase all;
    for (int a = -1; a <= 1; ++a)
      for (int b = -1; b <= 1; ++b)
        for (int c = -1; c <= 1; ++c)
          if (a != 0 || b != 0 || c != 0) add(all, {a, b, c}, {false, false, false});
    m_phases.push_back(all);
  } else if (mode == HaloMode::Full) {
    for (int dir = 0; dir < 3; ++dir) {
      Phase phase;
      std::array<bool, 3> extended{false, false, false};
      for (int j = 0; j < dir; ++j)
        extended[j] = true;
      for (int side : {-1, +1}) {
        std::array<int, 3> o{0, 0, 0};
        o[dir] = side;
        add(phase, o, extended);
      }
      m_phases.push_back(phase);
    }
  } else {
    Phase faces;
    for (int dir = 0; dir < 3; ++dir) {
      for (int side : {-1, +1}) {
        std::array<int, 3> o{0, 0, 0};
        o[dir] = side;
        add(faces, o, {false, false, false});
      }
    }
    m_phases.push_back(faces);
  }
  m_buffers->send.resize(m_phases.size());
  m_buffers->recv.resize(m_phases.size());
  m_buffers->send_host.resize(m_phases.size());
  m_buffers->recv_host.resize(m_phases.size());
  m_buffers->capacity.assign(m_phases.size(), 0);
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

void HaloExchanger::begin_binding(std::size_t count) {
  HCART_CHECK(!m_in_flight, "hcart::HaloExchanger::start: an exchange is already in flight; "
                            "call finish() first");
  HCART_REQUIRE(count <= 64, "hcart::HaloExchanger: " << count << " fields, at most 64");
  if (m_fields.size() < count) {
    m_fields.resize(count);
    ++m_allocations;
  }
  m_bound = count;
}

void HaloExchanger::check_fields() {
  const auto extent = m_grid->extent();
  std::string problem;
  std::size_t signature = m_bound;
  for (std::size_t f = 0; f < m_bound; ++f) {
    const auto e = m_fields[f]->extents();
    if (e != extent && problem.empty()) {
      problem = "hcart::HaloExchanger: field '" + m_fields[f]->label() + "' has extents " +
                std::to_string(e[0]) + "x" + std::to_string(e[1]) + "x" + std::to_string(e[2]) +
                " on rank " + std::to_string(m_grid->decomposition().rank()) +
                ", expected the grid's " + std::to_string(extent[0]) + "x" +
                std::to_string(extent[1]) + "x" + std::to_string(extent[2]);
    }
    signature = signature * 1000003u ^ std::hash<std::string>{}(m_fields[f]->type().name());
  }
  if (!m_options.collective_checks) {
    HCART_REQUIRE(problem.empty(), problem);
    return;
  }
  const MPI_Comm comm = m_grid->decomposition().comm();
  // One reduction: any problem, and the largest and smallest signature.
  const auto sig = static_cast<long long>(signature & 0x3fffffffffffffffULL);
  long long values[3] = {problem.empty() ? 0 : 1, sig, -sig};
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, values, 3, MPI_LONG_LONG, MPI_MAX, comm));
  if (values[0] > 0) {
    agree_on_errors(comm, [&] { HCART_REQUIRE(problem.empty(), problem); });
  }
  if (values[1] != -values[2]) {
    InputError error("hcart::HaloExchanger: the ranks passed different fields to the same "
                     "exchange (their number or types differ)");
    error.set_collective(true);
    throw error;
  }
}

std::size_t HaloExchanger::message_bytes(const Message& m) const {
  const auto cells = static_cast<std::size_t>(m.recv_box.cells());
  std::size_t bytes = 0;
  for (std::size_t f = 0; f < m_bound; ++f)
    bytes += aligned(cells * m_fields[f]->elem_bytes());
  return bytes;
}

void HaloExchanger::prepare_buffers() {
  for (std::size_t p = 0; p < m_phases.size(); ++p) {
    std::size_t total = 0;
    for (const Message& m : m_phases[p].messages) {
      if (!m.local) total += message_bytes(m);
    }
    if (total <= m_buffers->capacity[p]) continue;
    using Device = Buffers::Device;
    using Host = Buffers::Host;
    m_buffers->send[p] =
        Device(Kokkos::view_alloc(Kokkos::WithoutInitializing, "hcart::halo::send"), total);
    m_buffers->recv[p] =
        Device(Kokkos::view_alloc(Kokkos::WithoutInitializing, "hcart::halo::recv"), total);
    if (staged) {
      m_buffers->send_host[p] =
          Host(Kokkos::view_alloc(Kokkos::WithoutInitializing, "hcart::halo::send_host"), total);
      m_buffers->recv_host[p] =
          Host(Kokkos::view_alloc(Kokkos::WithoutInitializing, "hcart::halo::recv_host"), total);
    }
    m_buffers->capacity[p] = total;
    ++m_allocations;
  }
  std::size_t most_requests = 0;
  for (const Phase& phase : m_phases) {
    most_requests = std::max(most_requests, 2 * phase.messages.size() * m_bound);
  }
  if (m_requests.capacity() < most_requests) {
    m_requests.reserve(most_requests);
    m_statuses.reserve(most_requests);
    ++m_allocations;
  }
}

void HaloExchanger::start_bound() {
  check_fields();
  prepare_buffers();
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
  const Phase& phase = m_phases[p];
  const bool aggregate = m_options.aggregate_fields;
  auto t0 = Clock::now();
  m_requests.clear();
  // Receives first.
  std::size_t offset = 0;
  for (const Message& m : phase.messages) {
    if (m.local) continue;
    const std::size_t bytes = message_bytes(m);
    HCART_CHECK(bytes <= static_cast<std::size_t>(INT_MAX),
                "hcart::HaloExchanger: a message of " << bytes
                                                      << " bytes, more than MPI's int count");
    if (aggregate) {
      m_requests.emplace_back();
      HCART_MPI_CHECK(MPI_Irecv(m_buffers->mpi_recv(p) + offset, static_cast<int>(bytes), MPI_BYTE,
                                m.peer, m.recv_tag, comm, &m_requests.back()));
    } else {
      std::size_t segment = offset;
      const auto cells = static_cast<std::size_t>(m.recv_box.cells());
      for (std::size_t f = 0; f < m_bound; ++f) {
        m_requests.emplace_back();
        HCART_MPI_CHECK(MPI_Irecv(
            m_buffers->mpi_recv(p) + segment, static_cast<int>(cells * m_fields[f]->elem_bytes()),
            MPI_BYTE, m.peer, m.recv_tag + 27 * static_cast<int>(f + 1), comm, &m_requests.back()));
        segment += aligned(cells * m_fields[f]->elem_bytes());
      }
    }
    offset += bytes;
  }
  // Pack, and local copies for periodic self-neighbours.
  offset = 0;
  for (const Message& m : phase.messages) {
    if (m.local) {
      for (std::size_t f = 0; f < m_bound; ++f)
        m_fields[f]->copy(m.send_box, m.recv_box);
      continue;
    }
    std::size_t segment = offset;
    const auto cells = static_cast<std::size_t>(m.send_box.cells());
    for (std::size_t f = 0; f < m_bound; ++f) {
      m_fields[f]->pack(m.send_box, m_buffers->send[p].data() + segment);
      segment += aligned(cells * m_fields[f]->elem_bytes());
    }
    offset += message_bytes(m);
  }
  impl::fence_halo();
  m_times.pack += since(t0);
  t0 = Clock::now();
  if (staged && offset > 0) {
    Kokkos::deep_copy(
        Kokkos::subview(m_buffers->send_host[p], std::make_pair<std::size_t>(0, offset)),
        Kokkos::subview(m_buffers->send[p], std::make_pair<std::size_t>(0, offset)));
  }
  offset = 0;
  for (const Message& m : phase.messages) {
    const auto bytes = static_cast<std::int64_t>(message_bytes(m));
    const int copies = aggregate ? 1 : static_cast<int>(m_bound);
    // Counted without the alignment padding, as the traffic model counts.
    for (std::size_t f = 0; f < m_bound; ++f) {
      m_counters.bytes[m.level] +=
          m.recv_box.cells() * static_cast<std::int64_t>(m_fields[f]->elem_bytes());
    }
    m_counters.messages[m.level] += copies;
    if (m.local) continue;
    if (aggregate) {
      m_requests.emplace_back();
      HCART_MPI_CHECK(MPI_Isend(m_buffers->mpi_send(p) + offset, static_cast<int>(bytes), MPI_BYTE,
                                m.peer, m.send_tag, comm, &m_requests.back()));
    } else {
      std::size_t segment = offset;
      const auto cells = static_cast<std::size_t>(m.send_box.cells());
      for (std::size_t f = 0; f < m_bound; ++f) {
        m_requests.emplace_back();
        HCART_MPI_CHECK(MPI_Isend(
            m_buffers->mpi_send(p) + segment, static_cast<int>(cells * m_fields[f]->elem_bytes()),
            MPI_BYTE, m.peer, m.send_tag + 27 * static_cast<int>(f + 1), comm, &m_requests.back()));
        segment += aligned(cells * m_fields[f]->elem_bytes());
      }
    }
    offset += static_cast<std::size_t>(bytes);
  }
  m_times.post += since(t0);
}

void HaloExchanger::complete_phase(std::size_t p) {
  const Phase& phase = m_phases[p];
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
  t0 = Clock::now();
  std::size_t total = 0;
  for (const Message& m : phase.messages)
    total += m.local ? 0 : message_bytes(m);
  if (staged && total > 0) {
    Kokkos::deep_copy(
        Kokkos::subview(m_buffers->recv[p], std::make_pair<std::size_t>(0, total)),
        Kokkos::subview(m_buffers->recv_host[p], std::make_pair<std::size_t>(0, total)));
  }
  std::size_t offset = 0;
  for (const Message& m : phase.messages) {
    if (m.local) continue;
    std::size_t segment = offset;
    const auto cells = static_cast<std::size_t>(m.recv_box.cells());
    for (std::size_t f = 0; f < m_bound; ++f) {
      m_fields[f]->unpack(m.recv_box, m_buffers->recv[p].data() + segment);
      segment += aligned(cells * m_fields[f]->elem_bytes());
    }
    offset += message_bytes(m);
  }
  impl::fence_halo();
  m_times.unpack += since(t0);
}

void HaloExchanger::finish() {
  HCART_CHECK(m_in_flight,
              "hcart::HaloExchanger::finish: no exchange in flight; call start() first");
  try {
    complete_phase(0);
    for (std::size_t p = 1; p < m_phases.size(); ++p) {
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
