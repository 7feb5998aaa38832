#include <hcart/core/Error.hpp>
#include <hcart/grid/Loops.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace hcart::impl {

namespace {

bool power_of_two(int n) {
  return n > 0 && (n & (n - 1)) == 0;
}

int power_of_two_at_least(int n) {
  int p = 1;
  while (p < n)
    p *= 2;
  return p;
}

} // namespace

DeviceTiling parse_device_tiling(const char* text) {
  DeviceTiling tiling;
  if (text == nullptr || *text == '\0') return tiling;
  const std::string value(text);
  if (value == "kokkos") {
    tiling.kokkos_default = true;
    return tiling;
  }
  const auto slash = value.find('/');
  std::size_t used_threads = 0, used_k = 0;
  int threads = 0, k_tile = 0;
  try {
    if (slash != std::string::npos) {
      threads = std::stoi(value.substr(0, slash), &used_threads);
      k_tile = std::stoi(value.substr(slash + 1), &used_k);
    }
  } catch (const std::exception&) {
    threads = 0;
  }
  if (slash == std::string::npos || used_threads != slash || used_k != value.size() - slash - 1 ||
      !power_of_two(threads) || threads < 32 || threads > 1024 || !power_of_two(k_tile) ||
      k_tile > 64 || k_tile > threads)
    throw InputError("HCART_DEVICE_TILES='" + value +
                     "': expected 'kokkos' or THREADS/K, powers of two with 32 <= THREADS <= "
                     "1024 and K <= 64 (e.g. 256/64)");
  tiling.threads = threads;
  tiling.k_tile = k_tile;
  return tiling;
}

const DeviceTiling& device_tiling() {
  static const DeviceTiling tiling = parse_device_tiling(std::getenv("HCART_DEVICE_TILES"));
  return tiling;
}

std::array<int, 3> device_tiles(const Box& box, const DeviceTiling& tiling) {
  const int tk = std::min(tiling.k_tile, power_of_two_at_least(box.extent(2)));
  const int tj = std::min(power_of_two_at_least(box.extent(1)), tiling.threads / tk);
  const int ti =
      std::max(1, std::min(power_of_two_at_least(box.extent(0)), tiling.threads / (tk * tj)));
  return {ti, tj, tk};
}

} // namespace hcart::impl
