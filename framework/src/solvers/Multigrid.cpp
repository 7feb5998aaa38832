// hcart::Multigrid: set-up, the smoothers, the cycles and full multigrid
// (hcart/solvers/Multigrid.hpp).
#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/grid/ColouredLoops.hpp>
#include <hcart/grid/LevelTransfers.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/grid/Reductions.hpp>
#include <hcart/grid/ReproducibleSums.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>
#include <hcart/impl/solvers/MultigridKernels.hpp>
#include <hcart/solvers/HierarchyLevels.hpp>
#include <hcart/solvers/Multigrid.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

namespace hcart {

namespace {

// The damping of the weighted Jacobi smoother: the best smoothing factor of the 7-point
// Laplacian (5/7).
constexpr double kJacobiOmega = 6.0 / 7.0;

constexpr double kPi = 3.14159265358979323846;

// A timer region when the solver has timers.
class Scope {
public:
  Scope(Timers* timers, std::string name) : m_timers(timers), m_name(std::move(name)) {
    if (m_timers != nullptr) m_timers->start(m_name);
  }
  ~Scope() {
    if (m_timers != nullptr) m_timers->stop(m_name);
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

private:
  Timers* m_timers;
  std::string m_name;
};

} // namespace

namespace impl {

// What the solver keeps on each level this rank holds, beside the level's grid, its exchanger
// (Faces for the smoother, Full per binding) and its boundaries (HierarchyLevels).
struct MultigridLevel {
  Field<double> u, f, r, v;
  MultigridStencil stencil;
  // Variable coefficients (Multigrid::set_coefficients): alpha and beta per cell, beta's face
  // means over h^2 and 1 / the diagonal, and the operator over them.
  Field<double> alpha, beta, bx, by, bz, inv_diag;
  MultigridCoefficients coefficients;
  SideConditions conditions; // cell-centred: the ghosts at the physical sides
  HaloBinding u_faces, u_full, r_full;
};

// body(op) with the level's operator: its variable coefficients where they are set, else its
// constant stencil.
template <class Body>
void with_operator(const MultigridLevel& level, bool variable, Body&& body) {
  if (variable) {
    body(level.coefficients);
  } else {
    body(level.stencil);
  }
}

} // namespace impl

struct Multigrid::Levels : HierarchyLevels<impl::MultigridLevel> {
  using HierarchyLevels<impl::MultigridLevel>::HierarchyLevels;
  Field<double> none; // a level's field where this rank does not hold it (the transfers)
  // Conjugate gradients on level 0 (MultigridOptions::conjugate_gradients): the iterate, the
  // right-hand side kept while the cycle solves for the preconditioned residual, the
  // residual, the direction and its product.
  Field<double> cg_x, cg_f, cg_r, cg_p, cg_q;
  HaloBinding cg_p_faces;
  // Free-space sides: f as the caller wrote it, kept while solve() runs on f with the faces'
  // values folded in.
  Field<double> caller_f;
};

Multigrid::Multigrid(const GridHierarchy& levels, const MultigridOptions& options, Timers* timers)
    : m_hierarchy(levels), m_options(options), m_timers(timers) {
  agree_on_errors(levels.decomposition(0).comm(), [&] { check_options(); });
  m_singular = singular(m_options.alpha);
  set_up();
}

Multigrid::~Multigrid() = default;

void Multigrid::check_options() const {
  const MultigridOptions& o = m_options;
  const GridSpec& spec = m_hierarchy.decomposition(0).spec();
  const bool vertex = m_hierarchy.options().centering == LevelCentering::Vertex;
  HCART_REQUIRE(o.alpha >= 0 && std::isfinite(o.alpha),
                "hcart::Multigrid: alpha = " << o.alpha << ", expected a finite value >= 0");
  HCART_REQUIRE(o.beta > 0 && std::isfinite(o.beta),
                "hcart::Multigrid: beta = " << o.beta << ", expected a finite value > 0");
  for (int d = 0; d < 3; ++d) {
    HCART_REQUIRE(o.length[d] > 0 && std::isfinite(o.length[d]),
                  "hcart::Multigrid: length[" << d << "] = " << o.length[d]
                                              << ", expected a finite length > 0");
    HCART_REQUIRE(!(vertex && spec.periodic[d]),
                  "hcart::Multigrid: direction "
                      << d
                      << " is periodic and the hierarchy vertex-centred; "
                         "a periodic problem needs cell-centred levels");
  }
  HCART_REQUIRE(o.full_multigrid_start >= 0,
                "hcart::Multigrid: full_multigrid_start = " << o.full_multigrid_start
                                                            << ", expected cycles a level >= 0");
  HCART_REQUIRE(o.pre_smooth >= 0 && o.post_smooth >= 0 && o.coarse_sweeps >= 0,
                "hcart::Multigrid: sweeps pre " << o.pre_smooth << ", post " << o.post_smooth
                                                << ", coarse " << o.coarse_sweeps
                                                << ", expected counts >= 0");
  if (has_free_space()) {
    for (int side = 0; side < 6; ++side) {
      HCART_REQUIRE(o.boundary[side] == MultigridBoundary::FreeSpace,
                    "hcart::Multigrid: boundary " << side_name(static_cast<Side>(side))
                                                  << " is not FreeSpace where another side is, "
                                                     "expected FreeSpace on every side or none");
      HCART_REQUIRE(!spec.periodic[side / 2],
                    "hcart::Multigrid: boundary "
                        << side_name(static_cast<Side>(side))
                        << " = FreeSpace on a periodic side, expected no periodic direction "
                           "(the expansion is of free space in three dimensions)");
    }
    HCART_REQUIRE(!vertex, "hcart::Multigrid: FreeSpace boundaries with vertex-centred levels, "
                           "expected cell-centred levels");
    HCART_REQUIRE(o.alpha == 0, "hcart::Multigrid: alpha = "
                                    << o.alpha
                                    << " with FreeSpace boundaries, expected 0 (the expansion "
                                       "is of -beta Delta u = f)");
  }
  for (int side = 0; side < 6; ++side) {
    const bool periodic = spec.periodic[side / 2];
    const bool neumann = o.boundary[side] == MultigridBoundary::Neumann;
    HCART_REQUIRE(!(neumann && periodic), "hcart::Multigrid: boundary "
                                              << side_name(static_cast<Side>(side))
                                              << " = Neumann on a periodic side, expected none");
    HCART_REQUIRE(!(neumann && vertex), "hcart::Multigrid: boundary "
                                            << side_name(static_cast<Side>(side))
                                            << " = Neumann with vertex-centred levels, expected "
                                               "Dirichlet (Neumann needs cell-centred levels)");
  }
}

bool Multigrid::singular(double largest_alpha) const {
  const GridSpec& spec = m_hierarchy.decomposition(0).spec();
  if (largest_alpha > 0) return false;
  for (int side = 0; side < 6; ++side) {
    if (!spec.periodic[side / 2] && m_options.boundary[side] != MultigridBoundary::Neumann)
      return false; // Dirichlet or free space: u given on the face
  }
  return true;
}

bool Multigrid::has_free_space() const noexcept {
  return std::any_of(m_options.boundary.begin(), m_options.boundary.end(),
                     [](MultigridBoundary b) { return b == MultigridBoundary::FreeSpace; });
}

// The expansion of f (the caller's, kept in caller_f) and its values on the faces folded into
// f's cells beside them, one side after another (a corner cell takes each of its sides'
// terms, in the same order on every decomposition).
void Multigrid::fold_free_space() {
  Levels& L = *m_levels;
  const Grid& grid = L[0].grid;
  const auto n = grid.global_size();
  Scope scope(m_timers, "free space");
  if (L.caller_f.size() == 0) L.caller_f = grid.make_field<double>("mg caller f");
  Kokkos::deep_copy(L.caller_f, L[0].f);
  impl::MultigridCellCentres c{};
  double volume = 1;
  for (int d = 0; d < 3; ++d) {
    c.offset[d] = grid.global_index(d, 0);
    c.h[d] = m_options.length[d] / static_cast<double>(n[d]);
    c.half[d] = 0.5 * m_options.length[d];
    volume *= c.h[d];
  }
  const auto moments =
      reproducible_sums<10>(grid.decomposition().comm(), "mg_free_space_moments", grid.owned_box(),
                            impl::MultigridMoments{accessor(L[0].f), c, volume});
  for (int m = 0; m < 10; ++m)
    m_free_space.moments[m] = moments[m];
  m_free_space.scale = 1 / (4 * kPi * m_options.beta);
  const Box owned = grid.owned_box();
  for (int d = 0; d < 3; ++d) {
    for (int side = 0; side < 2; ++side) {
      if (!grid.block().is_physical(d, side)) continue;
      Box layer = owned;
      if (side == 0)
        layer.hi[d] = layer.lo[d] + 1;
      else
        layer.lo[d] = layer.hi[d] - 1;
      for_each_cell("mg_free_space_fold", layer,
                    impl::MultigridFreeSpaceFold{accessor(L[0].f), c, m_free_space, d,
                                                 side == 0 ? -c.half[d] : c.half[d],
                                                 2 * m_options.beta / (c.h[d] * c.h[d])});
    }
  }
  fence("mg_free_space");
}

// The mean of level 0's field over the owned cells of all ranks, taken out (a sum that is
// the same bits on every decomposition).
void Multigrid::remove_mean(const Field<double>& field) {
  const Grid& grid = (*m_levels)[0].grid;
  const auto n = grid.global_size();
  Scope scope(m_timers, "mean");
  const auto sum = reproducible_sums<1>(grid.decomposition().comm(), "mg_mean", grid.owned_box(),
                                        impl::MultigridValue{accessor(field)});
  const double mean =
      sum[0] / (static_cast<double>(n[0]) * static_cast<double>(n[1]) * static_cast<double>(n[2]));
  for_each_cell("mg_shift", grid.owned_box(), impl::MultigridShift{accessor(field), mean});
  fence("mg_shift");
}

std::string Multigrid::region(int l, const char* what) const {
  return "mg level " + std::to_string(l) + " " + what;
}

void Multigrid::set_up() {
  const bool vertex = m_hierarchy.options().centering == LevelCentering::Vertex;
  m_levels = std::make_unique<Levels>(m_hierarchy, [&](const Grid& grid, int) {
    impl::MultigridLevel level;
    const auto n = grid.global_size();
    const double extra = vertex ? 1.0 : 0.0; // intervals: n + 1 between boundary points
    level.stencil = impl::multigrid_stencil(
        m_options.alpha, m_options.beta, static_cast<double>(n[0]) + extra,
        static_cast<double>(n[1]) + extra, static_cast<double>(n[2]) + extra, m_options.length[0],
        m_options.length[1], m_options.length[2]);
    level.u = grid.make_field<double>("mg u");
    level.f = grid.make_field<double>("mg f");
    level.r = grid.make_field<double>("mg r");
    if (m_options.smoother == MultigridSmoother::Jacobi) level.v = grid.make_field<double>("mg v");
    return level;
  });
  if (m_options.conjugate_gradients) {
    Levels& L = *m_levels;
    const Grid& top = L[0].grid;
    for (Field<double>* f : {&L.cg_x, &L.cg_f, &L.cg_r, &L.cg_p, &L.cg_q})
      *f = top.make_field<double>("mg cg");
    L.cg_p_faces = L[0].halo.bind(L.cg_p);
  }
  for (int l = 0; l < m_levels->size(); ++l) {
    if (!m_levels->holds(l)) continue;
    auto& level = (*m_levels)[l];
    level.u_faces = level.halo.bind(level.u);
    level.u_full = level.halo.bind(HaloMode::Full, level.u);
    level.r_full = level.halo.bind(HaloMode::Full, level.r);
    if (vertex) continue; // the boundary points are the halo: no conditions
    for (int side = 0; side < 6; ++side) {
      if (!level.boundaries.applicable(static_cast<Side>(side))) continue;
      level.conditions[static_cast<std::size_t>(side)] =
          m_options.boundary[side] == MultigridBoundary::Neumann
              ? BoundaryCondition::reflecting()
              : BoundaryCondition::reflecting_odd();
    }
  }
  fence("mg_setup");
}

void Multigrid::set_coefficients(const Field<double>& alpha, const Field<double>& beta) {
  auto& top = (*m_levels)[0];
  const MPI_Comm comm = top.grid.decomposition().comm();
  agree_on_errors(comm, [&] {
    HCART_REQUIRE(m_hierarchy.options().centering == LevelCentering::Cell,
                  "hcart::Multigrid::set_coefficients: the hierarchy's levels are vertex-centred, "
                  "expected cell-centred levels (variable coefficients are cell-centred)");
    HCART_REQUIRE(!has_free_space(),
                  "hcart::Multigrid::set_coefficients: the boundaries are FreeSpace, expected "
                  "Dirichlet, Neumann or periodic sides (the free-space expansion is of a "
                  "constant beta)");
    for (const auto& [name, field] : {std::pair{"alpha", &alpha}, std::pair{"beta", &beta}}) {
      for (int d = 0; d < 3; ++d) {
        HCART_REQUIRE(static_cast<int>(field->extent(d)) == static_cast<int>(top.u.extent(d)),
                      "hcart::Multigrid::set_coefficients: "
                          << name << "'s extent " << field->extent(d) << " in direction " << d
                          << ", expected " << top.u.extent(d)
                          << " (a field of the hierarchy's level 0 grid)");
      }
    }
  });
  ReductionArray<double, 4> check{};
  reduce_cells("mg_coefficient_check", top.grid.owned_box(),
               impl::MultigridCoefficientCheck{accessor(alpha), accessor(beta)},
               Maxima<double, 4>(check));
  max_over_ranks(comm, check);
  agree_on_errors(comm, [&] {
    HCART_REQUIRE(!(check[2] > 0), "hcart::Multigrid::set_coefficients: alpha or beta is not "
                                   "finite (NaN or infinity) in some cell, expected finite values");
    HCART_REQUIRE(check[0] < 0, "hcart::Multigrid::set_coefficients: beta = "
                                    << -check[0]
                                    << " in some cell, expected beta > 0 in every cell");
    HCART_REQUIRE(check[1] <= 0, "hcart::Multigrid::set_coefficients: alpha = "
                                     << -check[1]
                                     << " in some cell, expected alpha >= 0 in every cell");
  });
  // Every held level's fields; level 0's from the caller's, the coarser ones their means.
  for (int l = 0; l < m_levels->size(); ++l) {
    if (!m_levels->holds(l)) continue;
    auto& level = (*m_levels)[l];
    if (level.alpha.size() == 0) {
      for (Field<double>* f :
           {&level.alpha, &level.beta, &level.bx, &level.by, &level.bz, &level.inv_diag})
        *f = level.grid.make_field<double>("mg coefficient");
    }
  }
  Kokkos::deep_copy(top.alpha, alpha);
  Kokkos::deep_copy(top.beta, beta);
  for (int l = 0; l + 1 < m_levels->size() && m_levels->holds(l); ++l) {
    auto& level = (*m_levels)[l];
    const bool below = m_levels->holds(l + 1);
    restrict_cells(m_hierarchy, l + 1, level.alpha,
                   below ? (*m_levels)[l + 1].alpha : m_levels->none);
    restrict_cells(m_hierarchy, l + 1, level.beta,
                   below ? (*m_levels)[l + 1].beta : m_levels->none);
  }
  for (int l = 0; l < m_levels->size(); ++l) {
    if (!m_levels->holds(l)) continue;
    auto& level = (*m_levels)[l];
    // beta across the faces: the neighbours' by the exchange, the inside cell's at a
    // physical side (its mirror image).
    level.halo.exchange(level.beta);
    SideConditions mirror;
    for (int side = 0; side < 6; ++side) {
      if (level.boundaries.applicable(static_cast<Side>(side)))
        mirror[static_cast<std::size_t>(side)] = BoundaryCondition::reflecting();
    }
    level.boundaries.apply(level.beta, mirror);
    const auto n = level.grid.global_size();
    const Box owned = level.grid.owned_box();
    const Field<double>* faces[3] = {&level.bx, &level.by, &level.bz};
    for (int d = 0; d < 3; ++d) {
      const double per_length = static_cast<double>(n[d]) / m_options.length[d];
      Box box = owned; // the owned cells' low faces and the last one's high face
      box.hi[d] += 1;
      for_each_cell("mg_face_coefficients", box,
                    impl::MultigridFaceCoefficient{accessor(level.beta), accessor(*faces[d]), d,
                                                   per_length * per_length});
    }
    for_each_cell("mg_diagonal", owned,
                  impl::MultigridDiagonal{accessor(level.alpha), accessor(level.bx),
                                          accessor(level.by), accessor(level.bz),
                                          accessor(level.inv_diag)});
    level.coefficients = {accessor(level.alpha), accessor(level.bx), accessor(level.by),
                          accessor(level.bz), accessor(level.inv_diag)};
  }
  fence("mg_coefficients");
  m_variable = true;
  m_singular = singular(check[3]);
}

const Field<double>& Multigrid::solution() const {
  return (*m_levels)[0].u;
}

const Field<double>& Multigrid::rhs() const {
  return (*m_levels)[0].f;
}

// Cell-centred: the ghosts behind the physical sides from the conditions (after an
// exchange); vertex-centred levels keep their boundary points.
void Multigrid::boundaries(int l, const Field<double>& field) const {
  if (m_hierarchy.options().centering == LevelCentering::Vertex) return;
  auto& level = (*m_levels)[l];
  level.boundaries.apply(field, level.conditions);
}

long Multigrid::coarse_sweeps() const {
  if (m_options.coarse_sweeps > 0) return m_options.coarse_sweeps;
  const auto n = m_hierarchy.global_size(m_hierarchy.size() - 1);
  return 4 * (std::max({n[0], n[1], n[2]}) + 1);
}

void Multigrid::smooth(int l, long sweeps) {
  auto& level = (*m_levels)[l];
  impl::with_operator(level, m_variable, [&](const auto& op) { smooth_with(l, sweeps, op); });
}

template <class Operator>
void Multigrid::smooth_with(int l, long sweeps, const Operator& op) {
  auto& level = (*m_levels)[l];
  const Grid& grid = level.grid;
  const Box owned = grid.owned_box();
  const auto exchange = [&] {
    Scope scope(m_timers, region(l, "halo"));
    level.u_faces.exchange();
    boundaries(l, level.u);
  };
  const FieldAccessor<double> u = accessor(level.u);
  const impl::MultigridPointValue<Operator> point{u, accessor(level.f), op};
  for (long s = 0; s < sweeps; ++s) {
    if (m_options.smoother == MultigridSmoother::Jacobi) {
      exchange();
      Scope scope(m_timers, region(l, "smooth"));
      for_each_cell("mg_jacobi", owned,
                    impl::MultigridJacobi<Operator>{u, accessor(level.v), accessor(level.f), op,
                                                    kJacobiOmega});
      // Back into u (its bindings and the transfers keep one allocation).
      for_each_cell("mg_copy", owned, impl::MultigridCopy{accessor(level.v), u});
    } else if constexpr (host_execution) {
      // Both colours in one pass over memory where no black cell needs another rank's red
      // one, the rest after the exchange (ColouredLoops.hpp): the same bits as a pass per
      // colour, a sweep 1.15-1.3 times faster (docs/benchmarks.md, "Multigrid").
      exchange();
      {
        Scope scope(m_timers, region(l, "smooth"));
        for_each_red_black_interior("mg_gauss_seidel", grid, owned, u, point);
      }
      exchange();
      Scope scope(m_timers, region(l, "smooth"));
      for_each_red_black_shell("mg_gauss_seidel", grid, owned, u, point);
    } else {
      for (int colour = 0; colour < 2; ++colour) {
        exchange();
        Scope scope(m_timers, region(l, "smooth"));
        for_each_coloured_cell(
            "mg_gauss_seidel", grid, owned, colour,
            impl::StorePoint<double, impl::MultigridPointValue<Operator>>{u, point});
      }
    }
  }
}

void Multigrid::residual(int l) {
  auto& level = (*m_levels)[l];
  {
    Scope scope(m_timers, region(l, "halo"));
    level.u_faces.exchange();
    boundaries(l, level.u);
  }
  Scope scope(m_timers, region(l, "residual"));
  impl::with_operator(level, m_variable, [&](const auto& op) {
    using Operator = std::decay_t<decltype(op)>;
    for_each_cell("mg_residual", level.grid.owned_box(),
                  impl::MultigridResidual<Operator>{accessor(level.u), accessor(level.f),
                                                    accessor(level.r), op});
  });
}

// Level l's r restricted into level l + 1's f, whose u starts at zero (ranks of level l).
void Multigrid::restrict_residual(int l) {
  auto& level = (*m_levels)[l];
  {
    // Full weighting reads the residual's neighbours across ranks, edges and corners too.
    Scope scope(m_timers, region(l, "halo"));
    level.r_full.exchange();
  }
  Scope scope(m_timers, region(l + 1, "restrict"));
  if (!m_levels->holds(l + 1)) { // agglomerated onto another rank: this rank sends its piece
    restrict_cells(m_hierarchy, l + 1, level.r, m_levels->none);
    return;
  }
  auto& below = (*m_levels)[l + 1];
  Kokkos::deep_copy(ExecutionSpace(), below.u, 0.0); // unwaited
  restrict_cells(m_hierarchy, l + 1, level.r, below.f);
}

// Level l + 1's u (a correction) interpolated and added to level l's (ranks of level l).
void Multigrid::add_correction(int l) {
  auto& level = (*m_levels)[l];
  const bool held = m_levels->holds(l + 1);
  if (held) {
    Scope scope(m_timers, region(l + 1, "halo"));
    (*m_levels)[l + 1].u_full.exchange();
    boundaries(l + 1, (*m_levels)[l + 1].u);
  }
  Scope scope(m_timers, region(l + 1, "prolong"));
  prolong_cells(m_hierarchy, l + 1, held ? (*m_levels)[l + 1].u : m_levels->none, level.u);
}

void Multigrid::cycle_on(int l, MultigridCycle kind) {
  if (l == m_hierarchy.size() - 1) {
    smooth(l, coarse_sweeps());
    return;
  }
  smooth(l, m_options.pre_smooth);
  residual(l);
  restrict_residual(l);
  if (m_levels->holds(l + 1)) {
    cycle_on(l + 1, kind);
    // An F-cycle follows its F-cycle on the level below with a V-cycle there.
    if (kind == MultigridCycle::F && l + 1 < m_hierarchy.size() - 1)
      cycle_on(l + 1, MultigridCycle::V);
  }
  add_correction(l);
  smooth(l, m_options.post_smooth);
}

void Multigrid::cycle() {
  cycle_on(0, m_options.cycle);
}

void Multigrid::full_multigrid(int cycles_per_level) {
  HCART_CHECK(cycles_per_level >= 1, "hcart::Multigrid::full_multigrid: cycles_per_level "
                                         << cycles_per_level << ", expected at least 1");
  if (m_singular) remove_mean(rhs());
  const int coarsest = m_hierarchy.size() - 1;
  // The residual of the current solution down every level: level l + 1's f is level l's
  // residual (l = 0) or f (below), restricted.
  residual(0);
  restrict_residual(0);
  for (int l = 1; l < coarsest && m_levels->holds(l); ++l) {
    auto& level = (*m_levels)[l];
    Kokkos::deep_copy(level.r, level.f);
    restrict_residual(l);
  }
  // The coarsest correction, then each level's from the one below, up to level 1.
  if (m_levels->holds(coarsest)) cycle_on(coarsest, m_options.cycle);
  for (int l = coarsest - 1; l >= 1; --l) {
    if (!m_levels->holds(l)) continue;
    auto& level = (*m_levels)[l];
    Kokkos::deep_copy(level.u, 0.0);
    add_correction(l);
    for (int c = 0; c < cycles_per_level; ++c)
      cycle_on(l, m_options.cycle);
  }
  // Level 0: the correction added to the solution, then cycles on the problem itself.
  if (coarsest > 0) add_correction(0);
  for (int c = 0; c < cycles_per_level; ++c)
    cycle();
  if (m_singular) remove_mean(solution());
}

double Multigrid::residual_norm() {
  auto& top = (*m_levels)[0];
  {
    Scope scope(m_timers, region(0, "halo"));
    top.u_faces.exchange();
    boundaries(0, top.u);
  }
  Scope scope(m_timers, "residual");
  ReductionArray<long long, 1> bits{};
  impl::with_operator(top, m_variable, [&](const auto& op) {
    using Operator = std::decay_t<decltype(op)>;
    reduce_cells("mg_norm", top.grid.owned_box(),
                 impl::MultigridResidualNorm<Operator>{accessor(top.u), accessor(top.f), op},
                 Maxima<long long, 1>(bits));
  });
  max_over_ranks(top.grid.decomposition().comm(), bits);
  const double norm = impl::from_magnitude_bits(bits[0]); // the largest |f - A u|
  if (!std::isfinite(norm)) {
    Error error("hcart::Multigrid: the solution is no longer finite (a value overflowed or "
                "became NaN: check the right-hand side, the boundary values and the first "
                "guess)");
    error.set_collective(true);
    throw error;
  }
  return norm;
}

MultigridResult Multigrid::solve(double tolerance, long max_cycles) {
  MultigridResult result;
  if (m_singular) remove_mean(rhs());
  const bool free_space = has_free_space();
  if (free_space) fold_free_space();
  const auto give_back_rhs = [&] { // f as the caller wrote it, also after an error
    if (!free_space) return;
    Kokkos::deep_copy((*m_levels)[0].f, m_levels->caller_f);
    fence("mg_free_space");
  };
  try {
    cycles_until(tolerance, max_cycles, result);
  } catch (...) {
    give_back_rhs();
    throw;
  }
  if (m_singular) remove_mean(solution());
  give_back_rhs();
  return result;
}

// solve()'s cycles: a full-multigrid start where the options ask for one, then cycles (or
// conjugate gradients) until the residual falls by `tolerance` or `max_cycles` are spent.
void Multigrid::cycles_until(double tolerance, long max_cycles, MultigridResult& result) {
  result.initial_residual = residual_norm();
  result.residual = result.initial_residual;
  const double target = tolerance * result.initial_residual;
  if (m_options.full_multigrid_start > 0 && !(result.residual <= target)) {
    full_multigrid(m_options.full_multigrid_start);
    result.cycles = m_options.full_multigrid_start;
    result.residual = residual_norm();
  }
  while (result.cycles < max_cycles && !(result.residual <= target)) {
    if (m_options.conjugate_gradients) {
      conjugate_gradients(target, max_cycles, result);
    } else {
      cycle();
      ++result.cycles;
    }
    result.residual = residual_norm();
  }
  result.converged = result.residual <= target;
}

// Flexible conjugate gradients (the direction's coefficient from z.(r_new - r_old), which
// tolerates a preconditioner that is not exactly symmetric, as a red-black V-cycle is not),
// one cycle from zero the preconditioner; every dot product a sum of the same bits on every
// decomposition (hcart/grid/ReproducibleSums.hpp), so the iterates are too. Level 0's u and f
// serve the cycle (z and the residual it solves for); the iterate and the right-hand side
// wait in cg_x and cg_f. Stops where the updated residual's maximum reaches `target` or at
// `max_cycles` cycles in all.
void Multigrid::conjugate_gradients(double target, long max_cycles, MultigridResult& result) {
  Levels& L = *m_levels;
  auto& top = L[0];
  const Box owned = top.grid.owned_box();
  const MPI_Comm comm = top.grid.decomposition().comm();
  residual(0);
  Kokkos::deep_copy(L.cg_r, top.r);
  Kokkos::deep_copy(L.cg_x, top.u);
  Kokkos::deep_copy(L.cg_f, top.f);
  const auto dots = [&](const Field<double>& a, const Field<double>& b, const Field<double>& c,
                        const Field<double>& d) {
    Scope scope(m_timers, "cg");
    return reproducible_sums<2>(
        comm, "mg_cg_dots", owned,
        impl::MultigridDots{accessor(a), accessor(b), accessor(c), accessor(d)});
  };
  const auto precondition = [&] { // z = one cycle on A z = r, from zero, into level 0's u
    Kokkos::deep_copy(top.f, L.cg_r);
    Kokkos::deep_copy(top.u, 0.0);
    cycle();
    ++result.cycles;
    if (m_singular) remove_mean(top.u);
  };
  precondition();
  Kokkos::deep_copy(L.cg_p, top.u);
  double rho = dots(top.u, L.cg_r, top.u, L.cg_r)[0];
  while (true) {
    {
      Scope scope(m_timers, region(0, "halo"));
      L.cg_p_faces.exchange();
      boundaries(0, L.cg_p);
    }
    {
      Scope scope(m_timers, "cg");
      impl::with_operator(top, m_variable, [&](const auto& op) {
        using Operator = std::decay_t<decltype(op)>;
        for_each_cell("mg_cg_apply", owned,
                      impl::MultigridApply<Operator>{accessor(L.cg_p), accessor(L.cg_q), op});
      });
    }
    const double alpha = rho / dots(L.cg_p, L.cg_q, L.cg_p, L.cg_q)[0];
    ReductionArray<long long, 1> bits{};
    {
      Scope scope(m_timers, "cg");
      reduce_cells("mg_cg_step", owned,
                   impl::MultigridStep{accessor(L.cg_x), accessor(L.cg_r), accessor(L.cg_p),
                                       accessor(L.cg_q), alpha},
                   Maxima<long long, 1>(bits));
      max_over_ranks(comm, bits);
    }
    const double largest = impl::from_magnitude_bits(bits[0]);
    if (largest <= target || result.cycles >= max_cycles || !(largest == largest)) break;
    precondition();
    const auto zq_zr = dots(top.u, L.cg_q, top.u, L.cg_r);
    const double beta = -alpha * zq_zr[0] / rho;
    rho = zq_zr[1];
    Scope scope(m_timers, "cg");
    for_each_cell("mg_cg_direction", owned,
                  impl::MultigridDirection{accessor(top.u), accessor(L.cg_p), beta});
  }
  Kokkos::deep_copy(top.u, L.cg_x);
  Kokkos::deep_copy(top.f, L.cg_f);
  fence("mg_cg");
}

HaloCounters Multigrid::halo_counters() const {
  HaloCounters sum = (*m_levels)[0].halo.counters();
  for (int l = 1; l < m_levels->size(); ++l) {
    if (m_levels->holds(l)) sum += (*m_levels)[l].halo.counters();
  }
  return sum;
}

} // namespace hcart
