#include "mapping/UnitLoads.hpp"

#include "mapping/FactorSearch.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/mapping/Blocks.hpp>
#include <hcart/mapping/Factorize.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace hcart {

namespace {
int compare_values(double a, double b) noexcept {
  if (a == b) return 0;
  if (std::isinf(a) || std::isinf(b)) return a < b ? -1 : 1;
  return impl::compare_sums(a, b);
}
} // namespace

namespace impl {

int compare_level(const LevelCost& a, const LevelCost& b) noexcept {
  if (const int c = compare_values(a.busiest, b.busiest)) return c;
  return compare_values(a.total, b.total);
}

LoadProblem load_problem(const Mesh& mesh, const std::vector<double>& cost_factors,
                         const TrafficOptions& options) {
  LoadProblem p;
  p.dims = static_cast<int>(mesh.global_size.size());
  // With block multiples the formulas count in units of m_i cells (the balanced rule over
  // units), and each term's weight carries the m_j of the directions it does not cross. (Where
  // m_i does not divide the size, the last block holds less than its units: counted as whole,
  // at most m_i - 1 cells more than it has.)
  p.cells = mesh.global_size;
  for (int i = 0; i < p.dims; ++i) {
    const std::int64_t m = block_multiple_of(mesh, static_cast<std::size_t>(i));
    p.cells[i] = (p.cells[i] + m - 1) / m;
  }
  const auto scaled = [&](double weight, std::uint32_t crossed) {
    for (int j = 0; j < p.dims; ++j)
      if (!(crossed & (1u << j))) weight *= static_cast<double>(block_multiple_of(mesh, j));
    return weight;
  };
  p.periodic.assign(p.dims, false);
  for (int i = 0; i < p.dims && !mesh.periodic.empty(); ++i)
    p.periodic[i] = mesh.periodic[i];
  std::vector<double> cross(p.dims);
  for (int i = 0; i < p.dims; ++i) {
    const double c = cost_factors.empty() ? 1.0 : cost_factors[i];
    cross[i] = mesh.halo_width[i] * c;
  }
  p.face_weight.assign(p.dims, 0.0);
  const double elem = options.elem_bytes;
  if (!options.corners) {
    for (int i = 0; i < p.dims; ++i) {
      const double w = scaled(elem * cross[i], 1u << i);
      p.face_weight[i] = w;
      if (cross[i] == 0) continue;
      p.terms.push_back({w, 1u << i, 0u});
      p.terms.push_back({w, 1u << i, 1u << i});
    }
    return p;
  }
  HCART_REQUIRE(p.dims <= 6, "hcart::make_plan: edges and corners with "
                                 << p.dims << " dimensions, expected at most 6");
  // Every offset in {-1, 0, 1}^d but 0: base-3 digits, 0 -> -1, 1 -> 0, 2 -> +1.
  int count = 1;
  for (int i = 0; i < p.dims; ++i)
    count *= 3;
  for (int code = 0; code < count; ++code) {
    LoadProblem::Term t;
    t.weight = elem;
    int rest = code;
    for (int i = 0; i < p.dims; ++i, rest /= 3) {
      const int digit = rest % 3;
      if (digit == 1) continue;
      t.crossed |= 1u << i;
      if (digit == 2) t.plus |= 1u << i;
      t.weight *= cross[i];
    }
    if (t.crossed == 0 || t.weight == 0) continue;
    t.weight = scaled(t.weight, t.crossed);
    if ((t.crossed & (t.crossed - 1)) == 0) {
      for (int i = 0; i < p.dims; ++i)
        if (t.crossed == (1u << i)) p.face_weight[i] = t.weight;
    }
    p.terms.push_back(t);
  }
  return p;
}

Span span_of(std::int64_t cells, std::int64_t coords, bool periodic, std::int64_t lo,
             std::int64_t hi, std::int64_t plo, std::int64_t phi) {
  Span s;
  s.cells = static_cast<double>(block_offset(cells, coords, hi) - block_offset(cells, coords, lo));
  const auto interior = static_cast<double>(hi - lo - 1);
  // The neighbour of the edge coordinate on each side: -1 where there is none.
  const std::int64_t below = lo > 0 ? lo - 1 : (periodic ? coords - 1 : -1);
  const std::int64_t above = hi < coords ? hi : (periodic ? 0 : -1);
  const std::int64_t neighbour[2] = {below, above};
  for (int side = 0; side < 2; ++side) {
    const std::int64_t nb = neighbour[side];
    s.in_parent[side] = interior + (nb >= 0 && nb >= plo && nb < phi ? 1 : 0);
    s.in_self[side] = interior + (nb >= 0 && nb >= lo && nb < hi ? 1 : 0);
  }
  return s;
}

double unit_cost(const LoadProblem& problem, const Span* spans) {
  double sum = 0;
  for (const auto& t : problem.terms) {
    double parent = 1, self = 1, cells = 1;
    for (int i = 0; i < problem.dims; ++i) {
      const Span& s = spans[i];
      if (t.crossed & (1u << i)) {
        const int side = (t.plus >> i) & 1u;
        parent *= s.in_parent[side];
        self *= s.in_self[side];
      } else {
        cells *= s.cells;
      }
    }
    sum += t.weight * (parent - self) * cells;
  }
  return sum;
}

namespace {

bool dominates(const Span& a, const Span& b) {
  return a.cells >= b.cells && a.in_parent[0] >= b.in_parent[0] &&
         a.in_parent[1] >= b.in_parent[1] && a.in_self[0] <= b.in_self[0] &&
         a.in_self[1] <= b.in_self[1];
}

// At most 3 intervals x 3 places in the parent: the classes of one direction.
struct SpanClasses {
  std::array<Span, 9> span;
  std::size_t count = 0;
};

// The classes of ranges of one direction at one level whose unit could be the busiest: one
// representative per (cells class, place in the parent), then those no other dominates
// (more cells, more neighbours in the parent and fewer in itself never cost less).
SpanClasses candidate_spans(const LoadProblem& problem, const GridLevel& level, int i) {
  const std::int64_t d = level.coords[i], flo = level.frame_lo[i], fhi = level.frame_hi[i];
  const std::int64_t groups = level.groups[i], n = groups / level.parent_groups[i];
  const std::int64_t m = (fhi - flo) / groups;
  const std::int64_t extra = problem.cells[i] % d; // coordinates below this own one more cell
  // Groups [0, full) own only such coordinates; group `full` may straddle; the rest own none.
  const std::int64_t full = extra <= flo ? 0 : std::min(groups, (extra - flo) / m);
  const bool straddle = full < groups && extra > flo + full * m;
  const std::int64_t intervals[3][2] = {
      {0, full - 1}, {full, straddle ? full : full - 1}, {full + (straddle ? 1 : 0), groups - 1}};
  SpanClasses spans;
  auto add = [&](std::int64_t a) {
    const std::int64_t lo = flo + a * m, plo = flo + (a / n) * n * m;
    spans.span[spans.count++] =
        span_of(problem.cells[i], d, problem.periodic[i], lo, lo + m, plo, plo + n * m);
  };
  for (const auto& interval : intervals) {
    const std::int64_t first = interval[0], last = interval[1];
    if (first > last) continue;
    if (n == 1) {
      add(first);
      continue;
    }
    // The first group of the interval at each place in its parent: first child, last
    // child, and (n >= 3) one in between.
    const std::int64_t r = first % n;
    const std::int64_t at_first = r == 0 ? first : first + (n - r);
    const std::int64_t at_last = first + ((n - 1 - r) % n + n) % n;
    const std::int64_t between = (r > 0 && r < n - 1) ? first : (r == 0 ? first + 1 : first + 2);
    for (std::int64_t a : {at_first, at_last, between}) {
      if (a <= last && (a != between || n >= 3)) add(a);
    }
  }
  SpanClasses kept;
  for (std::size_t a = 0; a < spans.count; ++a) {
    bool dominated = false;
    for (std::size_t b = 0; b < spans.count && !dominated; ++b) {
      if (a == b || !dominates(spans.span[b], spans.span[a])) continue;
      // Equal spans: keep the first.
      dominated = !dominates(spans.span[a], spans.span[b]) || b < a;
    }
    if (!dominated) kept.span[kept.count++] = spans.span[a];
  }
  return kept;
}

// Coordinates of a range of `length` whose neighbour on one side lies in the range itself
// (the same on both sides): all but the edge one, and that one too when the range is the
// whole of a periodic direction.
double self_count(std::int64_t length, bool whole_and_periodic) {
  return static_cast<double>(length - 1) + (whole_and_periodic ? 1.0 : 0.0);
}

} // namespace

LevelCost grid_level_cost(const LoadProblem& problem, const GridLevel& level, double cutoff) {
  const int dims = problem.dims;
  LevelCost cost;
  // Total: sum over the units of products = product of per-direction sums. (Fixed arrays:
  // the region search calls this for every option of every node box.)
  std::array<double, max_factorize_dims> sum_parent{}, sum_self{}, sum_cells{};
  for (int i = 0; i < dims; ++i) {
    const std::int64_t length = level.frame_hi[i] - level.frame_lo[i];
    const bool whole =
        level.frame_lo[i] == 0 && level.frame_hi[i] == level.coords[i] && problem.periodic[i];
    const std::int64_t g = level.groups[i], gp = level.parent_groups[i];
    sum_self[i] = static_cast<double>(g) * self_count(length / g, whole && g == 1);
    sum_parent[i] = static_cast<double>(gp) * self_count(length / gp, whole && gp == 1);
    sum_cells[i] =
        static_cast<double>(block_offset(problem.cells[i], level.coords[i], level.frame_hi[i]) -
                            block_offset(problem.cells[i], level.coords[i], level.frame_lo[i]));
  }
  for (const auto& t : problem.terms) {
    double parent = 1, self = 1, cells = 1;
    for (int i = 0; i < dims; ++i) {
      if (t.crossed & (1u << i)) {
        parent *= sum_parent[i];
        self *= sum_self[i];
      } else {
        cells *= sum_cells[i];
      }
    }
    cost.total += t.weight * (parent - self) * cells;
  }
  // Busiest: the largest unit cost over the product of the directions' candidate classes.
  std::array<SpanClasses, max_factorize_dims> classes;
  for (int i = 0; i < dims; ++i)
    classes[i] = candidate_spans(problem, level, i);
  std::array<std::size_t, max_factorize_dims> pick{};
  std::array<Span, max_factorize_dims> spans;
  const double limit = std::isinf(cutoff) ? cutoff : cutoff + cost_tolerance * std::fabs(cutoff);
  for (;;) {
    for (int i = 0; i < dims; ++i)
      spans[i] = classes[i].span[pick[i]];
    const double c = unit_cost(problem, spans.data());
    if (c > cost.busiest) cost.busiest = c;
    if (cost.busiest > limit) {
      cost.busiest = std::numeric_limits<double>::infinity();
      return cost;
    }
    int i = dims - 1;
    while (i >= 0 && ++pick[i] == classes[i].count)
      pick[i--] = 0;
    if (i < 0) break;
  }
  return cost;
}

std::vector<std::vector<std::int64_t>>
ordered_factorizations(std::int64_t n, const std::vector<std::int64_t>& caps,
                       const std::vector<std::int64_t>& divides) {
  const std::size_t d = caps.size();
  std::vector<std::vector<std::int64_t>> out;
  if (d == 0) return out;
  const std::vector<std::int64_t> all = divisors(n); // increasing
  std::vector<std::int64_t> f(d, 1);
  auto admits = [&](std::size_t i, std::int64_t x) {
    return x <= caps[i] && (divides.empty() || divides[i] == 0 || divides[i] % x == 0);
  };
  // The largest product the directions from i on can still take (to cut hopeless branches).
  std::vector<double> room(d + 1, 1.0);
  for (std::size_t i = d; i-- > 0;) {
    room[i] = room[i + 1] * static_cast<double>(std::min<std::int64_t>(caps[i], n));
  }
  std::function<void(std::size_t, std::int64_t)> walk = [&](std::size_t i, std::int64_t rest) {
    if (static_cast<double>(rest) > room[i]) return;
    if (i + 1 == d) {
      if (admits(i, rest)) {
        f[i] = rest;
        out.push_back(f);
      }
      return;
    }
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
      const std::int64_t x = *it;
      if (x > rest || rest % x != 0 || !admits(i, x)) continue;
      f[i] = x;
      walk(i + 1, rest / x);
    }
  };
  walk(0, n);
  return out;
}

std::vector<std::int64_t>
level_grid_messages(const LoadProblem& problem, const std::vector<std::int64_t>& d,
                    const std::vector<std::vector<std::int64_t>>& level_factors) {
  const int D = problem.dims, L = static_cast<int>(level_factors.size());
  // Per direction: the extent of a unit of level l in process coordinates.
  std::vector<std::vector<std::int64_t>> extent(D, std::vector<std::int64_t>(L));
  for (int i = 0; i < D; ++i) {
    std::int64_t groups = 1;
    for (int l = 0; l < L; ++l) {
      groups *= level_factors[l][i];
      extent[i][l] = d[i] / groups;
    }
  }
  // The level at which coordinates x and y of direction i first lie in different units
  // (L: the same unit at every level given).
  const auto first_split = [&](int i, std::int64_t x, std::int64_t y) {
    for (int l = 0; l < L; ++l)
      if (x / extent[i][l] != y / extent[i][l]) return l;
    return L;
  };
  // A coordinate's class: that level towards its neighbour on each side (-1: none). Inside
  // the grid a coordinate x meets its low neighbour first at the coarsest level whose unit
  // extent divides x, its high neighbour at the coarsest whose extent divides x + 1, and
  // consecutive numbers share no divisor above 1: so the unit extents and the numbers just
  // below them (x = e and x = e - 1 for every level's extent e), x = 1 (neither side on a
  // boundary above the finest levels) and the grid's ends (0, 1, d - 2, d - 1, where the
  // periodic wrap or no neighbour decides) hold every class.
  using Sides = std::array<int, 2>;
  std::vector<std::vector<Sides>> classes(D);
  for (int i = 0; i < D; ++i) {
    const bool wraps = problem.periodic[i];
    const auto add = [&](std::int64_t x) {
      Sides s{-1, -1};
      if (x > 0 || wraps) s[0] = first_split(i, x, (x - 1 + d[i]) % d[i]);
      if (x + 1 < d[i] || wraps) s[1] = first_split(i, x, (x + 1) % d[i]);
      if (std::find(classes[i].begin(), classes[i].end(), s) == classes[i].end())
        classes[i].push_back(s);
    };
    for (std::int64_t x : {std::int64_t{0}, std::int64_t{1}, d[i] - 2, d[i] - 1})
      if (x >= 0 && x < d[i]) add(x);
    for (int l = 0; l < L; ++l)
      for (std::int64_t x : {extent[i][l] - 1, extent[i][l]})
        if (x >= 0 && x < d[i]) add(x);
  }
  std::vector<std::int64_t> most(L, 0), count(L + 1);
  // Faces alone: a rank's count at a level is a sum over the directions of what its
  // coordinate in each sends, so the most is the sum of each direction's most.
  const bool faces = std::all_of(problem.terms.begin(), problem.terms.end(),
                                 [](const auto& t) { return (t.crossed & (t.crossed - 1)) == 0; });
  if (faces) {
    for (int i = 0; i < D; ++i) {
      std::vector<std::int64_t> direction(L, 0);
      for (const Sides& c : classes[i]) {
        std::fill(count.begin(), count.end(), 0);
        for (const auto& t : problem.terms) {
          if (t.crossed != (1u << i)) continue;
          const int side = c[(t.plus >> i) & 1u];
          if (side >= 0) ++count[side];
        }
        for (int l = 0; l < L; ++l)
          direction[l] = std::max(direction[l], count[l]);
      }
      for (int l = 0; l < L; ++l)
        most[l] += direction[l];
    }
    return most;
  }
  // Every combination of one class per direction: its messages per level.
  std::vector<std::size_t> pick(D, 0);
  for (;;) {
    std::fill(count.begin(), count.end(), 0);
    for (const auto& t : problem.terms) {
      int level = L;
      bool exists = true;
      for (int i = 0; i < D && exists; ++i) {
        if (!(t.crossed & (1u << i))) continue;
        const int side = classes[i][pick[i]][(t.plus >> i) & 1u];
        exists = side >= 0;
        level = std::min(level, side);
      }
      if (exists) ++count[level];
    }
    for (int l = 0; l < L; ++l)
      most[l] = std::max(most[l], count[l]);
    int i = D - 1;
    while (i >= 0 && ++pick[i] == classes[i].size())
      pick[i--] = 0;
    if (i < 0) break;
  }
  return most;
}

} // namespace impl
} // namespace hcart
