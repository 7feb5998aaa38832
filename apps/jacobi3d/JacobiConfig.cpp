#include "JacobiConfig.hpp"

#include "AppDeck.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/GridHierarchy.hpp>

#include <algorithm>
#include <sstream>

namespace hcart::jacobi {

DeckSchema schema() {
  DeckSchema s;
  s.add("mesh", "size", DeckType::IntegerList, "[64, 64, 64]",
        "unknowns per direction (the unit cube; boundaries lie one spacing outside)")
      .length(3)
      .at_least(1);
  s.add("mesh", "periodic", DeckType::BooleanList, "[false, false, false]",
        "periodic directions (Laplace only)")
      .length(3);
  s.add("mesh", "cost", DeckType::RealList, "[1.0, 1.0, 1.0]",
        "cost factors c_i of the communication weights w_i = G c_i h_i / g_i")
      .length(3)
      .at_least(0);
  add_decomposition_keys(s);
  s.add("jacobi", "problem", DeckType::String, "\"laplace\"",
        "laplace (Dirichlet values per face) or poisson (manufactured solution)")
      .one_of({"laplace", "poisson"});
  s.add("jacobi", "solver", DeckType::String, "\"jacobi\"",
        "jacobi (7-point Jacobi iterations) or multigrid (V-cycles on a grid hierarchy, "
        "[multigrid]; an iteration is then a cycle, the tolerance relative to the first "
        "residual max |f - Au|)")
      .one_of({"jacobi", "multigrid"});
  s.add("jacobi", "max_iterations", DeckType::Integer, "1000", "iterations at most")
      .at_least(1)
      .at_most(1e12);
  s.add("jacobi", "tolerance", DeckType::Real, "1e-8",
        "stop when max |u_new - u_old| over all cells falls below this; 0: run exactly "
        "max_iterations (a fixed count)")
      .at_least(0);
  s.add("jacobi", "check_every", DeckType::Integer, "10",
        "iterations between residual checks (one global reduction each)")
      .at_least(1)
      .at_most(1e9);
  s.add("jacobi", "overlap", DeckType::Boolean, "false",
        "update the interior while halo messages fly");
  s.add("jacobi", "iterations_per_pass", DeckType::Integer, "0",
        "iterations fused into one pass over memory (temporal blocking, with all threads of a "
        "rank), over halos as deep where ranks have neighbours; 0: automatic, 1: off "
        "(docs/jacobi3d.md; formerly temporal_blocking)")
      .at_least(0)
      .at_most(64);
  s.rename("jacobi", "temporal_blocking", "iterations_per_pass");
  s.add("jacobi", "boundary_values", DeckType::RealList, "[1.0, 0.0, 0.0, 0.0, 0.0, 0.0]",
        "Dirichlet values on the faces x-, x+, y-, y+, z-, z+ (laplace)")
      .length(6);
  s.add("multigrid", "levels", DeckType::Integer, "0",
        "levels of the hierarchy, the fine one included; 0: as many as the mesh halves into "
        "(vertex-centred: n -> (n - 1) / 2, down to one point)")
      .at_least(0)
      .at_most(30);
  s.add("multigrid", "smoother", DeckType::String, "\"red-black\"",
        "red-black (Gauss-Seidel by global parity) or jacobi (weighted, omega = 6/7)")
      .one_of({"red-black", "jacobi"});
  s.add("multigrid", "pre_smooth", DeckType::Integer, "2", "sweeps before the coarse correction")
      .at_least(0)
      .at_most(100);
  s.add("multigrid", "post_smooth", DeckType::Integer, "2", "sweeps after it")
      .at_least(0)
      .at_most(100);
  s.add("multigrid", "coarse_sweeps", DeckType::Integer, "0",
        "sweeps on the coarsest level; 0: 4 (n + 1) for its largest n")
      .at_least(0)
      .at_most(100000);
  s.add("multigrid", "full_multigrid", DeckType::Integer, "0",
        "a full-multigrid start, this many cycles a level, before the cycles (0: cycles from "
        "zero alone)")
      .at_least(0)
      .at_most(10);
  s.add("multigrid", "agglomerate_below", DeckType::Integer, "512",
        "a level with fewer points per rank moves onto fewer ranks")
      .at_least(1)
      .at_most(1e12);
  apps::add_agglomeration_key(s, "multigrid");
  apps::add_output_keys(
      s, "iterations",
      "write the field (HDF5 + XDMF) every this many iterations and at the end; 0: never");
  return s;
}

Config read_config(const Deck& deck) {
  Config c;
  c.deck = deck;
  const auto size = deck.integers("mesh", "size");
  const auto periodic = deck.booleans("mesh", "periodic");
  const auto cost = deck.reals("mesh", "cost");
  for (int i = 0; i < 3; ++i) {
    c.spec.global_size[i] = size[i];
    c.spec.periodic[i] = periodic[i];
    c.spec.cost_factor[i] = cost[i];
  }
  c.decomposition = read_decomposition(deck);
  c.settings.problem =
      deck.string("jacobi", "problem") == "poisson" ? Problem::Poisson : Problem::Laplace;
  c.settings.max_iterations = static_cast<long>(deck.integer("jacobi", "max_iterations"));
  c.settings.tolerance = deck.real("jacobi", "tolerance");
  c.settings.check_every = static_cast<long>(deck.integer("jacobi", "check_every"));
  c.settings.overlap = deck.boolean("jacobi", "overlap");
  c.settings.iterations_per_pass = static_cast<long>(deck.integer("jacobi", "iterations_per_pass"));
  const auto values = deck.reals("jacobi", "boundary_values");
  for (int i = 0; i < 6; ++i)
    c.settings.boundary_values[i] = values[i];
  c.settings.progress_seconds = deck.real("output", "progress_seconds");
  const bool multigrid = deck.string("jacobi", "solver") == "multigrid";
  c.settings.solver = multigrid ? Settings::Method::Multigrid : Settings::Method::Jacobi;
  MultigridSettings& mg = c.settings.multigrid;
  mg.levels = static_cast<long>(deck.integer("multigrid", "levels"));
  mg.smoother = deck.string("multigrid", "smoother") == "jacobi"
                    ? MultigridSettings::Smoother::Jacobi
                    : MultigridSettings::Smoother::RedBlack;
  mg.pre_smooth = static_cast<long>(deck.integer("multigrid", "pre_smooth"));
  mg.post_smooth = static_cast<long>(deck.integer("multigrid", "post_smooth"));
  mg.coarse_sweeps = static_cast<long>(deck.integer("multigrid", "coarse_sweeps"));
  mg.full_multigrid = static_cast<long>(deck.integer("multigrid", "full_multigrid"));
  mg.agglomerate_below = static_cast<long>(deck.integer("multigrid", "agglomerate_below"));
  mg.agglomeration = apps::read_agglomeration(deck, "multigrid");
  // What the multigrid solver does not take, by the key that gave it.
  for (const char* key : {"overlap", "iterations_per_pass"}) {
    HCART_REQUIRE(!multigrid || !deck.given("jacobi", key),
                  deck.where("jacobi", key) << ": [jacobi] " << key
                                            << " is the Jacobi solver's; solver = \"multigrid\" "
                                               "expected it left out");
  }
  for (const char* key : {"levels", "smoother", "pre_smooth", "post_smooth", "coarse_sweeps",
                          "full_multigrid", "agglomerate_below", "agglomeration"}) {
    HCART_REQUIRE(multigrid || !deck.given("multigrid", key),
                  deck.where("multigrid", key)
                      << ": [multigrid] " << key
                      << " is the multigrid solver's; expected [jacobi] solver = \"multigrid\" "
                         "with it");
  }
  c.output = apps::read_output(deck);
  // The reach of one iteration: what the decomposition weighs. The grid's halo is planned
  // after it (Passes.hpp).
  c.spec.halo_width = {1, 1, 1};
  if (multigrid) {
    for (int i = 0; i < 3; ++i) {
      HCART_REQUIRE(!periodic[i], deck.where("mesh", "periodic")
                                      << ": [mesh] periodic: the multigrid solver's levels have "
                                         "Dirichlet boundaries, expected no periodic direction");
    }
    // The hierarchy must fit the mesh: said by the key that sizes it. With levels = 0 a mesh
    // that does not halve would give one level, each "cycle" only smoother sweeps: an error.
    const char* rule = " (vertex-centred levels need n + 1 = q 2^(levels - 1) with q >= 2: "
                       "63, 127, 255 points ...)";
    int resolved = 0;
    try {
      HierarchyOptions h;
      h.levels = static_cast<int>(mg.levels);
      h.centering = LevelCentering::Vertex;
      h.min_size = 1;
      resolved = hierarchy_levels(c.spec, h);
    } catch (const InputError& e) {
      const bool levels = deck.given("multigrid", "levels");
      throw InputError(deck.where(levels ? "multigrid" : "mesh", levels ? "levels" : "size") +
                       (levels ? ": [multigrid] levels: " : ": [mesh] size: ") + e.what() + rule);
    }
    if (resolved < 2) {
      std::ostringstream points;
      points << c.spec.global_size[0] << "x" << c.spec.global_size[1] << "x"
             << c.spec.global_size[2];
      throw InputError(deck.where("mesh", "size") + ": [mesh] size: " + points.str() +
                       " points do not halve into a coarser level in some direction, and the "
                       "multigrid solver needs at least 2 levels" +
                       rule);
    }
  }
  if (c.settings.problem == Problem::Poisson) {
    for (int i = 0; i < 3; ++i) {
      HCART_REQUIRE(!periodic[i],
                    deck.where(deck.given("mesh", "periodic") ? "mesh" : "jacobi",
                               deck.given("mesh", "periodic") ? "periodic" : "problem")
                        << ": [mesh] periodic: the poisson problem has Dirichlet boundaries, "
                           "expected no periodic direction");
    }
  }
  return c;
}

} // namespace hcart::jacobi
