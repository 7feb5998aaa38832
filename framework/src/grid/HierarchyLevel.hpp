// A grid hierarchy's level as GridHierarchy keeps it (its size, decomposition and grid
// where held; for an agglomerated level the pieces as the level above holds them, this
// rank's owner and members, and the move's buffers): shared by the hierarchy's build
// (GridHierarchy.cpp) and its moves between levels (LevelMove.cpp).
#pragma once

#include <hcart/core/ExecutionModel.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/mapping/Agglomeration.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace hcart {

struct GridHierarchy::Level {
  std::array<std::int64_t, 3> size{{1, 1, 1}};
  std::unique_ptr<Decomposition> own;    // the level's decomposition where derived and held
  const Decomposition* decomp = nullptr; // own, or the fine one; null where not held
  std::unique_ptr<Grid> grid;
  int ranks = 0;
  bool agglomerated = false;
  // An agglomerated level: as the ranks of the level above hold it, and the move.
  std::unique_ptr<Decomposition> pieces;
  std::unique_ptr<Grid> pieces_grid;
  Agglomeration choice;
  int owner = -1;           // this rank's box's owner (a rank of pieces->comm())
  std::vector<int> members; // the ranks of the box this rank holds (none where it holds none)
  mutable Kokkos::View<unsigned char*, MemorySpace> buffer;
  mutable Kokkos::View<unsigned char*, Kokkos::HostSpace> host_buffer;
  mutable Kokkos::View<unsigned char*, MemorySpace> scratch; // the transfers' pieces field
};

} // namespace hcart
