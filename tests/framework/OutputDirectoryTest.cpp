// hcart::prepare_output_directory: a directory is made or found usable before any work, and
// a path that cannot be one is an InputError on every rank naming it; write_fields on a
// directory, or under a file, says which path.
#include "WorldRanks.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/grid/Decomposition.hpp>
#include <hcart/grid/Grid.hpp>
#include <hcart/io/FieldFile.hpp>
#include <hcart/io/OutputDirectory.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

using hcart::test::world_rank;
using hcart::test::world_size;

namespace {
std::string scratch_folder(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("hcart-output-" + name + "-" + std::to_string(world_size())))
      .string();
}

// The message of the InputError `call` throws on this rank ("" when none).
template <class Call>
std::string error_of(Call call) {
  try {
    call();
  } catch (const hcart::InputError& e) {
    EXPECT_TRUE(e.collective()) << e.what();
    return e.what();
  }
  return "";
}
} // namespace

TEST(OutputDirectory, MadeOrRefusedOnEveryRank) {
  const std::string root = scratch_folder("made");
  if (world_rank() == 0) std::filesystem::remove_all(root);
  MPI_Barrier(MPI_COMM_WORLD);
  const std::string nested = root + "/a/b";
  hcart::prepare_output_directory(MPI_COMM_WORLD, nested, "[output] directory =");
  EXPECT_TRUE(std::filesystem::is_directory(nested));
  EXPECT_FALSE(std::filesystem::exists(nested + "/.hcart-write-test")) << "the probe stays";
  // A file where the directory should be.
  const std::string file = root + "/a-file";
  if (world_rank() == 0) std::ofstream(file) << "x";
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_NE(error_of([&] {
              hcart::prepare_output_directory(MPI_COMM_WORLD, file, "[x] y =");
            }).find("[x] y = \"" + file + "\": is a file, expected a directory"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              hcart::prepare_output_directory(MPI_COMM_WORLD, file + "/sub");
            }).find("output directory \"" + file + "/sub\": cannot be created"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              hcart::prepare_output_directory(MPI_COMM_WORLD, "");
            }).find("expected a directory name"),
            std::string::npos);
  // /proc refuses new entries even to root.
  EXPECT_NE(error_of([&] {
              hcart::prepare_output_directory(MPI_COMM_WORLD, "/proc/hcart-x");
            }).find("cannot be created"),
            std::string::npos);
}

TEST(OutputDirectory, WriteFieldsNamesThePathItCannotUse) {
  const std::string root = scratch_folder("fields");
  if (world_rank() == 0) {
    std::filesystem::remove_all(root);
    std::filesystem::create_directories(root + "/taken");
    std::ofstream(root + "/plain") << "x";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  hcart::GridSpec spec;
  spec.global_size = {8, 8, 8};
  const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
  const hcart::Grid grid(decomp);
  const auto u = grid.make_field<double>("u");
  const hcart::FileMetadata meta;
  EXPECT_NE(error_of([&] {
              hcart::write_fields(root + "/taken", grid, {{"u", u}}, meta);
            }).find("'" + root + "/taken' is a directory, expected a file name"),
            std::string::npos);
  EXPECT_NE(
      error_of([&] {
        hcart::write_fields(root + "/plain/f.h5", grid, {{"u", u}}, meta);
      }).find("directory '" + root + "/plain' of '" + root + "/plain/f.h5' cannot be created"),
      std::string::npos);
  hcart::write_fields(root + "/new/f.h5", grid, {{"u", u}}, meta);
  EXPECT_TRUE(std::filesystem::exists(root + "/new/f.h5"));
}
