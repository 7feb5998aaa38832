// hcart::traffic_model: the exact halo traffic of a plan, classified by hardware level
// (docs/algorithms.md, 'Traffic model').
//
// Every rank owns a block of the mesh by the balanced block rule (base = g/d, the first
// g mod d coordinates get one more cell). For each rank, direction and side with a
// neighbour (periodic wrap, or not at the boundary) it sends a face message of
// elem_bytes * h_i * prod_{j != i} local_j bytes; with `corners`, edge and corner messages
// too (a factor h_i for every direction that is crossed, the local extent for every other).
// Messages of zero bytes (h_i = 0) are not sent. Each message is classified by the coarsest
// level at which sender and receiver sit in different units, or as "self" when a periodic
// direction with d_i = 1 makes a rank its own neighbour (a local copy, no MPI).
//
//   hcart::Traffic t = hcart::traffic_model(plan, machine, mesh, {8, false});
//   t.levels[0].bytes;           // bytes crossing between nodes
//   t.max_rank_halo_bytes;       // the most any rank sends to other ranks
//
// Pure C++: no MPI.
#pragma once

#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/Mesh.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace hcart {

struct Plan; // hcart/mapping/Plan.hpp

struct TrafficOptions {
  int elem_bytes = 8;   ///< bytes per cell and field
  bool corners = false; ///< add edge and corner messages (HaloMode::Full)
};

/// \brief Halo traffic at one level: messages whose sender and receiver first differ here.
struct LevelTraffic {
  std::string name;                   ///< the machine level's name, or "self"
  std::int64_t bytes = 0;             ///< total bytes of all such messages
  std::int64_t max_unit_bytes = 0;    ///< most bytes sent by one unit of this level ("self":
                                      ///< the most one rank copies locally)
  std::int64_t messages = 0;          ///< number of such messages
  std::int64_t max_rank_messages = 0; ///< most such messages one rank sends
  std::int64_t units = 0;             ///< units of this level that hold ranks ("self": ranks)
  double cost = 0;                    ///< cost-weighted bytes (hcart/mapping/PlanCost.hpp)
  double max_unit_cost = 0;           ///< most cost-weighted bytes sent by one unit
};

struct Traffic {
  /// One entry per machine level (coarse first), then "self".
  std::vector<LevelTraffic> levels;
  /// The most bytes any rank sends to other ranks (self copies excluded).
  std::int64_t max_rank_halo_bytes = 0;
  /// Bytes sent between different ranks, all levels together.
  std::int64_t total_bytes = 0;
};

/// \brief One halo message of one rank: who receives it and how large it is.
struct HaloMessage {
  std::vector<int> offset;       ///< -1, 0 or +1 per direction (the neighbour's side)
  std::int64_t to_cart_rank = 0; ///< the receiver's rank on the process grid
  std::int64_t bytes = 0;
};

/// \brief The messages the rank at `coords` sends (faces, and edges and corners with
/// `corners`), in a fixed order: offsets enumerated with direction 0 most significant.
std::vector<HaloMessage> halo_messages(const std::vector<std::int64_t>& coords,
                                       const std::vector<std::int64_t>& dims, const Mesh& mesh,
                                       const TrafficOptions& options);

/// \brief The exact traffic of `plan` on `machine` for `mesh`.
/// \throws hcart::InputError for mismatched dimensions, an elem_bytes < 1, or corners with
/// more than 6 dimensions (3^d - 1 neighbours).
Traffic traffic_model(const Plan& plan, const Machine& machine, const Mesh& mesh,
                      const TrafficOptions& options = {});

} // namespace hcart
