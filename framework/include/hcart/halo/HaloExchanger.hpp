// hcart::HaloExchanger: fills the halos of fields from the neighbours' owned cells with
// nonblocking MPI.
//
//   hcart::HaloExchanger halo(grid, hcart::HaloMode::Faces);   // or HaloMode::Full
//   halo.exchange(u, v);          // blocking; several fields (of any arithmetic types)
//   halo.exchange(hcart::HaloWidth{2}, u);   // this call: 2 layers next to the owned cells
//   halo.exchange(hcart::HaloDirections{0}, u);   // this call: across x only (a split sweep)
//   halo.exchange(hcart::HaloWidth{3, 1, 1}, u);  // 3 layers across x, 1 across y and z
//   halo.start(u);                // split phase: messages fly while ...
//   /* ... cells that need no halo are updated */
//   halo.finish();
//
//   hcart::HaloBinding uv = halo.bind(u, v);   // checked once, on every rank ...
//   for (...) uv.exchange();                    // ... then exchanged without a collective
//   halo.exchange(hcart::HaloMode::Full, u);    // this call: edges and corners too
//
// The geometry is a HaloPlan (hcart/halo/HaloPlan.hpp): Faces mode sends the 6 faces;
// Full mode fills edges and corners too, in 3 ordered phases or with 26 concurrent
// messages (HaloOptions). The mode is the exchanger's unless a call (or a binding) names its
// own: a multigrid smoother exchanges faces, its prolongation the full halo, on one
// exchanger. A width (HaloOptions::width for every call, or HaloWidth for one) exchanges only
// the layers next to the owned cells that the next update reads, and HaloDirections only the
// directions it names (a directionally split scheme exchanges x after its x sweep: the bytes
// and messages of a hand-written exchange of that direction); each mode, width and set of
// directions has its own plan, made at its first use. Each phase packs every message of every field
// in one kernel launch into one send buffer, and unpacks in one launch; fields of one call
// travel in one message per neighbour. Buffers and copy lists are built once and reused:
// exchange() allocates nothing after the first call with a given width and set of field
// types (allocation_count() shows it). Receives are posted before sends; tags tell
// direction and side apart, so a periodic direction with 2 ranks works; a periodic
// direction with 1 rank is a local copy without MPI. Halo cells at non-periodic physical
// boundaries are never written. Every message is counted by the hardware level it crosses
// (counters()).
//
// On a device build the buffers are device memory when MPI takes it (hcart::device_mpi(),
// decided at run time) and pinned host memory otherwise. Staged through pinned memory, the
// environment variable HCART_HALO_STAGING says how: `kernel` (the pack and unpack kernels
// write and read the pinned buffers directly) or `copy` (they use device buffers, copied to
// and from the pinned ones by the copy engine).
//
// The class is a front: it binds the caller's fields (any arithmetic type, with or without
// components) and hands them to an internal engine (framework/src/halo/HaloEngine.hpp), which
// runs the phases and the fields' collective check (FieldCheck.hpp there).
#pragma once

#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/halo/HaloOptions.hpp>
#include <hcart/halo/HaloPlan.hpp>
#include <hcart/impl/halo/BoundField.hpp>
#include <hcart/impl/halo/HaloArguments.hpp>

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace hcart {

class HaloExchanger;

namespace impl {
class HaloEngine;
struct BindingComm; // a binding's own communicator
} // namespace impl

/// \brief Fields bound to an exchanger once, for repeated exchanges (HaloExchanger::bind).
///
/// Binding checks, collectively and once, what the per-call exchange checks every time:
/// every field fits the grid, and every rank bound the same number and types of fields and
/// the same width and mode. The binding then holds those views (their allocations and extents
/// cannot change), so its exchanges need no check at all: no collective, only the halo
/// messages. What it asks in return, as an MPI collective does: every rank exchanges the same
/// binding at the same point of the program. (Each binding has its own communicator: ranks
/// that exchange different bindings wait for each other, they never read each other's
/// messages; HaloOptions::check_binding_order turns that wait into an error on every rank.)
/// A code that swaps fields (u and u_new) binds each arrangement once. A binding
/// is used while its exchanger lives (an idle one may be destroyed after it); it can be
/// moved, not copied.
class HaloBinding {
public:
  HaloBinding(); ///< binds nothing; exchange() throws
  HaloBinding(HaloBinding&& other) noexcept;
  HaloBinding& operator=(HaloBinding&& other) noexcept;
  HaloBinding(const HaloBinding&) = delete;
  HaloBinding& operator=(const HaloBinding&) = delete;
  /// \brief Completes an exchange still in flight; frees the communicator.
  ~HaloBinding();

  /// \brief Fills the halos of the bound fields (blocking).
  /// \throws hcart::Error for an empty binding, another exchange of the exchanger in flight,
  /// or an MPI failure.
  void exchange() {
    start();
    finish();
  }
  /// \brief Starts the exchange (see HaloExchanger::start).
  void start();
  /// \brief Completes the exchange start() began.
  void finish();
  /// \brief The number of bound fields (0 for an empty binding).
  std::size_t size() const noexcept { return m_fields.size(); }
  /// \brief The width asked for at bind() (per direction; 0: the whole halo).
  HaloWidth width() const noexcept { return m_call.width; }
  /// \brief The mode asked for at bind() (the exchanger's unless named).
  HaloMode mode() const noexcept { return m_call.mode; }
  /// \brief The directions asked for at bind() (every one unless named).
  HaloDirections directions() const noexcept { return m_call.directions; }

private:
  friend class HaloExchanger;
  void release() noexcept;

  HaloExchanger* m_exchanger = nullptr;
  std::vector<std::unique_ptr<impl::BoundField>> m_fields;
  impl::HaloCall m_call; // the mode, width and directions asked for at bind()
  long m_id = 0;         // the exchanger's number for it (1, 2, ...): which exchange is in flight
  std::unique_ptr<impl::BindingComm> m_comm;
  bool m_started = false; // between start() and finish()
};

class HaloExchanger {
public:
  /// \brief Prepares the messages for `grid` (which must outlive the exchanger); `mode` is
  /// the one of calls that name none.
  /// \throws hcart::InputError (on every rank) for a width below 0, or more than a block
  /// has cells in a direction with a neighbour; or a bad HCART_GPU_AWARE_MPI or
  /// HCART_HALO_STAGING.
  HaloExchanger(const Grid& grid, HaloMode mode = HaloMode::Faces, const HaloOptions& options = {});
  /// It refers to its Grid: a temporary one does not compile.
  HaloExchanger(Grid&&, HaloMode = HaloMode::Faces, const HaloOptions& = {}) = delete;
  /// \brief Completes an exchange still in flight.
  ~HaloExchanger();
  HaloExchanger(const HaloExchanger&) = delete;
  HaloExchanger& operator=(const HaloExchanger&) = delete;
  HaloExchanger(HaloExchanger&&) = delete;
  HaloExchanger& operator=(HaloExchanger&&) = delete;

  /// \brief Fills the halos of all `fields` (blocking), in the exchanger's mode,
  /// HaloOptions::width layers deep. Each argument is a Field<T>, a ComponentField<T> (all its
  /// components) or a std::vector of either (a list of run-time length), of any arithmetic
  /// types; all travel in one message per neighbour. At most kMaxHaloFields values per cell
  /// in all (a field with components counts each). A call may name its mode (HaloMode), its
  /// width (HaloWidth) and its directions (HaloDirections), each optional, in that order,
  /// before the fields.
  /// \throws hcart::InputError (on every rank, when checked collectively) when a field's
  /// extents differ from the grid's, ranks pass different fields, modes or widths, or a
  /// width is below 0 or deeper than a block has cells in a direction with a neighbour, or
  /// directions are not a list of 0 to 2; hcart::Error when a split exchange is in flight or
  /// MPI fails.
  template <class... F>
  void exchange(const F&... arguments) {
    start(arguments...);
    finish();
  }
  /// \brief Starts filling the halos (posts receives, packs, posts sends), with the same
  /// arguments as exchange(). The fields' owned cells next to the boundary must not change
  /// until finish().
  template <class... F>
  void start(const F&... arguments) {
    start_fields(impl::call_of({mode(), HaloWidth(options().width), {}}, arguments...),
                 impl::fields_of(arguments...));
  }
  /// \brief Waits for the messages of start() and unpacks them (and runs the remaining
  /// phases of a three-phase Full exchange).
  void finish();

  /// \brief Binds `fields` for repeated exchanges without a per-exchange check
  /// (HaloBinding), in the exchanger's mode and HaloOptions::width layers deep, every
  /// direction, unless a HaloMode, a HaloWidth and / or HaloDirections come first (in that
  /// order). Collective: every rank calls it.
  /// \throws hcart::InputError on every rank when a field's extents differ from the grid's
  /// on any rank, the ranks pass different numbers or types of fields, modes or widths, or a
  /// width is not possible.
  template <class... F>
  HaloBinding bind(const F&... arguments) & {
    HaloBinding binding;
    bind_fields(binding, impl::call_of({mode(), HaloWidth(options().width), {}}, arguments...),
                impl::fields_of(arguments...));
    return binding;
  }
  /// A binding refers to its exchanger: binding a temporary one does not compile.
  template <class... F>
  HaloBinding bind(const F&... arguments) && = delete;
  /// \brief True between start() and finish().
  bool in_flight() const noexcept;

  HaloMode mode() const noexcept;
  const HaloOptions& options() const noexcept;
  /// \brief The geometry of the exchanger's mode and HaloOptions::width.
  const HaloPlan& plan() const noexcept;
  /// \brief Layers HaloOptions::width exchanges per direction.
  std::array<int, 3> width() const noexcept;
  const HaloCounters& counters() const noexcept;
  const HaloTimes& times() const noexcept;
  void reset_counters();
  /// \brief Buffers, plans, copy lists and field handles allocated so far (constant after
  /// the first call with a given mode, width and set of field types).
  std::size_t allocation_count() const noexcept;
  /// \brief True when MPI gets the buffers in the execution space's memory (always on
  /// host builds; on device builds when MPI takes device memory, else pinned host buffers).
  bool device_buffers() const noexcept;
  /// \brief True when messages staged through pinned host buffers are copied there from
  /// device buffers (HCART_HALO_STAGING=copy), rather than packed there by the kernels.
  bool stages_by_copy() const noexcept;

  /// \brief For tests: the pattern of the pack and unpack kernels (default: the build's,
  /// hcart::default_loop_pattern). \throws hcart::Error for HostRows on a device build.
  void set_loop_pattern(LoopPattern pattern);

private:
  friend class HaloBinding;
  template <class... F>
  void start_fields(const impl::HaloCall& call, const std::tuple<const F&...>& fields) {
    begin_call(call,
               std::apply(
                   [](const auto&... f) {
                     return (impl::HaloArgument<std::decay_t<decltype(f)>>::count(f) + ... + 0);
                   },
                   fields));
    std::size_t index = 0;
    std::apply([&](const auto&... f) { (bind_argument(index, f), ...); }, fields);
    start_bound();
  }
  template <class... F>
  void bind_fields(HaloBinding& binding, const impl::HaloCall& call,
                   const std::tuple<const F&...>& fields) {
    std::apply([&](const auto&... f) { (add_to_binding(binding, f), ...); }, fields);
    make_binding(binding, call);
  }
  // One argument of start(): its fields into m_fields from `index` on, reusing the handles
  // of the call before where the kinds match (no allocation in a steady loop).
  template <class F>
  void bind_argument(std::size_t& index, const F& field) {
    using Bound = typename impl::HaloArgument<F>::Bound;
    auto& slot = m_fields.at(index++);
    auto* same = dynamic_cast<Bound*>(slot.get());
    if (same != nullptr) {
      same->rebind(field);
    } else {
      slot = std::make_unique<Bound>(field);
      count_allocation();
    }
  }
  template <class F>
  void bind_argument(std::size_t& index, const std::vector<F>& list) {
    for (const F& field : list)
      bind_argument(index, field);
  }
  template <class F>
  static void add_to_binding(HaloBinding& binding, const F& field) {
    binding.m_fields.push_back(std::make_unique<typename impl::HaloArgument<F>::Bound>(field));
  }
  template <class F>
  static void add_to_binding(HaloBinding& binding, const std::vector<F>& list) {
    for (const F& field : list)
      add_to_binding(binding, field);
  }
  void begin_call(const impl::HaloCall& call, std::size_t count);
  void start_bound();
  void make_binding(HaloBinding& binding, const impl::HaloCall& call);
  void count_allocation();

  std::unique_ptr<impl::HaloEngine> m_engine;
  std::vector<std::unique_ptr<impl::BoundField>> m_fields; // start()'s, reused call to call
  std::size_t m_bound = 0;                                 // of them, bound now
};

} // namespace hcart
