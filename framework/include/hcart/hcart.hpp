// The umbrella header: hcart's user API (docs/api-guide.md) — the environment, errors and
// collective validation, timers, grids, decompositions, fields and loops, halo exchanges,
// physical boundaries, decks and field files, and the multigrid solver on grid hierarchies.
//
// Expert headers are includable on their own. Some come in through the user API because
// its headers need them: hcart/mapping/Machine.hpp, Plan.hpp, PlanCost.hpp, Strategy.hpp,
// TimeModel.hpp, TrafficModel.hpp and Mesh.hpp (through grid/Decomposition.hpp,
// grid/GridSpec.hpp, grid/ExchangePrediction.hpp and io/MachineFile.hpp),
// hcart/mapping/Agglomeration.hpp (through grid/GridHierarchy.hpp), the halo plan
// hcart/halo/HaloPlan.hpp (through halo/HaloExchanger.hpp and halo/PhysicalBoundaries.hpp)
// and the checking macros hcart/core/MpiCheck.hpp (through grid/FieldChecks.hpp and
// grid/Reductions.hpp). This header does not include the others: hcart/mapping/Blocks.hpp
// and Factorize.hpp, the planner (hcart/grid/Planner.hpp), the machine (hcart/topology/*),
// MPI_Dims_create's baseline (hcart/grid/MpiDims.hpp), the device-MPI decision
// (hcart/core/DeviceAwareMpi.hpp) and host clones (hcart/core/HostClones.hpp).
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
#include <hcart/grid/ReproducibleSums.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/halo/PhysicalBoundaries.hpp>
#include <hcart/io/Deck.hpp>
#include <hcart/io/FieldFile.hpp>
#include <hcart/io/MachineFile.hpp>
#include <hcart/io/OutputDirectory.hpp>
#include <hcart/io/Xdmf.hpp>
#include <hcart/solvers/HierarchyLevels.hpp>
#include <hcart/solvers/Multigrid.hpp>
