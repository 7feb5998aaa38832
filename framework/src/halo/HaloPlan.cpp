#include <hcart/core/Error.hpp>
#include <hcart/halo/HaloPlan.hpp>

namespace hcart {

namespace {

bool has_neighbour(const Block& block, int dir, int side) {
  return !block.is_physical(dir, side < 0 ? 0 : 1);
}

// The boxes of offset o. `extended[j]`: direction j was exchanged in an earlier phase, so
// its halo layers (where a neighbour filled them) travel along.
void boxes(const Block& block, const std::array<int, 3>& width, const std::array<int, 3>& o,
           const std::array<bool, 3>& extended, Box& send, Box& recv) {
  for (int j = 0; j < 3; ++j) {
    const int n = block.local_size[j], h = block.halo_width[j], w = width[j];
    if (o[j] > 0) {
      send.lo[j] = h + n - w;
      send.hi[j] = h + n;
      recv.lo[j] = h + n;
      recv.hi[j] = h + n + w;
    } else if (o[j] < 0) {
      send.lo[j] = h;
      send.hi[j] = h + w;
      recv.lo[j] = h - w;
      recv.hi[j] = h;
    } else {
      send.lo[j] = extended[j] && has_neighbour(block, j, -1) ? h - w : h;
      send.hi[j] = extended[j] && has_neighbour(block, j, +1) ? h + n + w : h + n;
      recv.lo[j] = send.lo[j];
      recv.hi[j] = send.hi[j];
    }
  }
}

void add(const Block& block, const std::array<int, 3>& width, HaloPlan::Phase& phase,
         const std::array<int, 3>& o, const std::array<bool, 3>& extended) {
  const Across across = block.at(o).across;
  if (across == Across::Boundary) return;
  HaloPlan::Message m;
  m.offset = o;
  boxes(block, width, o, extended, m.send_box, m.recv_box);
  if (m.recv_box.empty()) return; // width 0 in a crossed direction: nothing to move
  m.send_tag = Block::offset_index(o);
  m.recv_tag = Block::offset_index({-o[0], -o[1], -o[2]});
  if (across == Across::Self) {
    // My own opposite boundary: the cells I would send the other way.
    m.local = true;
    Box source, unused;
    boxes(block, width, {-o[0], -o[1], -o[2]}, extended, source, unused);
    m.send_box = source;
  }
  phase.messages.push_back(m);
}

} // namespace

HaloPlan plan_halo(const Block& block, const std::array<int, 3>& width, HaloMode mode,
                   FullMethod method) {
  for (int d = 0; d < 3; ++d) {
    HCART_REQUIRE(block.local_size[d] >= 0 && block.halo_width[d] >= 0 && width[d] >= 0,
                  "hcart::plan_halo: negative size in direction " << d);
    HCART_REQUIRE(width[d] <= block.halo_width[d], "hcart::plan_halo: width "
                                                       << width[d] << " in direction " << d
                                                       << ", more than the halo width "
                                                       << block.halo_width[d]);
    const bool crossed = has_neighbour(block, d, -1) || has_neighbour(block, d, +1);
    HCART_REQUIRE(!crossed || width[d] <= block.local_size[d],
                  "hcart::plan_halo: width " << width[d] << " in direction " << d
                                             << ", more than the " << block.local_size[d]
                                             << " owned cells the neighbours read");
  }
  HaloPlan plan;
  const std::array<bool, 3> none{false, false, false};
  if (mode == HaloMode::Full && method == FullMethod::Concurrent) {
    HaloPlan::Phase all;
    for (int a = -1; a <= 1; ++a)
      for (int b = -1; b <= 1; ++b)
        for (int c = -1; c <= 1; ++c)
          if (a != 0 || b != 0 || c != 0) add(block, width, all, {a, b, c}, none);
    plan.phases.push_back(all);
  } else if (mode == HaloMode::Full) {
    for (int dir = 0; dir < 3; ++dir) {
      HaloPlan::Phase phase;
      std::array<bool, 3> extended{false, false, false};
      for (int j = 0; j < dir; ++j)
        extended[j] = true;
      for (int side : {-1, +1}) {
        std::array<int, 3> o{0, 0, 0};
        o[dir] = side;
        add(block, width, phase, o, extended);
      }
      plan.phases.push_back(phase);
    }
  } else {
    HaloPlan::Phase faces;
    for (int dir = 0; dir < 3; ++dir) {
      for (int side : {-1, +1}) {
        std::array<int, 3> o{0, 0, 0};
        o[dir] = side;
        add(block, width, faces, o, none);
      }
    }
    plan.phases.push_back(faces);
  }
  return plan;
}

} // namespace hcart
