// Decomposition on real communicators: at every rank count, strategy, synthetic machine
// and rank numbering, the coordinates are those of the pure planner, MPI agrees, and the
// halo traffic counted from the real neighbours equals the traffic model.
#include "Specs.hpp"
#include "SyntheticMachines.hpp"
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/MpiDims.hpp>
#include <hcart/mapping/Blocks.hpp>
#include <hcart/mapping/Factorize.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

using hcart::test::machines_for;
using hcart::test::make_spec;
using hcart::test::world_rank;
using hcart::test::world_size;

using hcart::Decomposition;
using hcart::DecompositionOptions;
using hcart::GridSpec;
using hcart::Placement;
using hcart::Strategy;

namespace {

// Per level (machine levels, then self): bytes and messages this rank sends, from its
// real neighbours in the Cartesian communicator.
struct Counted {
  std::vector<long long> bytes, messages;
};

Counted count_real_traffic(const Decomposition& d, bool corners, int elem_bytes) {
  const int levels = d.machine().level_count();
  Counted c{std::vector<long long>(levels + 1, 0), std::vector<long long>(levels + 1, 0)};
  const auto dims = d.dims();
  const auto coords = d.coords();
  const auto& spec = d.spec();
  for (int a = -1; a <= 1; ++a)
    for (int b = -1; b <= 1; ++b)
      for (int e = -1; e <= 1; ++e) {
        const std::array<int, 3> offset = {a, b, e};
        const int crossed = (a != 0) + (b != 0) + (e != 0);
        if (crossed == 0 || (!corners && crossed > 1)) continue;
        const int nb = d.neighbour(offset);
        if (nb == MPI_PROC_NULL) continue;
        long long bytes = elem_bytes;
        for (int i = 0; i < 3; ++i) {
          bytes *= offset[i] != 0 ? spec.halo_width[i]
                                  : hcart::block_extent(spec.global_size[i], dims[i], coords[i]);
        }
        if (bytes == 0) continue;
        const int level = d.separating_level(d.rank(), nb);
        c.bytes[level] += bytes;
        c.messages[level] += 1;
      }
  MPI_Allreduce(MPI_IN_PLACE, c.bytes.data(), levels + 1, MPI_LONG_LONG, MPI_SUM, d.comm());
  MPI_Allreduce(MPI_IN_PLACE, c.messages.data(), levels + 1, MPI_LONG_LONG, MPI_SUM, d.comm());
  return c;
}

} // namespace

TEST(Decomposition, CoordinatesMatchThePlannerAndMpiAndTrafficMatchesTheModel) {
  const int P = world_size();
  const std::vector<GridSpec> specs = {make_spec({32, 64, 256}, {1, 1, 1}, {false, false, false}),
                                       make_spec({24, 24, 24}, {2, 1, 0}, {true, false, true}),
                                       make_spec({40, 8, 1}, {1, 1, 0}, {true, true, false})};
  int checked = 0;
  std::vector<std::string> machines = machines_for(P);
  if (P >= 3) { // an uneven machine: two nodes of different rank counts
    const int big = P / 2 + 1;
    machines.push_back("node:[" + std::to_string(big) + "," + std::to_string(P - big) +
                       "] core:" + std::to_string(big));
  }
  for (const auto& text : machines) {
    for (Placement placement : {Placement::Block, Placement::RoundRobin}) {
      const hcart::Machine machine = hcart::Machine::parse(text, placement);
      for (const auto& spec : specs) {
        for (Strategy strategy : {Strategy::Mpi, Strategy::Weighted, Strategy::Hierarchical}) {
          DecompositionOptions options;
          options.strategy = strategy;
          options.machine = text;
          options.placement = placement;
          const Decomposition d(MPI_COMM_WORLD, spec, options);
          // The pure planner, on this rank alone, gives the same coordinates.
          hcart::Plan expected;
          if (strategy == Strategy::Mpi) {
            const auto dims = hcart::mpi_baseline_dims(P, {0, 0, 0}, spec.to_mesh());
            EXPECT_EQ(d.dims(), (std::array<int, 3>{int(dims[0]), int(dims[1]), int(dims[2])}));
          } else {
            hcart::PlanOptions po;
            po.strategy = strategy;
            expected = hcart::make_plan(spec.to_mesh(), machine, po);
            const auto c = expected.coords_of(world_rank(), machine);
            EXPECT_EQ(d.coords(), (std::array<int, 3>{int(c[0]), int(c[1]), int(c[2])}))
                << text << " " << hcart::to_string(strategy);
          }
          int mpi_coords[3];
          MPI_Cart_coords(d.comm(), d.rank(), 3, mpi_coords);
          EXPECT_EQ(d.coords(), (std::array<int, 3>{mpi_coords[0], mpi_coords[1], mpi_coords[2]}));
          // The original rank of every Cartesian rank, found from the plan without a
          // table, is the one MPI has there.
          std::vector<int> original(P);
          const int mine = world_rank();
          MPI_Allgather(&mine, 1, MPI_INT, original.data(), 1, MPI_INT, d.comm());
          for (int q = 0; q < P; ++q)
            ASSERT_EQ(d.original_rank(q), original[q]) << text << " cart rank " << q;
          for (bool corners : {false, true}) {
            const auto model =
                hcart::traffic_model(d.plan(), d.machine(), spec.to_mesh(), {8, corners});
            const Counted real = count_real_traffic(d, corners, 8);
            for (int l = 0; l <= d.machine().level_count(); ++l) {
              ASSERT_EQ(real.bytes[l], model.levels[l].bytes)
                  << text << " " << hcart::to_string(strategy) << " level " << l;
              ASSERT_EQ(real.messages[l], model.levels[l].messages);
            }
          }
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(Decomposition, HierarchicalIgnoresTheNumberingMpiSuffersFromIt) {
  const int P = world_size();
  if (P < 4 || P % 2 != 0) GTEST_SKIP() << "needs an even rank count >= 4";
  const std::string text = "node:2 core:" + std::to_string(P / 2);
  // Long in x: MPI_Dims_create cuts x first, and block numbering then keeps the small
  // x faces between nodes; round-robin numbering puts large y or z faces there.
  const GridSpec spec = make_spec({512, 32, 16}, {1, 1, 1}, {false, false, false});
  auto node_bytes = [&](Strategy strategy, Placement placement) {
    DecompositionOptions options;
    options.strategy = strategy;
    options.machine = text;
    options.placement = placement;
    const Decomposition d(MPI_COMM_WORLD, spec, options);
    return count_real_traffic(d, false, 8).bytes;
  };
  EXPECT_EQ(node_bytes(Strategy::Hierarchical, Placement::Block),
            node_bytes(Strategy::Hierarchical, Placement::RoundRobin));
  const auto mpi_block = node_bytes(Strategy::Mpi, Placement::Block);
  const auto mpi_rr = node_bytes(Strategy::Mpi, Placement::RoundRobin);
  EXPECT_GT(mpi_rr[0], mpi_block[0]) << "round-robin numbering should cost the mpi strategy";
  EXPECT_LE(node_bytes(Strategy::Hierarchical, Placement::RoundRobin)[0], mpi_block[0]);
}

TEST(Decomposition, ManualAndFixedDims) {
  const int P = world_size();
  const GridSpec spec = make_spec({64, 64, 64}, {1, 1, 1}, {false, false, false});
  DecompositionOptions options;
  options.strategy = Strategy::Manual;
  options.dims = {1, P, 1};
  options.machine = "node:1 core:" + std::to_string(P);
  const Decomposition d(MPI_COMM_WORLD, spec, options);
  EXPECT_EQ(d.dims(), (std::array<int, 3>{1, P, 1}));
  options.strategy = Strategy::Hierarchical;
  options.dims = {0, 0, 1};
  const Decomposition h(MPI_COMM_WORLD, spec, options);
  EXPECT_EQ(h.dims()[2], 1);
  EXPECT_EQ(h.dims()[0] * h.dims()[1], P);
}

TEST(Decomposition, BadInputFailsTheSameWayOnEveryRank) {
  const int P = world_size();
  const GridSpec good = make_spec({64, 64, 64}, {1, 1, 1}, {false, false, false});
  struct Case {
    GridSpec spec;
    DecompositionOptions options;
    std::string expected;
  };
  std::vector<Case> cases;
  DecompositionOptions o;
  o.machine = "node:two";
  cases.push_back({good, o, "is not a positive integer"});
  o.machine = "node:" + std::to_string(P + 1);
  cases.push_back({good, o, "ranks, but the communicator has"});
  o.machine = "";
  o.dims = {P + 1, 0, 0};
  cases.push_back({good, o, "do not divide"});
  o.dims = {0, 0, 0};
  o.strategy = Strategy::Manual;
  cases.push_back({good, o, "the manual strategy needs every dim"});
  o.strategy = Strategy::Hierarchical;
  // One cell with halos of 2: one rank may own it (no neighbour), two may not share it.
  cases.push_back(
      {make_spec({1, 1, 1}, {2, 2, 2}, {false, false, false}), o, P > 1 ? "pieces" : ""});
  cases.push_back({make_spec({1, 1, 1}, {2, 2, 2}, {true, false, false}), o, "pieces"});
  cases.push_back({make_spec({0, 4, 4}, {1, 1, 1}, {false, false, false}), o, "global size 0"});
  o.strategy = Strategy::Mpi;
  cases.push_back(
      {make_spec({1, 1, 1}, {1, 1, 1}, {false, false, false}), o, P > 1 ? "pieces" : ""});
  // Only rank 0 gets a bad halo: the error must still reach every rank.
  GridSpec only_rank0 = good;
  if (world_rank() == 0) only_rank0.halo_width = {1, -1, 1};
  cases.push_back({only_rank0, DecompositionOptions{}, "halo width -1"});
  for (const auto& c : cases) {
    if (c.expected.empty()) continue;
    try {
      const Decomposition d(MPI_COMM_WORLD, c.spec, c.options);
      ADD_FAILURE() << "no error, expected one with '" << c.expected << "'";
    } catch (const hcart::InputError& e) {
      EXPECT_TRUE(e.collective()) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.expected), std::string::npos) << e.what();
    }
  }
}

TEST(Decomposition, MachineFromTheEnvironmentAndReport) {
  const int P = world_size();
  const std::string text = "node:1 core:" + std::to_string(P);
  setenv("HCART_MACHINE", text.c_str(), 1);
  const Decomposition d(MPI_COMM_WORLD, make_spec({32, 32, 32}, {1, 1, 1}, {}));
  unsetenv("HCART_MACHINE");
  EXPECT_EQ(d.report().machine, text);
  EXPECT_EQ(d.report().machine_source, "synthetic");
  ASSERT_FALSE(d.report().notes.empty());
  EXPECT_NE(d.report().notes.back().find("HCART_MACHINE"), std::string::npos);
}

TEST(Decomposition, DetectedMachineWorksWhateverTheBinding) {
  const Decomposition d(MPI_COMM_WORLD, make_spec({32, 32, 32}, {1, 1, 1}, {}));
  EXPECT_EQ(d.machine().ranks(), world_size());
  EXPECT_EQ(d.report().machine_source, "detected");
}

// A spec whose halo is wider than the blocks a manual grid would make is refused: every
// rank must own a halo width of cells.
TEST(Decomposition, TheSpecsHaloBoundsThePieces) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  hcart::GridSpec spec;
  spec.global_size = {static_cast<std::int64_t>(2 * size), 8, 8};
  spec.halo_width = {3, 1, 1};
  spec.periodic = {true, false, false};
  hcart::DecompositionOptions manual;
  manual.strategy = hcart::Strategy::Manual;
  manual.dims = {size, 1, 1};
  // The decomposition itself already refuses more than floor(g / h) pieces.
  EXPECT_THROW(hcart::Decomposition(MPI_COMM_WORLD, spec, manual), hcart::InputError);
}

// A halo across a one-cell direction is kept but noted with what it costs; none without one.
TEST(Decomposition, AHaloAcrossAOneCellDirectionIsNoted) {
  for (int halo : {0, 2}) {
    hcart::GridSpec spec;
    spec.global_size = {12, 10, 1};
    spec.halo_width = {1, 1, halo};
    const hcart::Decomposition d(MPI_COMM_WORLD, spec);
    int noted = 0;
    for (const std::string& note : d.report().notes)
      noted += note.find("direction 2 has one cell and a halo of 2: every field holds 5 times") !=
               std::string::npos;
    EXPECT_EQ(noted, halo == 0 ? 0 : 1);
  }
}
