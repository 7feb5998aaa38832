// A machine's levels and how its ranks sit on them (include/hcart/mapping/Machine.hpp): the
// constructors from a rule, from kinds of node or from a table, the launch order, and the
// arithmetic between world ranks, block numbers and unit indices. Its text (parse,
// to_string) is in MachineText.cpp, its network levels in MachineNetwork.cpp.
#include "mapping/MachineNetwork.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Factorize.hpp>
#include <hcart/mapping/Machine.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace hcart {

namespace {
void check_names(const std::vector<MachineLevel>& levels) {
  HCART_REQUIRE(!levels.empty(), "hcart::Machine: no levels, expected at least one");
  std::set<std::string> names;
  for (const auto& level : levels) {
    HCART_REQUIRE(!level.name.empty(), "hcart::Machine: a level without a name");
    HCART_REQUIRE(names.insert(level.name).second,
                  "hcart::Machine: level name '" << level.name << "' appears twice");
    HCART_REQUIRE(level.size >= 1, "hcart::Machine: level '" << level.name << "' has size "
                                                             << level.size << ", expected >= 1");
  }
}

// The level named "node", else 0.
int node_level_of(const std::vector<MachineLevel>& levels) {
  for (std::size_t l = 0; l < levels.size(); ++l)
    if (levels[l].name == "node") return static_cast<int>(l);
  return 0;
}

// The product of the level sizes, or `limit` + 1 when it exceeds `limit`.
std::int64_t product_up_to(const std::vector<MachineLevel>& levels, std::int64_t limit) {
  std::int64_t product = 1;
  for (const auto& level : levels) {
    if (level.size > limit / product) return limit + 1;
    product *= level.size;
  }
  return product;
}
} // namespace

Machine::Machine(std::vector<MachineLevel> levels, Placement placement)
    : m_levels(std::move(levels)), m_placement(placement),
      m_order(placement == Placement::Block ? LaunchOrder::NodeRuns : LaunchOrder::RoundRobin) {
  check_names(m_levels);
  m_node_level = node_level_of(m_levels);
  m_ranks = product_up_to(m_levels, max_factorize_n);
  HCART_REQUIRE(m_ranks <= max_factorize_n,
                "hcart::Machine: more than " << max_factorize_n << " ranks in total");
}

Machine::Machine(std::vector<MachineLevel> levels, std::vector<int> unit_table,
                 std::string source) {
  check_names(levels);
  const auto depth = levels.size();
  HCART_REQUIRE(!unit_table.empty() && unit_table.size() % depth == 0,
                "hcart::Machine: unit table of " << unit_table.size()
                                                 << " entries, expected a positive multiple of the "
                                                 << depth << " levels");
  HCART_REQUIRE(unit_table.size() / depth <= static_cast<std::size_t>(max_factorize_n),
                "hcart::Machine: more than " << max_factorize_n << " ranks in total");
  const auto ranks = static_cast<std::int64_t>(unit_table.size() / depth);
  for (std::size_t k = 0; k < unit_table.size(); ++k) {
    const auto& level = levels[k % depth];
    HCART_REQUIRE(unit_table[k] >= 0 && unit_table[k] < level.size,
                  "hcart::Machine: unit index " << unit_table[k] << " at level '" << level.name
                                                << "', expected 0 to " << level.size - 1);
  }
  const int* table = unit_table.data();
  std::vector<std::vector<std::int64_t>> on_node(levels[0].size);
  std::vector<int> world_node(ranks);
  for (std::int64_t r = 0; r < ranks; ++r) {
    world_node[r] = table[r * depth];
    on_node[world_node[r]].push_back(r);
  }
  // Every node's rows in world order, its kind the rows with the node index as 0.
  std::map<std::vector<int>, int> kind_of;
  std::vector<std::vector<int>> kinds;
  std::vector<int> node_kind(on_node.size());
  for (std::size_t u = 0; u < on_node.size(); ++u) {
    HCART_REQUIRE(!on_node[u].empty(), "hcart::Machine: no rank on " << levels[0].name << " " << u
                                                                     << " of " << levels[0].size);
    std::vector<std::int64_t> sorted = on_node[u];
    std::sort(sorted.begin(), sorted.end(), [&](std::int64_t a, std::int64_t b) {
      return std::lexicographical_compare(table + a * depth, table + (a + 1) * depth,
                                          table + b * depth, table + (b + 1) * depth);
    });
    for (std::size_t k = 1; k < sorted.size(); ++k) {
      HCART_REQUIRE(!std::equal(table + sorted[k] * depth, table + (sorted[k] + 1) * depth,
                                table + sorted[k - 1] * depth),
                    "hcart::Machine: ranks " << std::min(sorted[k], sorted[k - 1]) << " and "
                                             << std::max(sorted[k], sorted[k - 1])
                                             << " have the same unit indices");
    }
    std::vector<int> rows;
    for (std::int64_t r : on_node[u]) {
      rows.push_back(0);
      rows.insert(rows.end(), table + r * depth + 1, table + (r + 1) * depth);
    }
    const auto [it, fresh] = kind_of.emplace(rows, static_cast<int>(kinds.size()));
    if (fresh) kinds.push_back(std::move(rows));
    node_kind[u] = it->second;
  }
  *this = Machine(std::move(levels), std::move(kinds), std::move(node_kind), LaunchOrder::Table,
                  world_node, std::move(source));
}

Machine::Machine(std::vector<MachineLevel> levels, std::vector<std::vector<int>> kinds,
                 std::vector<int> node_kind, LaunchOrder order, const std::vector<int>& world_node,
                 std::string source)
    : m_levels(std::move(levels)), m_source(std::move(source)), m_node_kind(std::move(node_kind)) {
  check_names(m_levels);
  m_node_level = node_level_of(m_levels);
  const std::size_t depth = m_levels.size();
  HCART_REQUIRE(!kinds.empty(), "hcart::Machine: no kinds of node");
  HCART_REQUIRE(static_cast<std::int64_t>(m_node_kind.size()) == m_levels[0].size,
                "hcart::Machine: " << m_node_kind.size() << " nodes listed, expected the "
                                   << m_levels[0].size << " of level '" << m_levels[0].name << "'");
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    const std::vector<int>& rows = kinds[k];
    HCART_REQUIRE(!rows.empty() && rows.size() % depth == 0,
                  "hcart::Machine: kind of node " << k << " lists " << rows.size()
                                                  << " unit indices, expected a positive "
                                                     "multiple of the "
                                                  << depth << " levels");
    Kind kind;
    kind.ranks = static_cast<std::int64_t>(rows.size() / depth);
    for (std::size_t e = 0; e < rows.size(); ++e) {
      const std::size_t l = e % depth;
      const std::int64_t top = l == 0 ? 1 : m_levels[l].size;
      HCART_REQUIRE(rows[e] >= 0 && rows[e] < top, "hcart::Machine: unit index "
                                                       << rows[e] << " at level '"
                                                       << m_levels[l].name << "' in kind of node "
                                                       << k << ", expected 0 to " << top - 1);
    }
    std::vector<std::int64_t> order_in_node(kind.ranks);
    for (std::int64_t j = 0; j < kind.ranks; ++j)
      order_in_node[j] = j;
    const int* t = rows.data();
    std::sort(order_in_node.begin(), order_in_node.end(), [&](std::int64_t a, std::int64_t b) {
      return std::lexicographical_compare(t + a * depth, t + (a + 1) * depth, t + b * depth,
                                          t + (b + 1) * depth);
    });
    kind.block_of_local.resize(kind.ranks);
    kind.local_of_block = order_in_node;
    for (std::int64_t p = 0; p < kind.ranks; ++p) {
      const std::int64_t j = order_in_node[p];
      HCART_REQUIRE(p == 0 || !std::equal(t + j * depth, t + (j + 1) * depth,
                                          t + order_in_node[p - 1] * depth),
                    "hcart::Machine: two ranks of kind of node " << k
                                                                 << " have the same unit indices");
      kind.block_of_local[j] = p;
      kind.units.insert(kind.units.end(), t + j * depth + 1, t + (j + 1) * depth);
    }
    m_kinds.push_back(std::move(kind));
  }
  m_node_first.assign(m_node_kind.size() + 1, 0);
  for (std::size_t u = 0; u < m_node_kind.size(); ++u) {
    const int k = m_node_kind[u];
    HCART_REQUIRE(k >= 0 && k < static_cast<int>(m_kinds.size()),
                  "hcart::Machine: " << m_levels[0].name << " " << u << " is of kind " << k
                                     << ", expected 0 to " << m_kinds.size() - 1);
    m_node_first[u + 1] = m_node_first[u] + m_kinds[k].ranks;
    HCART_REQUIRE(m_node_first[u + 1] <= max_factorize_n,
                  "hcart::Machine: more than " << max_factorize_n << " ranks in total");
  }
  m_ranks = m_node_first.back();
  // Even: every node holds every combination of the finer indices (they are distinct).
  std::int64_t most = 0, whole = 1;
  for (const Kind& kind : m_kinds)
    most = std::max(most, kind.ranks);
  for (std::size_t l = 1; l < depth && whole > 0; ++l)
    whole = m_levels[l].size > most / whole ? -1 : whole * m_levels[l].size;
  m_even = std::all_of(m_node_kind.begin(), m_node_kind.end(),
                       [&](int k) { return m_kinds[k].ranks == whole; });
  set_launch(order, world_node);
}

void Machine::set_launch(LaunchOrder order, const std::vector<int>& world_node) {
  const auto nodes = static_cast<std::int64_t>(m_node_kind.size());
  auto equal_nodes = [&] {
    for (std::int64_t u = 1; u < nodes; ++u)
      if (ranks_on_node(u) != ranks_on_node(0)) return false;
    return true;
  };
  m_order = order;
  m_world_block.clear();
  m_block_world.clear();
  if (order == LaunchOrder::RoundRobin) {
    HCART_REQUIRE(equal_nodes(), "hcart::Machine: a round-robin launch order on "
                                     << m_levels[0].name << "s holding different rank counts");
  }
  if (order != LaunchOrder::Table) return;
  HCART_REQUIRE(static_cast<std::int64_t>(world_node.size()) == m_ranks,
                "hcart::Machine: the launch table lists " << world_node.size()
                                                          << " ranks, expected " << m_ranks);
  std::vector<std::int64_t> filled(nodes, 0);
  bool runs = true, round_robin = equal_nodes();
  std::int64_t run_node = 0;
  for (std::int64_t r = 0; r < m_ranks; ++r) {
    const int u = world_node[r];
    HCART_REQUIRE(u >= 0 && u < nodes && filled[u] < ranks_on_node(u),
                  "hcart::Machine: the launch table puts world rank "
                      << r << " on " << m_levels[0].name << " " << u << ", which "
                      << (u >= 0 && u < nodes ? "is full" : "does not exist"));
    ++filled[u];
    while (r >= m_node_first[run_node + 1])
      ++run_node;
    runs = runs && u == run_node;
    round_robin = round_robin && u == r % nodes;
  }
  if (runs || round_robin) {
    m_order = runs ? LaunchOrder::NodeRuns : LaunchOrder::RoundRobin;
    return;
  }
  m_world_block.resize(m_ranks);
  m_block_world.resize(m_ranks);
  std::fill(filled.begin(), filled.end(), 0);
  for (std::int64_t r = 0; r < m_ranks; ++r) {
    const int u = world_node[r];
    const std::int64_t b = m_node_first[u] + m_kinds[m_node_kind[u]].block_of_local[filled[u]++];
    m_world_block[r] = b;
    m_block_world[b] = r;
  }
}

Machine Machine::with_node_ranks(const std::vector<std::int64_t>& node_ranks,
                                 const std::vector<MachineLevel>& inner, Placement placement,
                                 const std::string& node_level) {
  HCART_REQUIRE(!node_ranks.empty(), "hcart::Machine: no nodes, expected at least one");
  std::vector<MachineLevel> levels{{node_level, static_cast<std::int64_t>(node_ranks.size())}};
  levels.insert(levels.end(), inner.begin(), inner.end());
  check_names(levels);
  const std::int64_t whole = product_up_to(inner, uneven_max_ranks);
  // Without a finer level a node holds one rank: the fix is to name one.
  const auto finer_needed = [&] {
    std::string list;
    std::int64_t largest = 1;
    for (std::size_t u = 0; u < node_ranks.size(); ++u) {
      list += (u > 0 ? "," : "") + std::to_string(node_ranks[u]);
      largest = std::max(largest, node_ranks[u]);
    }
    return " (no finer level holds them: name one, e.g. '" + node_level + ":[" + list +
           "] core:" + std::to_string(largest) + "')";
  };
  std::int64_t total = 0;
  for (std::size_t u = 0; u < node_ranks.size(); ++u) {
    const std::int64_t n = node_ranks[u];
    HCART_REQUIRE(n >= 1 && n <= whole,
                  "hcart::Machine: "
                      << node_level << " " << u << " holds " << n << " ranks, expected 1 to "
                      << whole
                      << (inner.empty() ? finer_needed() : " (a whole " + node_level + ")"));
    total += n;
    HCART_REQUIRE(total <= uneven_max_ranks, "hcart::Machine: more than "
                                                 << uneven_max_ranks
                                                 << " ranks on an uneven machine");
  }
  // One kind per node size: its k-th rank's inner indices are k as a mixed-radix number.
  const std::size_t depth = levels.size();
  std::map<std::int64_t, int> kind_of;
  std::vector<std::vector<int>> kinds;
  std::vector<int> node_kind(node_ranks.size());
  for (std::size_t u = 0; u < node_ranks.size(); ++u) {
    const auto [it, fresh] = kind_of.emplace(node_ranks[u], static_cast<int>(kinds.size()));
    node_kind[u] = it->second;
    if (!fresh) continue;
    std::vector<int> rows(static_cast<std::size_t>(node_ranks[u]) * depth, 0);
    for (std::int64_t k = 0; k < node_ranks[u]; ++k) {
      std::int64_t rest = k;
      for (std::size_t l = depth; l-- > 1;) {
        rows[k * depth + l] = static_cast<int>(rest % levels[l].size);
        rest /= levels[l].size;
      }
    }
    kinds.push_back(std::move(rows));
  }
  // The finer levels' sizes: the most units that are used.
  for (std::size_t l = 1; l < depth; ++l) {
    int most = 0;
    for (const auto& rows : kinds)
      for (std::size_t e = l; e < rows.size(); e += depth)
        most = std::max(most, rows[e] + 1);
    levels[l].size = most;
  }
  const bool same = std::equal(node_ranks.begin() + 1, node_ranks.end(), node_ranks.begin());
  LaunchOrder order = placement == Placement::Block ? LaunchOrder::NodeRuns
                      : same                        ? LaunchOrder::RoundRobin
                                                    : LaunchOrder::Table;
  std::vector<int> world_node;
  if (order == LaunchOrder::Table) {
    // Round-robin over nodes of different sizes: deal to the nodes that still have room.
    std::vector<std::int64_t> filled(node_ranks.size(), 0);
    while (static_cast<std::int64_t>(world_node.size()) < total) {
      for (std::size_t u = 0; u < node_ranks.size(); ++u)
        if (filled[u] < node_ranks[u]) {
          ++filled[u];
          world_node.push_back(static_cast<int>(u));
        }
    }
  }
  Machine machine(std::move(levels), std::move(kinds), std::move(node_kind), order, world_node,
                  "synthetic");
  machine.m_placement = placement;
  return machine;
}

Machine Machine::flat(std::int64_t ranks) {
  return Machine({{"core", ranks}});
}

std::int64_t Machine::local_index(std::int64_t rank, std::int64_t* node) const {
  const auto nodes = static_cast<std::int64_t>(m_node_kind.size());
  if (m_order == LaunchOrder::RoundRobin) {
    *node = rank % nodes;
    return rank / nodes;
  }
  *node = node_of_block(rank); // node runs: world ranks run as block numbers do
  return rank - m_node_first[*node];
}

std::vector<std::int64_t> Machine::unit_indices(std::int64_t rank) const {
  HCART_REQUIRE(rank >= 0 && rank < m_ranks,
                "hcart::Machine::unit_indices: rank " << rank << ", expected 0 to " << m_ranks - 1);
  if (!m_kinds.empty()) return block_units(block_number(rank));
  const std::size_t depth = m_levels.size();
  std::vector<std::int64_t> units(depth);
  std::int64_t local = rank;
  std::size_t first_block_level = 0;
  if (m_placement == Placement::RoundRobin) {
    units[0] = rank % m_levels[0].size;
    local = rank / m_levels[0].size;
    first_block_level = 1;
  }
  // Block numbering: a mixed-radix number, coarse level most significant.
  for (std::size_t l = depth; l-- > first_block_level;) {
    units[l] = local % m_levels[l].size;
    local /= m_levels[l].size;
  }
  return units;
}

std::int64_t Machine::block_number(std::int64_t rank) const {
  HCART_REQUIRE(rank >= 0 && rank < m_ranks,
                "hcart::Machine::block_number: rank " << rank << ", expected 0 to " << m_ranks - 1);
  if (m_kinds.empty()) {
    const auto units = unit_indices(rank);
    std::int64_t block = 0;
    for (std::size_t l = 0; l < units.size(); ++l)
      block = block * m_levels[l].size + units[l];
    return block;
  }
  if (m_order == LaunchOrder::Table) return m_world_block[rank];
  std::int64_t node = 0;
  const std::int64_t j = local_index(rank, &node);
  return m_node_first[node] + m_kinds[m_node_kind[node]].block_of_local[j];
}

std::int64_t Machine::rank_of_block(std::int64_t block) const {
  HCART_REQUIRE(block >= 0 && block < m_ranks, "hcart::Machine::rank_of_block: block "
                                                   << block << ", expected 0 to " << m_ranks - 1);
  const std::int64_t nodes = m_levels[0].size;
  if (m_kinds.empty()) {
    if (m_placement == Placement::Block) return block;
    const std::int64_t per_node = m_ranks / nodes;
    return block % per_node * nodes + block / per_node;
  }
  if (m_order == LaunchOrder::Table) return m_block_world[block];
  const std::int64_t node = node_of_block(block);
  const std::int64_t j = m_kinds[m_node_kind[node]].local_of_block[block - m_node_first[node]];
  return m_order == LaunchOrder::RoundRobin ? j * nodes + node : m_node_first[node] + j;
}

std::int64_t Machine::node_of_block(std::int64_t block) const {
  HCART_REQUIRE(block >= 0 && block < m_ranks, "hcart::Machine::node_of_block: block "
                                                   << block << ", expected 0 to " << m_ranks - 1);
  if (m_node_first.empty()) return block / (m_ranks / m_levels[0].size);
  return std::upper_bound(m_node_first.begin(), m_node_first.end(), block) - m_node_first.begin() -
         1;
}

std::vector<std::int64_t> Machine::block_units(std::int64_t block) const {
  const std::int64_t node = node_of_block(block);
  const std::size_t depth = m_levels.size();
  std::vector<std::int64_t> units(depth);
  units[0] = node;
  if (m_kinds.empty()) {
    std::int64_t rest = block;
    for (std::size_t l = depth; l-- > 1;) {
      units[l] = rest % m_levels[l].size;
      rest /= m_levels[l].size;
    }
    return units;
  }
  const int* row =
      m_kinds[m_node_kind[node]].units.data() + (block - m_node_first[node]) * (depth - 1);
  for (std::size_t l = 1; l < depth; ++l)
    units[l] = row[l - 1];
  return units;
}

std::int64_t Machine::block_of_units(const std::vector<std::int64_t>& units) const {
  const std::size_t depth = m_levels.size();
  bool valid = units.size() == depth;
  for (std::size_t l = 0; l < units.size() && valid; ++l)
    valid = units[l] >= 0 && units[l] < m_levels[l].size;
  std::int64_t block = -1;
  if (valid && m_kinds.empty()) {
    block = 0;
    for (std::size_t l = 0; l < depth; ++l)
      block = block * m_levels[l].size + units[l];
  } else if (valid) {
    const Kind& kind = m_kinds[m_node_kind[units[0]]];
    std::int64_t lo = 0, hi = kind.ranks; // rows are sorted: binary search
    while (lo < hi) {
      const std::int64_t mid = (lo + hi) / 2;
      const int* row = kind.units.data() + mid * (depth - 1);
      if (std::lexicographical_compare(row, row + depth - 1, units.begin() + 1, units.end()))
        lo = mid + 1;
      else
        hi = mid;
    }
    const int* row = kind.units.data() + lo * (depth - 1);
    if (lo < kind.ranks && std::equal(units.begin() + 1, units.end(), row))
      block = m_node_first[units[0]] + lo;
  }
  if (block < 0) {
    std::string text;
    for (std::int64_t u : units)
      text += (text.empty() ? "" : ",") + std::to_string(u);
    throw InputError("hcart::Machine::block_of_units: no rank has unit indices {" + text +
                     "} on machine '" + to_string() + "'");
  }
  return block;
}

int Machine::node_kind(std::int64_t node) const {
  HCART_REQUIRE(node >= 0 && node < m_levels[0].size,
                "hcart::Machine::node_kind: " << m_levels[0].name << " " << node
                                              << ", expected 0 to " << m_levels[0].size - 1);
  return m_kinds.empty() ? 0 : m_node_kind[node];
}

const std::vector<int>& Machine::kind_units(int kind) const {
  static const std::vector<int> none;
  HCART_REQUIRE(kind >= 0 && kind < kind_count(), "hcart::Machine::kind_units: kind "
                                                      << kind << ", expected 0 to "
                                                      << kind_count() - 1);
  return m_kinds.empty() ? none : m_kinds[kind].units;
}

std::int64_t Machine::footprint_bytes() const noexcept {
  std::int64_t bytes = 0;
  for (const auto& level : m_levels)
    bytes += static_cast<std::int64_t>(sizeof(level) + level.name.capacity());
  for (const auto& kind : m_kinds) {
    bytes += static_cast<std::int64_t>(
        sizeof(kind) + kind.units.capacity() * sizeof(int) +
        (kind.block_of_local.capacity() + kind.local_of_block.capacity()) * sizeof(std::int64_t));
  }
  bytes += static_cast<std::int64_t>(
      m_node_kind.capacity() * sizeof(int) +
      (m_node_first.capacity() + m_world_block.capacity() + m_block_world.capacity()) *
          sizeof(std::int64_t));
  return bytes;
}

std::int64_t Machine::ranks_on_node(std::int64_t node) const {
  HCART_REQUIRE(node >= 0 && node < m_levels[0].size,
                "hcart::Machine::ranks_on_node: " << m_levels[0].name << " " << node
                                                  << ", expected 0 to " << m_levels[0].size - 1);
  if (!m_node_first.empty()) return m_node_first[node + 1] - m_node_first[node];
  return m_ranks / m_levels[0].size;
}

std::vector<std::int64_t> Machine::node_ranks() const {
  std::vector<std::int64_t> out(m_levels[0].size);
  for (std::int64_t u = 0; u < m_levels[0].size; ++u)
    out[u] = ranks_on_node(u);
  return out;
}

std::int64_t Machine::node_first_block(std::int64_t node) const {
  HCART_REQUIRE(node >= 0 && node < m_levels[0].size,
                "hcart::Machine::node_first_block: " << m_levels[0].name << " " << node
                                                     << ", expected 0 to " << m_levels[0].size - 1);
  if (!m_node_first.empty()) return m_node_first[node];
  return node * (m_ranks / m_levels[0].size);
}

int separating_level(const std::vector<std::int64_t>& units_a,
                     const std::vector<std::int64_t>& units_b) {
  const std::size_t depth = std::min(units_a.size(), units_b.size());
  for (std::size_t l = 0; l < depth; ++l) {
    if (units_a[l] != units_b[l]) return static_cast<int>(l);
  }
  return static_cast<int>(depth);
}

} // namespace hcart
