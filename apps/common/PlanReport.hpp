// What hcart-plan computes and prints: every requested strategy's plan for one mesh and
// machine, with its traffic model, side by side (human table) or as JSON (docs/plan-json.md).
#pragma once

#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/Mesh.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/TimeModel.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace hcart::apps {

struct PlanRequest {
  Mesh mesh;
  std::vector<double> weights; ///< empty: derived from the mesh
  Machine machine = Machine::flat(1);
  std::vector<Strategy> strategies;
  std::vector<std::int64_t> dims; ///< fixed dims (0 = free)
  TrafficOptions traffic;
  std::optional<MachineTimings> timings; ///< a machine file's figures: predict exchange times
  bool equal_blocks = false;             ///< only dims that divide the mesh (PlanOptions)
};

struct PlanOutcome {
  Strategy strategy = Strategy::Hierarchical;
  std::optional<Plan> plan; ///< empty when the strategy has no valid plan
  std::string problem;      ///< why not (e.g. MPI_Dims_create cut a direction too finely)
  Traffic traffic;
  std::optional<ExchangeTime> time; ///< predicted, with the request's timings
};

/// \brief Plans every strategy of the request; the Mpi strategy calls MPI_Dims_create.
/// \throws hcart::InputError when the request itself is invalid (for every strategy).
std::vector<PlanOutcome> plan_all(const PlanRequest& request);

/// \brief The side-by-side table.
void print_table(std::ostream& out, const PlanRequest& request,
                 const std::vector<PlanOutcome>& outcomes);

/// \brief The JSON document of docs/plan-json.md.
nlohmann::json to_json(const PlanRequest& request, const std::vector<PlanOutcome>& outcomes);

} // namespace hcart::apps
