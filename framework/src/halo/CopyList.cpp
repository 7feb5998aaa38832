#include "CopyList.hpp"

#include <hcart/core/Error.hpp>

#include <algorithm>
#include <limits>

namespace hcart::impl {

namespace {

// The host pattern, only where kernels run on the host (a template, so that a device build
// never instantiates the host-only functor).
template <class Space>
void run_rows(const Space& space, const char* label, int threads, const CopyRows& copy) {
  if constexpr (runs_on_host<Space>) {
    const std::int64_t tasks = (copy.rows + CopyRows::kRowsPerTask - 1) / CopyRows::kRowsPerTask;
    Kokkos::parallel_for(label, range_policy(space, std::int64_t(0), tasks, threads), copy);
  } else {
    throw Error(std::string("hcart::HaloExchanger: the host row pattern of '") + label +
                "' cannot run on the " + Space::name() + " execution space");
  }
}

} // namespace

CopyList::CopyList(std::vector<CopyItem> items) {
  if (items.empty()) return;
  auto by_cell = Kokkos::View<CopyItem*, Kokkos::HostSpace>("hcart::halo::items", items.size());
  auto by_row = Kokkos::View<CopyItem*, Kokkos::HostSpace>("hcart::halo::rows", items.size());
  for (std::size_t t = 0; t < items.size(); ++t) {
    HCART_CHECK(items[t].box.cells() < (std::int64_t(1) << 32),
                "hcart::HaloExchanger: a halo box of " << items[t].box.cells()
                                                       << " cells, expected fewer than 2^32");
    m_slots = std::max(m_slots, items[t].field + 1);
    by_cell(t) = items[t];
    by_cell(t).first = m_cells;
    by_row(t) = items[t];
    by_row(t).first = m_rows;
    m_cells += items[t].box.cells();
    m_rows += static_cast<std::int64_t>(items[t].box.extent(0)) * items[t].box.extent(1);
  }
  m_by_cell = Kokkos::create_mirror_view_and_copy(MemorySpace(), by_cell);
  m_by_row = Kokkos::create_mirror_view_and_copy(MemorySpace(), by_row);
  m_threads = execution_concurrency();
}

void CopyList::run(const ExecutionSpace& space, const char* label, LoopPattern pattern,
                   const FieldRefs& fields, unsigned char* buffer) const {
  if (m_cells == 0) return;
  if (pattern == LoopPattern::HostRows) {
    run_rows(space, label, m_threads, CopyRows{m_by_row, fields, buffer, m_rows});
  } else if (m_slots <= kFewSlots) {
    run_cells<kFewSlots>(space, label, fields, buffer);
  } else {
    run_cells<kMaxHaloFields>(space, label, fields, buffer);
  }
}

template <int Slots>
void CopyList::run_cells(const ExecutionSpace& space, const char* label, const FieldRefs& fields,
                         unsigned char* buffer) const {
  CopyCells<Slots> copy{m_by_cell, {}, buffer};
  for (int s = 0; s < Slots; ++s)
    copy.fields[s] = fields[s];
  // All 64 slots (2 KiB): Kokkos' CUDA backend would pass the functor through constant
  // memory, each launch waiting for the last one's to be free (a host-side synchronisation
  // per pack and unpack); light-weight work items take it as kernel arguments instead. A
  // few slots fit the kernel's parameters as they are.
  const auto launch = [&](auto policy) {
    if constexpr (Slots > kFewSlots) {
      Kokkos::parallel_for(label,
                           Kokkos::Experimental::require(
                               policy, Kokkos::Experimental::WorkItemProperty::HintLightWeight),
                           copy);
    } else {
      Kokkos::parallel_for(label, policy, copy);
    }
  };
  if (m_cells <= std::numeric_limits<int>::max()) {
    launch(range_policy(space, 0, static_cast<int>(m_cells), m_threads));
  } else {
    launch(range_policy(space, std::int64_t(0), m_cells, m_threads));
  }
}

} // namespace hcart::impl
