#include "grid/HierarchyLevel.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/DeviceAwareMpi.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/grid/LevelTransfers.hpp>
#include <hcart/grid/Loops.hpp>

#include <algorithm>
#include <cstring>
#include <sstream>

namespace hcart {

namespace {

std::int64_t halved(std::int64_t n, LevelCentering centering) {
  return centering == LevelCentering::Cell ? n / 2 : (n - 1) / 2;
}

// True when a direction of n cells halves into a level that still keeps `least` cells.
bool halves(std::int64_t n, LevelCentering centering, std::int64_t least) {
  if (centering == LevelCentering::Cell) return n % 2 == 0 && n / 2 >= least;
  return n % 2 == 1 && (n - 1) / 2 >= least;
}

bool coarsened(const GridSpec& spec, const HierarchyOptions& options, int d) {
  return options.coarsen[d] && spec.global_size[d] > 1;
}

const char* name_of(LevelCentering c) {
  return c == LevelCentering::Cell ? "cell-centred" : "vertex-centred";
}

} // namespace

int hierarchy_levels(const GridSpec& spec, const HierarchyOptions& options) {
  HCART_REQUIRE(options.levels >= 0, "hcart::GridHierarchy: " << options.levels
                                                              << " levels, expected 0 (as many as "
                                                                 "the mesh halves into) or more");
  HCART_REQUIRE(options.min_size >= 1,
                "hcart::GridHierarchy: min_size " << options.min_size << ", expected 1 or more");
  HCART_REQUIRE(options.agglomerate_below >= 0, "hcart::GridHierarchy: agglomerate_below "
                                                    << options.agglomerate_below
                                                    << ", expected 0 (never) or more");
  if (options.levels > 0) {
    std::array<std::int64_t, 3> n = spec.global_size;
    for (int l = 1; l < options.levels; ++l) {
      for (int d = 0; d < 3; ++d) {
        if (!coarsened(spec, options, d)) continue;
        HCART_REQUIRE(halves(n[d], options.centering, 1),
                      "hcart::GridHierarchy: level "
                          << l << " cannot be made: direction " << d << " has " << n[d]
                          << " cells at level " << l - 1 << ", which do not halve ("
                          << name_of(options.centering) << ", " << spec.global_size[d]
                          << " at level 0)");
        n[d] = halved(n[d], options.centering);
      }
    }
    return options.levels;
  }
  std::array<std::int64_t, 3> n = spec.global_size;
  int levels = 1;
  bool any = false;
  for (int d = 0; d < 3; ++d)
    any = any || coarsened(spec, options, d);
  while (any) {
    bool all = true;
    for (int d = 0; d < 3; ++d)
      all = all &&
            (!coarsened(spec, options, d) || halves(n[d], options.centering, options.min_size));
    if (!all) break;
    for (int d = 0; d < 3; ++d)
      if (coarsened(spec, options, d)) n[d] = halved(n[d], options.centering);
    ++levels;
  }
  return levels;
}

std::array<std::int64_t, 3> hierarchy_level_size(const GridSpec& spec,
                                                 const HierarchyOptions& options, int level) {
  std::array<std::int64_t, 3> n = spec.global_size;
  for (int l = 0; l < level; ++l)
    for (int d = 0; d < 3; ++d)
      if (coarsened(spec, options, d)) n[d] = halved(n[d], options.centering);
  return n;
}

int nested_levels(const GridSpec& spec, const HierarchyOptions& options) {
  const int levels = hierarchy_levels(spec, options);
  if (options.agglomerate_below <= 0) return levels;
  for (int l = 1; l < levels; ++l) {
    const auto n = hierarchy_level_size(spec, options, l);
    if (n[0] * n[1] * n[2] < options.agglomerate_below) return l + 1;
  }
  return levels;
}

GridSpec nested_spec(GridSpec spec, const HierarchyOptions& options) {
  const int nested = nested_levels(spec, options);
  for (int d = 0; d < 3; ++d) {
    spec.block_multiple[d] = 1;
    if (coarsened(spec, options, d)) spec.block_multiple[d] = std::int64_t(1) << (nested - 1);
  }
  return spec;
}

void require_nested(const Decomposition& fine, const Decomposition& coarse,
                    const std::array<int, 3>& ratio, LevelCentering centering) {
  agree_on_errors(fine.comm(), [&] {
    HCART_REQUIRE(coarse.size() == fine.size(), "hcart::require_nested: a coarse level of "
                                                    << coarse.size() << " ranks for a fine one of "
                                                    << fine.size());
    const Block f = fine.block({0, 0, 0}), c = coarse.block({0, 0, 0});
    for (int d = 0; d < 3; ++d) {
      const std::int64_t r = ratio[d];
      const std::int64_t lo = f.global_offset[d], hi = lo + f.local_size[d];
      std::int64_t want_lo = lo / r, want_hi = hi / r;
      if (r > 1 && centering == LevelCentering::Vertex && hi == f.global_size[d])
        want_hi = (hi - 1) / r; // the last block: (n - 1) / 2 points
      const bool ok = r >= 1 && lo % r == 0 && (hi % r == 0 || hi == f.global_size[d]) &&
                      c.global_offset[d] == want_lo &&
                      c.global_offset[d] + c.local_size[d] == want_hi;
      HCART_REQUIRE(ok, "hcart::require_nested: rank "
                            << fine.rank() << "'s coarse block, cells " << c.global_offset[d]
                            << " to " << c.global_offset[d] + c.local_size[d] << " of direction "
                            << d << ", does not nest in its fine block, cells " << lo << " to "
                            << hi << " (ratio " << r << ", " << name_of(centering) << ")");
    }
  });
}

GridHierarchy::GridHierarchy(MPI_Comm comm, const GridSpec& spec, const HierarchyOptions& options,
                             const DecompositionOptions& decomposition)
    : GridHierarchy(
          std::make_unique<Decomposition>(comm, nested_spec(spec, options), decomposition),
          options) {}

GridHierarchy::GridHierarchy(std::unique_ptr<Decomposition> fine, const HierarchyOptions& options)
    : GridHierarchy(*fine, options) {
  m_owned_fine = std::move(fine);
}

GridHierarchy::GridHierarchy(const Decomposition& fine, const HierarchyOptions& options)
    : m_fine(&fine), m_options(options) {
  int levels = 0;
  agree_on_errors(fine.comm(), [&] { levels = hierarchy_levels(fine.spec(), options); });
  for (int d = 0; d < 3; ++d)
    m_ratio[d] = coarsened(fine.spec(), options, d) ? 2 : 1;
  for (int l = 0; l < levels; ++l)
    m_levels.push_back(std::make_unique<Level>());
  Level& top = *m_levels.front();
  top.size = fine.spec().global_size;
  top.decomp = &fine;
  top.grid = make_grid(fine);
  top.ranks = fine.size();
  // Each level from the one above, on the ranks that hold that one (errors agreed there,
  // then on every rank).
  agree_on_errors(fine.comm(), [&] {
    for (int l = 1; l < levels; ++l)
      build(l);
  });
  // Every rank learns how many ranks hold each level.
  std::vector<int> ranks(static_cast<std::size_t>(levels));
  for (int l = 0; l < levels; ++l)
    ranks[static_cast<std::size_t>(l)] = m_levels[static_cast<std::size_t>(l)]->ranks;
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, ranks.data(), levels, MPI_INT, MPI_MAX, fine.comm()));
  for (int l = 0; l < levels; ++l) {
    Level& level = *m_levels[static_cast<std::size_t>(l)];
    level.ranks = ranks[static_cast<std::size_t>(l)];
    if (l > 0) level.agglomerated = level.ranks < m_levels[static_cast<std::size_t>(l - 1)]->ranks;
  }
  for (const auto& machine_level : fine.machine().levels())
    m_traffic.level_names.push_back(machine_level.name);
  m_traffic.level_names.push_back("self");
  m_traffic.bytes.assign(m_traffic.level_names.size(), 0);
  m_traffic.messages.assign(m_traffic.level_names.size(), 0);
  // And each agglomerated level's boxes and bytes (the ranks of the level above chose them).
  const std::size_t machine_levels = static_cast<std::size_t>(fine.machine().level_count()) + 1;
  for (int l = 1; l < levels; ++l) {
    Level& level = *m_levels[static_cast<std::size_t>(l)];
    if (!level.agglomerated) continue;
    std::vector<long long> facts(3 + 2 * machine_levels, 0);
    for (std::size_t d = 0; d < level.choice.group.size() && d < 3; ++d)
      facts[d] = level.choice.group[d];
    for (std::size_t b = 0; b < level.choice.bytes.total.size() && b < machine_levels; ++b) {
      facts[3 + b] = level.choice.bytes.total[b];
      facts[3 + machine_levels + b] = level.choice.bytes.busiest[b];
    }
    HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, facts.data(), static_cast<int>(facts.size()),
                                  MPI_LONG_LONG, MPI_MAX, fine.comm()));
    level.choice.group.assign(facts.begin(), facts.begin() + 3);
    level.choice.bytes.total.assign(facts.begin() + 3,
                                    facts.begin() + 3 + static_cast<long>(machine_levels));
    level.choice.bytes.busiest.assign(facts.begin() + 3 + static_cast<long>(machine_levels),
                                      facts.end());
  }
}

GridHierarchy::~GridHierarchy() = default;

std::unique_ptr<Grid> GridHierarchy::make_grid(const Decomposition& decomp) const {
  std::array<int, 3> halo = decomp.spec().halo_width;
  for (int d = 0; d < 3; ++d) {
    if (m_options.halo_width[d] >= 0) halo[d] = m_options.halo_width[d];
  }
  return std::make_unique<Grid>(decomp, halo);
}

void GridHierarchy::build(int l) {
  const Level& above = *m_levels[static_cast<std::size_t>(l - 1)];
  Level& level = *m_levels[static_cast<std::size_t>(l)];
  level.size = hierarchy_level_size(m_fine->spec(), m_options, l);
  if (above.decomp == nullptr) return; // this rank holds neither
  std::unique_ptr<Decomposition> pieces;
  try {
    pieces = Decomposition::coarsened(*above.decomp, level.size, m_ratio);
  } catch (const InputError& e) { // the same on every rank of the level above
    InputError named("hcart::GridHierarchy: level " + std::to_string(l) +
                     " cannot be made: " + e.what());
    named.set_collective(true);
    throw named;
  }
  const std::int64_t cells = level.size[0] * level.size[1] * level.size[2];
  const int P = pieces->size();
  Agglomeration choice;
  if (m_options.agglomerate_below > 0 && P > 1 && cells < m_options.agglomerate_below * P) {
    AgglomerationProblem problem;
    const auto dims = pieces->dims();
    problem.dims.assign(dims.begin(), dims.end());
    problem.cells = cells;
    problem.threshold = m_options.agglomerate_below;
    for (int r = 0; r < P; ++r) {
      problem.units.push_back(pieces->unit_indices_of(r));
      std::int64_t c[3], n = 1;
      for (int d = 2, rest = r; d >= 0; --d) {
        c[d] = rest % dims[d];
        rest /= dims[d];
      }
      for (int d = 0; d < 3; ++d)
        n *= pieces->block_begin(d, c[d] + 1) - pieces->block_begin(d, c[d]);
      problem.piece_bytes.push_back(n * static_cast<std::int64_t>(sizeof(double)));
    }
    choice = choose_agglomeration(problem, m_options.agglomeration);
  }
  std::int64_t group = 1;
  for (const std::int64_t g : choice.group)
    group *= g;
  if (group <= 1) {
    level.own = std::move(pieces);
    level.decomp = level.own.get();
    level.grid = make_grid(*level.decomp);
    level.ranks = level.decomp->size();
    return;
  }
  const std::array<int, 3> box{static_cast<int>(choice.group[0]), static_cast<int>(choice.group[1]),
                               static_cast<int>(choice.group[2])};
  const std::vector<int> owners(choice.owners.begin(), choice.owners.end());
  level.own = Decomposition::agglomerated(*pieces, box, owners);
  level.decomp = level.own.get();
  level.ranks = static_cast<int>(owners.size());
  // The move: this rank's box and its owner; an owner's members.
  const auto c = pieces->coords();
  const auto dims = pieces->dims();
  std::int64_t b = 0;
  for (int d = 0; d < 3; ++d)
    b = b * (dims[d] / box[d]) + c[d] / box[d];
  level.owner = owners[static_cast<std::size_t>(b)];
  // The box this rank holds, if any (the stride rule may give it one it is not in).
  const auto held = std::find(owners.begin(), owners.end(), pieces->rank());
  if (held != owners.end()) {
    const auto mine = static_cast<std::int64_t>(held - owners.begin());
    for (int r = 0; r < P; ++r) {
      int rc[3];
      HCART_MPI_CHECK(MPI_Cart_coords(pieces->comm(), r, 3, rc));
      std::int64_t rb = 0;
      for (int d = 0; d < 3; ++d)
        rb = rb * (dims[d] / box[d]) + rc[d] / box[d];
      if (rb == mine) level.members.push_back(r);
    }
  }
  level.choice = std::move(choice);
  level.pieces = std::move(pieces);
  level.pieces_grid = make_grid(*level.pieces);
  if (level.decomp != nullptr) level.grid = make_grid(*level.decomp);
}

namespace {

const char* kHolds = "hcart::GridHierarchy";

} // namespace

void* GridHierarchy::impl_scratch(int level, std::size_t bytes) const {
  holds(level);
  const Level& l = *m_levels[static_cast<std::size_t>(level)];
  if (l.scratch.extent(0) < bytes) {
    // Aligned for any element: a Kokkos allocation is.
    l.scratch = Kokkos::View<unsigned char*, MemorySpace>("hcart::hierarchy::scratch", bytes);
  }
  return l.scratch.data();
}

LevelMap level_map(const GridHierarchy& levels, int level) {
  HCART_CHECK(level >= 1 && level < levels.size() && levels.holds(level - 1),
              "hcart::level_map: level " << level << " of " << levels.size()
                                         << " (this rank must hold the level above)");
  const Grid& fine = levels.grid(level - 1);
  const Grid& coarse = levels.agglomerated(level) ? levels.pieces(level) : levels.grid(level);
  LevelMap map;
  for (int d = 0; d < 3; ++d) {
    map.fine_origin[d] = fine.global_index(d, 0);
    map.coarse_origin[d] = coarse.global_index(d, 0);
    map.ratio[d] = levels.ratio()[d];
  }
  map.vertex = levels.options().centering == LevelCentering::Vertex;
  return map;
}

bool GridHierarchy::holds(int level) const {
  HCART_CHECK(level >= 0 && level < size(),
              kHolds << ": level " << level << ", expected 0 to " << size() - 1);
  return m_levels[static_cast<std::size_t>(level)]->decomp != nullptr;
}

const Decomposition& GridHierarchy::decomposition(int level) const {
  HCART_CHECK(holds(level), kHolds << "::decomposition: this rank holds no cell of level " << level
                                   << " (agglomerated onto " << ranks(level)
                                   << " ranks); ask holds() first");
  return *m_levels[static_cast<std::size_t>(level)]->decomp;
}

const Grid& GridHierarchy::grid(int level) const {
  HCART_CHECK(holds(level), kHolds << "::grid: this rank holds no cell of level " << level
                                   << " (agglomerated onto " << ranks(level)
                                   << " ranks); ask holds() first");
  return *m_levels[static_cast<std::size_t>(level)]->grid;
}

std::array<std::int64_t, 3> GridHierarchy::global_size(int level) const {
  holds(level); // checks the index
  return m_levels[static_cast<std::size_t>(level)]->size;
}

int GridHierarchy::ranks(int level) const {
  holds(level);
  return m_levels[static_cast<std::size_t>(level)]->ranks;
}

bool GridHierarchy::agglomerated(int level) const {
  holds(level);
  return m_levels[static_cast<std::size_t>(level)]->agglomerated;
}

const Grid& GridHierarchy::pieces(int level) const {
  HCART_CHECK(
      agglomerated(level) && m_levels[static_cast<std::size_t>(level)]->pieces_grid,
      kHolds << "::pieces: level " << level
             << (agglomerated(level) ? " is not held above on this rank" : " is not agglomerated"));
  return *m_levels[static_cast<std::size_t>(level)]->pieces_grid;
}

const Agglomeration& GridHierarchy::agglomeration(int level) const {
  holds(level);
  return m_levels[static_cast<std::size_t>(level)]->choice;
}

std::vector<std::string> GridHierarchy::describe() const {
  std::vector<std::string> lines;
  for (int l = 0; l < size(); ++l) {
    const Level& level = *m_levels[static_cast<std::size_t>(l)];
    std::ostringstream s;
    s << "level " << l << ": " << level.size[0] << "x" << level.size[1] << "x" << level.size[2]
      << " on " << level.ranks << (level.ranks == 1 ? " rank" : " ranks");
    if (level.decomp != nullptr) {
      const auto dims = level.decomp->dims();
      s << ", dims " << dims[0] << "x" << dims[1] << "x" << dims[2];
    }
    if (level.agglomerated) {
      s << ", agglomerated (" << to_string(m_options.agglomeration) << ")";
      if (!level.choice.group.empty()) {
        s << ": boxes of " << level.choice.group[0] << "x" << level.choice.group[1] << "x"
          << level.choice.group[2] << ", gather bytes by level";
        for (std::size_t b = 0; b < level.choice.bytes.total.size(); ++b)
          s << (b == 0 ? " " : " / ") << level.choice.bytes.total[b];
      }
    }
    lines.push_back(s.str());
  }
  return lines;
}

} // namespace hcart
