// The messages of each kind of exchange an exchanger makes (internal: hcart/halo/
// HaloExchanger.hpp's engine): per mode (Faces, Full), width and set of directions, the halo plan,
// its peers (rank and the machine level each message crosses) and the packer's copy lists for every
// field layout met (the element sizes of the fields of a call). Made at first use and kept,
// so that alternating widths, modes or sets of fields allocates nothing after the first call
// with each.
#pragma once

#include "CopyList.hpp"

#include <hcart/grid/Grid.hpp>
#include <hcart/halo/HaloOptions.hpp>
#include <hcart/halo/HaloPlan.hpp>
#include <hcart/impl/halo/HaloArguments.hpp>

#include <array>
#include <map>
#include <memory>
#include <vector>

namespace hcart::impl {

/// \brief Field segments inside a message start on 64-byte boundaries.
inline std::size_t aligned(std::size_t bytes) {
  return (bytes + 63) / 64 * 64;
}

/// \brief A message's bytes for fields whose values per cell take `slots` bytes each.
std::size_t message_bytes(const HaloPlan::Message& m, const std::vector<std::size_t>& slots);

/// \brief The copy lists of one field layout, per phase.
struct Copies {
  std::vector<std::size_t> layout;
  std::vector<CopyList> pack, unpack;
};

/// \brief One kind of exchange: its plan, peers, and copy lists per layout.
struct CallPlan {
  struct Peer {
    int rank = MPI_PROC_NULL;
    int level = 0;
  };
  HaloMode mode = HaloMode::Faces;
  std::array<int, 3> width{};
  HaloPlan plan;
  std::vector<std::vector<Peer>> peers; ///< per phase, per message
  std::vector<std::unique_ptr<Copies>> copies;
  /// \brief The copy lists for `layout`, built at its first use (counted in `allocations`).
  const Copies& copies_for(const std::vector<std::size_t>& layout, std::size_t& allocations);
  /// \brief The first phase's peer ranks, one per message.
  std::vector<int> first_peer_ranks() const;
};

class CallPlans {
public:
  CallPlans(const Grid& grid, const HaloOptions& options);
  /// \brief The plan of a call's mode, width per direction (0: the whole halo; beyond the
  /// halo: it) and directions, made at its first use (counted in `allocations`); calls that
  /// move the same layers share it. Local: its errors are agreed by the caller.
  /// \throws hcart::InputError for a width below 0, or deeper than a block has cells in a
  /// direction with a neighbour, or directions not a list of 0 to 2.
  CallPlan& get(const HaloCall& call, std::size_t& allocations);
  /// \brief The most phases any mode of these options has (the phase buffers' count).
  std::size_t most_phases() const noexcept;

private:
  const Grid* m_grid;
  HaloOptions m_options;
  // By mode and the layers moved in each direction (the width with the directions applied).
  std::map<std::array<int, 4>, std::unique_ptr<CallPlan>> m_plans;
};

} // namespace hcart::impl
