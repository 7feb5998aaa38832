// The standard [decomposition] table of an input deck, and the DecompositionOptions it
// gives: every hcart application decomposes the same way from the same keys.
//
//   hcart::DeckSchema schema;
//   hcart::add_decomposition_keys(schema);        // [decomposition] strategy, dims, ...
//   ... const hcart::Deck deck = hcart::Deck::load(comm, path, overrides, schema);
//   const hcart::DecompositionOptions options = hcart::read_decomposition(deck);
//   const hcart::Decomposition decomp(comm, spec, options);
//
// Keys: strategy ("mpi", "weighted", "hierarchical", "levelwise", "manual"; default
// "hierarchical"), dims
// (ranks per direction, 0 = free; all > 0 for manual), machine (a synthetic machine such as
// "node:2 core:4"; empty: $HCART_MACHINE, else detected), placement ("block" or
// "round-robin", for synthetic machines).
#pragma once

#include <hcart/grid/Decomposition.hpp>
#include <hcart/io/Deck.hpp>

namespace hcart {

/// \brief Declares [decomposition] strategy, dims, machine and placement in `schema`.
void add_decomposition_keys(DeckSchema& schema);

/// \brief The options of a deck validated against a schema with those keys.
/// \throws hcart::InputError naming the key for dims too large or a machine description
/// that does not parse.
DecompositionOptions read_decomposition(const Deck& deck);

} // namespace hcart
