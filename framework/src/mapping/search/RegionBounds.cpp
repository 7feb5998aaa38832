// The node-region search's lower bounds and alike directions (RegionBounds.hpp).
#include "mapping/search/RegionBounds.hpp"

#include "mapping/FactorSearch.hpp"
#include "mapping/search/RegionBoxes.hpp"

#include <algorithm>
#include <functional>

namespace hcart::impl::regions {

double cheapest_box(const SearchContext& context, const std::vector<std::int64_t>& dims,
                    std::int64_t volume) {
  const int D = context.dims();
  double cheapest = infinite;
  std::vector<Span> spans(D);
  for (const auto& e : ordered_factorizations(volume, dims)) {
    // At the low corner: the messages come in pairs of opposite sides of equal weight, so
    // the other corners (as few neighbours, the same cells) cost the same.
    for (int i = 0; i < D; ++i) {
      spans[i] = span_of(context.problem.cells[i], dims[i], context.problem.periodic[i], 0, e[i], 0,
                         dims[i]);
      spans[i].cells = static_cast<double>(e[i] * (context.problem.cells[i] / dims[i]));
    }
    cheapest = std::min(cheapest, unit_cost(context.problem, spans.data()));
  }
  return cheapest;
}

double cheapest_node_box(const SearchContext& context, const std::vector<std::int64_t>& dims) {
  double bound = 0;
  for (const auto& kind : context.node_classes)
    bound = std::max(bound, cheapest_box(context, dims, kind.ranks));
  return bound;
}

std::vector<int> alike_directions(const SearchContext& context, const LoadProblem* bytes) {
  const int D = context.dims();
  std::vector<int> alike(D);
  const auto swapped = [](std::uint32_t bits, int i, int j) {
    const std::uint32_t bi = (bits >> i) & 1u, bj = (bits >> j) & 1u;
    bits &= ~((1u << i) | (1u << j));
    return bits | (bi << j) | (bj << i);
  };
  const auto mirrored = [&](const LoadProblem& p, int i, int j) {
    if (p.cells[i] != p.cells[j] || p.periodic[i] != p.periodic[j]) return false;
    for (const auto& t : p.terms) {
      const std::uint32_t crossed = swapped(t.crossed, i, j), plus = swapped(t.plus, i, j);
      const bool found = std::any_of(p.terms.begin(), p.terms.end(), [&](const auto& u) {
        return u.crossed == crossed && u.plus == plus && u.weight == t.weight;
      });
      if (!found) return false;
    }
    return true;
  };
  const auto same = [&](int i, int j) {
    if (context.caps[i] != context.caps[j] || context.fixed[i] != context.fixed[j]) return false;
    if (!context.divides.empty() && context.divides[i] != context.divides[j]) return false;
    return mirrored(context.problem, i, j) && (bytes == nullptr || mirrored(*bytes, i, j));
  };
  for (int i = 0; i < D; ++i) {
    alike[i] = i;
    for (int j = 0; j < i; ++j) {
      if (alike[j] == j && same(i, j)) {
        alike[i] = j;
        break;
      }
    }
  }
  return alike;
}

bool mirrored(const std::vector<int>& alike, const std::vector<std::int64_t>& d) {
  for (std::size_t i = 0; i < alike.size(); ++i)
    for (std::size_t j = i + 1; j < alike.size(); ++j)
      if (alike[i] == alike[j] && d[i] < d[j]) return true;
  return false;
}

} // namespace hcart::impl::regions
