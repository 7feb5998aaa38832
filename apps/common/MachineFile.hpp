// The tools' view of a machine file (hcart/io/MachineFile.hpp reads and writes it): its
// figures as a table.
#pragma once

#include "Table.hpp"

#include <hcart/io/MachineFile.hpp>
#include <hcart/mapping/TimeModel.hpp>

namespace hcart::apps {

/// \brief The figures of every level as a table (level, units, latency, bandwidth, and the
/// exchange curve's times at its smallest and largest volumes).
Table machine_timings_table(const MachineTimings& timings);

} // namespace hcart::apps
