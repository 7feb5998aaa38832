// A plan's placement (include/hcart/mapping/Plan.hpp): where every rank sits in the process
// grid and back, for each layout (world order, level grids, node regions and strips, row-major
// runs, tables), and the layout's words. make_plan, which chooses the plan, is in Plan.cpp.
#include "mapping/FactorSearch.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Plan.hpp>

#include <algorithm>
#include <map>
#include <string>

namespace hcart {

std::string to_string(PlanLayout layout) {
  switch (layout) {
  case PlanLayout::WorldOrder: return "world order";
  case PlanLayout::LevelGrid: return "level grid";
  case PlanLayout::NodeRegions: return "node regions";
  case PlanLayout::RowMajorRuns: return "row-major runs";
  case PlanLayout::Table: return "table";
  }
  return "unknown";
}

std::vector<std::int64_t> row_major_coords(std::int64_t rank,
                                           const std::vector<std::int64_t>& dims) {
  std::vector<std::int64_t> c(dims.size());
  for (std::size_t i = dims.size(); i-- > 0;) {
    c[i] = rank % dims[i];
    rank /= dims[i];
  }
  return c;
}

std::int64_t row_major_rank(const std::vector<std::int64_t>& coords,
                            const std::vector<std::int64_t>& dims) {
  std::int64_t r = 0;
  for (std::size_t i = 0; i < dims.size(); ++i)
    r = r * dims[i] + coords[i];
  return r;
}

std::vector<std::int64_t> Plan::coords_of(std::int64_t world_rank, const Machine& machine) const {
  HCART_REQUIRE(world_rank >= 0 && world_rank < machine.ranks(),
                "hcart::Plan::coords_of: rank " << world_rank << ", expected 0 to "
                                                << machine.ranks() - 1);
  if (!measured_cart_rank.empty()) {
    return row_major_coords(measured_cart_rank.at(world_rank), dims);
  }
  if (layout == PlanLayout::WorldOrder) return row_major_coords(world_rank, dims);
  return coords_of_block(machine.block_number(world_rank), machine);
}

std::vector<std::int64_t> Plan::coords_of_block(std::int64_t block, const Machine& machine) const {
  if (!measured_cart_rank.empty() || layout == PlanLayout::WorldOrder)
    return coords_of(machine.rank_of_block(block), machine);
  if (layout == PlanLayout::RowMajorRuns) return row_major_coords(block, dims);
  if (layout == PlanLayout::Table) return row_major_coords(block_cart_rank.at(block), dims);
  const std::vector<std::int64_t> units = machine.block_units(block);
  std::vector<std::int64_t> c(dims.size(), 0);
  // The mixed-radix combination of the level coordinates from level `first` on.
  auto combine = [&](std::size_t first, const std::vector<std::vector<std::int64_t>>& factors) {
    for (std::size_t l = 0; l < factors.size(); ++l) {
      const auto level_coords = row_major_coords(units[first + l], factors[l]);
      for (std::size_t i = 0; i < dims.size(); ++i)
        c[i] = c[i] * factors[l][i] + level_coords[i];
    }
  };
  if (layout == PlanLayout::LevelGrid) {
    combine(0, level_factors);
    return c;
  }
  const NodeRegion& region = node_regions.at(units[0]);
  if (region.level_factors.empty() && units.size() > 1) {
    // The node's ranks in block order as a run of the box's row-major order.
    std::int64_t position = region.run_offset + block - machine.node_first_block(units[0]);
    for (std::size_t k = dims.size(); k-- > 0;) {
      const std::size_t i =
          region.run_axes.empty() ? k : static_cast<std::size_t>(region.run_axes[k]);
      c[i] = position % region.extent[i];
      position /= region.extent[i];
    }
  } else {
    combine(1, region.level_factors);
  }
  for (std::size_t i = 0; i < dims.size(); ++i)
    c[i] += region.origin[i];
  return c;
}

namespace {
// Splits coordinates c (relative to the first of `factors`' grid) into one unit index per
// level: the finest level's coordinate is c mod its factors, and so on up.
void split_levels(std::vector<std::int64_t> c,
                  const std::vector<std::vector<std::int64_t>>& factors, std::size_t first,
                  std::vector<std::int64_t>& units) {
  for (std::size_t l = factors.size(); l-- > 0;) {
    std::vector<std::int64_t> level_coords(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
      level_coords[i] = c[i] % factors[l][i];
      c[i] /= factors[l][i];
    }
    units[first + l] = row_major_rank(level_coords, factors[l]);
  }
}
} // namespace

std::int64_t Plan::world_rank_at(std::int64_t cart_rank, const Machine& machine) const {
  HCART_REQUIRE(cart_rank >= 0 && cart_rank < machine.ranks(),
                "hcart::Plan::world_rank_at: Cartesian rank " << cart_rank << ", expected 0 to "
                                                              << machine.ranks() - 1);
  if (!measured_cart_rank.empty()) {
    const auto it = std::find(measured_cart_rank.begin(), measured_cart_rank.end(), cart_rank);
    HCART_REQUIRE(it != measured_cart_rank.end(),
                  "hcart::Plan::world_rank_at: no rank at Cartesian rank " << cart_rank);
    return it - measured_cart_rank.begin();
  }
  if (layout == PlanLayout::WorldOrder) return cart_rank;
  if (layout == PlanLayout::RowMajorRuns) return machine.rank_of_block(cart_rank);
  if (layout == PlanLayout::Table) {
    const auto it = std::find(block_cart_rank.begin(), block_cart_rank.end(), cart_rank);
    HCART_REQUIRE(it != block_cart_rank.end(),
                  "hcart::Plan::world_rank_at: no rank at Cartesian rank " << cart_rank);
    return machine.rank_of_block(it - block_cart_rank.begin());
  }
  const std::vector<std::int64_t> c = row_major_coords(cart_rank, dims);
  std::vector<std::int64_t> units(machine.level_count(), 0);
  if (layout == PlanLayout::LevelGrid) {
    split_levels(c, level_factors, 0, units);
    return machine.rank_of_block(machine.block_of_units(units));
  }
  for (std::size_t u = 0; u < node_regions.size(); ++u) {
    const NodeRegion& region = node_regions[u];
    std::vector<std::int64_t> local(c.size());
    bool inside = true;
    for (std::size_t i = 0; i < c.size() && inside; ++i) {
      local[i] = c[i] - region.origin[i];
      inside = local[i] >= 0 && local[i] < region.extent[i];
    }
    if (!inside) continue;
    const auto node = static_cast<std::int64_t>(u);
    if (machine.level_count() == 1) return machine.rank_of_block(machine.node_first_block(node));
    if (region.level_factors.empty()) {
      std::int64_t position = 0;
      for (std::size_t k = 0; k < c.size(); ++k) {
        const std::size_t i =
            region.run_axes.empty() ? k : static_cast<std::size_t>(region.run_axes[k]);
        position = position * region.extent[i] + local[i];
      }
      position -= region.run_offset;
      if (position < 0 || position >= machine.ranks_on_node(node)) continue; // a box's other node
      return machine.rank_of_block(machine.node_first_block(node) + position);
    }
    units[0] = node;
    split_levels(local, region.level_factors, 1, units);
    return machine.rank_of_block(machine.block_of_units(units));
  }
  throw Error("hcart::Plan::world_rank_at: no node box holds Cartesian rank " +
              std::to_string(cart_rank));
}

std::int64_t Plan::cart_rank_of(std::int64_t world_rank, const Machine& machine) const {
  return row_major_rank(coords_of(world_rank, machine), dims);
}

std::string Plan::describe_layout() const {
  if (layout == PlanLayout::WorldOrder) return "(world order)";
  if (layout == PlanLayout::RowMajorRuns) return "(row-major runs)";
  if (layout == PlanLayout::Table)
    return "(a table of " + std::to_string(block_cart_rank.size()) + " ranks)";
  if (layout == PlanLayout::LevelGrid) {
    std::string s;
    for (const auto& f : level_factors)
      s += (s.empty() ? "" : " | ") + impl::join_numbers(f);
    return s;
  }
  // Node boxes grouped by extent and finer factors, first origins listed.
  std::map<std::string, std::vector<std::string>> groups;
  std::vector<std::string> order;
  for (const auto& r : node_regions) {
    std::string key = impl::join_numbers(r.extent);
    if (!r.run_axes.empty()) key += " (shared, run from " + std::to_string(r.run_offset) + ")";
    if (r.level_factors.size() > 1) {
      key += " (";
      for (std::size_t l = 0; l < r.level_factors.size(); ++l)
        key += (l ? " | " : "") + impl::join_numbers(r.level_factors[l]);
      key += ")";
    }
    if (groups.find(key) == groups.end()) order.push_back(key);
    groups[key].push_back(impl::join_numbers(r.origin, ","));
  }
  std::string s = std::to_string(node_regions.size()) + " node boxes:";
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto& origins = groups[order[k]];
    s += (k ? "; " : " ") + order[k] + " at " + origins[0];
    for (std::size_t j = 1; j < origins.size() && j < 3; ++j)
      s += " " + origins[j];
    if (origins.size() > 3) s += " (+" + std::to_string(origins.size() - 3) + ")";
  }
  return s;
}

} // namespace hcart
