#include "ZeusConfig.hpp"

#include "AppDeck.hpp"

#include <hcart/core/Error.hpp>

#include <algorithm>
#include <sstream>
#include <string>

namespace hcart::zeus {

namespace {
const char* faces[6] = {"x_lower", "x_upper", "y_lower", "y_upper", "z_lower", "z_upper"};

// [gravity]: the boundary against the hydro boundaries, and the spec's blocks made to nest
// for the multigrid levels.
void read_gravity(const Deck& deck, Config& c) {
  GravitySettings& g = c.settings.gravity;
  g.enabled = deck.boolean("gravity", "enabled");
  g.constant = deck.real("gravity", "constant");
  g.boundary = deck.string("gravity", "boundary") == "periodic" ? GravityBoundary::Periodic
                                                                : GravityBoundary::Isolated;
  g.tolerance = deck.real("gravity", "tolerance");
  g.max_cycles = static_cast<long>(deck.integer("gravity", "max_cycles"));
  g.full_multigrid = static_cast<long>(deck.integer("gravity", "full_multigrid"));
  g.agglomeration = apps::read_agglomeration(deck, "gravity");
  if (!g.enabled) return;
  const bool periodic = g.boundary == GravityBoundary::Periodic;
  for (int f = 0; f < 6; ++f) {
    const bool side_periodic = c.settings.boundary[f] == Boundary::Periodic;
    HCART_REQUIRE(side_periodic == periodic,
                  deck.where("gravity", "boundary")
                      << ": [gravity] boundary = \"" << (periodic ? "periodic" : "isolated")
                      << "\" with [boundary] " << faces[f] << " = \""
                      << deck.string("boundary", faces[f]) << "\", expected "
                      << (periodic ? "every hydro boundary periodic"
                                   : "no periodic hydro boundary (or [gravity] boundary = "
                                     "\"periodic\" with all of them periodic)"));
  }
  const HierarchyOptions h = gravity_hierarchy(g);
  const int levels = hierarchy_levels(c.spec, h);
  HCART_REQUIRE(levels >= 3, deck.where("mesh", "size")
                                 << ": [mesh] size = [" << c.spec.global_size[0] << ", "
                                 << c.spec.global_size[1] << ", " << c.spec.global_size[2]
                                 << "] gives self-gravity's multigrid " << levels
                                 << " level(s), expected sizes that halve at least twice "
                                    "(multiples of 4)");
  c.spec = nested_spec(c.spec, h);
}
} // namespace

HierarchyOptions gravity_hierarchy(const GravitySettings& gravity) {
  HierarchyOptions h;       // cell-centred, every direction halved down to 2 cells
  h.halo_width = {1, 1, 1}; // the solver's stencil, not the hydro's 3
  apps::apply_agglomeration(gravity.agglomeration, h);
  return h;
}

DeckSchema schema() {
  DeckSchema s;
  s.add("mesh", "size", DeckType::IntegerList, "[64, 64, 64]",
        "zones per direction (at least 3: the solver uses 3 halo layers)")
      .length(3)
      .at_least(3);
  s.add("mesh", "lower", DeckType::RealList, "[0.0, 0.0, 0.0]", "lower corner of the domain")
      .length(3);
  s.add("mesh", "upper", DeckType::RealList, "[1.0, 1.0, 1.0]", "upper corner of the domain")
      .length(3);
  s.add("mesh", "cost", DeckType::RealList, "[1.0, 1.0, 1.0]",
        "cost factors c_i of the communication weights")
      .length(3)
      .at_least(0);
  for (const char* face : faces) {
    s.add("boundary", face, DeckType::String, "\"outflow\"",
          "reflecting, outflow or periodic (periodic on both faces of a direction)")
        .one_of({"reflecting", "outflow", "periodic"});
  }
  add_decomposition_keys(s);
  s.add("hydro", "gamma", DeckType::Real, "1.4", "ratio of specific heats").above(1);
  s.add("hydro", "cfl", DeckType::Real, "0.5", "Courant number").above(0).at_most(1);
  s.add("hydro", "q_quadratic", DeckType::Real, "2.0", "quadratic artificial viscosity coefficient")
      .at_least(0);
  s.add("hydro", "q_linear", DeckType::Real, "0.0", "linear artificial viscosity coefficient")
      .at_least(0);
  s.add("hydro", "t_end", DeckType::Real, "0.2", "end time").above(0);
  s.add("hydro", "max_steps", DeckType::Integer, "100000", "steps at most")
      .at_least(1)
      .at_most(1e12);
  s.add("hydro", "dt_growth", DeckType::Real, "1.3", "largest growth of the time step per step")
      .at_least(1);
  s.add("hydro", "heat_dissipation", DeckType::Boolean, "true",
        "turn the kinetic energy lost in momentum advection into heat (false: classic ZEUS)");
  s.add("problem", "name", DeckType::String, "\"sod\"",
        "sod, sedov, noh, advection, sphere (a uniform sphere at rest) or jeans (a growing "
        "wave)")
      .one_of({"sod", "sedov", "noh", "advection", "sphere", "jeans"});
  s.add("problem", "direction", DeckType::String, "\"x\"",
        "direction of the Sod tube or the Noh flow")
      .one_of({"x", "y", "z"});
  s.add("problem", "sod_left", DeckType::RealList, "[1.0, 1.0]",
        "Sod: (density, pressure) on the low side")
      .length(2)
      .above(0);
  s.add("problem", "sod_right", DeckType::RealList, "[0.125, 0.1]",
        "Sod: (density, pressure) on the high side")
      .length(2)
      .above(0);
  s.add("problem", "density", DeckType::Real, "1.0", "ambient density (sedov, noh, advection)")
      .above(0);
  s.add("problem", "pressure", DeckType::Real, "1e-5", "ambient pressure (sedov, noh, advection)")
      .above(0);
  s.add("problem", "sedov_energy", DeckType::Real, "1.0",
        "Sedov: blast energy of the whole sphere (the octant simulated gets an eighth)")
      .above(0);
  s.add("problem", "sedov_radius", DeckType::Real, "0.1",
        "Sedov: radius of the sphere the energy is deposited in (at least 1.5 zones)")
      .above(0);
  s.add("problem", "noh_speed", DeckType::Real, "1.0", "Noh: inflow speed towards the low wall")
      .above(0);
  s.add("problem", "velocity", DeckType::RealList, "[1.0, 0.0, 0.0]", "advection: uniform velocity")
      .length(3);
  s.add("problem", "bump_amplitude", DeckType::Real, "0.5",
        "advection: relative density excess of the bump")
      .at_least(0);
  s.add("problem", "bump_width", DeckType::Real, "0.1", "advection: Gaussian width (domain units)")
      .above(0);
  s.add("problem", "bump_shape", DeckType::String, "\"gaussian\"",
        "advection: gaussian (3D) or sine (one period along x)")
      .one_of({"gaussian", "sine"});
  s.add("problem", "sphere_radius", DeckType::Real, "0.25",
        "sphere: radius of the uniform sphere, centred in the domain")
      .above(0);
  s.add("problem", "sphere_density", DeckType::Real, "1.0",
        "sphere: density inside it ([problem] density outside)")
      .above(0);
  s.add("problem", "jeans_amplitude", DeckType::Real, "1e-4",
        "jeans: relative amplitude of the density wave (one wavelength along x)")
      .at_least(0)
      .at_most(0.5);
  s.add("gravity", "enabled", DeckType::Boolean, "false",
        "self-gravity: the potential of the gas, solved by multigrid every step");
  s.add("gravity", "constant", DeckType::Real, "1.0", "the gravitational constant G").above(0);
  s.add("gravity", "boundary", DeckType::String, "\"isolated\"",
        "isolated (the mass in the domain alone: no periodic hydro boundary) or periodic "
        "(every hydro boundary periodic; the mean density taken out)")
      .one_of({"isolated", "periodic"});
  s.add("gravity", "tolerance", DeckType::Real, "1e-10",
        "the solve ends when the residual's maximum has fallen by this factor")
      .above(0)
      .at_most(0.5);
  s.add("gravity", "max_cycles", DeckType::Integer, "30",
        "V-cycles at most per solve (more is an error)")
      .at_least(1)
      .at_most(1000);
  s.add("gravity", "full_multigrid", DeckType::Integer, "0",
        "each solve starts with full multigrid, this many cycles a level (its cycles on the "
        "finest level count toward max_cycles); 0: V-cycles from zero alone")
      .at_least(0)
      .at_most(10);
  apps::add_agglomeration_key(s, "gravity");
  apps::add_output_keys(s, "steps",
                        "write the fields every this many steps (the final state is always "
                        "written); 0: only the final state");
  return s;
}

Config read_config(const Deck& deck) {
  Config c;
  c.deck = deck;
  Settings& s = c.settings;
  const auto size = deck.integers("mesh", "size");
  const auto lower = deck.reals("mesh", "lower"), upper = deck.reals("mesh", "upper");
  const auto cost = deck.reals("mesh", "cost");
  for (int i = 0; i < 3; ++i) {
    HCART_REQUIRE(upper[i] > lower[i], deck.where("mesh", "upper")
                                           << ": [mesh] upper[" << i << "] = " << upper[i]
                                           << ", expected more than lower[" << i
                                           << "] = " << lower[i]);
    c.spec.global_size[i] = size[i];
    c.spec.halo_width[i] = 3;
    c.spec.cost_factor[i] = cost[i];
    s.lower[i] = lower[i];
    s.upper[i] = upper[i];
  }
  for (int f = 0; f < 6; ++f) {
    const std::string kind = deck.string("boundary", faces[f]);
    s.boundary[f] = kind == "reflecting" ? Boundary::Reflecting
                    : kind == "periodic" ? Boundary::Periodic
                                         : Boundary::Outflow;
  }
  for (int d = 0; d < 3; ++d) {
    const bool lo = s.boundary[2 * d] == Boundary::Periodic,
               hi = s.boundary[2 * d + 1] == Boundary::Periodic;
    HCART_REQUIRE(lo == hi, deck.where("boundary", faces[2 * d + (lo ? 1 : 0)])
                                << ": [boundary] " << faces[2 * d] << " and " << faces[2 * d + 1]
                                << ": periodic must be set on both faces of a direction");
    c.spec.periodic[d] = lo;
  }
  c.decomposition = read_decomposition(deck);
  s.gamma = deck.real("hydro", "gamma");
  s.cfl = deck.real("hydro", "cfl");
  s.q_quadratic = deck.real("hydro", "q_quadratic");
  s.q_linear = deck.real("hydro", "q_linear");
  s.t_end = deck.real("hydro", "t_end");
  s.max_steps = static_cast<long>(deck.integer("hydro", "max_steps"));
  s.dt_growth = deck.real("hydro", "dt_growth");
  s.heat_dissipation = deck.boolean("hydro", "heat_dissipation");
  const std::string name = deck.string("problem", "name");
  s.problem = name == "sod"      ? Problem::Sod
              : name == "sedov"  ? Problem::Sedov
              : name == "noh"    ? Problem::Noh
              : name == "sphere" ? Problem::Sphere
              : name == "jeans"  ? Problem::Jeans
                                 : Problem::Advection;
  s.direction = deck.string("problem", "direction")[0] - 'x';
  const auto left = deck.reals("problem", "sod_left"), right = deck.reals("problem", "sod_right");
  s.sod_left = {left[0], left[1]};
  s.sod_right = {right[0], right[1]};
  s.density = deck.real("problem", "density");
  s.pressure = deck.real("problem", "pressure");
  s.sedov_energy = deck.real("problem", "sedov_energy");
  s.noh_speed = deck.real("problem", "noh_speed");
  s.sedov_radius = deck.real("problem", "sedov_radius");
  const auto v = deck.reals("problem", "velocity");
  s.velocity = {v[0], v[1], v[2]};
  s.bump_amplitude = deck.real("problem", "bump_amplitude");
  s.bump_width = deck.real("problem", "bump_width");
  s.bump_shape = deck.string("problem", "bump_shape");
  s.sphere_radius = deck.real("problem", "sphere_radius");
  s.sphere_density = deck.real("problem", "sphere_density");
  s.jeans_amplitude = deck.real("problem", "jeans_amplitude");
  s.progress_seconds = deck.real("output", "progress_seconds");
  c.output = apps::read_output(deck);
  read_gravity(deck, c);
  if (s.problem == Problem::Sedov) {
    // The blast must cover a few zones to start symmetric.
    double widest = 0;
    for (int i = 0; i < 3; ++i)
      widest = std::max(widest, (s.upper[i] - s.lower[i]) / static_cast<double>(size[i]));
    if (s.sedov_radius < 1.5 * widest) {
      std::ostringstream note;
      note << "[problem] sedov_radius = " << s.sedov_radius
           << " is less than 1.5 zones: " << 1.5 * widest << " is used";
      c.adjustments.push_back(note.str());
      s.sedov_radius = 1.5 * widest;
    }
  }
  return c;
}

} // namespace hcart::zeus
