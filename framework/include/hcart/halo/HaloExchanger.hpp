// hcart::HaloExchanger: fills the halos of fields from the neighbours' owned cells with
// nonblocking MPI (DESIGN.md §5).
//
//   hcart::HaloExchanger halo(grid, hcart::HaloMode::Faces);   // or HaloMode::Full
//   halo.exchange(u, v);          // blocking; several fields (of any arithmetic types)
//   halo.start(u);                // split phase: messages fly while ...
//   /* ... cells that need no halo are updated */
//   halo.finish();
//
// Faces mode sends the 6 faces; Full mode fills edges and corners too, either with 26
// concurrent messages or in 3 ordered phases (x, then y including the x halos, then z
// including both), selectable in HaloOptions. Buffers and message lists are built once and
// reused: no allocation happens in exchange() after the first call with a given set of
// field types (allocation_count() shows it). Receives are posted before sends; tags tell
// direction and side apart, so a periodic direction with 2 ranks works; a periodic
// direction with 1 rank is a local copy without MPI. Halo cells at non-periodic physical
// boundaries are never written. Every message is counted by the hardware level it
// crosses (counters()). When the fields' memory is not host-accessible, messages are
// staged through host buffers unless hcart was built with HCART_ENABLE_GPU_AWARE_MPI.
#pragma once

#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/impl/HaloFieldHandle.hpp>

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

namespace hcart {

/// \brief Which halo cells an exchange fills.
enum class HaloMode {
  Faces, ///< cells across one face (6 neighbours)
  Full   ///< faces, edges and corners (26 neighbours)
};

/// \brief How Full mode reaches edges and corners.
enum class FullMethod {
  ThreePhase, ///< 3 ordered phases of 2 messages, later phases forwarding earlier halos
  Concurrent  ///< 26 messages at once
};

struct HaloOptions {
  FullMethod full_method = FullMethod::ThreePhase;
  /// One message per neighbour for all fields of a call (true), or one per field.
  bool aggregate_fields = true;
  /// Check on every call, with one small MPI_Allreduce, that all ranks pass fields of the
  /// grid's extents and the same count and types, so that a mistake on one rank is an
  /// error on all instead of a hang. Off: local checks only.
  bool collective_checks = true;
};

/// \brief Halo traffic since construction (or reset_counters()), by hardware level.
struct HaloCounters {
  std::vector<std::string> level_names; ///< machine levels, coarse first, then "self"
  std::vector<std::int64_t> bytes;      ///< bytes sent (self: copied locally)
  std::vector<std::int64_t> messages;   ///< messages sent (self: local copies)
  std::int64_t exchanges = 0;           ///< completed exchanges
};

/// \brief Time spent in the parts of the exchanges since construction, in seconds.
struct HaloTimes {
  double pack = 0.0;   ///< packing kernels and local copies
  double post = 0.0;   ///< posting receives and sends (and staging to host)
  double wait = 0.0;   ///< waiting for messages
  double unpack = 0.0; ///< unpacking kernels (and staging from host)
};

class HaloExchanger {
public:
  /// \brief Prepares the message lists for `grid` (which must outlive the exchanger).
  HaloExchanger(const Grid& grid, HaloMode mode = HaloMode::Faces, const HaloOptions& options = {});
  /// \brief Completes an exchange still in flight.
  ~HaloExchanger();
  HaloExchanger(const HaloExchanger&) = delete;
  HaloExchanger& operator=(const HaloExchanger&) = delete;
  HaloExchanger(HaloExchanger&&) = delete;
  HaloExchanger& operator=(HaloExchanger&&) = delete;

  /// \brief Fills the halos of all `fields` (blocking).
  /// \throws hcart::InputError (on every rank, with collective_checks) when a field's
  /// extents differ from the grid's or ranks pass different fields; hcart::Error when a
  /// split exchange is in flight or MPI fails.
  template <class... T>
  void exchange(const Field<T>&... fields) {
    start(fields...);
    finish();
  }
  /// \brief Starts filling the halos of `fields`: posts receives, packs, posts sends.
  /// The fields' owned cells next to the boundary must not change until finish().
  template <class... T>
  void start(const Field<T>&... fields) {
    static_assert(sizeof...(T) >= 1, "hcart::HaloExchanger::start: pass at least one field");
    begin_binding(sizeof...(T));
    std::size_t index = 0;
    (bind(index++, fields), ...);
    start_bound();
  }
  /// \brief Waits for the messages of start() and unpacks them (and runs the remaining
  /// phases of a three-phase Full exchange).
  void finish();
  /// \brief True between start() and finish().
  bool in_flight() const noexcept { return m_in_flight; }

  HaloMode mode() const noexcept { return m_mode; }
  const HaloOptions& options() const noexcept { return m_options; }
  const HaloCounters& counters() const noexcept { return m_counters; }
  const HaloTimes& times() const noexcept { return m_times; }
  void reset_counters();
  /// \brief Buffers and field handles allocated so far (constant after the first call
  /// with a given set of field types).
  std::size_t allocation_count() const noexcept { return m_allocations; }

private:
  struct Message {
    std::array<int, 3> offset{};
    int peer = MPI_PROC_NULL;
    bool local = false;           // periodic self-neighbour: a copy, no MPI
    impl::Box send_box, recv_box; // send_box: for local copies, the source box
    int send_tag = 0, recv_tag = 0;
    int level = 0;
  };
  struct Phase {
    std::vector<Message> messages;
  };
  struct Buffers;

  void begin_binding(std::size_t count);
  template <class T>
  void bind(std::size_t index, const Field<T>& field) {
    static_assert(std::is_arithmetic<T>::value, "hcart::HaloExchanger: arithmetic fields only");
    auto& slot = m_fields.at(index);
    if (slot && slot->type() == typeid(T)) {
      static_cast<impl::FieldHandle<T>&>(*slot).rebind(field);
    } else {
      slot = std::make_unique<impl::FieldHandle<T>>(field);
      ++m_allocations;
    }
  }
  void start_bound();
  void check_fields();
  void prepare_buffers();
  void begin_phase(std::size_t phase);
  void complete_phase(std::size_t phase);
  std::size_t message_bytes(const Message& m) const;

  const Grid* m_grid;
  HaloMode m_mode;
  HaloOptions m_options;
  std::vector<Phase> m_phases;
  std::vector<std::unique_ptr<impl::FieldHandleBase>> m_fields;
  std::size_t m_bound = 0;
  std::vector<std::size_t> m_field_offsets; // byte offset of each field in a message, per cell
  std::unique_ptr<Buffers> m_buffers;
  std::vector<MPI_Request> m_requests;
  std::vector<MPI_Status> m_statuses;
  bool m_in_flight = false;
  HaloCounters m_counters;
  HaloTimes m_times;
  std::size_t m_allocations = 0;
};

} // namespace hcart
