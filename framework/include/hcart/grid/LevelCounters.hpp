// hcart::LevelCounters: what a rank sent, counted per machine level (coarse first, then
// "self": copies a rank makes of its own cells) — the one counter type of the halo exchanges
// (HaloExchanger::counters(), as hcart::HaloCounters) and of a grid hierarchy's transfers
// between levels (GridHierarchy::transfer_counters(), as hcart::TransferCounters), so that
// the two add up to what a network carries.
//
//   hcart::LevelCounters sent = halo.counters();
//   sent += other_halo.counters();                 // the same decomposition's levels
//   sent.bytes[0];                                 // bytes across the nodes
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hcart {

struct LevelCounters {
  std::vector<std::string> level_names; ///< machine levels, coarse first, then "self"
  std::vector<std::int64_t> bytes;      ///< bytes sent (self: copied locally)
  std::vector<std::int64_t> messages;   ///< messages sent (self: local copies)
  /// Completed operations: halo exchanges, or a hierarchy's gathers and scatters.
  std::int64_t exchanges = 0;
  /// \brief Adds counters of the same levels (another exchanger of the decomposition, a
  /// hierarchy's transfers). \throws hcart::Error when the levels differ.
  LevelCounters& operator+=(const LevelCounters& other);
};

/// \brief Halo traffic since an exchanger was made (or reset_counters()):
/// HaloExchanger::counters(), `exchanges` the completed exchanges.
using HaloCounters = LevelCounters;
/// \brief A grid hierarchy's gathers and scatters between levels since it was made:
/// GridHierarchy::transfer_counters(), `exchanges` the gathers and scatters.
using TransferCounters = LevelCounters;

} // namespace hcart
