// The engine behind hcart::HaloExchanger (internal): the fields of the exchange now and the
// packer's slots, the phases (post receives, pack, post sends; wait, unpack), the fields'
// check around them (FieldCheck.hpp), and what was sent and how long it took. The public
// class (hcart/halo/HaloExchanger.hpp) binds the caller's fields and forwards here.
#pragma once

#include "CallPlans.hpp"
#include "FieldCheck.hpp"
#include "MessageBuffers.hpp"

#include <hcart/core/Communicator.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/halo/HaloOptions.hpp>
#include <hcart/impl/halo/BoundField.hpp>
#include <hcart/impl/halo/HaloArguments.hpp>

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

namespace hcart::impl {

/// \brief A binding's own communicator (its messages never meet another binding's).
struct BindingComm {
  Communicator comm;
};

class HaloEngine {
public:
  /// \brief \throws hcart::InputError (on every rank) for a bad default width or
  /// HCART_GPU_AWARE_MPI / HCART_HALO_STAGING.
  HaloEngine(const Grid& grid, HaloMode mode, const HaloOptions& options);
  /// \brief Completes an exchange still in flight.
  ~HaloEngine();

  // --- start() and finish() of the exchanger's own fields ---------------------------------
  /// \brief The call's plan (a width or mode this rank cannot exchange is its problem in the
  /// check, which every rank takes part in). \throws hcart::Error when an exchange is in
  /// flight.
  void begin_call(HaloCall call);
  /// \brief Checks `fields` and posts the first phase.
  void start_checked(const std::unique_ptr<BoundField>* fields, std::size_t count);
  /// \brief Completes the exchange in flight (all phases); `flight`: 0 for start()'s, a
  /// binding's id. \throws hcart::Error when none, or it is another's.
  void finish(long flight);

  // --- bindings ----------------------------------------------------------------------------
  /// \brief bind(): the check, once and blocking; then the binding's communicator and id.
  long bind(const std::vector<std::unique_ptr<BoundField>>& fields, HaloCall call,
            BindingComm& comm);
  /// \brief A binding's exchange (no check).
  void start_binding(const std::vector<std::unique_ptr<BoundField>>& fields, HaloCall call,
                     MPI_Comm comm, long id);

  bool in_flight() const noexcept { return m_in_flight; }
  HaloMode mode() const noexcept { return m_mode; }
  const HaloOptions& options() const noexcept { return m_options; }
  const CallPlan& default_plan() const noexcept { return *m_default; }
  HaloCounters& counters() noexcept { return m_counters; }
  const HaloTimes& times() const noexcept { return m_times; }
  std::size_t& allocations() noexcept { return m_allocations; }
  bool device_buffers() const noexcept { return m_device_buffers; }
  bool stages_by_copy() const noexcept { return m_stage_by_copy; }
  void set_loop_pattern(LoopPattern pattern);

private:
  void use_fields(const std::unique_ptr<BoundField>* fields, std::size_t count);
  void prepare();
  void post_first_phase();
  void begin_phase(std::size_t phase);
  void complete_phase(std::size_t phase);
  void complete_exchange();
  std::size_t message_bytes(const HaloPlan::Message& m) const {
    return impl::message_bytes(m, m_slot_bytes);
  }

  const Grid* m_grid;
  HaloMode m_mode;
  HaloOptions m_options;
  Communicator m_comm;       // a duplicate of the decomposition's: the exchanger's own (freed last)
  Communicator m_order_comm; // HaloOptions::check_binding_order's reductions, when on
  CallPlans m_plans;
  CallPlan* m_default = nullptr;    // the exchanger's mode and HaloOptions::width
  CallPlan* m_current = nullptr;    // the exchange now
  const Copies* m_active = nullptr; // its copy lists for the fields now
  std::vector<BoundField*> m_now;   // the fields of the exchange now (start()'s or a binding's)
  std::vector<std::size_t> m_slot_bytes; // per value of a cell (a field's, or a component's)
  FieldRefs m_refs;
  LoopPattern m_pattern = default_loop_pattern;
  ExecutionSpace m_space; // the instance the kernels run on (made once: Kokkos 4 allocates)
  bool m_device_buffers = true;
  bool m_stage_by_copy = false;
  std::vector<std::unique_ptr<PhaseBuffers>> m_buffers; // per phase
  std::vector<MPI_Request> m_requests;
  std::vector<MPI_Status> m_statuses;
  std::vector<int> m_expected; // bytes each receive of the phase expects
  bool m_in_flight = false;
  MPI_Comm m_now_comm = MPI_COMM_NULL; // the exchange's communicator: m_comm, or the binding's
  long m_flight = 0;                   // the binding in flight (its id), 0 for start()'s
  long m_bindings = 0;                 // bindings made
  FieldCheck m_check;                  // the fields' check and its memory across exchanges
  HaloCounters m_counters;
  HaloTimes m_times;
  std::size_t m_allocations = 0;
};

} // namespace hcart::impl
