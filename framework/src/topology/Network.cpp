#include <hcart/core/Error.hpp>
#include <hcart/topology/Network.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

namespace hcart {

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator))
    parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

} // namespace

std::optional<std::vector<std::string>> slurm_switch_path(const char* address, const char* pattern,
                                                          std::string* why) {
  if (address == nullptr || *address == '\0' || pattern == nullptr || *pattern == '\0') {
    *why = "SLURM_TOPOLOGY_ADDR or SLURM_TOPOLOGY_ADDR_PATTERN is not set (no tree topology)";
    return std::nullopt;
  }
  const auto parts = split(address, '.'), kinds = split(pattern, '.');
  if (parts.size() != kinds.size() || kinds.empty() || kinds.back() != "node") {
    *why = std::string("SLURM_TOPOLOGY_ADDR '") + address + "' does not fit its pattern '" +
           pattern + "' (expected switch.switch...node)";
    return std::nullopt;
  }
  std::vector<std::string> path;
  for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
    if (kinds[k] != "switch" || parts[k].empty()) {
      *why = std::string("SLURM_TOPOLOGY_ADDR_PATTERN '") + pattern + "' has '" + kinds[k] +
             "' where a switch was expected";
      return std::nullopt;
    }
    path.push_back(parts[k]);
  }
  return path;
}

std::vector<std::string> expand_hostlist(const std::string& text) {
  std::vector<std::string> hosts;
  std::string item;
  int depth = 0;
  auto flush = [&] {
    HCART_REQUIRE(!item.empty(), "hostlist '" << text << "': an empty entry");
    const auto open = item.find('[');
    if (open == std::string::npos) {
      hosts.push_back(item);
      item.clear();
      return;
    }
    const auto close = item.find(']', open);
    HCART_REQUIRE(close != std::string::npos && item.find('[', open + 1) == std::string::npos,
                  "hostlist '" << text << "': '" << item
                               << "' is not of the form prefix[ranges]suffix");
    const std::string prefix = item.substr(0, open), suffix = item.substr(close + 1);
    for (const std::string& range : split(item.substr(open + 1, close - open - 1), ',')) {
      const auto dash = range.find('-');
      const std::string lo = range.substr(0, dash);
      const std::string hi = dash == std::string::npos ? lo : range.substr(dash + 1);
      HCART_REQUIRE(all_digits(lo) && all_digits(hi) && lo.size() <= 9 && hi.size() <= 9 &&
                        std::stol(lo) <= std::stol(hi),
                    "hostlist '" << text << "': range '" << range
                                 << "', expected N or N-M with N <= M");
      HCART_REQUIRE(std::stol(hi) - std::stol(lo) < 1000000,
                    "hostlist '" << text << "': range '" << range << "' is too long");
      for (long v = std::stol(lo); v <= std::stol(hi); ++v) {
        std::string digits = std::to_string(v);
        if (digits.size() < lo.size()) digits.insert(0, lo.size() - digits.size(), '0');
        hosts.push_back(prefix + digits + suffix);
      }
    }
    item.clear();
  };
  for (char c : text) {
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (c == ',' && depth == 0)
      flush();
    else
      item += c;
  }
  HCART_REQUIRE(depth == 0, "hostlist '" << text << "': '[' without its ']'");
  flush();
  return hosts;
}

std::vector<std::string> TopologyFile::switch_path(const std::string& host) const {
  std::vector<std::string> path;
  const auto leaf = node_switch.find(host);
  if (leaf == node_switch.end()) return path;
  for (std::string s = leaf->second;;) {
    path.push_back(s);
    const auto up = parent.find(s);
    if (up == parent.end()) break;
    s = up->second;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

TopologyFile read_topology_file(const std::string& path) {
  std::ifstream in(path);
  HCART_REQUIRE(in.good(), "topology file '" << path << "': cannot be read");
  TopologyFile topo;
  topo.path = path;
  std::set<std::string> switches;
  std::vector<std::pair<std::string, int>> child_switches; // name, line
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string word, name, nodes, children;
    bool any = false;
    while (words >> word) {
      any = true;
      const auto eq = word.find('=');
      std::string key = word.substr(0, eq);
      std::transform(key.begin(), key.end(), key.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      const std::string value = eq == std::string::npos ? "" : word.substr(eq + 1);
      if (key == "switchname") name = value;
      if (key == "nodes") nodes = value;
      if (key == "switches") children = value;
    }
    if (!any) continue;
    HCART_REQUIRE(!name.empty(), "topology file '" << path << "' line " << number
                                                   << ": no SwitchName=NAME, expected e.g. "
                                                      "'SwitchName=s0 Nodes=tux[0-3]'");
    HCART_REQUIRE(switches.insert(name).second, "topology file '" << path << "' line " << number
                                                                  << ": switch '" << name
                                                                  << "' is listed twice");
    const auto hosts_of = [&](const std::string& list) {
      try {
        return expand_hostlist(list);
      } catch (const InputError& e) {
        throw InputError("topology file '" + path + "' line " + std::to_string(number) + ": " +
                         e.what());
      }
    };
    // The nodes (`what` "node") or switches listed under this switch, each under one only.
    const auto put_under = [&](const std::string& list, std::map<std::string, std::string>& above,
                               const char* what) {
      std::vector<std::string> hosts;
      if (!list.empty()) hosts = hosts_of(list);
      for (const std::string& host : hosts) {
        HCART_REQUIRE(above.emplace(host, name).second,
                      "topology file '" << path << "' line " << number << ": " << what << " '"
                                        << host << "' is under two switches ('" << above[host]
                                        << "' and '" << name << "')");
      }
      return hosts;
    };
    put_under(nodes, topo.node_switch, "node");
    for (const std::string& child : put_under(children, topo.parent, "switch"))
      child_switches.emplace_back(child, number);
  }
  for (const auto& [child, number] : child_switches)
    HCART_REQUIRE(switches.count(child) == 1,
                  "topology file '" << path << "' line " << number << ": Switches= names '" << child
                                    << "', which has no SwitchName line");
  for (const std::string& s : switches) { // no switch above itself
    std::string at = s;
    for (std::size_t steps = 0; topo.parent.count(at) == 1; ++steps) {
      at = topo.parent.at(at);
      HCART_REQUIRE(at != s && steps <= switches.size(),
                    "topology file '" << path << "': switch '" << s << "' holds itself");
    }
  }
  return topo;
}

NetworkLevels network_levels(const std::vector<std::vector<std::string>>& node_paths,
                             std::string* note) {
  NetworkLevels out;
  if (node_paths.empty()) return out;
  const std::size_t depth = node_paths[0].size();
  for (std::size_t u = 0; u < node_paths.size(); ++u) {
    if (node_paths[u].empty()) {
      *note = "node " + std::to_string(u) + " has no switch: no network level";
      return out;
    }
    if (node_paths[u].size() != depth) {
      *note = "nodes 0 and " + std::to_string(u) + " sit " + std::to_string(depth) + " and " +
              std::to_string(node_paths[u].size()) +
              " switches deep (a tree of uneven depth): no network level";
      return out;
    }
  }
  // Ids per level; a switch under two parents is not a tree.
  std::vector<std::map<std::string, std::int64_t>> id(depth);
  std::vector<std::map<std::string, std::string>> parent(depth);
  for (const auto& path : node_paths)
    for (std::size_t k = 0; k < depth; ++k) {
      id[k].emplace(path[k], static_cast<std::int64_t>(id[k].size()));
      const std::string up = k == 0 ? "" : path[k - 1];
      const auto [it, fresh] = parent[k].emplace(path[k], up);
      if (!fresh && it->second != up) {
        *note = "switch '" + path[k] + "' sits under '" + it->second + "' and '" + up +
                "': no network level";
        return out;
      }
    }
  std::vector<std::size_t> kept;
  for (std::size_t k = 0; k < depth; ++k)
    if (id[k].size() > 1) kept.push_back(k);
  if (kept.empty()) {
    *note = "every node is under the same switch: no network level";
    return out;
  }
  for (std::size_t j = 0; j < kept.size(); ++j) {
    const std::size_t above = kept.size() - 1 - j; // levels above the leaf switch
    out.names.push_back(above == 0   ? "switch"
                        : above == 1 ? "group"
                                     : "group" + std::to_string(above));
  }
  for (const auto& path : node_paths) {
    std::vector<std::int64_t> units;
    for (std::size_t k : kept)
      units.push_back(id[k].at(path[k]));
    out.node_units.push_back(std::move(units));
  }
  return out;
}

} // namespace hcart
