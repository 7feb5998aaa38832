// Output benchmark (issue target in docs/benchmarks.md), on 2 ranks:
//   hcart-mpiexec -n 2 build/bin/hcart-bench-io [--size 256] [--repeats 5] [--dir /tmp]
// Writing a size^3 double field with hcart::write_fields (parallel HDF5, collective, via a
// temporary file and a rename) against writing the same bytes as one contiguous buffer
// with a single POSIX write() by one process, alternating repeat by repeat. Neither
// calls fsync: both measure the path into the operating system's page cache.
#include "BenchTiming.hpp"

#include <hcart/app/CommandLine.hpp>
#include <hcart/hcart.hpp>
#include <hcart/io/FieldFile.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>
#include <vector>

namespace {

using hcart::bench::Clock;
using hcart::bench::seconds_since;
} // namespace

int main(int argc, char* argv[]) {
  return hcart::run_main(argc, argv, "hcart-bench-io", [&](hcart::Environment& env) {
    CLI::App app{"hcart output benchmark"};
    long size = 256;
    int repeats = 5;
    std::string dir = std::filesystem::temp_directory_path().string();
    app.add_option("--size", size)->capture_default_str();
    app.add_option("--repeats", repeats)->capture_default_str();
    app.add_option("--dir", dir, "where the files go")->capture_default_str();
    if (!hcart::parse_command_line(app, argc, argv, MPI_COMM_WORLD)) return 0;
    hcart::GridSpec spec;
    spec.global_size = {size, size, size};
    const hcart::Decomposition decomp(MPI_COMM_WORLD, spec);
    const hcart::Grid grid(decomp);
    auto u = grid.make_field<double>("u");
    Kokkos::deep_copy(u, 3.0);
    const double bytes = 8.0 * size * size * size;
    const std::string h5 = dir + "/hcart-bench-io.h5", raw = dir + "/hcart-bench-io.raw";
    std::vector<double> buffer(env.rank() == 0 ? static_cast<std::size_t>(size * size * size) : 0,
                               3.0);
    std::vector<double> t_h5, t_raw, ratio;
    for (int r = 0; r < repeats; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      auto t0 = Clock::now();
      hcart::write_fields(h5, grid, {{"u", u}}, {});
      MPI_Barrier(MPI_COMM_WORLD);
      t_h5.push_back(seconds_since(t0));
      t0 = Clock::now();
      if (env.rank() == 0) {
        const int fd = ::open(raw.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
        const ssize_t written = ::write(fd, buffer.data(), buffer.size() * sizeof(double));
        ::close(fd);
        if (written != static_cast<ssize_t>(bytes)) std::fprintf(stderr, "short POSIX write\n");
      }
      MPI_Barrier(MPI_COMM_WORLD);
      t_raw.push_back(seconds_since(t0));
      ratio.push_back(t_raw.back() / t_h5.back());
    }
    if (env.rank() == 0) {
      auto report = [&](const char* what, std::vector<double> t) {
        std::sort(t.begin(), t.end());
        std::printf("%-36s min %7.1f ms (%6.2f GB/s)  median %7.1f ms (%6.2f GB/s)\n", what,
                    t.front() * 1e3, bytes / t.front() / 1e9, t[t.size() / 2] * 1e3,
                    bytes / t[t.size() / 2] / 1e9);
      };
      std::printf("%d ranks, %ld^3 doubles (%.0f MiB), %d repeats\n", env.size(), size,
                  bytes / 1048576, repeats);
      report("hcart::write_fields (parallel HDF5)", t_h5);
      report("one POSIX write() of the same bytes", t_raw);
      std::sort(ratio.begin(), ratio.end());
      std::printf("hcart bandwidth / POSIX bandwidth    min %7.2f            median %7.2f\n",
                  ratio.front(), ratio[ratio.size() / 2]);
      std::filesystem::remove(h5);
      std::filesystem::remove(raw);
    }
    return 0;
  });
}
