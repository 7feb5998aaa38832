// hcart::Plan: a process grid and where every rank goes on it (docs/algorithms.md,
// 'Multi-level plan').
//
// The multi-level plan factorizes the number of units of each machine level in turn,
// coarse first, with the weights accumulated from the levels above,
//   w^(l)_i = w_i * prod_{k<l} n^(k)_i,   n^(l) = factorize(N^(l), w^(l)),
// so the slowest communication is minimised first; the process grid is d_i = prod_l n^(l)_i.
// A rank's Cartesian coordinate is the mixed-radix combination of its level coordinates
// (the row-major position of its unit index on n^(l)), coarse level most significant, and
// its new rank is the row-major rank of that coordinate on d (the MPI_Cart_rank rule).
//
//   auto machine = hcart::Machine::parse("node:8 socket:2 core:16");
//   hcart::Mesh mesh{{2048, 1024, 512}, {1, 1, 1}, {}, {}};
//   hcart::Plan plan = hcart::make_plan(mesh, machine, {});
//   plan.dims;            // {16, 8, 2}
//   plan.level_factors;   // {{4, 2, 1}, {2, 1, 1}, {2, 4, 2}}
//   plan.coords_of(37, machine);
//
// Pure C++: no MPI. The Mpi strategy needs MPI_Dims_create, so its plan is built from the
// dims that function returned, with plan_from_dims().
#pragma once

#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/Mesh.hpp>
#include <hcart/mapping/Strategy.hpp>

#include <cstdint>
#include <vector>

namespace hcart {

/// \brief What to plan beyond the mesh and the machine.
struct PlanOptions {
  Strategy strategy = Strategy::Hierarchical;
  /// Per direction: 0 = free, > 0 = fixed (all > 0 for Manual). Empty = all free.
  std::vector<std::int64_t> dims;
  /// Communication weights to use instead of those derived from the mesh (empty = derive).
  std::vector<double> weights;
};

struct Plan {
  Strategy strategy = Strategy::Hierarchical;
  /// The process grid d.
  std::vector<std::int64_t> dims;
  /// Per machine level, coarse first, the factors n^(l) (their product is dims). For
  /// strategies that keep ranks in world order: one entry, dims.
  std::vector<std::vector<std::int64_t>> level_factors;
  /// The weights the plan minimised.
  std::vector<double> weights;
  /// True when coordinates follow the machine's unit indices, false for world order.
  bool hierarchical_placement = false;
  /// When not empty: the Cartesian rank of every world rank as MPI actually placed it
  /// (the Mpi strategy after MPI_Cart_create with reorder = 1); overrides the rules above.
  std::vector<std::int64_t> measured_cart_rank;

  /// \brief Cartesian coordinates of a world rank.
  std::vector<std::int64_t> coords_of(std::int64_t world_rank, const Machine& machine) const;
  /// \brief Rank in the Cartesian communicator (row-major on dims) of a world rank.
  std::int64_t cart_rank_of(std::int64_t world_rank, const Machine& machine) const;
};

/// \brief Plans for Weighted, Hierarchical or Manual.
/// \throws hcart::InputError for a machine whose rank count the mesh cannot hold (more
/// pieces than floor(g_i / max(h_i, 1)) in some direction), fixed dims that do not divide
/// the rank count or exceed their bound, Manual without all dims, or Strategy::Mpi.
Plan make_plan(const Mesh& mesh, const Machine& machine, const PlanOptions& options);

/// \brief A plan with the given dims and ranks in world order (the Mpi strategy's, from
/// MPI_Dims_create). \throws hcart::InputError when the dims do not multiply to the ranks.
Plan plan_from_dims(Strategy strategy, const std::vector<std::int64_t>& dims,
                    const Machine& machine);

/// \brief Row-major coordinates of `rank` on `dims` (last index fastest, as MPI_Cart_coords).
std::vector<std::int64_t> row_major_coords(std::int64_t rank,
                                           const std::vector<std::int64_t>& dims);
/// \brief Row-major rank of `coords` on `dims` (as MPI_Cart_rank).
std::int64_t row_major_rank(const std::vector<std::int64_t>& coords,
                            const std::vector<std::int64_t>& dims);

} // namespace hcart
