// A 2-D directionally split solver as real codes are written (docs/shallow2d.md): the shallow
// water equations on [0, 1]^2, periodic in x, walls in z, first-order Rusanov fluxes, Strang-
// like sweeps alternating xz / zx. What it shows of hcart's API:
//   - a 2-D mesh in the layout {nx, nz, 1}, run as fast as any other (for_each_cell's rows);
//   - exchanges by direction: the x sweep exchanges the x halos only, the z sweep the z
//     halos only (hcart::HaloDirections), so the bytes and messages per step are those of a
//     hand-written direction-by-direction exchange, which the program counts independently
//     from its block and prints beside the exchanger's counters;
//   - walls by name (hcart::Side), the normal momentum by the user's own rule (apply_rule);
//   - the same bits on any rank count and strategy: it prints a checksum of the final state's
//     bit patterns that does not depend on the order of the sum (integer, wrapping).
//
//   hcart-mpiexec -n 4 shallow2d [--nx 96] [--nz 64] [--steps 40] [--strategy hierarchical|mpi]
#include <hcart/hcart.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

constexpr double kGravity = 9.81;

// The state: depth h and the momenta hu (along x) and hw (along z).
struct State {
  hcart::Field<double> h, hu, hw;
};

struct Initial {
  hcart::FieldAccessor<double> h, hu, hw;
  long long first_x, first_z; // global index of local index 0 in x (direction 0), z (1)
  double dx, dz;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const double x = (first_x + i + 0.5) * dx - 0.5, z = (first_z + j + 0.5) * dz - 0.4;
    h(i, j, k) = 1.0 + 0.1 * hcart::math::exp(-(x * x + z * z) / 0.01);
    hu(i, j, k) = 0.0;
    hw(i, j, k) = 0.0;
  }
};

// One sweep along direction D (0: x, 1: z): u_new = u - dt/dx (F(i+1/2) - F(i-1/2)), the
// face fluxes Rusanov's (the mean of the two sides' fluxes less half the largest wave speed
// times the jump).
template <int D>
struct Sweep {
  hcart::FieldAccessor<const double> h, hu, hw;
  hcart::FieldAccessor<double> h_new, hu_new, hw_new;
  double ratio; // dt / dx along D

  // The flux across the face between cells a and b (b = a + 1 along D) of one component:
  // 0 depth, 1 the momentum along D, 2 the other.
  struct Side {
    double h, normal, other;
  };
  KOKKOS_INLINE_FUNCTION Side at(int i, int j, int k) const {
    return D == 0 ? Side{h(i, j, k), hu(i, j, k), hw(i, j, k)}
                  : Side{h(i, j, k), hw(i, j, k), hu(i, j, k)};
  }
  KOKKOS_INLINE_FUNCTION static void flux(const Side& l, const Side& r, double f[3]) {
    const double ul = l.normal / l.h, ur = r.normal / r.h;
    const double speed =
        hcart::math::fmax(hcart::math::fabs(ul) + hcart::math::sqrt(kGravity * l.h),
                          hcart::math::fabs(ur) + hcart::math::sqrt(kGravity * r.h));
    const double fl[3] = {l.normal, l.normal * ul + 0.5 * kGravity * l.h * l.h, l.other * ul};
    const double fr[3] = {r.normal, r.normal * ur + 0.5 * kGravity * r.h * r.h, r.other * ur};
    const double jump[3] = {r.h - l.h, r.normal - l.normal, r.other - l.other};
    for (int c = 0; c < 3; ++c)
      f[c] = 0.5 * (fl[c] + fr[c]) - 0.5 * speed * jump[c];
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k) const {
    const int di = D == 0 ? 1 : 0, dj = D == 1 ? 1 : 0;
    const Side left = at(i - di, j - dj, k), here = at(i, j, k), right = at(i + di, j + dj, k);
    double low[3], high[3];
    flux(left, here, low);
    flux(here, right, high);
    const double normal = here.normal - ratio * (high[1] - low[1]);
    const double other = here.other - ratio * (high[2] - low[2]);
    h_new(i, j, k) = here.h - ratio * (high[0] - low[0]);
    (D == 0 ? hu_new : hw_new)(i, j, k) = normal;
    (D == 0 ? hw_new : hu_new)(i, j, k) = other;
  }
};

// The largest wave speed over x and z, for the time step.
struct WaveSpeed {
  hcart::FieldAccessor<const double> h, hu, hw;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& fastest) const {
    const double c = hcart::math::sqrt(kGravity * h(i, j, k));
    const double s = hcart::math::fmax(hcart::math::fabs(hu(i, j, k) / h(i, j, k)),
                                       hcart::math::fabs(hw(i, j, k) / h(i, j, k))) +
                     c;
    fastest = s > fastest ? s : fastest;
  }
};

struct Mass {
  hcart::FieldAccessor<const double> h;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, double& sum) const {
    sum += h(i, j, k);
  }
};

// A checksum of the state's bit patterns, each weighted by its global cell: unsigned and
// wrapping, so the sum is the same in any order, on any decomposition.
struct Checksum {
  hcart::FieldAccessor<const double> h, hu, hw;
  long long first_x, first_z, nz;
  KOKKOS_INLINE_FUNCTION static std::uint64_t bits(double v) {
    std::uint64_t b = 0;
    memcpy(&b, &v, sizeof b);
    return b;
  }
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j, int k, std::uint64_t& sum) const {
    const auto cell = static_cast<std::uint64_t>((first_x + i) * nz + (first_z + j)) + 1;
    sum += cell * (bits(h(i, j, k)) + 3 * bits(hu(i, j, k)) + 7 * bits(hw(i, j, k)));
  }
};

// The wall's rule for the normal momentum (hw at z's walls): its mirror image with the sign
// turned, so that no water crosses the wall (the user's own rule; reflecting_odd() says the
// same, and the two agree bit for bit).
struct NoFlow {
  KOKKOS_INLINE_FUNCTION double operator()(const hcart::Inside<double>& inside,
                                           const hcart::Ghost& ghost) const {
    return -inside(ghost.layer);
  }
};

// Collective sums and maxima over the ranks.
double all(double mine, MPI_Op op, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_DOUBLE, op, comm);
  return mine;
}
long long all(long long mine, MPI_Op op, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_LONG_LONG, op, comm);
  return mine;
}
unsigned long long all(unsigned long long mine, MPI_Op op, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_UNSIGNED_LONG_LONG, op, comm);
  return mine;
}

long long option(int argc, char** argv, const std::string& name, long long fallback) {
  for (int a = 1; a + 1 < argc; ++a)
    if (name == argv[a]) return std::stoll(argv[a + 1]);
  return fallback;
}

} // namespace

int shallow2d(hcart::Environment& env, int argc, char** argv) {
  const long long nx = option(argc, argv, "--nx", 96), nz = option(argc, argv, "--nz", 64);
  const long long steps = option(argc, argv, "--steps", 40);
  std::string strategy = "hierarchical";
  for (int a = 1; a + 1 < argc; ++a)
    if (std::string(argv[a]) == "--strategy") strategy = argv[a + 1];

  // The mesh: x in direction 0 (periodic), z in direction 1 (walls), one cell and no halo in
  // direction 2: the layout {nx, nz, 1} runs as fast as {1, nz, nx} (docs/api-guide.md).
  hcart::GridSpec spec;
  spec.global_size = {nx, nz, 1};
  spec.halo_width = {1, 1, 0};
  spec.periodic = {true, false, false};
  hcart::DecompositionOptions options;
  options.strategy = hcart::parse_strategy(strategy);
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec, options);
  const hcart::Grid grid(decomp);
  const double dx = 1.0 / static_cast<double>(nx), dz = 1.0 / static_cast<double>(nz);
  const long long first_x = grid.global_index(0, 0), first_z = grid.global_index(1, 0);

  State u{grid.make_field<double>("h"), grid.make_field<double>("hu"),
          grid.make_field<double>("hw")};
  State next{grid.make_field<double>("h_new"), grid.make_field<double>("hu_new"),
             grid.make_field<double>("hw_new")};
  hcart::for_each_cell("initial", grid.owned_box(),
                       Initial{hcart::accessor(u.h), hcart::accessor(u.hu), hcart::accessor(u.hw),
                               first_x, first_z, dx, dz});

  hcart::HaloExchanger halo(grid);
  const hcart::PhysicalBoundaries walls(grid);
  using BC = hcart::BoundaryCondition;
  using hcart::Side;
  // Fills the halos a sweep along d reads: that direction's only, then z's walls.
  const auto refresh = [&](const State& s, int d) {
    halo.exchange(hcart::HaloDirections{d}, s.h, s.hu, s.hw);
    if (d != 1) return; // x is periodic: no walls
    walls.apply(s.h, {{Side::y_low, BC::reflecting()}, {Side::y_high, BC::reflecting()}});
    walls.apply(s.hu, {{Side::y_low, BC::reflecting()}, {Side::y_high, BC::reflecting()}});
    walls.apply_rule(s.hw, {Side::y_low, Side::y_high}, NoFlow{});
  };
  const auto sweep = [&](int d, double dt) {
    refresh(u, d);
    const double ratio = dt / (d == 0 ? dx : dz);
    if (d == 0) {
      hcart::for_each_cell("sweep_x", grid.owned_box(),
                           Sweep<0>{hcart::accessor(u.h), hcart::accessor(u.hu),
                                    hcart::accessor(u.hw), hcart::accessor(next.h),
                                    hcart::accessor(next.hu), hcart::accessor(next.hw), ratio});
    } else {
      hcart::for_each_cell("sweep_z", grid.owned_box(),
                           Sweep<1>{hcart::accessor(u.h), hcart::accessor(u.hu),
                                    hcart::accessor(u.hw), hcart::accessor(next.h),
                                    hcart::accessor(next.hu), hcart::accessor(next.hw), ratio});
    }
    std::swap(u, next);
  };
  const auto mass = [&] {
    double m = 0;
    hcart::reduce_cells("mass", grid.owned_box(), Mass{hcart::accessor(u.h)}, m);
    return all(m, MPI_SUM, decomp.comm()) * dx * dz;
  };

  const double mass0 = mass();
  double t = 0;
  for (long long n = 0; n < steps; ++n) {
    double fastest = 0;
    hcart::reduce_cells(
        "wave_speed", grid.owned_box(),
        WaveSpeed{hcart::accessor(u.h), hcart::accessor(u.hu), hcart::accessor(u.hw)},
        Kokkos::Max<double>(fastest));
    fastest = all(fastest, MPI_MAX, decomp.comm());
    const double dt = 0.4 * (dx < dz ? dx : dz) / fastest;
    for (int s = 0; s < 2; ++s)
      sweep(n % 2 == 0 ? s : 1 - s, dt);
    t += dt;
  }
  hcart::fence("shallow2d");

  // The bytes and messages a hand-written exchange of one direction per sweep sends, from
  // this rank's block alone: 3 fields, one layer, to each neighbour across that direction
  // that is another rank; twice per step (an x sweep and a z sweep).
  const auto& block = grid.block();
  long long hand_bytes = 0, hand_messages = 0;
  for (int d = 0; d < 2; ++d)
    for (int side : {-1, +1}) {
      std::array<int, 3> offset{0, 0, 0};
      offset[d] = side;
      if (block.at(offset).across != hcart::Across::OtherRank) continue;
      hand_bytes += 3LL * 8 * grid.local_size()[1 - d];
      ++hand_messages;
    }
  hand_bytes = all(hand_bytes * steps, MPI_SUM, decomp.comm());
  hand_messages = all(hand_messages * steps, MPI_SUM, decomp.comm());
  long long sent_bytes = 0, sent_messages = 0;
  const hcart::HaloCounters& c = halo.counters();
  for (std::size_t l = 0; l + 1 < c.bytes.size(); ++l) { // every level but "self"
    sent_bytes += c.bytes[l];
    sent_messages += c.messages[l];
  }
  sent_bytes = all(sent_bytes, MPI_SUM, decomp.comm());
  sent_messages = all(sent_messages, MPI_SUM, decomp.comm());

  std::uint64_t sum = 0;
  hcart::reduce_cells("checksum", grid.owned_box(),
                      Checksum{hcart::accessor(u.h), hcart::accessor(u.hu), hcart::accessor(u.hw),
                               first_x, first_z, nz},
                      sum);
  const auto checksum = all(static_cast<unsigned long long>(sum), MPI_SUM, decomp.comm());
  const double mass1 = mass();
  const bool conserved = std::abs(mass1 - mass0) <= 1e-12 * mass0;
  const bool as_by_hand = sent_bytes == hand_bytes && sent_messages == hand_messages;
  if (env.rank() == 0) {
    std::printf(
        "shallow2d: %lld x %lld cells, %d ranks (dims %lld x %lld), %lld steps to t = %.6f\n", nx,
        nz, env.size(), static_cast<long long>(decomp.dims()[0]),
        static_cast<long long>(decomp.dims()[1]), steps, t);
    std::printf("shallow2d: mass %.15f -> %.15f (%s)\n", mass0, mass1,
                conserved ? "conserved" : "NOT conserved");
    std::printf("shallow2d: halo bytes %lld in %lld messages; a hand-written exchange by "
                "direction: %lld in %lld (%s)\n",
                sent_bytes, sent_messages, hand_bytes, hand_messages,
                as_by_hand ? "the same" : "DIFFERENT");
    std::printf("shallow2d: state checksum %016llx\n", checksum);
    if (conserved && as_by_hand) std::printf("shallow2d: ok\n");
  }
  return conserved && as_by_hand ? 0 : 1;
}

int main(int argc, char** argv) {
  return hcart::run_main(argc, argv, "shallow2d",
                         [&](hcart::Environment& env) { return shallow2d(env, argc, argv); });
}
