// Restriction and prolongation between the levels of a grid hierarchy
// (hcart/grid/GridHierarchy.hpp), for cell- and vertex-centred fields, with or without
// components; and loops over a coarse box that hand the kernel the fine indices.
//
//   hcart::restrict_cells(levels, l, r_fine, f_coarse);   // level l-1 -> l (halos: see below)
//   hcart::prolong_cells(levels, l, e_coarse, u_fine);    // level l -> l-1, added to u_fine
//   const hcart::LevelMap map = hcart::level_map(levels, l);
//   hcart::for_each_coarse_cell("mine", levels, l, box, MyRestriction{fine, coarse, map});
//
// Cell-centred: restriction is the mean of a coarse cell's children (2 per coarsened
// direction); prolongation interpolates trilinearly from the 8 nearest coarse cells (3/4 and
// 1/4 per direction), so both are exact for linear functions and the restriction for the
// mean. Vertex-centred (coarse point c is fine point 2c + 1): restriction is full weighting
// ((1/4, 1/2, 1/4) per direction around the coinciding point), prolongation linear
// interpolation (the coinciding point, or halfway between two). Halos: the vertex-centred
// restriction reads the fine field's first halo layer, and every prolongation the coarse
// field's (faces, edges and corners: exchange it in HaloMode::Full and fill its physical
// boundaries first). On an agglomerated level both move the data between the ranks of the
// level above and the level's owners (GridHierarchy::gather and scatter, halos included), so
// a rank that holds level l - 1 but not level l passes an empty coarse field.
// Every value comes from its operands in a fixed order: the results are bitwise the same on
// every decomposition and strategy.
#pragma once

#include <hcart/core/Collective.hpp>
#include <hcart/grid/GridHierarchy.hpp>
#include <hcart/grid/Loops.hpp>
#include <hcart/impl/grid/LevelTransferKernels.hpp>

#include <string>

namespace hcart {

/// \brief The map between level `level - 1` (this rank's grid of it) and `level` (its grid,
/// or pieces(level) where the level is agglomerated). \throws hcart::Error where this rank
/// does not hold level - 1.
LevelMap level_map(const GridHierarchy& levels, int level);

/// \brief Runs f(ic, jc, kc, fi, fj, fk) for the cells of `box` (local indices of level
/// `level`'s grid, or its pieces where agglomerated), (fi, fj, fk) the fine local indices of
/// level - 1 that map.fine gives: a coarse cell's first child, or the coinciding point.
template <class Functor>
void for_each_coarse_cell(const std::string& label, const GridHierarchy& levels, int level,
                          const Box& box, const Functor& f);

/// \brief coarse = the restriction of `fine` (a field of grid(level - 1)) on level `level`
/// (a field of grid(level) where this rank holds it; empty elsewhere). Collective over the
/// ranks of level - 1. \throws hcart::InputError (on every rank of level - 1) when a field
/// does not fit its grid or their components differ.
template <class View>
void restrict_cells(const GridHierarchy& levels, int level, const View& fine, const View& coarse);

/// \brief fine (+)= the prolongation of `coarse` (of grid(level), halos filled; empty where
/// this rank does not hold it) on level - 1's grid, its owned cells (`add`: added to them,
/// else stored). Collective over the ranks of level - 1. \throws hcart::InputError as
/// restrict_cells.
template <class View>
void prolong_cells(const GridHierarchy& levels, int level, const View& coarse, const View& fine,
                   bool add = true);

} // namespace hcart

#include <hcart/impl/grid/LevelTransfers_impl.hpp>
