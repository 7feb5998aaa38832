! A plain Fortran 3D 7-point Jacobi with its own halo exchange (MPI_Cart_shift, MPI_Isend
! and MPI_Irecv of subarray faces). The process grid comes from hcart's module: those lines
! and the `use hcart`, under EXAMPLE_MPI_DIMS_CREATE below, are the only ones that differ
! from the MPI_Dims_create + MPI_Cart_create version (compiled with -DEXAMPLE_MPI_DIMS_CREATE).
!
!   mpif90 -O2 jacobi.F90 $(pkg-config --cflags --libs hcart-cart) -o jacobi
!   mpiexec -n 4 ./jacobi 96 64 32 100        ! nx ny nz iterations
!
! The same problem and output as examples/c/jacobi.c: the two print the same bits.
program jacobi
  use mpi_f08
#ifndef EXAMPLE_MPI_DIMS_CREATE
  use hcart
#endif
  implicit none
  integer :: n(3), nloc(3), lo(3), dims(3), coords(3), shift(3, 2), rank, size, iterations
  integer :: d, side, it, i, j, k, c(3), nargs
  logical :: periods(3) = .false.
  type(MPI_Comm) :: cart
  type(MPI_Datatype) :: face(3, 2), owned(3, 2)
  type(MPI_Request) :: requests(12)
  double precision, allocatable, target :: a(:, :, :), b(:, :, :)
  double precision, pointer :: u(:, :, :), v(:, :, :), t(:, :, :)
  double precision :: change, centre, next
  character(len=32) :: arg

  call MPI_Init()
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  n = [64, 64, 64]
  iterations = 100
  nargs = command_argument_count()
  do d = 1, min(nargs, 3)
    call get_command_argument(d, arg)
    read (arg, *) n(d)
  end do
  if (nargs >= 4) then
    call get_command_argument(4, arg)
    read (arg, *) iterations
  end if

  dims = 0
#ifdef EXAMPLE_MPI_DIMS_CREATE
  call MPI_Dims_create(size, 3, dims)
  call MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, .true., cart)
#else
  block
    integer :: ierr, length
    character(len=HCART_MAX_ERROR_STRING) :: message
    call HCART_Cart_mesh_create(MPI_COMM_WORLD, 3, int([n(1), n(2), n(3)], 8), [1, 1, 1], &
                                [1d0, 1d0, 1d0], periods, MPI_INFO_NULL, dims, cart, ierr)
    if (ierr /= HCART_SUCCESS) then
      call HCART_Error_message(message, length)
      write (0, '(2a)') 'jacobi: ', message(1:length)
      call MPI_Finalize()
      stop 2
    end if
  end block
#endif

  call MPI_Comm_rank(cart, rank)
  call MPI_Cart_coords(cart, rank, 3, coords)
  ! C order (k fastest) as the C example: the arrays are u(k, j, i), 0-based with halos.
  do d = 1, 3
    nloc(d) = n(d) / dims(d)
    lo(d) = coords(d) * nloc(d) + min(coords(d), mod(n(d), dims(d)))
    if (coords(d) < mod(n(d), dims(d))) nloc(d) = nloc(d) + 1
    call MPI_Cart_shift(cart, d - 1, 1, shift(d, 1), shift(d, 2))
  end do
  do d = 1, 3
    do side = 1, 2
      face(d, side) = subarray(d, merge(0, nloc(d) + 1, side == 1))
      owned(d, side) = subarray(d, merge(1, nloc(d), side == 1))
    end do
  end do
  allocate (a(0:nloc(3) + 1, 0:nloc(2) + 1, 0:nloc(1) + 1), source=0d0)
  allocate (b(0:nloc(3) + 1, 0:nloc(2) + 1, 0:nloc(1) + 1), source=0d0)
  u => a
  v => b
  if (coords(1) == 0) then ! the x = 0 boundary: u = 1 in the lower x halo
    u(:, :, 0) = 1d0
    v(:, :, 0) = 1d0
  end if

  change = 0d0
  do it = 1, iterations
    do d = 1, 3
      do side = 1, 2
        call MPI_Irecv(u, 1, face(d, side), shift(d, side), 2 * d + side, cart, &
                       requests(2 * (d - 1) + side))
        call MPI_Isend(u, 1, owned(d, side), shift(d, side), 2 * d + 3 - side, cart, &
                       requests(6 + 2 * (d - 1) + side))
      end do
    end do
    call MPI_Waitall(12, requests, MPI_STATUSES_IGNORE)
    change = 0d0
    do i = 1, nloc(1)
      do j = 1, nloc(2)
        do k = 1, nloc(3)
          next = (u(k, j, i - 1) + u(k, j, i + 1) + u(k, j - 1, i) + u(k, j + 1, i) + &
                  u(k - 1, j, i) + u(k + 1, j, i)) / 6d0
          change = max(change, abs(next - u(k, j, i)))
          v(k, j, i) = next
        end do
      end do
    end do
    t => u
    u => v
    v => t
  end do
  call MPI_Allreduce(MPI_IN_PLACE, change, 1, MPI_DOUBLE_PRECISION, MPI_MAX, cart)
  c = n / 2
  centre = -1d0
  if (all(c >= lo .and. c < lo + nloc)) &
    centre = u(c(3) - lo(3) + 1, c(2) - lo(2) + 1, c(1) - lo(1) + 1)
  call MPI_Allreduce(MPI_IN_PLACE, centre, 1, MPI_DOUBLE_PRECISION, MPI_MAX, cart)
  if (rank == 0) then
    print '(a,i0,a,i0,"x",i0,"x",i0,a,i0,"x",i0,"x",i0,a,i0,a)', 'jacobi: ', size, &
      ' ranks, grid ', dims, ', mesh ', n, ', ', iterations, ' iterations'
    print '(a,es23.16,a,es23.16)', 'jacobi: last change ', change, ', centre ', centre
  end if
  do d = 1, 3
    do side = 1, 2
      call MPI_Type_free(face(d, side))
      call MPI_Type_free(owned(d, side))
    end do
  end do
  call MPI_Comm_free(cart)
  call MPI_Finalize()

contains

  ! The plane `at` (0-based, halos included) perpendicular to direction d, owned part only.
  function subarray(d, at) result(type)
    integer, intent(in) :: d, at
    type(MPI_Datatype) :: type
    integer :: sizes(3), sub(3), start(3)
    sizes = [nloc(1), nloc(2), nloc(3)] + 2
    sub = nloc
    start = 1
    sub(d) = 1
    start(d) = at
    ! MPI_ORDER_C on the (i, j, k) shape: the same planes as the C example.
    call MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE_PRECISION, type)
    call MPI_Type_commit(type)
  end function

end program jacobi
