// Machine detection (hcart/topology/Detect.hpp) on the real launch: the binding hwloc reads
// is the kernel's affinity mask. (The hierarchy built from such facts: HierarchyTest.cpp.)
#include <hcart/core/Error.hpp>
#include <hcart/topology/Detect.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sched.h>
#include <string>
#include <unistd.h>

// hwloc's reading of the binding against the kernel's (the launcher binds the ranks to one
// core each, or not at all when oversubscribed).
TEST(Detect, BoundProcessingUnitsAreTheAffinityMask) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  ASSERT_EQ(sched_getaffinity(0, sizeof(mask), &mask), 0);
  EXPECT_EQ(hcart::bound_processing_units(), CPU_COUNT(&mask));
}

namespace {
// Sets an environment variable for one scope.
struct ScopedEnv {
  std::string name;
  ScopedEnv(const char* n, const std::string& value) : name(n) { setenv(n, value.c_str(), 1); }
  ~ScopedEnv() { unsetenv(name.c_str()); }
};

std::string this_host() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

bool has_note(const hcart::DetectedHierarchy& h, const std::string& text) {
  for (const auto& note : h.notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}
} // namespace

// One node under Slurm's tree plugin or a topology file: its switch is every node's, so no
// level is made, and the notes say why (the levels themselves: NetworkTest.cpp and the
// cluster tests, tests/cluster).
TEST(Detect, NetworkOfOneNodeIsNoLevel) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  {
    ScopedEnv addr("SLURM_TOPOLOGY_ADDR", "top.s0." + this_host());
    ScopedEnv pattern("SLURM_TOPOLOGY_ADDR_PATTERN", "switch.switch.node");
    const auto h = hcart::detect_machine(MPI_COMM_WORLD);
    EXPECT_EQ(h.machine.node_level(), 0);
    EXPECT_TRUE(has_note(h, "every node is under the same switch: no network level (from "
                            "Slurm (SLURM_TOPOLOGY_ADDR))"));
  }
  // One file for all ranks (rank 0 writes it), named by rank 0's process.
  int pid = static_cast<int>(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const std::string file = testing::TempDir() + "hcart_detect_topology_" + std::to_string(pid);
  const auto write = [&](const std::string& text) {
    if (rank == 0) std::ofstream(file) << text;
    MPI_Barrier(MPI_COMM_WORLD);
  };
  write("SwitchName=s0 Nodes=" + this_host() +
        ",other0\nSwitchName=s1 Nodes=other1\nSwitchName=top Switches=s[0-1]\n");
  {
    ScopedEnv topo("HCART_TOPOLOGY_FILE", file);
    const auto h = hcart::detect_machine(MPI_COMM_WORLD);
    EXPECT_EQ(h.machine.node_level(), 0);
    EXPECT_TRUE(has_note(h, "every node is under the same switch"));
  }
  write("SwitchName=s0 Nodes=elsewhere\n");
  {
    ScopedEnv topo("HCART_TOPOLOGY_FILE", file);
    const auto h = hcart::detect_machine(MPI_COMM_WORLD);
    EXPECT_TRUE(has_note(h, "no network level: 1 of 1 nodes have no switch from topology file"));
  }
  // A malformed file is an error on every rank, naming the file and line.
  write("SwitchName=s0 Nodes=n[0-\n");
  {
    ScopedEnv topo("HCART_TOPOLOGY_FILE", file);
    try {
      hcart::detect_machine(MPI_COMM_WORLD);
      ADD_FAILURE() << "a malformed topology file was accepted";
    } catch (const hcart::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("topology file '" + file + "' line 1: hostlist 'n[0-'"),
                std::string::npos)
          << e.what();
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) std::remove(file.c_str());
}
