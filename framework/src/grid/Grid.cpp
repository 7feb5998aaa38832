#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/mapping/TrafficModel.hpp>

#include <climits>

namespace hcart {

Grid::Grid(const Decomposition& decomp) : m_decomp(&decomp) {
  const GridSpec& spec = decomp.spec();
  const auto dims = decomp.dims();
  const auto coords = decomp.coords();
  agree_on_errors(decomp.comm(), [&] {
    for (int i = 0; i < 3; ++i) {
      const std::int64_t n = block_extent(spec.global_size[i], dims[i], coords[i]);
      HCART_REQUIRE(n + 2LL * spec.halo_width[i] <= INT_MAX, "hcart::Grid: the block of rank "
                                                                 << decomp.rank() << " has " << n
                                                                 << " cells in direction " << i
                                                                 << ", too many for int indices");
      const bool has_neighbour = dims[i] > 1 || spec.periodic[i];
      HCART_REQUIRE(!has_neighbour || n >= spec.halo_width[i],
                    "hcart::Grid: rank " << decomp.rank() << " owns " << n << " cells in direction "
                                         << i << ", fewer than the halo width "
                                         << spec.halo_width[i] << " its neighbours need");
      m_local[i] = static_cast<int>(n);
      m_halo[i] = spec.halo_width[i];
      m_extent[i] = m_local[i] + 2 * m_halo[i];
      m_offset[i] = block_offset(spec.global_size[i], dims[i], coords[i]);
      m_global[i] = spec.global_size[i];
    }
  });
}

Box Grid::owned_box() const {
  return make_box(m_halo, {m_halo[0] + m_local[0], m_halo[1] + m_local[1], m_halo[2] + m_local[2]});
}

Box Grid::with_halo_box() const {
  return make_box({0, 0, 0}, m_extent);
}

GridPolicy Grid::box_policy(const std::array<int, 3>& lo, const std::array<int, 3>& hi) {
  return policy_of(make_box(lo, hi));
}

GridPolicy Grid::owned_policy() const {
  return policy_of(owned_box());
}

GridPolicy Grid::with_halo_policy() const {
  return policy_of(with_halo_box());
}

} // namespace hcart
