#include "AppDeck.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/grid/Planner.hpp>
#include <hcart/io/OutputDirectory.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

namespace hcart::apps {

void add_agglomeration_key(DeckSchema& s, const std::string& table) {
  s.add(table, "agglomeration", DeckType::String, "\"machine\"",
        "which ranks keep the multigrid's coarse levels: machine (the cores of a node first), "
        "stride (every k-th rank, for comparison) or none (every level on every rank)")
      .one_of({"machine", "stride", "none"});
}

Agglomeration read_agglomeration(const Deck& deck, const std::string& table) {
  const std::string rule = deck.string(table, "agglomeration");
  return rule == "stride" ? Agglomeration::Stride
         : rule == "none" ? Agglomeration::None
                          : Agglomeration::Machine;
}

void apply_agglomeration(Agglomeration a, HierarchyOptions& h) {
  if (a == Agglomeration::None) h.agglomerate_below = 0;
  h.agglomeration =
      a == Agglomeration::Stride ? AgglomerationRule::Stride : AgglomerationRule::Machine;
}

void add_output_keys(DeckSchema& s, const std::string& unit, const std::string& every_help) {
  s.add("output", "directory", DeckType::String, "\"output\"", "where output files go");
  s.add("output", "timers_json", DeckType::String, "\"\"",
        "file for the timer report as JSON: a name or relative path inside directory, or an "
        "absolute path; empty: none");
  s.add("output", "every", DeckType::Integer, "0", every_help).at_least(0);
  s.add("output", "checkpoint_every", DeckType::Integer, "0",
        "write a checkpoint every this many " + unit + "; 0: never")
      .at_least(0);
  s.add("output", "checkpoint_keep", DeckType::Integer, "2",
        "how many of this run's newest checkpoints to keep (older ones are deleted once a "
        "newer one is complete); 0: keep all")
      .at_least(0);
  s.add("output", "restart", DeckType::String, "\"\"",
        "checkpoint file to continue from, on any number of ranks and with any strategy; the "
        "run's limits count the " +
            unit + " before it too");
  s.add("output", "progress_seconds", DeckType::Real, "5.0",
        "seconds between progress lines; 0: none")
      .at_least(0);
}

OutputSettings read_output(const Deck& deck) {
  OutputSettings o;
  o.directory = deck.string("output", "directory");
  o.timers_json = deck.string("output", "timers_json");
  o.every = static_cast<long>(deck.integer("output", "every"));
  o.checkpoint_every = static_cast<long>(deck.integer("output", "checkpoint_every"));
  o.checkpoint_keep = static_cast<long>(deck.integer("output", "checkpoint_keep"));
  o.restart = deck.string("output", "restart");
  o.deck = deck.resolved();
  const std::filesystem::path timers_name = std::filesystem::path(o.timers_json).filename();
  HCART_REQUIRE(o.timers_json.empty() ||
                    (!timers_name.empty() && timers_name != "." && timers_name != ".."),
                deck.where("output", "timers_json")
                    << ": [output] timers_json = \"" << o.timers_json
                    << "\": expected a file name or a path to one, not a directory");
  return o;
}

std::vector<Strategy> compare_strategies(const DecompositionOptions& options, const GridSpec& spec,
                                         int ranks, std::vector<std::string>& notes) {
  const auto& dims = options.dims;
  std::vector<Strategy> strategies = compared_strategies(dims[0] > 0 && dims[1] > 0 && dims[2] > 0);
  if (options.equal_blocks) {
    // MPI_Dims_create's grid depends on the ranks, the fixed dims and the mesh only.
    try {
      plan_decomposition(spec.to_mesh(), Machine::flat(ranks),
                         plan_options_of(for_strategy(options, Strategy::Mpi)));
    } catch (const InputError& e) {
      strategies.erase(std::find(strategies.begin(), strategies.end(), Strategy::Mpi));
      notes.push_back(std::string("compare mode leaves out mpi: ") + e.what());
    }
  }
  return strategies;
}

DecompositionOptions for_strategy(DecompositionOptions options, Strategy strategy) {
  options.strategy = strategy;
  if (!needs_all_dims(strategy)) options.dims = {0, 0, 0};
  return options;
}

void prepare_output(MPI_Comm comm, const OutputSettings& output, bool writes) {
  if (writes) prepare_output_directory(comm, output.directory, "[output] directory =");
}

void write_report(MPI_Comm comm, const OutputSettings& output, const std::string& text) {
  if (output.timers_json.empty()) return;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  agree_on_errors(comm, [&] {
    if (rank != 0) return;
    // timers_json: a name in the output directory, a path below it, or an absolute path.
    const std::filesystem::path path = std::filesystem::path(output.directory) / output.timers_json;
    write_text_file(path.string(), text, "[output] timers_json");
  });
}

namespace {
// "table.key" -> value text, from a resolved deck ("[table]" lines, then "key = value").
std::map<std::string, std::string> resolved_values(const std::string& text) {
  std::map<std::string, std::string> values;
  std::istringstream in(text);
  std::string line, table;
  while (std::getline(in, line)) {
    if (line.size() > 2 && line.front() == '[' && line.back() == ']') {
      table = line.substr(1, line.size() - 2);
      continue;
    }
    const auto eq = line.find(" = ");
    if (eq == std::string::npos || table.empty()) continue;
    values[table + "." + line.substr(0, eq)] = line.substr(eq + 3);
  }
  return values;
}
} // namespace

std::vector<std::string> restart_differences(const std::string& checkpoint_deck,
                                             const std::string& deck,
                                             const std::vector<std::string>& run_keys) {
  const auto before = resolved_values(checkpoint_deck), now = resolved_values(deck);
  std::vector<std::string> out;
  for (const auto& [key, value] : now) {
    const std::string table = key.substr(0, key.find('.'));
    if (table == "output" || table == "decomposition") continue;
    if (std::find(run_keys.begin(), run_keys.end(), key) != run_keys.end()) continue;
    const auto old = before.find(key);
    if (old == before.end() || old->second == value) continue; // a key it did not know: a default
    out.push_back("[" + table + "] " + key.substr(table.size() + 1) + " = " + value + " here, " +
                  old->second + " in the checkpoint's run");
  }
  return out;
}

void note_restart_differences(MPI_Comm comm, const char* application,
                              const std::string& checkpoint_deck, const std::string& deck,
                              const std::vector<std::string>& run_keys) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0) return;
  for (const auto& line : restart_differences(checkpoint_deck, deck, run_keys)) {
    std::cout << application << ": note: the restart's deck differs from the checkpoint's: " << line
              << "\n";
  }
}

} // namespace hcart::apps
