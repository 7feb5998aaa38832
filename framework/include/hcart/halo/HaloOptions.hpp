// The options and the reports of hcart::HaloExchanger (hcart/halo/HaloExchanger.hpp): what
// a call exchanges (HaloWidth, HaloMode), how (HaloOptions), and what it sent and how long it
// took (HaloCounters, HaloTimes).
//
//   hcart::HaloOptions o;
//   o.full_method = hcart::FullMethod::Concurrent;   // 26 messages in one phase
//   hcart::HaloExchanger halo(grid, hcart::HaloMode::Faces, o);
//   halo.exchange(hcart::HaloMode::Full, hcart::HaloWidth{1}, u);   // this call's mode and width
//   halo.exchange(hcart::HaloWidth{3, 1, 1}, u);   // this call: 3 layers across x, 1 across y, z
//   halo.exchange(hcart::HaloDirections{0}, u);   // this call: the halos across x only
//   halo.counters().bytes;  halo.times().pack;
#pragma once

#include <hcart/grid/LevelCounters.hpp>
#include <hcart/halo/HaloPlan.hpp>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace hcart {

/// \brief The halo layers one exchange fills next to the owned cells, per direction:
/// `HaloWidth{2}` two in every direction, `HaloWidth{3, 1, 1}` three across x and one across
/// y and z (a directionally split scheme's x sweep whose stencil reaches one layer across:
/// in Full mode the edges and corners are as deep as the directions they join). Each is
/// capped at the grid's halo width in its direction; 0 (the default) is the grid's whole
/// halo there; below 0, the exchange that receives it throws an hcart::InputError.
struct HaloWidth {
  /// \brief The grid's whole halo.
  HaloWidth() = default;
  /// \brief `all` layers in every direction.
  explicit HaloWidth(int all) : layers{{all, all, all}} {}
  /// \brief Layers across x, y and z.
  HaloWidth(int x, int y, int z) : layers{{x, y, z}} {}
  bool operator==(const HaloWidth& other) const noexcept { return layers == other.layers; }
  bool operator!=(const HaloWidth& other) const noexcept { return layers != other.layers; }
  std::array<int, 3> layers{};
};

/// \brief "2" for a width the same in every direction, else "{3, 1, 1}" (error messages).
std::string to_string(const HaloWidth& width);

/// \brief The directions one exchange fills: `HaloDirections{0}` the halos across x only (a
/// directionally split scheme's x sweep), `HaloDirections{0, 2}` x and z; by default every
/// direction. In Full mode the edges and corners between the named directions are filled
/// too (the cells a Full exchange of a grid without the other directions' halos fills);
/// none that cross a direction left out.
class HaloDirections {
public:
  /// \brief Every direction.
  HaloDirections() = default;
  /// \brief The directions listed (each 0, 1 or 2; at least one). A list outside that is
  /// not an exception here: the exchange that receives it throws an hcart::InputError naming
  /// it, on every rank when checked collectively (HaloOptions::collective_checks).
  HaloDirections(std::initializer_list<int> directions) : m_mask(0) {
    for (const int d : directions)
      m_mask |= d >= 0 && d < 3 ? 1u << d : kInvalid;
    if (m_mask == 0) m_mask = kInvalid;
  }
  /// \brief True when direction `d` is exchanged.
  bool has(int d) const noexcept { return valid() && d >= 0 && d < 3 && (m_mask >> d & 1u) != 0; }
  /// \brief True for a list of directions 0 to 2, at least one.
  bool valid() const noexcept { return (m_mask & kInvalid) == 0; }
  /// \brief Bit d for direction d (8 for an invalid list).
  unsigned mask() const noexcept { return m_mask; }
  bool operator==(const HaloDirections& other) const noexcept { return m_mask == other.m_mask; }
  bool operator!=(const HaloDirections& other) const noexcept { return m_mask != other.m_mask; }

private:
  static constexpr unsigned kInvalid = 8;
  unsigned m_mask = 7;
};

struct HaloOptions {
  FullMethod full_method = FullMethod::ThreePhase;
  /// One message per neighbour for all fields of a call (true), or one per field.
  bool aggregate_fields = true;
  /// Check, with one small reduction per exchange, that all ranks pass fields of the grid's
  /// extents and the same number and types and width, so that a mistake on one rank is an
  /// hcart::InputError on all instead of a hang or a buffer overrun. The reduction is
  /// nonblocking and completes with the first phase's messages; only an exchange whose
  /// fields' types, number or width differ from the exchange before (the first one, say)
  /// waits for it before posting anything (with one message per field, aggregate_fields
  /// off, every exchange waits). HaloTimes::check books posting, that wait and reading the
  /// outcome; the rest of its latency overlaps the messages, in HaloTimes::wait. Off: each
  /// rank checks its own fields' extents only. A rank with a field of other extents then
  /// throws alone, and the others wait for its messages: the program must end the job
  /// (hcart::run_main does, with MPI_Abort, for an error not every rank holds); ranks that
  /// pass different numbers, types or widths of fields get messages of other sizes: an MPI
  /// error, a hang where none arrives, or (Open MPI's single-copy transfer) a write past a
  /// receive buffer. Either way, with the check on, an error is thrown from finish() (or
  /// exchange()) on every rank, with nothing in flight.
  bool collective_checks = true;
  /// Check, with one blocking reduction on a communicator of its own before each bound
  /// exchange starts (HaloBinding::start), that every rank starts the same binding. Ranks
  /// that exchange their bindings in different orders otherwise wait for each other's
  /// messages for ever; with the check, start() throws the same one-line hcart::InputError
  /// on every rank, with nothing posted. Off by default (a latency per bound exchange): turn
  /// it on to find such a mistake. Bindings are numbered in the order bind() made them.
  /// Exchanges without a binding take no part: a bound exchange on one rank against an
  /// unbound one on another still waits. The same value on every rank (checked when the
  /// exchanger is made).
  bool check_binding_order = false;
  /// Halo layers to exchange next to the owned cells in each direction when a call names
  /// none: 0 (default) for the grid's whole halo width, else at most that many (never more
  /// than the halo width).
  int width = 0;
};

/// \brief Time spent in the parts of the exchanges since construction, in seconds. Each
/// part ends with a fence of the execution space, so device times are real.
struct HaloTimes {
  double check = 0.0;  ///< the fields' collective check (HaloOptions; bind()'s too)
  double pack = 0.0;   ///< packing kernel (with the local copies of periodic self-neighbours)
  double post = 0.0;   ///< posting receives and sends
  double wait = 0.0;   ///< waiting for messages
  double unpack = 0.0; ///< unpacking kernel
  double stage = 0.0;  ///< copies between device and pinned host buffers (HCART_HALO_STAGING=copy)
  double total() const noexcept { return check + pack + post + wait + unpack + stage; }
  HaloTimes& operator+=(const HaloTimes& other) noexcept {
    check += other.check;
    pack += other.pack;
    post += other.post;
    wait += other.wait;
    unpack += other.unpack;
    stage += other.stage;
    return *this;
  }
};

} // namespace hcart
