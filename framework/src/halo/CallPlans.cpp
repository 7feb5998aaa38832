#include "CallPlans.hpp"

#include <hcart/core/Error.hpp>

#include <algorithm>

namespace hcart::impl {

std::size_t message_bytes(const HaloPlan::Message& m, const std::vector<std::size_t>& slots) {
  const auto cells = static_cast<std::size_t>(m.recv_box.cells());
  std::size_t bytes = 0;
  for (const std::size_t elem : slots)
    bytes += aligned(cells * elem);
  return bytes;
}

namespace {

// The copy lists of `plan` for the fields of `layout` (bytes per value of a cell).
std::unique_ptr<Copies> build_copies(const HaloPlan& plan, const std::vector<std::size_t>& layout) {
  auto copies = std::make_unique<Copies>();
  copies->layout = layout;
  const std::size_t slots = layout.size();
  for (const HaloPlan::Phase& phase : plan.phases) {
    std::vector<CopyItem> pack, unpack;
    std::size_t offset = 0;
    // A periodic direction with one rank: the messages towards o and -o are both local
    // copies of boxes of one shape. They go as one item (LocalPair), both sides of a row in
    // one pass, as a hand-written periodic copy does: the rows of a face across k are one
    // element each, and two passes read every cache line of the face twice.
    const std::size_t count = phase.messages.size();
    std::vector<std::size_t> partner(count, count);
    for (std::size_t q = 0; q < count; ++q) {
      const HaloPlan::Message& a = phase.messages[q];
      for (std::size_t r = q + 1; r < count && a.local && partner[q] == count; ++r) {
        const HaloPlan::Message& b = phase.messages[r];
        bool opposite = b.local && partner[r] == count;
        for (int d = 0; d < 3; ++d) {
          opposite = opposite && b.offset[d] == -a.offset[d] &&
                     b.send_box.extent(d) == a.send_box.extent(d);
        }
        if (opposite) {
          partner[q] = r;
          partner[r] = q;
        }
      }
    }
    for (std::size_t q = 0; q < count; ++q) {
      const HaloPlan::Message& m = phase.messages[q];
      if (m.local && partner[q] < q) continue; // went with its partner
      for (std::size_t f = 0; f < slots; ++f) {
        CopyItem item;
        item.field = static_cast<int>(f);
        if (m.local) {
          item.kind = CopyKind::Local;
          item.box = m.send_box;
          for (int d = 0; d < 3; ++d)
            item.shift[d] = m.recv_box.lo[d] - m.send_box.lo[d];
          if (partner[q] < count) {
            const HaloPlan::Message& other = phase.messages[partner[q]];
            item.kind = CopyKind::LocalPair;
            for (int d = 0; d < 3; ++d) {
              item.lo2[d] = other.send_box.lo[d];
              item.shift2[d] = other.recv_box.lo[d] - other.send_box.lo[d];
            }
          }
          pack.push_back(item);
          continue;
        }
        item.kind = CopyKind::Pack;
        item.box = m.send_box;
        item.buffer_offset = static_cast<std::int64_t>(offset);
        pack.push_back(item);
        item.kind = CopyKind::Unpack;
        item.box = m.recv_box;
        unpack.push_back(item);
        offset += aligned(static_cast<std::size_t>(m.recv_box.cells()) * layout[f]);
      }
    }
    copies->pack.emplace_back(std::move(pack));
    copies->unpack.emplace_back(std::move(unpack));
  }
  return copies;
}

} // namespace

const Copies& CallPlan::copies_for(const std::vector<std::size_t>& layout,
                                   std::size_t& allocations) {
  for (const auto& c : copies) {
    if (c->layout == layout) return *c;
  }
  copies.push_back(build_copies(plan, layout));
  ++allocations;
  return *copies.back();
}

std::vector<int> CallPlan::first_peer_ranks() const {
  std::vector<int> ranks;
  for (const Peer& p : peers.front())
    ranks.push_back(p.rank);
  return ranks;
}

CallPlans::CallPlans(const Grid& grid, const HaloOptions& options)
    : m_grid(&grid), m_options(options) {}

std::size_t CallPlans::most_phases() const noexcept {
  return m_options.full_method == FullMethod::ThreePhase ? 3 : 1;
}

// Widths beyond the halo share its plan, as do a direction left out and a width of none
// there. (Every width and set of directions of one mode has as many phases: a direction
// left out has an empty one.)
CallPlan& CallPlans::get(const HaloCall& call, std::size_t& allocations) {
  const std::array<int, 3>& layers = call.width.layers;
  HCART_REQUIRE(*std::min_element(layers.begin(), layers.end()) >= 0,
                "hcart::HaloExchanger: width " << to_string(call.width)
                                               << ", expected 0 (all) or more in each direction");
  HCART_REQUIRE(call.directions.valid(),
                "hcart::HaloExchanger: HaloDirections with a direction outside 0, 1, 2 (or "
                "none), expected a list of directions 0 to 2");
  const Decomposition& decomp = m_grid->decomposition();
  const Block& block = m_grid->block();
  std::array<int, 3> width{};
  for (int d = 0; d < 3; ++d) {
    const int whole =
        layers[d] == 0 ? block.halo_width[d] : std::min(layers[d], block.halo_width[d]);
    width[d] = call.directions.has(d) ? whole : 0;
  }
  auto& slot = m_plans[{call.mode == HaloMode::Faces ? 0 : 1, width[0], width[1], width[2]}];
  if (slot) return *slot;
  auto made = std::make_unique<CallPlan>();
  made->mode = call.mode;
  made->width = width;
  made->plan = plan_halo(block, made->width, call.mode, m_options.full_method);
  for (const HaloPlan::Phase& phase : made->plan.phases) {
    std::vector<CallPlan::Peer> peers;
    for (const HaloPlan::Message& m : phase.messages) {
      CallPlan::Peer p;
      p.rank = block.at(m.offset).rank;
      p.level = decomp.separating_level(decomp.rank(), p.rank);
      peers.push_back(p);
    }
    made->peers.push_back(peers);
  }
  slot = std::move(made);
  ++allocations;
  return *slot;
}

} // namespace hcart::impl
