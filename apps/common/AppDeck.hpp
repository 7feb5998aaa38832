// Deck and output pieces every hcart application shares: the [decomposition] table, and
// the names and rotation of numbered output files.
#pragma once

#include <hcart/grid/Decomposition.hpp>
#include <hcart/io/Deck.hpp>

#include <string>
#include <vector>

namespace hcart::apps {

/// \brief Declares [decomposition] strategy, dims, machine and placement.
void add_decomposition_keys(DeckSchema& schema);
/// \brief Reads them from a validated deck. \throws hcart::InputError for dims too large.
DecompositionOptions read_decomposition(const Deck& deck);

/// \brief "directory/stem_00000042.h5".
std::string numbered_file(const std::string& directory, const char* stem, long step);

/// \brief Remembers `path` and deletes (on rank 0) the oldest remembered files beyond the
/// newest `keep` (0: keep all). Called after `path` is complete, so a newer good file
/// always exists before an older one goes.
void keep_newest(std::vector<std::string>& written, const std::string& path, long keep, bool rank0);

} // namespace hcart::apps
