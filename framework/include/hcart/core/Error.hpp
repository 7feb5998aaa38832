// hcart::Error and the checking macros: how hcart reports what went wrong.
//
// hcart never exits or aborts: every always-on check throws hcart::Error (or its subclass
// hcart::InputError for bad input from a caller, a deck or a command line) with a message
// that names the function, the bad value and what was expected. Applications catch in
// main (see hcart/core/Main.hpp), print one line and end all ranks together; bad input
// ends with exit code 2. The convention is written down in docs/errors.md.
//
// This header has no MPI, Kokkos or HDF5 dependency so that the pure mapping layer can use
// it; HCART_MPI_CHECK lives in MpiCheck.hpp (HCART_HDF5_CHECK and HCART_HWLOC_CHECK are
// internal to the library).
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace hcart {

/// \brief Any failure reported by hcart.
///
/// `collective()` is true when every rank of the communicator in question holds the same
/// error (it went through hcart::agree_on_errors), so an application may end normally on
/// every rank instead of aborting.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
  /// \brief True when every rank raised this same error together.
  bool collective() const noexcept { return m_collective; }
  /// \brief Marks the error as known to every rank (used by hcart::agree_on_errors).
  void set_collective(bool value) noexcept { m_collective = value; }

private:
  bool m_collective = false;
};

/// \brief Bad input: a value from the caller, a deck or a command line that hcart cannot
/// use. Applications end with exit code 2 on it.
class InputError : public Error {
public:
  explicit InputError(const std::string& message) : Error(message) {}
};

namespace impl {
[[noreturn]] void throw_input_error(const std::string& message);
[[noreturn]] void throw_error(const std::string& message);
} // namespace impl

} // namespace hcart

/// \brief Always-on check of a caller's input: throws hcart::InputError with the streamed
/// message when `cond` is false, e.g.
/// `HCART_REQUIRE(n >= 1, "hcart::factorize: n = " << n << ", expected n >= 1");`
#define HCART_REQUIRE(cond, message)                                                               \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::ostringstream hcart_require_stream_;                                                    \
      hcart_require_stream_ << message;                                                            \
      ::hcart::impl::throw_input_error(hcart_require_stream_.str());                               \
    }                                                                                              \
  } while (false)

/// \brief Always-on check of an internal invariant or a runtime failure: throws
/// hcart::Error with the streamed message when `cond` is false.
#define HCART_CHECK(cond, message)                                                                 \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::ostringstream hcart_check_stream_;                                                      \
      hcart_check_stream_ << message;                                                              \
      ::hcart::impl::throw_error(hcart_check_stream_.str());                                       \
    }                                                                                              \
  } while (false)

/// \brief Debug-only check for hot paths; compiled out when NDEBUG is defined.
#ifdef NDEBUG
#define HCART_ASSERT(cond) ((void)0)
#else
#define HCART_ASSERT(cond)                                                                         \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      ::hcart::impl::throw_error(std::string("HCART_ASSERT failed: " #cond " at ") + __FILE__ +    \
                                 ":" + std::to_string(__LINE__));                                  \
    }                                                                                              \
  } while (false)
#endif
