#include <hcart/app/DecompositionTable.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/mapping/Strategy.hpp>

namespace hcart {

void add_decomposition_keys(DeckSchema& s) {
  s.add("decomposition", "strategy", DeckType::String, "\"hierarchical\"",
        "how the process grid is chosen")
      .one_of({"mpi", "weighted", "hierarchical", "levelwise", "manual"});
  s.add("decomposition", "dims", DeckType::IntegerList, "[0, 0, 0]",
        "fixed ranks per direction, 0 = free (all > 0 for manual)")
      .length(3)
      .at_least(0);
  s.add("decomposition", "machine", DeckType::String, "\"\"",
        "synthetic machine, e.g. \"node:2 core:4\"; empty: $HCART_MACHINE, else detect");
  s.add("decomposition", "placement", DeckType::String, "\"block\"",
        "rank numbering of a synthetic machine")
      .one_of({"block", "round-robin"});
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
  return o;
}

} // namespace hcart
