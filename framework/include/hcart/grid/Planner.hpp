// hcart::plan_decomposition: the one function that turns a strategy into a plan. Decomposition
// (at start-up, on every rank) and hcart-plan (for any machine) both call it, so what the
// planner reports is what a run gets.
//
//   hcart::PlanOptions options;                       // Hierarchical by default
//   hcart::Plan plan = hcart::plan_decomposition(mesh, machine, options);
//
// The Mpi strategy takes MPI_Dims_create's dims (mpi_baseline_dims) in world order; every
// other strategy is make_plan's (hcart/mapping/Plan.hpp), and Hierarchical and Manual also
// weigh MPI_Dims_create's grid in world order, so that the default is never worse than the
// baseline on the objective. MPI must be initialised (MPI_Dims_create).
#pragma once

#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/Mesh.hpp>
#include <hcart/mapping/Plan.hpp>

namespace hcart {

/// \brief The plan of options.strategy for `mesh` on `machine`; the weights it records are
/// the ones given, else those derived from the mesh, for every strategy.
/// \throws hcart::InputError as make_plan and mpi_baseline_dims.
Plan plan_decomposition(const Mesh& mesh, const Machine& machine, const PlanOptions& options);

} // namespace hcart
