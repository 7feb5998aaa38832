/* hcart/cart.h: hcart's Cartesian mapper for C (and, through the module `hcart`, Fortran)
 * codes that keep their own halo exchange. A C99 header; the library it declares,
 * hcart_cart, needs MPI and hwloc only (pkg-config: hcart-cart; CMake: hcart::cart).
 *
 *   double w[3] = {1.0, 1.0, 4.0};            // communication weights, w_i = G c_i h_i / g_i
 *   int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
 *   MPI_Comm cart;
 *   HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, w, MPI_INFO_NULL, &cart);
 *   // dims now holds the process grid; MPI_Cart_coords / MPI_Cart_shift work on `cart`,
 *   // whose rank order is hcart's placement on the detected machine.
 *
 * The calls follow the interface Niethammer and Rabenseifner proposed for MPI (EuroMPI
 * 2019: MPI_Dims_create_weighted and MPI_Cart_weighted_create) under hcart's prefix, and a
 * third takes the mesh and derives the weights. Differences from that proposal: dims is
 * in/out in HCART_Cart_weighted_create too (0 = free, as in MPI_Dims_create, > 0 = fixed),
 * so one call plans and places; ndims is 1 to 3; hcart's own objective chooses the grid and
 * the placement (the busiest link first, docs/algorithms.md).
 *
 * Info keys (MPI_INFO_NULL for none; a key that starts with "hcart_" and is not one of
 * these is an error, other keys are ignored):
 *   hcart_strategy   hierarchical (default), weighted, levelwise, manual or mpi
 *   hcart_machine    a synthetic machine, e.g. "node:4 socket:2 core:8", "node:[4,4,2]" or
 *                    "switch:2 node:4 core:8" (default: $HCART_MACHINE, else the machine
 *                    detected from comm_old, with switch levels from Slurm or a topology file)
 *   hcart_placement  block (default) or round-robin: how a synthetic machine numbers ranks
 *   hcart_equal_blocks  true or false (default): HCART_Cart_mesh_create considers only
 *                    grids whose dims divide global_sizes (blocks of one size), and fails
 *                    where the ranks have none (the weighted calls' grids always do)
 *
 * Errors: every call returns HCART_SUCCESS or an error code, never aborts; a collective
 * call returns the same code on every rank of comm_old (a bad argument on one rank is an
 * error on all, nothing hangs), and HCART_Error_message gives the message, one line that
 * names the value and what was expected, the same text hcart's C++ API throws.
 */
#ifndef HCART_CART_H
#define HCART_CART_H

#include <mpi.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HCART_SUCCESS 0
/** An argument or info value hcart refuses (the message names it). */
#define HCART_ERR_ARG 1
/** An MPI or hwloc call failed inside hcart. */
#define HCART_ERR_INTERNAL 2
/** Longest message HCART_Error_message writes, the terminating zero included. */
#define HCART_MAX_ERROR_STRING 1024

/** Pass as `weights` for equal weights (every direction alike, as MPI_Dims_create). */
extern const double hcart_weights_equal[1];
#define HCART_WEIGHTS_EQUAL (hcart_weights_equal)

/** Process grid dims[0..ndims-1] for nnodes processes and the given weights, as
 * MPI_Dims_create (dims in/out: 0 = free, > 0 = fixed). Local, not collective: there is
 * no communicator, so no machine is detected; it plans for info's hcart_machine, else
 * $HCART_MACHINE, else one level of nnodes ranks. */
int HCART_Dims_create_weighted(int nnodes, int ndims, const double weights[], MPI_Info info,
                               int dims[]);

/** Plans the process grid (dims in/out as above) for the weights and places the ranks of
 * comm_old on it: *comm_cart is a new Cartesian communicator (periods as in
 * MPI_Cart_create) whose rank order is hcart's placement; free it with MPI_Comm_free.
 * Collective over comm_old. */
int HCART_Cart_weighted_create(MPI_Comm comm_old, int ndims, int dims[], const int periods[],
                               const double weights[], MPI_Info info, MPI_Comm* comm_cart);

/** As HCART_Cart_weighted_create, with the weights derived from the mesh: global sizes
 * g_i >= 1, halo widths h_i >= 0 and cost factors c_i >= 0 (NULL: all 1), w_i = G c_i h_i
 * / g_i; the plan also counts the uneven blocks of sizes the grid does not divide, as
 * hcart::Decomposition does for the same mesh. */
int HCART_Cart_mesh_create(MPI_Comm comm_old, int ndims, const int64_t global_sizes[],
                           const int halo_widths[], const double cost_factors[],
                           const int periods[], MPI_Info info, int dims[], MPI_Comm* comm_cart);

/** The message of this process's last failed call (empty after a success) into `string`
 * (at least HCART_MAX_ERROR_STRING chars), its length into *resultlen. */
int HCART_Error_message(char* string, int* resultlen);

#ifdef __cplusplus
}
#endif

#endif /* HCART_CART_H */
