#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/ExecutionModel.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/core/Timers.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace hcart {

Timers::Region::Region(Timers& timers, std::string name)
    : m_timers(timers), m_name(std::move(name)) {
  m_timers.start(m_name);
}

Timers::Region::~Region() {
  try {
    m_timers.stop(m_name);
  } catch (...) { // a destructor must not throw; the region was started, so this cannot happen
  }
}

Timers::Timers() : m_fences(default_fences()) {}

bool Timers::default_fences() {
  const char* text = std::getenv("HCART_TIMER_FENCES");
  if (text == nullptr || *text == '\0') return host_execution;
  const std::string value(text);
  if (value != "0" && value != "1")
    throw InputError("HCART_TIMER_FENCES='" + value +
                     "': expected 1 (regions fence the execution space) or 0 (they do not)");
  return value == "1";
}

void Timers::start(const std::string& name) {
  Entry& e = m_entries[name];
  HCART_CHECK(!e.running, "hcart::Timers: region '" << name << "' started twice");
  e.running = true;
  // Fenced, kernels launched before the region are not counted in it, and those inside it
  // have finished when it stops.
  if (m_fences) fence("hcart_timer");
  e.since = std::chrono::steady_clock::now();
  Kokkos::Profiling::pushRegion(name);
}

void Timers::stop(const std::string& name) {
  if (m_fences) fence("hcart_timer");
  const auto now = std::chrono::steady_clock::now();
  auto it = m_entries.find(name);
  HCART_CHECK(it != m_entries.end() && it->second.running,
              "hcart::Timers: region '" << name << "' stopped but not started");
  Kokkos::Profiling::popRegion();
  it->second.seconds += std::chrono::duration<double>(now - it->second.since).count();
  it->second.calls += 1;
  it->second.running = false;
}

void Timers::add(const std::string& name, double seconds, long calls) {
  Entry& e = m_entries[name];
  e.seconds += seconds;
  e.calls += calls;
}

double Timers::seconds(const std::string& name) const {
  const auto it = m_entries.find(name);
  return it == m_entries.end() ? 0.0 : it->second.seconds;
}

std::vector<Timers::Summary> Timers::summarize(MPI_Comm comm) const {
  int size = 1, rank = 0;
  HCART_MPI_CHECK(MPI_Comm_size(comm, &size));
  HCART_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  // The union of every rank's region names.
  std::string mine;
  for (const auto& [name, e] : m_entries)
    mine += name + '\n';
  const std::string all = impl::allgather_text(comm, mine);
  std::set<std::string> names;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i] == '\n') {
      names.insert(all.substr(begin, i - begin));
      begin = i + 1;
    }
  }
  const std::size_t n = names.size();
  std::vector<double> lo(n), hi(n), sum(n);
  std::vector<long> calls(n);
  std::size_t i = 0;
  for (const auto& name : names) {
    const auto it = m_entries.find(name);
    lo[i] = hi[i] = sum[i] = it == m_entries.end() ? 0.0 : it->second.seconds;
    calls[i] = it == m_entries.end() ? 0 : it->second.calls;
    ++i;
  }
  if (n > 0) {
    HCART_MPI_CHECK(
        MPI_Allreduce(MPI_IN_PLACE, lo.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MIN, comm));
    HCART_MPI_CHECK(
        MPI_Allreduce(MPI_IN_PLACE, hi.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MAX, comm));
    HCART_MPI_CHECK(
        MPI_Allreduce(MPI_IN_PLACE, sum.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, comm));
    HCART_MPI_CHECK(MPI_Bcast(calls.data(), static_cast<int>(n), MPI_LONG, 0, comm));
  }
  std::vector<Summary> out;
  i = 0;
  for (const auto& name : names) {
    Summary s;
    s.name = name;
    s.min = lo[i];
    s.max = hi[i];
    s.mean = sum[i] / size;
    s.imbalance = s.mean > 0 ? s.max / s.mean - 1.0 : 0.0;
    s.calls = calls[i];
    out.push_back(s);
    ++i;
  }
  return out;
}

void Timers::print(std::ostream& out, const std::vector<Summary>& summary) {
  std::size_t width = 6;
  for (const auto& s : summary)
    width = std::max(width, s.name.size());
  char line[256];
  std::snprintf(line, sizeof line, "%-*s %12s %12s %12s %10s %10s\n", static_cast<int>(width),
                "region", "min [s]", "mean [s]", "max [s]", "imbalance", "calls");
  out << line;
  for (const auto& s : summary) {
    std::snprintf(line, sizeof line, "%-*s %12.4f %12.4f %12.4f %9.1f%% %10ld\n",
                  static_cast<int>(width), s.name.c_str(), s.min, s.mean, s.max,
                  100.0 * s.imbalance, s.calls);
    out << line;
  }
}

} // namespace hcart
