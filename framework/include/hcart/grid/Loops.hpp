// Loops over boxes of cells: the launchers hcart's kernels and users' kernels go through.
//
//   struct Scale {                                   // a functor: runs on every backend
//     hcart::FieldAccessor<double> u;  double factor;
//     KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const { u(i, j, k) *= factor; }
//   };
//   hcart::for_each_cell("scale", grid.owned_box(), Scale{hcart::accessor(u), 2.0});
//   double total = 0;
//   hcart::reduce_cells("sum", grid.owned_box(), SumOf{u}, total);          // a sum
//   hcart::reduce_cells("max", box, MaxOf{u}, Kokkos::Max<double>(worst));  // any reducer
//
// The functor is called as f(i, j, k) (reductions: f(i, j, k, value&)) on local indices.
// How the cells are walked is the loop pattern, chosen for the execution space
// (hcart::default_loop_pattern, ExecutionModel.hpp) unless the call names one:
//   LoopPattern::HostRows  (host backends) the rows of the box are the parallel work
//                          items, each a plain loop along k, which the compiler vectorises
//                          when the functor reads contiguous memory (hcart::FieldAccessor:
//                          pointer arithmetic with a unit stride it can see); a box of one
//                          cell in k (a 2-D mesh written {n, n, 1}) runs its rows along j,
//                          one of one cell in j and k along i, a thin box along its
//                          longest direction (row_direction), so a 2-D or 1-D mesh runs as
//                          fast whichever directions it is given in;
//   LoopPattern::Portable  (devices) one cell per call, k fastest: on the host Kokkos' 3D
//                          MDRange policy; on a device the launch shape of the setting
//                          HCART_DEVICE_LAUNCH (hcart/impl/grid/DeviceLaunch.hpp).
// A call that names no pattern compiles the host rows alone in a host build, not the 3D
// policy too: a functor's code is its rows along k and j, each for AVX2 and the baseline,
// and along i for the baseline. The functor sees the same cells with the same values on every
// pattern, so its results do not depend on the pattern (the suite compares them bitwise);
// only the order, and so the rounding, of a floating-point sum may. An empty box runs
// nothing. Under CUDA a KOKKOS_LAMBDA works too where nvcc allows one (a free
// function or a public member function; not a constructor, a private member or a
// GoogleTest TEST body).
#pragma once

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/grid/Box.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/impl/grid/DeviceLaunch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace hcart {

/// \brief The grid's 3D policy over `box` (k fastest); an empty box gives an empty policy.
/// On a device backend its tiles are impl::device_tiles' (the setting's where it names
/// tiles, 128/64 where it names columns, Kokkos' own where it says `kokkos`).
inline GridPolicy policy_of(const Box& box) {
  auto top = [&](int d) { return box.hi[d] > box.lo[d] ? box.hi[d] : box.lo[d]; };
  if constexpr (!host_execution) {
    const impl::DeviceLaunch& launch = impl::device_launch();
    if (launch.shape != impl::DeviceLaunch::Shape::KokkosTiles) {
      const std::array<int, 3> t =
          impl::device_tiles(box, launch.shape == impl::DeviceLaunch::Shape::Tiles
                                      ? launch
                                      : impl::DeviceLaunch::default_tiles());
      return GridPolicy({box.lo[0], box.lo[1], box.lo[2]}, {top(0), top(1), top(2)},
                        {t[0], t[1], t[2]});
    }
  }
  return GridPolicy({box.lo[0], box.lo[1], box.lo[2]}, {top(0), top(1), top(2)});
}

namespace impl {

/// \brief The rows of a box along `along` as work items r = (a - a0) * nb + (b - b0), where a
/// and b are the other two directions in order.
using RowPolicy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>;
inline RowPolicy rows_of(const Box& box, int along = 2) {
  const int a = along == 0 ? 1 : 0, b = along == 2 ? 1 : 2;
  return RowPolicy(0, static_cast<std::int64_t>(box.extent(a)) * box.extent(b));
}

/// \brief The cell at position c of row (a, b) along direction Along.
template <int Along, class Functor, class... Value>
KOKKOS_FORCEINLINE_FUNCTION void call_at(const Functor& f, int a, int b, int c, Value&... value) {
  if constexpr (Along == 2) {
    f(a, b, c, value...);
  } else if constexpr (Along == 1) {
    f(a, c, b, value...);
  } else {
    f(c, a, b, value...);
  }
}

// The loop along a row. It runs on a copy of the functor: its members are then locals, which
// no store through a field can change, so the compiler keeps the fields' pointers and strides
// in registers (through a reference it reloads them per cell, and Kokkos 3.4's views did not
// vectorise at all). Where the host compiler can, the loop is compiled twice, as
// HCART_HOST_CLONES does for hcart's own rows (hcart/core/HostClones.hpp): for AVX2 and for
// the baseline, the first taken when the CPU has AVX2. The functor is inlined into both, so a
// user's kernel gets the vector width of the machine it runs on without -march flags; neither
// uses fused multiply-adds, so both compute the same bits. A row along j (a 2-D mesh in i and
// j, one cell in k) steps by a stride known only at run time: GCC's -O3 versions such a loop
// for a stride of 1 (-fversion-loops-for-strides; up to the loop size hcart's target sets,
// framework/CMakeLists.txt), which a field without a halo in its one-cell direction has, and
// vectorises that version.
// (Under nvcc, where rows are an option the host alone would take, no copy: a copy would
// have to be destroyed in device code too, which Kokkos' views do not allow.)
#if defined(__CUDACC__)
#define HCART_ROW_FUNCTOR(f, functor) const Functor& f = functor
#else
#define HCART_ROW_FUNCTOR(f, functor) const Functor f = functor
#endif
// A for_each_cell row's cells are independent (its contract: the cells of a launch run in
// any order, one per work item on a device), so the host compiler is told so: without it
// GCC checks at run time that no field's store overlaps another field's loads, and a kernel
// of more than a few fields needs more checks than it makes (--param
// vect-max-version-for-alias-checks, 10), so the row stayed scalar: a 2-D update of 4
// variables (8 fields) ran 1.7x faster along k with the pragma (docs/benchmarks.md, "2-D
// meshes in any layout"). Not for a reduction's rows, whose value carries from cell to cell.
// Vectorising reorders no operation inside a cell, so the bits stay the same.
#if defined(__CUDACC__)
#define HCART_INDEPENDENT_CELLS
#elif defined(__clang__)
#define HCART_INDEPENDENT_CELLS _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define HCART_INDEPENDENT_CELLS _Pragma("GCC ivdep")
#else
#define HCART_INDEPENDENT_CELLS
#endif
template <int Along, class Functor, class... Value>
KOKKOS_INLINE_FUNCTION void row(const Functor& functor, int a, int b, int c0, int c1,
                                Value&... value) {
  HCART_ROW_FUNCTOR(f, functor);
  if constexpr (sizeof...(Value) == 0) {
    HCART_INDEPENDENT_CELLS
    for (int c = c0; c < c1; ++c)
      call_at<Along>(f, a, b, c);
  } else {
    for (int c = c0; c < c1; ++c)
      call_at<Along>(f, a, b, c, value...);
  }
}
#undef HCART_INDEPENDENT_CELLS
#undef HCART_ROW_FUNCTOR
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) &&                              \
    (!defined(__clang__) || __clang_major__ >= 14) && !defined(__CUDACC__) &&                      \
    !defined(HCART_NO_HOST_CLONES)
#define HCART_ROWS_AVX2 1
inline const bool host_has_avx2 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}();
// Both clones are flattened: every call inside them is inlined, the user's functor and what
// it calls included. Without that, GCC's inliner weighs the row's local copy of the functor
// against its stack-frame limit (--param large-stack-frame-growth): a functor of a few dozen
// fields (an LBM's distributions) made the AVX2 clone call the baseline row out of line,
// so the kernel ran scalar whatever the CPU.
template <int Along, class Functor, class... Value>
__attribute__((target("avx2"), flatten)) void row_avx2(const Functor& functor, int a, int b, int c0,
                                                       int c1, Value&... value) {
  row<Along>(functor, a, b, c0, c1, value...);
}
template <int Along, class Functor, class... Value>
__attribute__((flatten)) void row_baseline(const Functor& functor, int a, int b, int c0, int c1,
                                           Value&... value) {
  row<Along>(functor, a, b, c0, c1, value...);
}
#endif

/// \brief A box's rows along one direction: row r is (a, b) = (a0 + r / nb, b0 + r % nb) in
/// the other two directions, its cells c0 to c1 along `Along`.
template <int Along>
struct Rows {
  int a0, b0, nb, c0, c1;
  static Rows of(const Box& box) {
    const int a = Along == 0 ? 1 : 0, b = Along == 2 ? 1 : 2;
    return {box.lo[a], box.lo[b], box.extent(b) > 0 ? box.extent(b) : 1, box.lo[Along],
            box.hi[Along]};
  }
  template <class Functor, class... Value>
  KOKKOS_INLINE_FUNCTION void run(const Functor& f, std::int64_t r, Value&... value) const {
    const int a = a0 + static_cast<int>(r / nb), b = b0 + static_cast<int>(r % nb);
#ifdef HCART_ROWS_AVX2
    // Rows along i (1-D meshes along i, thin boxes longest in i) for the baseline alone: a
    // copy costs compile time, spent where the kernels' time is.
    if constexpr (Along == 0) {
      row_baseline<Along>(f, a, b, c0, c1, value...);
    } else if (host_has_avx2) {
      row_avx2<Along>(f, a, b, c0, c1, value...);
    } else {
      row_baseline<Along>(f, a, b, c0, c1, value...);
    }
#else
    row<Along>(f, a, b, c0, c1, value...);
#endif
  }
};

/// \brief f(i, j, k) for the cells of one row along `Along`.
template <class Functor, int Along = 2>
struct EachRow {
  Functor f;
  Rows<Along> rows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r) const { rows.run(f, r); }
};

/// \brief f(i, j, k, value) for the cells of one row along `Along`.
template <class Functor, class Value, int Along = 2>
struct ReduceRow {
  using value_type = Value;
  Functor f;
  Rows<Along> rows;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r, Value& value) const {
    rows.run(f, r, value);
  }
};

/// \brief A whole-row functor's rows: g.row(i, j) for the rows (i, j) of a box, each a work
/// item (host builds: the functor walks its row itself, e.g. every other cell of a colour,
/// or with its operands of i and j set once). Compiled for AVX2 and the baseline like the
/// host rows above, the functor inlined into both.
#ifdef HCART_ROWS_AVX2
template <class RowFunctor>
__attribute__((target("avx2"), flatten)) void whole_row_avx2(const RowFunctor& g, int i, int j) {
  const RowFunctor local = g;
  local.row(i, j);
}
template <class RowFunctor>
__attribute__((flatten)) void whole_row_baseline(const RowFunctor& g, int i, int j) {
  const RowFunctor local = g;
  local.row(i, j);
}
#endif
template <class RowFunctor>
struct EachWholeRow {
  RowFunctor g;
  int i0, j0, nj;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t r) const {
    const int i = i0 + static_cast<int>(r / nj), j = j0 + static_cast<int>(r % nj);
#ifdef HCART_ROWS_AVX2
    if (host_has_avx2) {
      whole_row_avx2(g, i, j);
    } else {
      whole_row_baseline(g, i, j);
    }
#else
    g.row(i, j);
#endif
  }
};

/// \brief g.row(i, j) for every row of `box` (its k range is the functor's business), on the
/// host execution space. \throws hcart::Error on a device build.
template <class RowFunctor>
void for_each_whole_row(const std::string& label, const Box& box, const RowFunctor& g) {
  if (box.empty()) return;
  if constexpr (host_execution) {
    Kokkos::parallel_for(label, rows_of(box),
                         EachWholeRow<RowFunctor>{g, box.lo[0], box.lo[1], box.extent(1)});
  } else {
    throw std::logic_error("hcart::impl::for_each_whole_row: a host launch");
  }
}

/// \brief The value type a reduction into `Result` (a scalar or a Kokkos reducer) has.
template <class Result, class = void>
struct ReductionValue {
  using type = std::decay_t<Result>;
};
template <class Result>
struct ReductionValue<Result, std::enable_if_t<Kokkos::is_reducer<std::decay_t<Result>>::value>> {
  using type = typename std::decay_t<Result>::value_type;
};

/// \brief f(i, j, k) over the non-empty `box` in the launch shape `launch`, on any backend
/// (the launchers pass the device setting on a device; tests pass every shape on the host),
/// in launches of at most `most_items` work items (tests pass fewer than kMostItems).
template <class Functor>
void for_each_cell_as(const std::string& label, const Box& box, const Functor& f,
                      const DeviceLaunch& launch, std::int64_t most_items = kMostItems) {
  if (launch.shape == DeviceLaunch::Shape::Tiles ||
      launch.shape == DeviceLaunch::Shape::KokkosTiles) {
    Kokkos::parallel_for(label, policy_of(box), f);
    return;
  }
  const CellItems items = cell_items(box, launch);
  if (items.items <= most_items) {
    Kokkos::parallel_for(label, items_policy(items.items), EachItem<Functor>{f, items});
    return;
  }
  // A box of 2^31 work items or more: slabs along i of fewer, one launch each (a slab of P
  // planes has at most P times the items of one plane); a plane of that many items (beyond
  // any Field's 32-bit extents) through the 3D policy.
  Box plane = box;
  plane.hi[0] = plane.lo[0] + 1;
  const std::int64_t per_plane = cell_items(plane, launch).items;
  if (per_plane > most_items) {
    Kokkos::parallel_for(label, policy_of(box), f);
    return;
  }
  const auto planes = static_cast<int>(most_items / per_plane);
  for (int i = box.lo[0]; i < box.hi[0]; i += planes) {
    Box slab = box;
    slab.lo[0] = i;
    slab.hi[0] = static_cast<int>(std::min<std::int64_t>(box.hi[0], std::int64_t(i) + planes));
    Kokkos::parallel_for(label, items_policy(cell_items(slab, launch).items),
                         EachItem<Functor>{f, cell_items(slab, launch)});
  }
}

/// \brief f(i, j, k, value) reduced over the non-empty `box` in the launch shape `launch`
/// into `result`; boxes of 2^31 work items or more through the 3D policy.
template <class Functor, class Result>
void reduce_cells_as(const std::string& label, const Box& box, const Functor& f, Result&& result,
                     const DeviceLaunch& launch) {
  if (launch.shape == DeviceLaunch::Shape::Columns && !box.empty()) {
    const CellItems items = cell_items(box, launch);
    if (items.items <= kMostItems) {
      using Value = typename ReductionValue<Result>::type;
      Kokkos::parallel_reduce(label, items_policy(items.items),
                              ReduceItem<Functor, Value>{f, items}, std::forward<Result>(result));
      return;
    }
  }
  Kokkos::parallel_reduce(label, policy_of(box), f, std::forward<Result>(result));
}

} // namespace impl

/// \brief The shortest row along k that the host rows take without looking further: a row's
/// loop costs a little to start, which short rows do not earn back (ZEUS's 200x4x4 Sod mesh
/// ran 4% slower in rows of 4 to 6 cells along k than through the 3D policy).
constexpr int kShortestRow = 16;

/// \brief The direction the host rows of `box` run along: k (the contiguous one) where the
/// box has kShortestRow cells in k; for a box of one cell in k (a 2-D mesh given as {n, n, 1})
/// j, where it has that many in j; for a box of one cell in j and k, i. A field with no halo
/// in a one-cell direction keeps its other directions' cells contiguous in memory, so such a
/// row reads memory as a row along k does. Any other box (a thin slab, a coarse multigrid
/// level, a 200x4x4 mesh) runs along its longest direction, k before j before i where they
/// tie.
inline int row_direction(const Box& box) {
  if (box.extent(2) >= kShortestRow) return 2;
  if (box.extent(2) == 1 && box.extent(1) >= kShortestRow) return 1;
  if (box.extent(2) == 1 && box.extent(1) == 1 && box.extent(0) >= kShortestRow) return 0;
  int along = 2;
  for (int d = 1; d >= 0; --d)
    if (box.extent(d) > box.extent(along)) along = d;
  return along;
}

/// \brief The pattern the launchers take when the call names none: the build's,
/// default_loop_pattern (every box has rows).
inline LoopPattern loop_pattern_for(const Box& /*box*/) {
  return default_loop_pattern;
}

namespace impl {
/// \brief The rows of `box` along its row_direction in parallel.
template <class Functor>
void for_each_row(const std::string& label, const Box& box, const Functor& f) {
  switch (row_direction(box)) {
  case 1:
    Kokkos::parallel_for(label, rows_of(box, 1), EachRow<Functor, 1>{f, Rows<1>::of(box)});
    break;
  case 0:
    Kokkos::parallel_for(label, rows_of(box, 0), EachRow<Functor, 0>{f, Rows<0>::of(box)});
    break;
  default: Kokkos::parallel_for(label, rows_of(box), EachRow<Functor>{f, Rows<2>::of(box)});
  }
}
template <class Functor, class Result>
void reduce_rows(const std::string& label, const Box& box, const Functor& f, Result&& result) {
  using Value = typename ReductionValue<Result>::type;
  switch (row_direction(box)) {
  case 1:
    Kokkos::parallel_reduce(label, rows_of(box, 1),
                            ReduceRow<Functor, Value, 1>{f, Rows<1>::of(box)},
                            std::forward<Result>(result));
    break;
  case 0:
    Kokkos::parallel_reduce(label, rows_of(box, 0),
                            ReduceRow<Functor, Value, 0>{f, Rows<0>::of(box)},
                            std::forward<Result>(result));
    break;
  default:
    Kokkos::parallel_reduce(label, rows_of(box), ReduceRow<Functor, Value>{f, Rows<2>::of(box)},
                            std::forward<Result>(result));
  }
}
} // namespace impl

/// \brief Runs f(i, j, k) for every cell of `box`, on the execution space, walked in
/// `pattern` (by default loop_pattern_for(box)).
template <class Functor>
void for_each_cell(const std::string& label, const Box& box, const Functor& f,
                   LoopPattern pattern) {
  if (box.empty()) return;
  if (pattern == LoopPattern::HostRows) {
    impl::for_each_row(label, box, f);
  } else if constexpr (host_execution) {
    Kokkos::parallel_for(label, policy_of(box), f);
  } else {
    impl::for_each_cell_as(label, box, f, impl::device_launch());
  }
}

/// \brief for_each_cell in the pattern loop_pattern_for(box); a host build compiles the
/// functor's host rows alone.
template <class Functor>
void for_each_cell(const std::string& label, const Box& box, const Functor& f) {
  if constexpr (default_loop_pattern == LoopPattern::HostRows) {
    if (!box.empty()) impl::for_each_row(label, box, f);
  } else {
    for_each_cell(label, box, f, loop_pattern_for(box));
  }
}

namespace impl {
/// \brief f(i, j, k) for every cell of `box`, its code compiled once: on the host through the
/// 3D policy (no rows, no AVX2 clone), on a device as for_each_cell. For launches whose cells
/// are few (a boundary's ghost layers) and whose functor is the program's own: each row copy
/// the default pattern compiles costs the program's unit compile time that such a launch does
/// not earn back (docs/benchmarks.md, "What a user's program costs to compile").
template <class Functor>
void for_each_cell_compiled_once(const std::string& label, const Box& box, const Functor& f) {
  if (box.empty()) return;
  if constexpr (host_execution) {
    Kokkos::parallel_for(label, policy_of(box), f);
  } else {
    for_each_cell_as(label, box, f, device_launch());
  }
}
} // namespace impl

/// \brief Reduces f(i, j, k, value&) over the cells of `box` into `result` (a scalar for a
/// sum, or a Kokkos reducer such as Kokkos::Max<double>(x)), walked in `pattern` (by default
/// loop_pattern_for(box)); an empty box gives the reduction's identity. Blocks until done
/// when `result` is a host scalar or reducer.
template <class Functor, class Result>
void reduce_cells(const std::string& label, const Box& box, const Functor& f, Result&& result,
                  LoopPattern pattern) {
  if (pattern == LoopPattern::HostRows) {
    impl::reduce_rows(label, box, f, std::forward<Result>(result));
  } else if constexpr (host_execution) {
    Kokkos::parallel_reduce(label, policy_of(box), f, std::forward<Result>(result));
  } else {
    impl::reduce_cells_as(label, box, f, std::forward<Result>(result), impl::device_launch());
  }
}

/// \brief reduce_cells in the pattern loop_pattern_for(box); a host build compiles the
/// functor's host rows alone.
template <class Functor, class Result>
void reduce_cells(const std::string& label, const Box& box, const Functor& f, Result&& result) {
  if constexpr (default_loop_pattern == LoopPattern::HostRows) {
    impl::reduce_rows(label, box, f, std::forward<Result>(result));
  } else {
    reduce_cells(label, box, f, std::forward<Result>(result), loop_pattern_for(box));
  }
}

} // namespace hcart
