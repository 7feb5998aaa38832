// The halo exchanger. On random configurations: after an exchange every halo cell holds an
// analytic function of its (wrapped) global index, cells outside non-periodic boundaries
// and (in Faces mode) edges and corners are untouched, split phase equals blocking, and
// the byte counters equal the traffic model; with any exchange width (only the layers next
// to the owned cells move) and either loop pattern of the pack and unpack kernels. Also:
// nothing is allocated after the first call, and one message per neighbour for several
// fields gives the halos of one message per field. (Its errors:
// HaloExchangerErrorsTest.cpp; messages past a GPU launch limit:
// HaloExchangerLargeMessagesTest.cpp.)
#include "Specs.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/mapping/Factorize.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

// GCC cannot see that the replaced operator new below is malloc-based.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

using hcart::test::cube;

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

int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

constexpr double untouched = -7.0;

// A value no two cells or fields share, exact in float: (field, gx, gy, gz) -> integer.
double analytic(int field, std::int64_t gx, std::int64_t gy, std::int64_t gz) {
  return static_cast<double>(field * 100000 + gx * 2500 + gy * 50 + gz);
}

template <class T>
void fill(const hcart::Grid& grid, hcart::Field<T>& f, int id) {
  auto host = hcart::host_mirror(f);
  const auto e = grid.extent();
  for (int i = 0; i < e[0]; ++i)
    for (int j = 0; j < e[1]; ++j)
      for (int k = 0; k < e[2]; ++k) {
        const bool owned = grid.is_owned(i, j, k);
        host(i, j, k) =
            owned ? static_cast<T>(analytic(id, grid.global_index(0, i), grid.global_index(1, j),
                                            grid.global_index(2, k)))
                  : static_cast<T>(untouched);
      }
  Kokkos::deep_copy(f, host);
}

// Number of wrong cells. Filled: halo cells within `width` layers of the owned cells (in
// every direction they lie outside), across a neighbour, and (Faces) outside in one direction.
template <class T>
long check(const hcart::Grid& grid, const hcart::Field<T>& f, int id, hcart::HaloMode mode,
           const std::array<int, 3>& width) {
  auto host = hcart::host_copy(f);
  const auto& spec = grid.decomposition().spec();
  const auto e = grid.extent();
  long wrong = 0;
  for (int i = 0; i < e[0]; ++i)
    for (int j = 0; j < e[1]; ++j)
      for (int k = 0; k < e[2]; ++k) {
        const int local[3] = {i, j, k};
        std::int64_t g[3];
        int outside = 0;
        bool physical = false, beyond = false;
        for (int d = 0; d < 3; ++d) {
          g[d] = grid.global_index(d, local[d]);
          const int below = grid.owned(d).begin - local[d],
                    above = local[d] - grid.owned(d).end + 1;
          if (below > 0 || above > 0) ++outside;
          if (below > width[d] || above > width[d]) beyond = true;
          if (g[d] < 0 || g[d] >= spec.global_size[d]) {
            if (!spec.periodic[d]) physical = true;
            g[d] = (g[d] + spec.global_size[d]) % spec.global_size[d];
          }
        }
        const bool filled = !physical && !beyond && (outside <= 1 || mode == hcart::HaloMode::Full);
        const double expected = filled ? analytic(id, g[0], g[1], g[2]) : untouched;
        if (static_cast<double>(host(i, j, k)) != expected) ++wrong;
      }
  return wrong;
}

struct Config {
  std::array<std::int64_t, 3> size;
  std::array<int, 3> halo;
  std::array<bool, 3> periodic;
  hcart::Strategy strategy;
  std::string machine;
  hcart::Placement placement;
  hcart::HaloMode mode;
  hcart::FullMethod method;
  bool aggregate;
  int fields;
  bool use_float;
  int width;                  // HaloOptions::width (0: all layers)
  hcart::LoopPattern pattern; // of the pack and unpack kernels
};

Config random_config(std::mt19937_64& rng, int P) {
  Config c;
  for (int d = 0; d < 3; ++d) {
    c.size[d] = 1 + static_cast<std::int64_t>(rng() % 40);
    c.halo[d] = static_cast<int>(rng() % 4);
    c.periodic[d] = rng() % 2 == 0;
  }
  const hcart::Strategy strategies[] = {hcart::Strategy::Mpi, hcart::Strategy::Weighted,
                                        hcart::Strategy::Hierarchical, hcart::Strategy::Levelwise};
  c.strategy = strategies[rng() % 4];
  const auto divs = hcart::divisors(P);
  const std::int64_t nodes = divs[rng() % divs.size()];
  c.machine = "node:" + std::to_string(nodes) + " core:" + std::to_string(P / nodes);
  c.placement = rng() % 2 ? hcart::Placement::Block : hcart::Placement::RoundRobin;
  c.mode = rng() % 2 ? hcart::HaloMode::Faces : hcart::HaloMode::Full;
  c.method = rng() % 2 ? hcart::FullMethod::ThreePhase : hcart::FullMethod::Concurrent;
  c.aggregate = rng() % 3 != 0;
  c.fields = 1 + static_cast<int>(rng() % 3);
  c.use_float = rng() % 2 == 0;
  c.width = static_cast<int>(rng() % 4);
  const bool rows = rng() % 2 == 0;
  c.pattern =
      rows && hcart::host_execution ? hcart::LoopPattern::HostRows : hcart::LoopPattern::Portable;
  return c;
}

// Per call and bound (HaloExchanger::bind) at both widths, blocking and split.
template <class T>
void run_config(const Config& c, const hcart::Decomposition& decomp, long& wrong) {
  const hcart::Grid grid(decomp);
  hcart::HaloOptions options;
  options.full_method = c.method;
  options.aggregate_fields = c.aggregate;
  options.width = c.width;
  hcart::HaloExchanger halo(grid, c.mode, options);
  halo.set_loop_pattern(c.pattern);
  const std::array<int, 3> width = halo.width();
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(width[d],
              c.width == 0 ? grid.halo_width()[d] : std::min(c.width, grid.halo_width()[d]));
  }
  std::vector<hcart::Field<T>> f;
  for (int i = 0; i < 3; ++i) {
    f.push_back(grid.make_field<T>("f" + std::to_string(i)));
    fill(grid, f.back(), i);
  }
  if (c.fields == 1) halo.exchange(f[0]);
  if (c.fields == 2) halo.exchange(f[0], f[1]);
  if (c.fields == 3) halo.exchange(f[0], f[1], f[2]);
  for (int i = 0; i < c.fields; ++i)
    wrong += check(grid, f[i], i, c.mode, width);
  // Split phase gives the same result.
  for (int i = 0; i < c.fields; ++i)
    fill(grid, f[i], i);
  if (c.fields == 1) halo.start(f[0]);
  if (c.fields == 2) halo.start(f[0], f[1]);
  if (c.fields == 3) halo.start(f[0], f[1], f[2]);
  EXPECT_TRUE(halo.in_flight());
  halo.finish();
  for (int i = 0; i < c.fields; ++i)
    wrong += check(grid, f[i], i, c.mode, width);
  // Counters against the traffic model (faces, or all 26 neighbours sent directly; every
  // layer of the halo).
  if ((c.mode == hcart::HaloMode::Faces || c.method == hcart::FullMethod::Concurrent) &&
      width == grid.halo_width()) {
    const auto model =
        hcart::traffic_model(decomp.plan(), decomp.machine(), decomp.spec().to_mesh(),
                             {static_cast<int>(sizeof(T)), c.mode == hcart::HaloMode::Full});
    const auto& counted = halo.counters();
    for (std::size_t l = 0; l < counted.bytes.size(); ++l) {
      long long bytes = counted.bytes[l], messages = counted.messages[l];
      MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_LONG_LONG, MPI_SUM, decomp.comm());
      MPI_Allreduce(MPI_IN_PLACE, &messages, 1, MPI_LONG_LONG, MPI_SUM, decomp.comm());
      EXPECT_EQ(bytes, 2LL * c.fields * model.levels[l].bytes) << counted.level_names[l];
      EXPECT_EQ(messages, 2LL * (c.aggregate ? 1 : c.fields) * model.levels[l].messages)
          << counted.level_names[l];
    }
  }
  // Another width for one call (HaloWidth), then the exchanger's own again: each fills
  // the cells of its width, and calls after the first with each allocate nothing.
  // The next width whose layers differ from the exchanger's own where the halo allows it.
  const auto layers_of = [&](int w) {
    std::array<int, 3> out{};
    for (int d = 0; d < 3; ++d)
      out[d] = w == 0 ? grid.halo_width()[d] : std::min(w, grid.halo_width()[d]);
    return out;
  };
  int other = (c.width + 1) % 4;
  for (int step = 2; step < 4 && layers_of(other) == width; ++step)
    other = (c.width + step) % 4;
  const std::array<int, 3> other_width = layers_of(other);
  const auto exchange_fields = [&](bool per_call) {
    for (int i = 0; i < c.fields; ++i)
      fill(grid, f[i], i);
    const hcart::HaloWidth w{other};
    if (c.fields == 1) per_call ? halo.exchange(w, f[0]) : halo.exchange(f[0]);
    if (c.fields == 2) per_call ? halo.exchange(w, f[0], f[1]) : halo.exchange(f[0], f[1]);
    if (c.fields == 3)
      per_call ? halo.exchange(w, f[0], f[1], f[2]) : halo.exchange(f[0], f[1], f[2]);
    for (int i = 0; i < c.fields; ++i)
      wrong += check(grid, f[i], i, c.mode, per_call ? other_width : width);
  };
  exchange_fields(true);
  exchange_fields(false);
  const std::size_t allocations = halo.allocation_count();
  exchange_fields(true);
  exchange_fields(false);
  EXPECT_EQ(halo.allocation_count(), allocations) << "widths met before allocate nothing";
  // A width per direction (HaloWidth{x, y, z}, 0 the whole halo there): each direction its
  // own layers, in Full mode the edges and corners as deep as the directions they join;
  // bound or not.
  for (const std::array<int, 3>& asked :
       {std::array<int, 3>{3, 1, 2}, std::array<int, 3>{1, 0, 1}, std::array<int, 3>{2, 3, 0}}) {
    const hcart::HaloWidth w{asked[0], asked[1], asked[2]};
    std::array<int, 3> moved{};
    for (int d = 0; d < 3; ++d)
      moved[d] = asked[d] == 0 ? grid.halo_width()[d] : std::min(asked[d], grid.halo_width()[d]);
    for (bool bound : {false, true}) {
      for (int i = 0; i < c.fields; ++i)
        fill(grid, f[i], i);
      if (bound) {
        hcart::HaloBinding b = c.fields == 1   ? halo.bind(w, f[0])
                               : c.fields == 2 ? halo.bind(w, f[0], f[1])
                                               : halo.bind(w, f[0], f[1], f[2]);
        EXPECT_EQ(b.width(), w);
        b.exchange();
      } else {
        if (c.fields == 1) halo.exchange(w, f[0]);
        if (c.fields == 2) halo.exchange(w, f[0], f[1]);
        if (c.fields == 3) halo.exchange(w, f[0], f[1], f[2]);
      }
      for (int i = 0; i < c.fields; ++i)
        wrong += check(grid, f[i], i, c.mode, moved);
    }
  }
  // Directions (HaloDirections), per call and bound: each set fills its own directions'
  // cells (in Full mode the edges and corners between them) and no cell across another.
  const hcart::HaloDirections sets[7] = {{0}, {1}, {0, 1}, {2}, {0, 2}, {1, 2}, {0, 1, 2}};
  for (unsigned mask = 1; mask < 8; ++mask) {
    const hcart::HaloDirections& dirs = sets[mask - 1];
    EXPECT_EQ(dirs.mask(), mask);
    std::array<int, 3> dir_width = width;
    for (int d = 0; d < 3; ++d)
      if (!dirs.has(d)) dir_width[d] = 0;
    for (bool bound : {false, true}) {
      for (int i = 0; i < c.fields; ++i)
        fill(grid, f[i], i);
      if (bound) {
        hcart::HaloBinding b = c.fields == 1   ? halo.bind(dirs, f[0])
                               : c.fields == 2 ? halo.bind(dirs, f[0], f[1])
                                               : halo.bind(dirs, f[0], f[1], f[2]);
        EXPECT_EQ(b.directions(), dirs);
        b.exchange();
      } else {
        if (c.fields == 1) halo.exchange(dirs, f[0]);
        if (c.fields == 2) halo.exchange(dirs, f[0], f[1]);
        if (c.fields == 3) halo.exchange(c.mode, hcart::HaloWidth{c.width}, dirs, f[0], f[1], f[2]);
      }
      for (int i = 0; i < c.fields; ++i)
        wrong += check(grid, f[i], i, c.mode, dir_width);
    }
  }
  // A split scheme's traffic: in Faces mode, x, y and z one by one move the bytes and
  // messages of one exchange of every direction, level by level.
  if (c.mode == hcart::HaloMode::Faces) {
    halo.reset_counters();
    halo.exchange(f[0]);
    const hcart::HaloCounters all = halo.counters();
    halo.reset_counters();
    for (int d = 0; d < 3; ++d)
      halo.exchange(hcart::HaloDirections{d}, f[0]);
    EXPECT_EQ(halo.counters().bytes, all.bytes);
    EXPECT_EQ(halo.counters().messages, all.messages);
  }
  // Bound once (HaloExchanger::bind), at the exchanger's width and at the other: exchanges
  // through the bindings, blocking and split, fill the same cells.
  const auto bind = [&](int layers) {
    const hcart::HaloWidth w{layers};
    if (c.fields == 1) return halo.bind(w, f[0]);
    if (c.fields == 2) return halo.bind(w, f[0], f[1]);
    return halo.bind(w, f[0], f[1], f[2]);
  };
  hcart::HaloBinding own = bind(c.width), deeper = bind(other);
  EXPECT_EQ(own.size(), static_cast<std::size_t>(c.fields));
  for (bool split : {false, true}) {
    for (hcart::HaloBinding* binding : {&own, &deeper}) {
      for (int i = 0; i < c.fields; ++i)
        fill(grid, f[i], i);
      if (split) {
        binding->start();
        EXPECT_TRUE(halo.in_flight());
        binding->finish();
      } else {
        binding->exchange();
      }
      for (int i = 0; i < c.fields; ++i)
        wrong += check(grid, f[i], i, c.mode, binding == &own ? width : other_width);
    }
  }
}

} // namespace

// How many random configurations: 320; 96 under the sanitizers (CI stage 2) and what
// HCART_TEST_HALO_TRIALS says where it is set (the cluster cases, whose ranks talk over TCP
// between hosts: tests/cluster/cluster_case.sh). Each of a configuration's two-way choices
// (mode, method, field type, loop pattern, placement) is an even draw, so 64 trials take
// each both ways many times; more trials draw more sizes, halos and dims.
int halo_trials() {
#ifdef HCART_TEST_SANITIZED
  int trials = 96;
#else
  int trials = 320;
#endif
  if (const char* s = std::getenv("HCART_TEST_HALO_TRIALS")) {
    trials = std::atoi(s);
    if (trials < 32)
      ADD_FAILURE() << "HCART_TEST_HALO_TRIALS=" << s << ": expected a count of at least 32";
  }
  return trials;
}

TEST(HaloExchanger, RandomConfigurationsFillEveryHaloCellCorrectly) {
  const int P = world_size();
  const int trials = halo_trials();
  std::mt19937_64 rng(4242 + P); // the same sequence on every rank
  int run = 0, skipped = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const Config c = random_config(rng, P);
    hcart::GridSpec spec;
    spec.global_size = c.size;
    spec.halo_width = c.halo;
    spec.periodic = c.periodic;
    hcart::DecompositionOptions options;
    options.strategy = c.strategy;
    options.machine = c.machine;
    options.placement = c.placement;
    std::unique_ptr<hcart::Decomposition> decomp;
    try {
      decomp = std::make_unique<hcart::Decomposition>(MPI_COMM_WORLD, spec, options);
    } catch (const hcart::InputError& e) {
      ASSERT_TRUE(e.collective());
      ++skipped; // the mesh is too small for P ranks: agreed on every rank
      continue;
    }
    long wrong = 0;
    if (c.use_float)
      run_config<float>(c, *decomp, wrong);
    else
      run_config<double>(c, *decomp, wrong);
    ASSERT_EQ(wrong, 0) << "trial " << trial << ": size " << c.size[0] << "x" << c.size[1] << "x"
                        << c.size[2] << " halo " << c.halo[0] << c.halo[1] << c.halo[2]
                        << " periodic " << c.periodic[0] << c.periodic[1] << c.periodic[2]
                        << " mode " << (c.mode == hcart::HaloMode::Full ? "full" : "faces")
                        << " method " << (c.method == hcart::FullMethod::Concurrent ? "26" : "3")
                        << " fields " << c.fields << " width " << c.width << " pattern "
                        << (c.pattern == hcart::LoopPattern::HostRows ? "rows" : "portable")
                        << " dims " << decomp->dims()[0] << "x" << decomp->dims()[1] << "x"
                        << decomp->dims()[2];
    ++run;
  }
  EXPECT_EQ(run + skipped, trials);
  EXPECT_GE(run, trials * 15 / 32); // most configurations fit: the test is not all skips
}

// Plans that are not a grid of equal node boxes: node regions (guillotine boxes of different
// shapes) and row-major runs. Every halo cell right, in every mode.
TEST(HaloExchanger, PermutedPlansFillEveryHaloCell) {
  const int P = world_size();
  if (P != 6) GTEST_SKIP() << "the permuted plans below are 6-rank plans";
  struct Case {
    std::array<std::int64_t, 3> size;
    std::array<int, 3> halo;
    std::array<bool, 3> periodic;
    const char* machine;
    hcart::HaloMode mode;
    hcart::PlanLayout layout;
  };
  const Case cases[] = {
      {{17, 17, 17},
       {1, 1, 1},
       {false, false, false},
       "node:3 core:2",
       hcart::HaloMode::Full,
       hcart::PlanLayout::NodeRegions},
      {{12, 12, 12},
       {1, 1, 1},
       {false, false, false},
       "node:3 core:2",
       hcart::HaloMode::Full,
       hcart::PlanLayout::NodeRegions},
      {{20, 18, 22},
       {1, 1, 1},
       {false, false, false},
       "node:3 core:2",
       hcart::HaloMode::Full,
       hcart::PlanLayout::NodeRegions},
      {{14, 12, 10},
       {3, 3, 3},
       {false, false, false},
       "node:2 core:3",
       hcart::HaloMode::Full,
       hcart::PlanLayout::RowMajorRuns},
  };
  for (const Case& k : cases) {
    for (hcart::Placement placement : {hcart::Placement::Block, hcart::Placement::RoundRobin}) {
      hcart::GridSpec spec;
      spec.global_size = k.size;
      spec.halo_width = k.halo;
      spec.periodic = k.periodic;
      hcart::DecompositionOptions options;
      options.machine = k.machine;
      options.placement = placement;
      options.traffic.corners = k.mode == hcart::HaloMode::Full;
      const hcart::Decomposition decomp(MPI_COMM_WORLD, spec, options);
      EXPECT_EQ(decomp.plan().layout, k.layout) << decomp.plan().describe_layout();
      for (bool concurrent : {true, false}) {
        Config c{k.size,
                 k.halo,
                 k.periodic,
                 hcart::Strategy::Hierarchical,
                 k.machine,
                 placement,
                 k.mode,
                 concurrent ? hcart::FullMethod::Concurrent : hcart::FullMethod::ThreePhase,
                 true,
                 2,
                 false,
                 0,
                 hcart::LoopPattern::Portable};
        long wrong = 0;
        run_config<double>(c, decomp, wrong);
        EXPECT_EQ(wrong, 0) << decomp.plan().describe_layout();
      }
    }
  }
}

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
    // Bound fields: nothing allocated per exchange either.
    hcart::HaloBinding bound = halo.bind(u, v);
    bound.exchange();
    const long bound_before = allocations.load();
    for (int step = 0; step < 3; ++step) {
      bound.exchange();
      halo.exchange(u);
    }
    EXPECT_EQ(allocations.load() - bound_before, 0) << "C++ allocations in bound exchanges";
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

// Fields with components and lists of run-time length: every component's halo is filled as
// a field's would be, in one message per neighbour for all (or one per value), per call and
// bound, in both modes; the counters count every component.
TEST(HaloExchanger, ComponentFieldsAndListsFillEveryHaloCell) {
  hcart::GridSpec spec;
  spec.global_size = {18, 14, 11};
  spec.halo_width = {2, 1, 2};
  spec.periodic = {true, false, true};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  for (auto mode : {hcart::HaloMode::Faces, hcart::HaloMode::Full}) {
    for (bool aggregate : {true, false}) {
      for (bool bound : {false, true}) {
        hcart::HaloOptions options;
        options.aggregate_fields = aggregate;
        hcart::HaloExchanger halo(grid, mode, options), single(grid, mode, options);
        auto f = grid.make_components<double>("f", 5);
        auto w = grid.make_field<float>("w");
        std::vector<hcart::Field<int>> list{grid.make_field<int>("l0"), grid.make_field<int>("l1")};
        for (int c = 0; c < 5; ++c) {
          hcart::Field<double> fc = hcart::component(f, c);
          fill(grid, fc, c);
        }
        fill(grid, w, 5);
        fill(grid, list[0], 6);
        fill(grid, list[1], 7);
        if (bound) {
          hcart::HaloBinding binding = halo.bind(f, w, list);
          EXPECT_EQ(binding.size(), 4u);
          binding.exchange();
        } else {
          halo.exchange(f, w, list);
        }
        const std::string what = std::string(mode == hcart::HaloMode::Full ? "Full" : "Faces") +
                                 (aggregate ? ", one message" : ", a message per value") +
                                 (bound ? ", bound" : ", per call");
        long wrong = 0;
        for (int c = 0; c < 5; ++c)
          wrong += check(grid, hcart::component(f, c), c, mode, grid.halo_width());
        wrong += check(grid, w, 5, mode, grid.halo_width());
        wrong += check(grid, list[0], 6, mode, grid.halo_width());
        wrong += check(grid, list[1], 7, mode, grid.halo_width());
        EXPECT_EQ(wrong, 0) << what;
        // Against one float field's exchange: 8 values a cell, 52 bytes for its 4.
        auto lone = grid.make_field<float>("lone");
        single.exchange(lone);
        const auto& all = halo.counters();
        const auto& one = single.counters();
        for (std::size_t l = 0; l < all.bytes.size(); ++l) {
          EXPECT_EQ(all.bytes[l] * 4, one.bytes[l] * (5 * 8 + 4 + 2 * 4)) << what;
          EXPECT_EQ(all.messages[l], one.messages[l] * (aggregate ? 1 : 8)) << what;
        }
      }
    }
  }
}

// The mode per call (and per binding), on one exchanger: Faces calls leave edges and
// corners untouched, Full calls fill them, whatever the exchanger's own mode; a width and a
// mode together; binding each; and the two kinds alternate without allocating anew.
TEST(HaloExchanger, TheModeChosenPerCallOrBinding) {
  hcart::GridSpec spec = cube(12, true);
  spec.halo_width = {2, 2, 2};
  spec.periodic = {true, false, true};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  auto u = grid.make_field<double>("u");
  const std::array<int, 3> all = grid.halo_width(), one{1, 1, 1};
  for (const hcart::HaloMode own : {hcart::HaloMode::Faces, hcart::HaloMode::Full}) {
    hcart::HaloExchanger halo(grid, own);
    for (const hcart::HaloMode call : {hcart::HaloMode::Full, hcart::HaloMode::Faces}) {
      fill(grid, u, 1);
      halo.exchange(call, u);
      EXPECT_EQ(check(grid, u, 1, call, all), 0);
      fill(grid, u, 2);
      halo.exchange(call, hcart::HaloWidth{1}, u);
      EXPECT_EQ(check(grid, u, 2, call, one), 0);
      fill(grid, u, 3);
      halo.start(call, u);
      halo.finish();
      EXPECT_EQ(check(grid, u, 3, call, all), 0);
      fill(grid, u, 4);
      hcart::HaloBinding b = halo.bind(call, hcart::HaloWidth{1}, u);
      EXPECT_EQ(b.mode(), call);
      EXPECT_EQ(b.width(), hcart::HaloWidth{1});
      b.exchange();
      EXPECT_EQ(check(grid, u, 4, call, one), 0);
    }
    fill(grid, u, 5);
    halo.exchange(u); // the exchanger's own mode
    EXPECT_EQ(check(grid, u, 5, own, all), 0);
    // Both kinds met: alternating allocates nothing more.
    const std::size_t before = halo.allocation_count();
    for (int r = 0; r < 3; ++r) {
      halo.exchange(hcart::HaloMode::Full, u);
      halo.exchange(hcart::HaloMode::Faces, u);
    }
    EXPECT_EQ(halo.allocation_count(), before);
  }
}
