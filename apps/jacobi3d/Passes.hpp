// How many Jacobi iterations one pass over memory does, and the halo the grid allocates for
// them: decided once per run, after the one decomposition, by one policy that knows the
// execution space, with one agreement among the ranks (docs/jacobi3d.md, "Temporal
// blocking").
//
//   const hcart::Decomposition decomp(MPI_COMM_WORLD, config.spec, config.decomposition);
//   const jacobi::Passes passes = jacobi::plan_passes(config.settings, decomp);   // collective
//   const hcart::Grid grid(decomp, passes.halo_width);
//   jacobi::Solver solver(grid, config.settings, passes.iterations_per_pass, timers, output);
//
// The decomposition weighs the communication of one iteration (the spec's halo of one
// layer): how many iterations share an exchange changes how often halos move, not in which
// directions.
//
// Iterations per pass: [jacobi] iterations_per_pass when it is given (> 0), else chosen so
// that the planes of a pass stay in cache and (with neighbours) the redundant updates stay
// under 10%, and 1 where the rank's threads would have too little of a plane each between
// the wavefront's barriers (kWavefrontCellsPerThread). It is 1 where no wavefront runs (a device build), and where ranks have
// neighbours and ask for overlap (an exchange behind every iteration). Across a side with a
// neighbour a pass needs a halo as deep as its iterations, and the neighbour's block must
// hold that many cells; all ranks take the smallest choice.
//
// The halo: the iterations per pass in the directions that ranks cut or wrap, 1 elsewhere
// (only Dirichlet values are read there), so every exchange moves exactly the layers the
// next pass reads. One exception, for the memory layout: in the fastest direction (k), where
// it is not cut or wrapped and its owned rows are a multiple of 4 cells, the halo is 4 deep
// (kAlignedRowHalo) when passes cross ranks, so that every row and its first owned cell start
// on a 32-byte boundary (192^3 on 2 ranks: rows of 200 cells, not 194; what it measured:
// docs/benchmarks.md). Those extra layers only hold boundary values.
#pragma once

#include "JacobiConfig.hpp"

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/grid/Block.hpp>
#include <hcart/grid/Decomposition.hpp>

#include <array>

namespace hcart::jacobi {

/// \brief The iterations of one pass and the halo the grid needs for them.
struct Passes {
  long iterations_per_pass = 1;
  std::array<int, 3> halo_width{{1, 1, 1}};
};

/// \brief The halo width of the fastest direction where it only holds boundary values and
/// the owned rows are a multiple of this many cells (see above).
constexpr int kAlignedRowHalo = 4;
/// \brief At most this many iterations per pass where ranks have neighbours when automatic
/// (more gained nothing: docs/benchmarks.md, "Jacobi3D"), and without.
constexpr long kAutoIterationsWithNeighbours = 4;
constexpr long kMaxWavefrontIterations = 8;
/// \brief The automatic choice runs the wavefront only where each thread of the rank's team
/// updates at least this many cells of a plane between the team's barriers: on a 16-core
/// host, 16 threads on 192^2 planes (2304 cells each) ran Jacobi3D at 3.5-4.2 GLUP/s in
/// passes of 2 or 8 iterations and at 6.0-9.8 without the wavefront (docs/benchmarks.md,
/// "GPU and many-core runs"); 2 threads (18432 each) gain from it.
constexpr long kWavefrontCellsPerThread = 8192;

/// \brief Updates a pass of `iterations` computes beyond the owned ones, relative:
/// iteration t covers the owned box grown by iterations - t on every side with a neighbour.
double redundant_share(const Block& block, long iterations);

/// \brief This rank's iterations per pass for its block, before the ranks agree (see
/// above); `wavefront`: the execution space runs the host wavefront (true on host builds),
/// with `threads` threads in its team.
long choose_iterations_per_pass(const Settings& settings, const Block& block,
                                bool wavefront = host_execution, int threads = host_threads());

/// \brief The passes of a run on `decomp` (collective: the ranks agree on the smallest
/// choice) and the halo they need.
Passes plan_passes(const Settings& settings, const Decomposition& decomp);

} // namespace hcart::jacobi
