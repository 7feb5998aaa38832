// The halo exchanger's errors: a bad field on one rank, at any exchange or binding, is an
// InputError on every rank, never a hang; misuse of the split phase and of bindings is
// refused.
#include "Specs.hpp"
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/halo/HaloExchanger.hpp>

#include <gtest/gtest.h>

#include <string>
#include <utility>

using hcart::test::cube;
using hcart::test::world_rank;

TEST(HaloExchanger, MisuseOfTheSplitPhase) {
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(16, true));
  const hcart::Grid grid(decomp);
  hcart::HaloExchanger halo(grid);
  auto u = grid.make_field<double>("u");
  EXPECT_THROW(halo.finish(), hcart::Error);
  halo.start(u);
  EXPECT_THROW(halo.start(u), hcart::Error);
  halo.finish();
  EXPECT_EQ(halo.counters().exchanges, 1);
}

namespace {
// One exchange in which the last rank passes a bad field: of other extents, of another type,
// or one field fewer.
enum class Bad { Extents, Type, Count };
void exchange_with_one_bad_rank(const hcart::Grid& grid, hcart::HaloExchanger& halo, Bad bad,
                                bool split, bool& from_start) {
  const auto u = grid.make_field<double>("u");
  const auto good = grid.make_field<double>("v");
  const auto wrong_size = hcart::Field<double>("v", 5, 4, 3);
  const auto wrong_type = grid.make_field<float>("v");
  const bool odd = world_rank() == hcart::test::world_size() - 1;
  // Split: every rank must throw from the same call (a program may communicate between
  // start() and finish()): `from_start` says whether this rank's start() threw.
  auto run = [&](const auto& second) {
    if (split) {
      from_start = true;
      halo.start(u, second);
      from_start = false;
      halo.finish();
    } else {
      halo.exchange(u, second);
    }
  };
  if (!odd) {
    run(good);
  } else if (bad == Bad::Extents) {
    run(wrong_size);
  } else if (bad == Bad::Type) {
    run(wrong_type);
  } else if (split) {
    from_start = true;
    halo.start(u);
    from_start = false;
    halo.finish();
  } else {
    halo.exchange(u);
  }
}
} // namespace

// A bad field on ONE rank, at the first exchange or a later one, blocking or split, Faces,
// Full in 3 phases or 26 messages, one message per neighbour or per field: an InputError on
// every rank, from the same call, never a hang, and the exchanger still works.
TEST(HaloExchanger, ABadFieldOnOneRankIsAnErrorOnEveryRankAtAnyExchange) {
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(16, true));
  const hcart::Grid grid(decomp);
  hcart::HaloOptions concurrent, per_field;
  concurrent.full_method = hcart::FullMethod::Concurrent;
  per_field.aggregate_fields = false;
  const std::pair<hcart::HaloMode, hcart::HaloOptions> setups[] = {
      {hcart::HaloMode::Faces, {}},
      {hcart::HaloMode::Full, {}},
      {hcart::HaloMode::Full, concurrent},
      {hcart::HaloMode::Faces, per_field}};
  for (const auto& [mode, options] : setups) {
    for (bool later : {false, true}) {
      for (bool split : {false, true}) {
        for (Bad bad : {Bad::Extents, Bad::Type, Bad::Count}) {
          // Another type or number on the only rank is simply another set of fields.
          if (bad != Bad::Extents && hcart::test::world_size() == 1) continue;
          hcart::HaloExchanger halo(grid, mode, options);
          const auto u = grid.make_field<double>("u"), v = grid.make_field<double>("v");
          if (later) halo.exchange(u, v);
          const std::string what =
              std::string(mode == hcart::HaloMode::Faces ? "Faces" : "Full") +
              (options.full_method == hcart::FullMethod::Concurrent ? " (26 messages)" : "") +
              (options.aggregate_fields ? "" : " (a message per field)") +
              (later ? ", later" : ", first") + (split ? ", split" : ", blocking") +
              (bad == Bad::Extents ? ", extents"
               : bad == Bad::Type  ? ", type"
                                   : ", count");
          // The last rank's own extents (ranks' blocks differ where the size does not
          // divide evenly).
          auto e3 = grid.extent();
          MPI_Bcast(e3.data(), 3, MPI_INT, hcart::test::world_size() - 1, MPI_COMM_WORLD);
          const std::string extents =
              std::to_string(e3[0]) + "x" + std::to_string(e3[1]) + "x" + std::to_string(e3[2]);
          bool from_start = false, threw = false;
          try {
            exchange_with_one_bad_rank(grid, halo, bad, split, from_start);
            ADD_FAILURE() << what << ": expected an error";
          } catch (const hcart::InputError& e) {
            threw = true;
            EXPECT_TRUE(e.collective()) << what;
            const std::string expected =
                bad == Bad::Extents
                    ? "field 'v' has extents 5x4x3, expected the "
                      "grid's " +
                          extents + " (rank " + std::to_string(hcart::test::world_size() - 1) + ")"
                    : "passed different fields";
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
                << what << ": " << e.what();
          }
          // Every rank threw, and from the same call.
          int most[2] = {threw ? 1 : 0, threw && from_start ? 1 : 0};
          int least[2] = {most[0], most[1]};
          MPI_Allreduce(MPI_IN_PLACE, most, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
          MPI_Allreduce(MPI_IN_PLACE, least, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
          EXPECT_EQ(least[0], 1) << what << ": a rank did not throw";
          EXPECT_EQ(most[1], least[1]) << what << ": some ranks threw from start(), others "
                                       << "from finish()";
          EXPECT_FALSE(halo.in_flight()) << what;
          EXPECT_NO_THROW(halo.exchange(u, v)) << what << ": unusable after the error";
        }
      }
    }
  }
}

// A width per call below 0 is an InputError on every rank; one rank passing another width
// than the others is too, never a hang, and the exchanger still works.
TEST(HaloExchanger, AWrongWidthPerCallIsAnErrorOnEveryRank) {
  hcart::GridSpec spec;
  spec.global_size = {16, 12, 10};
  spec.halo_width = {3, 2, 2};
  spec.periodic = {true, true, true};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  const auto u = grid.make_field<double>("u");
  for (bool split : {false, true}) {
    hcart::HaloExchanger halo(grid, hcart::HaloMode::Full);
    auto run = [&](int layers) {
      if (split) {
        halo.start(hcart::HaloWidth{layers}, u);
        halo.finish();
      } else {
        halo.exchange(hcart::HaloWidth{layers}, u);
      }
    };
    try {
      run(-1);
      ADD_FAILURE() << "expected an error for width -1";
    } catch (const hcart::InputError& e) {
      EXPECT_TRUE(e.collective());
      EXPECT_NE(std::string(e.what()).find("width -1"), std::string::npos) << e.what();
    }
    try {
      halo.exchange(hcart::HaloWidth{3, -1, 1}, u);
      ADD_FAILURE() << "expected an error for width {3, -1, 1}";
    } catch (const hcart::InputError& e) {
      EXPECT_TRUE(e.collective());
      EXPECT_NE(std::string(e.what()).find("width {3, -1, 1}"), std::string::npos) << e.what();
    }
    halo.exchange(hcart::HaloWidth{1}, u);
    // A rank with another width than the others, after an exchange all agreed on.
    if (hcart::test::world_size() > 1) {
      const bool odd = world_rank() == hcart::test::world_size() - 1;
      try {
        run(odd ? 2 : 1);
        ADD_FAILURE() << "expected an error for widths that differ";
      } catch (const hcart::InputError& e) {
        EXPECT_TRUE(e.collective());
        EXPECT_NE(std::string(e.what()).find("the width"), std::string::npos) << e.what();
      }
      EXPECT_FALSE(halo.in_flight());
    }
    EXPECT_NO_THROW(run(2)) << "unusable after the error";
    EXPECT_NO_THROW(run(0));
  }
}

// Directions outside 0-2 are an InputError on every rank naming them; one rank passing other
// directions than the others is too (after an exchange all agreed on, so the others posted
// theirs), never a hang; the exchanger works on.
TEST(HaloExchanger, WrongDirectionsPerCallAreAnErrorOnEveryRank) {
  hcart::GridSpec spec;
  spec.global_size = {16, 12, 10};
  spec.halo_width = {2, 2, 2};
  spec.periodic = {true, false, true};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  const auto u = grid.make_field<double>("u");
  for (hcart::HaloMode mode : {hcart::HaloMode::Faces, hcart::HaloMode::Full}) {
    hcart::HaloExchanger halo(grid, mode);
    for (const hcart::HaloDirections& bad :
         {hcart::HaloDirections{3}, hcart::HaloDirections{}, hcart::HaloDirections{0, -1}}) {
      if (bad.valid()) continue;
      try {
        halo.exchange(bad, u);
        ADD_FAILURE() << "expected an error for directions " << bad.mask();
      } catch (const hcart::InputError& e) {
        EXPECT_TRUE(e.collective());
        EXPECT_NE(std::string(e.what()).find("outside 0, 1, 2"), std::string::npos) << e.what();
      }
      EXPECT_FALSE(halo.in_flight());
    }
    EXPECT_FALSE(hcart::HaloDirections(std::initializer_list<int>{}).valid()) << "none";
    halo.exchange(hcart::HaloDirections{0}, u);
    if (hcart::test::world_size() > 1) {
      const bool odd = world_rank() == hcart::test::world_size() - 1;
      try {
        halo.exchange(odd ? hcart::HaloDirections{1} : hcart::HaloDirections{0}, u);
        ADD_FAILURE() << "expected an error for directions that differ";
      } catch (const hcart::InputError& e) {
        EXPECT_TRUE(e.collective());
        EXPECT_NE(std::string(e.what()).find("directions"), std::string::npos) << e.what();
      }
      EXPECT_FALSE(halo.in_flight());
    }
    EXPECT_NO_THROW(halo.exchange(hcart::HaloDirections{0, 2}, u)) << "unusable after the error";
    EXPECT_NO_THROW(halo.exchange(u));
  }
}

// The check's waiting time is part of HaloTimes, and a correct program keeps exchanging.
TEST(HaloExchanger, TheCollectiveCheckIsBookedInTheTimes) {
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(16, true));
  const hcart::Grid grid(decomp);
  hcart::HaloExchanger halo(grid);
  auto u = grid.make_field<double>("u");
  auto w = grid.make_field<float>("w");
  halo.exchange(u);
  EXPECT_GT(halo.times().check, 0.0) << "the first exchange is checked";
  for (int step = 0; step < 5; ++step) {
    halo.exchange(u);
    halo.exchange(u, w);
  }
  EXPECT_EQ(halo.counters().exchanges, 11);
  EXPECT_LE(halo.times().check, halo.times().total());
}

// A binding is checked once, collectively: a bad field or width on ONE rank is an
// InputError on every rank from bind(); misuse of a binding is refused; the exchanger works
// on.
TEST(HaloExchanger, ABadBindingOnOneRankIsAnErrorOnEveryRank) {
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(16, true));
  const hcart::Grid grid(decomp);
  hcart::HaloExchanger halo(grid, hcart::HaloMode::Full);
  const auto u = grid.make_field<double>("u");
  const auto v = grid.make_field<double>("v");
  const auto wrong_size = hcart::Field<double>("v", 5, 4, 3);
  const auto wrong_type = grid.make_field<float>("v");
  const bool odd = world_rank() == hcart::test::world_size() - 1;
  enum class Bad { Extents, Type, Count, Width };
  for (Bad bad : {Bad::Extents, Bad::Type, Bad::Count, Bad::Width}) {
    if (bad != Bad::Extents && hcart::test::world_size() == 1) continue;
    bool threw = false;
    try {
      hcart::HaloBinding binding = !odd                  ? halo.bind(u, v)
                                   : bad == Bad::Extents ? halo.bind(u, wrong_size)
                                   : bad == Bad::Type    ? halo.bind(u, wrong_type)
                                   : bad == Bad::Count   ? halo.bind(u)
                                                         : halo.bind(hcart::HaloWidth{1}, u, v);
      ADD_FAILURE() << "bad " << static_cast<int>(bad) << ": expected an error";
    } catch (const hcart::InputError& e) {
      threw = true;
      EXPECT_TRUE(e.collective());
      const std::string expected =
          bad == Bad::Extents ? "field 'v' has extents 5x4x3" : "passed different fields";
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
    int least = threw ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    EXPECT_EQ(least, 1) << "bad " << static_cast<int>(bad) << ": a rank did not throw";
    EXPECT_FALSE(halo.in_flight());
  }
  // A width that is impossible everywhere.
  EXPECT_THROW(halo.bind(hcart::HaloWidth{-1}, u), hcart::InputError);

  hcart::HaloBinding empty;
  EXPECT_THROW(empty.exchange(), hcart::Error);
  hcart::HaloBinding uv = halo.bind(u, v);
  EXPECT_THROW(uv.finish(), hcart::Error) << "finish() without start()";
  uv.start();
  EXPECT_THROW(halo.start(u), hcart::Error) << "the exchanger is busy";
  EXPECT_THROW(halo.finish(), hcart::Error) << "the binding's exchange is finished by it";
  EXPECT_THROW(halo.bind(u), hcart::Error) << "no binding while an exchange is in flight";
  uv.finish();
  hcart::HaloBinding moved = std::move(uv);
  EXPECT_THROW(uv.exchange(), hcart::Error) << "a moved-from binding is empty";
  EXPECT_NO_THROW(moved.exchange());
  EXPECT_NO_THROW(halo.exchange(u, v));
  EXPECT_EQ(halo.counters().exchanges, 3);
  // A binding destroyed in flight completes its exchange.
  {
    hcart::HaloBinding scoped = halo.bind(u);
    scoped.start();
  }
  EXPECT_FALSE(halo.in_flight());
  EXPECT_NO_THROW(moved.exchange());
}

// Fields with components: one rank with another number of components, or a list of another
// length, is an error on every rank; more than kMaxHaloFields values a cell too.
TEST(HaloExchanger, ComponentsAndListsThatDifferAreAnErrorOnEveryRank) {
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(12, true));
  const hcart::Grid grid(decomp);
  hcart::HaloExchanger halo(grid, hcart::HaloMode::Full);
  const auto f5 = grid.make_components<double>("f", 5);
  const auto f4 = grid.make_components<double>("f", 4);
  const std::vector<hcart::Field<double>> two{grid.make_field<double>("a"),
                                              grid.make_field<double>("b")};
  const std::vector<hcart::Field<double>> one{two[0]};
  halo.exchange(f5, two);
  const bool odd = world_rank() == hcart::test::world_size() - 1;
  if (hcart::test::world_size() > 1) {
    for (int bad = 0; bad < 2; ++bad) {
      try {
        if (bad == 0) halo.exchange(odd ? f4 : f5, two);
        if (bad == 1) halo.exchange(f5, odd ? one : two);
        ADD_FAILURE() << "case " << bad << ": expected an error";
      } catch (const hcart::InputError& e) {
        EXPECT_TRUE(e.collective());
        EXPECT_NE(std::string(e.what()).find("passed different fields"), std::string::npos)
            << e.what();
      }
      EXPECT_FALSE(halo.in_flight());
    }
  }
  const auto wide = grid.make_components<double>("wide", 60);
  try {
    halo.exchange(wide, f5);
    ADD_FAILURE() << "expected an error for 65 values a cell";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("65 values per cell"), std::string::npos) << e.what();
  }
  EXPECT_THROW(halo.bind(wide, f5), hcart::InputError);
  EXPECT_NO_THROW(halo.exchange(f5, two));
  // A component field of other extents on one rank.
  const auto small = hcart::ComponentField<double>("f", 5, 4, 4, 4);
  try {
    halo.exchange(odd ? small : f5);
    ADD_FAILURE() << "expected an error for a component field of other extents";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("(5 components)"), std::string::npos) << e.what();
  }
}

// Ranks that name different modes for one exchange: an error on every rank, nothing left in
// flight, and the exchanger usable after it.
TEST(HaloExchanger, ModesThatDifferAreAnErrorOnEveryRank) {
  if (hcart::test::world_size() == 1) GTEST_SKIP() << "needs two ranks";
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(12, true));
  const hcart::Grid grid(decomp);
  const auto u = grid.make_field<double>("u");
  hcart::HaloExchanger halo(grid);
  halo.exchange(u);
  const bool odd = world_rank() == hcart::test::world_size() - 1;
  try {
    halo.exchange(odd ? hcart::HaloMode::Full : hcart::HaloMode::Faces, u);
    ADD_FAILURE() << "expected an error for modes that differ";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("mode"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(halo.in_flight());
  try {
    (void)halo.bind(odd ? hcart::HaloMode::Full : hcart::HaloMode::Faces, u);
    ADD_FAILURE() << "expected an error for bindings of modes that differ";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
  }
  EXPECT_NO_THROW(halo.exchange(hcart::HaloMode::Full, u));
}

// HaloOptions::check_binding_order: ranks that start different bindings at once get the
// same collective error instead of a hang, with nothing in flight; in the same order the
// exchanges then fill the halos as without the check (each cell its global index).
TEST(HaloExchanger, BindingsInAnotherOrderAreAnErrorOnEveryRankWithTheCheck) {
  if (hcart::test::world_size() == 1) GTEST_SKIP() << "needs more than one rank";
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(12, true));
  const hcart::Grid grid(decomp);
  hcart::HaloOptions options;
  options.check_binding_order = true;
  hcart::HaloExchanger halo(grid, hcart::HaloMode::Full, options);
  auto u = grid.make_field<double>("u");
  auto v = grid.make_field<double>("v");
  hcart::HaloBinding first = halo.bind(u);
  hcart::HaloBinding second = halo.bind(v);
  const bool last = world_rank() == hcart::test::world_size() - 1;
  bool threw = false;
  try {
    (last ? second : first).exchange();
    ADD_FAILURE() << "bindings in different orders: expected an error";
  } catch (const hcart::InputError& e) {
    threw = true;
    EXPECT_TRUE(e.collective());
    EXPECT_EQ(std::string(e.what()),
              "hcart::HaloBinding::start: the ranks start different bindings at once (bindings "
              "1 to 2, numbered in the order bind() made them): every rank must exchange its "
              "bindings in the same order");
  }
  int least = threw ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(least, 1) << "a rank did not throw";
  EXPECT_FALSE(halo.in_flight());
  // The option on some ranks only: refused on every rank when the exchanger is made.
  {
    hcart::HaloOptions some;
    some.check_binding_order = world_rank() == 0;
    try {
      hcart::HaloExchanger mixed(grid, hcart::HaloMode::Faces, some);
      ADD_FAILURE() << "check_binding_order on rank 0 only";
    } catch (const hcart::InputError& e) {
      EXPECT_TRUE(e.collective());
      EXPECT_NE(std::string(e.what()).find("check_binding_order is on on some ranks"),
                std::string::npos)
          << e.what();
    }
  }
  // The same order on every rank: the halos hold the neighbours' values.
  const auto n = grid.global_size();
  auto fill = [&](hcart::Field<double>& f, double scale) {
    auto h = Kokkos::create_mirror_view(f);
    for (int i = 0; i < grid.extent()[0]; ++i)
      for (int j = 0; j < grid.extent()[1]; ++j)
        for (int k = 0; k < grid.extent()[2]; ++k) {
          const bool owned = grid.is_owned(i, j, k);
          const long long g[3] = {grid.global_index(0, i), grid.global_index(1, j),
                                  grid.global_index(2, k)};
          h(i, j, k) =
              owned ? scale * static_cast<double>((g[0] * n[1] + g[1]) * n[2] + g[2]) : -1.0;
        }
    Kokkos::deep_copy(f, h);
  };
  fill(u, 1.0);
  fill(v, 2.0);
  EXPECT_NO_THROW(first.exchange());
  EXPECT_NO_THROW(second.exchange());
  for (auto* f : {&u, &v}) {
    const double scale = f == &u ? 1.0 : 2.0;
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), *f);
    int wrong = 0;
    for (int i = 0; i < grid.extent()[0]; ++i)
      for (int j = 0; j < grid.extent()[1]; ++j)
        for (int k = 0; k < grid.extent()[2]; ++k) {
          long long g[3] = {grid.global_index(0, i), grid.global_index(1, j),
                            grid.global_index(2, k)};
          for (int d = 0; d < 3; ++d)
            g[d] = (g[d] % n[d] + n[d]) % n[d]; // periodic
          wrong += h(i, j, k) != scale * static_cast<double>((g[0] * n[1] + g[1]) * n[2] + g[2]);
        }
    EXPECT_EQ(wrong, 0) << (f == &u ? "u" : "v");
  }
}
