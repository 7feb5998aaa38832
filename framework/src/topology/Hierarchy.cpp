#include <hcart/core/Error.hpp>
#include <hcart/topology/Hierarchy.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace hcart {

namespace {

// Groups ranks by (parent unit, key); checks that the candidate level nests.
struct Candidate {
  bool usable = false;
  std::string why;
  std::int64_t units_per_parent = 0; // the most any parent holds
  std::string uneven;                // what differs between units, when something does
  std::vector<int> unit;             // per rank: index inside its parent unit
  std::vector<int> new_group;        // per rank: id of its unit of this level
};

std::string range(std::int64_t lo, std::int64_t hi) {
  return lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
}

Candidate try_level(const std::vector<int>& parent, const std::vector<std::int64_t>& key,
                    const std::string& name) {
  const std::size_t P = parent.size();
  Candidate c;
  // Objects per parent, and the parent of each object (nesting).
  std::map<int, std::set<std::int64_t>> objects_of_parent;
  std::map<std::int64_t, int> parent_of_object;
  std::map<std::pair<int, std::int64_t>, int> ranks_in_object;
  for (std::size_t r = 0; r < P; ++r) {
    objects_of_parent[parent[r]].insert(key[r]);
    const auto [it, fresh] = parent_of_object.emplace(key[r], parent[r]);
    if (!fresh && it->second != parent[r]) {
      c.why = name + ": one " + name + " spans two units of the level above";
      return c;
    }
    ++ranks_in_object[{parent[r], key[r]}];
  }
  std::set<std::size_t> counts;
  for (const auto& [p, objects] : objects_of_parent)
    counts.insert(objects.size());
  std::set<int> sizes;
  for (const auto& [k, n] : ranks_in_object)
    sizes.insert(n);
  if (counts.size() > 1 || sizes.size() > 1) {
    c.uneven = name + ": the units above hold " + range(*counts.begin(), *counts.rbegin()) +
               " of them, with " + range(*sizes.begin(), *sizes.rbegin()) +
               " ranks each: an uneven level";
  }
  c.usable = true;
  c.units_per_parent = static_cast<std::int64_t>(*counts.rbegin());
  c.unit.resize(P);
  c.new_group.resize(P);
  std::map<std::pair<int, std::int64_t>, int> group_id;
  for (std::size_t r = 0; r < P; ++r) {
    const auto& objects = objects_of_parent[parent[r]];
    c.unit[r] = static_cast<int>(std::distance(objects.begin(), objects.find(key[r])));
    c.new_group[r] =
        group_id.emplace(std::make_pair(parent[r], key[r]), static_cast<int>(group_id.size()))
            .first->second;
  }
  return c;
}

} // namespace

NodeFactsSummary summarize_facts(const std::vector<RankFacts>& facts) {
  HCART_REQUIRE(!facts.empty(), "hcart::build_hierarchy: no ranks");
  int nodes = 0;
  for (const auto& f : facts) {
    HCART_REQUIRE(f.node >= 0, "hcart::build_hierarchy: node index " << f.node);
    nodes = std::max(nodes, f.node + 1);
  }
  std::vector<std::vector<RankFacts>> on_node(nodes);
  NodeFactsSummary summary;
  summary.order = LaunchOrder::Table;
  for (const auto& f : facts) {
    RankFacts local = f;
    local.node = 0;
    on_node[f.node].push_back(local);
    summary.world_node.push_back(f.node);
  }
  // A kind's key: its ranks' facts in order.
  std::map<std::vector<int>, int> kind_of;
  for (int u = 0; u < nodes; ++u) {
    HCART_REQUIRE(!on_node[u].empty(),
                  "hcart::build_hierarchy: node indices are not 0 to " << nodes - 1);
    std::vector<int> key(on_node[u].size() * fact_ints);
    for (std::size_t r = 0; r < on_node[u].size(); ++r)
      facts_to_ints(on_node[u][r], key.data() + r * fact_ints);
    const auto [it, fresh] = kind_of.emplace(key, static_cast<int>(summary.kinds.size()));
    if (fresh) summary.kinds.push_back(on_node[u]);
    summary.node_kind.push_back(it->second);
  }
  return summary;
}

DetectedHierarchy build_hierarchy(const std::vector<RankFacts>& facts) {
  return build_hierarchy(summarize_facts(facts));
}

DetectedHierarchy build_hierarchy(const NodeFactsSummary& summary) {
  HCART_REQUIRE(!summary.kinds.empty(), "hcart::build_hierarchy: no kinds of node");
  const auto kinds = static_cast<int>(summary.kinds.size());
  std::vector<std::int64_t> per_kind(kinds);
  for (int k = 0; k < kinds; ++k) {
    per_kind[k] = static_cast<std::int64_t>(summary.kinds[k].size());
    HCART_REQUIRE(per_kind[k] > 0, "hcart::build_hierarchy: kind of node " << k << " has no rank");
  }
  std::int64_t fewest = 0, most = 0;
  for (std::size_t u = 0; u < summary.node_kind.size(); ++u) {
    const int k = summary.node_kind[u];
    HCART_REQUIRE(k >= 0 && k < kinds, "hcart::build_hierarchy: node " << u << " is of kind " << k
                                                                       << ", expected 0 to "
                                                                       << kinds - 1);
    fewest = u == 0 ? per_kind[k] : std::min(fewest, per_kind[k]);
    most = std::max(most, per_kind[k]);
  }
  HCART_REQUIRE(!summary.node_kind.empty(), "hcart::build_hierarchy: no nodes");
  // One node of each kind stands for all of its kind: node index k.
  std::vector<RankFacts> facts;
  for (int k = 0; k < kinds; ++k)
    for (RankFacts f : summary.kinds[k]) {
      f.node = k;
      facts.push_back(f);
    }
  const std::size_t P = facts.size();

  DetectedHierarchy result;
  std::vector<MachineLevel> levels;
  std::vector<std::vector<int>> units(P);
  if (fewest != most) {
    result.notes.push_back("nodes hold " + range(fewest, most) + " ranks: an uneven level");
  }
  levels.push_back({"node", static_cast<std::int64_t>(summary.node_kind.size())});
  std::vector<int> parent(P);
  for (std::size_t r = 0; r < P; ++r) {
    units[r].push_back(0); // the node: the kind's rows are those of any node of it
    parent[r] = facts[r].node;
  }
  for (int level = 0; level < hardware_level_count; ++level) {
    const std::string name = level_name(static_cast<HardwareLevel>(level));
    std::vector<std::int64_t> key(P);
    bool all_inside = true;
    for (std::size_t r = 0; r < P && all_inside; ++r) {
      all_inside = facts[r].object[level] >= 0;
      key[r] = static_cast<std::int64_t>(facts[r].node) * (1LL << 32) + facts[r].object[level];
    }
    if (!all_inside) {
      result.notes.push_back(name + ": not every rank is bound inside one " + name +
                             ", level left out");
      continue;
    }
    Candidate c = try_level(parent, key, name);
    if (!c.usable) {
      result.notes.push_back(c.why + ", level left out");
      continue;
    }
    if (c.units_per_parent == 1) continue; // splits nothing
    if (!c.uneven.empty()) result.notes.push_back(c.uneven);
    levels.push_back({name, c.units_per_parent});
    for (std::size_t r = 0; r < P; ++r)
      units[r].push_back(c.unit[r]);
    parent = c.new_group;
  }
  // Ranks sharing the finest unit (unbound ranks, or several ranks per core).
  std::map<int, int> next_in_group;
  std::int64_t sharing = 0;
  for (std::size_t r = 0; r < P; ++r)
    sharing = std::max<std::int64_t>(sharing, ++next_in_group[parent[r]]);
  if (sharing > 1) {
    levels.push_back({"rank", sharing});
    next_in_group.clear();
    for (std::size_t r = 0; r < P; ++r)
      units[r].push_back(next_in_group[parent[r]]++);
  }
  std::vector<std::vector<int>> rows(kinds);
  for (std::size_t r = 0; r < P; ++r)
    rows[facts[r].node].insert(rows[facts[r].node].end(), units[r].begin(), units[r].end());
  result.machine = Machine(levels, std::move(rows), summary.node_kind, summary.order,
                           summary.world_node, "detected");
  return result;
}

} // namespace hcart
