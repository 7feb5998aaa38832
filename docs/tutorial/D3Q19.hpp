// The D3Q19 lattice-Boltzmann kernel of the LBM example (docs/lbm.md, lbm3d.cpp): BGK
// collision fused with a pull stream, on a field of 19 components (the populations), with
// half-way bounce-back walls on the y sides when asked. hcart's user-kernel benchmark runs
// the same arithmetic as a plain loop (bench/LbmPlain.cpp), so both share collide().
//
// Lattice units: spacing and time step 1, sound speed 1/sqrt(3), viscosity nu = (tau - 1/2)/3.
#pragma once

#include <hcart/grid/FieldAccessor.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

// A program compiles this header once; the benchmark compiles it into objects with other
// instruction sets too (bench/LbmPlain.cpp), each in an inline namespace of its own
// (LBM_FLAVOUR), so that the linker never takes one object's copy of a function for another.
#ifndef LBM_FLAVOUR
#define LBM_FLAVOUR flavour_default
#endif

namespace lbm {
inline namespace LBM_FLAVOUR {

constexpr int kQ = 19;

/// Component d (0: x, 1: y, 2: z) of velocity q: the rest particle, the 6 faces, the 12
/// edges; opposite velocities are neighbours (1 and 2, 3 and 4, ...).
KOKKOS_INLINE_FUNCTION constexpr int velocity(int q, int d) {
  constexpr int e[kQ][3] = {{0, 0, 0},  {1, 0, 0},   {-1, 0, 0},  {0, 1, 0},   {0, -1, 0},
                            {0, 0, 1},  {0, 0, -1},  {1, 1, 0},   {-1, -1, 0}, {1, -1, 0},
                            {-1, 1, 0}, {1, 0, 1},   {-1, 0, -1}, {1, 0, -1},  {-1, 0, 1},
                            {0, 1, 1},  {0, -1, -1}, {0, 1, -1},  {0, -1, 1}};
  return e[q][d];
}
/// The velocity opposite to q.
KOKKOS_INLINE_FUNCTION constexpr int opposite(int q) {
  return q == 0 ? 0 : (q % 2 == 1 ? q + 1 : q - 1);
}
/// The weight of velocity q: 1/3 at rest, 1/18 along a face, 1/36 along an edge.
KOKKOS_INLINE_FUNCTION constexpr double weight(int q) {
  return q == 0 ? 1.0 / 3.0 : (q < 7 ? 1.0 / 18.0 : 1.0 / 36.0);
}

/// f(std::integral_constant<int, q>) for q = 0 .. 18, unrolled at compile time: every
/// velocity and weight is then a constant in the arithmetic, on every compiler.
template <class F, int... Q>
KOKKOS_FORCEINLINE_FUNCTION void each_q(const F& f, std::integer_sequence<int, Q...>) {
  (f(std::integral_constant<int, Q>{}), ...);
}
template <class F>
KOKKOS_FORCEINLINE_FUNCTION void each_q(const F& f) {
  each_q(f, std::make_integer_sequence<int, kQ>{});
}

/// The equilibrium population q of density rho and velocity (ux, uy, uz).
KOKKOS_INLINE_FUNCTION double equilibrium(int q, double rho, double ux, double uy, double uz) {
  const double eu = velocity(q, 0) * ux + velocity(q, 1) * uy + velocity(q, 2) * uz;
  const double usq = ux * ux + uy * uy + uz * uz;
  return weight(q) * rho * (1.0 + 3.0 * eu + 4.5 * eu * eu - 1.5 * usq);
}

/// BGK collision of one cell's populations, in place: each relaxes towards the equilibrium
/// of the cell's density and velocity at rate omega = 1/tau.
KOKKOS_FORCEINLINE_FUNCTION void collide(double (&p)[kQ], double omega) {
  double rho = 0.0, mx = 0.0, my = 0.0, mz = 0.0;
  each_q([&](auto q) {
    constexpr int Q = decltype(q)::value;
    rho += p[Q];
    mx += velocity(Q, 0) * p[Q];
    my += velocity(Q, 1) * p[Q];
    mz += velocity(Q, 2) * p[Q];
  });
  const double inverse = 1.0 / rho;
  const double ux = mx * inverse, uy = my * inverse, uz = mz * inverse;
  each_q([&](auto q) {
    constexpr int Q = decltype(q)::value;
    p[Q] += omega * (equilibrium(Q, rho, ux, uy, uz) - p[Q]);
  });
}

/// One time step at the cells it is launched on: each population pulled from the cell it
/// comes from, x - e_q (its linear offset `from[q]` before), or, where that cell is a wall
/// (WallBelow: the y side below this row; WallAbove: above), the cell's own opposite
/// population of the last step, which went into the wall and came back (half-way
/// bounce-back: the wall sits half a cell beyond the last row); then collide().
template <bool WallBelow, bool WallAbove>
struct StreamCollide {
  hcart::ComponentAccessor<const double> f; // the last step's populations, halos filled
  hcart::ComponentAccessor<double> g;       // this step's
  Kokkos::Array<std::int64_t, kQ> from;     // offset of x - e_q from x
  double omega;

  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const std::int64_t x = f.offset(i, j, k);
    double p[kQ];
    each_q([&](auto q) {
      constexpr int Q = decltype(q)::value;
      constexpr int ey = velocity(Q, 1);
      if ((WallBelow && ey > 0) || (WallAbove && ey < 0)) {
        p[Q] = f(opposite(Q), x);
      } else {
        p[Q] = f(Q, x + from[Q]);
      }
    });
    collide(p, omega);
    each_q([&](auto q) {
      constexpr int Q = decltype(q)::value;
      g(Q, x) = p[Q];
    });
  }
};

/// The offsets of x - e_q from x, for a field with the strides of `f`.
template <class Accessor>
Kokkos::Array<std::int64_t, kQ> pull_offsets(const Accessor& f) {
  Kokkos::Array<std::int64_t, kQ> from{};
  for (int q = 0; q < kQ; ++q) {
    from[q] = -(velocity(q, 0) * f.stride(0) + velocity(q, 1) * f.stride(1) +
                velocity(q, 2) * f.stride(2));
  }
  return from;
}

} // namespace LBM_FLAVOUR
} // namespace lbm
