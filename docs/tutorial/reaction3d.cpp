// The API guide's program (docs/api-guide.md): a 3D two-species reaction-diffusion model
// (Gray-Scott: u + 2v -> 3v, u fed, v removed) written against hcart's installed API only.
// Species u diffuses with the 7-point Laplacian, species v with the isotropic 27-point one
// (edges and corners: a Full halo exchange); both travel in one exchange. x is periodic,
// y has no-flux walls (zero gradient), z holds u = 1 and v = 0 fixed behind its faces.
// Parameters come from a TOML deck with --set overrides; timers, field files with XDMF and
// checkpoints as the other hcart programs have them. It checks itself: a run of `steps`
// steps equals, bit for bit, half of them, a checkpoint, a restart from it and the other
// half; and it prints "reaction3d: ok". The test suite also builds it against the
// installed package (tests/consumer) and compares its output across rank counts.
#include <hcart/app/CommandLine.hpp>        // hcart::app: deck + --set command lines
#include <hcart/app/DecompositionTable.hpp> // hcart::app: the [decomposition] deck table
#include <hcart/hcart.hpp>

#include <cstdio>
#include <iostream>
#include <string>

// ---- kernels --------------------------------------------------------------------------
// The initial state: u = 1, v = 0, and a seed in the centre (a function of the global
// index, so that every decomposition starts alike).
struct Seed {
  hcart::FieldAccessor<double> u, v;
  Kokkos::Array<long long, 3> first, size; // global index of local index 0; global size
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const long long g[3] = {first[0] + i, first[1] + j, first[2] + k};
    bool centre = true;
    for (int d = 0; d < 3; ++d)
      centre = centre && 2 * g[d] >= size[d] - 4 && 2 * g[d] < size[d] + 4;
    u(i, j, k) = centre ? 0.5 : 1.0;
    v(i, j, k) = centre ? 0.25 : 0.0;
  }
};

// One explicit Euler step of both species.
struct ReactionStep {
  hcart::FieldAccessor<const double> u, v;     // read
  hcart::FieldAccessor<double> u_next, v_next; // written
  double du, dv, feed, kill, dt;
  KOKKOS_INLINE_FUNCTION double laplacian7(int i, int j, int k) const {
    return u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) + u(i, j + 1, k) + u(i, j, k - 1) +
           u(i, j, k + 1) - 6.0 * u(i, j, k);
  }
  // Isotropic 27-point Laplacian: faces 14/30, edges 3/30, corners 1/30.
  KOKKOS_INLINE_FUNCTION double laplacian27(int i, int j, int k) const {
    double faces = 0, edges = 0, corners = 0;
    for (int a = -1; a <= 1; ++a)
      for (int b = -1; b <= 1; ++b)
        for (int c = -1; c <= 1; ++c) {
          const int away = (a != 0) + (b != 0) + (c != 0);
          const double x = v(i + a, j + b, k + c);
          if (away == 1) faces += x;
          if (away == 2) edges += x;
          if (away == 3) corners += x;
        }
    return (14.0 * faces + 3.0 * edges + corners - 128.0 * v(i, j, k)) / 30.0;
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const double a = u(i, j, k), b = v(i, j, k), uvv = a * b * b;
    u_next(i, j, k) = a + dt * (du * laplacian7(i, j, k) - uvv + feed * (1.0 - a));
    v_next(i, j, k) = b + dt * (dv * laplacian27(i, j, k) + uvv - (feed + kill) * b);
  }
};

// Cells where two fields differ.
struct Differences {
  hcart::FieldAccessor<const double> a, b;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, long& n) const {
    n += a(i, j, k) != b(i, j, k) ? 1 : 0;
  }
};

// The amount of a species (a sum over the owned cells).
struct Amount {
  hcart::FieldAccessor<const double> f;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& sum) const {
    sum += f(i, j, k);
  }
};

// ---- the deck ----------------------------------------------------------------------------
hcart::DeckSchema reaction_schema() {
  hcart::DeckSchema schema;
  schema.add("mesh", "size", hcart::DeckType::IntegerList, "[32, 32, 32]", "cells per direction")
      .length(3)
      .at_least(4);
  schema
      .add("mesh", "cost", hcart::DeckType::RealList, "[1.0, 1.0, 1.0]",
           "cost factors c_i of the communication weights")
      .length(3)
      .at_least(0);
  hcart::add_decomposition_keys(schema); // [decomposition] strategy, dims, machine, placement
  schema
      .add("model", "diffusion", hcart::DeckType::RealList, "[0.16, 0.08]",
           "diffusion of u and v (cells^2 per unit time)")
      .length(2)
      .at_least(0);
  schema.add("model", "feed", hcart::DeckType::Real, "0.035", "feed rate of u").at_least(0);
  schema.add("model", "kill", hcart::DeckType::Real, "0.06", "removal rate of v").at_least(0);
  schema.add("model", "dt", hcart::DeckType::Real, "1.0", "time step").above(0);
  schema.add("model", "steps", hcart::DeckType::Integer, "40", "steps to run (even)").at_least(2);
  schema.add("output", "directory", hcart::DeckType::String, "\"output/reaction3d\"",
             "where files go");
  schema.add("output", "machine_file", hcart::DeckType::String, "\"\"",
             "a machine file (hcart-machine --measure) to predict one exchange's time from; "
             "empty: none");
  return schema;
}

int reaction3d(hcart::Environment& env, int argc, char* argv[]) {
  const MPI_Comm world = MPI_COMM_WORLD;
  hcart::CommandLine cli("reaction3d", "reaction3d: Gray-Scott in 3D on hcart", reaction_schema());
  cli.allow_no_deck();                         // the defaults and --set values are a complete run
  if (!cli.parse(argc, argv, world)) return 0; // --help or --deck-reference printed
  const hcart::Deck deck = cli.load_deck(world);

  const auto diffusion = deck.reals("model", "diffusion");
  const double feed = deck.real("model", "feed"), kill = deck.real("model", "kill");
  const double dt = deck.real("model", "dt");
  const long steps = static_cast<long>(deck.integer("model", "steps"));
  const std::string directory = deck.string("output", "directory");
  const std::string machine_file = deck.string("output", "machine_file");
  // Checks the schema cannot express: an error on every rank (exit code 2), naming the key.
  hcart::agree_on_errors(world, [&] {
    HCART_REQUIRE(steps % 2 == 0, deck.where("model", "steps")
                                      << ": [model] steps = " << steps << ", expected an even "
                                      << "number (the check restarts half-way)");
    HCART_REQUIRE(6 * diffusion[0] * dt <= 1 && 128.0 / 30 * diffusion[1] * dt <= 1,
                  deck.where("model", "dt")
                      << ": [model] dt = " << dt << ": the explicit step is unstable for diffusion "
                      << diffusion[0] << ", " << diffusion[1]);
  });
  // The output directory, made and tried before any work: an unusable path is an error on
  // every rank now (exit code 2), not at the first output.
  hcart::prepare_output_directory(world, directory,
                                  deck.where("output", "directory") + ": [output] directory =");

  // ---- grid and decomposition -------------------------------------------------------------
  hcart::GridSpec spec;
  const auto size = deck.integers("mesh", "size");
  const auto cost = deck.reals("mesh", "cost");
  for (int d = 0; d < 3; ++d) {
    spec.global_size[d] = size[d];
    spec.cost_factor[d] = cost[d];
  }
  spec.halo_width = {1, 1, 1};
  spec.periodic = {true, false, false};
  const hcart::DecompositionOptions options = hcart::read_decomposition(deck);
  // (hcart::Decomposition decomp(world, spec, options) is the same; decompose names the
  // deck's keys when the ranks cannot be decomposed so.)
  const hcart::Decomposition decomp = hcart::decompose(world, spec, options, deck);
  const hcart::Grid grid(decomp);
  if (env.rank() == 0) {
    const auto w = decomp.plan().weights;
    std::printf("reaction3d: %d ranks, dims %dx%dx%d, weights %.0f %.0f %.0f (%s)\n", env.size(),
                decomp.dims()[0], decomp.dims()[1], decomp.dims()[2], w[0], w[1], w[2],
                hcart::to_string(decomp.report().strategy).c_str());
  }

  // ---- fields ------------------------------------------------------------------------------
  hcart::Field<double> u = grid.make_field<double>("u"), v = grid.make_field<double>("v");
  hcart::Field<double> u_next = grid.make_field<double>("u_next");
  hcart::Field<double> v_next = grid.make_field<double>("v_next");
  Seed seed{u, v, {}, {}};
  for (int d = 0; d < 3; ++d) {
    seed.first[d] = grid.global_index(d, 0);
    seed.size[d] = spec.global_size[d];
  }
  hcart::for_each_cell("seed", grid.owned_box(), seed);

  // ---- halos and boundaries ----------------------------------------------------------------
  // One exchange for both species; Full: the 27-point stencil reads edges and corners.
  hcart::HaloExchanger halo(grid, hcart::HaloMode::Full);
  const hcart::PhysicalBoundaries walls(grid, hcart::HaloMode::Full);
  using BC = hcart::BoundaryCondition;
  // Sides by name: z_low and z_high fixed values; y (no flux) the default, zero gradient; x is
  // periodic (a condition named there would be an error: it could never apply).
  using hcart::Side;
  const auto walls_u = [&](const hcart::Field<double>& f) {
    walls.apply(f, {{Side::z_low, BC::fixed_value(1.0)}, {Side::z_high, BC::fixed_value(1.0)}});
  };
  const auto walls_v = [&](const hcart::Field<double>& f) {
    walls.apply(f, {{Side::z_low, BC::fixed_value(0.0)}, {Side::z_high, BC::fixed_value(0.0)}});
  };

  // ---- time stepping with timers -----------------------------------------------------------
  hcart::Timers timers;
  auto advance = [&](long count) {
    // Both arrangements of the fields bound once (one collective check per call: the
    // restart below brings new fields), then exchanged with no collective; each step swaps
    // u with u_next and v with v_next.
    hcart::HaloBinding bound[2] = {halo.bind(u, v), halo.bind(u_next, v_next)};
    for (long s = 0; s < count; ++s) {
      bound[s % 2].exchange();
      {
        auto region = timers.region("boundaries");
        walls_u(u);
        walls_v(v);
      }
      auto region = timers.region("compute");
      hcart::for_each_cell(
          "reaction", grid.owned_box(),
          ReactionStep{u, v, u_next, v_next, diffusion[0], diffusion[1], feed, kill, dt});
      std::swap(u, u_next);
      std::swap(v, v_next);
    }
  };
  advance(steps / 2);

  // ---- checkpoint, field file and XDMF -----------------------------------------------------
  hcart::FileMetadata meta;
  meta.application = "reaction3d";
  meta.kind = "checkpoint";
  meta.step = steps / 2;
  meta.time = static_cast<double>(steps / 2) * dt;
  meta.deck = deck.resolved();
  const std::string checkpoint = directory + "/checkpoint.h5";
  hcart::write_fields(checkpoint, grid, {{"u", u}, {"v", v}}, meta);
  advance(steps - steps / 2);
  // NaN or infinity in a field: one error on every rank (exit code 1), before the output.
  hcart::require_finite(grid, {{"u", u}, {"v", v}}, "after step " + std::to_string(steps));
  meta.kind = "output";
  meta.step = steps;
  meta.time = static_cast<double>(steps) * dt;
  hcart::write_fields(directory + "/reaction3d.h5", grid, {{"u", u}, {"v", v}}, meta);
  hcart::XdmfGeometry cells;
  cells.centering = hcart::XdmfCentering::Cell; // unit cells, origin at the corner
  hcart::agree_on_errors(world, [&] {
    if (env.rank() == 0) {
      hcart::write_xdmf(directory + "/reaction3d.xmf", "reaction3d.h5", spec.global_size,
                        {"u", "v"}, meta.time, cells);
    }
  });

  // ---- restart: the second half again, from the checkpoint --------------------------------
  const hcart::FileContents file = hcart::inspect_fields(world, checkpoint);
  hcart::Field<double> u_end = u, v_end = v;
  u = grid.make_field<double>("u_restart");
  v = grid.make_field<double>("v_restart");
  hcart::read_field(checkpoint, grid, "u", u);
  hcart::read_field(checkpoint, grid, "v", v);
  hcart::agree_on_errors(world, [&] {
    HCART_REQUIRE(file.metadata.application == "reaction3d" && file.metadata.step == steps / 2,
                  "'" << checkpoint << "' is not this run's checkpoint");
  });
  advance(steps - static_cast<long>(file.metadata.step));

  // The time model: one exchange of this decomposition (u and v: 16 bytes a cell; edges and
  // corners) predicted from the machine's measured figures, beside the slowest rank's mean.
  if (!machine_file.empty()) {
    const hcart::MachineTimings timings = hcart::read_machine_file(machine_file, world);
    const hcart::ExchangeTime predicted =
        hcart::predict_exchange_time(decomp, timings, {/*elem_bytes=*/16, /*corners=*/true});
    double measured = halo.times().total() / static_cast<double>(halo.counters().exchanges);
    MPI_Allreduce(MPI_IN_PLACE, &measured, 1, MPI_DOUBLE, MPI_MAX, world);
    if (env.rank() == 0) {
      const std::string level = predicted.slowest_level < 0
                                    ? std::string("none")
                                    : decomp.machine().levels()[predicted.slowest_level].name;
      std::printf("reaction3d: one exchange predicted %.1f us (slowest level: %s), measured "
                  "%.1f us\n",
                  predicted.seconds * 1e6, level.c_str(), measured * 1e6);
    }
  }

  // ---- diagnostics and the report -----------------------------------------------------------
  long different = 0;
  hcart::reduce_cells("restart_u", grid.owned_box(), Differences{u, u_end}, different);
  long different_v = 0;
  hcart::reduce_cells("restart_v", grid.owned_box(), Differences{v, v_end}, different_v);
  different += different_v;
  MPI_Allreduce(MPI_IN_PLACE, &different, 1, MPI_LONG, MPI_SUM, world);
  const bool restart_exact = different == 0;
  const bool finite = hcart::count_non_finite(grid, u) + hcart::count_non_finite(grid, v) == 0;
  double amounts[2] = {0, 0};
  hcart::reduce_cells("amount_u", grid.owned_box(), Amount{u}, amounts[0]);
  hcart::reduce_cells("amount_v", grid.owned_box(), Amount{v}, amounts[1]);
  MPI_Allreduce(MPI_IN_PLACE, amounts, 2, MPI_DOUBLE, MPI_SUM, decomp.comm());
  const hcart::HaloTimes& h = halo.times();
  timers.add("halo", h.pack + h.post + h.wait + h.unpack + h.check, halo.counters().exchanges);
  const auto summary = timers.summarize(world);
  const bool ok = restart_exact && finite && amounts[1] > 0;
  if (env.rank() == 0) {
    std::printf("reaction3d: %ld steps, amount of u %.6f, of v %.6f, restart %s\n", steps,
                amounts[0], amounts[1], restart_exact ? "bitwise exact" : "DIFFERENT");
    hcart::Timers::print(std::cout, summary);
    std::printf("reaction3d: %s\n", ok ? "ok" : "WRONG");
  }
  return ok ? 0 : 1;
}

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "reaction3d",
                         [&](hcart::Environment& env) { return reaction3d(env, argc, argv); });
}
