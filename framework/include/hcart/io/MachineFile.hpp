// The machine file: a machine's measured figures (hcart::MachineTimings, the time model's
// input: hcart/mapping/TimeModel.hpp) as JSON, written by `hcart-machine --measure` or by
// write_machine_file after hcart::measure_level_timings, read by hcart-plan, the apps'
// compare mode and any program (docs/machine-file.md has the format).
//
//   const hcart::MachineTimings timings = hcart::read_machine_file("machine.json", comm);
//   const double seconds = hcart::predict_exchange_time(decomp, timings).seconds;
//       // (hcart/grid/ExchangePrediction.hpp)
#pragma once

#include <hcart/mapping/TimeModel.hpp>

#include <mpi.h>

#include <string>

namespace hcart {

/// \brief The schema a machine file names ("hcart-machine-file/1").
const char* machine_file_schema() noexcept;

/// \brief The JSON text of a machine file: the schema, the machine, `source` (how the
/// machine was found, e.g. "detected" or "synthetic") and every level's figures.
std::string machine_file_text(const MachineTimings& timings, const std::string& source);

/// \brief Writes a machine file whole or not at all (a temporary file renamed when
/// complete), creating missing directories above `path` (a bare name, ./name, relative or
/// absolute). Local: call it on one rank. \throws hcart::InputError naming the path when it
/// cannot be written.
void write_machine_file(const std::string& path, const MachineTimings& timings,
                        const std::string& source);

/// \brief Reads a machine file (local). \throws hcart::InputError naming the file and what
/// is wrong: not readable, not JSON, another schema, a missing or invalid field, invalid
/// figures (hcart::validate).
MachineTimings read_machine_file(const std::string& path);

/// \brief The same on every rank of `comm` (collective): an error on any rank is the same
/// InputError on all.
MachineTimings read_machine_file(const std::string& path, MPI_Comm comm);

} // namespace hcart
