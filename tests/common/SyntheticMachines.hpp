// Synthetic machines for tests that sweep machine shapes at any rank count.
#pragma once

#include <hcart/mapping/Factorize.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace hcart::test {

/// \brief Synthetic machines with exactly `ranks` ranks: every node x core split, and a
/// 3-level one when 4 divides the count.
inline std::vector<std::string> machines_for(int ranks) {
  std::vector<std::string> out;
  for (std::int64_t nodes : hcart::divisors(ranks)) {
    out.push_back("node:" + std::to_string(nodes) + " core:" + std::to_string(ranks / nodes));
  }
  if (ranks % 4 == 0) out.push_back("node:" + std::to_string(ranks / 4) + " socket:2 core:2");
  return out;
}

} // namespace hcart::test
