// The host-access check: a host build that behaves like a device build where it matters
// most, so that host code touching a field's values (which on a GPU live in device memory)
// is caught on any machine (docs/testing.md, "Host access to device memory").
//
// With HCART_CHECK_HOST_ACCESS=1 in the environment of a host build (Serial, OpenMP), every
// field made by Grid::make_field is protected (mprotect, PROT_NONE) whenever no Kokkos kernel
// or deep_copy runs: Kokkos Tools callbacks lift the protection for the time of each
// parallel_for / parallel_reduce / parallel_scan / deep_copy and restore it afterwards. Host
// code that reads or writes a field outside them faults, and the fault handler names the
// field and prints a backtrace before the process aborts. hcart::host_mirror and
// hcart::host_copy (Field.hpp) return separate copies while the check is on (Kokkos'
// create_mirror_view returns the field itself on a host build).
//
// What it cannot see: views not made by Grid::make_field; the partial pages at the two ends
// of a field (only whole pages are protected: a field under two pages may go unchecked);
// host code that reads fields through Kokkos::create_mirror_view on a host build (reported as
// an access, though it is correct on a device: use hcart::host_mirror); code paths the run
// does not take. It does nothing in device builds, where the hardware does the same.
#pragma once

#include <cstddef>

namespace hcart::impl {

/// \brief True while the check runs (HCART_CHECK_HOST_ACCESS set in a host build, from
/// the first field on).
bool host_access_check_on() noexcept;

/// \brief Protects the whole pages of [data, data + bytes) outside kernels until Kokkos
/// frees the allocation; `label` names it in the report. Starts the check with the first
/// field when HCART_CHECK_HOST_ACCESS asks for it ("1" or "on"; "0", "off" or unset: no
/// check). \throws hcart::InputError for any other value of HCART_CHECK_HOST_ACCESS.
void watch_field(const void* data, std::size_t bytes, const char* label);

/// \brief Lifts every protection and removes the callbacks (hcart::Environment, before
/// Kokkos finalises).
void stop_host_access_check() noexcept;

} // namespace hcart::impl
