! The Fortran module hcart with mpi_f08 handles and with `use mpi`-style integer handles:
! both give the dims and places of the C interface, and errors come back in ierror with the
! message. Prints "fortran interface: ok" on rank 0 when every check passed; stops with
! code 1 otherwise.
program cart_fortran
  use mpi_f08
  use hcart
  implicit none
  integer :: rank, size, ierr, dims(3), local_dims(3), int_dims(3), coords(3), int_coords(3)
  integer :: cart_rank, int_cart_rank, int_cart, length, failures, all_failures
  type(MPI_Comm) :: cart, bad_cart
  type(MPI_Info) :: info
  character(len=64) :: machine
  character(len=HCART_MAX_ERROR_STRING) :: message
  double precision :: weights(3) = [1d0, 3d0, 9d0]
  logical :: periods(3) = [.true., .false., .false.]

  failures = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  write (machine, '(a,i0)') 'node:1 core:', size
  call MPI_Info_create(info)
  call MPI_Info_set(info, 'hcart_machine', trim(machine))

  ! mpi_f08 handles.
  dims = 0
  call HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, weights, info, cart, ierr)
  call check(ierr == HCART_SUCCESS, 'f08 create succeeds')
  call check(product(dims) == size, 'dims multiply to the size')
  call MPI_Comm_rank(cart, cart_rank)
  call MPI_Cart_coords(cart, cart_rank, 3, coords)

  ! Integer handles: the same grid and place.
  int_dims = 0
  call HCART_Cart_weighted_create(MPI_COMM_WORLD%MPI_VAL, 3, int_dims, periods, weights, &
                                  info%MPI_VAL, int_cart, ierr)
  call check(ierr == HCART_SUCCESS, 'integer-handle create succeeds')
  call check(all(int_dims == dims), 'the same dims through integer handles')
  block
    type(MPI_Comm) :: wrapped
    wrapped%MPI_VAL = int_cart
    call MPI_Comm_rank(wrapped, int_cart_rank)
    call MPI_Cart_coords(wrapped, int_cart_rank, 3, int_coords)
    call check(int_cart_rank == cart_rank, 'the same Cartesian rank')
    call check(all(int_coords == coords), 'the same coordinates')
    call MPI_Comm_free(wrapped)
  end block
  call MPI_Comm_free(cart)

  ! Without a communicator (non-periodic, as the C test): the dims of a non-periodic create.
  periods = .false.
  dims = 0
  call HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, weights, info, cart, ierr)
  call MPI_Comm_free(cart)
  local_dims = 0
  call HCART_Dims_create_weighted(size, 3, weights, info, local_dims, ierr)
  call check(ierr == HCART_SUCCESS, 'dims create succeeds')
  call check(all(local_dims == dims), 'dims create gives the same dims')
  local_dims = 0
  call HCART_Dims_create_weighted(size, 3, HCART_WEIGHTS_EQUAL, info, local_dims, ierr)
  call check(ierr == HCART_SUCCESS .and. product(local_dims) == size, 'equal weights')

  ! The mesh call.
  dims = 0
  call HCART_Cart_mesh_create(MPI_COMM_WORLD, 3, [64_8, 32_8, 16_8], [1, 1, 1], &
                              [1d0, 1d0, 1d0], periods, info, dims, cart, ierr)
  call check(ierr == HCART_SUCCESS .and. product(dims) == size, 'mesh create')
  call MPI_Comm_free(cart)

  ! An error: ierror and the message, on every rank.
  dims = 0
  call HCART_Cart_weighted_create(MPI_COMM_WORLD, 4, dims, periods, weights, info, bad_cart, ierr)
  call check(ierr == HCART_ERR_ARG, 'ndims 4 is refused')
  call HCART_Error_message(message, length)
  call check(index(message, 'ndims = 4, expected 1 to 3') > 0, 'the message names ndims')
  call check(length == len_trim(message), 'the message length')

  call MPI_Info_free(info)
  call MPI_Allreduce(failures, all_failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0 .and. all_failures == 0) print '(a,i0,a)', 'fortran interface: ok (', size, ' ranks)'
  call MPI_Finalize()
  if (all_failures /= 0) stop 1

contains

  subroutine check(condition, what)
    logical, intent(in) :: condition
    character(len=*), intent(in) :: what
    if (.not. condition) then
      print '(a,i0,2a)', 'rank ', rank, ': check failed: ', what
      failures = failures + 1
    end if
  end subroutine

end program cart_fortran
