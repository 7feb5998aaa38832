// The template bodies of hcart::GridHierarchy's moves between levels (included at the end of
// hcart/grid/GridHierarchy.hpp).
#pragma once

#include <hcart/core/Error.hpp>

#include <type_traits>

namespace hcart {

namespace impl {

// The cells per direction of a Field (rank 3) or a ComponentField (rank 4, components
// first), and its components. By the view's rank rather than FieldTraits: gather and
// scatter also move the level moves' unmanaged scratch (LevelTransferKernels.hpp's Values).
template <class View>
std::array<int, 3> cell_extent(const View& v) {
  constexpr int skip = View::rank == 4 ? 1 : 0;
  if (v.data() == nullptr) return {0, 0, 0};
  return {static_cast<int>(v.extent(skip)), static_cast<int>(v.extent(skip + 1)),
          static_cast<int>(v.extent(skip + 2))};
}
template <class View>
int components_of(const View& v) {
  if constexpr (View::rank == 4) {
    return static_cast<int>(v.extent(0));
  } else {
    return 1;
  }
}

} // namespace impl

template <class PiecesView, class CoarseView>
void GridHierarchy::gather(int level, const PiecesView& pieces, const CoarseView& coarse) const {
  static_assert(PiecesView::rank >= 3 && PiecesView::rank <= 4 && CoarseView::rank >= 3 &&
                    CoarseView::rank <= 4,
                "hcart::GridHierarchy::gather: Fields or ComponentFields");
  static_assert(std::is_same_v<typename PiecesView::value_type, typename CoarseView::value_type>,
                "hcart::GridHierarchy::gather: fields of one value type");
  using T = typename PiecesView::value_type;
  transfer(level, true, impl::components_of(pieces), sizeof(T),
           reinterpret_cast<const unsigned char*>(pieces.data()), impl::cell_extent(pieces),
           reinterpret_cast<unsigned char*>(coarse.data()), impl::cell_extent(coarse));
}

template <class CoarseView, class PiecesView>
void GridHierarchy::scatter(int level, const CoarseView& coarse, const PiecesView& pieces) const {
  static_assert(PiecesView::rank >= 3 && PiecesView::rank <= 4 && CoarseView::rank >= 3 &&
                    CoarseView::rank <= 4,
                "hcart::GridHierarchy::scatter: Fields or ComponentFields");
  static_assert(std::is_same_v<typename PiecesView::value_type, typename CoarseView::value_type>,
                "hcart::GridHierarchy::scatter: fields of one value type");
  using T = typename PiecesView::value_type;
  transfer(level, false, impl::components_of(pieces), sizeof(T),
           reinterpret_cast<const unsigned char*>(coarse.data()), impl::cell_extent(coarse),
           reinterpret_cast<unsigned char*>(pieces.data()), impl::cell_extent(pieces));
}

} // namespace hcart
