! The Fortran module hcart: hcart's Cartesian mapper (hcart/cart.h) for Fortran codes, with
! mpi_f08 handles (type(MPI_Comm), type(MPI_Info)) or `use mpi` integer handles: each call
! is one generic name with both forms.
!
!   use mpi_f08
!   use hcart
!   integer :: dims(3) = 0, ierr
!   type(MPI_Comm) :: cart
!   call HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, [.false., .false., .false.], &
!                                   [1d0, 1d0, 4d0], MPI_INFO_NULL, cart, ierr)
!
! HCART_WEIGHTS_EQUAL stands for equal weights (as MPI_Dims_create). ierror is optional, as
! in mpi_f08; it is HCART_SUCCESS or an error code, and HCART_Error_message gives the message.
module hcart
  use, intrinsic :: iso_c_binding, only: c_int, c_double, c_int64_t, c_char
  use mpi_f08, only: MPI_Comm, MPI_Info
  implicit none
  private

  integer, parameter, public :: HCART_SUCCESS = 0
  integer, parameter, public :: HCART_ERR_ARG = 1
  integer, parameter, public :: HCART_ERR_INTERNAL = 2
  integer, parameter, public :: HCART_MAX_ERROR_STRING = 1024
  double precision, parameter, public :: HCART_WEIGHTS_EQUAL(3) = [1d0, 1d0, 1d0]

  public :: HCART_Dims_create_weighted, HCART_Cart_weighted_create, HCART_Cart_mesh_create
  public :: HCART_Error_message

  interface HCART_Dims_create_weighted
    module procedure dims_create_f08, dims_create_int
  end interface
  interface HCART_Cart_weighted_create
    module procedure cart_weighted_f08, cart_weighted_int
  end interface
  interface HCART_Cart_mesh_create
    module procedure cart_mesh_f08, cart_mesh_int
  end interface

  interface
    integer(c_int) function c_dims_create(nnodes, ndims, weights, info, dims) &
        bind(C, name="hcart_fortran_dims_create_weighted")
      import :: c_int, c_double
      integer(c_int), value :: nnodes, ndims, info
      real(c_double), intent(in) :: weights(*)
      integer(c_int), intent(inout) :: dims(*)
    end function
    integer(c_int) function c_cart_weighted(comm, ndims, dims, periods, weights, info, cart) &
        bind(C, name="hcart_fortran_cart_weighted_create")
      import :: c_int, c_double
      integer(c_int), value :: comm, ndims, info
      integer(c_int), intent(inout) :: dims(*)
      integer(c_int), intent(in) :: periods(*)
      real(c_double), intent(in) :: weights(*)
      integer(c_int), intent(out) :: cart
    end function
    integer(c_int) function c_cart_mesh(comm, ndims, sizes, halos, costs, periods, info, dims, &
                                         cart) bind(C, name="hcart_fortran_cart_mesh_create")
      import :: c_int, c_double, c_int64_t
      integer(c_int), value :: comm, ndims, info
      integer(c_int64_t), intent(in) :: sizes(*)
      integer(c_int), intent(in) :: halos(*), periods(*)
      real(c_double), intent(in) :: costs(*)
      integer(c_int), intent(inout) :: dims(*)
      integer(c_int), intent(out) :: cart
    end function
    integer(c_int) function c_error_message(string, length) &
        bind(C, name="hcart_fortran_error_message")
      import :: c_int, c_char
      character(kind=c_char), intent(out) :: string(*)
      integer(c_int), intent(out) :: length
    end function
  end interface

contains

  subroutine set_ierror(rc, ierror)
    integer(c_int), intent(in) :: rc
    integer, intent(out), optional :: ierror
    if (present(ierror)) ierror = int(rc)
  end subroutine

  ! Periods as C ints (1 = periodic).
  pure function c_periods(periods, ndims) result(out)
    logical, intent(in) :: periods(*)
    integer, intent(in) :: ndims
    integer(c_int) :: out(max(ndims, 1))
    integer :: i
    out = 0
    do i = 1, ndims
      if (periods(i)) out(i) = 1
    end do
  end function

  subroutine dims_create_int(nnodes, ndims, weights, info, dims, ierror)
    integer, intent(in) :: nnodes, ndims, info
    double precision, intent(in) :: weights(*)
    integer, intent(inout) :: dims(*)
    integer, intent(out), optional :: ierror
    integer(c_int) :: d(max(ndims, 1)), rc
    d = 0
    if (ndims >= 1) d(1:ndims) = int(dims(1:ndims), c_int)
    rc = c_dims_create(int(nnodes, c_int), int(ndims, c_int), weights, int(info, c_int), d)
    if (rc == HCART_SUCCESS .and. ndims >= 1) dims(1:ndims) = int(d(1:ndims))
    call set_ierror(rc, ierror)
  end subroutine

  subroutine dims_create_f08(nnodes, ndims, weights, info, dims, ierror)
    integer, intent(in) :: nnodes, ndims
    double precision, intent(in) :: weights(*)
    type(MPI_Info), intent(in) :: info
    integer, intent(inout) :: dims(*)
    integer, intent(out), optional :: ierror
    call dims_create_int(nnodes, ndims, weights, info%MPI_VAL, dims, ierror)
  end subroutine

  subroutine cart_weighted_int(comm_old, ndims, dims, periods, weights, info, comm_cart, ierror)
    integer, intent(in) :: comm_old, ndims, info
    integer, intent(inout) :: dims(*)
    logical, intent(in) :: periods(*)
    double precision, intent(in) :: weights(*)
    integer, intent(out) :: comm_cart
    integer, intent(out), optional :: ierror
    integer(c_int) :: d(max(ndims, 1)), cart, rc
    d = 0
    if (ndims >= 1) d(1:ndims) = int(dims(1:ndims), c_int)
    cart = 0
    rc = c_cart_weighted(int(comm_old, c_int), int(ndims, c_int), d, c_periods(periods, ndims), &
                         weights, int(info, c_int), cart)
    if (rc == HCART_SUCCESS) then
      if (ndims >= 1) dims(1:ndims) = int(d(1:ndims))
      comm_cart = int(cart)
    end if
    call set_ierror(rc, ierror)
  end subroutine

  subroutine cart_weighted_f08(comm_old, ndims, dims, periods, weights, info, comm_cart, ierror)
    type(MPI_Comm), intent(in) :: comm_old
    integer, intent(in) :: ndims
    integer, intent(inout) :: dims(*)
    logical, intent(in) :: periods(*)
    double precision, intent(in) :: weights(*)
    type(MPI_Info), intent(in) :: info
    type(MPI_Comm), intent(out) :: comm_cart
    integer, intent(out), optional :: ierror
    call cart_weighted_int(comm_old%MPI_VAL, ndims, dims, periods, weights, info%MPI_VAL, &
                           comm_cart%MPI_VAL, ierror)
  end subroutine

  subroutine cart_mesh_int(comm_old, ndims, global_sizes, halo_widths, cost_factors, periods, &
                           info, dims, comm_cart, ierror)
    integer, intent(in) :: comm_old, ndims, info
    integer(c_int64_t), intent(in) :: global_sizes(*)
    integer, intent(in) :: halo_widths(*)
    double precision, intent(in) :: cost_factors(*)
    logical, intent(in) :: periods(*)
    integer, intent(inout) :: dims(*)
    integer, intent(out) :: comm_cart
    integer, intent(out), optional :: ierror
    integer(c_int) :: d(max(ndims, 1)), h(max(ndims, 1)), cart, rc
    d = 0
    h = 0
    if (ndims >= 1) then
      d(1:ndims) = int(dims(1:ndims), c_int)
      h(1:ndims) = int(halo_widths(1:ndims), c_int)
    end if
    cart = 0
    rc = c_cart_mesh(int(comm_old, c_int), int(ndims, c_int), global_sizes, h, cost_factors, &
                     c_periods(periods, ndims), int(info, c_int), d, cart)
    if (rc == HCART_SUCCESS) then
      if (ndims >= 1) dims(1:ndims) = int(d(1:ndims))
      comm_cart = int(cart)
    end if
    call set_ierror(rc, ierror)
  end subroutine

  subroutine cart_mesh_f08(comm_old, ndims, global_sizes, halo_widths, cost_factors, periods, &
                           info, dims, comm_cart, ierror)
    type(MPI_Comm), intent(in) :: comm_old
    integer, intent(in) :: ndims
    integer(c_int64_t), intent(in) :: global_sizes(*)
    integer, intent(in) :: halo_widths(*)
    double precision, intent(in) :: cost_factors(*)
    logical, intent(in) :: periods(*)
    type(MPI_Info), intent(in) :: info
    integer, intent(inout) :: dims(*)
    type(MPI_Comm), intent(out) :: comm_cart
    integer, intent(out), optional :: ierror
    call cart_mesh_int(comm_old%MPI_VAL, ndims, global_sizes, halo_widths, cost_factors, &
                       periods, info%MPI_VAL, dims, comm_cart%MPI_VAL, ierror)
  end subroutine

  ! The message of this process's last failed call (blank after a success).
  subroutine HCART_Error_message(message, resultlen, ierror)
    character(len=*), intent(out) :: message
    integer, intent(out) :: resultlen
    integer, intent(out), optional :: ierror
    character(kind=c_char) :: buffer(HCART_MAX_ERROR_STRING)
    integer(c_int) :: length, rc
    integer :: i
    rc = c_error_message(buffer, length)
    message = ' '
    resultlen = min(int(length), len(message))
    do i = 1, resultlen
      message(i:i) = buffer(i)
    end do
    call set_ierror(rc, ierror)
  end subroutine

end module hcart
