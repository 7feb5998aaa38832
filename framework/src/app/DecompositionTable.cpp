#include <hcart/app/DecompositionTable.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/mapping/Strategy.hpp>

#include <string>

namespace hcart {

namespace {
std::vector<std::string> strategy_name_list() {
  std::vector<std::string> names;
  for (const StrategyInfo& s : strategy_table())
    names.emplace_back(s.name);
  return names;
}
} // namespace

void add_decomposition_keys(DeckSchema& s) {
  s.add("decomposition", "strategy", DeckType::String, "\"hierarchical\"",
        "how the process grid is chosen")
      .one_of(strategy_name_list());
  s.add("decomposition", "dims", DeckType::IntegerList, "[0, 0, 0]",
        "fixed ranks per direction, 0 = free (all > 0 for manual)")
      .length(3)
      .at_least(0);
  s.add("decomposition", "machine", DeckType::String, "\"\"",
        "synthetic machine, e.g. \"node:2 core:4\"; empty: $HCART_MACHINE, else detect");
  s.add("decomposition", "placement", DeckType::String, "\"block\"",
        "rank numbering of a synthetic machine")
      .one_of({"block", "round-robin"});
  s.add("decomposition", "equal_blocks", DeckType::Boolean, "false",
        "only process grids whose dims divide the mesh (blocks of one size)");
}

DecompositionOptions read_decomposition(const Deck& deck) {
  DecompositionOptions o;
  o.strategy = parse_strategy(deck.string("decomposition", "strategy"));
  const auto dims = deck.integers("decomposition", "dims");
  for (int i = 0; i < 3; ++i) {
    HCART_REQUIRE(dims[i] <= 1 << 30, deck.where("decomposition", "dims")
                                          << ": [decomposition] dims = " << dims[i]
                                          << ": too large");
    o.dims[i] = static_cast<int>(dims[i]);
  }
  o.machine = deck.string("decomposition", "machine");
  o.placement = parse_placement(deck.string("decomposition", "placement"));
  o.equal_blocks = deck.boolean("decomposition", "equal_blocks");
  return o;
}

Decomposition decompose(MPI_Comm comm, const GridSpec& spec, const DecompositionOptions& options,
                        const Deck& deck,
                        const std::vector<std::pair<std::string, std::string>>& shaped_by) {
  try {
    return Decomposition(comm, spec, options);
  } catch (const InputError& e) {
    if (!e.collective()) throw;
    int ranks = 1;
    MPI_Comm_size(comm, &ranks);
    const auto list = [](const auto& v) {
      std::string out = "[";
      for (std::size_t i = 0; i < v.size(); ++i)
        out += (i ? ", " : "") + std::to_string(v[i]);
      return out + "]";
    };
    // Where a key was set; a defaulted key is said to be the default.
    const auto at = [&](const char* table, const char* key) {
      const std::string where = deck.where(table, key);
      const std::string tail = "(default)";
      const bool by_default = where.size() >= tail.size() &&
                              where.compare(where.size() - tail.size(), tail.size(), tail) == 0;
      return " (" + (by_default ? std::string("default") : where) + ")";
    };
    // The [mesh] size key where the application's schema has one (hcart's apps, the guide's
    // program); another application names its own keys.
    const std::string mesh =
        deck.resolved().find("[mesh]\nsize = ") != std::string::npos
            ? " and [mesh] size = " + list(spec.global_size) + at("mesh", "size")
            : "";
    std::string shaped;
    for (const auto& [table, key] : shaped_by) {
      shaped += ", [" + table + "] " + key + " = \"" + deck.string(table, key) + "\"" +
                at(table.c_str(), key.c_str());
    }
    // A strategy the program chose itself (compare mode runs each in turn) is said so.
    const std::string strategy = to_string(options.strategy);
    const std::string asked = deck.string("decomposition", "strategy");
    const std::string strategy_at = strategy == asked
                                        ? at("decomposition", "strategy")
                                        : " (this run's; the deck asks for \"" + asked + "\")";
    InputError named(
        std::string(e.what()) + "; set by [decomposition] strategy = \"" + strategy + "\"" +
        strategy_at + ", dims = " + list(options.dims) + at("decomposition", "dims") +
        ", machine = \"" + options.machine + "\"" + at("decomposition", "machine") +
        (options.equal_blocks ? ", equal_blocks = true" + at("decomposition", "equal_blocks")
                              : std::string()) +
        shaped + mesh + ", for the " + std::to_string(ranks) + " ranks of the run");
    named.set_collective(true);
    throw named;
  }
}

} // namespace hcart
