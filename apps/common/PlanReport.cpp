#include "PlanReport.hpp"

#include "Table.hpp"
#include "Text.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/core/Version.hpp>
#include <hcart/grid/Planner.hpp>

#include <cstdio>

namespace hcart::apps {

namespace {

std::vector<double> weights_of(const PlanRequest& request) {
  return request.weights.empty() ? communication_weights(request.mesh) : request.weights;
}

// The planner's objective for the process grid `dims`: sum_i w_i d_i.
double weighted_objective(const std::vector<double>& w, const std::vector<std::int64_t>& dims) {
  double sum = 0;
  for (std::size_t i = 0; i < w.size() && i < dims.size(); ++i)
    sum += w[i] * static_cast<double>(dims[i]);
  return sum;
}

std::string percent_saving(std::int64_t value, std::int64_t baseline) {
  if (baseline <= 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%",
                100.0 * (1.0 - static_cast<double>(value) / static_cast<double>(baseline)));
  return text;
}

const PlanOutcome* baseline(const std::vector<PlanOutcome>& outcomes) {
  for (const auto& o : outcomes) {
    if (o.strategy == Strategy::Mpi && o.plan) return &o;
  }
  return nullptr;
}

std::string format_weight(double w) {
  char text[32];
  if (w == static_cast<double>(static_cast<long long>(w)) && w < 1e15) {
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(w));
  } else {
    std::snprintf(text, sizeof text, "%.6g", w);
  }
  return text;
}

// Whether two plans put every rank at the same place (stops at the first rank they differ
// on: plans that differ mostly do so early).
bool same_placement(const Plan& a, const Plan& b, const Machine& machine) {
  if (a.dims != b.dims) return false;
  for (std::int64_t r = 0; r < machine.ranks(); ++r)
    if (a.cart_rank_of(r, machine) != b.cart_rank_of(r, machine)) return false;
  return true;
}

} // namespace

std::vector<PlanOutcome> plan_all(const PlanRequest& request) {
  // Traffic and cost are counted with the cost factors the objective used (the mesh's, or
  // those equivalent to given weights).
  Mesh costed = request.mesh;
  costed.cost_factor = objective_cost_factors(request.mesh, request.weights);
  std::vector<PlanOutcome> outcomes;
  // Strategies often agree (mpi and weighted on the same grid, levelwise and hierarchical
  // on the same level grid): the traffic model, the report's cost at 10^5 ranks and more,
  // counts each placement once.
  for (Strategy strategy : request.strategies) {
    PlanOutcome outcome;
    outcome.strategy = strategy;
    PlanOptions options;
    options.strategy = strategy;
    options.dims = request.dims;
    options.weights = request.weights;
    options.traffic = request.traffic;
    options.timings = request.timings;
    options.equal_blocks = request.equal_blocks;
    try {
      outcome.plan = plan_decomposition(request.mesh, request.machine, options);
    } catch (const InputError& e) {
      // MPI_Dims_create's grid may not fit the mesh: that strategy alone has no plan.
      if (strategy != Strategy::Mpi) throw;
      outcome.problem = e.what();
    }
    if (outcome.plan) {
      const PlanOutcome* twin = nullptr;
      for (const auto& earlier : outcomes)
        if (earlier.plan && same_placement(*earlier.plan, *outcome.plan, request.machine))
          twin = &earlier;
      outcome.traffic =
          twin != nullptr ? twin->traffic
                          : traffic_model(*outcome.plan, request.machine, costed, request.traffic);
      if (request.timings)
        outcome.time = predict_exchange_time(level_loads(outcome.traffic), *request.timings);
    }
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

void print_table(std::ostream& out, const PlanRequest& request,
                 const std::vector<PlanOutcome>& outcomes) {
  const Mesh& mesh = request.mesh;
  std::vector<std::int64_t> halo(mesh.halo_width.begin(), mesh.halo_width.end());
  std::vector<std::int64_t> periodic;
  for (std::size_t i = 0; i < mesh.global_size.size(); ++i) {
    periodic.push_back(!mesh.periodic.empty() && mesh.periodic[i] ? 1 : 0);
  }
  std::string weights;
  for (double w : weights_of(request))
    weights += (weights.empty() ? "" : ",") + format_weight(w);
  out << "mesh " << join(mesh.global_size) << " (" << mesh.global_size.size()
      << " dimensions), halo " << join(halo, ",") << ", periodic " << join(periodic, ",")
      << ", weights " << weights << "\n"
      << "machine " << request.machine.to_string() << " (" << to_string(request.machine.placement())
      << ", " << request.machine.source() << "), " << request.machine.ranks() << " ranks, "
      << request.traffic.elem_bytes << " B per cell, "
      << (request.traffic.corners ? "faces, edges and corners" : "faces only")
      << (request.equal_blocks ? ", equal blocks only" : "") << "\n\n";

  std::vector<std::string> header = {"strategy"};
  for (const auto& o : outcomes)
    header.push_back(to_string(o.strategy));
  Table table(header);
  auto row = [&](const std::string& label, auto cell) {
    std::vector<std::string> cells = {label};
    for (const auto& o : outcomes)
      cells.push_back(o.plan ? cell(o) : std::string("n/a"));
    table.add_row(cells);
  };
  row("dims", [](const PlanOutcome& o) { return join(o.plan->dims); });
  row("level factors", [](const PlanOutcome& o) { return o.plan->describe_layout(); });
  row("chosen by", [](const PlanOutcome& o) { return o.plan->chosen_by; });
  table.add_rule();
  const auto& levels = request.machine.levels();
  // Cost factors other than 1 (or weights given): the objective's cost-weighted rows too.
  bool weighs_costs = !request.weights.empty();
  for (double c : mesh.cost_factor)
    weighs_costs = weighs_costs || c != 1.0;
  for (std::size_t l = 0; l <= levels.size(); ++l) {
    const std::string name = l < levels.size() ? levels[l].name : "self";
    row(name + " bytes",
        [l](const PlanOutcome& o) { return human_bytes(o.traffic.levels[l].bytes); });
    row(l < levels.size() ? name + " max per unit" : name + " max per rank",
        [l](const PlanOutcome& o) { return human_bytes(o.traffic.levels[l].max_unit_bytes); });
    row(name + " messages",
        [l](const PlanOutcome& o) { return std::to_string(o.traffic.levels[l].messages); });
    row(name + " max messages per rank", [l](const PlanOutcome& o) {
      return std::to_string(o.traffic.levels[l].max_rank_messages);
    });
    if (weighs_costs && l < levels.size()) {
      row(name + " max per unit, cost-weighted", [l](const PlanOutcome& o) {
        return human_bytes(static_cast<std::int64_t>(o.traffic.levels[l].max_unit_cost));
      });
    }
  }
  if (request.timings) {
    table.add_rule();
    for (std::size_t l = 0; l < levels.size(); ++l) {
      row("predicted " + levels[l].name + " time",
          [l](const PlanOutcome& o) { return fixed(o.time->level_seconds[l] * 1e3, "%.3f ms"); });
    }
    row("predicted exchange time",
        [](const PlanOutcome& o) { return fixed(o.time->seconds * 1e3, "%.3f ms"); });
  }
  table.add_rule();
  row("max rank halo bytes",
      [](const PlanOutcome& o) { return human_bytes(o.traffic.max_rank_halo_bytes); });
  row("total bytes", [](const PlanOutcome& o) { return human_bytes(o.traffic.total_bytes); });
  const std::vector<double> w = weights_of(request);
  row("weighted objective", [&](const PlanOutcome& o) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", weighted_objective(w, o.plan->dims));
    return std::string(text);
  });
  if (const PlanOutcome* mpi = baseline(outcomes)) {
    table.add_rule();
    row("saving vs mpi, " + levels[0].name + " bytes", [&](const PlanOutcome& o) {
      return percent_saving(o.traffic.levels[0].bytes, mpi->traffic.levels[0].bytes);
    });
    row("saving vs mpi, " + levels[0].name + " max per unit", [&](const PlanOutcome& o) {
      return percent_saving(o.traffic.levels[0].max_unit_bytes,
                            mpi->traffic.levels[0].max_unit_bytes);
    });
    row("saving vs mpi, total bytes", [&](const PlanOutcome& o) {
      return percent_saving(o.traffic.total_bytes, mpi->traffic.total_bytes);
    });
    if (request.timings && mpi->time->seconds > 0) {
      row("saving vs mpi, predicted time", [&](const PlanOutcome& o) {
        return fixed(100.0 * (1.0 - o.time->seconds / mpi->time->seconds), "%.1f%%");
      });
    }
    if (mpi->plan) {
      const double base = weighted_objective(w, mpi->plan->dims);
      row("saving vs mpi, weighted objective", [&](const PlanOutcome& o) {
        return fixed(100.0 * (1.0 - weighted_objective(w, o.plan->dims) / base), "%.1f%%");
      });
    }
  }
  table.print(out);
  out << "hierarchical and manual minimise the busiest unit (the 'max per unit' rows"
      << (weighs_costs ? ", cost-weighted" : "")
      << "), coarse level first, then that level's total (docs/algorithms.md, 'The objective: "
         "the busiest link').\n"
         "weighted objective: sum of w_i * d_i over the directions, what the weighted "
         "factorization and the seed's levelwise rule minimise (w_i = G c_i h_i / g_i: the "
         "bytes one cut costs, scaled by the cost factors c_i).\n";
  if (request.timings) {
    out << "predicted time: per level, the larger of the busiest unit's own link (the machine "
           "file's pair curve, where measured) at its bytes and the level's exchange curve at "
           "its units' mean bytes, plus its latency for each message a rank sends beyond the "
           "calibration's; the slowest level counts (figures measured on "
        << request.timings->machine << ", docs/machine-file.md).\n";
  }
  for (const auto& o : outcomes) {
    if (!o.plan) out << to_string(o.strategy) << ": " << o.problem << "\n";
  }
}

nlohmann::json to_json(const PlanRequest& request, const std::vector<PlanOutcome>& outcomes) {
  using nlohmann::json;
  const Mesh& mesh = request.mesh;
  json doc;
  doc["schema"] = "hcart-plan/1";
  doc["hcart_version"] = version;
  doc["mesh"] = mesh.global_size;
  doc["halo"] = mesh.halo_width;
  json periodic = json::array();
  for (std::size_t i = 0; i < mesh.global_size.size(); ++i) {
    periodic.push_back(!mesh.periodic.empty() && mesh.periodic[i]);
  }
  doc["periodic"] = periodic;
  doc["weights"] = weights_of(request);
  doc["elem_bytes"] = request.traffic.elem_bytes;
  doc["corners"] = request.traffic.corners;
  doc["equal_blocks"] = request.equal_blocks;
  json levels = json::array();
  for (const auto& level : request.machine.levels()) {
    levels.push_back({{"name", level.name}, {"size", level.size}});
  }
  doc["machine"] = {{"levels", levels},
                    {"node_level", request.machine.node_level()},
                    {"description", request.machine.to_string()},
                    {"placement", to_string(request.machine.placement())},
                    {"source", request.machine.source()},
                    {"ranks", request.machine.ranks()}};
  const PlanOutcome* mpi = baseline(outcomes);
  json plans = json::array();
  for (const auto& o : outcomes) {
    json p;
    p["strategy"] = to_string(o.strategy);
    p["feasible"] = o.plan.has_value();
    if (!o.plan) {
      p["problem"] = o.problem;
      plans.push_back(p);
      continue;
    }
    p["dims"] = o.plan->dims;
    p["weighted_objective"] = weighted_objective(weights_of(request), o.plan->dims);
    p["level_factors"] = o.plan->level_factors;
    p["placement"] = o.plan->hierarchical_placement() ? "hierarchical" : "world-order";
    p["layout"] = to_string(o.plan->layout);
    if (o.plan->layout == PlanLayout::NodeRegions) {
      json regions = json::array();
      for (const auto& r : o.plan->node_regions) {
        json region{{"origin", r.origin}, {"extent", r.extent}, {"level_factors", r.level_factors}};
        if (r.level_factors.empty()) { // the node's ranks as a run of the box
          region["run_offset"] = r.run_offset;
          if (!r.run_axes.empty()) region["run_axes"] = r.run_axes;
        }
        regions.push_back(region);
      }
      p["node_regions"] = regions;
    }
    p["chosen_by"] = o.plan->chosen_by;
    json cost_levels = json::array();
    for (const auto& c : plan_cost(o.traffic).levels)
      cost_levels.push_back({{"name", c.name}, {"busiest", c.busiest}, {"total", c.total}});
    p["cost"] = {{"levels", cost_levels}};
    json traffic_levels = json::array();
    for (const auto& t : o.traffic.levels) {
      traffic_levels.push_back({{"name", t.name},
                                {"bytes", t.bytes},
                                {"max_unit_bytes", t.max_unit_bytes},
                                {"messages", t.messages},
                                {"max_rank_messages", t.max_rank_messages}});
    }
    p["traffic"] = {{"levels", traffic_levels},
                    {"max_rank_halo_bytes", o.traffic.max_rank_halo_bytes},
                    {"total_bytes", o.traffic.total_bytes}};
    if (o.time) {
      json seconds = json::object();
      for (std::size_t l = 0; l < o.time->level_seconds.size(); ++l)
        seconds[o.traffic.levels[l].name] = o.time->level_seconds[l];
      p["predicted_time"] = {{"seconds", o.time->seconds}, {"levels", seconds}};
    }
    if (mpi != nullptr) {
      auto ratio = [](std::int64_t v, std::int64_t b) {
        return b > 0 ? 1.0 - static_cast<double>(v) / static_cast<double>(b) : 0.0;
      };
      p["saving_vs_mpi"] = {
          {"coarsest_level_bytes", ratio(o.traffic.levels[0].bytes, mpi->traffic.levels[0].bytes)},
          {"coarsest_level_max_unit_bytes",
           ratio(o.traffic.levels[0].max_unit_bytes, mpi->traffic.levels[0].max_unit_bytes)},
          {"total_bytes", ratio(o.traffic.total_bytes, mpi->traffic.total_bytes)}};
    }
    plans.push_back(p);
  }
  doc["plans"] = plans;
  return doc;
}

} // namespace hcart::apps
