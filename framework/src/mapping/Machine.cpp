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
std::int64_t checked_product(const std::vector<MachineLevel>& levels) {
  HCART_REQUIRE(!levels.empty(), "hcart::Machine: no levels, expected at least one");
  std::set<std::string> names;
  std::int64_t product = 1;
  for (const auto& level : levels) {
    HCART_REQUIRE(!level.name.empty(), "hcart::Machine: a level without a name");
    HCART_REQUIRE(names.insert(level.name).second,
                  "hcart::Machine: level name '" << level.name << "' appears twice");
    HCART_REQUIRE(level.size >= 1, "hcart::Machine: level '" << level.name << "' has size "
                                                             << level.size << ", expected >= 1");
    HCART_REQUIRE(level.size <= max_factorize_n / product,
                  "hcart::Machine: more than " << max_factorize_n << " ranks in total");
    product *= level.size;
  }
  return product;
}
} // namespace

Machine::Machine(std::vector<MachineLevel> levels, Placement placement)
    : m_levels(std::move(levels)), m_placement(placement) {
  m_ranks = checked_product(m_levels);
}

Machine::Machine(std::vector<MachineLevel> levels, std::vector<int> unit_table, std::string source)
    : m_levels(std::move(levels)), m_table(std::move(unit_table)), m_source(std::move(source)) {
  m_ranks = checked_product(m_levels);
  const auto depth = static_cast<std::int64_t>(m_levels.size());
  HCART_REQUIRE(static_cast<std::int64_t>(m_table.size()) == m_ranks * depth,
                "hcart::Machine: unit table of " << m_table.size() << " entries, expected "
                                                 << m_ranks * depth);
  for (std::size_t k = 0; k < m_table.size(); ++k) {
    const auto& level = m_levels[k % m_levels.size()];
    HCART_REQUIRE(m_table[k] >= 0 && m_table[k] < level.size,
                  "hcart::Machine: unit index " << m_table[k] << " at level '" << level.name
                                                << "', expected 0 to " << level.size - 1);
  }
}

Machine Machine::parse(const std::string& text, Placement placement) {
  std::vector<MachineLevel> levels;
  std::string token;
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
    HCART_REQUIRE(
        !count.empty() &&
            std::all_of(count.begin(), count.end(),
                        [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }),
        "machine '" << text << "': count '" << count << "' of level '" << name
                    << "' is not a positive integer");
    const std::size_t digits = count.find_first_not_of('0');
    HCART_REQUIRE(digits == std::string::npos ||
                      (count.size() - digits <= 10 && std::stoll(count) <= 2147483647LL),
                  "machine '" << text << "': count " << count << " of level '" << name
                              << "' is too large (at most 2147483647 units per level)");
    levels.push_back({name, std::stoll(count)});
    token.clear();
  };
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',')
      flush();
    else
      token += c;
  }
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

std::string Machine::to_string() const {
  std::string s;
  for (const auto& level : m_levels) {
    s += (s.empty() ? "" : " ") + level.name + ":" + std::to_string(level.size);
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
