// The machine file: the figures `hcart-machine --measure` measured on a machine, written as
// JSON (docs/machine-file.md) and read by hcart-plan, hcart-strategy-bench and the apps'
// compare mode (--machine-file) to predict the time of one halo exchange per strategy
// (hcart/mapping/TimeModel.hpp).
#pragma once

#include "Table.hpp"

#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/TimeModel.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace hcart::apps {

/// \brief The JSON of a machine file: the schema, the machine, `source` (how it was found)
/// and every level's figures.
nlohmann::json machine_file_json(const MachineTimings& timings, const std::string& source);

/// \brief Reads a machine file. \throws hcart::InputError naming the file and what is wrong
/// (not readable, not JSON, another schema, a missing or invalid field, invalid figures).
MachineTimings read_machine_file(const std::string& path);

/// \brief The figures of every level as a table (level, units, latency, bandwidth, and the
/// exchange curve's times at its smallest and largest volumes).
Table machine_timings_table(const MachineTimings& timings);

} // namespace hcart::apps
