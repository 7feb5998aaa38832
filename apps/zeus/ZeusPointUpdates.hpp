// ZEUS-like hydrodynamics, point updates: the arithmetic of one zone or face as pure
// functions (no loops, halos or I/O), shared by the kernels (Zeus*Kernels.hpp) and the tests.
#pragma once

#include <hcart/core/ExecutionModel.hpp>

#include <Kokkos_Core.hpp>

namespace hcart::zeus {

/// \brief Ideal gas pressure from the internal energy density: p = (gamma - 1) e.
KOKKOS_INLINE_FUNCTION double pressure(double e, double gamma) {
  return (gamma - 1.0) * e;
}

/// \brief Adiabatic sound speed squared: gamma p / rho, and zero where the internal energy
/// has dipped below zero (cold gas, e.g. Noh's 1e-6 pressure, can undershoot by round-off
/// of the transport; the square root of it would turn the whole state into NaN).
KOKKOS_INLINE_FUNCTION double sound_speed_squared(double d, double e, double gamma) {
  const double c2 = gamma * (gamma - 1.0) * e / d;
  return c2 > 0.0 ? c2 : 0.0;
}

/// \brief Van Leer's monotone slope of a zone from its two one-sided differences: the
/// harmonic mean where they agree in sign, zero at extrema.
KOKKOS_INLINE_FUNCTION double van_leer_slope(double left, double right) {
  const double product = left * right;
  return product > 0.0 ? 2.0 * product / (left + right) : 0.0;
}

/// \brief The time-averaged upwind value at an interface moving at `velocity` (Courant
/// number c = velocity dt / dx): from the upstream zone `upwind_value` with slope
/// `upwind_slope`, q* = q + (1 - |c|) slope / 2 towards the interface.
KOKKOS_INLINE_FUNCTION double upwind(double velocity, double courant, double left_value,
                                     double left_slope, double right_value, double right_slope) {
  return velocity > 0.0 ? left_value + 0.5 * (1.0 - courant) * left_slope
                        : right_value - 0.5 * (1.0 + courant) * right_slope;
}

/// \brief Von Neumann-Richtmyer artificial viscosity of a zone compressed by dv < 0 (the
/// velocity difference across it): q = C2 rho dv^2 + C1 rho c |dv|; zero under expansion.
KOKKOS_INLINE_FUNCTION double viscosity(double d, double dv, double sound_speed, double quadratic,
                                        double linear) {
  return dv < 0.0 ? quadratic * d * dv * dv - linear * d * sound_speed * dv : 0.0;
}

/// \brief Compressional heating over dt with the implicit, time-centred update
/// e <- e (1 - dt (gamma - 1) div v / 2) / (1 + dt (gamma - 1) div v / 2).
KOKKOS_INLINE_FUNCTION double compress(double e, double divergence, double dt, double gamma) {
  const double a = 0.5 * dt * (gamma - 1.0) * divergence;
  return e * (1.0 - a) / (1.0 + a);
}

} // namespace hcart::zeus
