// The ZEUS solver's problems: initial states (Sod, Sedov, Noh, advection) and the
// continuation from a checkpoint.
#include "ZeusProblemKernels.hpp"
#include "ZeusSolver.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/FieldChecks.hpp>
#include <hcart/io/FieldFile.hpp>

#include <algorithm>
#include <array>

namespace hcart::zeus {

void Solver::initialise() {
  InitialState init{};
  for (int a = 0; a < 3; ++a) {
    init.lower[a] = m_s.lower[a];
    init.upper[a] = m_s.upper[a];
    init.velocity[a] = m_s.velocity[a];
    init.dx[a] = m_dx[a];
    init.first[a] = m_grid.global_index(a, 0);
  }
  for (int q = 0; q < 2; ++q) {
    init.sod_left[q] = m_s.sod_left[q];
    init.sod_right[q] = m_s.sod_right[q];
  }
  init.density = m_s.density;
  init.pressure = m_s.pressure;
  init.noh_speed = m_s.noh_speed;
  init.bump_amplitude = m_s.bump_amplitude;
  init.bump_width = m_s.bump_width;
  init.gm1 = m_s.gamma - 1.0;
  init.sphere_radius = m_s.sphere_radius;
  init.sphere_density = m_s.sphere_density;
  init.jeans_amplitude = m_s.jeans_amplitude;
  init.gravity_constant = m_s.gravity.enabled ? m_s.gravity.constant : 0.0;
  init.r0 = std::max(m_s.sedov_radius, 1.5 * std::max({m_dx[0], m_dx[1], m_dx[2]}));
  init.direction = m_s.direction;
  init.problem = m_s.problem;
  init.sine = m_s.bump_shape == "sine";
  // Computed on the host on every backend, then copied: the advection bump's sin and exp
  // may round differently on a device, and a GPU run must start from the bits a CPU run
  // starts from.
  const auto d = host_mirror(m_d), e = host_mirror(m_e);
  const std::array<Field<double>::HostMirror, 3> v = {host_mirror(m_v[0]), host_mirror(m_v[1]),
                                                      host_mirror(m_v[2])};
  init.D = d;
  init.E = e;
  init.V = {v[0], v[1], v[2]};
  if (m_s.problem == Problem::Sedov) {
    // The blast energy, spread evenly over the zones within the deposit radius (all ranks;
    // an eighth of the sphere lies in the domain).
    double local = 0, count = 0;
    reduce_cells("zeus_sedov_count", m_grid.owned_box(), SedovZones{init}, local);
    HCART_MPI_CHECK(
        MPI_Allreduce(&local, &count, 1, MPI_DOUBLE, MPI_SUM, m_grid.decomposition().comm()));
    init.deposit = count > 0 ? m_s.sedov_energy / 8.0 / (count * m_dx[0] * m_dx[1] * m_dx[2]) : 0.0;
  }
  // Zone centres and low faces of every zone (halos included; refresh() overwrites them).
  const auto extent = m_grid.extent();
  Kokkos::parallel_for(
      "zeus_initial",
      Kokkos::MDRangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Rank<3>,
                            Kokkos::IndexType<int>>({0, 0, 0}, {extent[0], extent[1], extent[2]}),
      init);
  Kokkos::deep_copy(m_d, d);
  Kokkos::deep_copy(m_e, e);
  for (int a = 0; a < 3; ++a)
    Kokkos::deep_copy(m_v[a], v[a]);
}

void Solver::restart_from(const std::string& path) {
  auto scope = m_timers.region("io");
  const MPI_Comm comm = m_grid.decomposition().comm();
  const FileContents file = inspect_fields(comm, path);
  agree_on_errors(comm, [&] {
    HCART_REQUIRE(file.metadata.application == "zeus" && file.metadata.kind == "checkpoint",
                  "[output] restart = \"" << path << "\": a " << file.metadata.kind << " of '"
                                          << file.metadata.application
                                          << "', expected a zeus checkpoint");
    for (const char* key : {"time", "dt", "step"}) {
      HCART_REQUIRE(file.metadata.state.count(key) == 1,
                    "[output] restart = \"" << path << "\": no state '" << key << "'");
    }
  });
  // Physics that differs from the checkpoint's run, said (the run's end and length do not
  // change the mathematics of the steps).
  apps::note_restart_differences(comm, "zeus", file.metadata.deck, m_output.deck,
                                 {"hydro.t_end", "hydro.max_steps"});
  Field<double>* fields[5] = {&m_d, &m_e, &m_v[0], &m_v[1], &m_v[2]};
  for (int f = 0; f < 5; ++f)
    read_field(path, m_grid, field_names[f], *fields[f]);
  m_time = file.metadata.state.at("time");
  m_dt = file.metadata.state.at("dt");
  m_steps = static_cast<long>(file.metadata.state.at("step"));
  std::int64_t broken[5];
  for (int f = 0; f < 5; ++f)
    broken[f] = count_non_finite(m_grid, *fields[f]);
  agree_on_errors(comm, [&] {
    for (int f = 0; f < 5; ++f) {
      HCART_REQUIRE(broken[f] == 0, "[output] restart = \""
                                        << path << "\": field '" << field_names[f] << "' holds "
                                        << broken[f] << " values that are NaN or infinite");
    }
    HCART_REQUIRE(m_time < m_s.t_end && m_steps < m_s.max_steps,
                  "[output] restart = \""
                      << path << "\": the checkpoint is at step " << m_steps << ", time " << m_time
                      << ", already at [hydro] t_end = " << m_s.t_end
                      << " or max_steps = " << m_s.max_steps << "; raise them to continue");
  });
}

} // namespace hcart::zeus
