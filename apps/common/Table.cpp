#include "Table.hpp"

#include <algorithm>

namespace hcart::apps {

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> width(m_header.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c) {
      width[c] = std::max(width[c], row[c].size());
    }
  };
  measure(m_header);
  for (const auto& row : m_rows)
    measure(row);
  std::size_t total = 0;
  for (auto w : width)
    total += w + 2;
  auto emit = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < row.size() ? row[c] : "";
      const std::string pad(width[c] - cell.size(), ' ');
      out << (c == 0 ? cell + pad : pad + cell) << (c + 1 < width.size() ? "  " : "");
    }
    out << '\n';
  };
  emit(m_header);
  out << std::string(total - 2, '-') << '\n';
  for (const auto& row : m_rows) {
    if (row.empty())
      out << std::string(total - 2, '-') << '\n';
    else
      emit(row);
  }
}

} // namespace hcart::apps
