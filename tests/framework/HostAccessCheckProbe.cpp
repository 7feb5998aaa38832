// Probe of the host-access check (HCART_CHECK_HOST_ACCESS, docs/testing.md): run on one
// rank by check_host_access.cmake.
//   read    reads a field's value in host code: the check must stop it
//   write   writes one in host code: the check must stop it
//   mirror  the same through hcart::host_mirror / hcart::host_copy and a kernel: must pass
#include <hcart/core/Main.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/Loops.hpp>

#include <cstdio>
#include <string>

namespace {

struct Double {
  hcart::Field<double> u;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { u(i, j, k) *= 2.0; }
};

} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "host-access-probe", [&](hcart::Environment&) {
    const std::string mode = argc > 1 ? argv[1] : "";
    hcart::GridSpec spec;
    spec.global_size = {24, 24, 24};
    const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
    const hcart::Grid grid(decomp);
    const hcart::Field<double> u = grid.make_field<double>("probe_field");
    if (mode == "read") {
      const double value = u(12, 12, 12);
      std::printf("probe: read %g on the host\n", value);
      return 0;
    }
    if (mode == "write") {
      u(12, 12, 12) = 1.0;
      std::printf("probe: wrote on the host\n");
      return 0;
    }
    const auto start = hcart::host_mirror(u);
    for (std::size_t c = 0; c < start.size(); ++c)
      start.data()[c] = static_cast<double>(c);
    Kokkos::deep_copy(u, start);
    hcart::for_each_cell("probe_double", grid.with_halo_box(), Double{u});
    const auto end = hcart::host_copy(u);
    long wrong = 0;
    for (std::size_t c = 0; c < end.size(); ++c)
      wrong += end.data()[c] != 2.0 * static_cast<double>(c);
    std::printf("probe: %s (%ld wrong values)\n", wrong == 0 ? "ok" : "FAILED", wrong);
    return wrong == 0 ? 0 : 1;
  });
}
