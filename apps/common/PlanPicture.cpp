#include "PlanPicture.hpp"

#include "LaunchFile.hpp"
#include "Text.hpp"

#include <hcart/core/Error.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace hcart::apps {

namespace {

// A colour per node: hues a golden angle apart, two lightnesses in turn, so that
// neighbouring node numbers differ.
std::string node_colour(std::int64_t node) {
  const double hue = std::fmod(static_cast<double>(node) * 137.508, 360.0);
  const int lightness = node % 2 == 0 ? 62 : 76;
  std::ostringstream s;
  s << "hsl(" << std::fixed << std::setprecision(1) << hue << ",60%," << lightness << "%)";
  return s.str();
}

// Where every process coordinate (row-major) is placed: its world rank, its node (numbered
// in block order across the whole machine) and its unit indices.
struct Placement {
  std::vector<std::int64_t> rank, node;
  std::vector<std::vector<std::int64_t>> units;
};

// The side of a square: panels about 320 pixels across, squares of 3 to 24.
int cell_size(std::int64_t rows, std::int64_t cols) {
  return static_cast<int>(std::clamp<std::int64_t>(320 / std::max(rows, cols), 3, 24));
}

Placement place(const Plan& plan, const Machine& machine) {
  const std::int64_t P = machine.ranks();
  const std::vector<LaunchSlot> slots = block_slots(machine);
  Placement p;
  p.rank.assign(P, -1);
  p.node.assign(P, 0);
  p.units.resize(P);
  for (std::int64_t r = 0; r < P; ++r) {
    const std::int64_t q = plan.cart_rank_of(r, machine);
    p.rank[q] = r;
    p.node[q] = slots[machine.block_number(r)].node;
    p.units[q] = machine.unit_indices(r);
  }
  return p;
}

} // namespace

std::string plan_svg(const PlanRequest& request, const std::vector<PlanOutcome>& outcomes) {
  const std::size_t D = request.mesh.global_size.size();
  HCART_REQUIRE(D >= 1 && D <= 3, "--draw: a " << D << "-dimensional mesh, expected 1 to 3");
  HCART_REQUIRE(request.machine.ranks() <= max_drawn_ranks,
                "--draw: " << request.machine.ranks() << " ranks, expected at most "
                           << max_drawn_ranks);
  // One column per plan, its planes under each other; a title of two lines above.
  const int margin = 16, title = 40, gap = 22;
  struct Panel {
    const PlanOutcome* outcome;
    std::int64_t plane;
    int x, y;
  };
  std::vector<Panel> panels;
  struct Heading {
    std::string strategy, detail;
    int x;
  };
  std::vector<Heading> headings;
  int column_x = margin, height = 0;
  for (const PlanOutcome& o : outcomes) {
    if (!o.plan) continue;
    const auto& d = o.plan->dims;
    const std::int64_t rows = d[0], cols = D >= 2 ? d[1] : 1, planes = D == 3 ? d[2] : 1;
    const int cell = cell_size(rows, cols);
    const int pw = static_cast<int>(cols) * cell, ph = static_cast<int>(rows) * cell;
    std::ostringstream detail;
    detail << "dims " << join(d, "x") << ", busiest";
    for (int l = 0; l <= request.machine.node_level(); ++l)
      detail << (l ? ", " : " ") << o.traffic.levels[l].name << " "
             << o.traffic.levels[l].max_unit_bytes << " B";
    headings.push_back({to_string(o.strategy), detail.str(), column_x});
    int y = margin + title;
    for (std::int64_t k = 0; k < planes; ++k) {
      if (planes > 1) y += 14; // the plane's label
      panels.push_back({&o, k, column_x, y});
      y += ph + gap;
    }
    height = std::max(height, y + margin);
    column_x += std::max(pw, 230) + gap;
  }
  const int width = column_x + margin;
  const int y = height;

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << y
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<title>hcart-plan: mesh " << join(request.mesh.global_size, "x") << " on "
      << request.machine.to_string() << "</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (const Heading& h : headings) {
    svg << "<text x=\"" << h.x << "\" y=\"" << margin + 12 << "\" font-weight=\"bold\">"
        << h.strategy << "</text>\n"
        << "<text x=\"" << h.x << "\" y=\"" << margin + 28 << "\">" << h.detail << "</text>\n";
  }
  Placement placed; // of the plan whose panels are drawn
  const PlanOutcome* placed_for = nullptr;
  for (const Panel& panel : panels) {
    const Plan& plan = *panel.outcome->plan;
    if (placed_for != panel.outcome) {
      placed = place(plan, request.machine);
      placed_for = panel.outcome;
    }
    const auto& d = plan.dims;
    const std::int64_t rows = d[0], cols = D >= 2 ? d[1] : 1, planes = D == 3 ? d[2] : 1;
    const int c = cell_size(rows, cols);
    const auto index = [&](std::int64_t i, std::int64_t j) {
      return (i * cols + j) * planes + panel.plane; // row-major, the last direction fastest
    };
    if (planes > 1)
      svg << "<text x=\"" << panel.x << "\" y=\"" << panel.y - 4 << "\">plane " << panel.plane
          << " of direction 2</text>\n";
    svg << "<g data-strategy=\"" << to_string(panel.outcome->strategy) << "\" data-plane=\""
        << panel.plane << "\">\n";
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < cols; ++j) {
        const std::int64_t q = index(i, j);
        svg << "<rect x=\"" << panel.x + j * c << "\" y=\"" << panel.y + i * c << "\" width=\"" << c
            << "\" height=\"" << c << "\" fill=\"" << node_colour(placed.node[q])
            << "\" data-rank=\"" << placed.rank[q] << "\" data-node=\"" << placed.node[q]
            << "\" data-coords=\"" << i;
        if (D >= 2) svg << "," << j;
        if (D == 3) svg << "," << panel.plane;
        svg << "\"/>\n";
      }
    }
    // The boundaries between neighbours of different units, and the panel's frame: thicker
    // the coarser the level they separate (a switch's thicker than a node's); below the node
    // only the next level's units, thin.
    const int node_level = request.machine.node_level();
    const auto edge = [&](std::int64_t q, std::int64_t r, int x1, int y1, int x2, int y2) {
      const int level = separating_level(placed.units[q], placed.units[r]);
      if (level > node_level + 1 || level >= request.machine.level_count()) return;
      const bool unit = level > node_level;
      const std::string name = unit ? "unit" : request.machine.levels()[level].name;
      const double stroke = unit ? 0.75 : 2.0 + 1.5 * (node_level - level);
      svg << "<line class=\"" << name << "-edge\" x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\""
          << x2 << "\" y2=\"" << y2 << "\" stroke=\"" << (unit ? "#555" : "black")
          << "\" stroke-width=\"" << stroke << "\"/>\n";
    };
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < cols; ++j) {
        const int x = panel.x + static_cast<int>(j) * c, top = panel.y + static_cast<int>(i) * c;
        if (j + 1 < cols) edge(index(i, j), index(i, j + 1), x + c, top, x + c, top + c);
        if (i + 1 < rows) edge(index(i, j), index(i + 1, j), x, top + c, x + c, top + c);
      }
    }
    svg << "<rect x=\"" << panel.x << "\" y=\"" << panel.y << "\" width=\"" << cols * c
        << "\" height=\"" << rows * c << "\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>\n"
        << "</g>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

} // namespace hcart::apps
