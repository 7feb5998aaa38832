// hcart::HaloPlan: the geometry of a halo exchange — its messages, in which phases, and the
// boxes of local indices each one sends and receives — computed from one rank's block
// alone, without MPI. The HaloExchanger builds one at construction and adds the ranks and
// hardware levels of the peers; tests check the geometry on its own.
//
//   hcart::HaloBlock block;
//   block.local_size = {16, 16, 16};  block.halo_width = {2, 2, 2};
//   block.set_neighbour({+1, 0, 0}, hcart::Neighbour::Other);   // ... for every offset
//   const hcart::HaloPlan plan = hcart::plan_halo(block, hcart::HaloMode::Full);
//   for (const auto& phase : plan.phases)                           // in order
//     for (const auto& message : phase.messages) { /* message.send_box, .recv_box */ }
//
// Faces mode: one phase, a message across each face. Full mode, three phases: x, then y
// carrying the x halos along, then z carrying both, so edges and corners arrive through
// the faces (2 messages a phase); or one phase of 26 messages (FullMethod::Concurrent).
// Only `depth` layers next to the owned cells move (at most the halo width): a pass of
// temporal blocking that uses fewer layers than the block has exchanges no more.
#pragma once

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

/// \brief Who is across one of the 26 offsets of a block.
enum class Neighbour {
  None,  ///< a non-periodic physical boundary: nothing moves
  Other, ///< another rank: a message
  Self   ///< this rank itself (periodic with one rank across): a local copy
};

/// \brief One rank's block as the halo plan sees it.
struct HaloBlock {
  std::array<int, 3> local_size{};    ///< owned cells per direction
  std::array<int, 3> halo_width{};    ///< halo layers the fields have
  std::array<int, 3> depth{};         ///< layers to exchange (<= halo_width)
  std::array<Neighbour, 27> across{}; ///< by offset_index()

  /// \brief The index of offset o (each -1, 0 or +1) in `across`: (o0+1)*9 + (o1+1)*3 + o2+1.
  static int offset_index(const std::array<int, 3>& o) {
    return (o[0] + 1) * 9 + (o[1] + 1) * 3 + (o[2] + 1);
  }
  Neighbour neighbour(const std::array<int, 3>& o) const { return across[offset_index(o)]; }
  void set_neighbour(const std::array<int, 3>& o, Neighbour n) { across[offset_index(o)] = n; }
};

struct HaloPlan {
  /// \brief One message of a phase: what this rank sends towards `offset` and what it
  /// receives from there.
  struct Message {
    std::array<int, 3> offset{}; ///< the neighbour's direction, each -1, 0 or +1
    Box send_box;                ///< cells sent (for a local copy: the cells copied)
    Box recv_box;                ///< halo cells filled
    bool local = false;          ///< Neighbour::Self: a copy on this rank, no MPI
    int send_tag = 0;            ///< offset_index(offset)
    int recv_tag = 0;            ///< offset_index(-offset): the tag the neighbour sends with
  };
  struct Phase {
    std::vector<Message> messages;
  };
  std::vector<Phase> phases; ///< run in order; each waits for the one before
};

/// \brief The messages that fill the halo of `block` in `mode`.
/// \throws hcart::InputError when a depth exceeds the halo width or the owned cells of a
/// direction with a neighbour, or a size is negative.
HaloPlan plan_halo(const HaloBlock& block, HaloMode mode,
                   FullMethod method = FullMethod::ThreePhase);

} // namespace hcart
