// Jacobi3D's kernels: the host row loop and the portable per-cell kernel write the same
// bits and find the same residual (non-finite changes as infinity), and the Poisson
// right-hand side is the host's bits on every backend.
#include "PointUpdates.hpp"
#include "PoissonRhs.hpp"
#include "Relax.hpp"
#include "WorldRanks.hpp"

#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace hcart;
using hcart::test::world_rank;

namespace {
// Bitwise equality of two doubles (NaN-safe, -0 and +0 apart).
bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}
} // namespace

// The Poisson right-hand side is the host's bits on every backend: the tables hold the
// host's sin(pi x) for every local index, and the kernel only multiplies table entries
// (tables of arbitrary values show in the field exactly, which a kernel calling its own sin
// could not do).
TEST(Jacobi, PoissonRightHandSideIsTheHostsBitsOnEveryBackend) {
  GridSpec spec;
  spec.global_size = {13, 11, 9};
  spec.halo_width = {2, 1, 3};
  const Decomposition decomp(MPI_COMM_WORLD, spec);
  const Grid grid(decomp);
  std::array<jacobi::SineTable, 3> tables;
  long wrong = 0;
  for (int d = 0; d < 3; ++d) {
    tables[d] = jacobi::sine_table(grid, d);
    const auto host = hcart::host_copy(tables[d]);
    ASSERT_EQ(host.extent(0), static_cast<std::size_t>(grid.extent()[d]));
    for (int i = 0; i < grid.extent()[d]; ++i) {
      const double x = jacobi::coordinate(grid.global_index(d, i), spec.global_size[d]);
      wrong += !same_bits(host(i), std::sin(jacobi::kPi * x));
    }
  }
  EXPECT_EQ(wrong, 0) << "table entries that are not the host's sin(pi x)";
  // Arbitrary table values: 1 + i / 7 + d / 3 (not sines of anything).
  for (int d = 0; d < 3; ++d) {
    const auto host = hcart::host_mirror(tables[d]);
    for (int i = 0; i < grid.extent()[d]; ++i)
      host(i) = 1.0 + i / 7.0 + d / 3.0;
    Kokkos::deep_copy(tables[d], host);
  }
  const Field<double> f = grid.make_field<double>("f");
  jacobi::fill_poisson_rhs(f, grid.with_halo_box(), tables[0], tables[1], tables[2]);
  const auto hf = hcart::host_copy(f);
  auto entry = [](int d, int i) { return 1.0 + i / 7.0 + d / 3.0; };
  wrong = 0;
  for (int i = 0; i < grid.extent()[0]; ++i)
    for (int j = 0; j < grid.extent()[1]; ++j)
      for (int k = 0; k < grid.extent()[2]; ++k)
        wrong += !same_bits(hf(i, j, k),
                            jacobi::poisson_rhs_of_sines(entry(0, i), entry(1, j), entry(2, k)));
  EXPECT_EQ(wrong, 0) << "cells that are not the product of their table entries";
}

namespace {
// u and rhs, halos included, from xorshift64: values with all bits of the mantissa in use.
void fill_random(const Field<double>& u, const Field<double>& rhs) {
  auto hu = hcart::host_mirror(u), hf = hcart::host_mirror(rhs);
  unsigned long long x = 88172645463325252ULL + static_cast<unsigned long long>(world_rank());
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return static_cast<double>(x % 1000003) / 997.0 - 500.0;
  };
  for (std::size_t c = 0; c < hu.size(); ++c) {
    hu.data()[c] = next();
    hf.data()[c] = next();
  }
  Kokkos::deep_copy(u, hu);
  Kokkos::deep_copy(rhs, hf);
}
} // namespace

namespace {
GridSpec relax_spec() {
  GridSpec spec;
  spec.global_size = {13, 17, 19};
  return spec;
}

} // namespace

// Both loop patterns of jacobi::relax on one grid, u and rhs random (host builds only: the
// row pattern exists there alone). In a named namespace: the tests derive from it, and a
// base in an anonymous namespace is a warning (-Wsubobject-linkage) once a unity build
// includes this file into another.
namespace hcart::test {
class RelaxPatterns : public ::testing::Test {
protected:
  struct Both {
    Field<double> rows, cells; // what each pattern wrote
    double rows_residual, cells_residual;
  };

  void SetUp() override {
    if (!host_execution) GTEST_SKIP() << "the host row pattern exists in host builds only";
    fill_random(u, rhs);
  }
  Both relax_both(const Box& box, bool poisson, bool check) const {
    Both r{grid.make_field<double>("rows"), grid.make_field<double>("cells"), 0.0, 0.0};
    r.rows_residual =
        jacobi::relax(LoopPattern::HostRows, {u, r.rows, rhs, poisson}, box, stencil, check);
    r.cells_residual =
        jacobi::relax(LoopPattern::Portable, {u, r.cells, rhs, poisson}, box, stencil, check);
    return r;
  }

  const Decomposition decomp{MPI_COMM_WORLD, relax_spec()};
  const Grid grid{decomp};
  const Field<double> u = grid.make_field<double>("u"), rhs = grid.make_field<double>("rhs");
  const jacobi::Stencil stencil = jacobi::make_stencil(13, 17, 19);
};
} // namespace hcart::test
using hcart::test::RelaxPatterns;

// The host row loop (LoopPattern::HostRows) and the portable kernel (what a device runs)
// write the same bits and find the same residual, on whole blocks and odd boxes, Laplace
// and Poisson.
TEST_F(RelaxPatterns, AgreeBitwise) {
  Box odd = grid.owned_box();
  odd.lo[0] += 1;
  odd.hi[2] -= 2;
  for (const Box& box : {grid.owned_box(), odd}) {
    for (bool poisson : {false, true}) {
      for (bool check : {false, true}) {
        const Both r = relax_both(box, poisson, check);
        const auto hr = hcart::host_copy(r.rows);
        const auto hc = hcart::host_copy(r.cells);
        EXPECT_EQ(std::memcmp(hr.data(), hc.data(), hr.size() * sizeof(double)), 0)
            << "poisson " << poisson << " check " << check;
        const double a = r.rows_residual, b = r.cells_residual;
        EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << a << " vs " << b;
        if (check) {
          EXPECT_GT(a, 0.0);
        }
        // Both wrote the box and nothing else.
        long written = 0;
        for (std::size_t c = 0; c < hr.size(); ++c)
          written += hr.data()[c] != 0.0;
        EXPECT_EQ(written, box.cells());
      }
    }
  }
}

// A change that is not finite (a NaN of either sign, or an infinity, in one cell of u) makes
// the residual +infinity in both patterns: the row loop's max over bit patterns must not
// drop a NaN whose sign bit is set, nor rank it below a finite change.
TEST_F(RelaxPatterns, ReportANonFiniteChangeAsInfinite) {
  const Box owned = grid.owned_box();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const double bad : {nan, -nan, inf, -inf}) {
    fill_random(u, rhs);
    // One cell near the middle of this rank's block (every rank holds one).
    auto hu = hcart::host_copy(u);
    hu((owned.lo[0] + owned.hi[0]) / 2, (owned.lo[1] + owned.hi[1]) / 2,
       (owned.lo[2] + owned.hi[2]) / 2) = bad;
    Kokkos::deep_copy(u, hu);
    for (bool poisson : {false, true}) {
      const Both r = relax_both(owned, poisson, true);
      EXPECT_EQ(r.rows_residual, inf) << "host rows, u holds " << bad << ", poisson " << poisson;
      EXPECT_EQ(r.cells_residual, inf) << "portable, u holds " << bad << ", poisson " << poisson;
    }
  }
}
