#include "Report.hpp"

#include "AppTimers.hpp"
#include "Table.hpp"
#include "Text.hpp"

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/core/MpiCheck.hpp>

namespace hcart::jacobi {

SolverFacts facts_of(const Solver& solver) {
  SolverFacts f;
  f.global_cells = solver.global_cells();
  f.settings = solver.settings();
  f.threads_per_rank = solver.threads_per_rank();
  f.passes = solver.passes();
  f.starved_passes = solver.starved_passes();
  f.iterations_per_pass = solver.iterations_per_pass();
  f.halo_width = solver.grid().halo_width();
  f.halo = solver.halo_counters();
  return f;
}

SolverFacts facts_of(const Multigrid& solver) {
  SolverFacts f;
  f.global_cells = solver.global_cells();
  f.settings = solver.settings();
  f.threads_per_rank = host_threads();
  f.halo_width = solver.grid().halo_width();
  f.halo = solver.halo_counters();
  f.levels = solver.hierarchy().describe();
  f.initial_residual = solver.initial_residual();
  f.transfers = solver.hierarchy().transfer_counters();
  return f;
}

RunReport collect(const Decomposition& decomp, const SolverFacts& solver, const Result& result,
                  const Timers& timers, const std::optional<MachineTimings>& timings) {
  RunReport r;
  const bool multigrid = solver.settings.solver == Settings::Method::Multigrid;
  r.solver = multigrid ? "multigrid" : "jacobi";
  r.levels = solver.levels;
  r.initial_residual = solver.initial_residual;
  // Rates of the iterations or cycles alone: writing fields is the io region's.
  const double solve = result.solve_seconds();
  r.dofs_per_second = multigrid && solve > 0 ? solver.global_cells / solve : 0;
  if (multigrid) {
    const MultigridSettings& mg = solver.settings.multigrid;
    r.cycle = "V(" + std::to_string(mg.pre_smooth) + "," + std::to_string(mg.post_smooth) + "), " +
              (mg.smoother == MultigridSettings::Smoother::RedBlack ? "red-black Gauss-Seidel"
                                                                    : "weighted Jacobi");
    r.full_multigrid = mg.full_multigrid;
  }
  const DecompositionReport& d = decomp.report();
  r.strategy = to_string(d.strategy);
  r.machine = d.machine;
  r.machine_source = d.machine_source;
  r.notes = d.notes;
  r.dims = decomp.dims();
  r.grid = apps::identity_of(decomp);
  r.level_factors = decomp.level_factors();
  r.layout = decomp.plan().describe_layout();
  r.chosen_by = decomp.plan().chosen_by;
  r.result = result;
  r.mlups =
      solve > 0 ? solver.global_cells * static_cast<double>(result.iterations) / solve / 1e6 : 0.0;
  r.timers = timers.summarize(decomp.comm());
  r.tolerance = solver.settings.tolerance;
  r.execution_space = execution_space_name();
  r.threads_per_rank = solver.threads_per_rank;
  const std::string crowded = apps::thread_binding_note(decomp.comm(), host_threads());
  if (!crowded.empty()) r.notes.push_back(crowded);
  const std::string unfenced = apps::timer_fences_note(timers);
  if (!unfenced.empty()) r.notes.push_back(unfenced);
  // Threads another process kept off their cores (the wavefront measures it, Wavefront.hpp).
  long starved[2] = {solver.starved_passes, solver.passes};
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, starved, 2, MPI_LONG, MPI_MAX, decomp.comm()));
  if (starved[0] > 0) {
    r.notes.push_back("threads were starved: a thread of a rank got less than 70% of a core "
                      "during a pass (another process on its core?), so " +
                      std::to_string(starved[0]) + " of " + std::to_string(starved[1]) +
                      " wavefront passes were starved or ran with one thread");
  }
  r.iterations_per_pass = solver.iterations_per_pass; // the ranks agreed on it
  const long asked = solver.settings.iterations_per_pass;
  if (asked > 1 && r.iterations_per_pass < asked) {
    const char* why = !host_execution           ? "a device build has no wavefront"
                      : solver.settings.overlap ? "overlap exchanges before every iteration"
                                                : "capped by the cells of the thinnest block";
    r.notes.push_back("[jacobi] iterations_per_pass = " + std::to_string(asked) + ": " +
                      std::to_string(r.iterations_per_pass) + " iterations per pass (" + why + ")");
  }
  r.halo_width = solver.halo_width;
  r.halo = apps::summed_halo_counters(solver.halo, decomp.comm());
  if (multigrid) r.transfers = apps::summed_halo_counters(solver.transfers, decomp.comm());
  const double iterations = std::max<double>(1.0, static_cast<double>(result.iterations));
  double per[3] = {timers.seconds("compute"), apps::halo_seconds(timers), 0};
  if (multigrid) { // the per-level regions of Multigrid.cpp
    per[0] = per[1] = 0;
    for (std::size_t l = 0; l < solver.levels.size(); ++l) {
      const std::string level = "mg level " + std::to_string(l) + " ";
      per[0] += timers.seconds(level + "smooth") + timers.seconds(level + "residual");
      per[1] += timers.seconds(level + "halo");
      per[2] += timers.seconds(level + "restrict") + timers.seconds(level + "prolong");
    }
  }
  for (double& x : per)
    x /= iterations;
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, per, 3, MPI_DOUBLE, MPI_MAX, decomp.comm()));
  r.compute_per_iteration = per[0];
  r.halo_per_iteration = per[1];
  r.transfer_per_iteration = per[2];
  r.exchange = apps::exchange_timing(solver.halo, apps::halo_seconds(timers), decomp, timings);
  return r;
}

void print_run(std::ostream& out, const RunReport& r) {
  out << "\nstrategy " << r.strategy << ", machine " << r.machine << " (" << r.machine_source
      << "), dims " << apps::join({r.dims[0], r.dims[1], r.dims[2]}) << ", level factors "
      << r.layout << " (" << r.chosen_by << ")\n";
  for (const auto& note : r.notes)
    out << "  note: " << note << "\n";
  out << "execution space " << r.execution_space
      << (host_execution ? ", " : " (kernels on the device), ") << r.threads_per_rank
      << (host_execution ? "" : " host") << (r.threads_per_rank == 1 ? " thread" : " threads")
      << " per rank\n";
  // The output written during the run, apart: the rates are of the iterations or cycles.
  const std::string writing =
      r.result.output_seconds > 0
          ? " (" + apps::fixed(r.result.output_seconds) + " s of it writing output)"
          : "";
  if (r.solver == "multigrid") {
    out << "multigrid: " << r.cycle << " cycles on " << r.levels.size() << " levels";
    if (r.full_multigrid > 0)
      out << ", started by full multigrid (" << r.full_multigrid << " cycles a level)";
    out << "\n";
    for (const auto& line : r.levels)
      out << "  " << line << "\n";
    const double relative = r.initial_residual > 0 ? r.result.residual / r.initial_residual : 0;
    out << r.result.iterations << " cycles, residual max |f - Au| "
        << apps::fixed(r.result.residual, "%.3e") << " (" << apps::fixed(relative, "%.3e")
        << " of the first)"
        << (r.result.converged ? " (converged)"
            : r.tolerance > 0  ? " (tolerance not reached)"
                               : " (the deck's fixed count: tolerance 0)")
        << ", " << apps::fixed(r.result.seconds) << " s" << writing << ", "
        << apps::fixed(
               r.result.iterations > 0 ? r.result.solve_seconds() / r.result.iterations * 1e3 : 0,
               "%.3f")
        << " ms per cycle, " << apps::fixed(r.dofs_per_second / 1e6, "%.2f") << " MDOF/s\n";
  } else {
    out << "iterations " << r.result.iterations << ", residual "
        << apps::fixed(r.result.residual, "%.3e")
        << (r.result.converged ? " (converged)"
            : r.tolerance > 0  ? " (tolerance not reached)"
                               : " (the deck's fixed count: tolerance 0)")
        << ", " << apps::fixed(r.result.seconds) << " s" << writing << ", "
        << apps::fixed(r.mlups, "%.1f") << " MLUP/s\n";
  }
  if (r.iterations_per_pass > 1) {
    out << "temporal blocking: up to " << r.iterations_per_pass
        << " iterations per pass over memory, halo width "
        << apps::join({r.halo_width[0], r.halo_width[1], r.halo_width[2]}, ",") << "\n";
  }
  out << "\n";
  Timers::print(out, r.timers);
  out << "\nhalo traffic (all ranks)\n";
  apps::Table table({"level", "bytes", "messages"});
  for (std::size_t l = 0; l < r.halo.level_names.size(); ++l) {
    table.add_row({r.halo.level_names[l], apps::human_bytes(static_cast<double>(r.halo.bytes[l])),
                   std::to_string(r.halo.messages[l])});
  }
  table.print(out);
  if (r.solver == "multigrid") {
    out << "\nlevel transfer traffic (all ranks: gathers to and scatters from agglomerated "
           "levels)\n";
    apps::Table moves({"level", "bytes", "messages"});
    for (std::size_t l = 0; l < r.transfers.level_names.size(); ++l) {
      moves.add_row({r.transfers.level_names[l],
                     apps::human_bytes(static_cast<double>(r.transfers.bytes[l])),
                     std::to_string(r.transfers.messages[l])});
    }
    moves.print(out);
  }
}

nlohmann::json to_json(const RunReport& r, const std::string& deck) {
  nlohmann::json j;
  j["schema"] = "hcart-jacobi3d-report/1";
  j["deck"] = deck;
  apps::add_decomposition_json(j, r);
  j["machine"] = {{"description", r.machine}, {"source", r.machine_source}, {"notes", r.notes}};
  j["solver"] = r.solver;
  if (r.solver == "multigrid") {
    j["levels"] = r.levels;
    j["cycles"] = r.result.iterations;
    j["cycle"] = r.cycle;
    j["full_multigrid"] = r.full_multigrid;
    j["initial_residual"] = r.initial_residual;
    j["dofs_per_second"] = r.dofs_per_second;
  }
  j["iterations"] = r.result.iterations;
  j["residual"] = r.result.residual;
  j["converged"] = r.result.converged;
  j["stopped_by"] = r.result.converged ? "tolerance"
                    : r.tolerance > 0  ? "max_iterations"
                                       : "fixed_count";
  j["seconds"] = r.result.seconds;
  j["output_seconds"] = r.result.output_seconds;
  j["mlups"] = r.mlups;
  j["execution_space"] = r.execution_space;
  j["threads_per_rank"] = r.threads_per_rank;
  j["iterations_per_pass"] = r.iterations_per_pass;
  j["halo_width"] = r.halo_width;
  j["timers"] = apps::timers_json(r.timers, true);
  j["halo"] = apps::halo_json(r.halo);
  if (r.solver == "multigrid") j["transfers"] = apps::halo_json(r.transfers);
  return j;
}

void print_comparison(std::ostream& out, const std::vector<std::vector<RunReport>>& runs) {
  apps::ComparisonTable<RunReport> table(runs);
  auto mlups = [&](std::size_t k) {
    return table.over_runs(k, [](const RunReport& r) { return r.mlups; });
  };
  std::size_t mpi = runs.size();
  for (std::size_t k = 0; k < runs.size(); ++k) {
    if (runs[k].front().strategy == "mpi") mpi = k;
  }
  table.row("dims", [](std::size_t, const RunReport& r) {
    return apps::join({r.dims[0], r.dims[1], r.dims[2]});
  });
  table.row("level factors", [](std::size_t, const RunReport& r) { return r.layout; });
  table.row("decomposition", [&](std::size_t k, const RunReport&) {
    const std::string same = table.same_as(k);
    return same.empty() ? std::string("-") : same;
  });
  table.rule();
  apps::add_level_rows(table, runs.front().front().halo.level_names);
  if (runs.front().front().solver == "multigrid") { // the gathers and scatters between levels
    const auto& names = runs.front().front().transfers.level_names;
    for (std::size_t l = 0; l + 1 < names.size(); ++l) {
      table.row(names[l] + " transfer bytes", [l](std::size_t, const RunReport& r) {
        return apps::human_bytes(static_cast<double>(r.transfers.bytes[l]));
      });
    }
  }
  table.rule();
  const bool multigrid = runs.front().front().solver == "multigrid";
  const std::string step = multigrid ? "cycle" : "iteration";
  table.row("runs",
            [&](std::size_t k, const RunReport&) { return std::to_string(runs[k].size()); });
  table.row(step + "s",
            [](std::size_t, const RunReport& r) { return std::to_string(r.result.iterations); });
  table.row("threads per rank",
            [](std::size_t, const RunReport& r) { return std::to_string(r.threads_per_rank); });
  if (!multigrid) {
    table.row("iterations per pass", [](std::size_t, const RunReport& r) {
      return std::to_string(r.iterations_per_pass);
    });
  }
  table.row((multigrid ? "smooth + residual / " : "compute / ") + step,
            [](std::size_t, const RunReport& r) {
              return apps::fixed(r.compute_per_iteration * 1e3, "%.3f ms");
            });
  table.row("halo / " + step, [](std::size_t, const RunReport& r) {
    return apps::fixed(r.halo_per_iteration * 1e3, "%.3f ms");
  });
  if (multigrid) {
    table.row("restrict + prolong / cycle", [](std::size_t, const RunReport& r) {
      return apps::fixed(r.transfer_per_iteration * 1e3, "%.3f ms");
    });
  } else {
    table.row("halo / exchange", [](std::size_t, const RunReport& r) {
      return apps::fixed(r.exchange.measured * 1e3, "%.3f ms");
    });
  }
  if (!multigrid && runs.front().front().exchange.predicted) {
    table.row("halo / exchange, predicted", [](std::size_t, const RunReport& r) {
      return apps::fixed(*r.exchange.predicted * 1e3, "%.3f ms");
    });
  }
  table.row("seconds min / median", [&](std::size_t k, const RunReport&) {
    const apps::Spread t = table.seconds(k);
    return apps::fixed(t.min, "%.3f") + " / " + apps::fixed(t.median, "%.3f");
  });
  if (multigrid) { // HPGMG-FV's figure: unknowns solved per second
    table.row("MDOF/s median", [&](std::size_t k, const RunReport&) {
      return apps::fixed(
          table.over_runs(k, [](const RunReport& r) { return r.dofs_per_second; }).median / 1e6,
          "%.2f");
    });
  } else {
    table.row("MLUP/s median", [&](std::size_t k, const RunReport&) {
      return apps::fixed(mlups(k).median, "%.1f");
    });
  }
  if (mpi < runs.size()) {
    table.rule();
    const std::string coarsest = runs.front().front().halo.level_names[0];
    table.row("saving vs mpi, " + coarsest + " bytes", [&](std::size_t, const RunReport& r) {
      const long long base = runs[mpi].front().halo.bytes[0];
      return base > 0 ? apps::saving_text(static_cast<double>(r.halo.bytes[0]),
                                          static_cast<double>(base))
                      : std::string("-");
    });
    table.row("saving vs mpi, median time",
              [&](std::size_t k, const RunReport&) { return table.time_saving(k, mpi); });
  }
  table.print(out);
  out << "(" << runs.front().size()
      << " runs per strategy, the strategies in turn; a strategy with the same dims and rank "
         "placement as another is the same decomposition, and its time differs only by "
         "noise)\n";
}

} // namespace hcart::jacobi
