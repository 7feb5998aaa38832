// The text of a machine (docs/design.md, 'The hardware hierarchy'): Machine::parse's grammar
// ("switch:2 node:[16x3,8] socket:2 core:8": levels coarse to fine, counts or lists of
// ranks per unit), Machine::to_string, and the names of placements and launch orders.
#include "mapping/MachineNetwork.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Machine.hpp>

#include <algorithm>
#include <cctype>

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

std::string to_string(LaunchOrder order) {
  switch (order) {
  case LaunchOrder::NodeRuns: return "node runs";
  case LaunchOrder::RoundRobin: return "round-robin";
  case LaunchOrder::Table: return "table";
  }
  return "?";
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
  std::vector<std::vector<std::int64_t>> lists; // a level's list of its units' contents
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
      lists.push_back(parse_unit_ranks(text, count, name));
      levels.push_back({name, static_cast<std::int64_t>(lists.back().size())});
    } else {
      lists.emplace_back();
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
  // (a misspelt or misordered level would silently put cores outside their nodes). The
  // network's levels come before the node.
  const char* const known[] = {"group", "switch", "node", "socket", "numa", "l3", "core", "rank"};
  constexpr int node_depth = 2;
  const auto depth_of = [&](const std::string& name) {
    for (int i = 0; i < 8; ++i) {
      if (name == known[i]) return i;
    }
    // "group2", "group3": coarser groups (hcart::network_levels names deep trees so)
    if (name.size() > 5 && name.compare(0, 5, "group") == 0 &&
        name.find_first_not_of("0123456789", 5) == std::string::npos)
      return 0;
    return -1;
  };
  int previous = -1, network = 0;
  for (const auto& level : levels) {
    const int depth = depth_of(level.name);
    HCART_REQUIRE(depth >= 0, "machine '" << text << "': unknown level '" << level.name
                                          << "', expected group, switch, node, socket, numa, l3, "
                                             "core or rank");
    HCART_REQUIRE(depth >= previous, "machine '" << text << "': level '" << level.name
                                                 << "' after '" << known[previous]
                                                 << "'; levels go from coarse to fine: group, "
                                                    "switch, node, socket, numa, l3, core, rank");
    previous = depth;
    network += depth < node_depth ? 1 : 0;
  }
  // Lists: the node level's (its nodes' ranks) and the network's (their units' units); without
  // a network, the first level's as before ("socket:[4,2] core:2" is a machine of two nodes).
  for (std::size_t l = 0; l < levels.size(); ++l) {
    HCART_REQUIRE(lists[l].empty() || static_cast<int>(l) <= network,
                  "machine '" << text << "': level '" << levels[l].name
                              << "' lists its units; only "
                              << (network > 0 ? "the network's levels and the node"
                                              : "the first (coarsest) level")
                              << " may, e.g. \"node:[4,4,2] core:4\"");
  }
  HCART_REQUIRE(network == 0 ||
                    (static_cast<int>(levels.size()) > network && levels[network].name == "node"),
                "machine '" << text << "': levels above the node ('" << levels[0].name
                            << "') need a node level after them, e.g. \"switch:2 node:4 "
                               "core:8\"");
  try {
    if (network > 0) return impl::network_machine(text, levels, lists, network, placement);
    if (!lists[0].empty()) {
      const std::vector<MachineLevel> inner(levels.begin() + 1, levels.end());
      return with_node_ranks(lists[0], inner, placement, levels[0].name);
    }
    return Machine(std::move(levels), placement);
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.rfind("machine '", 0) == 0) throw;
    throw InputError("machine '" + text + "': " + what);
  }
}

std::string Machine::to_string() const {
  if (!m_description.empty()) return m_description;
  std::string s;
  for (std::size_t l = 0; l < m_levels.size(); ++l) {
    s += (s.empty() ? "" : " ") + m_levels[l].name + ":";
    const std::vector<std::int64_t> ranks =
        l == 0 && !m_node_first.empty() ? node_ranks() : std::vector<std::int64_t>{};
    if (ranks.empty() || std::equal(ranks.begin() + 1, ranks.end(), ranks.begin())) {
      s += std::to_string(m_levels[l].size);
      continue;
    }
    s += impl::list_text(ranks); // runs of equal node sizes: "[4x2,2]"
  }
  return s;
}

} // namespace hcart
