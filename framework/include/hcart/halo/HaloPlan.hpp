// hcart::HaloPlan: the geometry of a halo exchange — its messages, in which phases, and the
// boxes of local indices each one sends and receives — computed from one rank's block
// alone, without MPI. The HaloExchanger builds one at construction and adds the ranks and
// hardware levels of the peers; tests check the geometry on its own.
//
//   const hcart::HaloPlan plan = hcart::plan_halo(grid.block(), {1, 1, 1}, hcart::HaloMode::Full);
//   // or a hcart::Block made by hand (tests): local_size, halo_width, block.at(o).across
//   for (const auto& phase : plan.phases)                           // in order
//     for (const auto& message : phase.messages) { /* message.send_box, .recv_box */ }
//
// Faces mode: one phase, a message across each face. Full mode, three phases: x, then y
// carrying the x halos along, then z carrying both, so edges and corners arrive through
// the faces (2 messages a phase); or one phase of 26 messages (FullMethod::Concurrent).
// Only `width` layers next to the owned cells move (at most the halo width): an update
// that reads fewer layers than the block has exchanges no more.
#pragma once

#include <hcart/grid/Block.hpp>
#include <hcart/grid/Box.hpp>

#include <array>
#include <vector>

namespace hcart {

/// \brief Which halo cells an exchange fills.
enum class HaloMode {
  Faces, ///< cells across one face (6 neighbours)
  Full   ///< faces, edges and corners (26 neighbours)
};

/// \brief How Full mode reaches edges and corners.
enum class FullMethod {
  ThreePhase, ///< 3 ordered phases of 2 messages, later phases forwarding earlier halos
  Concurrent  ///< 26 messages at once
};

struct HaloPlan {
  /// \brief One message of a phase: what this rank sends towards `offset` and what it
  /// receives from there.
  struct Message {
    std::array<int, 3> offset{}; ///< the neighbour's direction, each -1, 0 or +1
    Box send_box;                ///< cells sent (for a local copy: the cells copied)
    Box recv_box;                ///< halo cells filled
    bool local = false;          ///< Across::Self: a copy on this rank, no MPI
    int send_tag = 0;            ///< Block::offset_index(offset)
    int recv_tag = 0;            ///< Block::offset_index(-offset): the neighbour's send tag
  };
  struct Phase {
    std::vector<Message> messages;
  };
  std::vector<Phase> phases; ///< run in order; each waits for the one before
};

/// \brief The messages that fill `width` layers of the halo of `block` in `mode`.
/// \throws hcart::InputError when a width exceeds the halo width or the owned cells of a
/// direction with a neighbour, or a size is negative.
HaloPlan plan_halo(const Block& block, const std::array<int, 3>& width, HaloMode mode,
                   FullMethod method = FullMethod::ThreePhase);

} // namespace hcart
