#include "mapping/MessageWalk.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Blocks.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <algorithm>

namespace hcart {

namespace {
// Byte counts of huge meshes exceed 64 bits: an error, never a wrapped negative count.
[[noreturn]] void too_large() {
  throw InputError("hcart::traffic_model: the halo traffic exceeds 2^63 bytes; the mesh is too "
                   "large to count in 64 bits");
}
void add_to(std::int64_t& sum, std::int64_t b) {
  if (__builtin_add_overflow(sum, b, &sum)) too_large();
}
} // namespace

namespace {
// The offsets of the messages a rank sends in halo_messages' order ({-1, 0, 1}^d, direction 0
// most significant): faces, with `corners` edges and corners too, leaving out those that
// cross a direction of halo width 0 (they carry nothing); and the bytes of each per cell of
// its face (elem_bytes times the halo widths it crosses).
void message_offsets(const Mesh& mesh, const TrafficOptions& options,
                     std::vector<impl::MessageOffset>& offsets, std::vector<std::int64_t>& unit) {
  const std::size_t d = mesh.global_size.size();
  std::vector<int> offset(d, -1);
  for (;;) {
    impl::MessageOffset o;
    for (std::size_t i = 0; i < d; ++i) {
      if (offset[i] == 0) continue;
      o.crossed |= 1u << i;
      if (offset[i] > 0) o.plus |= 1u << i;
    }
    const bool face = (o.crossed & (o.crossed - 1)) == 0;
    if (o.crossed != 0 && (options.corners || face)) {
      std::int64_t bytes = options.elem_bytes; // only the offsets sent: no overflow of others
      for (std::size_t i = 0; i < d; ++i)
        if (o.crossed & (1u << i)) impl::scale(bytes, mesh.halo_width[i]);
      if (bytes > 0) {
        offsets.push_back(o);
        unit.push_back(bytes);
      }
    }
    std::size_t i = d;
    while (i > 0 && offset[i - 1] == 1)
      offset[--i] = -1;
    if (i == 0) break;
    ++offset[i - 1];
  }
}

// The messages the rank at `coords` sends: visit(offsets[k], to_cart_rank, bytes).
template <class Visit>
void for_each_halo_message(const std::int64_t* coords, const std::vector<std::int64_t>& dims,
                           const Mesh& mesh, const std::vector<impl::MessageOffset>& offsets,
                           const std::vector<std::int64_t>& unit,
                           std::vector<std::int64_t>& neighbour, Visit&& visit) {
  neighbour.resize(dims.size());
  const auto extent = [&](std::size_t i, std::int64_t c) {
    return block_extent(mesh.global_size[i], dims[i], c, block_multiple_of(mesh, i));
  };
  impl::for_each_message(
      dims, mesh.periodic, coords, offsets, [&](std::size_t k) { return unit[k]; }, extent,
      neighbour.data(),
      [&](std::size_t k, const std::int64_t* to, std::int64_t bytes) {
        std::int64_t rank = 0;
        for (std::size_t i = 0; i < dims.size(); ++i)
          rank = rank * dims[i] + to[i];
        if (bytes > 0) visit(offsets[k], rank, bytes);
      });
}
} // namespace

std::vector<HaloMessage> halo_messages(const std::vector<std::int64_t>& coords,
                                       const std::vector<std::int64_t>& dims, const Mesh& mesh,
                                       const TrafficOptions& options) {
  std::vector<impl::MessageOffset> offsets;
  std::vector<std::int64_t> unit, neighbour;
  message_offsets(mesh, options, offsets, unit);
  std::vector<HaloMessage> out;
  for_each_halo_message(coords.data(), dims, mesh, offsets, unit, neighbour,
                        [&](impl::MessageOffset o, std::int64_t to, std::int64_t bytes) {
                          std::vector<int> offset(dims.size(), 0);
                          for (std::size_t i = 0; i < dims.size(); ++i)
                            if (o.crossed & (1u << i)) offset[i] = (o.plus >> i) & 1u ? 1 : -1;
                          out.push_back({offset, to, bytes});
                        });
  return out;
}

Traffic traffic_model(const Plan& plan, const Machine& machine, const Mesh& mesh,
                      const TrafficOptions& options) {
  validate(mesh);
  const std::size_t d = mesh.global_size.size();
  HCART_REQUIRE(plan.dims.size() == d, "hcart::traffic_model: a " << plan.dims.size()
                                                                  << "-dimensional plan for a " << d
                                                                  << "-dimensional mesh");
  HCART_REQUIRE(options.elem_bytes >= 1,
                "hcart::traffic_model: elem_bytes = " << options.elem_bytes << ", expected >= 1");
  HCART_REQUIRE(!options.corners || d <= 6,
                "hcart::traffic_model: corners with " << d << " dimensions, expected at most 6");
  const std::int64_t ranks = machine.ranks();
  const auto depth = static_cast<std::size_t>(machine.level_count());

  // Who sits where: cart rank -> world rank, and every world rank's unit indices.
  std::vector<std::int64_t> world_of_cart(ranks, -1);
  std::vector<std::int64_t> units(ranks * depth);
  for (std::int64_t r = 0; r < ranks; ++r) {
    const std::int64_t q = plan.cart_rank_of(r, machine);
    HCART_CHECK(world_of_cart[q] < 0, "hcart::traffic_model: the plan places world ranks "
                                          << world_of_cart[q] << " and " << r
                                          << " on the same Cartesian rank " << q);
    world_of_cart[q] = r;
    const auto u = machine.unit_indices(r);
    std::copy(u.begin(), u.end(), units.begin() + r * depth);
  }

  // A unit of level l is named by its index prefix u_0..u_l (mixed radix).
  std::vector<std::vector<std::int64_t>> unit_bytes(depth);
  std::vector<std::vector<double>> unit_cost(depth);
  std::int64_t units_at_level = 1;
  for (std::size_t l = 0; l < depth; ++l) {
    units_at_level *= machine.levels()[l].size;
    unit_bytes[l].assign(units_at_level, 0);
    unit_cost[l].assign(units_at_level, 0.0);
  }
  Traffic traffic;
  for (std::size_t l = 0; l < depth; ++l)
    traffic.levels.push_back({machine.levels()[l].name});
  traffic.levels.push_back({"self"});
  std::vector<std::int64_t> coords(d), messages(depth + 1);
  std::vector<impl::MessageOffset> offsets;
  std::vector<std::int64_t> offset_bytes, neighbour_scratch;
  message_offsets(mesh, options, offsets, offset_bytes);
  for (std::int64_t q = 0; q < ranks; ++q) {
    const std::int64_t sender = world_of_cart[q];
    const std::int64_t* su = units.data() + sender * depth;
    std::int64_t sent_to_others = 0, copied = 0;
    double copied_cost = 0;
    std::fill(messages.begin(), messages.end(), 0);
    // Row-major coordinates of q, the last direction fastest.
    std::int64_t rest = q;
    for (std::size_t i = d; i-- > 0;) {
      coords[i] = rest % plan.dims[i];
      rest /= plan.dims[i];
    }
    for_each_halo_message(
        coords.data(), plan.dims, mesh, offsets, offset_bytes, neighbour_scratch,
        [&](impl::MessageOffset offset, std::int64_t to_cart_rank, std::int64_t bytes) {
          const std::int64_t receiver = world_of_cart[to_cart_rank];
          const std::int64_t* ru = units.data() + receiver * depth;
          std::size_t level = 0;
          while (level < depth && su[level] == ru[level])
            ++level;
          LevelTraffic& t = traffic.levels[level];
          // Its cost: the bytes times the cost factors of the directions it crosses.
          double cost = static_cast<double>(bytes);
          for (std::size_t i = 0; i < d && !mesh.cost_factor.empty(); ++i) {
            if (offset.crossed & (1u << i)) cost *= mesh.cost_factor[i];
          }
          add_to(t.bytes, bytes);
          t.cost += cost;
          t.messages += 1;
          messages[level] += 1;
          if (level < depth) {
            std::int64_t unit = 0;
            for (std::size_t k = 0; k <= level; ++k)
              unit = unit * machine.levels()[k].size + su[k];
            add_to(unit_bytes[level][unit], bytes);
            unit_cost[level][unit] += cost;
            add_to(sent_to_others, bytes);
          } else {
            add_to(copied, bytes);
            copied_cost += cost;
          }
        });
    for (std::size_t l = 0; l <= depth; ++l) {
      traffic.levels[l].max_rank_messages =
          std::max(traffic.levels[l].max_rank_messages, messages[l]);
    }
    traffic.max_rank_halo_bytes = std::max(traffic.max_rank_halo_bytes, sent_to_others);
    add_to(traffic.total_bytes, sent_to_others);
    traffic.levels[depth].max_unit_bytes = std::max(traffic.levels[depth].max_unit_bytes, copied);
    traffic.levels[depth].max_unit_cost =
        std::max(traffic.levels[depth].max_unit_cost, copied_cost);
  }
  // The units that hold ranks, per level.
  std::vector<std::vector<char>> held(depth);
  for (std::size_t l = 0; l < depth; ++l)
    held[l].assign(unit_bytes[l].size(), 0);
  for (std::int64_t r = 0; r < ranks; ++r) {
    std::int64_t unit = 0;
    for (std::size_t l = 0; l < depth; ++l) {
      unit = unit * machine.levels()[l].size + units[r * depth + l];
      held[l][unit] = 1;
    }
  }
  traffic.levels[depth].units = ranks;
  for (std::size_t l = 0; l < depth; ++l) {
    traffic.levels[l].units = std::count(held[l].begin(), held[l].end(), 1);
    traffic.levels[l].max_unit_bytes =
        *std::max_element(unit_bytes[l].begin(), unit_bytes[l].end());
    traffic.levels[l].max_unit_cost = *std::max_element(unit_cost[l].begin(), unit_cost[l].end());
  }
  return traffic;
}

} // namespace hcart
