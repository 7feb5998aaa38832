// hcart::detect_machine and hcart::resolve_machine: the machine a communicator runs on.
//
// detect_machine() finds the nodes with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) (node
// index: rank among the node leaders, ordered by lowest world rank), reads every rank's
// CPU binding with hwloc, gathers the facts on every rank and builds the hierarchy with
// build_hierarchy(). Unit indices come from these facts, never from the numbering of the
// ranks, so a round-robin launch gets the same quality as a block launch.
//
// resolve_machine() picks, in order: a synthetic machine given explicitly, the
// environment variable HCART_MACHINE, or detection.
#pragma once

#include <hcart/mapping/Machine.hpp>
#include <hcart/topology/Hierarchy.hpp>

#include <mpi.h>

#include <string>

namespace hcart {

/// \brief Processing units (hardware threads) this process may run on, from its CPU
/// binding (hwloc); -1 when the binding cannot be read. Not collective.
int bound_processing_units();

/// \brief Detects the hierarchy of the ranks of `comm` (collective).
/// \throws hcart::Error if MPI or hwloc fail.
DetectedHierarchy detect_machine(MPI_Comm comm);

/// \brief A synthetic machine's text and where it came from: `description` (from `origin`)
/// when given, else $HCART_MACHINE, else empty (detect). Not collective.
struct MachineDescription {
  std::string text;
  std::string origin;
};
MachineDescription machine_description(const std::string& description, const std::string& origin);

/// \brief The synthetic machine `description` (or, when empty, $HCART_MACHINE) with
/// `placement`, else the detected one. Collective; the check that the machine has as many
/// ranks as `comm` is agreed on all ranks.
/// \throws hcart::InputError (collective) for a malformed description or a rank count
/// that differs from the communicator's.
DetectedHierarchy resolve_machine(MPI_Comm comm, const std::string& description,
                                  Placement placement);

} // namespace hcart
