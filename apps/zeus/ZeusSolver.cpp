// The ZEUS solver's run loop: steps (time step, source, transport in alternating order),
// halo refreshes, outputs and checkpoints on time.
#include "ZeusSolver.hpp"

#include "AppTimers.hpp"
#include "ZeusGravity.hpp"

#include <hcart/core/MpiCheck.hpp>
#include <hcart/core/Timers.hpp>

#include <chrono>

namespace hcart::zeus {

namespace {
using Clock = std::chrono::steady_clock;
} // namespace

Solver::Solver(const Grid& grid, const Settings& settings, Timers& timers, const Output& output)
    : m_grid(grid), m_s(settings), m_output(output), m_timers(timers),
      m_d(grid.make_field<double>("density")),
      m_e(grid.make_field<double>("energy")), m_v{grid.make_field<double>("velocity_x"),
                                                  grid.make_field<double>("velocity_y"),
                                                  grid.make_field<double>("velocity_z")},
      m_mflux(grid.make_field<double>("mass_flux")),
      m_eflux(grid.make_field<double>("energy_flux")), m_dn(grid.make_field<double>("density_new")),
      m_en(grid.make_field<double>("energy_new")),
      m_heat(grid.make_field<double>("heat")), m_vn{grid.make_field<double>("vx_new"),
                                                    grid.make_field<double>("vy_new"),
                                                    grid.make_field<double>("vz_new")},
      m_halo(grid, HaloMode::Full), m_bc(grid, HaloMode::Full), m_files(grid, "zeus", output) {
  for (int a = 0; a < 3; ++a)
    m_dx[a] = (m_s.upper[a] - m_s.lower[a]) / static_cast<double>(grid.global_size()[a]);
  initialise();
  if (!output.restart.empty()) restart_from(output.restart);
  refresh();
  if (m_s.gravity.enabled) {
    m_gravity = std::make_unique<Gravity>(grid, m_s, timers);
    solve_gravity();
  }
}

Solver::~Solver() = default;

void Solver::solve_gravity() {
  if (!m_gravity || m_potential_step == m_steps) return;
  m_gravity->solve(m_d);
  m_potential_step = m_steps;
}

void Solver::refresh() {
  refresh(HaloMode::Full, HaloWidth{});
}

void Solver::refresh(HaloMode mode, HaloWidth width) {
  m_halo.exchange(mode, width, m_d, m_e, m_v[0], m_v[1], m_v[2]);
  apps::account_halo_times(m_timers, m_halo, m_accounted);
  boundaries();
}

double Solver::step() {
  solve_gravity(); // the last step's closing solve, kept (or the initial state's)
  const double dt = time_step();
  source(dt); // with gravity's opening half kick
  // Directional splitting, the order alternating xyz / zyx from step to step.
  for (int s = 0; s < 3; ++s)
    transport(m_steps % 2 == 0 ? s : 2 - s, dt);
  m_time += dt;
  m_dt = dt;
  ++m_steps;
  if (m_gravity) {
    // The closing half kick, with the potential of the density the step ended with
    // (kick-drift-kick: second order in time for the gravitational acceleration).
    solve_gravity();
    gravity_kick(0.5 * dt);
  }
  // The next step's time step and pressure gradient read one layer across the faces (each
  // sweep exchanges what it reads itself).
  refresh(HaloMode::Faces, HaloWidth{1});
  return dt;
}

void Solver::after_step() {
  if (m_output.every > 0 && m_steps % m_output.every == 0) write_output();
  if (m_output.checkpoint_every > 0 && m_steps % m_output.checkpoint_every == 0) write_checkpoint();
}

Result Solver::run(const std::function<void(const Progress&)>& progress) {
  Result r;
  const auto t0 = Clock::now();
  auto last = t0;
  const long first = m_steps;
  while (m_time < m_s.t_end && m_steps < m_s.max_steps) {
    const double dt = step();
    after_step();
    if (progress && m_s.progress_seconds > 0) {
      double elapsed = seconds_since(last);
      HCART_MPI_CHECK(MPI_Bcast(&elapsed, 1, MPI_DOUBLE, 0, m_grid.decomposition().comm()));
      if (elapsed >= m_s.progress_seconds) {
        progress({m_steps, m_time, dt, seconds_since(t0)});
        last = Clock::now();
      }
    }
  }
  if (m_output.every == 0 || m_steps % m_output.every != 0) write_output();
  r.steps = m_steps - first;
  r.time = m_time;
  r.seconds = seconds_since(t0);
  return r;
}

} // namespace hcart::zeus
