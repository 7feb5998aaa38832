// Halo exchanger: no allocation after the first call, clear errors on every rank for bad
// fields, and the two field-message modes give the same halos.
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/halo/HaloExchanger.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

using hcart::test::world_rank;

// GCC cannot see that the replaced operator new below is malloc-based.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

// Count every C++ allocation of this process, to show that exchange() makes none after
// its first call.
namespace {
std::atomic<long> allocations{0};
}
// Every non-aligned form is replaced, so that each allocation meets its own deallocation
// (AddressSanitizer checks the pairing); the aligned forms keep the library's. nvcc compiles
// these for the device too (CUDA declares them host and device): there they only allocate.
void* operator new(std::size_t size) {
#ifdef __CUDA_ARCH__
  return malloc(size == 0 ? 1 : size);
#else
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
#endif
}
void* operator new[](std::size_t size) {
  return operator new(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
#ifndef __CUDA_ARCH__
  allocations.fetch_add(1, std::memory_order_relaxed);
#endif
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept {
  return operator new(size, tag);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}

namespace {
hcart::GridSpec cube(std::int64_t n, bool periodic) {
  hcart::GridSpec spec;
  spec.global_size = {n, n, n};
  spec.halo_width = {2, 1, 1};
  spec.periodic = {periodic, periodic, periodic};
  return spec;
}
} // namespace

TEST(HaloExchanger, NoAllocationAfterTheFirstCall) {
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(24, true));
  const hcart::Grid grid(decomp);
  for (auto mode : {hcart::HaloMode::Faces, hcart::HaloMode::Full}) {
    hcart::HaloExchanger halo(grid, mode);
    auto u = grid.make_field<double>("u");
    auto v = grid.make_field<float>("v");
    halo.exchange(u, v); // first call: buffers and handles
    const std::size_t buffers = halo.allocation_count();
    const long before = allocations.load();
    for (int step = 0; step < 5; ++step) {
      halo.exchange(u, v);
      halo.start(u, v);
      halo.finish();
    }
    EXPECT_EQ(allocations.load() - before, 0) << "C++ allocations inside exchange()";
    EXPECT_EQ(halo.allocation_count(), buffers) << "hcart buffers reallocated";
    // Fewer fields reuse the buffers; their copy lists are made once, and from then on
    // alternating between the two sets allocates nothing.
    halo.exchange(u);
    const std::size_t both = halo.allocation_count();
    EXPECT_LE(both, buffers + 1);
    const long again = allocations.load();
    for (int step = 0; step < 3; ++step) {
      halo.exchange(u);
      halo.exchange(u, v);
    }
    EXPECT_EQ(allocations.load() - again, 0) << "C++ allocations alternating field sets";
    EXPECT_EQ(halo.allocation_count(), both);
  }
}

namespace {
// A distinct value per cell from its global index, in two fields of each of two types.
struct FillPairs {
  hcart::Field<double> u1, u2;
  hcart::Field<int> w1, w2;
  Kokkos::Array<long long, 3> first; // global index of local index 0
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const double x = (first[0] + i) * 1e4 + (first[1] + j) * 1e2 + (first[2] + k);
    u1(i, j, k) = u2(i, j, k) = x;
    w1(i, j, k) = w2(i, j, k) = static_cast<int>(x) + 7;
  }
};

// Counts the cells where the pairs differ.
struct CountDifferences {
  hcart::Field<double> u1, u2;
  hcart::Field<int> w1, w2;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, int& n) const {
    n += (u1(i, j, k) != u2(i, j, k)) + (w1(i, j, k) != w2(i, j, k));
  }
};
} // namespace

TEST(HaloExchanger, AggregatedAndPerFieldMessagesAgree) {
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(20, true));
  const hcart::Grid grid(decomp);
  hcart::HaloOptions per_field;
  per_field.aggregate_fields = false;
  hcart::HaloExchanger a(grid, hcart::HaloMode::Full), b(grid, hcart::HaloMode::Full, per_field);
  auto u1 = grid.make_field<double>("u1"), u2 = grid.make_field<double>("u2");
  auto w1 = grid.make_field<int>("w1"), w2 = grid.make_field<int>("w2");
  const Kokkos::Array<long long, 3> first{grid.global_index(0, 0), grid.global_index(1, 0),
                                          grid.global_index(2, 0)};
  hcart::for_each_cell("fill", grid.owned_box(), FillPairs{u1, u2, w1, w2, first});
  a.exchange(u1, w1);
  b.exchange(u2, w2);
  int differ = 0;
  hcart::reduce_cells("differ", grid.with_halo_box(), CountDifferences{u1, u2, w1, w2}, differ);
  EXPECT_EQ(differ, 0);
}

TEST(HaloExchanger, AFieldOfTheWrongSizeIsAnErrorOnEveryRank) {
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(16, false));
  const hcart::Grid grid(decomp);
  hcart::HaloExchanger halo(grid);
  auto good = grid.make_field<double>("good");
  // Only rank 0 passes a field of the wrong extents.
  auto bad =
      world_rank() == 0 ? hcart::Field<double>("bad", 3, 3, 3) : grid.make_field<double>("bad");
  try {
    halo.exchange(good, bad);
    FAIL() << "expected an error";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("field 'bad' has extents 3x3x3 on rank 0"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(halo.in_flight());
  EXPECT_NO_THROW(halo.exchange(good)); // still usable
}

TEST(HaloExchanger, RanksPassingDifferentFieldsIsAnErrorNotAHang) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) GTEST_SKIP() << "needs two ranks";
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(16, true));
  const hcart::Grid grid(decomp);
  hcart::HaloExchanger halo(grid);
  auto u = grid.make_field<double>("u");
  auto f = grid.make_field<float>("f");
  try {
    if (world_rank() == 0)
      halo.exchange(u, f);
    else
      halo.exchange(u);
    FAIL() << "expected an error";
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("passed different fields"), std::string::npos) << e.what();
  }
}

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

TEST(Grid, ABlockThinnerThanItsHaloIsRefusedOnEveryRank) {
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

namespace {
// One exchange in which the last rank passes a bad field: of other extents, or of another
// type. `later`: after a first good exchange with the same exchanger.
enum class Bad { Extents, Type };
void exchange_with_one_bad_rank(const hcart::Grid& grid, hcart::HaloExchanger& halo, Bad bad,
                                bool split) {
  const auto u = grid.make_field<double>("u");
  const auto good = grid.make_field<double>("v");
  const auto wrong_size = hcart::Field<double>("v", 5, 4, 3);
  const auto wrong_type = grid.make_field<float>("v");
  const bool odd = world_rank() == hcart::test::world_size() - 1;
  auto run = [&](const auto& second) {
    if (split) {
      halo.start(u, second);
      halo.finish();
    } else {
      halo.exchange(u, second);
    }
  };
  if (!odd) {
    run(good);
  } else if (bad == Bad::Extents) {
    run(wrong_size);
  } else {
    run(wrong_type);
  }
}
} // namespace

// A bad field on ONE rank, at the first exchange or a later one, blocking or split, Faces
// or Full: an InputError on every rank, never a hang, and the exchanger still works.
TEST(HaloExchanger, ABadFieldOnOneRankIsAnErrorOnEveryRankAtAnyExchange) {
  const hcart::Decomposition decomp(MPI_COMM_WORLD, cube(16, true));
  const hcart::Grid grid(decomp);
  for (auto mode : {hcart::HaloMode::Faces, hcart::HaloMode::Full}) {
    for (bool later : {false, true}) {
      for (bool split : {false, true}) {
        for (Bad bad : {Bad::Extents, Bad::Type}) {
          // Another type on the only rank is simply another set of fields.
          if (bad == Bad::Type && hcart::test::world_size() == 1) continue;
          hcart::HaloExchanger halo(grid, mode);
          const auto u = grid.make_field<double>("u"), v = grid.make_field<double>("v");
          if (later) halo.exchange(u, v);
          const std::string what = std::string(mode == hcart::HaloMode::Faces ? "Faces" : "Full") +
                                   (later ? ", later" : ", first") +
                                   (split ? ", split" : ", blocking") +
                                   (bad == Bad::Extents ? ", extents" : ", type");
          try {
            exchange_with_one_bad_rank(grid, halo, bad, split);
            ADD_FAILURE() << what << ": expected an error";
          } catch (const hcart::InputError& e) {
            EXPECT_TRUE(e.collective()) << what;
            const std::string expected = bad == Bad::Extents
                                             ? "field 'v' has extents 5x4x3 on rank " +
                                                   std::to_string(hcart::test::world_size() - 1)
                                             : "passed different fields";
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
                << what << ": " << e.what();
          }
          EXPECT_FALSE(halo.in_flight()) << what;
          EXPECT_NO_THROW(halo.exchange(u, v)) << what << ": unusable after the error";
        }
      }
    }
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
