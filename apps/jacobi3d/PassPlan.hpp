// How many Jacobi iterations one pass over memory does, and how deep the halos are: one
// policy, which knows the execution space, decides both (docs/jacobi3d.md, "Temporal
// blocking").
//
//   const jacobi::GridPlan g = jacobi::plan_grid(settings, spec, options, MPI_COMM_WORLD);
//   const hcart::Decomposition decomp(MPI_COMM_WORLD, g.spec, g.options);
//   ... jacobi::Solver solver(grid, settings, timers);
//   solver.iterations_per_pass();                 // the same policy, capped by the halo
//
// Iterations per pass (the depth): [jacobi] temporal_blocking when it is given (> 0), else
// chosen so that the planes of a pass stay in cache and (with neighbours) the redundant
// updates stay under 10%. The depth is 1 where no wavefront runs (a device build), and
// where ranks have neighbours and ask for overlap (an exchange behind every iteration).
// Across a side with a neighbour a pass needs halos as deep as its iterations: the depth is
// at most the halo width there, and the app's halo width is the depth in the directions
// that ranks cut or wrap (1 elsewhere: only Dirichlet values are read there), so every
// exchange moves exactly the layers the next pass reads. One exception, for the memory
// layout: in the fastest direction (k), where it is not cut or wrapped and its owned rows are
// a multiple of 4 cells, the halo is 4 deep (kAlignedRowHalo), so that every row and its
// first owned cell start on a 32-byte boundary and the row sweep's vector loads never
// straddle two cache lines (192^3 on 2 ranks: rows of 200 cells, not 194; on this 2-core
// test machine its effect was within the noise, docs/benchmarks.md). Those extra layers only
// hold boundary values. All ranks agree on one depth. The
// process grid is the one of a halo of one layer (the communication of one iteration): the
// depth changes how often halos move, not in which directions.
#pragma once

#include "JacobiConfig.hpp"

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/GridSpec.hpp>

#include <mpi.h>

#include <array>

namespace hcart::jacobi {

/// \brief The halo width of the fastest direction where it only holds boundary values and
/// the owned rows are a multiple of this many cells (see above).
constexpr int kAlignedRowHalo = 4;

/// \brief The shape of one rank's block as the policy sees it.
struct BlockShape {
  std::array<int, 3> local_size{};           ///< owned cells
  std::array<std::array<bool, 2>, 3> open{}; ///< a neighbour across the low / high side
  bool has_neighbours() const;
};

/// \brief Updates a pass of `depth` iterations computes beyond the owned ones, relative:
/// iteration t covers the owned box grown by depth - t on every side with a neighbour.
double redundant_share(const BlockShape& block, long depth);

/// \brief This block's depth (see above), at most halo[d] in directions d with a neighbour;
/// `wavefront`: the execution space runs the host wavefront (true on host builds).
long iterations_per_pass(const Settings& settings, const BlockShape& block,
                         const std::array<int, 3>& halo, bool wavefront = host_execution);

/// \brief The shape of this rank's block in `decomp`.
BlockShape block_shape(const Decomposition& decomp);

/// \brief What Jacobi3D decomposes: the user's spec with the halo widths of the policy, and
/// the user's options with the weights of a one-layer halo (unless weights were given).
struct GridPlan {
  GridSpec spec;
  DecompositionOptions options;
  long depth = 1; ///< iterations per pass the halos are made for
};

/// \brief The grid for `spec` decomposed with `options` on `comm` (collective): from a
/// trial decomposition with halos of one layer, the depth every rank can take, as the halo
/// width of the directions that ranks cut or wrap; halos of 1 without neighbours, overlap,
/// blocking or a wavefront. \throws hcart::InputError (collective) as Decomposition does.
GridPlan plan_grid(const Settings& settings, const GridSpec& spec,
                   const DecompositionOptions& options, MPI_Comm comm);

/// \brief At most this many iterations per pass where ranks have neighbours when automatic
/// (measured: 8 gained nothing over 4 on 2 ranks, docs/benchmarks.md), and without.
constexpr long kAutoDepthWithNeighbours = 4;
constexpr long kMaxWavefrontDepth = 8;

} // namespace hcart::jacobi
