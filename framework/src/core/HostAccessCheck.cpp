// The host-access check (impl/core/HostAccessCheck.hpp): fields protected with mprotect
// outside Kokkos kernels and deep copies, whose begin and end Kokkos Tools report.
#include <hcart/core/Error.hpp>
#include <hcart/core/ExecutionModel.hpp>
#include <hcart/impl/core/HostAccessCheck.hpp>

#include <Kokkos_Core.hpp>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <execinfo.h>
#include <mutex>
#include <signal.h>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace hcart::impl {

namespace {

// A watched field: the whole pages inside it, and its name for the report.
struct Region {
  std::uintptr_t data = 0, end = 0;   // the field's bytes
  std::uintptr_t first = 0, last = 0; // whole pages inside them: [first, last)
  char label[64] = {};
  bool used = false;
};

// Fixed storage: the fault handler reads it without a lock.
constexpr int kMaxRegions = 1024;
Region g_regions[kMaxRegions];
std::mutex g_mutex; // registration and (un)protection, never in the handler
std::atomic<bool> g_on{false};
int g_depth = 0; // kernels and deep copies in flight (launched from one thread)
struct sigaction g_previous;

void set_protection(const Region& r, bool protect) {
  if (r.last > r.first) {
    mprotect(reinterpret_cast<void*>(r.first), r.last - r.first,
             protect ? PROT_NONE : PROT_READ | PROT_WRITE);
  }
}

void protect_all(bool protect) {
  for (const Region& r : g_regions) {
    if (r.used) set_protection(r, protect);
  }
}

void enter() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_depth++ == 0) protect_all(false);
}

void leave() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (--g_depth == 0) protect_all(true);
}

void write_text(const char* text) {
  const std::size_t n = std::strlen(text);
  if (write(STDERR_FILENO, text, n) < 0) return;
}

void on_fault(int signal, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (const Region& r : g_regions) {
    if (!r.used || address < r.first || address >= r.last) continue;
    write_text("hcart: host code touched field '");
    write_text(r.label);
    write_text("' outside a Kokkos kernel or deep_copy (HCART_CHECK_HOST_ACCESS): on a GPU "
               "build this is device memory; use a kernel, or read it through "
               "hcart::host_copy / hcart::host_mirror. Backtrace:\n");
    void* frames[64];
    const int depth = backtrace(frames, 64);
    backtrace_symbols_fd(frames, depth, STDERR_FILENO);
    std::signal(SIGABRT, SIG_DFL);
    std::abort();
  }
  // Not a watched field: whatever handled it before handles it now.
  sigaction(SIGSEGV, &g_previous, nullptr);
  (void)signal;
  (void)context;
}

} // namespace

bool host_access_check_on() noexcept {
  return g_on.load(std::memory_order_relaxed);
}

namespace {
// The environment's answer, read once: true when the check is asked for.
bool asked_for() {
  static const bool asked = [] {
    const char* setting = std::getenv("HCART_CHECK_HOST_ACCESS");
    const std::string value = setting == nullptr ? "" : setting;
    HCART_REQUIRE(value.empty() || value == "1" || value == "on" || value == "0" || value == "off",
                  "HCART_CHECK_HOST_ACCESS=\"" << value << "\": expected 1, on, 0 or off");
    return value == "1" || value == "on";
  }();
  return asked;
}

void start() {
  namespace tools = Kokkos::Tools::Experimental;
  tools::set_begin_parallel_for_callback(
      [](const char*, std::uint32_t, std::uint64_t*) { enter(); });
  tools::set_begin_parallel_reduce_callback(
      [](const char*, std::uint32_t, std::uint64_t*) { enter(); });
  tools::set_begin_parallel_scan_callback(
      [](const char*, std::uint32_t, std::uint64_t*) { enter(); });
  tools::set_end_parallel_for_callback([](std::uint64_t) { leave(); });
  tools::set_end_parallel_reduce_callback([](std::uint64_t) { leave(); });
  tools::set_end_parallel_scan_callback([](std::uint64_t) { leave(); });
  tools::set_begin_deep_copy_callback([](auto, const char*, const void*, auto, const char*,
                                         const void*, std::uint64_t) { enter(); });
  tools::set_end_deep_copy_callback([] { leave(); });
  // Before Kokkos frees a field: its pages back to normal, its slot free. Kokkos reports
  // the allocation's start, a header before the data.
  tools::set_deallocate_data_callback([](auto, const char*, const void* ptr, std::uint64_t size) {
    const auto begin = reinterpret_cast<std::uintptr_t>(ptr);
    const std::lock_guard<std::mutex> lock(g_mutex);
    for (Region& r : g_regions) {
      if (r.used && r.data >= begin && r.data < begin + size + 4096) {
        set_protection(r, false);
        r.used = false;
      }
    }
  });
  struct sigaction action {};
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &g_previous);
  g_on = true;
}
} // namespace

void stop_host_access_check() noexcept {
  if (!g_on) return;
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    for (Region& r : g_regions) {
      if (r.used) set_protection(r, false);
      r.used = false;
    }
  }
  namespace tools = Kokkos::Tools::Experimental;
  tools::set_begin_parallel_for_callback(nullptr);
  tools::set_begin_parallel_reduce_callback(nullptr);
  tools::set_begin_parallel_scan_callback(nullptr);
  tools::set_end_parallel_for_callback(nullptr);
  tools::set_end_parallel_reduce_callback(nullptr);
  tools::set_end_parallel_scan_callback(nullptr);
  tools::set_begin_deep_copy_callback(nullptr);
  tools::set_end_deep_copy_callback(nullptr);
  tools::set_deallocate_data_callback(nullptr);
  sigaction(SIGSEGV, &g_previous, nullptr);
  g_on = false;
}

void watch_field(const void* data, std::size_t bytes, const char* label) {
  if (!host_execution || !asked_for()) return;
  if (!g_on) start();
  if (data == nullptr || bytes == 0) return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  Region region;
  region.data = begin;
  region.end = begin + bytes;
  region.first = (begin + page - 1) / page * page;
  region.last = region.end / page * page;
  std::strncpy(region.label, label, sizeof region.label - 1);
  region.used = true;
  const std::lock_guard<std::mutex> lock(g_mutex);
  for (Region& r : g_regions) {
    if (r.used) continue;
    r = region;
    if (g_depth == 0) set_protection(r, true);
    return;
  }
}

} // namespace hcart::impl
