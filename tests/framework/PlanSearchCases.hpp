// What the plan-search tests share (PlanSearchTest.cpp, UnevenPlanTest.cpp): the process
// grids a plan may use, the plan's cost as the reference writes it, the plan's placement
// counted by the reference, and the meshes every check runs on.
#pragma once

#include "ReferencePlans.hpp"

#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/PlanCost.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace hcart::test {

inline std::string show(const RefCost& c) {
  std::ostringstream s;
  for (std::size_t l = 0; l < c.busiest.size(); ++l)
    s << (l ? " | " : "") << c.busiest[l] << " / " << c.total[l];
  return s.str();
}

inline RefCost from_plan(const hcart::PlanCost& c) {
  RefCost r;
  for (const auto& l : c.levels) {
    r.busiest.push_back(l.busiest);
    r.total.push_back(l.total);
  }
  return r;
}

// Directions may be cut into at most g / max(h, 1) pieces, at least 1 unless periodic; with
// a block multiple, into as many as leave every block at least max(h, 1) cells.
inline Factors ref_bounds(const Mesh& m) {
  Factors b;
  for (std::size_t i = 0; i < m.global_size.size(); ++i) {
    const std::int64_t multiple = m.block_multiple.empty() ? 1 : m.block_multiple[i];
    std::int64_t x = m.global_size[i] / std::max(m.halo_width[i], 1);
    if (multiple > 1) {
      x = 1;
      for (std::int64_t d = 2; d <= m.global_size[i]; ++d) {
        const auto e = ref_extents(m.global_size[i], d, multiple);
        if (*std::min_element(e.begin(), e.end()) >= std::max(m.halo_width[i], 1) &&
            e.back() >= multiple)
          x = d;
      }
    }
    if (x == 0 && !m.periodic[i]) x = 1;
    b.push_back(x);
  }
  return b;
}

// Every process grid the plan may use.
inline std::vector<Factors> ref_grids(const Mesh& mesh, std::int64_t ranks, const Factors& fixed) {
  std::vector<Factors> out;
  const Factors b = ref_bounds(mesh);
  for_each_factorization(ranks, mesh.global_size.size(), [&](const Factors& d) {
    for (std::size_t i = 0; i < d.size(); ++i) {
      if (d[i] > b[i] || (!fixed.empty() && fixed[i] > 0 && d[i] != fixed[i])) return;
    }
    out.push_back(d);
  });
  return out;
}

inline RefProblem problem_of(const Mesh& mesh, bool corners) {
  RefProblem p;
  p.mesh = mesh;
  p.cost = mesh.cost_factor;
  p.corners = corners;
  return p;
}

// The plan's own placement, counted by the reference.
inline RefCost recount(const Plan& plan, const Machine& m, const RefProblem& p) {
  std::vector<std::int64_t> cart(m.ranks());
  for (std::int64_t r = 0; r < m.ranks(); ++r)
    cart[r] = plan.cart_rank_of(r, m);
  return ref_cost(p, RefMachine(m), plan.dims, cart);
}

// Meshes with odd sizes, mixed periodicity, halos 0 to 3, cost factors, both halo modes.
struct MeshCase {
  Mesh mesh;
  bool corners;
};
inline std::vector<MeshCase> mesh_cases() {
  return {
      {{{63, 127, 255}, {1, 1, 1}, {false, false, false}, {}}, false},
      {{{64, 128, 256}, {1, 1, 1}, {true, true, true}, {}}, false},
      {{{37, 23, 29}, {2, 1, 3}, {true, false, true}, {1, 2, 1}}, true},
      {{{100, 100, 100}, {1, 1, 1}, {false, false, false}, {}}, false},
      {{{48, 96, 240}, {1, 0, 2}, {false, true, false}, {1, 1, 3}}, false},
      {{{31, 62, 17}, {3, 1, 1}, {true, false, false}, {0.5, 1, 2}}, true},
      {{{40, 120, 280}, {1, 1, 1}, {false, false, false}, {}}, true},
      {{{90, 45, 33}, {2, 2, 0}, {false, false, true}, {}}, false},
  };
}

} // namespace hcart::test
