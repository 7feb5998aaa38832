// The ZEUS solver's diagnostics: the CFL time step and the totals of mass and energy.
#include "ZeusDiagnosticsKernels.hpp"
#include "ZeusGravity.hpp"
#include "ZeusSolver.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace hcart::zeus {

double Solver::time_step() {
  auto scope = m_timers.region("dt");
  const InverseTimeStepSquared kernel{m_d,
                                      m_e,
                                      {m_v[0], m_v[1], m_v[2]},
                                      offsets(),
                                      {m_dx[0], m_dx[1], m_dx[2]},
                                      std::min({m_dx[0], m_dx[1], m_dx[2]}),
                                      m_s.gamma,
                                      m_s.q_quadratic,
                                      m_gravity ? m_gravity->potential() : m_d,
                                      m_gravity != nullptr};
  double worst = 0;
  reduce_zones("zeus_dt", owned_box(), layout(), kernel, Kokkos::Max<double>(worst));
  double global = 0;
  HCART_MPI_CHECK(
      MPI_Allreduce(&worst, &global, 1, MPI_DOUBLE, MPI_MAX, m_grid.decomposition().comm()));
  // Every rank holds the same value: the error is collective.
  if (!std::isfinite(global) || !(global > 0)) {
    Error error("the state is no longer finite at step " + std::to_string(m_steps) + ", time " +
                std::to_string(m_time) +
                " (a NaN, an infinity or a negative energy; check the deck and the restart file)");
    error.set_collective(true);
    throw error;
  }
  double dt = m_s.cfl / std::sqrt(global);
  if (m_dt > 0) dt = std::min(dt, m_s.dt_growth * m_dt);
  if (m_time + dt > m_s.t_end) dt = m_s.t_end - m_time;
  return dt;
}

template <class Kernel>
double Solver::integral(const char* label, const Kernel& kernel) const {
  double local = 0;
  reduce_zones(label, owned_box(), layout(), kernel, local);
  double global = 0;
  HCART_MPI_CHECK(
      MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, m_grid.decomposition().comm()));
  return global * m_dx[0] * m_dx[1] * m_dx[2];
}

double Solver::total_mass() const {
  return integral("zeus_mass", MassDensity{m_d});
}

double Solver::total_energy() const {
  return integral("zeus_energy", EnergyDensity{m_d, m_e, {m_v[0], m_v[1], m_v[2]}, offsets()});
}

} // namespace hcart::zeus
