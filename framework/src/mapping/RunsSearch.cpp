// The row-major-runs part of the exact search: every unit holds a run of consecutive
// row-major ranks of the process grid, what world order gives a launch that fills nodes in
// turn (the weighted and mpi strategies' placement there). Runs are boxes only for some grids
// (those are level grids, searched already); the others are counted rank by rank.
#include "mapping/PlanSearch.hpp"

#include <algorithm>
#include <optional>

namespace hcart::impl {

std::optional<std::vector<std::vector<std::int64_t>>>
runs_as_level_grid(const std::vector<std::int64_t>& dims,
                   const std::vector<std::int64_t>& level_sizes) {
  const std::size_t D = dims.size(), L = level_sizes.size();
  // suffix[j]: ranks in one step of direction j - 1, the product of dims[j..].
  std::vector<std::int64_t> suffix(D + 1, 1);
  for (std::size_t j = D; j-- > 0;)
    suffix[j] = suffix[j + 1] * dims[j];
  std::vector<std::vector<std::int64_t>> factors;
  std::vector<std::int64_t> parent(D, 1);
  std::int64_t run = suffix[0];
  for (std::size_t l = 0; l < L; ++l) {
    run /= level_sizes[l]; // consecutive ranks in one unit of level l
    // A run is a box when it is whole steps of one direction j: suffix[j+1] | run | suffix[j].
    std::optional<std::size_t> along;
    for (std::size_t j = 0; j < D && !along; ++j) {
      if (run % suffix[j + 1] == 0 && suffix[j] % run == 0) along = j;
    }
    if (!along) return std::nullopt;
    std::vector<std::int64_t> groups(D), f(D);
    for (std::size_t i = 0; i < D; ++i) {
      const std::int64_t extent = i > *along ? dims[i] : i == *along ? run / suffix[i + 1] : 1;
      groups[i] = dims[i] / extent;
      if (groups[i] % parent[i] != 0) return std::nullopt;
      f[i] = groups[i] / parent[i];
    }
    factors.push_back(f);
    parent = groups;
  }
  return factors;
}

BlockUnits::BlockUnits(const Machine& machine) {
  const int L = machine.level_count();
  for (const auto& level : machine.levels())
    m_sizes.push_back(level.size);
  if (machine.even()) {
    std::int64_t below = machine.ranks();
    for (int l = 0; l < L; ++l) {
      below /= m_sizes[l];
      m_below.push_back(below);
    }
    return;
  }
  const std::int64_t nodes = m_sizes[0];
  m_node_first.resize(nodes + 1);
  m_node_units.resize(nodes);
  for (std::int64_t u = 0; u < nodes; ++u) {
    m_node_first[u] = machine.node_first_block(u);
    m_node_units[u] = machine.kind_units(machine.node_kind(u)).data();
  }
  m_node_first[nodes] = machine.ranks();
}

void BlockUnits::units(std::int64_t block, std::int64_t* out) const {
  const std::size_t L = m_sizes.size();
  if (!m_below.empty()) {
    for (std::size_t l = 0; l < L; ++l)
      out[l] = block / m_below[l];
    return;
  }
  const std::int64_t node =
      std::upper_bound(m_node_first.begin(), m_node_first.end(), block) - m_node_first.begin() - 1;
  const int* row = m_node_units[node] + (block - m_node_first[node]) * (L - 1);
  out[0] = node;
  for (std::size_t l = 1; l < L; ++l)
    out[l] = out[l - 1] * m_sizes[l] + row[l - 1];
}

Candidate runs_candidate(const SearchContext& context, const std::vector<std::int64_t>& dims) {
  const int L = context.levels();
  std::vector<std::int64_t> units_at_level(L);
  std::int64_t count = 1;
  for (int l = 0; l < L; ++l) {
    count *= context.level_sizes[l];
    units_at_level[l] = count;
  }
  std::vector<std::vector<double>> sent(L);
  for (int l = 0; l < L; ++l)
    sent[l].assign(units_at_level[l], 0.0);

  std::vector<std::int64_t> unit_r(L), unit_to(L);
  std::int64_t sender = -1; // whose units unit_r holds
  for_each_grid_message(context, dims, [&](std::int64_t r, std::int64_t to, double cost) {
    if (r != sender) {
      context.block_units.units(r, unit_r.data());
      sender = r;
    }
    context.block_units.units(to, unit_to.data());
    int level = 0;
    while (level < L && unit_r[level] == unit_to[level])
      ++level;
    if (level < L) sent[level][unit_r[level]] += cost;
  });
  Candidate candidate;
  candidate.layout = PlanLayout::RowMajorRuns;
  candidate.dims = dims;
  candidate.level_factors = {dims};
  for (int l = 0; l < L; ++l) {
    LevelCost level{context.level_names[l], 0, 0};
    for (double v : sent[l]) {
      level.busiest = std::max(level.busiest, v);
      level.total += v;
    }
    candidate.cost.levels.push_back(level);
  }
  return candidate;
}

void search_row_major_runs(const SearchContext& context,
                           const std::vector<std::vector<std::int64_t>>& grids, Chooser& chooser,
                           SearchStats& stats) {
  for (const auto& d : grids) {
    ++stats.run_grids;
    chooser.offer(runs_candidate(context, d));
  }
}

} // namespace hcart::impl
