#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Planner.hpp>
#include <hcart/mapping/Blocks.hpp>
#include <hcart/topology/Detect.hpp>

#include <climits>

namespace hcart {

namespace {

void check_options(const GridSpec& spec, const DecompositionOptions& options) {
  validate(spec.to_mesh());
  for (int i = 0; i < 3; ++i) {
    HCART_REQUIRE(options.dims[i] >= 0, "hcart::Decomposition: dims["
                                            << i << "] = " << options.dims[i]
                                            << ", expected >= 0 (0 = free)");
    HCART_REQUIRE(options.strategy != Strategy::Manual || options.dims[i] > 0,
                  "hcart::Decomposition: the manual strategy needs every dim, got dims["
                      << i << "] = " << options.dims[i]);
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
  return plan_options;
}

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

  int periods[3];
  for (int i = 0; i < 3; ++i)
    periods[i] = spec.periodic[i] ? 1 : 0;
  agree_on_errors(comm,
                  [&] { m_plan = plan_decomposition(mesh, m_machine, plan_options_of(options)); });
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
  m_cart = Communicator(cart);
  HCART_MPI_CHECK(MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN));
  HCART_MPI_CHECK(MPI_Comm_rank(cart, &m_rank));
  int dims[3], periods_out[3], coords[3];
  HCART_MPI_CHECK(MPI_Cart_get(cart, 3, dims, periods_out, coords));
  for (int i = 0; i < 3; ++i) {
    m_dims[i] = dims[i];
    m_coords[i] = coords[i];
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
    const std::int64_t n = block_extent(m_spec.global_size[d], m_dims[d], m_coords[d]);
    HCART_REQUIRE(n + 2LL * halo_width[d] <= INT_MAX,
                  "hcart::Decomposition::block: the block of rank "
                      << m_rank << " has " << n << " cells and a halo of " << halo_width[d]
                      << " in direction " << d << ", too many for int indices");
    b.local_size[d] = static_cast<int>(n);
    b.global_offset[d] = block_offset(m_spec.global_size[d], m_dims[d], m_coords[d]);
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
