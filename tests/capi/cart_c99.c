/* The C interface from a C99 program (compiled -std=c99 -pedantic, warnings as errors):
 * the header compiles as C, the library links without C++ or Kokkos flags, and the calls
 * agree with each other and report errors on every rank. Prints "c99 interface: ok" on
 * rank 0 when every check passed; exits 1 otherwise. */
#include <hcart/cart.h>

#include <stdio.h>
#include <string.h>

static int failures = 0;

static void check(int condition, const char *what, int rank) {
  if (!condition) {
    fprintf(stderr, "rank %d: check failed: %s\n", rank, what);
    ++failures;
  }
}

int main(int argc, char **argv) {
  int rank = 0, size = 1, i;
  char machine[64], message[HCART_MAX_ERROR_STRING];
  int dims[3] = {0, 0, 0}, local_dims[3] = {0, 0, 0}, periods[3] = {1, 0, 0}, length = 0;
  int cart_rank = -1, coords[3], dimensions = 0, all_failures = 0;
  const double weights[3] = {1.0, 2.0, 8.0};
  double negative[3] = {1.0, 1.0, 1.0};
  MPI_Comm cart = MPI_COMM_NULL;
  MPI_Info info;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  snprintf(machine, sizeof machine, "node:1 core:%d", size);
  MPI_Info_create(&info);
  MPI_Info_set(info, "hcart_machine", machine);

  check(HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, weights, info, &cart) ==
            HCART_SUCCESS,
        "HCART_Cart_weighted_create succeeds", rank);
  check(dims[0] * dims[1] * dims[2] == size, "dims multiply to the size", rank);
  check(cart != MPI_COMM_NULL, "a communicator", rank);
  if (cart != MPI_COMM_NULL) {
    MPI_Cartdim_get(cart, &dimensions);
    check(dimensions == 3, "three dimensions", rank);
    MPI_Comm_rank(cart, &cart_rank);
    MPI_Cart_coords(cart, cart_rank, 3, coords);
    for (i = 0; i < 3; ++i) check(coords[i] >= 0 && coords[i] < dims[i], "coords inside dims", rank);
    MPI_Comm_free(&cart);
  }
  /* Without a communicator, for the same machine: the same dims (periods aside: none here). */
  periods[0] = 0;
  dims[0] = dims[1] = dims[2] = 0;
  check(HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, weights, info, &cart) ==
            HCART_SUCCESS,
        "non-periodic create succeeds", rank);
  if (cart != MPI_COMM_NULL) MPI_Comm_free(&cart);
  check(HCART_Dims_create_weighted(size, 3, weights, info, local_dims) == HCART_SUCCESS,
        "HCART_Dims_create_weighted succeeds", rank);
  for (i = 0; i < 3; ++i) check(local_dims[i] == dims[i], "Dims_create gives the same dims", rank);
  /* Equal weights. */
  local_dims[0] = local_dims[1] = local_dims[2] = 0;
  check(HCART_Dims_create_weighted(size, 3, HCART_WEIGHTS_EQUAL, info, local_dims) ==
            HCART_SUCCESS,
        "equal weights", rank);
  /* An error on the last rank only: an error on every rank, with its message. */
  if (rank == size - 1) negative[1] = -1.0;
  dims[0] = dims[1] = dims[2] = 0;
  check(HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, negative, info, &cart) ==
            HCART_ERR_ARG,
        "a negative weight on one rank is an error on all", rank);
  check(cart == MPI_COMM_NULL, "no communicator after an error", rank);
  HCART_Error_message(message, &length);
  check(strstr(message, "weights[1] = -1") != NULL, "the message names the weight", rank);
  check(length == (int)strlen(message), "the message's length", rank);

  MPI_Info_free(&info);
  MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all_failures == 0) printf("c99 interface: ok (%d ranks)\n", size);
  MPI_Finalize();
  return all_failures == 0 ? 0 : 1;
}
