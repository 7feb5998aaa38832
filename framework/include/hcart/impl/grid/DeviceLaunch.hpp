// How hcart's launchers (hcart/grid/Loops.hpp) walk a box of cells on a device: the launch
// shapes, the setting that picks one, and the work-item functors (internal: users never name
// them; for_each_cell and reduce_cells use the setting).
//
// The shapes (HCART_DEVICE_LAUNCH, read once; impl::set_device_launch for benchmarks and
// tests):
//   columns:THREADS/K/D  (the default, columns:128/32/8) work items in tiles of THREADS, K of
//                     them along k and the rest along j, each walking D cells along i: a
//                     block holds a (j, k) tile of a slab of D planes and marches through it,
//                     so the planes i - 1, i and i + 1 of a stencil are read from the block's
//                     cache instead of again from the device's memory;
//   tiles:THREADS/K   Kokkos' 3D MDRange over the box, one cell per work item, blocks of THREADS
//                     threads with up to K along k, then j, then i (impl::device_tiles);
//   kokkos            the same policy with Kokkos' own tiles (2, 2, 16 for a rank-3 box).
// Measured on an H200 at 512^3 (docs/benchmarks.md, "GPU and many-core runs"): Jacobi's
// sweep at 192-195 GLUP/s in columns of 8, 0.98x a plain CUDA sweep of the same stencil in
// the same run (bench/PlainCudaSweep.hpp), against 115 in MDRange tiles 128/64, 131-169 in a
// flat range of 1, 2 or 4 cells per work item, and 157-188 (0.79-0.92x plain CUDA) in the
// plain code's own launch, one thread per cell in blocks along k and j, the functor called in
// a __global__ kernel of hcart's (both tried and left out: the plain code's lead is its
// restrict pointers, not its launch).
// Every shape calls the functor once per cell with the same (i, j, k), so the results are
// bitwise the same on every shape (tests/framework/LoopsTest.cpp checks each one on the host,
// the suite on a GPU).
#pragma once

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/grid/Box.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace hcart::impl {

/// \brief One device launch shape (the file's header says what each does).
struct DeviceLaunch {
  enum class Shape { Columns, Tiles, KokkosTiles };
  Shape shape = Shape::Columns;
  int threads = 128; ///< threads of a block (a power of two, 32-1024)
  int k_tile = 32;   ///< at most this many of them along k (a power of two, at most 64)
  int cells = 8;     ///< Columns: cells along i per work item

  /// \brief The tiles policy_of gives a 3D policy where the shape is Columns: 128/64, the
  /// fastest of the MDRange tiles measured on an H200.
  static DeviceLaunch default_tiles() { return {Shape::Tiles, 128, 64, 1}; }
};

/// \brief The launch shape a value of HCART_DEVICE_LAUNCH names ("columns:128/32/8",
/// "tiles:128/64", "kokkos"; null or empty: the default). The former variable
/// HCART_DEVICE_TILES took "THREADS/K" or "kokkos": `former` reads that form.
/// \throws hcart::InputError naming the value and the forms expected.
DeviceLaunch parse_device_launch(const char* text, bool former = false);
/// \brief The setting's text, as parse_device_launch reads it.
std::string to_string(const DeviceLaunch& launch);
/// \brief The shape the launchers use: set_device_launch's, else HCART_DEVICE_LAUNCH's
/// (else HCART_DEVICE_TILES', the former name), else the default.
const DeviceLaunch& device_launch();
/// \brief Makes the launchers use `launch` from now on (benchmarks and tests, between
/// kernels; not thread-safe). Returns the shape used before.
DeviceLaunch set_device_launch(const DeviceLaunch& launch);

/// \brief The tiles (i, j, k) of a 3D policy over `box`: as many threads along k as the
/// box has cells there (a power of two, at most k_tile), then along j, then along i, up to
/// `threads` in all. Kokkos' CUDA backend gives a tile's first index to the block's x
/// threads, and consecutive threads of a warp are consecutive x first: a tile of 1 along i and
/// j with k_tile along k makes a warp read consecutive cells of a row (k is Field's fastest
/// index). Kokkos' default tiles (2, 2, 16) give a warp 4 rows of 8 cells, leave half the
/// threads idle on a one-cell-thick box and 15 of 16 on a k face. Measured on an H200, 512^3:
/// hcart's Jacobi sweep at 115 GLUP/s with tiles 128/64 against 64 with Kokkos'.
std::array<int, 3> device_tiles(const Box& box, const DeviceLaunch& launch);

/// \brief The (j, k) tile of a Columns launch over `box`: {threads along j, along k}, each a
/// power of two, k first (as device_tiles).
std::array<int, 2> column_tiles(const Box& box, const DeviceLaunch& launch);

/// \brief Where work item n of a Columns launch puts its cells, in 32-bit unsigned words (a
/// 64-bit division costs several times more on a GPU). Item n is lane n mod T of tile n / T
/// (T threads a tile, powers of two); tiles run k first, then j, then the slabs of `cells`
/// planes along i. A launch has fewer than 2^31 work items (the launchers split larger boxes).
struct CellItems {
  int i0 = 0, j0 = 0, k0 = 0;         ///< the box's first cell
  int ni = 0, nj = 0, nk = 0;         ///< its extents
  int cells = 1;                      ///< cells along i per item
  unsigned k_bits = 0, tile_bits = 0; ///< log2 of the threads along k, of a tile's threads
  unsigned tiles_k = 1, tiles_j = 1;  ///< tiles along k and along j
  std::int64_t items = 0;             ///< work items in all

  /// \brief Calls visit(i, j, k) for each cell of work item n.
  template <class Visit>
  KOKKOS_INLINE_FUNCTION void each(int n, const Visit& visit) const {
    const auto item = static_cast<unsigned>(n);
    const unsigned tile = item >> tile_bits, lane = item & ((1u << tile_bits) - 1u);
    const unsigned tk = tile % tiles_k, rest = tile / tiles_k;
    const unsigned tj = rest % tiles_j, ti = rest / tiles_j;
    const int k = static_cast<int>((tk << k_bits) + (lane & ((1u << k_bits) - 1u)));
    const int j = static_cast<int>((tj << (tile_bits - k_bits)) + (lane >> k_bits));
    if (k >= nk || j >= nj) return;
    const int first = static_cast<int>(ti) * cells;
    const int last = first + cells < ni ? first + cells : ni;
    for (int i = first; i < last; ++i)
      visit(i0 + i, j0 + j, k0 + k);
  }
};

/// \brief The work items of a Columns launch over `box`.
CellItems cell_items(const Box& box, const DeviceLaunch& launch);

/// \brief f(i, j, k) for the cells of each work item.
template <class Functor>
struct EachItem {
  Functor f;
  CellItems items;
  KOKKOS_INLINE_FUNCTION void operator()(int n) const {
    items.each(n, [&](int i, int j, int k) { f(i, j, k); });
  }
};

/// \brief f(i, j, k, value) for the cells of each work item.
template <class Functor, class Value>
struct ReduceItem {
  using value_type = Value;
  Functor f;
  CellItems items;
  KOKKOS_INLINE_FUNCTION void operator()(int n, Value& value) const {
    items.each(n, [&](int i, int j, int k) { f(i, j, k, value); });
  }
};

/// \brief The 1D policy of `items` work items.
inline Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<int>>
items_policy(std::int64_t items) {
  return Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<int>>(0, static_cast<int>(items));
}

/// \brief The largest count of work items one Columns launch takes.
constexpr std::int64_t kMostItems = (std::int64_t(1) << 31) - 1;

} // namespace hcart::impl
