// Self-gravity in the hydro solver ([gravity], apps/zeus/ZeusGravity.hpp) against exact
// solutions: the potential of a uniform sphere (isolated boundaries, second order), the growth
// rate of a Jeans-unstable wave in a periodic box (the dispersion relation, within 2%), and the
// pressure-free collapse of a uniform sphere (its central density against the free-fall
// solution up to 0.9 of the free-fall time); and each of them the same bits on every rank
// count as on one rank, and after a restart on another. The physics runs on 1 and 2 ranks and is
// skipped on more, where the bits are checked (ZeusPhysicsTest.cpp says why small meshes stay off
// many ranks).
#include "ZeusGravity.hpp"

#include "Sanitized.hpp"
#include "ZeusRun.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace hcart;
using namespace hcart::test::zeus_run;
using hcart::test::first_ranks;
using hcart::test::world_rank;

namespace {

constexpr double kPi = 3.14159265358979323846;

// The physics on 1 and 2 ranks; started on more (the bits' runs), it is skipped, and under the
// sanitizers (CI stage 2), where the bits' runs take every path of the same three problems.
template <class Body>
void on_two_ranks(Body body) {
  HCART_TEST_SKIP_IF_SANITIZED("the physics runs without the sanitizers");
  if (hcart::test::world_size() > 2) GTEST_SKIP() << "the physics runs on 1 and 2 ranks";
  hcart::test::on_first_ranks(2, body);
}

std::string sphere_deck(int n, double pressure = 1.0) {
  return "[mesh]\nsize = [" + std::to_string(n) + ", " + std::to_string(n) + ", " +
         std::to_string(n) +
         "]\n[hydro]\ngamma = 1.6666666666666667\n[problem]\nname = \"sphere\"\n"
         "sphere_radius = 0.25\nsphere_density = 1.0\ndensity = 1e-9\npressure = " +
         std::to_string(pressure) + "\n[gravity]\nenabled = true\n";
}

// The exact potential of a uniform sphere of density 1 and radius R = 0.25 centred in the unit
// cube, G = 1 (the ambient 1e-9 left out: 1e-9 of the potential).
double sphere_potential(double r) {
  const double R = 0.25;
  return r < R ? -2 * kPi * (R * R - r * r / 3) : -4 * kPi * R * R * R / (3 * r);
}

// The mean and the largest |phi - exact| over the zones of all ranks, against max |exact|.
std::array<double, 2> sphere_error(const Simulation& run) {
  const auto phi = gather(run, run.hydro->gravity()->potential());
  std::array<double, 2> error{0.0, 0.0};
  if (!phi.empty()) {
    const auto n = run.grid->global_size();
    const double h = 1.0 / static_cast<double>(n[0]);
    for (std::int64_t i = 0; i < n[0]; ++i)
      for (std::int64_t j = 0; j < n[1]; ++j)
        for (std::int64_t k = 0; k < n[2]; ++k) {
          const double x = (i + 0.5) * h - 0.5, y = (j + 0.5) * h - 0.5, z = (k + 0.5) * h - 0.5;
          const double exact = sphere_potential(std::sqrt(x * x + y * y + z * z));
          const double e =
              std::fabs(phi[static_cast<std::size_t>((i * n[1] + j) * n[2] + k)] - exact);
          error[0] += e / static_cast<double>(n[0] * n[1] * n[2]);
          error[1] = std::max(error[1], e);
        }
  }
  MPI_Bcast(error.data(), 2, MPI_DOUBLE, 0, run.decomp->comm());
  for (double& e : error)
    e /= 2 * kPi * 0.25 * 0.25;
  return error;
}

// The Jeans wave: rho0 = 1, c^2 = gamma p / rho = 1, one wavelength along x (k = 2 pi) and
// 4 pi G rho0 = 2 c^2 k^2: omega = c k = 2 pi. 64 zones per wavelength, 8 across.
std::string jeans_deck(double t_end) {
  return "[mesh]\nsize = [64, 8, 8]\nupper = [1.0, 0.125, 0.125]\n[boundary]\n"
         "x_lower = \"periodic\"\nx_upper = \"periodic\"\ny_lower = \"periodic\"\n"
         "y_upper = \"periodic\"\nz_lower = \"periodic\"\nz_upper = \"periodic\"\n"
         "[hydro]\ngamma = 1.6666666666666667\nt_end = " +
         std::to_string(t_end) +
         "\n[problem]\nname = \"jeans\"\ndensity = 1.0\npressure = 0.6\njeans_amplitude = "
         "1e-4\n[gravity]\nenabled = true\nboundary = \"periodic\"\nconstant = " +
         std::to_string(2 * kPi) + "\n";
}

// The amplitude of the density wave: 2 <(rho / rho_mean - 1) cos k x> over x.
double wave_amplitude(const Simulation& run) {
  const auto rho = profile(run, run.hydro->density(), 0);
  double mean = 0;
  for (double r : rho)
    mean += r;
  mean /= static_cast<double>(rho.size());
  double a = 0;
  for (std::size_t i = 0; i < rho.size(); ++i) {
    const double x = (static_cast<double>(i) + 0.5) / static_cast<double>(rho.size());
    a += (rho[i] / mean - 1.0) * std::cos(2 * kPi * x);
  }
  return 2 * a / static_cast<double>(rho.size());
}

// The pressure-free collapse: a sphere of density 1 and radius 0.25 in 1e-4, G = 1, cold;
// Courant number 0.1 (inputs/zeus/collapse.toml says why).
std::string collapse_deck(int n, double t_end) {
  return "[mesh]\nsize = [" + std::to_string(n) + ", " + std::to_string(n) + ", " +
         std::to_string(n) +
         "]\n[hydro]\ngamma = 1.6666666666666667\ncfl = 0.1\nt_end = " + std::to_string(t_end) +
         "\n[problem]\nname = \"sphere\"\nsphere_radius = 0.25\nsphere_density = 1.0\n"
         "density = 1e-4\npressure = 1e-6\n[gravity]\nenabled = true\n";
}

// The free-fall time of density 1 with G = 1, and the density of a uniform sphere falling
// freely from rest at t: t / t_ff = (2 / pi) (sqrt(x (1 - x)) + acos(sqrt x)), x = r / r0,
// rho = 1 / x^3 (bisection on x).
const double kFreeFall = std::sqrt(3 * kPi / 32);
double free_fall_density(double t) {
  double lo = 0, hi = 1;
  for (int it = 0; it < 100; ++it) {
    const double x = 0.5 * (lo + hi);
    const double tau = 2 / kPi * (std::sqrt(x * (1 - x)) + std::acos(std::sqrt(x)));
    (tau > t / kFreeFall ? lo : hi) = x;
  }
  const double x = 0.5 * (lo + hi);
  return 1 / (x * x * x);
}

// The mean density of the 8 zones around the domain's centre.
double central_density(const Simulation& run) {
  const auto rho = gather(run, run.hydro->density());
  double c = 0;
  if (!rho.empty()) {
    const auto n = run.grid->global_size();
    for (std::int64_t i = n[0] / 2 - 1; i <= n[0] / 2; ++i)
      for (std::int64_t j = n[1] / 2 - 1; j <= n[1] / 2; ++j)
        for (std::int64_t k = n[2] / 2 - 1; k <= n[2] / 2; ++k)
          c += rho[static_cast<std::size_t>((i * n[1] + j) * n[2] + k)] / 8;
  }
  MPI_Bcast(&c, 1, MPI_DOUBLE, 0, run.decomp->comm());
  return c;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

} // namespace

// The mean error is second order (measured: 1.53e-4, 3.82e-5 and 9.33e-6 of the central
// potential on 32^3, 64^3 and 128^3: orders 2.00 and 2.03). The largest, in the zones the
// surface cuts, where the density jumps, converges more slowly (1.11e-3, 3.92e-4, 1.18e-4:
// orders 1.5 and 1.7).
TEST(ZeusGravity, UniformSpherePotentialIsSecondOrder) {
  on_two_ranks([&](MPI_Comm comm) {
    std::array<double, 2> error[2];
    const int zones[2] = {32, 64};
    for (int r = 0; r < 2; ++r) {
      const Simulation run(comm, config(sphere_deck(zones[r])), 0);
      error[r] = sphere_error(run);
    }
    const double order = std::log2(error[0][0] / error[1][0]);
    EXPECT_GT(order, 1.8) << "mean errors " << error[0][0] << " (32^3), " << error[1][0]
                          << " (64^3)";
    EXPECT_LT(order, 2.2) << "mean errors " << error[0][0] << " (32^3), " << error[1][0]
                          << " (64^3)";
    EXPECT_LT(error[1][1], 5e-4) << "64^3: max |phi - exact| / max |exact|";
  });
}

TEST(ZeusGravity, JeansWaveGrowsAtTheDispersionRelationsRate) {
  on_two_ranks([&](MPI_Comm comm) {
    const double t1 = 0.1, t2 = 0.3, omega = 2 * kPi;
    const Simulation early(comm, config(jeans_deck(t1)));
    const Simulation late(comm, config(jeans_deck(t2)));
    const double rate = std::log(wave_amplitude(late) / wave_amplitude(early)) /
                        (late.hydro->time() - early.hydro->time());
    EXPECT_NEAR(rate / omega, 1.0, 0.02) << "growth rate " << rate << ", omega " << omega;
  });
}

// 32^3 zones: the central density within 3% of free fall at 0.5 and 0.75 of the free-fall
// time (measured -0.4% and -1.6%; at 0.9 t_ff, with the sphere 2.8 zones across its radius,
// 32^3 falls behind, and docs/zeus.md shows 64^3 there).
TEST(ZeusGravity, PressureFreeCollapseFollowsFreeFall) {
  on_two_ranks([&](MPI_Comm comm) {
    Simulation run(comm, config(collapse_deck(32, 0.75 * kFreeFall)), 0);
    for (const double fraction : {0.5, 0.75}) {
      while (run.hydro->time() < fraction * kFreeFall * (1 - 1e-12))
        run.hydro->step();
      const double rho = central_density(run), exact = free_fall_density(run.hydro->time());
      EXPECT_NEAR(rho / exact, 1.0, 0.03)
          << "t = " << run.hydro->time() / kFreeFall << " t_ff: central density " << rho
          << ", free fall " << exact;
    }
  });
}

// Each problem on every rank count, strategy and agglomeration rule gives one rank's bits:
// density and potential.
TEST(ZeusGravity, SameBitsOnEveryRankCount) {
  const std::vector<std::string> decks = {sphere_deck(16), jeans_deck(0.05),
                                          collapse_deck(16, 0.3)};
  for (std::size_t d = 0; d < decks.size(); ++d) {
    std::vector<double> one;
    if (MPI_Comm self = first_ranks(1); self != MPI_COMM_NULL) {
      const Simulation run(self, config(decks[d]), 6);
      one = gather(run, run.hydro->density());
      const auto phi = gather(run, run.hydro->gravity()->potential());
      one.insert(one.end(), phi.begin(), phi.end());
      MPI_Comm_free(&self);
    }
    // Every strategy, and every rule for the coarse levels' ranks.
    for (const std::vector<std::string>& settings :
         std::vector<std::vector<std::string>>{{"decomposition.strategy=hierarchical"},
                                               {"decomposition.strategy=mpi"},
                                               {"gravity.agglomeration=none"},
                                               {"gravity.agglomeration=stride"}}) {
      // Without agglomeration every level lives on every rank, which these 16^3 meshes
      // allow on 1, 2, 4 and 8 ranks only.
      const int P = test::world_size();
      if (settings[0] == "gravity.agglomeration=none" && (P & (P - 1)) != 0) continue;
      const Simulation run(MPI_COMM_WORLD, config(decks[d], settings), 6);
      std::vector<double> all = gather(run, run.hydro->density());
      const auto phi = gather(run, run.hydro->gravity()->potential());
      all.insert(all.end(), phi.begin(), phi.end());
      if (world_rank() == 0) {
        EXPECT_TRUE(same_bits(all, one))
            << "deck " << d << ", " << settings[0] << ", dims " << run.decomp->dims()[0] << "x"
            << run.decomp->dims()[1] << "x" << run.decomp->dims()[2];
      }
    }
  }
}

// A checkpoint of the collapse resumed on another rank count gives the bits of the straight
// run: the potential follows from the density, which the checkpoint carries.
TEST(ZeusGravity, CheckpointRestartOnAnotherRankCountIsBitwiseExact) {
  const int P = test::world_size();
  const std::string deck = collapse_deck(16, 0.3);
  std::vector<double> straight;
  {
    const Simulation run(MPI_COMM_WORLD, config(deck), 8);
    straight = gather(run, run.hydro->density());
    const auto phi = gather(run, run.hydro->gravity()->potential());
    straight.insert(straight.end(), phi.begin(), phi.end());
  }
  const std::string directory =
      (std::filesystem::temp_directory_path() / ("hcart-zeus-gravity-restart-" + std::to_string(P)))
          .string();
  std::string checkpoint;
  {
    const Simulation run(MPI_COMM_WORLD, config(deck, {"output.directory=" + directory}), 4);
    checkpoint = run.hydro->write_checkpoint();
  }
  // Half the ranks (16^3 zones nest for the multigrid in blocks of 4: 5 or 7 ranks cannot
  // share them).
  const int readers = P > 1 ? P / 2 : 1;
  if (MPI_Comm comm = first_ranks(readers); comm != MPI_COMM_NULL) {
    const Simulation run(comm, config(deck, {"output.restart=" + checkpoint}), 4);
    EXPECT_EQ(run.hydro->steps(), 8);
    std::vector<double> resumed = gather(run, run.hydro->density());
    const auto phi = gather(run, run.hydro->gravity()->potential());
    resumed.insert(resumed.end(), phi.begin(), phi.end());
    if (world_rank() == 0) {
      EXPECT_TRUE(same_bits(resumed, straight)) << "on " << readers << " ranks";
    }
    MPI_Comm_free(&comm);
  }
}

TEST(ZeusGravity, BoundariesThatDoNotMatchAreAnError) {
  try {
    config(jeans_deck(0.1), {"gravity.boundary=isolated"});
    ADD_FAILURE() << "no error for isolated gravity in a periodic box";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("[gravity] boundary = \"isolated\" with [boundary] "
                                         "x_lower = \"periodic\""),
              std::string::npos)
        << e.what();
  }
  try {
    config(sphere_deck(16), {"gravity.boundary=periodic"});
    ADD_FAILURE() << "no error for periodic gravity with outflow sides";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected every hydro boundary periodic"),
              std::string::npos)
        << e.what();
  }
  try {
    config(sphere_deck(6));
    ADD_FAILURE() << "no error for a mesh that does not halve twice";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected sizes that halve at least twice"),
              std::string::npos)
        << e.what();
  }
}
