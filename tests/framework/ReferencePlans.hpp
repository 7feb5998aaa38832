// Independent reference for the planner's exact search (tests/framework/PlanSearchTest.cpp):
// enumerate the plans of each space explicitly, place every rank, and count every rank's
// messages block by block. Nothing here uses the library's search, its load formulas, its
// block rule or its traffic model; agreement with the planner means something.
#pragma once

#include "BruteForce.hpp"

#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/Mesh.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace hcart::test {

/// Per level: the busiest unit and the total (cost-weighted bytes).
struct RefCost {
  std::vector<double> busiest, total;
};

/// -1, 0, +1 lexicographically (busiest, then total, level by level), relative tolerance.
inline int ref_compare(const RefCost& a, const RefCost& b) {
  auto cmp = [](double x, double y) {
    const double tol = 1e-9 * std::max(std::fabs(x), std::fabs(y));
    return x < y - tol ? -1 : (x > y + tol ? 1 : 0);
  };
  for (std::size_t l = 0; l < a.busiest.size(); ++l) {
    if (int c = cmp(a.busiest[l], b.busiest[l])) return c;
    if (int c = cmp(a.total[l], b.total[l])) return c;
  }
  return 0;
}

/// What an exchange sends.
struct RefProblem {
  Mesh mesh;                ///< sizes, halos, periodic
  std::vector<double> cost; ///< cost factor per direction
  bool corners = false;
  int elem_bytes = 8;
};

/// Every block's extent per direction, by handing out the g cells one per block in turn
/// from the first block: the first g mod d blocks end up with one more.
inline std::vector<std::int64_t> ref_extents(std::int64_t g, std::int64_t d) {
  std::vector<std::int64_t> e(d, 0);
  for (std::int64_t x = 0; x < g; ++x)
    ++e[x % d];
  return e;
}
/// With a block multiple m: units of m cells handed out the same way (ceil(g / m) of them),
/// or from the last block where the last unit is short, that block giving back what the last
/// unit lacks.
inline std::vector<std::int64_t> ref_extents(std::int64_t g, std::int64_t d, std::int64_t m) {
  std::vector<std::int64_t> e = ref_extents((g + m - 1) / m, d);
  if (g % m != 0) std::reverse(e.begin(), e.end());
  for (auto& x : e)
    x *= m;
  e.back() -= (g + m - 1) / m * m - g;
  return e;
}

/// A machine's units as the reference counts them: every rank's unit at every level as one
/// number (its index prefix), read once from Machine::unit_indices.
struct RefMachine {
  const Machine* machine = nullptr;
  int levels = 0;
  std::vector<std::int64_t> units_at_level;
  std::vector<std::int64_t> unit; ///< unit[r * levels + l]
  std::vector<std::int64_t> node; ///< node index of every rank
  explicit RefMachine(const Machine& m) : machine(&m), levels(m.level_count()) {
    std::int64_t count = 1;
    for (const auto& l : m.levels()) {
      count *= l.size;
      units_at_level.push_back(count);
    }
    for (std::int64_t r = 0; r < m.ranks(); ++r) {
      const auto u = m.unit_indices(r);
      std::int64_t id = 0;
      for (int l = 0; l < levels; ++l) {
        id = id * m.levels()[l].size + u[l];
        unit.push_back(id);
      }
      node.push_back(u[0]);
    }
  }
};

/// One message between two ranks of the process grid (row-major ranks) and its cost.
struct RefMessage {
  std::int64_t from = 0, to = 0;
  double cost = 0;
};

/// Every message of an exchange on process grid `dims`: every rank, every offset with a
/// neighbour (faces; edges and corners too with corners), its bytes from the blocks'
/// extents times the cost factors of the directions it crosses. Copies to itself left out.
inline std::vector<RefMessage> ref_messages(const RefProblem& p,
                                            const std::vector<std::int64_t>& dims) {
  const int D = static_cast<int>(dims.size());
  std::int64_t P = 1, codes = 1;
  for (int i = 0; i < D; ++i) {
    P *= dims[i];
    codes *= 3;
  }
  std::vector<std::vector<std::int64_t>> extents(D);
  for (int i = 0; i < D; ++i)
    extents[i] = ref_extents(p.mesh.global_size[i], dims[i],
                             p.mesh.block_multiple.empty() ? 1 : p.mesh.block_multiple[i]);
  std::vector<RefMessage> out;
  std::vector<int> o(D);
  std::vector<std::int64_t> c(D), n(D);
  for (std::int64_t q = 0; q < P; ++q) {
    std::int64_t rest = q;
    for (int i = D - 1; i >= 0; --i) {
      c[i] = rest % dims[i];
      rest /= dims[i];
    }
    for (std::int64_t code = 0; code < codes; ++code) {
      std::int64_t x = code;
      int crossed = 0;
      for (int i = 0; i < D; ++i, x /= 3) {
        o[i] = static_cast<int>(x % 3) - 1;
        crossed += o[i] != 0;
      }
      if (crossed == 0 || (!p.corners && crossed > 1)) continue;
      bool exists = true;
      double bytes = p.elem_bytes, cost = 1;
      for (int i = 0; i < D; ++i) {
        n[i] = c[i] + o[i];
        if (n[i] < 0 || n[i] >= dims[i]) {
          if (!p.mesh.periodic[i]) exists = false;
          n[i] = (n[i] + dims[i]) % dims[i];
        }
        if (o[i] != 0) {
          bytes *= p.mesh.halo_width[i];
          cost *= p.cost.empty() ? 1.0 : p.cost[i];
        } else {
          bytes *= static_cast<double>(extents[i][c[i]]);
        }
      }
      if (!exists || bytes == 0) continue;
      std::int64_t to = 0;
      for (int i = 0; i < D; ++i)
        to = to * dims[i] + n[i];
      if (to != q) out.push_back({q, to, bytes * cost});
    }
  }
  return out;
}

/// The cost of an assignment: cart_of_world[r] is world rank r's row-major rank on the grid
/// of `messages`. Every message is charged to the sender's unit at the coarsest level at
/// which sender and receiver differ; with only_node >= 0, only that node's ranks' messages.
inline RefCost ref_cost(const RefMachine& rm, const std::vector<RefMessage>& messages,
                        const std::vector<std::int64_t>& cart_of_world,
                        std::int64_t only_node = -1) {
  const int L = rm.levels;
  const std::int64_t P = rm.machine->ranks();
  std::vector<std::int64_t> world_of_cart(P, -1);
  for (std::int64_t r = 0; r < P; ++r)
    world_of_cart[cart_of_world[r]] = r;
  std::vector<std::vector<double>> per_unit(L);
  for (int l = 0; l < L; ++l)
    per_unit[l].assign(rm.units_at_level[l], 0.0);
  RefCost out;
  out.busiest.assign(L, 0);
  out.total.assign(L, 0);
  for (const RefMessage& m : messages) {
    const std::int64_t from = world_of_cart[m.from], to = world_of_cart[m.to];
    if (only_node >= 0 && rm.node[from] != only_node) continue;
    const std::int64_t* su = &rm.unit[from * L];
    const std::int64_t* ru = &rm.unit[to * L];
    int level = 0;
    while (level < L && su[level] == ru[level])
      ++level;
    per_unit[level][su[level]] += m.cost;
    out.total[level] += m.cost;
  }
  for (int l = 0; l < L; ++l)
    for (double v : per_unit[l])
      out.busiest[l] = std::max(out.busiest[l], v);
  return out;
}

/// The same, counting the messages of grid `dims` first.
inline RefCost ref_cost(const RefProblem& p, const RefMachine& rm,
                        const std::vector<std::int64_t>& dims,
                        const std::vector<std::int64_t>& cart_of_world,
                        std::int64_t only_node = -1) {
  return ref_cost(rm, ref_messages(p, dims), cart_of_world, only_node);
}

/// A box of the process grid; with run_sizes, several nodes of these sizes sharing it as
/// consecutive runs of its row-major order over the directions `axes` (slowest first).
struct RefBox {
  std::vector<std::int64_t> lo, extent;
  std::vector<std::int64_t> run_sizes;
  std::vector<int> axes;
};

/// The assignment of a plan that gives node u the box boxes[u] and cuts each box into the
/// finer levels with chains[u] (level factors 1 .. L-1), or a level grid when boxes is empty
/// (chains[0] then holds every level's factors).
inline std::vector<std::int64_t> ref_assignment(const Machine& machine,
                                                const std::vector<std::int64_t>& dims,
                                                const std::vector<RefBox>& boxes,
                                                const std::vector<std::vector<Factors>>& chains) {
  const int D = static_cast<int>(dims.size());
  std::vector<std::int64_t> cart(machine.ranks());
  for (std::int64_t r = 0; r < machine.ranks(); ++r) {
    const auto u = machine.unit_indices(r);
    std::vector<std::int64_t> c(D, 0);
    const bool grid = boxes.empty();
    const auto& chain = grid ? chains[0] : chains[u[0]];
    const std::size_t first = grid ? 0 : 1;
    for (std::size_t l = 0; l < chain.size(); ++l) {
      // The unit's place among its siblings, row-major on the level's factors.
      std::int64_t rest = u[first + l];
      std::vector<std::int64_t> lc(D);
      for (int i = D - 1; i >= 0; --i) {
        lc[i] = rest % chain[l][i];
        rest /= chain[l][i];
      }
      for (int i = 0; i < D; ++i)
        c[i] = c[i] * chain[l][i] + lc[i];
    }
    if (!grid)
      for (int i = 0; i < D; ++i)
        c[i] += boxes[u[0]].lo[i];
    std::int64_t q = 0;
    for (int i = 0; i < D; ++i)
      q = q * dims[i] + c[i];
    cart[r] = q;
  }
  return cart;
}

/// Every chain of ordered factorizations of levels [first, L) whose product is `extent`.
inline std::vector<std::vector<Factors>> ref_chains(const Machine& machine, std::size_t first,
                                                    const Factors& extent) {
  std::vector<std::vector<Factors>> out;
  const std::size_t L = machine.levels().size(), D = extent.size();
  std::vector<Factors> chain;
  std::function<void(std::size_t, Factors)> walk = [&](std::size_t l, Factors rest) {
    if (l == L) {
      if (std::all_of(rest.begin(), rest.end(), [](std::int64_t x) { return x == 1; }))
        out.push_back(chain);
      return;
    }
    for_each_factorization(machine.levels()[l].size, D, [&](const Factors& f) {
      Factors next(D);
      for (std::size_t i = 0; i < D; ++i) {
        if (rest[i] % f[i] != 0) return;
        next[i] = rest[i] / f[i];
      }
      chain.push_back(f);
      walk(l + 1, next);
      chain.pop_back();
    });
  };
  walk(first, extent);
  return out;
}

/// Every guillotine partition of `box` into boxes whose volumes are the multiset `sizes`
/// (volume -> how many), each partition once, its boxes sorted by their first corner; with
/// `shared_nodes` > 1, a box of 2 to shared_nodes nodes of more than one size and at most
/// shared_volume cells may also hold them as runs (RefBox::run_sizes), in every order of the
/// nodes and of the directions it spans.
inline std::vector<std::vector<RefBox>>
ref_guillotine_sizes(const RefBox& box, const std::map<std::int64_t, std::int64_t>& sizes,
                     std::int64_t shared_nodes = 0, std::int64_t shared_volume = 0) {
  using Sizes = std::map<std::int64_t, std::int64_t>;
  std::map<std::pair<std::vector<std::int64_t>, Sizes>, std::vector<std::vector<RefBox>>> memo;
  auto key_of = [](const RefBox& b) {
    std::vector<std::int64_t> k = b.lo;
    k.insert(k.end(), b.extent.begin(), b.extent.end());
    k.insert(k.end(), b.run_sizes.begin(), b.run_sizes.end());
    k.push_back(-1);
    k.insert(k.end(), b.axes.begin(), b.axes.end());
    return k;
  };
  // Every way to take a sub-multiset of `from` of total `volume`.
  std::function<void(Sizes::const_iterator, const Sizes&, std::int64_t, Sizes&,
                     std::vector<Sizes>&)>
      subsets = [&](Sizes::const_iterator it, const Sizes& from, std::int64_t volume, Sizes& taken,
                    std::vector<Sizes>& out) {
        if (it == from.end()) {
          if (volume == 0) out.push_back(taken);
          return;
        }
        for (std::int64_t n = 0; n <= it->second && n * it->first <= volume; ++n) {
          if (n > 0) taken[it->first] = n;
          subsets(std::next(it), from, volume - n * it->first, taken, out);
          taken.erase(it->first);
        }
      };
  std::function<std::vector<std::vector<RefBox>>(const RefBox&, const Sizes&)> all =
      [&](const RefBox& b, const Sizes& want) -> std::vector<std::vector<RefBox>> {
    const auto key = std::make_pair(key_of(b), want);
    const auto found = memo.find(key);
    if (found != memo.end()) return found->second;
    std::int64_t v = 1, pieces = 0;
    for (std::int64_t e : b.extent)
      v *= e;
    for (const auto& [size, n] : want)
      pieces += n;
    std::map<std::vector<std::int64_t>, std::vector<RefBox>> unique;
    if (pieces == 1) {
      unique[key_of(b)] = {b};
    } else {
      if (pieces <= shared_nodes && v <= shared_volume && want.size() >= 2) {
        std::vector<std::int64_t> order;
        for (const auto& [size, n] : want)
          order.insert(order.end(), static_cast<std::size_t>(n), size);
        std::vector<int> spanned;
        for (std::size_t i = 0; i < b.extent.size(); ++i)
          if (b.extent[i] > 1) spanned.push_back(static_cast<int>(i));
        do {
          std::vector<int> axes = spanned;
          do {
            RefBox shared = b;
            shared.run_sizes = order;
            shared.axes = axes;
            for (std::size_t i = 0; i < b.extent.size(); ++i)
              if (b.extent[i] == 1) shared.axes.push_back(static_cast<int>(i));
            unique[key_of(shared)] = {shared};
          } while (std::next_permutation(axes.begin(), axes.end()));
        } while (std::next_permutation(order.begin(), order.end()));
      }
      for (std::size_t i = 0; i < b.extent.size(); ++i) {
        for (std::int64_t p = 1; p < b.extent[i]; ++p) {
          RefBox first = b, second = b;
          first.extent[i] = p;
          second.lo[i] += p;
          second.extent[i] -= p;
          std::vector<Sizes> splits;
          Sizes taken;
          subsets(want.begin(), want, v / b.extent[i] * p, taken, splits);
          for (const Sizes& left_sizes : splits) {
            Sizes right_sizes = want;
            for (const auto& [size, n] : left_sizes)
              if ((right_sizes[size] -= n) == 0) right_sizes.erase(size);
            if (left_sizes.empty() || right_sizes.empty()) continue;
            const auto left = all(first, left_sizes);
            const auto right = all(second, right_sizes);
            for (const auto& a : left) {
              for (const auto& c : right) {
                std::vector<RefBox> joined = a;
                joined.insert(joined.end(), c.begin(), c.end());
                std::sort(joined.begin(), joined.end(),
                          [&](const RefBox& x, const RefBox& y) { return key_of(x) < key_of(y); });
                std::vector<std::int64_t> canonical;
                for (const auto& x : joined) {
                  const auto k = key_of(x);
                  canonical.insert(canonical.end(), k.begin(), k.end());
                }
                unique.emplace(std::move(canonical), std::move(joined));
              }
            }
          }
        }
      }
    }
    std::vector<std::vector<RefBox>> out;
    for (auto& [k, partition] : unique)
      out.push_back(std::move(partition));
    memo.emplace(key, out);
    return out;
  };
  return all(box, sizes);
}

/// Every guillotine partition of the box [lo, lo + extent) into boxes of `volume` process
/// coordinates, each once, as lists of boxes sorted by their first corner.
inline std::vector<std::vector<RefBox>> ref_guillotine(const RefBox& box, std::int64_t volume) {
  std::int64_t v = 1;
  for (std::int64_t e : box.extent)
    v *= e;
  if (v % volume != 0) return {};
  return ref_guillotine_sizes(box, {{volume, v / volume}});
}

/// Every rank's place in block order: the ranks sorted by their unit indices, coarse level
/// first (ties cannot happen: the indices of two ranks differ).
inline std::vector<std::int64_t> ref_block_order(const Machine& machine) {
  std::vector<std::pair<std::vector<std::int64_t>, std::int64_t>> keyed;
  for (std::int64_t r = 0; r < machine.ranks(); ++r)
    keyed.emplace_back(machine.unit_indices(r), r);
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::int64_t> block(machine.ranks());
  for (std::size_t k = 0; k < keyed.size(); ++k)
    block[keyed[k].second] = static_cast<std::int64_t>(k);
  return block;
}

/// The assignment that gives every box of `boxes` to a node of its volume (the lowest
/// numbered one left) and fills it with the node's ranks in block order, row-major; a
/// shared box to nodes of its run sizes, one run after the other.
inline std::vector<std::int64_t> ref_run_boxes(const Machine& machine,
                                               const std::vector<std::int64_t>& dims,
                                               const std::vector<RefBox>& boxes) {
  const int D = static_cast<int>(dims.size());
  const std::vector<std::int64_t> block = ref_block_order(machine);
  const std::int64_t nodes = machine.levels()[0].size;
  std::vector<std::vector<std::int64_t>> ranks_of(nodes); // in block order
  std::vector<std::int64_t> by_block(machine.ranks());
  for (std::int64_t r = 0; r < machine.ranks(); ++r)
    by_block[block[r]] = r;
  for (std::int64_t b = 0; b < machine.ranks(); ++b)
    ranks_of[machine.unit_indices(by_block[b])[0]].push_back(by_block[b]);
  std::vector<char> used(nodes, 0);
  std::vector<std::int64_t> cart(machine.ranks(), -1);
  for (const RefBox& box : boxes) {
    std::int64_t volume = 1;
    for (std::int64_t e : box.extent)
      volume *= e;
    std::vector<int> axes = box.axes;
    if (axes.empty())
      for (int i = 0; i < D; ++i)
        axes.push_back(i);
    const std::vector<std::int64_t> sizes =
        box.run_sizes.empty() ? std::vector<std::int64_t>{volume} : box.run_sizes;
    std::int64_t position = 0;
    for (std::int64_t size : sizes) {
      std::int64_t u = 0;
      while (u < nodes && (used[u] || static_cast<std::int64_t>(ranks_of[u].size()) != size))
        ++u;
      if (u == nodes) return {}; // no node of this size left
      used[u] = 1;
      for (std::int64_t k = 0; k < size; ++k, ++position) {
        std::int64_t rest = position, q = 0;
        std::vector<std::int64_t> c(D);
        for (int j = D - 1; j >= 0; --j) {
          c[axes[j]] = box.lo[axes[j]] + rest % box.extent[axes[j]];
          rest /= box.extent[axes[j]];
        }
        for (int i = 0; i < D; ++i)
          q = q * dims[i] + c[i];
        cart[ranks_of[u][k]] = q;
      }
    }
  }
  return cart;
}

} // namespace hcart::test
