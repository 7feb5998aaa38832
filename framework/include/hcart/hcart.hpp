// The umbrella header: hcart's user API (docs/api-guide.md) — the environment, errors and
// collective validation, timers, grids, decompositions, fields and loops, halo exchanges,
// physical boundaries, decks and field files.
//
// Expert headers stay includable on their own: the planner (hcart/mapping/*), the machine
// (hcart/topology/*), the halo plan (hcart/halo/HaloPlan.hpp), MPI_Dims_create's baseline
// (hcart/grid/MpiDims.hpp), the device-MPI decision (hcart/core/DeviceAwareMpi.hpp), the
// checking macros (hcart/core/MpiCheck.hpp) and host clones (hcart/core/HostClones.hpp).
// Application helpers that bring CLI11 — hcart::CommandLine and the [decomposition] deck
// table — are in hcart/app/ (target hcart::app, find_package(hcart COMPONENTS app)).
#pragma once

#include <hcart/core/Collective.hpp>
#include <hcart/core/Environment.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/ExecutionModel.hpp>
#include <hcart/core/Main.hpp>
#include <hcart/core/Timers.hpp>
#include <hcart/core/Version.hpp>
#include <hcart/grid/Block.hpp>
#include <hcart/grid/Box.hpp>
#include <hcart/grid/ColouredLoops.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/ExchangePrediction.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/grid/FieldAccessor.hpp>
#include <hcart/grid/FieldChecks.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/grid/GridSpec.hpp>
#include <hcart/grid/LevelTransfers.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/grid/Reductions.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>
#include <hcart/io/Deck.hpp>
#include <hcart/io/FieldFile.hpp>
#include <hcart/io/MachineFile.hpp>
#include <hcart/io/OutputDirectory.hpp>
#include <hcart/io/Xdmf.hpp>
