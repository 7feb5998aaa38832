// The C interface (hcart/cart.h) against the C++ API it stands for: for every synthetic
// machine of the rank count, strategy and mesh, HCART_Cart_mesh_create gives the dims of
// hcart::Decomposition and puts every world rank at the same Cartesian rank and
// coordinates; the weights-only calls agree with a Decomposition given the same weights;
// a halo exchanged through MPI_Cart_shift on the C communicator holds the neighbours'
// global indices; and bad input is the same error code and message on every rank.
#include "SyntheticMachines.hpp"
#include "WorldRanks.hpp"

#include <hcart/cart.h>
#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using hcart::test::machines_for;
using hcart::test::world_rank;
using hcart::test::world_size;

namespace {

// An MPI_Info holding the given keys and values (freed by its owner).
struct Info {
  MPI_Info info = MPI_INFO_NULL;
  Info(std::initializer_list<std::pair<const char*, std::string>> entries) {
    MPI_Info_create(&info);
    for (const auto& [key, value] : entries)
      MPI_Info_set(info, key, value.c_str());
  }
  ~Info() { MPI_Info_free(&info); }
  Info(const Info&) = delete;
  Info& operator=(const Info&) = delete;
};

std::string last_message() {
  char text[HCART_MAX_ERROR_STRING];
  int length = -1;
  EXPECT_EQ(HCART_Error_message(text, &length), HCART_SUCCESS);
  EXPECT_EQ(static_cast<int>(std::string(text).size()), length);
  return text;
}

// Cartesian rank and coordinates (padded to 3) of this process in `cart`.
struct Place {
  int rank = -1;
  std::array<int, 3> coords{{0, 0, 0}};
};

Place place_in(MPI_Comm cart, int ndims) {
  Place p;
  MPI_Comm_rank(cart, &p.rank);
  MPI_Cart_coords(cart, p.rank, ndims, p.coords.data());
  return p;
}

struct MeshCase {
  std::array<std::int64_t, 3> size;
  std::array<int, 3> halo;
  std::array<double, 3> cost;
  std::array<int, 3> periods;
};

const MeshCase kMeshes[] = {
    {{64, 64, 64}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}},
    {{200, 30, 17}, {2, 1, 1}, {1, 1, 1}, {1, 0, 1}},      // uneven blocks, periodic
    {{48, 96, 40}, {1, 2, 1}, {1.0, 0.5, 3.0}, {0, 1, 0}}, // cost factors
};

} // namespace

// The mesh call against hcart::Decomposition: dims, and every rank's place, bit for bit, on
// every synthetic machine of the rank count and on the detected one ("": across the hosts
// of the emulated cluster in cluster.halo).
TEST(CartInterface, MeshCallPlacesAsDecomposition) {
  const int size = world_size();
  // HCART_TEST_CART_DETECTED=only (the cluster case): the detected machine alone.
  const char* only = std::getenv("HCART_TEST_CART_DETECTED");
  std::vector<std::string> machines;
  if (only == nullptr || std::string(only) != "only") machines = machines_for(size);
  machines.push_back("");
  for (const std::string& machine : machines) {
    for (const char* strategy : {"hierarchical", "weighted", "levelwise", "mpi"}) {
      for (const char* placement : {"block", "round-robin"}) {
        // Placement names a synthetic machine's numbering: the detected one, once.
        if (machine.empty() && std::string(placement) != "block") continue;
        for (const MeshCase& m : kMeshes) {
          SCOPED_TRACE(machine + " " + strategy + " " + placement);
          hcart::GridSpec spec;
          spec.global_size = m.size;
          spec.halo_width = m.halo;
          spec.cost_factor = m.cost;
          for (int i = 0; i < 3; ++i)
            spec.periodic[i] = m.periods[i] != 0;
          hcart::DecompositionOptions options;
          options.strategy = hcart::parse_strategy(strategy);
          options.machine = machine;
          options.placement = hcart::parse_placement(placement);
          const hcart::Decomposition d(MPI_COMM_WORLD, spec, options);

          Info info({{"hcart_strategy", strategy}, {"hcart_placement", placement}});
          if (!machine.empty()) MPI_Info_set(info.info, "hcart_machine", machine.c_str());
          int dims[3] = {0, 0, 0};
          MPI_Comm cart = MPI_COMM_NULL;
          ASSERT_EQ(HCART_Cart_mesh_create(MPI_COMM_WORLD, 3, m.size.data(), m.halo.data(),
                                           m.cost.data(), m.periods.data(), info.info, dims, &cart),
                    HCART_SUCCESS)
              << last_message();
          EXPECT_EQ((std::array<int, 3>{dims[0], dims[1], dims[2]}), d.dims());
          const Place p = place_in(cart, 3);
          EXPECT_EQ(p.rank, d.rank());
          EXPECT_EQ(p.coords, d.coords());
          int topology = MPI_UNDEFINED;
          MPI_Topo_test(cart, &topology);
          EXPECT_EQ(topology, MPI_CART);
          MPI_Comm_free(&cart);
        }
      }
    }
  }
}

// The weights-only calls: the dims and places of a Decomposition given the same weights on
// a mesh the grid divides; HCART_Dims_create_weighted's dims are the same without a
// communicator; fixed dims are kept; one and two dimensions give grids of that many.
TEST(CartInterface, WeightedCallsAgreeWithDecompositionAndDimsCreate) {
  const int size = world_size();
  const std::vector<std::array<double, 3>> weight_sets = {{1, 1, 1}, {1, 1, 4}, {9, 2, 0.5}};
  for (const std::string& machine : machines_for(size)) {
    for (const auto& w : weight_sets) {
      for (const std::array<int, 3> fixed :
           {std::array<int, 3>{0, 0, 0}, std::array<int, 3>{0, 0, 1},
            std::array<int, 3>{size, 0, 0}}) {
        SCOPED_TRACE(machine);
        hcart::GridSpec spec;
        spec.global_size = {size, size, size};
        hcart::DecompositionOptions options;
        options.machine = machine;
        options.weights.assign(w.begin(), w.end());
        options.dims = fixed;
        const hcart::Decomposition d(MPI_COMM_WORLD, spec, options);

        Info info({{"hcart_machine", machine}});
        int dims[3] = {fixed[0], fixed[1], fixed[2]};
        const int periods[3] = {0, 0, 0};
        MPI_Comm cart = MPI_COMM_NULL;
        ASSERT_EQ(HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, w.data(), info.info,
                                             &cart),
                  HCART_SUCCESS)
            << last_message();
        EXPECT_EQ((std::array<int, 3>{dims[0], dims[1], dims[2]}), d.dims());
        const Place p = place_in(cart, 3);
        EXPECT_EQ(p.rank, d.rank());
        EXPECT_EQ(p.coords, d.coords());
        MPI_Comm_free(&cart);

        int local_dims[3] = {fixed[0], fixed[1], fixed[2]};
        ASSERT_EQ(HCART_Dims_create_weighted(size, 3, w.data(), info.info, local_dims),
                  HCART_SUCCESS)
            << last_message();
        EXPECT_EQ((std::array<int, 3>{local_dims[0], local_dims[1], local_dims[2]}), d.dims());
        if (fixed[0] > 0) {
          EXPECT_EQ(local_dims[0], fixed[0]);
        }
      }
    }
    // Fewer dimensions: an ndims-dimensional grid, in the order of the padded 3D plan.
    for (int ndims : {1, 2}) {
      hcart::GridSpec spec;
      spec.global_size = {size, ndims == 2 ? size : 1, 1};
      spec.halo_width = {1, ndims == 2 ? 1 : 0, 0};
      hcart::DecompositionOptions options;
      options.machine = machine;
      options.weights = {1.0, ndims == 2 ? 3.0 : 0.0, 0.0};
      options.dims = {0, ndims == 2 ? 0 : 1, 1};
      const hcart::Decomposition d(MPI_COMM_WORLD, spec, options);
      Info info({{"hcart_machine", machine}});
      int dims[2] = {0, 0};
      const int periods[2] = {1, 0};
      const double weights[2] = {1.0, 3.0};
      MPI_Comm cart = MPI_COMM_NULL;
      ASSERT_EQ(HCART_Cart_weighted_create(MPI_COMM_WORLD, ndims, dims, periods, weights, info.info,
                                           &cart),
                HCART_SUCCESS)
          << last_message();
      int cart_dims = 0;
      MPI_Cartdim_get(cart, &cart_dims);
      EXPECT_EQ(cart_dims, ndims);
      EXPECT_EQ(dims[0], d.dims()[0]);
      if (ndims == 2) {
        EXPECT_EQ(dims[1], d.dims()[1]);
      }
      const Place p = place_in(cart, ndims);
      EXPECT_EQ(p.rank, d.rank());
      EXPECT_EQ(p.coords[0], d.coords()[0]);
      MPI_Comm_free(&cart);
    }
  }
}

// A halo exchanged by hand through the C communicator (MPI_Cart_shift, MPI_Sendrecv), as a
// C code does: every halo cell holds the global index of the cell it mirrors, periodic
// wrap included, on a mesh the grid does not divide evenly.
TEST(CartInterface, HandWrittenHaloOnTheCartesianCommunicator) {
  const std::int64_t g[3] = {13, 11, 7};
  const int halo[3] = {1, 1, 1}, periods[3] = {1, 0, 1};
  int dims[3] = {0, 0, 0};
  MPI_Comm cart = MPI_COMM_NULL;
  ASSERT_EQ(HCART_Cart_mesh_create(MPI_COMM_WORLD, 3, g, halo, nullptr, periods, MPI_INFO_NULL,
                                   dims, &cart),
            HCART_SUCCESS)
      << last_message();
  int rank = 0, coords[3];
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 3, coords);
  // The balanced block rule: the first g % d blocks one larger.
  std::int64_t lo[3], n[3];
  for (int i = 0; i < 3; ++i) {
    const std::int64_t base = g[i] / dims[i], extra = g[i] % dims[i];
    n[i] = base + (coords[i] < extra ? 1 : 0);
    lo[i] = coords[i] * base + (coords[i] < extra ? coords[i] : extra);
  }
  const std::int64_t nx = n[0] + 2, ny = n[1] + 2, nz = n[2] + 2;
  auto at = [&](std::int64_t i, std::int64_t j, std::int64_t k) { return (i * ny + j) * nz + k; };
  auto global_index = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
    return static_cast<double>((i * g[1] + j) * g[2] + k);
  };
  std::vector<double> u(static_cast<std::size_t>(nx * ny * nz), -1.0);
  for (std::int64_t i = 1; i <= n[0]; ++i)
    for (std::int64_t j = 1; j <= n[1]; ++j)
      for (std::int64_t k = 1; k <= n[2]; ++k)
        u[at(i, j, k)] = global_index(lo[0] + i - 1, lo[1] + j - 1, lo[2] + k - 1);
  // Faces one direction after another (each including the halo of the directions done), so
  // that edges and corners arrive too.
  for (int dir = 0; dir < 3; ++dir) {
    int down = MPI_PROC_NULL, up = MPI_PROC_NULL;
    MPI_Cart_shift(cart, dir, 1, &down, &up);
    std::int64_t ext[3] = {nx, ny, nz};
    for (int side = 0; side < 2; ++side) {
      // side 0: send the last owned plane up, receive the lower halo from down.
      const std::int64_t send_plane = side == 0 ? n[dir] : 1;
      const std::int64_t recv_plane = side == 0 ? 0 : n[dir] + 1;
      std::vector<double> out, in;
      for (std::int64_t a = 0; a < ext[(dir + 1) % 3]; ++a)
        for (std::int64_t b = 0; b < ext[(dir + 2) % 3]; ++b) {
          std::int64_t idx[3];
          idx[dir] = send_plane, idx[(dir + 1) % 3] = a, idx[(dir + 2) % 3] = b;
          out.push_back(u[at(idx[0], idx[1], idx[2])]);
        }
      in.assign(out.size(), -2.0);
      const int to = side == 0 ? up : down, from = side == 0 ? down : up;
      MPI_Sendrecv(out.data(), static_cast<int>(out.size()), MPI_DOUBLE, to, dir, in.data(),
                   static_cast<int>(in.size()), MPI_DOUBLE, from, dir, cart, MPI_STATUS_IGNORE);
      if (from == MPI_PROC_NULL) continue;
      std::size_t t = 0;
      for (std::int64_t a = 0; a < ext[(dir + 1) % 3]; ++a)
        for (std::int64_t b = 0; b < ext[(dir + 2) % 3]; ++b) {
          std::int64_t idx[3];
          idx[dir] = recv_plane, idx[(dir + 1) % 3] = a, idx[(dir + 2) % 3] = b;
          u[at(idx[0], idx[1], idx[2])] = in[t++];
        }
    }
  }
  long wrong = 0, checked = 0;
  for (std::int64_t i = 0; i < nx; ++i)
    for (std::int64_t j = 0; j < ny; ++j)
      for (std::int64_t k = 0; k < nz; ++k) {
        std::int64_t gi[3] = {lo[0] + i - 1, lo[1] + j - 1, lo[2] + k - 1};
        bool outside = false;
        for (int d = 0; d < 3; ++d) {
          if (gi[d] < 0 || gi[d] >= g[d]) {
            if (periods[d])
              gi[d] = (gi[d] + g[d]) % g[d];
            else
              outside = true;
          }
        }
        if (outside) continue;
        ++checked;
        wrong += u[at(i, j, k)] != global_index(gi[0], gi[1], gi[2]);
      }
  EXPECT_EQ(wrong, 0) << "of " << checked << " cells";
  MPI_Comm_free(&cart);
}

// Bad input: the code and the message, the same on every rank; nothing created.
TEST(CartInterface, BadInputIsTheSameErrorOnEveryRank) {
  const int size = world_size();
  const int periods[3] = {0, 0, 0};
  const double ones[3] = {1, 1, 1};
  struct Case {
    const char* what;
    int ndims;
    std::array<int, 3> dims;
    std::array<double, 3> weights;
    const char* expect;
  };
  const Case cases[] = {
      {"ndims 0", 0, {0, 0, 0}, {1, 1, 1}, "ndims = 0, expected 1 to 3"},
      {"ndims 4", 4, {0, 0, 0}, {1, 1, 1}, "ndims = 4, expected 1 to 3"},
      {"negative weight",
       3,
       {0, 0, 0},
       {1, -2, 1},
       "weights[1] = -2, expected a finite value >= 0"},
      {"negative dims", 3, {0, -1, 0}, {1, 1, 1}, "dims[1] = -1, expected 0 (free)"},
      {"dims not dividing", 3, {size + 1, 0, 0}, {1, 1, 1}, "do not divide the"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    int dims[3] = {c.dims[0], c.dims[1], c.dims[2]};
    MPI_Comm cart = MPI_COMM_NULL;
    EXPECT_EQ(HCART_Cart_weighted_create(MPI_COMM_WORLD, c.ndims, dims, periods, c.weights.data(),
                                         MPI_INFO_NULL, &cart),
              HCART_ERR_ARG);
    EXPECT_EQ(cart, MPI_COMM_NULL);
    const std::string message = last_message();
    EXPECT_NE(message.find(c.expect), std::string::npos) << message;
  }
  // NULL pointers.
  int dims[3] = {0, 0, 0};
  MPI_Comm cart = MPI_COMM_NULL;
  EXPECT_EQ(
      HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, nullptr, MPI_INFO_NULL, &cart),
      HCART_ERR_ARG);
  EXPECT_NE(last_message().find("weights is NULL"), std::string::npos);
  EXPECT_EQ(
      HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, nullptr, periods, ones, MPI_INFO_NULL, &cart),
      HCART_ERR_ARG);
  EXPECT_NE(last_message().find("dims is NULL"), std::string::npos);
  EXPECT_EQ(
      HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, nullptr, ones, MPI_INFO_NULL, &cart),
      HCART_ERR_ARG);
  EXPECT_NE(last_message().find("periods is NULL"), std::string::npos);
  EXPECT_EQ(
      HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, ones, MPI_INFO_NULL, nullptr),
      HCART_ERR_ARG);
  EXPECT_NE(last_message().find("comm_cart is NULL"), std::string::npos);
  // Info values and keys.
  {
    Info info({{"hcart_strategy", "fastest"}});
    EXPECT_EQ(HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, ones, info.info, &cart),
              HCART_ERR_ARG);
    EXPECT_NE(last_message().find("fastest"), std::string::npos);
  }
  {
    Info info({{"hcart_stratgy", "weighted"}});
    EXPECT_EQ(HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, ones, info.info, &cart),
              HCART_ERR_ARG);
    EXPECT_NE(last_message().find("info key 'hcart_stratgy'"), std::string::npos);
  }
  {
    Info info({{"hcart_machine", "node:" + std::to_string(size + 1)}});
    EXPECT_EQ(HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, ones, info.info, &cart),
              HCART_ERR_ARG);
    EXPECT_NE(last_message().find("ranks, but the communicator has"), std::string::npos);
  }
  {
    Info info({{"other_library_key", "anything"}}); // not hcart's: ignored
    EXPECT_EQ(HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, ones, info.info, &cart),
              HCART_SUCCESS)
        << last_message();
    EXPECT_EQ(last_message(), "");
    MPI_Comm_free(&cart);
  }
  // A bad mesh: the C++ API's message.
  const std::int64_t g[3] = {0, 8, 8};
  const int halo[3] = {1, 1, 1};
  int mdims[3] = {0, 0, 0};
  EXPECT_EQ(HCART_Cart_mesh_create(MPI_COMM_WORLD, 3, g, halo, nullptr, periods, MPI_INFO_NULL,
                                   mdims, &cart),
            HCART_ERR_ARG);
  EXPECT_NE(last_message().find("0"), std::string::npos);
  // Fixed dims that do not divide the ranks, in 2-D: the call named, the caller's two dims
  // (not hcart's padded three).
  const std::int64_t g2[2] = {250, 250};
  int dims2[2] = {0, size + 1};
  EXPECT_EQ(HCART_Cart_mesh_create(MPI_COMM_WORLD, 2, g2, halo, nullptr, periods, MPI_INFO_NULL,
                                   dims2, &cart),
            HCART_ERR_ARG);
  EXPECT_EQ(last_message().rfind("HCART_Cart_mesh_create: fixed dims 0," +
                                     std::to_string(size + 1) + " (product " +
                                     std::to_string(size + 1) + ") do not divide",
                                 0),
            0u)
      << last_message();
  // Fixed dims whose product passes 64 bits: named so, no arithmetic fault.
  const std::int64_t big[3] = {std::int64_t{1} << 40, std::int64_t{1} << 40, std::int64_t{1} << 40};
  int huge[3] = {2147483647, 2147483647, 2147483647};
  EXPECT_EQ(HCART_Cart_mesh_create(MPI_COMM_WORLD, 3, big, halo, nullptr, periods, MPI_INFO_NULL,
                                   huge, &cart),
            HCART_ERR_ARG);
  EXPECT_NE(last_message().find("(product past 2^63) do not divide"), std::string::npos)
      << last_message();
  // A mesh that cannot be split so: the planner's message, after the call's name.
  const std::int64_t tiny[2] = {1, 1};
  int dims3[2] = {0, 0};
  if (size > 1) {
    EXPECT_EQ(HCART_Cart_mesh_create(MPI_COMM_WORLD, 2, tiny, halo, nullptr, periods, MPI_INFO_NULL,
                                     dims3, &cart),
              HCART_ERR_ARG);
    EXPECT_EQ(last_message().rfind("HCART_Cart_mesh_create: ", 0), 0u) << last_message();
  }
  // The local call.
  int ldims[2] = {0, 0};
  EXPECT_EQ(HCART_Dims_create_weighted(0, 2, HCART_WEIGHTS_EQUAL, MPI_INFO_NULL, ldims),
            HCART_ERR_ARG);
  EXPECT_NE(last_message().find("nnodes = 0, expected at least 1"), std::string::npos);
}

// hcart_equal_blocks: a code that requires blocks of one size gets dims that divide its
// mesh (250x30 cells: 4 ranks give 4x1 by default, 2x2 with the key), in the places a
// Decomposition with DecompositionOptions::equal_blocks gives, under every strategy; where
// no grid of the ranks divides the mesh (8 ranks: 250 and 30 hold one factor 2 each) every
// rank returns the same error; a value other than true, false, 1 or 0 is refused.
TEST(CartInterface, EqualBlocksInfoKey) {
  const int size = world_size();
  const std::int64_t g[2] = {250, 30};
  const int halo[2] = {1, 1}, periods[2] = {0, 0};
  bool exists = false;
  for (int a = 1; a <= size; ++a)
    exists = exists || (size % a == 0 && g[0] % a == 0 && g[1] % (size / a) == 0);
  const std::string machine = "node:" + std::to_string(size);
  for (const char* strategy : {"hierarchical", "weighted", "levelwise", "mpi"}) {
    SCOPED_TRACE(strategy);
    Info info(
        {{"hcart_equal_blocks", "true"}, {"hcart_strategy", strategy}, {"hcart_machine", machine}});
    int dims[2] = {0, 0};
    MPI_Comm cart = MPI_COMM_NULL;
    const int rc = HCART_Cart_mesh_create(MPI_COMM_WORLD, 2, g, halo, nullptr, periods, info.info,
                                          dims, &cart);
    if (!exists) {
      EXPECT_EQ(rc, HCART_ERR_ARG);
      EXPECT_NE(last_message().find("equal blocks: "), std::string::npos) << last_message();
      continue;
    }
    hcart::GridSpec spec;
    spec.global_size = {g[0], g[1], 1};
    spec.halo_width = {1, 1, 0};
    hcart::DecompositionOptions options;
    options.strategy = hcart::parse_strategy(strategy);
    options.machine = machine;
    options.equal_blocks = true;
    if (std::string(strategy) == "mpi") {
      // MPI_Dims_create's grid stands or the call fails, as the C++ API does.
      bool divides = true;
      try {
        const hcart::Decomposition d(MPI_COMM_WORLD, spec, options);
      } catch (const hcart::InputError&) {
        divides = false;
      }
      EXPECT_EQ(rc, divides ? HCART_SUCCESS : HCART_ERR_ARG) << last_message();
      if (rc == HCART_SUCCESS) MPI_Comm_free(&cart);
      continue;
    }
    ASSERT_EQ(rc, HCART_SUCCESS) << last_message();
    EXPECT_EQ(dims[0] * dims[1], size);
    EXPECT_EQ(g[0] % dims[0], 0) << dims[0] << "x" << dims[1];
    EXPECT_EQ(g[1] % dims[1], 0) << dims[0] << "x" << dims[1];
    const hcart::Decomposition d(MPI_COMM_WORLD, spec, options);
    EXPECT_EQ((std::array<int, 3>{dims[0], dims[1], 1}), d.dims());
    EXPECT_EQ(place_in(cart, 2).rank, d.rank());
    MPI_Comm_free(&cart);
  }
  if (size == 4) {
    // Without the key: 4x1, which the code cannot use.
    Info info({{"hcart_machine", machine}});
    int dims[2] = {0, 0};
    MPI_Comm cart = MPI_COMM_NULL;
    ASSERT_EQ(HCART_Cart_mesh_create(MPI_COMM_WORLD, 2, g, halo, nullptr, periods, info.info, dims,
                                     &cart),
              HCART_SUCCESS);
    EXPECT_EQ(dims[0], 4);
    MPI_Comm_free(&cart);
  }
  Info bad({{"hcart_equal_blocks", "yes"}});
  int dims[2] = {0, 0};
  MPI_Comm cart = MPI_COMM_NULL;
  EXPECT_EQ(
      HCART_Cart_mesh_create(MPI_COMM_WORLD, 2, g, halo, nullptr, periods, bad.info, dims, &cart),
      HCART_ERR_ARG);
  EXPECT_EQ(last_message(), "HCART_Cart_mesh_create: info hcart_equal_blocks = 'yes': expected "
                            "true, false, 1 or 0");
}

// A bad argument on one rank only: every rank returns the error, none hangs, and the
// message is the failing rank's.
TEST(CartInterface, AnErrorOnOneRankIsAnErrorOnAll) {
  const int size = world_size();
  const int bad_rank = size - 1;
  const int periods[3] = {0, 0, 0};
  double w[3] = {1, 1, 1};
  if (world_rank() == bad_rank) w[2] = -5;
  int dims[3] = {0, 0, 0};
  MPI_Comm cart = MPI_COMM_NULL;
  EXPECT_EQ(HCART_Cart_weighted_create(MPI_COMM_WORLD, 3, dims, periods, w, MPI_INFO_NULL, &cart),
            HCART_ERR_ARG);
  EXPECT_NE(last_message().find("weights[2] = -5"), std::string::npos);
  EXPECT_EQ(cart, MPI_COMM_NULL);
  EXPECT_EQ((std::array<int, 3>{dims[0], dims[1], dims[2]}), (std::array<int, 3>{0, 0, 0}));
}
