// Errors a rank sees on its own, ended by hcart::run_main (check_local_errors.cmake runs each
// mode on 3 ranks):
//   every      every rank applies boundaries to another grid's field (a local check whose
//              message holds each rank's extents): one line, every rank exits with 2;
//   same       every rank throws the same local InputError: one line, exit 2;
//   one        rank 1 alone fails while the others wait in a barrier: its line, MPI_Abort;
//   different  every rank fails, rank 0 with another failure than the rest: each its line,
//              MPI_Abort.
#include <hcart/core/Error.hpp>
#include <hcart/core/Main.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>

#include <mpi.h>

#include <string>

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "local-error-probe", [&](hcart::Environment& env) {
    const std::string mode = argc > 1 ? argv[1] : "";
    hcart::GridSpec spec;
    spec.global_size = {13, 13, 13}; // 3 ranks: blocks of 5, 4 and 4 along a direction
    const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
    const hcart::Grid grid(decomp);
    hcart::GridSpec other_spec = spec;
    other_spec.global_size = {10, 10, 10};
    const hcart::Decomposition other(MPI_COMM_WORLD, other_spec);
    const hcart::Grid other_grid(other);
    const auto v = other_grid.make_field<double>("v");
    const hcart::PhysicalBoundaries walls(grid);
    const auto fixed = hcart::BoundaryCondition::fixed_value(0.0);
    if (mode == "every") walls.apply(v, fixed);
    if (mode == "same") throw hcart::InputError("the same failure on every rank");
    if (mode == "one") {
      if (env.rank() == 1) walls.apply(v, fixed);
      MPI_Barrier(MPI_COMM_WORLD); // rank 1 never comes: the abort must end the others
    }
    if (mode == "different") {
      throw hcart::Error(env.rank() == 0 ? "a failure of rank 0" : "another kind of failure");
    }
    return 0;
  });
}
