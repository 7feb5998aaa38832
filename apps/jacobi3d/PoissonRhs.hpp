// The Poisson right-hand side on a grid, the same bits on every backend.
//
//   const jacobi::SineTable sx = jacobi::sine_table(grid, 0), sy = ..., sz = ...;
//   jacobi::fill_poisson_rhs(rhs, grid.with_halo_box(), sx, sy, sz);
//
// f = -3 pi^2 sin(pi x) sin(pi y) sin(pi z) separates by direction: the host computes
// sin(pi x) once per local index of each direction (its own sin, as the tests' serial
// reference does), and the kernel only multiplies three table entries. A device's sin may
// differ from the host's in the last bit (CUDA's against glibc's: 9% of arguments in
// [0, 3)), which would break every bitwise comparison between a GPU run and a CPU run or the
// serial reference; products round the same everywhere.
#pragma once

#include "PointUpdates.hpp"

#include <hcart/grid/Box.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>

namespace hcart::jacobi {

/// \brief One factor of the right-hand side per local index of one direction.
using SineTable = Kokkos::View<double*, MemorySpace>;

/// \brief poisson_sine(coordinate(g, n)) for every local index of direction `dir` of
/// `grid`, halos included (g its global index, n the global size), computed on the host.
SineTable sine_table(const Grid& grid, int dir);

/// \brief f(i, j, k) = poisson_rhs_of_sines(sx(i), sy(j), sz(k)) over `box`.
void fill_poisson_rhs(const Field<double>& f, const Box& box, const SineTable& sx,
                      const SineTable& sy, const SineTable& sz);

} // namespace hcart::jacobi
