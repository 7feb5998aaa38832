// The umbrella header: everything a user of hcart needs.
#pragma once

#include <hcart/core/Collective.hpp>
#include <hcart/core/Communicator.hpp>
#include <hcart/core/Environment.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/Main.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/core/Version.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/GridSpec.hpp>
#include <hcart/grid/MpiDims.hpp>
#include <hcart/halo/HaloExchanger.hpp>
#include <hcart/io/Deck.hpp>
#include <hcart/io/FieldFile.hpp>
#include <hcart/io/Xdmf.hpp>
#include <hcart/mapping/Factorize.hpp>
#include <hcart/mapping/Machine.hpp>
#include <hcart/mapping/Mesh.hpp>
#include <hcart/mapping/Plan.hpp>
#include <hcart/mapping/Strategy.hpp>
#include <hcart/mapping/TrafficModel.hpp>
#include <hcart/topology/Detect.hpp>
#include <hcart/topology/LevelCommunicators.hpp>
