// hcart::Timers: named, nestable timing regions with a report over all ranks
// (docs/api-guide.md).
//
//   hcart::Timers timers;
//   {
//     auto scope = timers.region("compute");   // also a Kokkos profiling region
//     ...
//   }
//   timers.add("halo.wait", seconds);          // time measured elsewhere
//   auto summary = timers.summarize(comm);      // collective: min / mean / max over ranks
//   hcart::Timers::print(std::cout, summary);
//
// Region names are free text; nesting is expressed by the caller's names ("halo.pack").
// Regions also push Kokkos profiling regions so Kokkos Tools see them. Where the timers fence
// (fences(): on host backends, where a fence is free; on a device only when asked, through
// set_fences or HCART_TIMER_FENCES=1) a region waits for the execution space where it starts
// and stops, so that it times its kernels; unfenced on a device it times their launches, and
// kernels still running when it stops count in the region that waits for them (a reduction to
// the host, an exchange's messages, a fenced region). A fence on a device costs a round trip
// per region: an H200's multigrid cycle at 127^3 (175 regions) takes 1.77 ms fenced, 0.60 ms
// unfenced.
#pragma once

#include <mpi.h>

#include <chrono>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace hcart {

/// \brief Seconds since `t0` on the steady clock (for times measured by hand and added).
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class Timers {
public:
  /// \brief Timers whose regions fence where default_fences() says.
  Timers();

  /// \brief HCART_TIMER_FENCES's 1 or 0, else whether the execution space is the host's.
  /// \throws hcart::InputError for another value, naming it.
  static bool default_fences();
  /// \brief Whether regions fence the execution space at their edges.
  bool fences() const { return m_fences; }
  /// \brief Makes regions fence (true) or not from their next start.
  void set_fences(bool fences) { m_fences = fences; }

  /// \brief Times a scope; ends when destroyed.
  class Region {
  public:
    Region(Timers& timers, std::string name);
    ~Region();
    Region(const Region&) = delete;
    Region& operator=(const Region&) = delete;

  private:
    Timers& m_timers;
    std::string m_name;
  };

  /// \brief A region that lasts until the returned object is destroyed.
  [[nodiscard]] Region region(const std::string& name) { return Region(*this, name); }
  /// \brief Starts `name` (nested starts of the same name are an error).
  void start(const std::string& name);
  /// \brief Stops `name`, adding the time since start().
  void stop(const std::string& name);
  /// \brief Adds time measured elsewhere.
  void add(const std::string& name, double seconds, long calls = 1);
  /// \brief This rank's accumulated seconds in `name` (0 when never used).
  double seconds(const std::string& name) const;
  /// \brief Forgets all times.
  void clear() { m_entries.clear(); }

  struct Summary {
    std::string name;
    double min = 0, mean = 0, max = 0; ///< over ranks, seconds
    double imbalance = 0;              ///< max / mean - 1
    long calls = 0;                    ///< on rank 0
  };
  /// \brief Every region any rank used, with its spread over the ranks (collective).
  std::vector<Summary> summarize(MPI_Comm comm) const;
  /// \brief The table rank 0 prints.
  static void print(std::ostream& out, const std::vector<Summary>& summary);

private:
  struct Entry {
    double seconds = 0;
    long calls = 0;
    bool running = false;
    std::chrono::steady_clock::time_point since{};
  };
  std::map<std::string, Entry> m_entries;
  bool m_fences = true;
};

} // namespace hcart
