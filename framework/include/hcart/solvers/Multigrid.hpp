// hcart::Multigrid: a geometric multigrid solver on a grid hierarchy
// (hcart/grid/GridHierarchy.hpp) for the Helmholtz problem
//
//   alpha u - beta Delta u = f      on a box of lengths L_d, 7-point stencil,
//
// cell- or vertex-centred (the hierarchy's centering), by V- or F-cycles or full multigrid.
//
//   hcart::HierarchyOptions h;                         // cell-centred by default
//   const hcart::GridHierarchy levels(MPI_COMM_WORLD, spec, h); // level 0 nested_spec's
//   hcart::Multigrid mg(levels);                       // -Delta u = f, Dirichlet 0, unit cube
//   hcart::for_each_cell("rhs", grid.owned_box(), Fill{mg.rhs(), ...});
//   const hcart::MultigridResult r = mg.solve(1e-10, 50); // max |f - A u| fell by 1e-10
//   // mg.solution(): u on level 0 (halo included)
//
// Spacing: h_d = L_d / n_d cell-centred, L_d / (n_d + 1) vertex-centred (n_d unknowns between
// two boundary points, which are the halo), on every level from its own n_d.
// Boundaries, per side (MultigridOptions::boundary; periodic directions come from the grid):
//   - cell-centred: Dirichlet u = 0 on the face (ghost = -inside) or Neumann du/dn = 0 on the
//     face (ghost = inside); non-zero boundary data go into f, as the discretisation's
//     textbooks fold them;
//   - vertex-centred: Dirichlet; the values are level 0's halo of solution(), which the
//     caller fills once (zero by default) and the solver never writes; coarse levels carry
//     the corrections, zero on the boundary;
//   - free space (cell-centred, every side, alpha = 0, constant beta): solve() takes the
//     multipole expansion of f (MultigridFreeSpace) and folds its values on the faces into
//     f as Dirichlet data for its cycles, then gives rhs() back as it found it; cycle() and
//     full_multigrid() alone take the faces' values as zero (a correction's).
// Variable coefficients, alpha(x) u - div(beta(x) grad u) = f on cell-centred levels, replace
// the constants after set_coefficients(alpha, beta) (fields of level 0's grid).
// A problem without a Dirichlet side and alpha = 0 (periodic and Neumann sides only) is
// singular: A u = f has a solution only when f sums to zero over the cells, and then any
// constant may be added to it. solve() and full_multigrid() take f's mean out of rhs() first
// (what the continuum's compatibility condition asks; a self-gravity code's "Jeans swindle")
// and the mean of the solution out at the end, so u sums to zero; each mean is a sum that is
// the same bits on every decomposition (hcart/grid/ReproducibleSums.hpp). cycle() alone takes
// neither out.
//
// A cycle on level l: `pre_smooth` sweeps (red-black Gauss-Seidel, or weighted Jacobi with
// omega = 6/7), the residual restricted to level l + 1 (LevelTransfers.hpp: full weighting
// vertex-centred, the children's mean cell-centred), a cycle there from zero (a V-cycle one
// visit; an F-cycle an F-cycle then a V-cycle), its correction interpolated and added,
// `post_smooth` sweeps; the coarsest level, which agglomeration has moved onto one rank
// where the hierarchy's options ask for it, takes `coarse_sweeps` sweeps (0: 4 (n + 1) for
// its largest n). Full multigrid solves the residual equation of the current solution from the
// coarsest level up, a cycle on each level after the interpolation, and then cycles on level 0.
//
// Every operation is pointwise with a fixed order of operands and every norm a maximum: the
// solution, the residuals and the cycle counts are bitwise the same on every rank count,
// strategy and agglomeration rule, on every backend (one kernel source for Serial, OpenMP and
// CUDA). Timers, when given, get one region per level and kind: "mg level L halo", "... smooth",
// "... residual", "... restrict", "... prolong", "residual" for the norm, "mean" for a
// singular problem's means, "cg" for conjugate gradients' own work and "free space" for the
// expansion and its faces' values.
#pragma once

#include <hcart/core/Timers.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/grid/LevelCounters.hpp>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace hcart {

/// \brief The smoother of every level.
enum class MultigridSmoother {
  RedBlack, ///< red-black Gauss-Seidel (two half sweeps, a face exchange before each)
  Jacobi    ///< weighted Jacobi, omega = 6/7
};

/// \brief The cycle run by Multigrid::cycle and solve.
enum class MultigridCycle { V, F };

/// \brief The condition at one physical side.
enum class MultigridBoundary {
  Dirichlet, ///< u given: 0 on the face (cell-centred), level 0's halo (vertex-centred)
  Neumann,   ///< du/dn = 0 on the face (cell-centred only)
  /// Free space (isolated): u on the face from the multipole expansion of f, as if f were
  /// zero outside the box and u vanished far away (MultigridFreeSpace). Every side or none,
  /// no periodic direction, cell-centred, alpha = 0 and constant beta.
  FreeSpace
};

/// \brief The free-space solution of -beta Delta u = f from a source inside the box, far
/// from it: the multipole expansion to the quadrupole about the box's centre,
///
///   u(r) = (M / |r| + D.r / |r|^3 + r^T Q r / (2 |r|^5)) / (4 pi beta),
///
/// with M = sum f V, D = sum f V r and the traceless Q = sum f V (3 r r^T - r^2 I) over the
/// cells (V a cell's volume, r its centre from the box's centre). `moments` holds M, D_x,
/// D_y, D_z, Q_xx, Q_yy, Q_zz, Q_xy, Q_xz, Q_yz; `scale` is 1 / (4 pi beta). The sums are the
/// same bits on every decomposition (hcart/grid/ReproducibleSums.hpp).
struct MultigridFreeSpace {
  Kokkos::Array<double, 10> moments{};
  double scale = 0;
  /// \brief u at (x, y, z) from the box's centre (not at the centre itself).
  KOKKOS_INLINE_FUNCTION double operator()(double x, double y, double z) const {
    const double r2 = x * x + y * y + z * z, r = math::sqrt(r2);
    const double dipole = moments[1] * x + moments[2] * y + moments[3] * z;
    const double quadrupole = moments[4] * x * x + moments[5] * y * y + moments[6] * z * z +
                              2 * (moments[7] * x * y + moments[8] * x * z + moments[9] * y * z);
    return scale * (moments[0] / r + dipole / (r2 * r) + quadrupole / (2 * r2 * r2 * r));
  }
};

struct MultigridOptions {
  double alpha = 0.0; ///< alpha u - beta Delta u = f; alpha >= 0
  double beta = 1.0;  ///< > 0
  /// The domain's length per direction (the spacing follows from each level's size).
  std::array<double, 3> length{{1.0, 1.0, 1.0}};
  /// Per side, in hcart::Side's order (x-, x+, y-, y+, z-, z+); a periodic direction's sides
  /// are periodic, and Neumann there is an error.
  std::array<MultigridBoundary, 6> boundary{};
  MultigridSmoother smoother = MultigridSmoother::RedBlack;
  MultigridCycle cycle = MultigridCycle::V;
  int pre_smooth = 2;
  int post_smooth = 2;
  /// Sweeps on the coarsest level; 0: 4 (n + 1) for its largest size n.
  long coarse_sweeps = 0;
  /// solve() starts with full multigrid, this many cycles a level (full_multigrid), and
  /// cycles on from its result; 0: cycles from the current u alone. From a zero guess two a
  /// level reach a tolerance of 1e-10 in 8 cycles of level 0 where cycles alone take 12
  /// (Jacobi3D's 127^3 Poisson problem, V(2,2)).
  int full_multigrid_start = 0;
  /// solve() runs flexible conjugate gradients with one cycle from zero as the
  /// preconditioner, each iteration one cycle (after a full-multigrid start where one is
  /// asked for): robust where the cycles alone converge slowly (high contrasts of beta), at
  /// an operator product, two dot products and a few vector updates more an iteration.
  bool conjugate_gradients = false;
};

/// \brief What solve() did.
struct MultigridResult {
  long cycles = 0;             ///< cycles run by this call on level 0, a full-multigrid
                               ///< start's included
  double residual = 0;         ///< max |f - A u| after them
  double initial_residual = 0; ///< before them
  bool converged = false;      ///< residual <= tolerance * initial_residual
};

class Multigrid {
public:
  /// \brief Fields and exchangers on every level of `levels` this rank holds (collective over
  /// the ranks of level 0); u and f start at zero. `timers` (optional) must outlive this.
  /// \throws hcart::InputError (on every rank) for options the hierarchy cannot take: alpha <
  /// 0 or beta <= 0, a length <= 0, Neumann on a periodic side or vertex-centred, a periodic
  /// direction vertex-centred, or a negative sweep or start cycle count.
  explicit Multigrid(const GridHierarchy& levels, const MultigridOptions& options = {},
                     Timers* timers = nullptr);
  ~Multigrid();
  Multigrid(const Multigrid&) = delete;
  Multigrid& operator=(const Multigrid&) = delete;

  /// \brief u on level 0 (this rank's block with its halo; vertex-centred, the halo behind
  /// the physical sides holds the Dirichlet values). Write it for a first guess.
  const Field<double>& solution() const;
  /// \brief f on level 0 (owned cells read).
  const Field<double>& rhs() const;

  /// \brief One cycle of options().cycle on level 0 (collective).
  void cycle();
  /// \brief Full multigrid: the residual equation of the current solution solved from the
  /// coarsest level up, `cycles_per_level` cycles on each finer level after the
  /// interpolation, level 0 included (collective). From a zero guess, two cycles a level
  /// reach the discretisation error (0.8 times the converged solution's error against the
  /// continuum, 64^3 cells); one a level 2.3 times it (the interpolation is linear).
  void full_multigrid(int cycles_per_level = 1);
  /// \brief max |f - A u| over level 0's owned cells (collective).
  /// \throws hcart::Error (on every rank) when it is not finite (NaN or infinity).
  double residual_norm();
  /// \brief Cycles until max |f - A u| <= tolerance times its value before the first, or
  /// `max_cycles` of them (collective), after a full-multigrid start where the options ask
  /// for one (its cycles on level 0 counted among them). A singular problem's f and u have
  /// their means taken out (above).
  MultigridResult solve(double tolerance, long max_cycles);
  /// \brief Variable coefficients: alpha(x) u - div(beta(x) grad u) = f from here on, with
  /// alpha and beta per cell of level 0 (fields of levels.grid(0), owned cells read; copied,
  /// so they may go) in place of the options' constants (collective; cell-centred levels).
  /// A face couples its two cells by the harmonic mean of their betas; a coarse level's
  /// alpha and beta are the means of its cells' children (restrict_cells) and its operator
  /// is discretised on them, as on level 0. At a physical side the face takes the inside
  /// cell's beta. Call it again after changing the fields.
  /// \throws hcart::InputError (on every rank) for vertex-centred levels, fields of another
  /// grid's extents, beta <= 0, alpha < 0 or a value that is not finite, naming it.
  void set_coefficients(const Field<double>& alpha, const Field<double>& beta);
  /// \brief True once set_coefficients was called.
  bool has_variable_coefficients() const noexcept { return m_variable; }
  /// \brief True for alpha = 0 (everywhere) without a Dirichlet side (the null space: the
  /// constants).
  bool is_singular() const noexcept { return m_singular; }
  /// \brief The expansion the last solve() took the free-space sides' values from (zero
  /// moments before the first, or without free-space sides): u beyond the box, e.g. for the
  /// ghost cells of a field copied from the solution.
  const MultigridFreeSpace& free_space() const noexcept { return m_free_space; }

  const GridHierarchy& hierarchy() const noexcept { return m_hierarchy; }
  const MultigridOptions& options() const noexcept { return m_options; }
  /// \brief Halo traffic of every level's exchanger this rank holds, summed.
  HaloCounters halo_counters() const;

private:
  struct Levels; // every level's fields beside its grid, exchanger and boundaries
  void check_options() const;
  bool singular(double largest_alpha) const; // alpha 0 everywhere and no Dirichlet side
  void remove_mean(const Field<double>& field);
  bool has_free_space() const noexcept;
  void fold_free_space();
  void cycles_until(double tolerance, long max_cycles, MultigridResult& result);
  void set_up();
  void boundaries(int l, const Field<double>& field) const;
  void conjugate_gradients(double target, long max_cycles, MultigridResult& result);
  void smooth(int l, long sweeps);
  template <class Operator>
  void smooth_with(int l, long sweeps, const Operator& op);
  void residual(int l);
  void restrict_residual(int l);
  void add_correction(int l);
  void cycle_on(int l, MultigridCycle kind);
  long coarse_sweeps() const;
  std::string region(int l, const char* what) const;

  const GridHierarchy& m_hierarchy;
  MultigridOptions m_options;
  Timers* m_timers;
  std::unique_ptr<Levels> m_levels;
  bool m_singular = false;
  bool m_variable = false;
  MultigridFreeSpace m_free_space{};
};

} // namespace hcart
