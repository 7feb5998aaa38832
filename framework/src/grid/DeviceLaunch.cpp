#include <hcart/core/Error.hpp>
#include <hcart/impl/grid/DeviceLaunch.hpp>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

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

unsigned log2_of(int power) {
  unsigned bits = 0;
  while ((1 << bits) < power)
    ++bits;
  return bits;
}

// "A/B/C" as `count` whole numbers; nothing when the text is not exactly that.
std::optional<std::vector<int>> numbers(const std::string& text, std::size_t count) {
  std::vector<int> values;
  std::size_t at = 0;
  for (;;) {
    const std::size_t end = std::min(text.find('/', at), text.size());
    const std::string part = text.substr(at, end - at);
    if (part.empty() || part.size() > 5 || part.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    values.push_back(std::stoi(part));
    if (end == text.size()) break;
    at = end + 1;
  }
  if (values.size() != count) return std::nullopt;
  return values;
}

bool tile_ok(int threads, int k_tile) {
  return power_of_two(threads) && threads >= 32 && threads <= 1024 && power_of_two(k_tile) &&
         k_tile <= 64 && k_tile <= threads;
}

const char* kForms = "expected 'columns:THREADS/K/D', 'tiles:THREADS/K' or 'kokkos' (THREADS and "
                     "K powers of two, 32 <= THREADS <= 1024, K <= 64; D 1 to 1024), e.g. "
                     "columns:128/32/8";

std::optional<DeviceLaunch>& chosen() {
  static std::optional<DeviceLaunch> launch;
  return launch;
}

} // namespace

DeviceLaunch parse_device_launch(const char* text, bool former) {
  DeviceLaunch launch;
  if (text == nullptr || *text == '\0') return launch;
  const std::string value(text);
  const std::string name = former ? "HCART_DEVICE_TILES" : "HCART_DEVICE_LAUNCH";
  if (value == "kokkos") {
    launch = DeviceLaunch::default_tiles();
    launch.shape = DeviceLaunch::Shape::KokkosTiles;
    return launch;
  }
  if (former) {
    launch = DeviceLaunch::default_tiles();
    const auto n = numbers(value, 2);
    if (!n || !tile_ok((*n)[0], (*n)[1]))
      throw InputError(name + "='" + value +
                       "': expected 'kokkos' or THREADS/K, powers of two with 32 <= THREADS <= "
                       "1024 and K <= 64 (e.g. 256/64); the setting is now HCART_DEVICE_LAUNCH");
    launch.threads = (*n)[0];
    launch.k_tile = (*n)[1];
    return launch;
  }
  const auto colon = value.find(':');
  const std::string shape = value.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : value.substr(colon + 1);
  if (shape == "tiles") {
    const auto n = numbers(rest, 2);
    if (n && tile_ok((*n)[0], (*n)[1])) {
      launch = DeviceLaunch::default_tiles();
      launch.threads = (*n)[0];
      launch.k_tile = (*n)[1];
      return launch;
    }
  } else if (shape == "columns") {
    const auto n = numbers(rest, 3);
    if (n && tile_ok((*n)[0], (*n)[1]) && (*n)[2] >= 1 && (*n)[2] <= 1024) {
      launch.shape = DeviceLaunch::Shape::Columns;
      launch.threads = (*n)[0];
      launch.k_tile = (*n)[1];
      launch.cells = (*n)[2];
      return launch;
    }
  }
  throw InputError(name + "='" + value + "': " + kForms);
}

std::string to_string(const DeviceLaunch& launch) {
  const std::string tile = std::to_string(launch.threads) + "/" + std::to_string(launch.k_tile);
  switch (launch.shape) {
  case DeviceLaunch::Shape::Tiles: return "tiles:" + tile;
  case DeviceLaunch::Shape::KokkosTiles: return "kokkos";
  case DeviceLaunch::Shape::Columns: return "columns:" + tile + "/" + std::to_string(launch.cells);
  }
  return "?";
}

const DeviceLaunch& device_launch() {
  std::optional<DeviceLaunch>& launch = chosen();
  if (!launch) {
    const char* current = std::getenv("HCART_DEVICE_LAUNCH");
    const char* former = std::getenv("HCART_DEVICE_TILES");
    launch = current != nullptr && *current != '\0' ? parse_device_launch(current)
                                                    : parse_device_launch(former, true);
  }
  return *launch;
}

DeviceLaunch set_device_launch(const DeviceLaunch& launch) {
  const DeviceLaunch before = device_launch();
  chosen() = launch;
  return before;
}

std::array<int, 3> device_tiles(const Box& box, const DeviceLaunch& launch) {
  const int tk = std::min(launch.k_tile, power_of_two_at_least(box.extent(2)));
  const int tj = std::min(power_of_two_at_least(box.extent(1)), launch.threads / tk);
  const int ti =
      std::max(1, std::min(power_of_two_at_least(box.extent(0)), launch.threads / (tk * tj)));
  return {ti, tj, tk};
}

std::array<int, 2> column_tiles(const Box& box, const DeviceLaunch& launch) {
  const int tk = std::min(launch.k_tile, power_of_two_at_least(std::max(1, box.extent(2))));
  const int tj =
      std::max(1, std::min(power_of_two_at_least(std::max(1, box.extent(1))), launch.threads / tk));
  return {tj, tk};
}

CellItems cell_items(const Box& box, const DeviceLaunch& launch) {
  CellItems items;
  items.i0 = box.lo[0];
  items.j0 = box.lo[1];
  items.k0 = box.lo[2];
  items.ni = box.extent(0);
  items.nj = box.extent(1);
  items.nk = box.extent(2);
  items.cells = std::max(1, launch.cells);
  if (box.empty()) return items;
  const std::array<int, 2> tile = column_tiles(box, launch);
  items.k_bits = log2_of(tile[1]);
  items.tile_bits = items.k_bits + log2_of(tile[0]);
  items.tiles_k = static_cast<unsigned>((items.nk + tile[1] - 1) / tile[1]);
  items.tiles_j = static_cast<unsigned>((items.nj + tile[0] - 1) / tile[0]);
  const std::int64_t slabs = (items.ni + items.cells - 1) / items.cells;
  items.items = slabs * items.tiles_j * items.tiles_k * (std::int64_t(1) << items.tile_bits);
  return items;
}

} // namespace hcart::impl
