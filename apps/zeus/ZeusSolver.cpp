#include "ZeusSolver.hpp"

#include "AppDeck.hpp"
#include "AppTimers.hpp"
#include "zeus_kernels.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/io/FieldFile.hpp>
#include <hcart/io/Xdmf.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace hcart::zeus {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Steps of one cell in each direction, in elements (LayoutRight: k fastest).
struct Strides {
  long s[3];
};
Strides strides_of(const Field<double>& f) {
  return {{static_cast<long>(f.stride(0)), static_cast<long>(f.stride(1)), 1L}};
}

// Runs f(c) for every cell of the box [lo, hi), with c the cell's linear offset.
template <class F>
void for_cells(const char* label, const std::array<int, 3>& lo, const std::array<int, 3>& hi,
               const Strides& st, const F& f) {
  for (int d = 0; d < 3; ++d) {
    if (lo[d] >= hi[d]) return;
  }
  const long s0 = st.s[0], s1 = st.s[1];
  Kokkos::parallel_for(
      label, Grid::box_policy(lo, hi),
      KOKKOS_LAMBDA(int i, int j, int k) { f(i * s0 + j * s1 + k); });
}

const char* field_names[5] = {"density", "energy", "velocity_x", "velocity_y", "velocity_z"};

} // namespace

Hydro::Hydro(const Grid& grid, const Settings& settings, Timers& timers, const Output& output)
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
      m_halo(grid, HaloMode::Full) {
  for (int a = 0; a < 3; ++a)
    m_dx[a] = (m_s.upper[a] - m_s.lower[a]) / static_cast<double>(grid.global_size()[a]);
  initialise();
  if (!output.restart.empty()) {
    auto scope = m_timers.region("io");
    const MPI_Comm comm = grid.decomposition().comm();
    const FileContents file = inspect_fields(comm, output.restart);
    agree_on_errors(comm, [&] {
      HCART_REQUIRE(file.metadata.application == "zeus" && file.metadata.kind == "checkpoint",
                    "[output] restart = \"" << output.restart << "\": a " << file.metadata.kind
                                            << " of '" << file.metadata.application
                                            << "', expected a zeus checkpoint");
      for (const char* key : {"time", "dt", "step"}) {
        HCART_REQUIRE(file.metadata.state.count(key) == 1,
                      "[output] restart = \"" << output.restart << "\": no state '" << key << "'");
      }
    });
    Field<double>* fields[5] = {&m_d, &m_e, &m_v[0], &m_v[1], &m_v[2]};
    for (int f = 0; f < 5; ++f)
      read_field(output.restart, grid, field_names[f], *fields[f]);
    m_time = file.metadata.state.at("time");
    m_dt = file.metadata.state.at("dt");
    m_steps = static_cast<long>(file.metadata.state.at("step"));
  }
  refresh();
}

void Hydro::initialise() {
  const Strides st = strides_of(m_d);
  const auto h = m_grid.halo_width();
  const auto off = m_grid.global_offset();
  const auto e = m_grid.extent();
  const std::array<int, 3> all_lo{0, 0, 0};
  // Plain values only in the kernel (no std::string), so it stays valid on devices.
  struct Initial {
    std::array<double, 3> lower, upper, velocity;
    std::array<double, 2> sod_left, sod_right;
    double density, pressure, noh_speed, bump_amplitude, bump_width;
    int direction;
    Problem problem;
    bool sine;
  };
  const Initial s{m_s.lower,
                  m_s.upper,
                  m_s.velocity,
                  m_s.sod_left,
                  m_s.sod_right,
                  m_s.density,
                  m_s.pressure,
                  m_s.noh_speed,
                  m_s.bump_amplitude,
                  m_s.bump_width,
                  m_s.direction,
                  m_s.problem,
                  m_s.bump_shape == "sine"};
  const double sedov_energy = m_s.sedov_energy;
  const auto dx = m_dx;
  double* D = m_d.data();
  double* E = m_e.data();
  double* V0 = m_v[0].data();
  double* V1 = m_v[1].data();
  double* V2 = m_v[2].data();
  const double gm1 = m_s.gamma - 1.0;
  // Zone centres and low faces of every cell (halos included; refresh() overwrites them).
  auto centre = [=](int a, int local) {
    return s.lower[a] + (static_cast<double>(off[a] + local - h[a]) + 0.5) * dx[a];
  };
  const double pi = 3.14159265358979323846;
  double deposit_count = 0; // Sedov: zones within the deposit radius, all ranks
  const double r0 = std::max(m_s.sedov_radius, 1.5 * std::max({dx[0], dx[1], dx[2]}));
  if (s.problem == Problem::Sedov) {
    double local = 0;
    Kokkos::parallel_reduce(
        "zeus_sedov_count", m_grid.owned_policy(),
        KOKKOS_LAMBDA(int i, int j, int k, double& count) {
          const double x = centre(0, i) - s.lower[0], y = centre(1, j) - s.lower[1],
                       z = centre(2, k) - s.lower[2];
          if (x * x + y * y + z * z < r0 * r0) count += 1.0;
        },
        local);
    HCART_MPI_CHECK(MPI_Allreduce(&local, &deposit_count, 1, MPI_DOUBLE, MPI_SUM,
                                  m_grid.decomposition().comm()));
  }
  const double deposit =
      deposit_count > 0 ? sedov_energy / 8.0 / (deposit_count * dx[0] * dx[1] * dx[2]) : 0.0;
  const long s0 = st.s[0], s1 = st.s[1];
  Kokkos::parallel_for(
      "zeus_initial", Grid::box_policy(all_lo, e), KOKKOS_LAMBDA(int i, int j, int k) {
        const long c = i * s0 + j * s1 + k;
        const double x[3] = {centre(0, i), centre(1, j), centre(2, k)};
        double rho = s.density, p = s.pressure, v[3] = {0, 0, 0};
        switch (s.problem) {
        case Problem::Sod: {
          const double mid = 0.5 * (s.lower[s.direction] + s.upper[s.direction]);
          const bool left = x[s.direction] < mid;
          rho = left ? s.sod_left[0] : s.sod_right[0];
          p = left ? s.sod_left[1] : s.sod_right[1];
          break;
        }
        case Problem::Sedov: {
          const double r2 = (x[0] - s.lower[0]) * (x[0] - s.lower[0]) +
                            (x[1] - s.lower[1]) * (x[1] - s.lower[1]) +
                            (x[2] - s.lower[2]) * (x[2] - s.lower[2]);
          if (r2 < r0 * r0) p += gm1 * deposit;
          break;
        }
        case Problem::Noh: v[s.direction] = -s.noh_speed; break;
        case Problem::Advection: {
          double bump = 0;
          if (s.sine) {
            bump = std::sin(2 * pi * (x[0] - s.lower[0]) / (s.upper[0] - s.lower[0]));
          } else {
            double r2 = 0;
            for (int a = 0; a < 3; ++a) {
              const double m = 0.5 * (s.lower[a] + s.upper[a]);
              r2 += (x[a] - m) * (x[a] - m);
            }
            bump = std::exp(-r2 / (2 * s.bump_width * s.bump_width));
          }
          rho = s.density * (1.0 + s.bump_amplitude * bump);
          for (int a = 0; a < 3; ++a)
            v[a] = s.velocity[a];
          break;
        }
        }
        D[c] = rho;
        E[c] = p / gm1;
        V0[c] = v[0];
        V1[c] = v[1];
        V2[c] = v[2];
      });
  Kokkos::fence();
}

void Hydro::boundaries() {
  auto scope = m_timers.region("boundary");
  const Decomposition& decomp = m_grid.decomposition();
  const Strides st = strides_of(m_d);
  const auto h = m_grid.halo_width();
  const auto n = m_grid.local_size();
  const auto ext = m_grid.extent();
  double* fields[5] = {m_d.data(), m_e.data(), m_v[0].data(), m_v[1].data(), m_v[2].data()};
  for (int a = 0; a < 3; ++a) {
    for (int side = 0; side < 2; ++side) {
      std::array<int, 3> o{0, 0, 0};
      o[a] = side == 0 ? -1 : 1;
      if (decomp.neighbour(o) != MPI_PROC_NULL) continue;
      const bool reflect = m_s.boundary[2 * a + side] == Boundary::Reflecting;
      std::array<int, 3> lo{0, 0, 0}, hi = ext;
      // The ghost layers of this face, over the whole extent of the other directions.
      lo[a] = side == 0 ? 0 : h[a] + n[a];
      hi[a] = side == 0 ? h[a] : ext[a];
      const long sa = st.s[a];
      const int ha = h[a], na = n[a];
      for (int f = 0; f < 5; ++f) {
        double* q = fields[f];
        const bool normal = f == 2 + a; // the velocity normal to this face
        // Index of the cell in direction a that a ghost cell at index g copies, and the sign.
        const long s0 = st.s[0], s1 = st.s[1];
        Kokkos::parallel_for(
            "zeus_boundary", Grid::box_policy(lo, hi), KOKKOS_LAMBDA(int i, int j, int k) {
              const int idx[3] = {i, j, k};
              const int g = idx[a];
              const long c = i * s0 + j * s1 + k;
              int src;
              double sign = 1.0;
              if (!normal) {
                src = side == 0 ? (reflect ? 2 * ha - 1 - g : ha)
                                : (reflect ? 2 * (ha + na) - 1 - g : ha + na - 1);
              } else if (side == 0) {
                src = reflect ? 2 * ha - g : ha; // faces mirror about the wall face ha
                sign = reflect ? -1.0 : 1.0;
              } else {
                src = reflect ? 2 * (ha + na) - g : ha + na - 1; // wall face ha + na
                sign = reflect ? -1.0 : 1.0;
              }
              q[c] = (normal && reflect && g == ha + na) ? 0.0 : sign * q[c + (src - g) * sa];
            });
        if (normal && reflect && side == 0) {
          // The wall face itself is owned: no flow through it.
          std::array<int, 3> wlo = lo, whi = hi;
          wlo[a] = ha;
          whi[a] = ha + 1;
          for_cells(
              "zeus_wall", wlo, whi, st, KOKKOS_LAMBDA(long c) { q[c] = 0.0; });
        }
      }
    }
  }
  Kokkos::fence();
}

void Hydro::refresh() {
  m_halo.exchange(m_d, m_e, m_v[0], m_v[1], m_v[2]);
  apps::account_halo_times(m_timers, m_halo, m_accounted);
  boundaries();
}

double Hydro::time_step() {
  auto scope = m_timers.region("dt");
  const Strides st = strides_of(m_d);
  const double* D = m_d.data();
  const double* E = m_e.data();
  const double* V[3] = {m_v[0].data(), m_v[1].data(), m_v[2].data()};
  const double gamma = m_s.gamma, q2 = m_s.q_quadratic;
  const auto dx = m_dx;
  const double dxmin = std::min({dx[0], dx[1], dx[2]});
  const long s0 = st.s[0], s1 = st.s[1];
  const long sa[3] = {st.s[0], st.s[1], st.s[2]};
  double worst = 0;
  Kokkos::parallel_reduce(
      "zeus_dt", m_grid.owned_policy(),
      KOKKOS_LAMBDA(int i, int j, int k, double& inv) {
        const long c = i * s0 + j * s1 + k;
        double sum = sound_speed_squared(D[c], E[c], gamma) / (dxmin * dxmin);
        for (int a = 0; a < 3; ++a) {
          const double vbar = 0.5 * (V[a][c] + V[a][c + sa[a]]);
          const double dv = V[a][c + sa[a]] - V[a][c];
          const double visc = dv < 0 ? 4.0 * q2 * (-dv) / dx[a] : 0.0;
          sum += vbar * vbar / (dx[a] * dx[a]) + visc * visc;
        }
        inv = sum > inv ? sum : inv;
      },
      Kokkos::Max<double>(worst));
  double global = 0;
  HCART_MPI_CHECK(
      MPI_Allreduce(&worst, &global, 1, MPI_DOUBLE, MPI_MAX, m_grid.decomposition().comm()));
  double dt = m_s.cfl / std::sqrt(global);
  if (m_dt > 0) dt = std::min(dt, m_s.dt_growth * m_dt);
  if (m_time + dt > m_s.t_end) dt = m_s.t_end - m_time;
  return dt;
}

void Hydro::source(double dt) {
  const Strides st = strides_of(m_d);
  const auto h = m_grid.halo_width();
  const auto n = m_grid.local_size();
  const std::array<int, 3> lo{h[0], h[1], h[2]}, hi{h[0] + n[0], h[1] + n[1], h[2] + n[2]};
  const double gamma = m_s.gamma, q2 = m_s.q_quadratic, q1 = m_s.q_linear;
  const double* D = m_d.data();
  {
    // Pressure gradient on the owned faces.
    auto scope = m_timers.region("compute");
    const double* E = m_e.data();
    for (int a = 0; a < 3; ++a) {
      double* V = m_v[a].data();
      const long sa = st.s[a];
      const double dx = m_dx[a];
      for_cells(
          "zeus_pressure", lo, hi, st, KOKKOS_LAMBDA(long c) {
            V[c] -= dt * 2.0 * (pressure(E[c], gamma) - pressure(E[c - sa], gamma)) /
                    ((D[c] + D[c - sa]) * dx);
          });
    }
    Kokkos::fence();
  }
  refresh();
  {
    // Artificial viscosity: new face velocities from the old ones, then viscous heating.
    auto scope = m_timers.region("compute");
    double* E = m_e.data();
    for (int a = 0; a < 3; ++a) {
      const double* V = m_v[a].data();
      double* VN = m_vn[a].data();
      const long sa = st.s[a];
      const double dx = m_dx[a];
      for_cells(
          "zeus_viscosity", lo, hi, st, KOKKOS_LAMBDA(long c) {
            const long b = c - sa; // the zone below this face
            const double q_here = viscosity(
                D[c], V[c + sa] - V[c], std::sqrt(sound_speed_squared(D[c], E[c], gamma)), q2, q1);
            const double q_below = viscosity(
                D[b], V[c] - V[b], std::sqrt(sound_speed_squared(D[b], E[b], gamma)), q2, q1);
            VN[c] = V[c] - dt * 2.0 * (q_here - q_below) / ((D[c] + D[b]) * dx);
          });
    }
    const double* V[3] = {m_v[0].data(), m_v[1].data(), m_v[2].data()};
    const long s[3] = {st.s[0], st.s[1], st.s[2]};
    const auto dx = m_dx;
    for_cells(
        "zeus_viscous_heating", lo, hi, st, KOKKOS_LAMBDA(long c) {
          const double cs = std::sqrt(sound_speed_squared(D[c], E[c], gamma));
          double heat = 0;
          for (int a = 0; a < 3; ++a) {
            const double dv = V[a][c + s[a]] - V[a][c];
            heat += viscosity(D[c], dv, cs, q2, q1) * dv / dx[a];
          }
          E[c] -= dt * heat;
        });
    Kokkos::fence();
    for (int a = 0; a < 3; ++a)
      std::swap(m_v[a], m_vn[a]);
  }
  refresh();
  {
    // Compressional heating, implicit and time-centred.
    auto scope = m_timers.region("compute");
    double* E = m_e.data();
    const double* V[3] = {m_v[0].data(), m_v[1].data(), m_v[2].data()};
    const long s[3] = {st.s[0], st.s[1], st.s[2]};
    const auto dx = m_dx;
    for_cells(
        "zeus_compression", lo, hi, st, KOKKOS_LAMBDA(long c) {
          const double divergence = (V[0][c + s[0]] - V[0][c]) / dx[0] +
                                    (V[1][c + s[1]] - V[1][c]) / dx[1] +
                                    (V[2][c + s[2]] - V[2][c]) / dx[2];
          E[c] = compress(E[c], divergence, dt, gamma);
        });
    Kokkos::fence();
  }
}

void Hydro::sweep(int a, double dt) {
  refresh();
  auto scope = m_timers.region("compute");
  const Strides st = strides_of(m_d);
  const auto h = m_grid.halo_width();
  const auto n = m_grid.local_size();
  const long sa = st.s[a];
  const double dx = m_dx[a];
  const double* D = m_d.data();
  const double* E = m_e.data();
  const double* VA = m_v[a].data();
  double* MF = m_mflux.data();
  double* EF = m_eflux.data();
  double* DN = m_dn.data();
  double* EN = m_en.data();
  // Fluxes on the a-faces of the owned zones and one layer around them.
  std::array<int, 3> lo{h[0] - 1, h[1] - 1, h[2] - 1},
      hi{h[0] + n[0] + 1, h[1] + n[1] + 1, h[2] + n[2] + 1};
  std::array<int, 3> face_hi = hi;
  face_hi[a] += 1;
  for_cells(
      "zeus_mass_flux", lo, face_hi, st, KOKKOS_LAMBDA(long c) {
        const double v = VA[c], courant = v * dt / dx;
        const long l = c - sa, ll = c - 2 * sa, r = c + sa;
        const double d_star = upwind(v, courant, D[l], van_leer_slope(D[l] - D[ll], D[c] - D[l]),
                                     D[c], van_leer_slope(D[c] - D[l], D[r] - D[c]));
        const double el = E[l] / D[l], ell = E[ll] / D[ll], ec = E[c] / D[c], er = E[r] / D[r];
        const double e_star = upwind(v, courant, el, van_leer_slope(el - ell, ec - el), ec,
                                     van_leer_slope(ec - el, er - ec));
        MF[c] = d_star * v * dt;
        EF[c] = e_star * MF[c];
      });
  for_cells(
      "zeus_density", lo, hi, st, KOKKOS_LAMBDA(long c) {
        DN[c] = D[c] - (MF[c + sa] - MF[c]) / dx;
        EN[c] = E[c] - (EF[c + sa] - EF[c]) / dx;
      });
  const std::array<int, 3> olo{h[0], h[1], h[2]}, ohi{h[0] + n[0], h[1] + n[1], h[2] + n[2]};
  // With heat_dissipation, each momentum kernel also leaves in HEAT, on the faces of its
  // control volumes, the kinetic energy that the advection of that momentum destroyed: the
  // old kinetic energy of the control volume, less the kinetic energy carried across its
  // ends by the same mass fluxes at the same upwind velocities, less the new kinetic energy.
  // Half of it goes to each zone beside the face, so the sweep conserves e + kinetic
  // energy to round-off instead of losing what the mixing of momenta dissipates (DeBar's
  // kinetic energy fix of Lagrange-remap codes). The kernels run up to the high face of
  // the owned zones in their direction, which the heating of the last zone needs.
  const bool heat = m_s.heat_dissipation;
  double* HEAT = m_heat.data();
  const auto deposit = [&](int b) {
    if (!heat) return;
    const long sb = st.s[b];
    for_cells(
        "zeus_dissipation", olo, ohi, st,
        KOKKOS_LAMBDA(long c) { EN[c] += 0.5 * (HEAT[c] + HEAT[c + sb]); });
  };
  {
    // Momentum along a, on control volumes centred on the a-faces; fluxes at zone centres.
    double* VN = m_vn[a].data();
    std::array<int, 3> fhi = ohi;
    fhi[a] += 1;
    for_cells(
        "zeus_momentum", olo, fhi, st, KOKKOS_LAMBDA(long c) {
          auto slope = [&](long g) {
            return van_leer_slope(VA[g] - VA[g - sa], VA[g + sa] - VA[g]);
          };
          auto carried = [&](long z) { // velocity carried through the centre of zone z
            const double vbar = 0.5 * (VA[z] + VA[z + sa]);
            return upwind(vbar, vbar * dt / dx, VA[z], slope(z), VA[z + sa], slope(z + sa));
          };
          const double mass_here = 0.5 * (MF[c] + MF[c + sa]);
          const double mass_below = 0.5 * (MF[c - sa] + MF[c]);
          const double v_here = carried(c), v_below = carried(c - sa);
          const double before = 0.5 * (D[c - sa] + D[c]);
          const double s = before * VA[c] - (v_here * mass_here - v_below * mass_below) / dx;
          VN[c] = s / (0.5 * (DN[c - sa] + DN[c]));
          if (heat) {
            const double kinetic =
                0.5 * before * VA[c] * VA[c] -
                0.5 * (v_here * v_here * mass_here - v_below * v_below * mass_below) / dx;
            HEAT[c] = kinetic - 0.5 * s * VN[c];
          }
        });
    Kokkos::fence();
    deposit(a);
  }
  for (int b = 0; b < 3; ++b) {
    if (b == a) continue;
    // Momentum along b, on control volumes centred on the b-faces, moved by the a-fluxes.
    const double* VB = m_v[b].data();
    double* VN = m_vn[b].data();
    const long sb = st.s[b];
    std::array<int, 3> fhi = ohi;
    fhi[b] += 1;
    for_cells(
        "zeus_transverse", olo, fhi, st, KOKKOS_LAMBDA(long c) {
          auto slope = [&](long z) {
            return van_leer_slope(VB[z] - VB[z - sa], VB[z + sa] - VB[z]);
          };
          auto mass = [&](long f) { return 0.5 * (MF[f] + MF[f - sb]); };
          auto carried = [&](long f) { // velocity carried through the a-face f of this volume
            const double v = 0.5 * (VA[f] + VA[f - sb]);
            return upwind(v, v * dt / dx, VB[f - sa], slope(f - sa), VB[f], slope(f));
          };
          const double m_high = mass(c + sa), m_low = mass(c);
          const double v_high = carried(c + sa), v_low = carried(c);
          const double before = 0.5 * (D[c - sb] + D[c]);
          const double s = before * VB[c] - (v_high * m_high - v_low * m_low) / dx;
          VN[c] = s / (0.5 * (DN[c - sb] + DN[c]));
          if (heat) {
            const double kinetic = 0.5 * before * VB[c] * VB[c] -
                                   0.5 * (v_high * v_high * m_high - v_low * v_low * m_low) / dx;
            HEAT[c] = kinetic - 0.5 * s * VN[c];
          }
        });
    Kokkos::fence();
    deposit(b);
  }
  Kokkos::fence();
  std::swap(m_d, m_dn);
  std::swap(m_e, m_en);
  for (int b = 0; b < 3; ++b)
    std::swap(m_v[b], m_vn[b]);
}

double Hydro::step() {
  const double dt = time_step();
  source(dt);
  // Directional splitting, the order alternating xyz / zyx from step to step.
  for (int s = 0; s < 3; ++s)
    sweep(m_steps % 2 == 0 ? s : 2 - s, dt);
  refresh();
  m_time += dt;
  m_dt = dt;
  ++m_steps;
  return dt;
}

template <class F>
double Hydro::integral(const char* label, const F& f) const {
  const Strides st = strides_of(m_d);
  const long s0 = st.s[0], s1 = st.s[1];
  double local = 0;
  Kokkos::parallel_reduce(
      label, m_grid.owned_policy(),
      KOKKOS_LAMBDA(int i, int j, int k, double& sum) { sum += f(i * s0 + j * s1 + k); }, local);
  double global = 0;
  HCART_MPI_CHECK(
      MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, m_grid.decomposition().comm()));
  return global * m_dx[0] * m_dx[1] * m_dx[2];
}

double Hydro::total_mass() const {
  const double* D = m_d.data();
  return integral(
      "zeus_mass", KOKKOS_LAMBDA(long c) { return D[c]; });
}

double Hydro::total_energy() const {
  const Strides st = strides_of(m_d);
  const double* D = m_d.data();
  const double* E = m_e.data();
  const double* V[3] = {m_v[0].data(), m_v[1].data(), m_v[2].data()};
  const long s[3] = {st.s[0], st.s[1], st.s[2]};
  return integral(
      "zeus_energy", KOKKOS_LAMBDA(long c) {
        double kinetic = 0;
        for (int a = 0; a < 3; ++a)
          kinetic += 0.25 * (D[c] + D[c - s[a]]) * V[a][c] * V[a][c];
        return E[c] + kinetic;
      });
}

std::vector<std::pair<std::string, Field<double>>> Hydro::named_fields() const {
  return {{field_names[0], m_d},
          {field_names[1], m_e},
          {field_names[2], m_v[0]},
          {field_names[3], m_v[1]},
          {field_names[4], m_v[2]}};
}

std::string Hydro::write_output() {
  auto scope = m_timers.region("io");
  const std::string path = apps::numbered_file(m_output.directory, "zeus", m_steps);
  FileMetadata meta = apps::file_metadata("zeus", "output", m_time, m_steps, m_output);
  write_fields(path, m_grid, named_fields(), meta);
  const std::string name = std::filesystem::path(path).filename().string();
  m_outputs.emplace_back(name, m_time);
  XdmfGeometry geometry;
  geometry.centering = XdmfCentering::Cell;
  for (int a = 0; a < 3; ++a) {
    geometry.origin[a] = m_s.lower[a];
    geometry.spacing[a] = m_dx[a];
  }
  const auto g = m_grid.global_size();
  const std::vector<std::string> names(field_names, field_names + 5);
  agree_on_errors(m_grid.decomposition().comm(), [&] {
    if (m_grid.decomposition().rank() != 0) return;
    write_xdmf(path.substr(0, path.size() - 3) + ".xmf", name, g, names, m_time, geometry);
    write_xdmf_series((std::filesystem::path(m_output.directory) / "zeus.xmf").string(), m_outputs,
                      g, names, geometry);
  });
  return path;
}

std::string Hydro::write_checkpoint() {
  auto scope = m_timers.region("io");
  const std::string path = apps::numbered_file(m_output.directory, "checkpoint", m_steps);
  FileMetadata meta = apps::file_metadata("zeus", "checkpoint", m_time, m_steps, m_output);
  meta.state = {{"time", m_time}, {"dt", m_dt}, {"step", static_cast<double>(m_steps)}};
  write_fields(path, m_grid, named_fields(), meta);
  apps::keep_newest(m_checkpoints, path, m_output.checkpoint_keep,
                    m_grid.decomposition().rank() == 0);
  return path;
}

void Hydro::after_step() {
  if (m_output.every > 0 && m_steps % m_output.every == 0) write_output();
  if (m_output.checkpoint_every > 0 && m_steps % m_output.checkpoint_every == 0) write_checkpoint();
}

Result Hydro::run(const std::function<void(const Progress&)>& progress) {
  Result r;
  const auto t0 = Clock::now();
  auto last = t0;
  const long first = m_steps;
  while (m_time < m_s.t_end && m_steps < m_s.max_steps) {
    const double dt = step();
    after_step();
    if (progress && m_s.progress_seconds > 0) {
      double elapsed = since(last);
      HCART_MPI_CHECK(MPI_Bcast(&elapsed, 1, MPI_DOUBLE, 0, m_grid.decomposition().comm()));
      if (elapsed >= m_s.progress_seconds) {
        progress({m_steps, m_time, dt, since(t0)});
        last = Clock::now();
      }
    }
  }
  if (m_output.every == 0 || m_steps % m_output.every != 0) write_output();
  r.steps = m_steps - first;
  r.time = m_time;
  r.seconds = since(t0);
  return r;
}

} // namespace hcart::zeus
