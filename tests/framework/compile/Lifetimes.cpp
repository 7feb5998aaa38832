// The objects that refer to another (a Grid to its Decomposition, an exchanger and the
// physical boundaries to their Grid, a binding to its exchanger, a hierarchy to its fine
// Decomposition, a hierarchy's levels to the hierarchy) refuse temporaries at compile time.
// Compiled without HCART_MISUSE, the lawful uses (in every build); with it, each misuse below must
// be an error naming a deleted function (tests/framework/CMakeLists.txt, compile.lifetimes: 6
// errors).
#include <hcart/hcart.hpp>

namespace {
struct Fields {
  hcart::Field<double> u;
};
Fields make(const hcart::Grid& grid, int) {
  return Fields{grid.make_field<double>("u")};
}
} // namespace

void lifetimes(MPI_Comm comm, const hcart::GridSpec& spec, const hcart::Field<double>& u) {
  const hcart::Decomposition decomp(comm, spec);
  const hcart::Grid grid(decomp);
#ifndef HCART_MISUSE
  hcart::HaloExchanger halo(grid);
  const hcart::HaloBinding bound = halo.bind(u);
  const hcart::PhysicalBoundaries walls(grid);
  const hcart::GridHierarchy levels(decomp);
  const hcart::HierarchyLevels<Fields> fields(levels, make);
  (void)bound;
  (void)walls;
  (void)fields;
#else
  const hcart::Grid dangling_grid{hcart::Decomposition{comm, spec}};                        // 1
  hcart::HaloExchanger dangling_halo{hcart::Grid{decomp}};                                  // 2
  const hcart::PhysicalBoundaries dangling_walls{hcart::Grid{decomp}};                      // 3
  const hcart::HaloBinding dangling_binding = hcart::HaloExchanger{grid}.bind(u);           // 4
  const hcart::GridHierarchy dangling_levels{hcart::Decomposition{comm, spec}};             // 5
  const hcart::HierarchyLevels<Fields> dangling_fields{hcart::GridHierarchy{decomp}, make}; // 6
#endif
}
