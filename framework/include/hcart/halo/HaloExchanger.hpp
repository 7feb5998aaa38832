// hcart::HaloExchanger: fills the halos of fields from the neighbours' owned cells with
// nonblocking MPI.
//
//   hcart::HaloExchanger halo(grid, hcart::HaloMode::Faces);   // or HaloMode::Full
//   halo.exchange(u, v);          // blocking; several fields (of any arithmetic types)
//   halo.exchange(hcart::HaloWidth{2}, u);   // this call: 2 layers next to the owned cells
//   halo.start(u);                // split phase: messages fly while ...
//   /* ... cells that need no halo are updated */
//   halo.finish();
//
//   hcart::HaloBinding uv = halo.bind(u, v);   // checked once, on every rank ...
//   for (...) uv.exchange();                    // ... then exchanged without a collective
//
// The geometry is a HaloPlan (hcart/halo/HaloPlan.hpp): Faces mode sends the 6 faces;
// Full mode fills edges and corners too, in 3 ordered phases or with 26 concurrent
// messages (HaloOptions). A width (HaloOptions::width for every call, or HaloWidth for one)
// exchanges only the layers next to the owned cells that the next update reads; each width
// has its own plan, made at its first use. Each phase packs every message of every field
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
#pragma once

#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/halo/HaloPlan.hpp>
#include <hcart/impl/halo/BoundField.hpp>

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace hcart {

class HaloExchanger;

/// \brief The halo layers one exchange fills next to the owned cells, in each direction:
/// `layers` (at least 1; capped at the grid's halo width in each direction), or 0 for the
/// grid's whole halo.
struct HaloWidth {
  int layers = 0;
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
  /// Halo layers to exchange next to the owned cells in each direction when a call names
  /// none: 0 (default) for the grid's whole halo width, else at most that many (never more
  /// than the halo width).
  int width = 0;
};

/// \brief Halo traffic since construction (or reset_counters()), by hardware level.
struct HaloCounters {
  std::vector<std::string> level_names; ///< machine levels, coarse first, then "self"
  std::vector<std::int64_t> bytes;      ///< bytes sent (self: copied locally)
  std::vector<std::int64_t> messages;   ///< messages sent (self: local copies)
  std::int64_t exchanges = 0;           ///< completed exchanges
  /// \brief Adds the traffic of another exchanger of the same decomposition.
  /// \throws hcart::Error when the levels differ.
  HaloCounters& operator+=(const HaloCounters& other);
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

/// \brief Fields bound to an exchanger once, for repeated exchanges (HaloExchanger::bind).
///
/// Binding checks, collectively and once, what the per-call exchange checks every time:
/// every field fits the grid, and every rank bound the same number and types of fields and
/// the same width. The binding then holds those views (their allocations and extents cannot
/// change), so its exchanges need no check at all: no collective, only the halo messages.
/// What it asks in return, as an MPI collective does: every rank exchanges the same binding
/// at the same point of the program. (Each binding has its own communicator: ranks that
/// exchange different bindings wait for each other, they never read each other's messages.)
/// A code that swaps fields (u and u_new) binds each arrangement once. A binding is used
/// while its exchanger lives (an idle one may be destroyed after it); it can be moved, not
/// copied.
class HaloBinding {
public:
  HaloBinding() = default; ///< binds nothing; exchange() throws
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
  /// \brief The width asked for at bind() (HaloWidth::layers; 0: the whole halo).
  int layers() const noexcept { return m_layers; }

private:
  friend class HaloExchanger;
  void release() noexcept;

  HaloExchanger* m_exchanger = nullptr;
  std::vector<std::unique_ptr<impl::BoundField>> m_fields;
  int m_layers = 0;
  long m_id = 0; // the exchanger's number for it (1, 2, ...): which exchange is in flight
  MPI_Comm m_comm = MPI_COMM_NULL;
  bool m_started = false; // between start() and finish()
};

class HaloExchanger {
public:
  /// \brief Prepares the messages for `grid` (which must outlive the exchanger).
  /// \throws hcart::InputError (on every rank) for a width below 0, or more than a block
  /// has cells in a direction with a neighbour; or a bad HCART_GPU_AWARE_MPI.
  HaloExchanger(const Grid& grid, HaloMode mode = HaloMode::Faces, const HaloOptions& options = {});
  /// \brief Completes an exchange still in flight.
  ~HaloExchanger();
  HaloExchanger(const HaloExchanger&) = delete;
  HaloExchanger& operator=(const HaloExchanger&) = delete;
  HaloExchanger(HaloExchanger&&) = delete;
  HaloExchanger& operator=(HaloExchanger&&) = delete;

  /// \brief Fills the halos of all `fields` (blocking), HaloOptions::width layers deep.
  /// Each argument is a Field<T>, a ComponentField<T> (all its components) or a std::vector
  /// of either (a list of run-time length), of any arithmetic types; all travel in one
  /// message per neighbour. At most kMaxHaloFields values per cell in all (a field with
  /// components counts each).
  /// \throws hcart::InputError (on every rank, when checked collectively) when a field's
  /// extents differ from the grid's or ranks pass different fields; hcart::Error when a
  /// split exchange is in flight or MPI fails.
  template <class... F, class = std::enable_if_t<impl::halo_arguments<F...>>>
  void exchange(const F&... fields) {
    start(fields...);
    finish();
  }
  /// \brief Fills `width` layers of the halos of all `fields` (blocking).
  /// \throws hcart::InputError (on every rank, when checked collectively) also for a width
  /// below 0, or deeper than a block has cells in a direction with a neighbour, or one
  /// rank's width differing from the others'.
  template <class... F>
  void exchange(HaloWidth width, const F&... fields) {
    start(width, fields...);
    finish();
  }
  /// \brief Starts filling the halos of `fields`: posts receives, packs, posts sends.
  /// The fields' owned cells next to the boundary must not change until finish().
  template <class... F, class = std::enable_if_t<impl::halo_arguments<F...>>>
  void start(const F&... fields) {
    start(HaloWidth{m_options.width}, fields...);
  }
  /// \brief start() for `width` layers.
  template <class... F>
  void start(HaloWidth width, const F&... fields) {
    static_assert(sizeof...(F) >= 1, "hcart::HaloExchanger::start: pass at least one field");
    static_assert(impl::halo_arguments<F...>,
                  "hcart::HaloExchanger: fields are Field<T> or ComponentField<T> of an "
                  "arithmetic T, or std::vectors of them");
    begin_binding((impl::HaloArgument<F>::count(fields) + ... + 0), width);
    std::size_t index = 0;
    (bind_argument(index, fields), ...);
    start_bound();
  }
  /// \brief Waits for the messages of start() and unpacks them (and runs the remaining
  /// phases of a three-phase Full exchange).
  void finish();

  /// \brief Binds `fields` for repeated exchanges without a per-exchange check
  /// (HaloBinding), HaloOptions::width layers deep. Collective: every rank calls it.
  /// \throws hcart::InputError on every rank when a field's extents differ from the grid's
  /// on any rank, or the ranks pass different numbers or types of fields.
  template <class... F, class = std::enable_if_t<impl::halo_arguments<F...>>>
  HaloBinding bind(const F&... fields) {
    return bind(HaloWidth{m_options.width}, fields...);
  }
  /// \brief bind() for `width` layers (also an InputError on every rank for a width that
  /// is not possible or differs between ranks).
  template <class... F>
  HaloBinding bind(HaloWidth width, const F&... fields) {
    static_assert(sizeof...(F) >= 1, "hcart::HaloExchanger::bind: pass at least one field");
    static_assert(impl::halo_arguments<F...>,
                  "hcart::HaloExchanger: fields are Field<T> or ComponentField<T> of an "
                  "arithmetic T, or std::vectors of them");
    HaloBinding binding;
    (add_to_binding(binding, fields), ...);
    make_binding(binding, width);
    return binding;
  }
  /// \brief True between start() and finish().
  bool in_flight() const noexcept { return m_in_flight; }

  HaloMode mode() const noexcept { return m_mode; }
  const HaloOptions& options() const noexcept { return m_options; }
  /// \brief The geometry of HaloOptions::width: phases, messages and their boxes.
  const HaloPlan& plan() const noexcept;
  /// \brief Layers HaloOptions::width exchanges per direction.
  std::array<int, 3> width() const noexcept;
  const HaloCounters& counters() const noexcept { return m_counters; }
  const HaloTimes& times() const noexcept { return m_times; }
  void reset_counters();
  /// \brief Buffers, plans, copy lists and field handles allocated so far (constant after
  /// the first call with a given width and set of field types).
  std::size_t allocation_count() const noexcept { return m_allocations; }
  /// \brief True when MPI gets the buffers in the execution space's memory (always on
  /// host builds; on device builds when MPI takes device memory, else pinned host buffers).
  bool device_buffers() const noexcept { return m_device_buffers; }
  /// \brief True when messages staged through pinned host buffers are copied there from
  /// device buffers (HCART_HALO_STAGING=copy), rather than packed there by the kernels.
  bool stages_by_copy() const noexcept { return m_stage_by_copy; }

  /// \brief For tests: the pattern of the pack and unpack kernels (default: the build's,
  /// hcart::default_loop_pattern). \throws hcart::Error for HostRows on a device build.
  void set_loop_pattern(LoopPattern pattern);

private:
  friend class HaloBinding;
  struct Peer {
    int rank = MPI_PROC_NULL;
    int level = 0;
  };
  struct PhaseState;
  struct Copies;
  struct WidthPlan;

  void begin_binding(std::size_t count, HaloWidth width);
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
      ++m_allocations;
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
  void use_fields(const std::unique_ptr<impl::BoundField>* fields, std::size_t count);
  WidthPlan& plan_of(int layers);
  void make_binding(HaloBinding& binding, HaloWidth width);
  void start_binding(const HaloBinding& binding);
  void finish_binding(const HaloBinding& binding);
  long long local_check();
  void start_bound();
  void post_first_phase();
  void complete_exchange();
  void check_fields();
  void judge_check();
  void abandon_exchange();
  void prepare();
  bool layout_is(const std::vector<std::size_t>& layout) const;
  void build_copies();
  void begin_phase(std::size_t phase);
  void complete_phase(std::size_t phase);
  std::size_t message_bytes(const HaloPlan::Message& m) const;

  const Grid* m_grid;
  HaloMode m_mode;
  HaloOptions m_options;
  int m_full_layers = 0; // the deepest halo of the grid: a plan of this width is its whole
  std::vector<std::unique_ptr<WidthPlan>> m_plans;         // by layers, made at first use
  WidthPlan* m_default = nullptr;                          // HaloOptions::width's
  WidthPlan* m_current = nullptr;                          // the width of the exchange now
  std::vector<std::unique_ptr<impl::BoundField>> m_fields; // start()'s, reused call to call
  std::vector<impl::BoundField*> m_now;  // the fields of the exchange now (start's or a binding's)
  std::size_t m_bound = 0;               // fields start() bound into m_fields
  std::vector<std::size_t> m_slot_bytes; // per value of a cell (a field's, or a component's)
  MPI_Comm m_now_comm = MPI_COMM_NULL;   // its communicator: m_comm, or the binding's
  long m_flight = 0;                     // the binding in flight (its m_id), 0 for start()'s
  long m_bindings = 0;                   // bindings made
  const Copies* m_active = nullptr;      // the copy lists of the width and fields bound now
  std::vector<std::unique_ptr<PhaseState>> m_states;
  impl::FieldRefs m_refs;
  LoopPattern m_pattern = default_loop_pattern;
  ExecutionSpace m_space; // the instance the kernels run on (made once: Kokkos 4 allocates)
  bool m_device_buffers = true;
  bool m_stage_by_copy = false;
  std::vector<MPI_Request> m_requests;
  std::vector<MPI_Status> m_statuses;
  std::vector<int> m_expected; // bytes each receive of the phase expects
  bool m_in_flight = false;
  // The fields' collective check (check_fields).
  int m_layers = 0;                               // the width asked for now
  std::string m_width_problem;                    // why this rank cannot exchange it
  std::string m_problem;                          // this rank's misfit in the exchange now
  long long m_check[3] = {0, 0, 0};               // {misfit, signature, -signature}, reduced
  MPI_Request m_check_request = MPI_REQUEST_NULL; // the reduction, while in flight
  bool m_abandoned = false;        // the check failed before anything was posted: finish() throws
  MPI_Comm m_comm = MPI_COMM_NULL; // a duplicate of the decomposition's, the exchanger's own
  long long m_agreed = -1;         // the signature every rank passed at the last exchange, or -1
  HaloCounters m_counters;
  HaloTimes m_times;
  std::size_t m_allocations = 0;
};

} // namespace hcart
