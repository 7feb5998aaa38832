#include <hcart/core/Error.hpp>
#include <hcart/mapping/Agglomeration.hpp>

#include <algorithm>
#include <map>

namespace hcart {

namespace {

std::int64_t product(const std::vector<std::int64_t>& v) {
  std::int64_t p = 1;
  for (const std::int64_t x : v)
    p *= x;
  return p;
}

// The boxes of `size` process coordinates that tile `dims` (each extent divides its
// direction), in a fixed order.
std::vector<std::vector<std::int64_t>> boxes_of(const std::vector<std::int64_t>& dims,
                                                std::int64_t size) {
  std::vector<std::vector<std::int64_t>> out;
  std::vector<std::int64_t> box(dims.size(), 1);
  const auto walk = [&](const auto& self, std::size_t d, std::int64_t left) -> void {
    if (d == dims.size()) {
      if (left == 1) out.push_back(box);
      return;
    }
    for (std::int64_t e = 1; e <= dims[d]; ++e) {
      if (dims[d] % e != 0 || left % e != 0) continue;
      box[d] = e;
      self(self, d + 1, left / e);
    }
    box[d] = 1;
  };
  walk(walk, 0, size);
  return out;
}

// The box (row-major on dims / group) holding rank r (row-major on dims).
std::int64_t box_of(std::int64_t r, const std::vector<std::int64_t>& dims,
                    const std::vector<std::int64_t>& group) {
  std::vector<std::int64_t> c(dims.size());
  for (std::size_t d = dims.size(); d-- > 0;) {
    c[d] = r % dims[d];
    r /= dims[d];
  }
  std::int64_t b = 0;
  for (std::size_t d = 0; d < dims.size(); ++d)
    b = b * (dims[d] / group[d]) + c[d] / group[d];
  return b;
}

// The coarsest level at which two ranks sit in different units (levels: not there).
std::size_t separating(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  std::size_t l = 0;
  while (l < a.size() && a[l] == b[l])
    ++l;
  return l;
}

// Lexicographic: busiest then total, coarse level first.
bool cheaper(const AgglomerationBytes& a, const AgglomerationBytes& b) {
  for (std::size_t l = 0; l < a.total.size(); ++l) {
    if (a.busiest[l] != b.busiest[l]) return a.busiest[l] < b.busiest[l];
    if (a.total[l] != b.total[l]) return a.total[l] < b.total[l];
  }
  return false;
}

// Ranks per unit of each machine level where every unit holds as many; 0 where they differ.
std::vector<std::int64_t> ranks_per_unit(const AgglomerationProblem& p) {
  const std::size_t levels = p.units.empty() ? 0 : p.units.front().size();
  std::vector<std::int64_t> out(levels, 0);
  for (std::size_t l = 0; l < levels; ++l) {
    std::map<std::vector<std::int64_t>, std::int64_t> count;
    for (const auto& u : p.units)
      ++count[std::vector<std::int64_t>(u.begin(), u.begin() + static_cast<long>(l) + 1)];
    std::int64_t each = count.begin()->second;
    for (const auto& [unit, n] : count)
      if (n != each) each = 0;
    out[l] = each;
  }
  return out;
}

} // namespace

std::string to_string(AgglomerationRule rule) {
  return rule == AgglomerationRule::Machine ? "machine" : "stride";
}

std::int64_t agglomeration_group_size(const AgglomerationProblem& p) {
  const std::int64_t ranks = product(p.dims);
  HCART_CHECK(ranks >= 1, "hcart::agglomeration_group_size: an empty process grid");
  if (p.cells >= p.threshold * ranks) return 1;
  if (p.cells < p.threshold) return ranks;
  const std::int64_t needed = (p.threshold * ranks + p.cells - 1) / p.cells;
  // Sizes the machine offers: the ranks of a unit of each level, then whole nodes merged.
  std::vector<std::int64_t> natural;
  const std::vector<std::int64_t> per_unit = ranks_per_unit(p);
  for (const std::int64_t n : per_unit)
    if (n > 1) natural.push_back(n);
  if (!per_unit.empty() && per_unit.front() > 0) {
    for (std::int64_t k = 2; k * per_unit.front() <= ranks; ++k)
      if (ranks % (k * per_unit.front()) == 0) natural.push_back(k * per_unit.front());
  }
  std::sort(natural.begin(), natural.end());
  for (const std::int64_t g : natural) {
    if (g >= needed && ranks % g == 0 && !boxes_of(p.dims, g).empty()) return g;
  }
  for (std::int64_t g = needed; g <= ranks; ++g) {
    if (ranks % g == 0 && !boxes_of(p.dims, g).empty()) return g;
  }
  return ranks;
}

AgglomerationBytes gather_bytes(const AgglomerationProblem& p,
                                const std::vector<std::int64_t>& group,
                                const std::vector<std::int64_t>& owners) {
  const std::size_t levels = p.units.empty() ? 0 : p.units.front().size();
  AgglomerationBytes bytes;
  bytes.total.assign(levels + 1, 0);
  bytes.busiest.assign(levels + 1, 0);
  // Per level, the bytes each unit sends or receives across it.
  std::vector<std::map<std::vector<std::int64_t>, std::int64_t>> through(levels);
  const auto ranks = static_cast<std::int64_t>(p.units.size());
  for (std::int64_t r = 0; r < ranks; ++r) {
    const std::int64_t o = owners[static_cast<std::size_t>(box_of(r, p.dims, group))];
    const std::int64_t b = p.piece_bytes[static_cast<std::size_t>(r)];
    const auto& ur = p.units[static_cast<std::size_t>(r)];
    const auto& uo = p.units[static_cast<std::size_t>(o)];
    const std::size_t s = r == o ? levels : separating(ur, uo);
    bytes.total[s] += b;
    if (s == levels) continue;
    const auto key = [&](const std::vector<std::int64_t>& u) {
      return std::vector<std::int64_t>(u.begin(), u.begin() + static_cast<long>(s) + 1);
    };
    through[s][key(ur)] += b;
    through[s][key(uo)] += b;
  }
  for (std::size_t l = 0; l < levels; ++l)
    for (const auto& [unit, b] : through[l])
      bytes.busiest[l] = std::max(bytes.busiest[l], b);
  bytes.busiest[levels] = bytes.total[levels];
  return bytes;
}

Agglomeration choose_agglomeration(const AgglomerationProblem& p, AgglomerationRule rule) {
  const std::int64_t ranks = product(p.dims);
  HCART_CHECK(static_cast<std::int64_t>(p.units.size()) == ranks &&
                  static_cast<std::int64_t>(p.piece_bytes.size()) == ranks,
              "hcart::choose_agglomeration: " << p.units.size() << " ranks' units and "
                                              << p.piece_bytes.size() << " pieces for a grid of "
                                              << ranks << " ranks");
  const std::int64_t size = agglomeration_group_size(p);
  Agglomeration best;
  bool found = false;
  const std::size_t levels = p.units.empty() ? 0 : p.units.front().size();
  for (const auto& group : boxes_of(p.dims, size)) {
    std::vector<std::vector<std::int64_t>> members(static_cast<std::size_t>(ranks / size));
    for (std::int64_t r = 0; r < ranks; ++r)
      members[static_cast<std::size_t>(box_of(r, p.dims, group))].push_back(r);
    // Each box's owner: the member that receives the fewest bytes across each level, coarse
    // first (the lowest rank among equals).
    std::vector<std::int64_t> owners(members.size());
    for (std::size_t b = 0; b < members.size(); ++b) {
      std::vector<std::int64_t> best_cost;
      for (const std::int64_t candidate : members[b]) {
        std::vector<std::int64_t> cost(levels + 1, 0);
        for (const std::int64_t r : members[b]) {
          const std::size_t s =
              r == candidate ? levels
                             : separating(p.units[static_cast<std::size_t>(r)],
                                          p.units[static_cast<std::size_t>(candidate)]);
          cost[s] += p.piece_bytes[static_cast<std::size_t>(r)];
        }
        if (best_cost.empty() || cost < best_cost) {
          best_cost = cost;
          owners[b] = candidate;
        }
      }
    }
    const AgglomerationBytes bytes = gather_bytes(p, group, owners);
    if (!found || cheaper(bytes, best.bytes)) {
      best = {group, owners, bytes};
      found = true;
    }
  }
  if (rule == AgglomerationRule::Stride) {
    for (std::size_t b = 0; b < best.owners.size(); ++b)
      best.owners[b] = static_cast<std::int64_t>(b) * size;
    best.bytes = gather_bytes(p, best.group, best.owners);
  }
  return best;
}

} // namespace hcart
