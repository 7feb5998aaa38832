#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Planner.hpp>
#include <hcart/mapping/Blocks.hpp>
#include <hcart/topology/Detect.hpp>

#include <climits>

#include <algorithm>

namespace hcart {

namespace {

void check_options(const GridSpec& spec, const DecompositionOptions& options) {
  validate(spec.to_mesh());
  for (int i = 0; i < 3; ++i) {
    HCART_REQUIRE(options.dims[i] >= 0, "hcart::Decomposition: dims["
                                            << i << "] = " << options.dims[i]
                                            << ", expected >= 0 (0 = free)");
    HCART_REQUIRE(!needs_all_dims(options.strategy) || options.dims[i] > 0,
                  "hcart::Decomposition: the " << to_string(options.strategy)
                                               << " strategy needs every dim, got dims[" << i
                                               << "] = " << options.dims[i]);
  }
}

} // namespace

PlanOptions plan_options_of(const DecompositionOptions& options) {
  PlanOptions plan_options;
  plan_options.strategy = options.strategy;
  plan_options.dims.assign(options.dims.begin(), options.dims.end());
  plan_options.weights = options.weights;
  plan_options.traffic = options.traffic;
  plan_options.timings = options.timings;
  plan_options.equal_blocks = options.equal_blocks;
  return plan_options;
}

Decomposition::~Decomposition() = default;

Decomposition::Decomposition(MPI_Comm comm, const GridSpec& spec,
                             const DecompositionOptions& options)
    : m_spec(spec) {
  int comm_rank = 0;
  HCART_MPI_CHECK(MPI_Comm_rank(comm, &comm_rank));
  HCART_MPI_CHECK(MPI_Comm_size(comm, &m_size));
  agree_on_errors(comm, [&] { check_options(spec, options); });
  const Mesh mesh = spec.to_mesh();

  DetectedHierarchy hierarchy = resolve_machine(comm, options.machine, options.placement);
  m_machine = hierarchy.machine;
  m_report.strategy = options.strategy;
  m_report.machine = m_machine.to_string();
  m_report.machine_source = m_machine.source();
  m_report.placement = options.placement;
  m_report.notes = hierarchy.notes;
  // A halo across a one-cell direction is kept (a 3-D stencil on a thin mesh, a coarse
  // multigrid level and its boundary values read it), but a 2-D code pays for it: noted.
  for (int d = 0; d < 3; ++d) {
    if (spec.global_size[d] != 1 || spec.halo_width[d] == 0) continue;
    m_report.notes.push_back(
        "direction " + std::to_string(d) + " has one cell and a halo of " +
        std::to_string(spec.halo_width[d]) + ": every field holds " +
        std::to_string(1 + 2 * spec.halo_width[d]) +
        " times its cells there; a 2-D code needs halo 0 in its one-cell direction");
  }

  int periods[3];
  for (int i = 0; i < 3; ++i)
    periods[i] = spec.periodic[i] ? 1 : 0;
  agree_on_errors(comm, [&] {
    if (options.network || m_machine.node_level() == 0) {
      m_plan = plan_decomposition(mesh, m_machine, plan_options_of(options));
      return;
    }
    // The plan for the nodes alone, every rank's place kept for the machine with its network.
    const Machine nodes = m_machine.without_network();
    m_plan = plan_decomposition(mesh, nodes, plan_options_of(options));
    std::vector<std::int64_t> cart_rank(static_cast<std::size_t>(m_size));
    for (int r = 0; r < m_size; ++r)
      cart_rank[r] = m_plan.cart_rank_of(r, nodes);
    m_plan.measured_cart_rank = std::move(cart_rank);
    m_report.notes.push_back("planned for the nodes alone (" + nodes.to_string() +
                             "): the network's levels left out of the plan");
  });
  const int d[3] = {static_cast<int>(m_plan.dims[0]), static_cast<int>(m_plan.dims[1]),
                    static_cast<int>(m_plan.dims[2])};
  MPI_Comm cart = MPI_COMM_NULL;
  if (options.strategy == Strategy::Mpi) {
    HCART_MPI_CHECK(MPI_Cart_create(comm, 3, d, periods, 1, &cart));
  } else {
    const auto key = static_cast<int>(m_plan.cart_rank_of(comm_rank, m_machine));
    MPI_Comm reordered = MPI_COMM_NULL;
    HCART_MPI_CHECK(MPI_Comm_split(comm, 0, key, &reordered));
    const Communicator reordered_owner(reordered);
    HCART_MPI_CHECK(MPI_Cart_create(reordered, 3, d, periods, 0, &cart));
  }
  read_cart(cart);
  for (int i = 0; i < 3; ++i) {
    m_cuts.fine_size[i] = spec.global_size[i];
    m_cuts.fine_pieces[i] = m_dims[i];
    m_cuts.multiple[i] = spec.block_multiple[i];
  }

  if (options.strategy == Strategy::Mpi) {
    // MPI may have reordered (reorder = 1): where every rank went is gathered only then.
    int kept = m_rank == comm_rank ? 1 : 0;
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &kept, 1, MPI_INT, MPI_LAND, cart));
    if (kept == 0) {
      m_original_rank.resize(m_size);
      HCART_MPI_CHECK(
          MPI_Allgather(&comm_rank, 1, MPI_INT, m_original_rank.data(), 1, MPI_INT, cart));
      m_plan.measured_cart_rank.assign(m_size, 0);
      for (int q = 0; q < m_size; ++q)
        m_plan.measured_cart_rank[m_original_rank[q]] = q;
    }
  }
  const auto planned = m_plan.coords_of(comm_rank, m_machine);
  for (int i = 0; i < 3; ++i) {
    HCART_CHECK(planned[i] == m_coords[i], "hcart::Decomposition: MPI placed rank "
                                               << comm_rank << " at coordinate " << m_coords[i]
                                               << " of direction " << i << ", the plan at "
                                               << planned[i]);
  }
}

// Takes `cart` (a Cartesian communicator) and reads this rank's place on it.
void Decomposition::read_cart(MPI_Comm cart) {
  m_cart = Communicator(cart);
  HCART_MPI_CHECK(MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN));
  HCART_MPI_CHECK(MPI_Comm_rank(cart, &m_rank));
  HCART_MPI_CHECK(MPI_Comm_size(cart, &m_size));
  int dims[3], periods_out[3], coords[3];
  HCART_MPI_CHECK(MPI_Cart_get(cart, 3, dims, periods_out, coords));
  for (int i = 0; i < 3; ++i) {
    m_dims[i] = dims[i];
    m_coords[i] = coords[i];
  }
}

void Decomposition::inherit(const Decomposition& from) {
  m_spec = from.m_spec;
  m_machine = from.m_machine;
  m_plan = from.m_plan;
  m_original_rank = from.m_original_rank;
  m_report = from.m_report;
  m_cuts = from.m_cuts;
}

std::int64_t Decomposition::block_begin(int dir, std::int64_t coord) const {
  const std::int64_t fine = block_offset(m_cuts.fine_size[dir], m_cuts.fine_pieces[dir],
                                         coord * m_cuts.stride[dir], m_cuts.multiple[dir]);
  return std::min(m_spec.global_size[dir], fine / m_cuts.divisor[dir]);
}

std::unique_ptr<Decomposition> Decomposition::coarsened(const Decomposition& fine,
                                                        const std::array<std::int64_t, 3>& size,
                                                        const std::array<int, 3>& ratio) {
  std::unique_ptr<Decomposition> coarse(new Decomposition());
  coarse->inherit(fine);
  agree_on_errors(fine.comm(), [&] {
    for (int d = 0; d < 3; ++d) {
      HCART_REQUIRE(ratio[d] >= 1 && size[d] >= 1, "hcart::Decomposition::coarsened: ratio "
                                                       << ratio[d] << " and size " << size[d]
                                                       << " in direction " << d
                                                       << ", expected both >= 1");
      // Every boundary between blocks (not only this rank's) halves exactly, and every
      // coarse block keeps a cell: the same answer on every rank.
      for (int c = 1; c < fine.m_dims[d]; ++c) {
        const std::int64_t at = fine.block_begin(d, c);
        HCART_REQUIRE(at % ratio[d] == 0,
                      "hcart::Decomposition::coarsened: the block boundary at cell "
                          << at << " of direction " << d << " (" << fine.m_spec.global_size[d]
                          << " cells, " << fine.m_dims[d]
                          << " blocks) is not a multiple of the ratio " << ratio[d] << ": the "
                          << size[d]
                          << "-cell level cannot nest in it; decompose with a block multiple "
                             "(hcart::nested_spec)");
      }
      for (int c = 0; c < fine.m_dims[d]; ++c) {
        const std::int64_t lo = fine.block_begin(d, c) / ratio[d];
        const std::int64_t hi = std::min(size[d], fine.block_begin(d, c + 1) / ratio[d]);
        HCART_REQUIRE(hi > lo, "hcart::Decomposition::coarsened: the block at process coordinate "
                                   << c << " of direction " << d << " (cells "
                                   << fine.block_begin(d, c) << " to " << fine.block_begin(d, c + 1)
                                   << " of " << fine.m_spec.global_size[d]
                                   << ") holds no cell of the " << size[d] << "-cell level");
      }
    }
  });
  for (int d = 0; d < 3; ++d) {
    coarse->m_spec.global_size[d] = size[d];
    coarse->m_spec.block_multiple[d] =
        std::max<std::int64_t>(1, fine.m_spec.block_multiple[d] / ratio[d]);
    coarse->m_cuts.divisor[d] *= ratio[d];
  }
  MPI_Comm dup = MPI_COMM_NULL;
  HCART_MPI_CHECK(MPI_Comm_dup(fine.comm(), &dup));
  coarse->read_cart(dup);
  return coarse;
}

std::unique_ptr<Decomposition> Decomposition::agglomerated(const Decomposition& pieces,
                                                           const std::array<int, 3>& group,
                                                           const std::vector<int>& owners) {
  std::array<int, 3> dims{};
  std::int64_t boxes = 1;
  for (int d = 0; d < 3; ++d) {
    HCART_CHECK(group[d] >= 1 && pieces.m_dims[d] % group[d] == 0,
                "hcart::Decomposition::agglomerated: a group of " << group[d] << " in direction "
                                                                  << d << " of " << pieces.m_dims[d]
                                                                  << " blocks");
    dims[d] = pieces.m_dims[d] / group[d];
    boxes *= dims[d];
  }
  HCART_CHECK(static_cast<std::int64_t>(owners.size()) == boxes,
              "hcart::Decomposition::agglomerated: " << owners.size() << " owners for " << boxes
                                                     << " boxes");
  int box = -1;
  for (std::size_t b = 0; b < owners.size(); ++b) {
    HCART_CHECK(owners[b] >= 0 && owners[b] < pieces.m_size,
                "hcart::Decomposition::agglomerated: owner " << owners[b] << " of " << pieces.m_size
                                                             << " ranks");
    if (owners[b] == pieces.m_rank) {
      HCART_CHECK(box < 0, "hcart::Decomposition::agglomerated: rank " << pieces.m_rank
                                                                       << " owns two boxes");
      box = static_cast<int>(b);
    }
  }
  MPI_Comm sub = MPI_COMM_NULL;
  HCART_MPI_CHECK(
      MPI_Comm_split(pieces.comm(), box >= 0 ? 0 : MPI_UNDEFINED, std::max(box, 0), &sub));
  if (box < 0) return nullptr;
  const Communicator sub_owner(sub);
  int periods[3];
  for (int d = 0; d < 3; ++d)
    periods[d] = pieces.m_spec.periodic[d] ? 1 : 0;
  MPI_Comm cart = MPI_COMM_NULL;
  HCART_MPI_CHECK(MPI_Cart_create(sub, 3, dims.data(), periods, 0, &cart));
  std::unique_ptr<Decomposition> level(new Decomposition());
  level->inherit(pieces);
  level->read_cart(cart);
  for (int d = 0; d < 3; ++d)
    level->m_cuts.stride[d] *= group[d];
  level->m_original_rank.resize(owners.size());
  for (std::size_t b = 0; b < owners.size(); ++b)
    level->m_original_rank[b] = pieces.original_rank(owners[b]);
  level->m_plan.dims.assign(dims.begin(), dims.end());
  level->m_plan.level_factors.clear();
  return level;
}

std::vector<std::array<int, 3>> Decomposition::level_factors() const {
  std::vector<std::array<int, 3>> out;
  for (const auto& f : m_plan.level_factors) {
    out.push_back({static_cast<int>(f[0]), static_cast<int>(f[1]), static_cast<int>(f[2])});
  }
  return out;
}

int Decomposition::rank_at(std::array<int, 3> coords) const {
  for (int i = 0; i < 3; ++i) {
    if (coords[i] < 0 || coords[i] >= m_dims[i]) {
      if (!m_spec.periodic[i]) return MPI_PROC_NULL;
      coords[i] = ((coords[i] % m_dims[i]) + m_dims[i]) % m_dims[i];
    }
  }
  return (coords[0] * m_dims[1] + coords[1]) * m_dims[2] + coords[2];
}

int Decomposition::neighbour(const std::array<int, 3>& offset) const {
  return rank_at({m_coords[0] + offset[0], m_coords[1] + offset[1], m_coords[2] + offset[2]});
}

Block Decomposition::block(const std::array<int, 3>& halo_width) const {
  Block b;
  b.halo_width = halo_width;
  for (int d = 0; d < 3; ++d) {
    const std::int64_t n = block_begin(d, m_coords[d] + 1) - block_begin(d, m_coords[d]);
    HCART_REQUIRE(n + 2LL * halo_width[d] <= INT_MAX,
                  "hcart::Decomposition::block: the block of rank "
                      << m_rank << " has " << n << " cells and a halo of " << halo_width[d]
                      << " in direction " << d << ", too many for int indices");
    b.local_size[d] = static_cast<int>(n);
    b.global_offset[d] = block_begin(d, m_coords[d]);
    b.global_size[d] = m_spec.global_size[d];
    b.periodic[d] = m_spec.periodic[d];
  }
  for (int a = -1; a <= 1; ++a)
    for (int c = -1; c <= 1; ++c)
      for (int e = -1; e <= 1; ++e) {
        const std::array<int, 3> o{a, c, e};
        Block::Neighbour& n = b.at(o);
        n.rank = neighbour(o);
        n.across = n.rank == MPI_PROC_NULL ? Across::Boundary
                   : n.rank == m_rank      ? Across::Self
                                           : Across::OtherRank;
        if (n.rank == MPI_PROC_NULL) n.rank = -1;
        for (int d = 0; d < 3; ++d) {
          const int coord = m_coords[d] + o[d];
          n.periodic_wrap = n.periodic_wrap || coord < 0 || coord >= m_dims[d];
        }
        if (n.across == Across::Boundary) n.periodic_wrap = false;
      }
  return b;
}

int Decomposition::original_rank(int cart_rank) const {
  HCART_REQUIRE(cart_rank >= 0 && cart_rank < m_size,
                "hcart::Decomposition::original_rank: Cartesian rank "
                    << cart_rank << ", expected 0 to " << m_size - 1);
  if (!m_original_rank.empty()) return m_original_rank[cart_rank];
  return static_cast<int>(m_plan.world_rank_at(cart_rank, m_machine));
}

std::vector<std::int64_t> Decomposition::unit_indices_of(int cart_rank) const {
  return m_machine.unit_indices(original_rank(cart_rank));
}

int Decomposition::separating_level(int cart_rank_a, int cart_rank_b) const {
  return hcart::separating_level(unit_indices_of(cart_rank_a), unit_indices_of(cart_rank_b));
}

} // namespace hcart
