#include "CopyList.hpp"

#include <hcart/core/Error.hpp>

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
  } else {
    // The functor carries the FieldRefs (2 KiB): Kokkos' CUDA backend would pass it through
    // constant memory, each launch waiting for the last one's to be free (a host-side
    // synchronisation per pack and unpack); light-weight work items take it as kernel
    // arguments instead.
    const auto policy =
        Kokkos::Experimental::require(range_policy(space, std::int64_t(0), m_cells, m_threads),
                                      Kokkos::Experimental::WorkItemProperty::HintLightWeight);
    Kokkos::parallel_for(label, policy, CopyCells{m_by_cell, fields, buffer});
  }
}

} // namespace hcart::impl
