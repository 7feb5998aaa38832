// The ZEUS-like solver's deck: its schema, and the settings read from a validated deck.
#pragma once

#include "AppDeck.hpp"

#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/grid/GridSpec.hpp>
#include <hcart/io/Deck.hpp>

#include <array>
#include <string>

namespace hcart::zeus {

enum class Boundary { Reflecting, Outflow, Periodic };
enum class Problem { Sod, Sedov, Noh, Advection, Sphere, Jeans };

/// \brief Where self-gravity's potential meets the domain's sides.
enum class GravityBoundary {
  Isolated, ///< the potential of the mass in the domain alone (a multipole expansion)
  Periodic  ///< periodic with the mean density taken out (the "Jeans swindle")
};

/// \brief Self-gravity ([gravity]): Delta phi = 4 pi G rho solved by multigrid every step.
struct GravitySettings {
  bool enabled = false;
  double constant = 1.0; ///< G
  GravityBoundary boundary = GravityBoundary::Isolated;
  double tolerance = 1e-10; ///< max |f - A phi| reduced by this factor from phi = 0
  long max_cycles = 30;
  long full_multigrid = 0; ///< each solve's full-multigrid start, cycles a level (0: none)
  apps::Agglomeration agglomeration = apps::Agglomeration::Machine; ///< the coarse levels' ranks
};

struct Settings {
  std::array<double, 3> lower{{0, 0, 0}}, upper{{1, 1, 1}};
  std::array<Boundary, 6> boundary{}; ///< x-, x+, y-, y+, z-, z+
  double gamma = 1.4;
  double cfl = 0.5;
  double q_quadratic = 2.0, q_linear = 0.0;
  double t_end = 0.2;
  long max_steps = 100000;
  double dt_growth = 1.3;
  /// Add the kinetic energy that the advection of momenta dissipates to the internal
  /// energy (conserves e + kinetic energy in the transport step).
  bool heat_dissipation = true;
  Problem problem = Problem::Sod;
  int direction = 0;                                                   ///< Sod and Noh: 0, 1 or 2
  std::array<double, 2> sod_left{{1.0, 1.0}}, sod_right{{0.125, 0.1}}; ///< (rho, p)
  double density = 1.0;      ///< ambient density (Sedov, Noh, advection)
  double pressure = 1e-5;    ///< ambient pressure (Sedov, Noh, advection)
  double sedov_energy = 1.0; ///< blast energy of the whole sphere
  double sedov_radius = 0.1; ///< radius of the deposit (at least 1.5 zones)
  double noh_speed = 1.0;
  std::array<double, 3> velocity{{1, 0, 0}}; ///< advection velocity
  double bump_amplitude = 0.5, bump_width = 0.1;
  std::string bump_shape = "gaussian"; ///< or "sine" (along x)
  double sphere_radius = 0.25;         ///< sphere: radius, centred in the domain
  double sphere_density = 1.0;         ///< sphere: density inside (density outside)
  double jeans_amplitude = 1e-4;       ///< Jeans: relative density amplitude (along x)
  GravitySettings gravity;
  double progress_seconds = 5.0;
};

using Output = apps::OutputSettings;

using Config = apps::AppConfig<Settings>;

/// \brief Every key the hydro solver accepts.
DeckSchema schema();
/// \brief The levels of self-gravity's multigrid: cell-centred, halving every direction,
/// the coarse ones agglomerated as the settings say.
HierarchyOptions gravity_hierarchy(const GravitySettings& gravity);
/// \brief Settings from a validated deck; with self-gravity the spec's blocks nest for its
/// multigrid levels (hcart::nested_spec). \throws hcart::InputError for combinations the
/// schema cannot express (periodic on one side only, upper <= lower, a gravity boundary the
/// hydro boundaries do not match, a mesh too small for multigrid), naming the keys.
Config read_config(const Deck& deck);

} // namespace hcart::zeus
