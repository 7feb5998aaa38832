// The ZEUS-like hydrodynamics solver (docs/zeus.md): density d and internal energy density
// e at zone centres, velocities v[a] on the low faces of the zones in direction a; each step
// a source step (pressure gradient, self-gravity where enabled, von Neumann-Richtmyer
// viscosity with its heating, compressional heating) and a directionally split transport step (van
// Leer upwind interpolation with time averaging, consistent advection of mass, energy and momenta
// on staggered control volumes; sweep order alternating xyz / zyx; the kinetic energy that momentum
// advection destroys turned into heat unless heat_dissipation is off), with the CFL time step.
// Every update is local, so results are bitwise the same on any number of ranks.
//
// The solver in files by concept: ZeusProblem.cpp (initial states, restart),
// ZeusBoundaries.cpp (physical boundaries), ZeusSource.cpp (the source step),
// ZeusGravity.cpp (self-gravity's potential),
// ZeusTransport.cpp (the transport step), ZeusDiagnostics.cpp (time step, totals),
// ZeusOutput.cpp (field files, checkpoints), ZeusSolver.cpp (the run loop), and, for the
// program, ZeusReport.cpp (a run's report and compare mode's table); the kernels of
// each are functors in the Zeus*Kernels.hpp of the same name (ZeusLoops.hpp says how they
// see the fields), their arithmetic in ZeusPointUpdates.hpp.
#pragma once

#include "RunFiles.hpp"
#include "ZeusConfig.hpp"
#include "ZeusLoops.hpp"

#include <hcart/core/Timers.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>

#include <functional>
#include <memory>

namespace hcart::zeus {

class Gravity; // ZeusGravity.hpp

/// The names of the hydro fields in field files and checkpoints, in the solver's order.
inline constexpr const char* field_names[5] = {"density", "energy", "velocity_x", "velocity_y",
                                               "velocity_z"};

struct Progress {
  long step = 0;
  double time = 0, dt = 0, seconds = 0;
};

struct Result {
  long steps = 0;     ///< steps in this run
  double time = 0;    ///< simulated time reached
  double seconds = 0; ///< wall time of this run
};

class Solver {
public:
  /// \brief Sets up the problem's initial state (or continues from output.restart).
  Solver(const Grid& grid, const Settings& settings, Timers& timers, const Output& output = {});
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  /// \brief Steps until t_end or max_steps; writes outputs and checkpoints as configured
  /// and the final state.
  Result run(const std::function<void(const Progress&)>& progress = {});
  /// \brief One step; returns its dt.
  double step();

  const Field<double>& density() const noexcept { return m_d; }
  const Field<double>& energy() const noexcept { return m_e; }
  const Field<double>& velocity(int a) const { return m_v.at(a); }
  double time() const noexcept { return m_time; }
  long steps() const noexcept { return m_steps; }
  const HaloExchanger& halo() const noexcept { return m_halo; }
  /// \brief Self-gravity (null unless [gravity] enabled): its potential is the one of the
  /// current density (each step kicks the velocities by half its dt with the potential of the
  /// density it starts from, and by the other half with the one it ends with).
  const Gravity* gravity() const noexcept { return m_gravity.get(); }
  const Grid& grid() const noexcept { return m_grid; }
  std::array<double, 3> spacing() const noexcept { return m_dx; }
  /// \brief Total mass over all ranks.
  double total_mass() const;
  /// \brief Total energy over all ranks: internal energy plus the kinetic energy of the
  /// face velocities, each with the mean density of the two zones beside its face (the
  /// low faces of the owned zones; the wall faces of reflecting boundaries carry none).
  double total_energy() const;
  /// \brief Writes the fields now (HDF5 + XDMF); returns the file's path.
  std::string write_output();
  std::string write_checkpoint();

private:
  void initialise();
  void restart_from(const std::string& path);
  // Halo exchange and physical boundaries of the five fields: the whole halo, or the layers
  // the next kernels read (`mode`, `width`).
  void refresh();
  void refresh(HaloMode mode, HaloWidth width);
  void boundaries();
  double time_step();
  void source(double dt);
  void transport(int a, double dt);
  void after_step();
  void solve_gravity();         // the potential of the density now, once per step
  void gravity_kick(double dt); // the face velocities accelerated by -grad phi over dt
  // The sum of kernel(c, sum) over the owned zones of all ranks (c: a zone's linear
  // offset), times the zone volume.
  template <class Kernel>
  double integral(const char* label, const Kernel& kernel) const;
  std::vector<NamedField> named_fields() const; // the state (checkpoints)
  // How the fields are laid out (all alike: one grid), and the steps of one zone per
  // direction in them.
  ConstCells layout() const { return ConstCells(m_d); }
  Offsets offsets() const { return offsets_of(layout()); }
  Box owned_box() const { return m_grid.owned_box(); }

  const Grid& m_grid;
  Settings m_s;
  Output m_output;
  Timers& m_timers;
  std::array<double, 3> m_dx{};
  Field<double> m_d, m_e;
  std::array<Field<double>, 3> m_v;
  // Work fields: mass and energy fluxes on faces, new states, dissipated kinetic energy.
  Field<double> m_mflux, m_eflux, m_dn, m_en, m_heat;
  std::array<Field<double>, 3> m_vn;
  HaloExchanger m_halo;
  PhysicalBoundaries m_bc;
  HaloTimes m_accounted;
  std::unique_ptr<Gravity> m_gravity;
  double m_time = 0, m_dt = 0;
  long m_steps = 0;
  long m_potential_step = -1; // the step whose starting density the potential is of
  apps::RunFiles m_files;     // the field series and the checkpoints
};

} // namespace hcart::zeus
