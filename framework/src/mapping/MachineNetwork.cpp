// Levels above the node: Machine::with_network and the network part of Machine::parse.
#include "mapping/MachineNetwork.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Factorize.hpp>

#include <algorithm>
#include <map>
#include <numeric>

namespace hcart {

namespace {

bool all_units_equal(const std::vector<std::int64_t>& v) {
  return std::equal(v.begin() + (v.empty() ? 0 : 1), v.end(), v.begin());
}

} // namespace

Machine Machine::with_network(const std::vector<std::string>& names,
                              const std::vector<std::vector<std::int64_t>>& node_units) const {
  const std::int64_t nodes = m_levels[0].size;
  const std::size_t nl = names.size();
  HCART_REQUIRE(nl >= 1, "hcart::Machine::with_network: no network levels, expected at least one");
  HCART_REQUIRE(m_node_level == 0, "hcart::Machine::with_network: machine '"
                                       << to_string() << "' has network levels already");
  HCART_REQUIRE(static_cast<std::int64_t>(node_units.size()) == nodes,
                "hcart::Machine::with_network: units for "
                    << node_units.size() << " nodes, expected the " << nodes << " of level '"
                    << m_levels[0].name << "'");
  // Every unit's parent and index within it, in order of the units' lowest nodes.
  struct Unit {
    std::int64_t parent;
    std::int64_t index;
  };
  std::vector<std::map<std::int64_t, Unit>> units(nl);
  std::vector<std::map<std::int64_t, std::int64_t>> children(nl + 1); // parent id -> count
  std::vector<std::vector<std::int64_t>> path(nodes, std::vector<std::int64_t>(nl + 1));
  for (std::int64_t u = 0; u < nodes; ++u) {
    HCART_REQUIRE(node_units[u].size() == nl, "hcart::Machine::with_network: node "
                                                  << u << " has " << node_units[u].size()
                                                  << " units, expected one per network level ("
                                                  << nl << ")");
    for (std::size_t k = 0; k <= nl; ++k) {
      const std::int64_t parent = k == 0 ? -1 : node_units[u][k - 1];
      if (k == nl) { // the node itself: its index in its lowest unit
        path[u][k] = children[k][parent]++;
        continue;
      }
      const std::int64_t id = node_units[u][k];
      HCART_REQUIRE(id >= 0, "hcart::Machine::with_network: node " << u << " is in unit " << id
                                                                   << " of level '" << names[k]
                                                                   << "', expected an id >= 0");
      const auto [it, fresh] = units[k].emplace(id, Unit{parent, 0});
      if (fresh) it->second.index = children[k][parent]++;
      HCART_REQUIRE(it->second.parent == parent, "hcart::Machine::with_network: unit "
                                                     << id << " of level '" << names[k]
                                                     << "' is inside units " << it->second.parent
                                                     << " and " << parent << " of level '"
                                                     << names[k - 1] << "': the units must nest");
      path[u][k] = it->second.index;
    }
  }
  std::vector<MachineLevel> levels;
  for (std::size_t k = 0; k <= nl; ++k) {
    std::int64_t most = 0;
    for (const auto& [parent, count] : children[k])
      most = std::max(most, count);
    levels.push_back({k < nl ? names[k] : m_levels[0].name, most});
  }
  levels.insert(levels.end(), m_levels.begin() + 1, m_levels.end());

  // The nodes in block order: by their path through the network.
  std::vector<std::int64_t> order(nodes);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int64_t a, std::int64_t b) { return path[a] < path[b]; });
  const std::int64_t tops = levels[0].size;
  // A rank's row: 0 for its level-0 unit, its path below that, its unit indices in the node.
  auto append_row = [&](std::vector<int>& rows, std::int64_t u,
                        const std::vector<std::int64_t>& inner) {
    rows.push_back(0);
    for (std::size_t k = 1; k <= nl; ++k)
      rows.push_back(static_cast<int>(path[u][k]));
    for (std::size_t l = 1; l < inner.size(); ++l)
      rows.push_back(static_cast<int>(inner[l]));
  };
  std::vector<std::vector<int>> kinds;
  std::vector<int> top_kind(tops);
  std::vector<int> world_top;
  bool identity = true;
  for (std::int64_t j = 0; j < nodes; ++j)
    identity = identity && order[j] == j;
  const bool runs = identity && m_order == LaunchOrder::NodeRuns;
  LaunchOrder launch = LaunchOrder::NodeRuns;
  if (runs) {
    // Node runs stay node runs: a unit's rows follow from its nodes' kinds and places.
    std::map<std::vector<std::int64_t>, int> kind_of;
    for (std::int64_t first = 0; first < nodes;) {
      std::int64_t last = first;
      while (last < nodes && path[last][0] == path[first][0])
        ++last;
      std::vector<std::int64_t> signature;
      for (std::int64_t u = first; u < last; ++u) {
        signature.push_back(node_kind(u));
        signature.insert(signature.end(), path[u].begin() + 1, path[u].end());
      }
      const auto [it, fresh] = kind_of.emplace(signature, static_cast<int>(kinds.size()));
      top_kind[path[first][0]] = it->second;
      if (fresh) {
        std::vector<int> rows;
        for (std::int64_t u = first; u < last; ++u)
          for (std::int64_t j = 0; j < ranks_on_node(u); ++j)
            append_row(rows, u, unit_indices(node_first_block(u) + j)); // world rank
        kinds.push_back(std::move(rows));
      }
      first = last;
    }
  } else {
    HCART_REQUIRE(m_ranks <= uneven_max_ranks,
                  "hcart::Machine::with_network: "
                      << m_ranks << " ranks whose network units do not hold runs of "
                      << "consecutive world ranks, expected at most " << uneven_max_ranks);
    launch = LaunchOrder::Table;
    std::vector<std::vector<int>> rows(tops);
    world_top.resize(m_ranks);
    for (std::int64_t r = 0; r < m_ranks; ++r) {
      const auto inner = unit_indices(r);
      const std::int64_t u = inner[0];
      world_top[r] = static_cast<int>(path[u][0]);
      append_row(rows[path[u][0]], u, inner);
    }
    std::map<std::vector<int>, int> kind_of;
    for (std::int64_t t = 0; t < tops; ++t) {
      const auto [it, fresh] = kind_of.emplace(rows[t], static_cast<int>(kinds.size()));
      if (fresh) kinds.push_back(std::move(rows[t]));
      top_kind[t] = it->second;
    }
  }

  // The description: counts while every unit of a level holds as many, then lists.
  std::string text;
  bool listed = false;
  std::int64_t count = tops;
  for (std::size_t k = 0; k <= nl; ++k) {
    std::vector<std::int64_t> held; // per unit of level k in block order, what it holds
    for (std::size_t j = 0; j < order.size(); ++j) {
      const std::int64_t u = order[j];
      if (k == nl) {
        held.push_back(ranks_on_node(u));
      } else if (j == 0 || node_units[u][k] != node_units[order[j - 1]][k]) {
        held.push_back(children[k + 1][node_units[u][k]]); // a unit's nodes are consecutive
      }
    }
    text += (text.empty() ? "" : " ") + levels[k].name + ":";
    if (!listed && all_units_equal(held)) {
      text += std::to_string(count);
      count = held.front();
      continue;
    }
    if (!listed && k == nl) { // counted switches sharing the nodes evenly
      text += impl::list_text(held);
      continue;
    }
    listed = true;
    text += impl::list_text(held);
  }
  for (std::size_t l = 1; l < m_levels.size(); ++l)
    text += " " + m_levels[l].name + ":" + std::to_string(m_levels[l].size);

  Machine machine(std::move(levels), std::move(kinds), std::move(top_kind), launch, world_top,
                  m_source);
  machine.m_placement = m_placement;
  machine.m_node_level = static_cast<int>(nl);
  machine.m_description = std::move(text);
  return machine;
}

Machine Machine::without_network() const {
  if (m_node_level == 0) return *this;
  const auto nl = static_cast<std::size_t>(m_node_level);
  // Block order visits the nodes one after another: a node's number is how many began
  // before it, and its ranks keep their block numbers.
  std::vector<int> node_of_block(static_cast<std::size_t>(m_ranks));
  std::vector<std::int64_t> last;
  int nodes = 0;
  for (std::int64_t b = 0; b < m_ranks; ++b) {
    auto units = block_units(b);
    units.resize(nl + 1);
    if (b == 0 || units != last) ++nodes;
    node_of_block[b] = nodes - 1;
    last = std::move(units);
  }
  std::vector<MachineLevel> levels{{m_levels[nl].name, nodes}};
  levels.insert(levels.end(), m_levels.begin() + nl + 1, m_levels.end());
  std::vector<int> table;
  table.reserve(static_cast<std::size_t>(m_ranks) * levels.size());
  for (std::int64_t r = 0; r < m_ranks; ++r) {
    const auto units = unit_indices(r);
    table.push_back(node_of_block[block_number(r)]);
    for (std::size_t l = nl + 1; l < units.size(); ++l)
      table.push_back(static_cast<int>(units[l]));
  }
  Machine machine(std::move(levels), std::move(table), m_source);
  machine.m_placement = m_placement;
  return machine;
}

namespace impl {

Machine network_machine(const std::string& text, const std::vector<MachineLevel>& levels,
                        const std::vector<std::vector<std::int64_t>>& lists, int network,
                        Placement placement) {
  const auto nl = static_cast<std::size_t>(network);
  // Units per level (0 .. nl, the node level last) and every unit's parent.
  std::vector<std::int64_t> units(nl + 1);
  std::vector<std::vector<std::int64_t>> parent(nl + 1); // empty for level 0
  units[0] = levels[0].size;
  for (std::size_t k = 1; k <= nl; ++k) {
    std::vector<std::int64_t> held; // what each unit of level k-1 holds of level k
    if (!lists[k - 1].empty()) {
      HCART_REQUIRE(
          !lists[k].empty(),
          "machine '" << text << "': level '" << levels[k].name << "' follows the list of '"
                      << levels[k - 1].name << "': list its units too, e.g. " << levels[k].name
                      << ":[" << levels[k].size << "x"
                      << std::accumulate(lists[k - 1].begin(), lists[k - 1].end(), std::int64_t{0})
                      << "]");
      held = lists[k - 1];
    } else if (!lists[k].empty()) { // counted units sharing the listed ones evenly
      const auto n = static_cast<std::int64_t>(lists[k].size());
      HCART_REQUIRE(n % units[k - 1] == 0,
                    "machine '" << text << "': " << n << " units of '" << levels[k].name
                                << "' do not share evenly among the " << units[k - 1] << " of '"
                                << levels[k - 1].name << "'");
      held.assign(units[k - 1], n / units[k - 1]);
    } else {
      held.assign(units[k - 1], levels[k].size);
    }
    std::int64_t total = 0;
    for (std::int64_t u = 0; u < units[k - 1]; ++u) {
      HCART_REQUIRE(total + held[u] <= uneven_max_ranks,
                    "machine '" << text << "': more than " << uneven_max_ranks << " units of '"
                                << levels[k].name << "'");
      parent[k].insert(parent[k].end(), held[u], u);
      total += held[u];
    }
    HCART_REQUIRE(lists[k].empty() || static_cast<std::int64_t>(lists[k].size()) == total,
                  "machine '" << text << "': '" << levels[k].name << "' lists " << lists[k].size()
                              << " units, but the units of '" << levels[k - 1].name << "' hold "
                              << total);
    units[k] = total;
  }
  const std::vector<MachineLevel> inner(levels.begin() + network + 1, levels.end());
  bool even = lists[nl].empty();
  for (std::size_t k = 0; k < nl; ++k)
    even = even && lists[k].empty();
  if (even && placement == Placement::Block) return Machine(levels, placement); // a rule
  // The node-level machine (world order over all nodes, as a launcher deals ranks), then
  // the network above it.
  std::vector<MachineLevel> node_levels{{"node", units[nl]}};
  node_levels.insert(node_levels.end(), inner.begin(), inner.end());
  const Machine nodes = lists[nl].empty() ? Machine(node_levels, placement)
                                          : Machine::with_node_ranks(lists[nl], inner, placement);
  std::vector<std::vector<std::int64_t>> node_units(units[nl], std::vector<std::int64_t>(nl));
  for (std::int64_t u = 0; u < units[nl]; ++u) {
    std::int64_t at = u;
    for (std::size_t k = nl; k >= 1; --k) {
      at = parent[k][at];
      node_units[u][k - 1] = at;
    }
  }
  std::vector<std::string> names;
  for (std::size_t k = 0; k < nl; ++k)
    names.push_back(levels[k].name);
  return nodes.with_network(names, node_units);
}

std::string list_text(const std::vector<std::int64_t>& entries) {
  std::string s = "[";
  for (std::size_t u = 0; u < entries.size();) {
    std::size_t v = u;
    while (v < entries.size() && entries[v] == entries[u])
      ++v;
    s += (u ? "," : "") + std::to_string(entries[u]) +
         (v - u > 1 ? "x" + std::to_string(v - u) : std::string());
    u = v;
  }
  return s + "]";
}

} // namespace impl

} // namespace hcart
