#include <hcart/core/Error.hpp>
#include <hcart/grid/MpiDims.hpp>
#include <hcart/grid/Planner.hpp>

#include <string>

namespace hcart {

namespace {
std::string dims_text(const std::vector<std::int64_t>& dims) {
  std::string s;
  for (std::size_t i = 0; i < dims.size(); ++i)
    s += (i > 0 ? "x" : "") + std::to_string(dims[i]);
  return s;
}
} // namespace

Plan plan_decomposition(const Mesh& mesh, const Machine& machine, const PlanOptions& options) {
  validate(mesh);
  if (options.strategy == Strategy::Mpi) {
    std::vector<double> weights = options.weights;
    if (weights.empty()) weights = communication_weights(mesh);
    objective_cost_factors(mesh, options.weights); // validates given weights as make_plan does
    const std::vector<std::int64_t> dims = mpi_baseline_dims(machine.ranks(), options.dims, mesh);
    if (options.equal_blocks) {
      // MPI_Dims_create knows no mesh: its grid stands or the plan fails.
      const std::vector<std::int64_t> divides = equal_block_divisors(mesh);
      for (std::size_t i = 0; i < dims.size(); ++i) {
        HCART_REQUIRE(divides[i] % dims[i] == 0,
                      "hcart::plan_decomposition: equal blocks: the mpi strategy's dims "
                          << dims_text(dims) << " (MPI_Dims_create) do not divide direction " << i
                          << "'s " << mesh.global_size[i]
                          << " cells; choose another strategy for equal blocks");
      }
    }
    Plan plan = plan_from_dims(Strategy::Mpi, dims, machine);
    plan.weights = weights;
    return plan;
  }
  PlanOptions searched = options;
  if (searches(options.strategy)) {
    try {
      searched.run_dims.push_back(mpi_baseline_dims(machine.ranks(), options.dims, mesh));
    } catch (const InputError&) {
      // MPI_Dims_create has no grid that fits this mesh: nothing to weigh.
    }
  }
  return make_plan(mesh, machine, searched);
}

} // namespace hcart
