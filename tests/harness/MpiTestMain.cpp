// The shared main of hcart's MPI tests.
//
// - MPI, then Kokkos (hcart::Environment), then GoogleTest.
// - Output from rank 0 only; other ranks print their own failures, prefixed with the rank,
//   the moment they happen.
// - A test fails on every rank when it fails on any: after each test all ranks agree on
//   the outcome with one reduction in OnTestEnd (never inside a failure hook, where the
//   other ranks may be somewhere else).
// - A watchdog thread ends the job when a rank that failed does not reach that agreement
//   within HCART_TEST_FAILURE_GRACE_SECONDS (default 15: the other ranks are stuck, e.g.
//   in a collective the failed rank left), or when one test runs longer than
//   HCART_TEST_WATCHDOG_SECONDS (default 110). It prints why and exits the process with
//   status 1, which makes the launcher end all ranks: a failure on one rank fails the test
//   on time instead of hanging.
#include <hcart/core/Environment.hpp>
#include <hcart/core/MpiCheck.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_from_env(const char* name, double fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  return (end != text && value > 0) ? value : fallback;
}

class Watchdog {
public:
  Watchdog(int rank, double test_limit, double grace)
      : m_rank(rank), m_test_limit(test_limit), m_grace(grace), m_thread([this] { watch(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
  }
  void test_started(const std::string& name) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_test = name;
    m_started = Clock::now();
    m_running = true;
    m_failed = false;
  }
  void local_failure() {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_failed) m_failed_at = Clock::now();
    m_failed = true;
  }
  void test_agreed() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_running = false;
    m_failed = false;
  }

private:
  void watch() {
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_stop) {
      m_wake.wait_for(lock, std::chrono::milliseconds(100));
      if (!m_running) continue;
      const auto now = Clock::now();
      const double running = std::chrono::duration<double>(now - m_started).count();
      const double since_failure =
          m_failed ? std::chrono::duration<double>(now - m_failed_at).count() : 0.0;
      if (m_failed && since_failure > m_grace) {
        give_up("failed on this rank and the other ranks did not reach the end of the test "
                "within " +
                std::to_string(static_cast<int>(m_grace)) + " s");
      } else if (running > m_test_limit) {
        give_up("is still running after " + std::to_string(static_cast<int>(m_test_limit)) + " s");
      }
    }
  }
  [[noreturn]] void give_up(const std::string& why) {
    std::fprintf(stderr, "[rank %d] hcart test harness: %s %s; ending the job\n", m_rank,
                 m_test.c_str(), why.c_str());
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(1); // the launcher sees a rank die and ends the others
  }

  int m_rank;
  double m_test_limit, m_grace;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop = false, m_running = false, m_failed = false;
  std::string m_test;
  Clock::time_point m_started{}, m_failed_at{};
  std::thread m_thread;
};

// Makes every rank agree on each test's outcome; prints failures of ranks other than 0.
class RankAgreement : public ::testing::EmptyTestEventListener {
public:
  RankAgreement(int rank, int size, Watchdog& watchdog)
      : m_rank(rank), m_size(size), m_watchdog(watchdog) {}

  void OnTestStart(const ::testing::TestInfo& info) override {
    m_watchdog.test_started(std::string(info.test_suite_name()) + "." + info.name());
  }

  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed() || m_agreeing) return;
    m_watchdog.local_failure();
    if (m_rank != 0) {
      std::printf("[rank %d] %s:%d: Failure\n%s\n", m_rank,
                  result.file_name() ? result.file_name() : "unknown", result.line_number(),
                  result.message());
      std::fflush(stdout);
    }
  }

  void OnTestEnd(const ::testing::TestInfo& info) override {
    const int mine = info.result()->Failed() ? 1 : 0;
    int failed_ranks = 0;
    HCART_MPI_CHECK(MPI_Allreduce(&mine, &failed_ranks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    int lowest = mine ? m_rank : m_size;
    int lowest_failed = m_size;
    HCART_MPI_CHECK(MPI_Allreduce(&lowest, &lowest_failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    m_watchdog.test_agreed();
    if (failed_ranks > 0 && !mine) {
      // Record the failure here too, so the test fails on every rank (and rank 0 reports it).
      m_agreeing = true;
      ADD_FAILURE() << "failed on " << failed_ranks << " of " << m_size << " ranks (first: rank "
                    << lowest_failed << ")";
      m_agreeing = false;
    }
  }

private:
  int m_rank, m_size;
  Watchdog& m_watchdog;
  bool m_agreeing = false;
};

} // namespace

int main(int argc, char* argv[]) {
  hcart::Environment env(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  Watchdog watchdog(env.rank(), seconds_from_env("HCART_TEST_WATCHDOG_SECONDS", 110.0),
                    seconds_from_env("HCART_TEST_FAILURE_GRACE_SECONDS", 15.0));
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (env.rank() != 0) delete listeners.Release(listeners.default_result_printer());
  // Appended after the printer: GoogleTest calls OnTestEnd in reverse order, so the
  // agreement is recorded before rank 0 prints the test's verdict.
  listeners.Append(new RankAgreement(env.rank(), env.size(), watchdog));
  int result = RUN_ALL_TESTS();
  int worst = 0;
  HCART_MPI_CHECK(MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  return worst;
}
