// Parallel HDF5 field files: written by N ranks, read by M ranks (every pair up to the
// world size), with other strategies; bad files refused on every rank before any read.
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/io/FieldFile.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace hcart;
using hcart::test::first_ranks;
using hcart::test::world_rank;
using hcart::test::world_size;

namespace {

double value_at(std::int64_t x, std::int64_t y, std::int64_t z) {
  return 1e6 * x + 1e3 * y + z + 0.25;
}

GridSpec spec() {
  GridSpec s;
  s.global_size = {13, 10, 7};
  s.halo_width = {1, 2, 1};
  return s;
}

std::string scratch(const std::string& name) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("hcart-io-test-" + std::to_string(world_size()));
  if (world_rank() == 0) std::filesystem::create_directories(dir);
  MPI_Barrier(MPI_COMM_WORLD);
  return (dir / name).string();
}

const Strategy strategies[] = {Strategy::Mpi, Strategy::Weighted, Strategy::Hierarchical};

} // namespace

TEST(FieldFile, WrittenByNRanksReadByMRanks) {
  const int P = world_size();
  for (int n = 1; n <= P; ++n) {
    const std::string path = scratch("n" + std::to_string(n) + ".h5");
    if (MPI_Comm comm = first_ranks(n); comm != MPI_COMM_NULL) {
      DecompositionOptions options;
      options.strategy = strategies[n % 3];
      const Decomposition decomp(comm, spec(), options);
      const Grid grid(decomp);
      auto u = grid.make_field<double>("u");
      auto host = hcart::host_mirror(u);
      const auto h = grid.halo_width();
      for (int i = h[0]; i < h[0] + grid.local_size()[0]; ++i)
        for (int j = h[1]; j < h[1] + grid.local_size()[1]; ++j)
          for (int k = h[2]; k < h[2] + grid.local_size()[2]; ++k)
            host(i, j, k) =
                value_at(grid.global_index(0, i), grid.global_index(1, j), grid.global_index(2, k));
      Kokkos::deep_copy(u, host);
      FileMetadata meta;
      meta.application = "test";
      meta.time = 1.5;
      meta.step = 42;
      meta.state["answer"] = 42.0;
      write_fields(path, grid, {{"u", u}, {"twice", u}}, meta);
      EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
      MPI_Comm_free(&comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int m = 1; m <= P; ++m) {
      MPI_Comm comm = first_ranks(m);
      if (comm == MPI_COMM_NULL) continue;
      DecompositionOptions options;
      options.strategy = strategies[(n + m) % 3];
      const Decomposition decomp(comm, spec(), options);
      const Grid grid(decomp);
      const FileContents c = inspect_fields(comm, path);
      EXPECT_EQ(c.metadata.step, 42);
      EXPECT_EQ(c.metadata.time, 1.5);
      EXPECT_EQ(c.metadata.state.at("answer"), 42.0);
      EXPECT_EQ(c.fields, (std::vector<std::string>{"twice", "u"}));
      EXPECT_EQ(c.mesh, spec().global_size);
      auto u = grid.make_field<double>("u");
      Kokkos::deep_copy(u, -1.0);
      read_field(path, grid, "u", u);
      auto host = hcart::host_copy(u);
      long wrong = 0;
      const auto e = grid.extent();
      for (int i = 0; i < e[0]; ++i)
        for (int j = 0; j < e[1]; ++j)
          for (int k = 0; k < e[2]; ++k) {
            const bool owned = grid.is_owned(i, j, k);
            const double expected = owned
                                        ? value_at(grid.global_index(0, i), grid.global_index(1, j),
                                                   grid.global_index(2, k))
                                        : -1.0;
            wrong += host(i, j, k) != expected;
          }
      EXPECT_EQ(wrong, 0) << "written by " << n << " ranks, read by " << m;
      MPI_Comm_free(&comm);
    }
  }
}

TEST(FieldFile, BadFilesAreRefusedOnEveryRank) {
  const std::string good = scratch("good.h5");
  const Decomposition decomp(MPI_COMM_WORLD, spec());
  const Grid grid(decomp);
  auto u = grid.make_field<double>("u");
  write_fields(good, grid, {{"u", u}}, {});
  const std::string foreign = scratch("foreign.h5"), truncated = scratch("truncated.h5");
  if (world_rank() == 0) {
    std::ofstream(foreign) << "[mesh]\nsize = [1, 2, 3]\n";
    std::ifstream in(good, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const std::pair<std::string, std::string> cases[] = {
      {scratch("missing.h5"), "does not exist"},
      {scratch(""), "is a directory, expected a field file"},
      {foreign, "not an HDF5 file"},
      {truncated, "truncated"},
  };
  for (const auto& [path, expected] : cases) {
    try {
      read_field(path, grid, "u", u);
      ADD_FAILURE() << path << ": no error";
    } catch (const InputError& e) {
      EXPECT_TRUE(e.collective());
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
  // A field that is not there, and a mesh of another size.
  EXPECT_THROW(read_field(good, grid, "v", u), InputError);
  GridSpec other = spec();
  other.global_size = {14, 10, 7};
  const Decomposition d2(MPI_COMM_WORLD, other);
  const Grid g2(d2);
  auto w = g2.make_field<double>("w");
  try {
    read_field(good, g2, "u", w);
    ADD_FAILURE() << "no error for a mesh of another size";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("mesh 13x10x7, expected 14x10x7"), std::string::npos)
        << e.what();
  }
}

// A bare file name is a file in the current directory, the first place a user writes to
// (it was refused: "directory '' of 'f.h5' cannot be created").
TEST(FieldFile, ABareFileNameIsWrittenInTheCurrentDirectory) {
  const std::string name = "hcart-bare-name-" + std::to_string(world_size()) + ".h5";
  const Decomposition decomp(MPI_COMM_WORLD, spec());
  const Grid grid(decomp);
  auto u = grid.make_field<double>("u");
  Kokkos::deep_copy(u, 2.5);
  ASSERT_NO_THROW(write_fields(name, grid, {{"u", u}}, {}));
  auto back = grid.make_field<double>("back");
  ASSERT_NO_THROW(read_field(name, grid, "u", back));
  const auto host = hcart::host_copy(back);
  const auto h = grid.halo_width();
  EXPECT_EQ(host(h[0], h[1], h[2]), 2.5);
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) std::filesystem::remove(name);
}

// A field that is not the grid's size is refused on every rank before anything is read (it
// was read into out of bounds: a heap corrupted inside HDF5). Only the last rank's field is
// wrong: the others must not hang in the read.
TEST(FieldFile, AFieldOfAnotherSizeIsRefusedOnEveryRank) {
  const std::string path = scratch("fit.h5");
  const Decomposition decomp(MPI_COMM_WORLD, spec());
  const Grid grid(decomp);
  const auto u = grid.make_field<double>("u");
  write_fields(path, grid, {{"u", u}}, {});
  const auto e = grid.extent();
  const bool last = world_rank() == world_size() - 1;
  Field<double> small("small", e[0] - (last ? 1 : 0), e[1], e[2]);
  try {
    read_field(path, grid, "u", small);
    ADD_FAILURE() << "no error";
  } catch (const InputError& error) {
    EXPECT_TRUE(error.collective());
    if (last) {
      const std::string expected =
          "hcart::read_field: field 'small' has extents " + std::to_string(e[0] - 1) + "x" +
          std::to_string(e[1]) + "x" + std::to_string(e[2]) + ", expected the grid's " +
          std::to_string(e[0]) + "x" + std::to_string(e[1]) + "x" + std::to_string(e[2]);
      EXPECT_EQ(std::string(error.what()), expected);
    }
  }
}

// HCART_HDF5_TRANSFER takes "independent" (the default) or "collective"; anything else is an
// error on every rank instead of being ignored.
TEST(FieldFile, AnUnknownTransferModeIsAnError) {
  const Decomposition decomp(MPI_COMM_WORLD, spec());
  const Grid grid(decomp);
  auto u = grid.make_field<double>("u");
  const std::string path = scratch("transfer.h5");
  for (const char* mode : {"independent", "collective"}) {
    setenv("HCART_HDF5_TRANSFER", mode, 1);
    EXPECT_NO_THROW(write_fields(path, grid, {{"u", u}}, {})) << mode;
    EXPECT_NO_THROW(read_field(path, grid, "u", u)) << mode;
  }
  setenv("HCART_HDF5_TRANSFER", "colective", 1);
  try {
    write_fields(path, grid, {{"u", u}}, {});
    ADD_FAILURE() << "a misspelt transfer mode was accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(e.collective());
    EXPECT_NE(std::string(e.what()).find("HCART_HDF5_TRANSFER=\"colective\": expected "
                                         "independent or collective"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(read_field(path, grid, "u", u), InputError);
  unsetenv("HCART_HDF5_TRANSFER");
}

// Five different fields, two cut directions, halo 3, written and read back many times: the
// case in which Open MPI 4.1.4's collective OMPIO path corrupted data (see FieldFile.cpp).
TEST(FieldFile, ManyFieldsOnTwoCutDirectionsRoundTripExactly) {
  GridSpec s;
  s.global_size = {12, 12, 12};
  s.halo_width = {3, 3, 3};
  DecompositionOptions options;
  options.strategy = Strategy::Mpi; // 2x2x1 on 4 ranks
  const Decomposition decomp(MPI_COMM_WORLD, s, options);
  const Grid grid(decomp);
  std::vector<std::pair<std::string, Field<double>>> fields;
  for (int f = 0; f < 5; ++f) {
    auto u = grid.make_field<double>("f" + std::to_string(f));
    auto host = hcart::host_mirror(u);
    for (std::size_t p = 0; p < host.size(); ++p)
      host.data()[p] = -2.0;
    const auto h = grid.halo_width();
    for (int i = h[0]; i < h[0] + grid.local_size()[0]; ++i)
      for (int j = h[1]; j < h[1] + grid.local_size()[1]; ++j)
        for (int k = h[2]; k < h[2] + grid.local_size()[2]; ++k)
          host(i, j, k) = f * 1e7 + value_at(grid.global_index(0, i), grid.global_index(1, j),
                                             grid.global_index(2, k));
    Kokkos::deep_copy(u, host);
    fields.emplace_back("f" + std::to_string(f), u);
  }
  long wrong = 0;
  for (int repeat = 0; repeat < 10; ++repeat) {
    const std::string path = scratch("many-" + std::to_string(repeat) + ".h5");
    // Ranks arrive at different times, as after uneven work.
    std::this_thread::sleep_for(std::chrono::milliseconds(3 * ((world_rank() + repeat) % 4)));
    write_fields(path, grid, fields, {});
    for (int f = 0; f < 5; ++f) {
      auto back = grid.make_field<double>("back");
      read_field(path, grid, fields[f].first, back);
      auto a = hcart::host_copy(fields[f].second);
      auto b = hcart::host_copy(back);
      const auto h = grid.halo_width();
      for (int i = h[0]; i < h[0] + grid.local_size()[0]; ++i)
        for (int j = h[1]; j < h[1] + grid.local_size()[1]; ++j)
          for (int k = h[2]; k < h[2] + grid.local_size()[2]; ++k)
            wrong += a(i, j, k) != b(i, j, k);
    }
  }
  EXPECT_EQ(wrong, 0);
}

// A field with components: one dataset (components x mesh), written by N ranks and read by M
// ranks into a field with as many components, read whole component by component; read into
// a field without components or with another number of them: refused on every rank.
TEST(FieldFile, FieldsWithComponentsRoundTripOnAnyRanks) {
  const int P = world_size();
  constexpr int kComponents = 3;
  auto value = [](int c, std::int64_t x, std::int64_t y, std::int64_t z) {
    return 1e9 * c + value_at(x, y, z);
  };
  for (int n = 1; n <= P; ++n) {
    const std::string path = scratch("components" + std::to_string(n) + ".h5");
    if (MPI_Comm comm = first_ranks(n); comm != MPI_COMM_NULL) {
      const Decomposition decomp(comm, spec());
      const Grid grid(decomp);
      auto f = grid.make_components<double>("f", kComponents);
      auto u = grid.make_field<double>("u");
      auto host = hcart::host_mirror(f);
      for (int c = 0; c < kComponents; ++c)
        for (int i = 0; i < grid.extent()[0]; ++i)
          for (int j = 0; j < grid.extent()[1]; ++j)
            for (int k = 0; k < grid.extent()[2]; ++k)
              host(c, i, j, k) = value(c, grid.global_index(0, i), grid.global_index(1, j),
                                       grid.global_index(2, k));
      Kokkos::deep_copy(f, host);
      write_fields(path, grid, {{"f", f}, {"u", u}}, {});
      MPI_Comm_free(&comm);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int m = 1; m <= P; ++m) {
      MPI_Comm comm = first_ranks(m);
      if (comm == MPI_COMM_NULL) continue;
      DecompositionOptions options;
      options.strategy = strategies[(n + m) % 3];
      const Decomposition decomp(comm, spec(), options);
      const Grid grid(decomp);
      const FileContents contents = inspect_fields(comm, path);
      EXPECT_EQ(contents.fields, (std::vector<std::string>{"f", "u"}));
      EXPECT_EQ(contents.components, (std::vector<int>{kComponents, 0}));
      auto f = grid.make_components<double>("f", kComponents);
      Kokkos::deep_copy(f, -1.0);
      read_field(path, grid, "f", f);
      const auto host = hcart::host_copy(f);
      long wrong = 0;
      for (int c = 0; c < kComponents; ++c)
        for (int i = 0; i < grid.extent()[0]; ++i)
          for (int j = 0; j < grid.extent()[1]; ++j)
            for (int k = 0; k < grid.extent()[2]; ++k) {
              const double expected = grid.is_owned(i, j, k)
                                          ? value(c, grid.global_index(0, i),
                                                  grid.global_index(1, j), grid.global_index(2, k))
                                          : -1.0;
              wrong += host(c, i, j, k) != expected;
            }
      EXPECT_EQ(wrong, 0) << "written by " << n << " ranks, read by " << m;
      // Wrong kinds of field to read into: an error on every rank.
      auto plain = grid.make_field<double>("plain");
      try {
        read_field(path, grid, "f", plain);
        ADD_FAILURE() << "a field with components read into a Field";
      } catch (const InputError& e) {
        EXPECT_TRUE(e.collective());
        EXPECT_NE(std::string(e.what()).find("has 3 components"), std::string::npos) << e.what();
      }
      auto two = grid.make_components<double>("two", 2);
      EXPECT_THROW(read_field(path, grid, "f", two), InputError);
      EXPECT_THROW(read_field(path, grid, "u", two), InputError);
      MPI_Comm_free(&comm);
    }
    if (world_rank() == 0) {
      const std::vector<double> whole = read_whole_field(path, "f");
      const auto g = spec().global_size;
      ASSERT_EQ(whole.size(), static_cast<std::size_t>(kComponents * g[0] * g[1] * g[2]));
      long wrong = 0;
      std::size_t at = 0;
      for (int c = 0; c < kComponents; ++c)
        for (std::int64_t x = 0; x < g[0]; ++x)
          for (std::int64_t y = 0; y < g[1]; ++y)
            for (std::int64_t z = 0; z < g[2]; ++z)
              wrong += whole[at++] != value(c, x, y, z);
      EXPECT_EQ(wrong, 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
