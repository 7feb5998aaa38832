// Two pieces of the node-region search (search/RegionProgramme.hpp) that do not depend on its
// programme: the kinds of node of a machine, and the cost of a box whose nodes hold their
// ranks as runs of its row-major order, counted message by message.
#include "mapping/MessageWalk.hpp"
#include "mapping/PlanSearch.hpp"

#include <hcart/mapping/Blocks.hpp>

#include <algorithm>
#include <map>

namespace hcart::impl {

std::vector<NodeClass> node_classes(const Machine& machine) {
  const std::int64_t nodes = machine.levels()[0].size;
  const int L = machine.level_count();
  if (machine.even()) {
    NodeClass kind;
    kind.ranks = machine.ranks() / nodes;
    kind.nodes.resize(nodes);
    for (std::int64_t u = 0; u < nodes; ++u)
      kind.nodes[u] = u;
    for (int l = 1; l < L; ++l)
      kind.inner_sizes.push_back(machine.levels()[l].size);
    // Rank k of a node in block order: the mixed-radix digits of k on the finer levels.
    kind.inner_units.resize(static_cast<std::size_t>(kind.ranks) * (L - 1));
    for (std::int64_t k = 0; k < kind.ranks; ++k) {
      std::int64_t rest = k;
      for (int l = L - 1; l >= 1; --l) {
        kind.inner_units[static_cast<std::size_t>(k * (L - 1) + l - 1)] =
            rest % kind.inner_sizes[l - 1];
        rest /= kind.inner_sizes[l - 1];
      }
    }
    return {kind};
  }
  // The machine's kinds of node, merged where their ranks' indices in block order agree
  // (kinds that differ only in how the world ranks are ordered on the node).
  std::vector<std::vector<std::int64_t>> inner(machine.kind_count());
  for (int k = 0; k < machine.kind_count(); ++k) {
    const std::vector<int>& units = machine.kind_units(k);
    inner[k].assign(units.begin(), units.end());
  }
  std::vector<NodeClass> classes;
  std::map<std::vector<std::int64_t>, std::size_t> kind_of;
  for (std::int64_t u = 0; u < nodes; ++u) {
    const std::vector<std::int64_t>& signature = inner[machine.node_kind(u)];
    const auto [it, fresh] = kind_of.emplace(signature, classes.size());
    if (fresh) {
      NodeClass kind;
      kind.ranks = machine.ranks_on_node(u);
      kind.inner_units = signature;
      // Even inside when the sizes used multiply to the ranks (the indices are distinct).
      std::vector<std::int64_t> sizes(L - 1, 1);
      for (std::size_t k = 0; k < signature.size(); ++k)
        sizes[k % (L - 1)] = std::max(sizes[k % (L - 1)], signature[k] + 1);
      std::int64_t product = 1;
      for (std::int64_t x : sizes)
        product *= x;
      if (product == kind.ranks) kind.inner_sizes = sizes;
      classes.push_back(std::move(kind));
    }
    classes[it->second].nodes.push_back(u);
  }
  return classes;
}

std::vector<std::int64_t> ranks_per_node(const SearchContext& context) {
  std::vector<std::int64_t> ranks;
  for (const NodeClass& kind : context.node_classes)
    for (const std::int64_t u : kind.nodes) {
      if (static_cast<std::int64_t>(ranks.size()) <= u) ranks.resize(u + 1, 0);
      ranks[u] = kind.ranks;
    }
  return ranks;
}

std::vector<LevelCost> runs_cost(const SearchContext& context,
                                 const std::vector<std::int64_t>& dims,
                                 const std::vector<std::int64_t>& lo,
                                 const std::vector<std::int64_t>& hi, const std::vector<int>& order,
                                 std::vector<int> axes, bool inner_levels) {
  const int D = context.dims(), L = context.levels();
  const LoadProblem& problem = context.problem;
  if (axes.empty())
    for (int i = 0; i < D; ++i)
      axes.push_back(i);
  std::vector<std::int64_t> extent_of_box(D);
  std::int64_t volume = 1;
  for (int i = 0; i < D; ++i) {
    extent_of_box[i] = hi[i] - lo[i];
    volume *= extent_of_box[i];
  }
  // Every position's node (its place in `order`) and its index in that node.
  std::vector<int> owner(volume);
  std::vector<std::int64_t> local(volume);
  std::int64_t p = 0;
  for (std::size_t j = 0; j < order.size(); ++j)
    for (std::int64_t k = 0; k < context.node_classes[order[j]].ranks; ++k, ++p) {
      owner[p] = static_cast<int>(j);
      local[p] = k;
    }
  auto inner = [&](std::int64_t position, int level) {
    const NodeClass& kind = context.node_classes[order[owner[position]]];
    return kind.inner_units[local[position] * (L - 1) + level - 1];
  };
  // Units of level l >= 1 named by the node's place and their index prefix.
  auto unit_of = [&](std::int64_t position, int level) {
    std::int64_t id = owner[position];
    for (int l = 1; l <= level; ++l)
      id = id * context.level_sizes[l] + inner(position, l);
    return id;
  };
  std::vector<double> node_sent(order.size(), 0.0);
  std::vector<std::vector<double>> sent(L);
  if (inner_levels) {
    std::int64_t units = static_cast<std::int64_t>(order.size());
    for (int l = 1; l < L; ++l) {
      units *= context.level_sizes[l];
      sent[l].assign(units, 0.0);
    }
  }
  std::vector<std::int64_t> c(D), nb(D);
  const auto weight = [&](std::size_t k) { return problem.terms[k].weight; };
  const auto extent = [&](std::size_t i, std::int64_t x) {
    return block_extent(problem.cells[i], dims[i], x);
  };
  for (std::int64_t q = 0; q < volume; ++q) {
    std::int64_t rest = q;
    for (int k = D; k-- > 0;) {
      c[axes[k]] = lo[axes[k]] + rest % extent_of_box[axes[k]];
      rest /= extent_of_box[axes[k]];
    }
    for_each_message(dims, problem.periodic, c.data(), problem.terms, weight, extent, nb.data(),
                     [&](std::size_t, const std::int64_t* to_coords, double cost) {
                       bool inside = true;
                       for (int i = 0; i < D; ++i)
                         inside = inside && to_coords[i] >= lo[i] && to_coords[i] < hi[i];
                       if (!inside) {
                         node_sent[owner[q]] += cost;
                         return;
                       }
                       std::int64_t to = 0;
                       for (int k = 0; k < D; ++k)
                         to = to * extent_of_box[axes[k]] + (to_coords[axes[k]] - lo[axes[k]]);
                       if (to == q) return; // itself (a periodic direction of one rank)
                       if (owner[to] != owner[q]) {
                         node_sent[owner[q]] += cost;
                         return;
                       }
                       if (!inner_levels) return;
                       int level = 1;
                       while (level < L && inner(q, level) == inner(to, level))
                         ++level;
                       if (level < L) sent[level][unit_of(q, level)] += cost;
                     });
  }
  std::vector<LevelCost> costs;
  for (int l = 0; l < L; ++l) {
    LevelCost level{context.level_names[l], 0, 0};
    if (l == 0) {
      for (double v : node_sent) {
        level.busiest = std::max(level.busiest, v);
        level.total += v;
      }
    }
    for (double v : sent[l]) {
      level.busiest = std::max(level.busiest, v);
      level.total += v;
    }
    costs.push_back(level);
  }
  return costs;
}

} // namespace hcart::impl
