// The fields' collective check of one exchange (HaloOptions::collective_checks), as a
// protocol of its own (internal: hcart/halo/HaloExchanger.hpp's engine uses it).
//
// Locally, every exchange: each field fits the grid (Grid::require_fits). Collectively: one
// reduction per exchange of {any misfit, the largest and the smallest signature (the number,
// types and sizes of the fields, the width and the mode)}, on every rank whatever its own
// fields, so the ranks never disagree about whether a collective happens.
//
// Why it need not wait before the messages: a message's size depends only on the signature
// (a rank whose field misfits sends an unpacked buffer of the right size, and packs nothing).
// So while every rank passes the signature of the exchange before (which all ranks agreed
// on), the messages are safe whatever the check finds: the reduction is posted (post), its
// request completes with the first phase's messages (request), and its outcome is read before
// anything is unpacked (judge). A rank whose signature changed (the first exchange, another
// width, mode or fields) cannot know what sizes the others send, so it waits for the
// reduction before posting anything ("careful"). If the ranks disagree, some are careful and
// see it before posting: they send empty messages and take whatever the others sent with a
// matched probe (drain), both as the messages of the exchange all agreed on last (what the
// others posted: its mode decides the peers and tags), so that no receive is ever posted for
// fewer bytes than arrive (Open MPI's single-copy transfer writes past the buffer of a
// receive that is too short). Every rank then throws the same InputError with nothing in
// flight. The protocol's memory is this class's: the call now and this rank's problem with it,
// the signature and call all ranks agreed on last, and whether the exchange now was abandoned.
#pragma once

#include "CallPlans.hpp"

#include <hcart/grid/Grid.hpp>
#include <hcart/halo/HaloOptions.hpp>
#include <hcart/halo/HaloPlan.hpp>
#include <hcart/impl/halo/BoundField.hpp>
#include <hcart/impl/halo/HaloArguments.hpp>

#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

namespace hcart::impl {

class FieldCheck {
public:
  FieldCheck() = default;
  FieldCheck(const FieldCheck&) = delete;
  FieldCheck& operator=(const FieldCheck&) = delete;
  /// \brief Completes a reduction still in flight.
  ~FieldCheck();

  // --- the protocol, exchange after exchange ---------------------------------------------
  /// \brief The call an exchange now asks for, with no problem yet.
  void begin_call(const HaloCall& call) {
    m_call = call;
    m_call_problem.clear();
  }
  /// \brief Why this rank cannot make the call (a width, directions): its problem in the
  /// check, which every rank takes part in.
  void set_call_problem(std::string why) { m_call_problem = std::move(why); }
  /// \brief The check of an exchange of `fields` before anything is posted. Off
  /// (`options.collective_checks`): each rank's own fields only, throwing alone. On: with one
  /// message per field, blocking and judged at once; else the reduction posted and waited
  /// for only where the signature is not the one all ranks agreed on last. Returns false
  /// when the ranks disagree before anything was posted: the exchange is abandoned (the
  /// messages the others posted, of the call agreed on last, `plan_of` gives its plan, are
  /// drained) and its finish() calls throw_abandoned(). `seconds` gets the time it waited.
  bool check_exchange(const Grid& grid, const std::vector<BoundField*>& fields, std::size_t slots,
                      MPI_Comm comm, const HaloOptions& options,
                      const std::function<const CallPlan&(const HaloCall&)>& plan_of,
                      double& seconds);
  /// \brief True between an abandoned check and its finish().
  bool abandoned() const noexcept { return m_abandoned; }
  /// \brief The abandoned exchange's error, on every rank of `comm` (as on the ranks that did
  /// not wait); the check is ready for the next exchange.
  [[noreturn]] void throw_abandoned(MPI_Comm comm);
  /// \brief bind()'s check of the call begun: blocking, judged at once.
  void check_binding(const Grid& grid, const std::vector<BoundField*>& fields, std::size_t slots,
                     MPI_Comm comm);

  // --- one reduction -------------------------------------------------------------------

  /// \brief This rank's side: its problem (`width_problem`, more values per cell than the
  /// packer takes, or the first field that does not fit `grid`) and the values to reduce.
  /// Returns the signature of `fields` and the call's mode, width and directions.
  long long prepare(const Grid& grid, const std::vector<BoundField*>& fields, std::size_t slots,
                    const HaloCall& call, const std::string& width_problem);
  /// \brief The reduction, blocking (a careful exchange; bind()).
  void reduce(MPI_Comm comm);
  /// \brief The reduction, posted: request() completes it with the first phase's messages.
  void post(MPI_Comm comm);
  /// \brief The reduction in flight, or MPI_REQUEST_NULL.
  MPI_Request& request() noexcept { return m_request; }
  /// \brief Waits for a posted reduction.
  void wait();
  /// \brief After the reduction: some rank misfits, or the ranks' signatures differ.
  bool failed() const noexcept { return m_values[0] > 0 || m_values[1] != -m_values[2]; }
  /// \brief The outcome, the same on every rank of `comm`: nothing, or an InputError on all
  /// (a misfit's own message, agreed over `comm`; or "the ranks passed different fields").
  void judge(MPI_Comm comm);
  /// \brief This rank's problem (empty when none).
  const std::string& problem() const noexcept { return m_problem; }
  /// \brief No problem (a binding's exchange: checked at bind()).
  void clear() { m_problem.clear(); }

  /// \brief A careful rank's side of an exchange the check failed: an empty message to each
  /// peer of the first phase (`peer_ranks`, one per message), and each peer's message taken
  /// at the size it has.
  static void drain(const HaloPlan::Phase& first, const std::vector<int>& peer_ranks,
                    MPI_Comm comm);

private:
  HaloCall m_call;            // what the exchange now asked for
  std::string m_call_problem; // why this rank cannot make it
  bool m_abandoned = false;   // the check failed before anything was posted: finish() throws
  long long m_agreed = -1;    // the signature every rank passed at the last exchange, or -1
  HaloCall m_agreed_call;     // and that exchange's mode, width and directions
  std::string m_problem;
  long long m_values[3] = {0, 0, 0}; // {misfit, signature, -signature}, reduced by MPI_MAX
  MPI_Request m_request = MPI_REQUEST_NULL;
};

} // namespace hcart::impl
