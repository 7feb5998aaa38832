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

// How a plan's process grid is laid out on the page: direction `rows` down, `cols` across
// (-1: none), one panel per coordinate of `planes` (-1: one panel). A 3-D grid with a
// direction of one process is drawn as one panel of the other two, whichever it is, so that
// the same grid looks the same whichever direction its strategy left uncut.
struct View {
  int rows = 0, cols = -1, planes = -1;
  std::int64_t extent(const std::vector<std::int64_t>& d, int axis) const {
    return axis < 0 ? 1 : d[static_cast<std::size_t>(axis)];
  }
};

View view_of(const std::vector<std::int64_t>& d) {
  if (d.size() == 1) return {0, -1, -1};
  if (d.size() == 2) return {0, 1, -1};
  if (d[2] == 1) return {0, 1, -1};
  if (d[1] == 1) return {0, 2, -1};
  if (d[0] == 1) return {1, 2, -1};
  return {0, 1, 2};
}

// The plural of a level's name ("switches", "nodes").
std::string plural(const std::string& name) {
  const auto ends = [&](const char* tail) {
    const std::string t(tail);
    return name.size() >= t.size() && name.compare(name.size() - t.size(), t.size(), t) == 0;
  };
  return name + (ends("s") || ends("sh") || ends("ch") || ends("x") ? "es" : "s");
}

// An estimate of a line's width in pixels at the picture's 12-pixel sans-serif font.
int text_width(const std::string& line) {
  return static_cast<int>(line.size()) * 7;
}

} // namespace

std::string plan_svg(const PlanRequest& request, const std::vector<PlanOutcome>& outcomes) {
  const std::size_t D = request.mesh.global_size.size();
  HCART_REQUIRE(D >= 1 && D <= 3, "--draw: a " << D << "-dimensional mesh, expected 1 to 3");
  HCART_REQUIRE(request.machine.ranks() <= max_drawn_ranks,
                "--draw: " << request.machine.ranks() << " ranks, expected at most "
                           << max_drawn_ranks);
  // One column per plan, its planes under each other; its caption above (a line each: the
  // strategy, the dims and how they lie on the page, the busiest unit of each level down to
  // the node), as wide as the column needs; the legend below.
  const int margin = 16, line = 16, gap = 22;
  const int node_level = request.machine.node_level();
  const int caption = line * (4 + node_level) + 4; // the most lines a caption has
  struct Panel {
    const PlanOutcome* outcome;
    View view;
    std::int64_t plane;
    int x, y;
  };
  std::vector<Panel> panels;
  struct Heading {
    std::vector<std::string> lines; // the first bold
    int x;
  };
  std::vector<Heading> headings;
  int column_x = margin, height = 0;
  for (const PlanOutcome& o : outcomes) {
    if (!o.plan) continue;
    const auto& d = o.plan->dims;
    const View v = view_of(d);
    const std::int64_t rows = v.extent(d, v.rows), cols = v.extent(d, v.cols),
                       planes = v.extent(d, v.planes);
    const int cell = cell_size(rows, cols);
    const int pw = static_cast<int>(cols) * cell, ph = static_cast<int>(rows) * cell;
    Heading h{{to_string(o.strategy), "dims " + join(d, "x")}, column_x};
    if (v.cols >= 0)
      h.lines.push_back("direction " + std::to_string(v.rows) + " down, " + std::to_string(v.cols) +
                        " across");
    for (int l = 0; l <= node_level; ++l)
      h.lines.push_back("busiest " + o.traffic.levels[l].name + ": " +
                        std::to_string(o.traffic.levels[l].max_unit_bytes) + " B");
    int width = pw;
    for (const std::string& text : h.lines)
      width = std::max(width, text_width(text));
    headings.push_back(h);
    int y = margin + caption + (planes > 1 ? 8 : 0);
    for (std::int64_t k = 0; k < planes; ++k) {
      if (planes > 1) y += 14; // the plane's label
      panels.push_back({&o, v, k, column_x, y});
      y += ph + gap;
    }
    height = std::max(height, y);
    column_x += width + gap;
  }
  // The legend: what a square, a colour and a line mean.
  std::vector<std::string> legend = {
      "Each square is a rank at its place in the process grid.",
      "Its colour is the node it runs on: the same rank has the same colour in every column."};
  const auto& levels = request.machine.levels();
  std::string lines_meaning =
      "Thick black lines separate " + plural(levels[static_cast<std::size_t>(node_level)].name);
  if (node_level > 0) lines_meaning += " (thicker: " + plural(levels[0].name) + ")";
  if (node_level + 1 < request.machine.level_count())
    lines_meaning += "; thin grey lines separate " +
                     plural(levels[static_cast<std::size_t>(node_level) + 1].name) + " inside one";
  legend.push_back(lines_meaning + ".");
  int width = column_x + margin;
  for (const std::string& text : legend)
    width = std::max(width, margin + text_width(text) + margin);
  const int legend_y = height + 4;
  const int y = legend_y + line * static_cast<int>(legend.size()) + margin;

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << y
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<title>hcart-plan: mesh " << join(request.mesh.global_size, "x") << " on "
      << request.machine.to_string() << "</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (const Heading& h : headings) {
    for (std::size_t k = 0; k < h.lines.size(); ++k)
      svg << "<text x=\"" << h.x << "\" y=\"" << margin + 12 + line * static_cast<int>(k) << "\""
          << (k == 0 ? " font-weight=\"bold\"" : "") << ">" << h.lines[k] << "</text>\n";
  }
  svg << "<g class=\"legend\">\n";
  for (std::size_t k = 0; k < legend.size(); ++k)
    svg << "<text x=\"" << margin << "\" y=\"" << legend_y + 12 + line * static_cast<int>(k)
        << "\" fill=\"#333\">" << legend[k] << "</text>\n";
  svg << "</g>\n";
  Placement placed; // of the plan whose panels are drawn
  const PlanOutcome* placed_for = nullptr;
  for (const Panel& panel : panels) {
    const Plan& plan = *panel.outcome->plan;
    if (placed_for != panel.outcome) {
      placed = place(plan, request.machine);
      placed_for = panel.outcome;
    }
    const auto& d = plan.dims;
    const View& v = panel.view;
    const std::int64_t rows = v.extent(d, v.rows), cols = v.extent(d, v.cols),
                       planes = v.extent(d, v.planes);
    const int c = cell_size(rows, cols);
    std::vector<std::int64_t> coords(D, 0);
    const auto at = [&](std::int64_t i, std::int64_t j) {
      coords[static_cast<std::size_t>(v.rows)] = i;
      if (v.cols >= 0) coords[static_cast<std::size_t>(v.cols)] = j;
      if (v.planes >= 0) coords[static_cast<std::size_t>(v.planes)] = panel.plane;
      return coords;
    };
    const auto index = [&](std::int64_t i, std::int64_t j) {
      const auto x = at(i, j);
      std::int64_t q = 0; // row-major, the last direction fastest
      for (std::size_t a = 0; a < D; ++a)
        q = q * d[a] + x[a];
      return q;
    };
    if (planes > 1)
      svg << "<text x=\"" << panel.x << "\" y=\"" << panel.y - 4 << "\">plane " << panel.plane
          << " of direction " << v.planes << "</text>\n";
    svg << "<g data-strategy=\"" << to_string(panel.outcome->strategy) << "\" data-plane=\""
        << panel.plane << "\" data-plane-direction=\"" << v.planes << "\">\n";
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < cols; ++j) {
        const std::int64_t q = index(i, j);
        svg << "<rect x=\"" << panel.x + j * c << "\" y=\"" << panel.y + i * c << "\" width=\"" << c
            << "\" height=\"" << c << "\" fill=\"" << node_colour(placed.node[q])
            << "\" data-rank=\"" << placed.rank[q] << "\" data-node=\"" << placed.node[q]
            << "\" data-coords=\"" << join(at(i, j), ",") << "\"/>\n";
      }
    }
    // The boundaries between neighbours of different units, and the panel's frame: thicker
    // the coarser the level they separate (a switch's thicker than a node's); below the node
    // only the next level's units, thin.
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
