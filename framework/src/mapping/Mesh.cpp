#include <hcart/core/Error.hpp>
#include <hcart/mapping/Blocks.hpp>
#include <hcart/mapping/Factorize.hpp>
#include <hcart/mapping/Mesh.hpp>

#include <algorithm>
#include <cmath>

namespace hcart {

void validate(const Mesh& mesh) {
  const std::size_t d = mesh.global_size.size();
  HCART_REQUIRE(d >= 1 && d <= static_cast<std::size_t>(max_factorize_dims),
                "hcart::Mesh: " << d << " dimensions, expected 1 to " << max_factorize_dims);
  HCART_REQUIRE(mesh.halo_width.size() == d, "hcart::Mesh: " << mesh.halo_width.size()
                                                             << " halo widths for " << d
                                                             << " dimensions, expected " << d);
  HCART_REQUIRE(mesh.periodic.empty() || mesh.periodic.size() == d,
                "hcart::Mesh: " << mesh.periodic.size() << " periodic flags for " << d
                                << " dimensions, expected " << d);
  HCART_REQUIRE(mesh.cost_factor.empty() || mesh.cost_factor.size() == d,
                "hcart::Mesh: " << mesh.cost_factor.size() << " cost factors for " << d
                                << " dimensions, expected " << d);
  HCART_REQUIRE(mesh.block_multiple.empty() || mesh.block_multiple.size() == d,
                "hcart::Mesh: " << mesh.block_multiple.size() << " block multiples for " << d
                                << " dimensions, expected " << d);
  for (std::size_t i = 0; i < d; ++i) {
    HCART_REQUIRE(mesh.global_size[i] >= 1, "hcart::Mesh: global size " << mesh.global_size[i]
                                                                        << " in direction " << i
                                                                        << ", expected >= 1");
    const std::int64_t m = block_multiple_of(mesh, i);
    HCART_REQUIRE(m >= 1 && m <= mesh.global_size[i], "hcart::Mesh: block multiple "
                                                          << m << " in direction " << i << " of "
                                                          << mesh.global_size[i]
                                                          << " cells, expected 1 to the size");
    HCART_REQUIRE(mesh.halo_width[i] >= 0, "hcart::Mesh: halo width " << mesh.halo_width[i]
                                                                      << " in direction " << i
                                                                      << ", expected >= 0");
    if (!mesh.cost_factor.empty()) {
      const double c = mesh.cost_factor[i];
      HCART_REQUIRE(std::isfinite(c) && c >= 0.0, "hcart::Mesh: cost factor "
                                                      << c << " in direction " << i
                                                      << ", expected a finite value >= 0");
    }
  }
}

std::vector<double> communication_weights(const Mesh& mesh) {
  validate(mesh);
  const std::size_t d = mesh.global_size.size();
  std::vector<double> w(d);
  for (std::size_t i = 0; i < d; ++i) {
    double others = 1.0; // G / g_i without the division's rounding
    for (std::size_t j = 0; j < d; ++j) {
      if (j != i) others *= static_cast<double>(mesh.global_size[j]);
    }
    const double c = mesh.cost_factor.empty() ? 1.0 : mesh.cost_factor[i];
    w[i] = c * mesh.halo_width[i] * others;
  }
  return w;
}

std::vector<std::int64_t> equal_block_divisors(const Mesh& mesh) {
  std::vector<std::int64_t> divides(mesh.global_size.size());
  for (std::size_t i = 0; i < divides.size(); ++i) {
    const std::int64_t m = block_multiple_of(mesh, i);
    divides[i] = mesh.global_size[i] % m == 0 ? mesh.global_size[i] / m : 1;
  }
  return divides;
}

std::vector<std::int64_t> cut_bounds(const Mesh& mesh) {
  validate(mesh);
  std::vector<std::int64_t> b(mesh.global_size.size());
  for (std::size_t i = 0; i < b.size(); ++i) {
    const std::int64_t m = block_multiple_of(mesh, i), g = mesh.global_size[i];
    const std::int64_t reach = std::max<std::int64_t>(mesh.halo_width[i], 1);
    if (m == 1) {
      b[i] = g / reach;
    } else {
      // Whole units of m per piece, and the last block (short where m does not divide the
      // size) still at least the reach and one whole multiple: a vertex-centred hierarchy's
      // last block loses a point at every level.
      b[i] = (g + m - 1) / m / ((reach + m - 1) / m);
      while (b[i] > 1 && block_extent(g, b[i], b[i] - 1, m) < std::max(reach, m))
        --b[i];
    }
    // One piece needs no halo of its own cells unless it wraps around a periodic direction.
    if (b[i] == 0 && !mesh.periodic[i]) b[i] = 1;
  }
  return b;
}

} // namespace hcart
