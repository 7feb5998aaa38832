// The C side of the Fortran module hcart (framework/fortran/hcart.f90): Fortran handles
// (MPI_Fint, mpi_f08's MPI_VAL) become C handles, and the C interface does the rest.
#include <hcart/cart.h>

extern "C" {

int hcart_fortran_dims_create_weighted(int nnodes, int ndims, const double* weights, MPI_Fint info,
                                       int* dims) {
  return HCART_Dims_create_weighted(nnodes, ndims, weights, MPI_Info_f2c(info), dims);
}

int hcart_fortran_cart_weighted_create(MPI_Fint comm_old, int ndims, int* dims, const int* periods,
                                       const double* weights, MPI_Fint info, MPI_Fint* comm_cart) {
  MPI_Comm cart = MPI_COMM_NULL;
  const int rc = HCART_Cart_weighted_create(MPI_Comm_f2c(comm_old), ndims, dims, periods, weights,
                                            MPI_Info_f2c(info), &cart);
  if (rc == HCART_SUCCESS && comm_cart != nullptr) *comm_cart = MPI_Comm_c2f(cart);
  return rc;
}

int hcart_fortran_cart_mesh_create(MPI_Fint comm_old, int ndims, const int64_t* global_sizes,
                                   const int* halo_widths, const double* cost_factors,
                                   const int* periods, MPI_Fint info, int* dims,
                                   MPI_Fint* comm_cart) {
  MPI_Comm cart = MPI_COMM_NULL;
  const int rc = HCART_Cart_mesh_create(MPI_Comm_f2c(comm_old), ndims, global_sizes, halo_widths,
                                        cost_factors, periods, MPI_Info_f2c(info), dims, &cart);
  if (rc == HCART_SUCCESS && comm_cart != nullptr) *comm_cart = MPI_Comm_c2f(cart);
  return rc;
}

int hcart_fortran_error_message(char* string, int* resultlen) {
  return HCART_Error_message(string, resultlen);
}

} // extern "C"
