// The standard [decomposition] table of an input deck, and the DecompositionOptions it
// gives: every hcart application decomposes the same way from the same keys.
//
//   hcart::DeckSchema schema;
//   hcart::add_decomposition_keys(schema);        // [decomposition] strategy, dims, ...
//   ... const hcart::Deck deck = hcart::Deck::load(comm, path, overrides, schema);
//   const hcart::DecompositionOptions options = hcart::read_decomposition(deck);
//   const hcart::Decomposition decomp = hcart::decompose(comm, spec, options, deck);
//       // (or hcart::Decomposition decomp(comm, spec, options): errors without the keys)
//
// Keys: strategy (a name of hcart::strategy_table(): "mpi", "weighted", "levelwise",
// "hierarchical", "manual"; default "hierarchical"), dims
// (ranks per direction, 0 = free; all > 0 for manual), machine (a synthetic machine such as
// "node:2 core:4"; empty: $HCART_MACHINE, else detected), placement ("block" or
// "round-robin", for synthetic machines), equal_blocks (only dims that divide the mesh).
#pragma once

#include <hcart/grid/Decomposition.hpp>
#include <hcart/io/Deck.hpp>

#include <string>
#include <utility>
#include <vector>

namespace hcart {

/// \brief Declares [decomposition] strategy, dims, machine and placement in `schema`.
void add_decomposition_keys(DeckSchema& schema);

/// \brief The options of a deck validated against a schema with those keys.
/// \throws hcart::InputError naming the key for dims too large or a machine description
/// that does not parse.
DecompositionOptions read_decomposition(const Deck& deck);

/// \brief The Decomposition of `spec` over `comm` with `options` (read_decomposition(deck),
/// or options made from it), whose refusals name the deck keys to change: a collective
/// InputError of the constructor (dims that do not divide the ranks, a mesh too small for
/// them, ...) comes back, on every rank, with what the deck set and where:
/// "...; set by [decomposition] strategy = "manual" (deck 'run.toml', line 6), dims = [3, 1,
/// 1] (--set decomposition.dims=[3,1,1]), machine = "" (default) and [mesh] size = [16, 16,
/// 16] (deck 'run.toml', line 2), for the 2 ranks of the run". `shaped_by` names the
/// application's own string keys that shaped `spec` (table, key; e.g. a multigrid's
/// agglomeration, which decides how far the blocks must nest), said before the mesh's.
Decomposition decompose(MPI_Comm comm, const GridSpec& spec, const DecompositionOptions& options,
                        const Deck& deck,
                        const std::vector<std::pair<std::string, std::string>>& shaped_by = {});

} // namespace hcart
