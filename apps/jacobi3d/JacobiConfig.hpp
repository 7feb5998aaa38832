// Jacobi3D's deck: the schema, and the settings read from a validated deck.
#pragma once

#include "AppDeck.hpp"

#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/GridSpec.hpp>
#include <hcart/io/Deck.hpp>

#include <array>
#include <string>

namespace hcart::jacobi {

enum class Problem { Laplace, Poisson };

/// \brief [multigrid]: the hierarchy and the cycle of solver = "multigrid" (Multigrid.hpp).
struct MultigridSettings {
  enum class Smoother { RedBlack, Jacobi };
  using Agglomeration = apps::Agglomeration;
  long levels = 0; ///< 0: as many as the mesh halves into (down to one point)
  Smoother smoother = Smoother::RedBlack;
  long pre_smooth = 2, post_smooth = 2;
  long coarse_sweeps = 0;  ///< 0: 4 (n + 1) for the coarsest level's largest n
  long full_multigrid = 0; ///< a full-multigrid start, cycles a level (0: none)
  long agglomerate_below = 512;
  Agglomeration agglomeration = Agglomeration::Machine;
};

struct Settings {
  enum class Method { Jacobi, Multigrid };
  Method solver = Method::Jacobi;
  MultigridSettings multigrid;
  Problem problem = Problem::Laplace;
  long max_iterations = 1000;
  double tolerance = 1e-8;
  long check_every = 10;
  bool overlap = false;
  /// Iterations fused into one pass over memory (Passes.hpp): 0 chooses by cache size and
  /// redundant work, 1 turns temporal blocking off.
  long iterations_per_pass = 0;
  /// Dirichlet values on the faces x-, x+, y-, y+, z-, z+ (Laplace; Poisson uses zeros).
  std::array<double, 6> boundary_values{{1, 0, 0, 0, 0, 0}};
  double progress_seconds = 5.0;
};

using Output = apps::OutputSettings;

using Config = apps::AppConfig<Settings>;

/// \brief Every key Jacobi3D accepts (docs/decks.md is generated from it).
DeckSchema schema();
/// \brief The settings of a validated deck (the spec's halo is one layer, the reach of one
/// iteration; the grid's is planned after the decomposition, jacobi::plan_passes in
/// Passes.hpp). \throws
/// hcart::InputError for combinations the schema cannot express (e.g. Poisson with
/// periodic directions), naming the keys.
Config read_config(const Deck& deck);

} // namespace hcart::jacobi
