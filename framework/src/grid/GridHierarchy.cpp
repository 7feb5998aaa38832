#include "core/CopyElement.hpp"

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

struct GridHierarchy::Level {
  std::array<std::int64_t, 3> size{{1, 1, 1}};
  std::unique_ptr<Decomposition> own;    // the level's decomposition where derived and held
  const Decomposition* decomp = nullptr; // own, or the fine one; null where not held
  std::unique_ptr<Grid> grid;
  int ranks = 0;
  bool agglomerated = false;
  // An agglomerated level: as the ranks of the level above hold it, and the move.
  std::unique_ptr<Decomposition> pieces;
  std::unique_ptr<Grid> pieces_grid;
  Agglomeration choice;
  int owner = -1;           // this rank's box's owner (a rank of pieces->comm())
  std::vector<int> members; // the ranks of the box this rank holds (none where it holds none)
  mutable Kokkos::View<unsigned char*, MemorySpace> buffer;
  mutable Kokkos::View<unsigned char*, Kokkos::HostSpace> host_buffer;
  mutable Kokkos::View<unsigned char*, MemorySpace> scratch; // the transfers' pieces field
};

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

namespace {

// One element of `bytes` bytes, component c of cell (i, j, k), between a field (with
// `extent` cells per direction, components one after another) and a buffer holding a box
// row-major (component slowest).
struct BoxBytes {
  unsigned char* field;
  unsigned char* buffer;
  int ext_j, ext_k;           // the field's extents in j and k
  std::int64_t per_component; // the field's cells
  int i0, j0, k0;             // the box's first local cell
  int nj, nk;                 // its extents in j and k
  std::int64_t box_cells;
  int components;
  int bytes;
  bool to_buffer;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const std::int64_t in_box = (static_cast<std::int64_t>(i - i0) * nj + (j - j0)) * nk + (k - k0);
    const std::int64_t in_field = (static_cast<std::int64_t>(i) * ext_j + j) * ext_k + k;
    for (int c = 0; c < components; ++c) {
      unsigned char* f = field + (c * per_component + in_field) * bytes;
      unsigned char* b = buffer + (c * box_cells + in_box) * bytes;
      if (to_buffer)
        impl::copy_element(b, f, bytes);
      else
        impl::copy_element(f, b, bytes);
    }
  }
};

// A global box [lo, hi) as the local box of a field whose first cell (local 0) is global
// `origin`.
Box local_box(const std::array<std::int64_t, 3>& lo, const std::array<std::int64_t, 3>& hi,
              const std::array<std::int64_t, 3>& origin) {
  Box b;
  for (int d = 0; d < 3; ++d) {
    b.lo[d] = static_cast<int>(lo[d] - origin[d]);
    b.hi[d] = static_cast<int>(hi[d] - origin[d]);
  }
  return b;
}

void copy_box(unsigned char* field, std::array<int, 3> extent, int components, int bytes,
              const Box& box, unsigned char* buffer, bool to_buffer) {
  if (box.empty()) return;
  const BoxBytes f{field,
                   buffer,
                   extent[1],
                   extent[2],
                   static_cast<std::int64_t>(extent[0]) * extent[1] * extent[2],
                   box.lo[0],
                   box.lo[1],
                   box.lo[2],
                   box.extent(1),
                   box.extent(2),
                   box.cells(),
                   components,
                   bytes,
                   to_buffer};
  for_each_cell("hcart_level_move", box, f, LoopPattern::Portable);
}

} // namespace

void GridHierarchy::transfer(int l, bool gather, int components, std::size_t bytes,
                             const unsigned char* from, std::array<int, 3> from_extent,
                             unsigned char* to, std::array<int, 3> to_extent) const {
  const Level& level = *m_levels[static_cast<std::size_t>(l)];
  HCART_CHECK(level.agglomerated && level.pieces,
              kHolds << (gather ? "::gather" : "::scatter") << ": level " << l
                     << (level.agglomerated ? " is not held above on this rank"
                                            : " is not agglomerated: nothing to move"));
  const Decomposition& pieces = *level.pieces;
  const MPI_Comm comm = pieces.comm();
  const int me = pieces.rank();
  const std::array<int, 3> h = level.pieces_grid->halo_width();
  // The global box of rank r's piece: owned (gather) or with its halo (scatter).
  const bool with_halo = !gather;
  const auto piece = [&](int r, std::array<std::int64_t, 3>& lo, std::array<std::int64_t, 3>& hi) {
    int c[3];
    HCART_MPI_CHECK(MPI_Cart_coords(comm, r, 3, c));
    for (int d = 0; d < 3; ++d) {
      lo[d] = pieces.block_begin(d, c[d]) - (with_halo ? h[d] : 0);
      hi[d] = pieces.block_begin(d, c[d] + 1) + (with_halo ? h[d] : 0);
    }
  };
  const auto piece_bytes = [&](int r) {
    std::array<std::int64_t, 3> lo{}, hi{};
    piece(r, lo, hi);
    return static_cast<std::size_t>((hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])) * bytes *
           static_cast<std::size_t>(components);
  };
  // Local index 0 of this rank's piece, and of the block it holds (if any).
  const Grid& pg = *level.pieces_grid;
  std::array<std::int64_t, 3> piece_origin{}, held_origin{};
  for (int d = 0; d < 3; ++d)
    piece_origin[d] = pg.global_offset()[d] - pg.halo_width()[d];
  if (level.grid) {
    for (int d = 0; d < 3; ++d)
      held_origin[d] = level.grid->global_offset()[d] - level.grid->halo_width()[d];
  }
  // The buffer: a segment per member of the held box other than this rank, then one for
  // this rank's own piece (sent to its owner, or copied when it is the owner).
  std::vector<std::pair<int, std::size_t>> segments; // (rank, byte offset)
  std::size_t total = 0;
  for (const int r : level.members) {
    if (r == me) continue;
    segments.emplace_back(r, total);
    total += (piece_bytes(r) + 63) / 64 * 64;
  }
  const std::size_t own_offset = total;
  const std::size_t needed = own_offset + piece_bytes(me);
  if (level.buffer.extent(0) < needed) {
    level.buffer = Kokkos::View<unsigned char*, MemorySpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "hcart::hierarchy::buffer"), needed);
    level.host_buffer = Kokkos::View<unsigned char*, Kokkos::HostSpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "hcart::hierarchy::host"), needed);
  }
  const bool device_buffers = device_mpi().device_buffers || !device_mpi().device_build;
  unsigned char* device = level.buffer.data();
  unsigned char* mpi = device_buffers ? device : level.host_buffer.data();
  const auto copy_between = [&](std::size_t first, std::size_t count, bool to_host) {
    if (device_buffers || count == 0) return;
    const std::pair<std::size_t, std::size_t> range(first, first + count);
    if (to_host) {
      Kokkos::deep_copy(Kokkos::subview(level.host_buffer, range),
                        Kokkos::subview(level.buffer, range));
    } else {
      Kokkos::deep_copy(Kokkos::subview(level.buffer, range),
                        Kokkos::subview(level.host_buffer, range));
    }
  };
  const int tag = 7171 + l;
  const int b = static_cast<int>(bytes);
  auto* source = const_cast<unsigned char*>(from);
  const bool own_piece_here = level.owner == me;
  const auto count = [&](int peer, std::size_t sent) { // self: pieces.separating_level's last
    const auto s = static_cast<std::size_t>(pieces.separating_level(me, peer));
    m_traffic.bytes[s] += static_cast<std::int64_t>(sent);
    m_traffic.messages[s] += 1;
  };
  ++m_traffic.exchanges;
  std::array<std::int64_t, 3> lo{}, hi{};
  std::vector<MPI_Request> requests;
  if (gather) {
    // Members' pieces in; this rank's piece out to its owner (or into the held block).
    for (const auto& [r, offset] : segments) {
      requests.emplace_back();
      HCART_MPI_CHECK(MPI_Irecv(mpi + offset, static_cast<int>(piece_bytes(r)), MPI_BYTE, r, tag,
                                comm, &requests.back()));
    }
    piece(me, lo, hi);
    copy_box(source, from_extent, components, b, local_box(lo, hi, piece_origin),
             device + own_offset, true);
    count(level.owner, piece_bytes(me));
    if (own_piece_here) {
      copy_box(to, to_extent, components, b, local_box(lo, hi, held_origin), device + own_offset,
               false);
    } else {
      fence("hcart_gather");
      copy_between(own_offset, piece_bytes(me), true);
      requests.emplace_back();
      HCART_MPI_CHECK(MPI_Isend(mpi + own_offset, static_cast<int>(piece_bytes(me)), MPI_BYTE,
                                level.owner, tag, comm, &requests.back()));
    }
    HCART_MPI_CHECK(
        MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
    copy_between(0, own_offset, false);
    for (const auto& [r, offset] : segments) {
      piece(r, lo, hi);
      copy_box(to, to_extent, components, b, local_box(lo, hi, held_origin), device + offset,
               false);
    }
  } else {
    // The held block's pieces (halos included) out to their members; this rank's in.
    for (const auto& [r, offset] : segments) {
      piece(r, lo, hi);
      copy_box(source, from_extent, components, b, local_box(lo, hi, held_origin), device + offset,
               true);
    }
    fence("hcart_scatter");
    copy_between(0, own_offset, true);
    for (const auto& [r, offset] : segments) {
      requests.emplace_back();
      HCART_MPI_CHECK(MPI_Isend(mpi + offset, static_cast<int>(piece_bytes(r)), MPI_BYTE, r, tag,
                                comm, &requests.back()));
      count(r, piece_bytes(r));
    }
    piece(me, lo, hi);
    if (own_piece_here) {
      count(me, piece_bytes(me));
      copy_box(source, from_extent, components, b, local_box(lo, hi, held_origin),
               device + own_offset, true);
    } else {
      requests.emplace_back();
      HCART_MPI_CHECK(MPI_Irecv(mpi + own_offset, static_cast<int>(piece_bytes(me)), MPI_BYTE,
                                level.owner, tag, comm, &requests.back()));
    }
    HCART_MPI_CHECK(
        MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
    if (!own_piece_here) copy_between(own_offset, piece_bytes(me), false);
    copy_box(to, to_extent, components, b, local_box(lo, hi, piece_origin), device + own_offset,
             false);
  }
  fence("hcart_level_move");
}

} // namespace hcart
