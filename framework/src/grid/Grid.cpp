#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/LevelCounters.hpp>
#include <hcart/grid/Loops.hpp>

namespace hcart {

LevelCounters& LevelCounters::operator+=(const LevelCounters& other) {
  HCART_CHECK(level_names == other.level_names,
              "hcart::LevelCounters: adding counters of other hardware levels");
  for (std::size_t l = 0; l < bytes.size(); ++l) {
    bytes[l] += other.bytes[l];
    messages[l] += other.messages[l];
  }
  exchanges += other.exchanges;
  return *this;
}

Grid::Grid(const Decomposition& decomp) : Grid(decomp, decomp.spec().halo_width) {}

Grid::Grid(const Decomposition& decomp, const std::array<int, 3>& halo_width) : m_decomp(&decomp) {
  agree_on_errors(decomp.comm(), [&] {
    for (int i = 0; i < 3; ++i) {
      HCART_REQUIRE(halo_width[i] >= 0, "hcart::Grid: halo width " << halo_width[i]
                                                                   << " in direction " << i
                                                                   << ", expected 0 or more");
    }
    m_block = decomp.block(halo_width);
    for (int i = 0; i < 3; ++i) {
      const int n = m_block.local_size[i];
      const bool has_neighbour = !m_block.is_physical(i, 0) || !m_block.is_physical(i, 1);
      HCART_REQUIRE(!has_neighbour || n >= halo_width[i],
                    "hcart::Grid: rank " << decomp.rank() << " owns " << n << " cells in direction "
                                         << i << ", fewer than the halo width " << halo_width[i]
                                         << " its neighbours need");
    }
    m_extent = m_block.extent();
  });
}

Box Grid::owned_box() const {
  const auto& h = m_block.halo_width;
  const auto& n = m_block.local_size;
  return make_box(h, {h[0] + n[0], h[1] + n[1], h[2] + n[2]});
}

Box Grid::with_halo_box() const {
  return make_box({0, 0, 0}, m_extent);
}

GridPolicy Grid::owned_policy() const {
  return policy_of(owned_box());
}

void Grid::throw_misfit(const char* who, const std::string& label,
                        const std::array<std::size_t, 3>& extents, long long components) const {
  const std::string count =
      components < 0 ? "" : " (" + std::to_string(components) + " components)";
  throw InputError(
      std::string(who) + ": field '" + label + "' has extents " + std::to_string(extents[0]) + "x" +
      std::to_string(extents[1]) + "x" + std::to_string(extents[2]) + count +
      ", expected the grid's " + std::to_string(m_extent[0]) + "x" + std::to_string(m_extent[1]) +
      "x" + std::to_string(m_extent[2]) + (components == 0 ? " and 1 component or more" : ""));
}

void Grid::require_direction(int dir, const char* who) const {
  HCART_REQUIRE(dir >= 0 && dir < 3,
                "hcart::Grid::" << who << ": direction " << dir << ", expected 0, 1 or 2");
}

void Grid::require_profile(std::size_t values, int dir, const std::string& label) const {
  HCART_REQUIRE(values == static_cast<std::size_t>(m_extent[dir]),
                "hcart::Grid::fill_profile: profile '"
                    << label << "' has " << values << " values, expected the grid's "
                    << m_extent[dir] << " along direction " << dir << " (halos included)");
}

void Grid::require_components(const std::string& name, int components) const {
  agree_on_errors(m_decomp->comm(), [&] {
    HCART_REQUIRE(components >= 1, "hcart::Grid::make_components: field '"
                                       << name << "' with " << components
                                       << " components, expected 1 or more");
  });
}

template Field<double> Grid::make_field<double>(const std::string&) const;
template Field<float> Grid::make_field<float>(const std::string&) const;
template Field<int> Grid::make_field<int>(const std::string&) const;
template Field<std::int64_t> Grid::make_field<std::int64_t>(const std::string&) const;
template ComponentField<double> Grid::make_components<double>(const std::string&, int) const;
template ComponentField<float> Grid::make_components<float>(const std::string&, int) const;
template ComponentField<int> Grid::make_components<int>(const std::string&, int) const;
template ComponentField<std::int64_t> Grid::make_components<std::int64_t>(const std::string&,
                                                                          int) const;

} // namespace hcart
