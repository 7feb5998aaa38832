#include <hcart/core/Error.hpp>
#include <hcart/grid/MpiDims.hpp>
#include <hcart/grid/Planner.hpp>

namespace hcart {

Plan plan_decomposition(const Mesh& mesh, const Machine& machine, const PlanOptions& options) {
  validate(mesh);
  if (options.strategy == Strategy::Mpi) {
    std::vector<double> weights = options.weights;
    if (weights.empty()) weights = communication_weights(mesh);
    objective_cost_factors(mesh, options.weights); // validates given weights as make_plan does
    Plan plan = plan_from_dims(Strategy::Mpi,
                               mpi_baseline_dims(machine.ranks(), options.dims, mesh), machine);
    plan.weights = weights;
    return plan;
  }
  PlanOptions searched = options;
  if (options.strategy == Strategy::Hierarchical || options.strategy == Strategy::Manual) {
    try {
      searched.run_dims.push_back(mpi_baseline_dims(machine.ranks(), options.dims, mesh));
    } catch (const InputError&) {
      // MPI_Dims_create has no grid that fits this mesh: nothing to weigh.
    }
  }
  return make_plan(mesh, machine, searched);
}

} // namespace hcart
