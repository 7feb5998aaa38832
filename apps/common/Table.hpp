// A plain text table with a label column and one column per compared item, as hcart's
// tools print decompositions side by side.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace hcart::apps {

class Table {
public:
  explicit Table(std::vector<std::string> header) : m_header(std::move(header)) {}
  /// \brief Adds a row: a label, then one cell per column of the header after the first.
  void add_row(std::vector<std::string> cells) { m_rows.push_back(std::move(cells)); }
  /// \brief A horizontal rule between groups of rows.
  void add_rule() { m_rows.emplace_back(); }
  void print(std::ostream& out) const;

private:
  std::vector<std::string> m_header;
  std::vector<std::vector<std::string>> m_rows;
};

} // namespace hcart::apps
