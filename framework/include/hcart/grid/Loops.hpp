// Loops over boxes of cells: the launchers hcart's kernels and users' kernels go through.
//
//   struct Scale {                                   // a functor: runs on every backend
//     hcart::Field<double> u;  double factor;
//     KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { u(i, j, k) *= factor; }
//   };
//   hcart::for_each_cell("scale", grid.owned_box(), Scale{u, 2.0});
//   double total = 0;
//   hcart::reduce_cells("sum", grid.owned_box(), SumOf{u}, total);          // a sum
//   hcart::reduce_cells("max", box, MaxOf{u}, Kokkos::Max<double>(worst));  // any reducer
//
// The functor is called as f(i, j, k) (reductions: f(i, j, k, value&)) on local indices,
// k fastest, through the grid's 3D policy. An empty box runs nothing. Under CUDA a
// KOKKOS_LAMBDA works too where nvcc allows one (a free function or a public member
// function; not a constructor, a private member or a GoogleTest TEST body).
#pragma once

#include <hcart/grid/Box.hpp>
#include <hcart/grid/Field.hpp>

#include <string>
#include <utility>

namespace hcart {

/// \brief The grid's 3D policy over `box` (k fastest); an empty box gives an empty policy.
inline GridPolicy policy_of(const Box& box) {
  auto top = [&](int d) { return box.hi[d] > box.lo[d] ? box.hi[d] : box.lo[d]; };
  return GridPolicy({box.lo[0], box.lo[1], box.lo[2]}, {top(0), top(1), top(2)});
}

/// \brief Runs f(i, j, k) for every cell of `box`, on the execution space.
template <class Functor>
void for_each_cell(const std::string& label, const Box& box, const Functor& f) {
  if (box.empty()) return;
  Kokkos::parallel_for(label, policy_of(box), f);
}

/// \brief Reduces f(i, j, k, value&) over the cells of `box` into `result` (a scalar for a
/// sum, or a Kokkos reducer such as Kokkos::Max<double>(x)); an empty box gives the
/// reduction's identity. Blocks until done when `result` is a host scalar or reducer.
template <class Functor, class Result>
void reduce_cells(const std::string& label, const Box& box, const Functor& f, Result&& result) {
  Kokkos::parallel_reduce(label, policy_of(box), f, std::forward<Result>(result));
}

} // namespace hcart
