// The benchmarks' multigrid problem: Jacobi3D's manufactured Poisson problem (its poisson
// deck) solved by its multigrid to 1e-10 of the first residual, without progress lines
// (MultigridBench.cpp, PetscBench.cpp, HypreBench.cpp).
#pragma once

#include "Multigrid.hpp"

namespace hcart::bench {

/// \brief `levels` multigrid levels (0: as many as the mesh halves into), at most
/// `max_cycles` cycles.
inline jacobi::Settings poisson_multigrid(long levels = 0, long max_cycles = 100) {
  jacobi::Settings s;
  s.problem = jacobi::Problem::Poisson;
  s.solver = jacobi::Settings::Method::Multigrid;
  s.multigrid.levels = levels;
  s.max_iterations = max_cycles;
  s.tolerance = 1e-10;
  s.progress_seconds = 0;
  return s;
}

} // namespace hcart::bench
