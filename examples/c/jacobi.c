/* A plain C 3D 7-point Jacobi with its own halo exchange (MPI_Cart_shift, MPI_Isend and
 * MPI_Irecv of subarray faces), as many MPI codes are written. The process grid comes from
 * hcart (HCART_Cart_mesh_create): those lines and the include, under
 * EXAMPLE_MPI_DIMS_CREATE below, are the only ones that differ from the MPI_Dims_create +
 * MPI_Cart_create version (compiled with -DEXAMPLE_MPI_DIMS_CREATE).
 *
 *   mpicc -O2 jacobi.c $(pkg-config --cflags --libs hcart-cart) -o jacobi
 *   mpiexec -n 4 ./jacobi 96 64 32 100        # nx ny nz iterations
 *
 * Laplace's equation on the unit box: u = 1 on the x = 0 face, 0 on the others, u = 0
 * inside at the start. Prints the grid and, after the iterations, the largest change of
 * the last one and u at the cell nearest the centre: both are exact (a maximum and a
 * value, no sum), so they are the same bits on any number of ranks and any grid. */
#ifdef EXAMPLE_MPI_DIMS_CREATE
#include <mpi.h>
#else
#include <hcart/cart.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int n[3], lo[3], nloc[3]; /* global cells, this rank's first cell and cell count */
#define AT(i, j, k) ((((size_t)(i)) * (nloc[1] + 2) + (size_t)(j)) * (nloc[2] + 2) + (size_t)(k))

/* Sends the owned faces to the six neighbours and receives their faces into the halo. */
static void exchange(double *u, MPI_Comm cart, MPI_Datatype face[3][2], int shift[3][2]) {
  MPI_Request requests[12];
  int count = 0, d, side;
  for (d = 0; d < 3; ++d)
    for (side = 0; side < 2; ++side) {
      MPI_Irecv(u, 1, face[d][side], shift[d][side], 2 * d + side, cart, &requests[count++]);
    }
  for (d = 0; d < 3; ++d)
    for (side = 0; side < 2; ++side) {
      /* The first owned plane goes down (arriving as the upper halo there), the last up. */
      MPI_Datatype owned;
      int sizes[3] = {nloc[0] + 2, nloc[1] + 2, nloc[2] + 2}, sub[3], start[3] = {1, 1, 1};
      sub[0] = nloc[0], sub[1] = nloc[1], sub[2] = nloc[2];
      sub[d] = 1;
      start[d] = side == 0 ? 1 : nloc[d];
      MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &owned);
      MPI_Type_commit(&owned);
      MPI_Isend(u, 1, owned, shift[d][side], 2 * d + (1 - side), cart, &requests[count++]);
      MPI_Type_free(&owned);
    }
  MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv) {
  int rank, size, coords[3], periods[3] = {0, 0, 0}, iterations = 100, d, it;
  MPI_Comm cart;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  n[0] = argc > 1 ? atoi(argv[1]) : 64;
  n[1] = argc > 2 ? atoi(argv[2]) : 64;
  n[2] = argc > 3 ? atoi(argv[3]) : 64;
  iterations = argc > 4 ? atoi(argv[4]) : 100;

#ifdef EXAMPLE_MPI_DIMS_CREATE
  int dims[3] = {0, 0, 0};
  MPI_Dims_create(size, 3, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 1, &cart);
#else
  int dims[3] = {0, 0, 0};
  const int64_t cells[3] = {n[0], n[1], n[2]};
  const int halo[3] = {1, 1, 1};
  if (HCART_Cart_mesh_create(MPI_COMM_WORLD, 3, cells, halo, NULL, periods, MPI_INFO_NULL, dims,
                             &cart) != HCART_SUCCESS) {
    char message[HCART_MAX_ERROR_STRING];
    int length;
    HCART_Error_message(message, &length);
    fprintf(stderr, "jacobi: %s\n", message);
    MPI_Finalize();
    return 2;
  }
#endif

  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 3, coords);
  for (d = 0; d < 3; ++d) { /* balanced blocks: the first n % dims one cell larger */
    const int base = n[d] / dims[d], extra = n[d] % dims[d];
    nloc[d] = base + (coords[d] < extra);
    lo[d] = coords[d] * base + (coords[d] < extra ? coords[d] : extra);
  }
  int shift[3][2];
  MPI_Datatype face[3][2]; /* the halo planes: [d][0] below, [d][1] above */
  for (d = 0; d < 3; ++d) {
    int side;
    MPI_Cart_shift(cart, d, 1, &shift[d][0], &shift[d][1]);
    for (side = 0; side < 2; ++side) {
      int sizes[3] = {nloc[0] + 2, nloc[1] + 2, nloc[2] + 2}, sub[3], start[3] = {1, 1, 1};
      sub[0] = nloc[0], sub[1] = nloc[1], sub[2] = nloc[2];
      sub[d] = 1;
      start[d] = side == 0 ? 0 : nloc[d] + 1;
      MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &face[d][side]);
      MPI_Type_commit(&face[d][side]);
    }
  }
  const size_t total = (size_t)(nloc[0] + 2) * (nloc[1] + 2) * (nloc[2] + 2);
  double *u = calloc(total, sizeof *u), *v = calloc(total, sizeof *v);
  int i, j, k;
  if (coords[0] == 0) /* the x = 0 boundary: u = 1 in the lower x halo */
    for (j = 0; j < nloc[1] + 2; ++j)
      for (k = 0; k < nloc[2] + 2; ++k) u[AT(0, j, k)] = v[AT(0, j, k)] = 1.0;

  double change = 0.0;
  for (it = 0; it < iterations; ++it) {
    exchange(u, cart, face, shift);
    change = 0.0;
    for (i = 1; i <= nloc[0]; ++i)
      for (j = 1; j <= nloc[1]; ++j)
        for (k = 1; k <= nloc[2]; ++k) {
          const double next = (u[AT(i - 1, j, k)] + u[AT(i + 1, j, k)] + u[AT(i, j - 1, k)] +
                               u[AT(i, j + 1, k)] + u[AT(i, j, k - 1)] + u[AT(i, j, k + 1)]) /
                              6.0;
          const double delta = next > u[AT(i, j, k)] ? next - u[AT(i, j, k)] : u[AT(i, j, k)] - next;
          if (delta > change) change = delta;
          v[AT(i, j, k)] = next;
        }
    double *t = u;
    u = v, v = t;
  }
  MPI_Allreduce(MPI_IN_PLACE, &change, 1, MPI_DOUBLE, MPI_MAX, cart);
  /* u at the cell nearest the centre, from the rank that owns it. */
  double centre = -1.0;
  const int c[3] = {n[0] / 2, n[1] / 2, n[2] / 2};
  if (c[0] >= lo[0] && c[0] < lo[0] + nloc[0] && c[1] >= lo[1] && c[1] < lo[1] + nloc[1] &&
      c[2] >= lo[2] && c[2] < lo[2] + nloc[2])
    centre = u[AT(c[0] - lo[0] + 1, c[1] - lo[1] + 1, c[2] - lo[2] + 1)];
  MPI_Allreduce(MPI_IN_PLACE, &centre, 1, MPI_DOUBLE, MPI_MAX, cart);
  if (rank == 0) {
    printf("jacobi: %d ranks, grid %dx%dx%d, mesh %dx%dx%d, %d iterations\n", size, dims[0],
           dims[1], dims[2], n[0], n[1], n[2], iterations);
    printf("jacobi: last change %.16e, centre %.16e\n", change, centre);
  }
  for (d = 0; d < 3; ++d) {
    MPI_Type_free(&face[d][0]);
    MPI_Type_free(&face[d][1]);
  }
  free(u);
  free(v);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
