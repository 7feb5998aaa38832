// Compare mode, shared by the applications: every strategy run several times, in turn, and
// the honest summary of it — min and median over the repeats, and no "saving" between
// strategies that produced the same decomposition (the same process grid and the same
// placement of every rank: any difference between them is noise).
#pragma once

#include "Table.hpp"
#include "Text.hpp"

#include <hcart/grid/Decomposition.hpp>
#include <hcart/mapping/Strategy.hpp>

#include <CLI/CLI.hpp>

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace hcart::apps {

/// \brief What identifies a decomposition: dims and every world rank's Cartesian rank.
struct DecompositionIdentity {
  std::array<int, 3> dims{};
  std::vector<int> cart_rank_of_world;
  bool operator==(const DecompositionIdentity& other) const {
    return dims == other.dims && cart_rank_of_world == other.cart_rank_of_world;
  }
};

/// \brief The identity of `decomp` (collective over MPI_COMM_WORLD).
DecompositionIdentity identity_of(const Decomposition& decomp);

/// \brief min and median of some values (0, 0 when there are none).
struct Spread {
  double min = 0, median = 0;
};
Spread spread(std::vector<double> values);

/// \brief The options of compare mode: `--compare` (described by `help`) and `--repeats`
/// (runs per strategy, 1 to 1000; `repeats` holds the default).
inline void add_compare_options(CLI::App& app, bool& compare, int& repeats,
                                const std::string& help) {
  app.add_flag("--compare", compare, help);
  app.add_option("--repeats", repeats, "runs per strategy in compare mode (min and median)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
}

/// \brief Runs `run(strategy, repeat)` `repeats` times for every strategy, the strategies
/// in turn and each repeat starting one strategy further on, so that none always goes
/// first. Returns the runs per strategy, in the order of `strategies`.
template <class Report, class Item = Strategy>
std::vector<std::vector<Report>>
run_in_turn(const std::vector<Item>& strategies, int repeats,
            const std::function<Report(typename std::vector<Item>::value_type, int)>& run) {
  std::vector<std::vector<Report>> runs(strategies.size());
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t k = 0; k < strategies.size(); ++k) {
      const std::size_t s = (k + static_cast<std::size_t>(r)) % strategies.size();
      runs[s].push_back(run(strategies[s], r));
    }
  }
  return runs;
}

/// \brief For every strategy, the index of the first one before it with the same grid, or -1.
std::vector<int> same_grid_as(const std::vector<DecompositionIdentity>& grids);

/// \brief "12.3%" saving of `value` against `baseline` (time: positive is faster).
std::string saving_text(double value, double baseline);

/// \brief The table of compare mode: a column per strategy over its repeated runs. Report
/// has `strategy`, `grid` (a DecompositionIdentity) and `result.seconds`.
template <class Report>
class ComparisonTable {
public:
  explicit ComparisonTable(const std::vector<std::vector<Report>>& runs)
      : m_runs(runs), m_table(header(runs)), m_same(same_grid_as(grids(runs))) {}

  /// \brief A row: `label`, then cell(k, first run of strategy k) for every strategy.
  template <class Cell>
  void row(const std::string& label, Cell cell) {
    std::vector<std::string> cells = {label};
    for (std::size_t k = 0; k < m_runs.size(); ++k)
      cells.push_back(cell(k, m_runs[k].front()));
    m_table.add_row(cells);
  }
  void rule() { m_table.add_rule(); }
  /// \brief min and median over the runs of strategy k of value(run).
  template <class Value>
  Spread over_runs(std::size_t k, Value value) const {
    std::vector<double> v;
    for (const auto& r : m_runs[k])
      v.push_back(value(r));
    return spread(v);
  }
  /// \brief min and median of the run times of strategy k.
  Spread seconds(std::size_t k) const {
    return over_runs(k, [](const Report& r) { return r.result.seconds; });
  }
  /// \brief "same as <strategy>" when strategy k has the grid of an earlier one, else "".
  std::string same_as(std::size_t k) const {
    return m_same[k] < 0 ? std::string() : "same as " + m_runs[m_same[k]].front().strategy;
  }
  /// \brief The saving of strategy k's median time against strategy `base`'s: "-" for the
  /// base itself, "same as ..." for the same decomposition.
  std::string time_saving(std::size_t k, std::size_t base) const {
    if (k == base) return "-";
    if (m_same[k] >= 0) return same_as(k);
    return saving_text(seconds(k).median, seconds(base).median);
  }
  void print(std::ostream& out) const { m_table.print(out); }

private:
  static std::vector<std::string> header(const std::vector<std::vector<Report>>& runs) {
    std::vector<std::string> h = {"strategy"};
    for (const auto& repeats : runs)
      h.push_back(repeats.front().strategy);
    return h;
  }
  static std::vector<DecompositionIdentity> grids(const std::vector<std::vector<Report>>& runs) {
    std::vector<DecompositionIdentity> g;
    for (const auto& repeats : runs)
      g.push_back(repeats.front().grid);
    return g;
  }
  const std::vector<std::vector<Report>>& m_runs;
  Table m_table;
  std::vector<int> m_same;
};

/// \brief Per machine level (coarse first; `level_names` may end with "self", left out): the
/// run's halo bytes across the level, and one exchange's busiest unit across it, the
/// quantity the default strategy minimises, coarse level first. Report has `halo.bytes` and
/// `exchange.loads` (ExchangePrediction.hpp).
template <class Report>
void add_level_rows(ComparisonTable<Report>& table, const std::vector<std::string>& level_names) {
  for (std::size_t l = 0; l < level_names.size(); ++l) {
    if (level_names[l] == "self") continue;
    table.row(level_names[l] + " halo bytes", [l](std::size_t, const Report& r) {
      return human_bytes(static_cast<double>(r.halo.bytes[l]));
    });
    table.row(level_names[l] + " busiest unit / exchange", [l](std::size_t, const Report& r) {
      return l < r.exchange.loads.size()
                 ? human_bytes(static_cast<double>(r.exchange.loads[l].max_unit_bytes))
                 : std::string("-");
    });
  }
}

} // namespace hcart::apps
