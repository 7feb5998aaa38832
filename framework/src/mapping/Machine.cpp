#include <hcart/core/Error.hpp>
#include <hcart/mapping/Factorize.hpp>
#include <hcart/mapping/Machine.hpp>

#include <algorithm>
#include <cctype>
#include <set>

namespace hcart {

std::string to_string(Placement placement) {
  return placement == Placement::Block ? "block" : "round-robin";
}

Placement parse_placement(const std::string& text) {
  if (text == "block") return Placement::Block;
  if (text == "round-robin" || text == "roundrobin" || text == "round_robin") {
    return Placement::RoundRobin;
  }
  throw InputError("placement '" + text + "': expected 'block' or 'round-robin'");
}

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
    : m_levels(std::move(levels)), m_placement(placement) {
  check_names(m_levels);
  m_ranks = product_up_to(m_levels, max_factorize_n);
  HCART_REQUIRE(m_ranks <= max_factorize_n,
                "hcart::Machine: more than " << max_factorize_n << " ranks in total");
}

Machine::Machine(std::vector<MachineLevel> levels, std::vector<int> unit_table, std::string source)
    : m_levels(std::move(levels)), m_table(std::move(unit_table)), m_source(std::move(source)) {
  check_names(m_levels);
  const auto depth = m_levels.size();
  HCART_REQUIRE(!m_table.empty() && m_table.size() % depth == 0,
                "hcart::Machine: unit table of "
                    << m_table.size() << " entries, expected a positive multiple of the " << depth
                    << " levels");
  HCART_REQUIRE(m_table.size() / depth <= static_cast<std::size_t>(max_factorize_n),
                "hcart::Machine: more than " << max_factorize_n << " ranks in total");
  m_ranks = static_cast<std::int64_t>(m_table.size() / depth);
  for (std::size_t k = 0; k < m_table.size(); ++k) {
    const auto& level = m_levels[k % depth];
    HCART_REQUIRE(m_table[k] >= 0 && m_table[k] < level.size,
                  "hcart::Machine: unit index " << m_table[k] << " at level '" << level.name
                                                << "', expected 0 to " << level.size - 1);
  }
  std::vector<std::int64_t> per_node(m_levels[0].size, 0);
  for (std::int64_t r = 0; r < m_ranks; ++r)
    ++per_node[m_table[r * depth]];
  for (std::size_t u = 0; u < per_node.size(); ++u) {
    HCART_REQUIRE(per_node[u] > 0, "hcart::Machine: no rank on " << m_levels[0].name << " " << u
                                                                 << " of " << m_levels[0].size);
  }
  // The ranks in block order: by their indices, coarse level first.
  std::vector<std::int64_t> order(m_ranks);
  for (std::int64_t r = 0; r < m_ranks; ++r)
    order[r] = r;
  const int* table = m_table.data();
  std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return std::lexicographical_compare(table + a * depth, table + (a + 1) * depth,
                                        table + b * depth, table + (b + 1) * depth);
  });
  for (std::size_t k = 1; k < order.size(); ++k) {
    HCART_REQUIRE(!std::equal(table + order[k] * depth, table + (order[k] + 1) * depth,
                              table + order[k - 1] * depth),
                  "hcart::Machine: ranks " << std::min(order[k], order[k - 1]) << " and "
                                           << std::max(order[k], order[k - 1])
                                           << " have the same unit indices");
  }
  // Distinct indices below the sizes: the product is reached only when every combination
  // is some rank's.
  if (product_up_to(m_levels, m_ranks) == m_ranks) return;
  m_block.resize(m_ranks);
  for (std::int64_t k = 0; k < m_ranks; ++k)
    m_block[order[k]] = k;
  m_node_first.assign(per_node.size() + 1, 0);
  for (std::size_t u = 0; u < per_node.size(); ++u)
    m_node_first[u + 1] = m_node_first[u] + per_node[u];
}

Machine Machine::with_node_ranks(const std::vector<std::int64_t>& node_ranks,
                                 const std::vector<MachineLevel>& inner, Placement placement,
                                 const std::string& node_level) {
  HCART_REQUIRE(!node_ranks.empty(), "hcart::Machine: no nodes, expected at least one");
  std::vector<MachineLevel> levels{{node_level, static_cast<std::int64_t>(node_ranks.size())}};
  levels.insert(levels.end(), inner.begin(), inner.end());
  check_names(levels);
  const std::int64_t whole = product_up_to(inner, uneven_max_ranks);
  std::int64_t total = 0;
  for (std::size_t u = 0; u < node_ranks.size(); ++u) {
    const std::int64_t n = node_ranks[u];
    HCART_REQUIRE(n >= 1 && n <= whole,
                  "hcart::Machine: " << node_level << " " << u << " holds " << n
                                     << " ranks, expected 1 to " << whole
                                     << (inner.empty() ? std::string(" (no finer level)")
                                                       : " (a whole " + node_level + ")"));
    total += n;
    HCART_REQUIRE(total <= uneven_max_ranks, "hcart::Machine: more than "
                                                 << uneven_max_ranks
                                                 << " ranks on an uneven machine");
  }
  const std::size_t depth = levels.size();
  std::vector<int> table(static_cast<std::size_t>(total) * depth);
  // The k-th rank of node u: its inner indices are k as a mixed-radix number.
  std::vector<std::int64_t> filled(node_ranks.size(), 0);
  auto place = [&](std::int64_t rank, std::size_t u) {
    int* row = table.data() + rank * depth;
    row[0] = static_cast<int>(u);
    std::int64_t k = filled[u]++;
    for (std::size_t l = depth; l-- > 1;) {
      row[l] = static_cast<int>(k % levels[l].size);
      k /= levels[l].size;
    }
  };
  std::int64_t rank = 0;
  if (placement == Placement::Block) {
    for (std::size_t u = 0; u < node_ranks.size(); ++u)
      for (std::int64_t k = 0; k < node_ranks[u]; ++k)
        place(rank++, u);
  } else {
    while (rank < total) {
      for (std::size_t u = 0; u < node_ranks.size(); ++u)
        if (filled[u] < node_ranks[u]) place(rank++, u);
    }
  }
  // The finer levels' sizes: the most units that are used.
  for (std::size_t l = 1; l < depth; ++l) {
    int most = 0;
    for (std::int64_t r = 0; r < total; ++r)
      most = std::max(most, table[r * depth + l] + 1);
    levels[l].size = most;
  }
  Machine machine(std::move(levels), std::move(table), "synthetic");
  machine.m_placement = placement;
  return machine;
}

namespace {
// A count of a machine description: digits, at most 2147483647.
std::int64_t parse_count(const std::string& text, const std::string& count,
                         const std::string& name) {
  HCART_REQUIRE(!count.empty() &&
                    std::all_of(count.begin(), count.end(),
                                [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }),
                "machine '" << text << "': count '" << count << "' of level '" << name
                            << "' is not a positive integer");
  const std::size_t digits = count.find_first_not_of('0');
  HCART_REQUIRE(digits == std::string::npos ||
                    (count.size() - digits <= 10 && std::stoll(count) <= 2147483647LL),
                "machine '" << text << "': count " << count << " of level '" << name
                            << "' is too large (at most 2147483647 units per level)");
  return std::stoll(count);
}

// "[4,4,2]" or "[16x3,8]": the ranks of every unit.
std::vector<std::int64_t> parse_unit_ranks(const std::string& text, const std::string& list,
                                           const std::string& name) {
  HCART_REQUIRE(list.size() > 2 && list.back() == ']',
                "machine '" << text << "': '" << name << ":" << list
                            << "' is not a list of ranks per unit such as [4,4,2] or [8x3,4]");
  std::vector<std::int64_t> ranks;
  std::string item;
  auto flush = [&]() {
    HCART_REQUIRE(!item.empty(), "machine '" << text << "': an empty entry in '" << list << "'");
    const auto x = item.find('x');
    const std::int64_t each = parse_count(text, item.substr(0, x), name);
    const std::int64_t times =
        x == std::string::npos ? 1 : parse_count(text, item.substr(x + 1), name);
    HCART_REQUIRE(each >= 1 && times >= 1,
                  "machine '" << text << "': '" << item << "' in '" << list
                              << "', expected ranks >= 1 (and a repeat count >= 1 after 'x')");
    HCART_REQUIRE(static_cast<std::int64_t>(ranks.size()) + times <= uneven_max_ranks,
                  "machine '" << text << "': more than " << uneven_max_ranks << " units in '"
                              << list << "'");
    ranks.insert(ranks.end(), static_cast<std::size_t>(times), each);
    item.clear();
  };
  for (std::size_t k = 1; k + 1 < list.size(); ++k) {
    if (list[k] == ',')
      flush();
    else
      item += list[k];
  }
  flush();
  return ranks;
}
} // namespace

Machine Machine::parse(const std::string& text, Placement placement) {
  std::vector<MachineLevel> levels;
  std::vector<std::int64_t> unit_ranks; // the first level's list, when it has one
  std::string token;
  int bracket = 0;
  auto flush = [&]() {
    if (token.empty()) return;
    const auto colon = token.find(':');
    HCART_REQUIRE(colon != std::string::npos && colon > 0 && colon + 1 < token.size(),
                  "machine '" << text << "': '" << token << "' is not of the form name:count");
    const std::string name = token.substr(0, colon);
    const std::string count = token.substr(colon + 1);
    for (char c : name) {
      HCART_REQUIRE(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-',
                    "machine '" << text << "': level name '" << name
                                << "' may hold letters, digits, '_' and '-' only");
    }
    if (count.front() == '[') {
      HCART_REQUIRE(levels.empty(), "machine '"
                                        << text << "': level '" << name
                                        << "' lists its units' ranks; only the first (coarsest) "
                                           "level may, e.g. \"node:[4,4,2] core:4\"");
      unit_ranks = parse_unit_ranks(text, count, name);
      levels.push_back({name, static_cast<std::int64_t>(unit_ranks.size())});
    } else {
      levels.push_back({name, parse_count(text, count, name)});
    }
    token.clear();
  };
  for (char c : text) {
    bracket += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (bracket == 0 && (std::isspace(static_cast<unsigned char>(c)) || c == ','))
      flush();
    else
      token += c;
  }
  HCART_REQUIRE(bracket == 0, "machine '" << text << "': '[' without its ']'");
  flush();
  HCART_REQUIRE(!levels.empty(),
                "machine '" << text << "': no levels, expected e.g. \"node:4 socket:2 core:6\"");
  // The levels hcart knows, coarse to fine: a machine names a subset of them in this order
  // (a misspelt or misordered level would silently put cores outside their nodes).
  const char* const known[] = {"node", "socket", "numa", "l3", "core", "rank"};
  const auto depth_of = [&](const std::string& name) {
    for (int i = 0; i < 6; ++i) {
      if (name == known[i]) return i;
    }
    return -1;
  };
  int previous = -1;
  for (const auto& level : levels) {
    const int depth = depth_of(level.name);
    HCART_REQUIRE(depth >= 0, "machine '" << text << "': unknown level '" << level.name
                                          << "', expected node, socket, numa, l3, core or rank");
    HCART_REQUIRE(depth >= previous, "machine '" << text << "': level '" << level.name
                                                 << "' after '" << known[previous]
                                                 << "'; levels go from coarse to fine: node, "
                                                    "socket, numa, l3, core, rank");
    previous = depth;
  }
  try {
    if (!unit_ranks.empty()) {
      const std::vector<MachineLevel> inner(levels.begin() + 1, levels.end());
      return with_node_ranks(unit_ranks, inner, placement, levels[0].name);
    }
    return Machine(std::move(levels), placement);
  } catch (const InputError& e) {
    throw InputError("machine '" + text + "': " + e.what());
  }
}

Machine Machine::flat(std::int64_t ranks) {
  return Machine({{"core", ranks}});
}

std::vector<std::int64_t> Machine::unit_indices(std::int64_t rank) const {
  HCART_REQUIRE(rank >= 0 && rank < m_ranks,
                "hcart::Machine::unit_indices: rank " << rank << ", expected 0 to " << m_ranks - 1);
  const std::size_t depth = m_levels.size();
  std::vector<std::int64_t> units(depth);
  if (!m_table.empty()) {
    for (std::size_t l = 0; l < depth; ++l)
      units[l] = m_table[rank * depth + l];
    return units;
  }
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
  if (!m_block.empty()) {
    HCART_REQUIRE(rank >= 0 && rank < m_ranks, "hcart::Machine::block_number: rank "
                                                   << rank << ", expected 0 to " << m_ranks - 1);
    return m_block[rank];
  }
  const auto units = unit_indices(rank);
  std::int64_t block = 0;
  for (std::size_t l = 0; l < units.size(); ++l)
    block = block * m_levels[l].size + units[l];
  return block;
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

std::string Machine::to_string() const {
  std::string s;
  for (std::size_t l = 0; l < m_levels.size(); ++l) {
    s += (s.empty() ? "" : " ") + m_levels[l].name + ":";
    const std::vector<std::int64_t> ranks =
        l == 0 && !m_node_first.empty() ? node_ranks() : std::vector<std::int64_t>{};
    if (ranks.empty() || std::equal(ranks.begin() + 1, ranks.end(), ranks.begin())) {
      s += std::to_string(m_levels[l].size);
      continue;
    }
    // Runs of equal node sizes: "[4x2,2]".
    s += "[";
    for (std::size_t u = 0; u < ranks.size();) {
      std::size_t v = u;
      while (v < ranks.size() && ranks[v] == ranks[u])
        ++v;
      s += (u ? "," : "") + std::to_string(ranks[u]) +
           (v - u > 1 ? "x" + std::to_string(v - u) : std::string());
      u = v;
    }
    s += "]";
  }
  return s;
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
