// Halo messages larger than a GPU launch dimension (more than half a million cells per
// neighbour, GHEX #222): every halo cell holds the analytic value of its wrapped global
// index afterwards, and the host row pattern and the portable pattern of the pack and
// unpack kernels give bitwise the same fields.
#include "WorldRanks.hpp"

#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/halo/HaloExchanger.hpp>

#include <gtest/gtest.h>

#include <cstring>

namespace {

// Exact in double: gx < 2^10, gy, gz < 2^10.
KOKKOS_INLINE_FUNCTION double analytic(long long gx, long long gy, long long gz) {
  return static_cast<double>((gx * 1024 + gy) * 1024 + gz);
}

struct FillOwned {
  hcart::Field<double> u;
  hcart::Box owned;
  Kokkos::Array<long long, 3> first;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    u(i, j, k) =
        owned.contains(i, j, k) ? analytic(first[0] + i, first[1] + j, first[2] + k) : -1.0;
  }
};

// Cells that differ from the expected value: the wrapped analytic value in the halo layers
// of directions 0 (periodic, cut) and faces only; -1 elsewhere outside the owned cells.
struct CountWrong {
  hcart::Field<double> u;
  hcart::Box owned;
  Kokkos::Array<long long, 3> first, size;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, long& wrong) const {
    const int idx[3] = {i, j, k};
    int outside = 0, outside_dir = 0;
    for (int d = 0; d < 3; ++d) {
      if (idx[d] < owned.lo[d] || idx[d] >= owned.hi[d]) {
        ++outside;
        outside_dir = d;
      }
    }
    double expected = -1.0;
    if (outside == 0 || (outside == 1 && outside_dir == 0)) {
      const long long gx = ((first[0] + i) % size[0] + size[0]) % size[0];
      expected = analytic(gx, first[1] + j, first[2] + k);
    }
    wrong += u(i, j, k) != expected ? 1 : 0;
  }
};

} // namespace

TEST(HaloExchanger, MessagesOfMoreThanHalfAMillionCells) {
  const int P = hcart::test::world_size();
  hcart::GridSpec spec;
  spec.global_size = {4LL * P, 776, 776}; // a face of 776^2 = 602,176 cells per neighbour
  spec.halo_width = {1, 0, 0};
  spec.periodic = {true, false, false};
  hcart::DecompositionOptions manual;
  manual.strategy = hcart::Strategy::Manual;
  manual.dims = {P, 1, 1};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec, manual);
  const hcart::Grid grid(decomp);
  const Kokkos::Array<long long, 3> first{grid.global_index(0, 0), grid.global_index(1, 0),
                                          grid.global_index(2, 0)};
  const Kokkos::Array<long long, 3> size{spec.global_size[0], spec.global_size[1],
                                         spec.global_size[2]};
  std::vector<hcart::LoopPattern> patterns = {hcart::LoopPattern::Portable};
  if (hcart::host_execution) patterns.push_back(hcart::LoopPattern::HostRows);
  std::vector<hcart::Field<double>> results;
  for (hcart::LoopPattern pattern : patterns) {
    auto u = grid.make_field<double>("u");
    hcart::for_each_cell("fill", grid.with_halo_box(), FillOwned{u, grid.owned_box(), first});
    hcart::HaloExchanger halo(grid, hcart::HaloMode::Faces);
    halo.set_loop_pattern(pattern);
    halo.exchange(u);
    long wrong = 0;
    hcart::reduce_cells("wrong", grid.with_halo_box(), CountWrong{u, grid.owned_box(), first, size},
                        wrong);
    EXPECT_EQ(wrong, 0) << (pattern == hcart::LoopPattern::HostRows ? "host rows" : "portable");
    results.push_back(u);
  }
  if (results.size() == 2) {
    const auto a = hcart::host_copy(results[0]);
    const auto b = hcart::host_copy(results[1]);
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
  }
}
