#include "LaunchFile.hpp"

#include <hcart/core/Error.hpp>

#include <sstream>

namespace hcart::apps {

std::vector<LaunchSlot> block_slots(const Machine& machine) {
  const Machine nodes = machine.without_network(); // the same block numbers
  std::vector<LaunchSlot> slots(static_cast<std::size_t>(machine.ranks()));
  for (std::int64_t b = 0; b < machine.ranks(); ++b) {
    const std::int64_t node = nodes.node_of_block(b);
    slots[static_cast<std::size_t>(b)] = {node, b - nodes.node_first_block(node)};
  }
  return slots;
}

std::vector<LaunchSlot> launch_slots(const Plan& plan, const Machine& machine) {
  const std::vector<LaunchSlot> of_block = block_slots(machine);
  std::vector<LaunchSlot> slots(static_cast<std::size_t>(machine.ranks()));
  for (std::int64_t r = 0; r < machine.ranks(); ++r) {
    // The code puts world rank r at Cartesian rank r; hcart wants Cartesian rank r on the
    // machine's rank `place`: run r there.
    const std::int64_t place = plan.world_rank_at(r, machine);
    slots[static_cast<std::size_t>(r)] = of_block[machine.block_number(place)];
  }
  return slots;
}

std::string openmpi_rankfile(const std::vector<LaunchSlot>& slots,
                             const std::vector<std::string>& hosts) {
  std::ostringstream out;
  for (std::size_t r = 0; r < slots.size(); ++r)
    out << "rank " << r << "=" << hosts[static_cast<std::size_t>(slots[r].node)]
        << " slot=" << slots[r].slot << "\n";
  return out.str();
}

std::string host_per_rank_file(const std::vector<LaunchSlot>& slots,
                               const std::vector<std::string>& hosts) {
  std::ostringstream out;
  for (const LaunchSlot& s : slots)
    out << hosts[static_cast<std::size_t>(s.node)] << "\n";
  return out.str();
}

std::vector<std::string> parse_hosts(const std::string& text, const Machine& machine) {
  std::vector<std::string> hosts;
  std::string name;
  std::istringstream in(text);
  while (std::getline(in, name, ','))
    hosts.push_back(name);
  if (!text.empty() && text.back() == ',') hosts.push_back("");
  const std::int64_t nodes = machine.without_network().levels()[0].size;
  HCART_REQUIRE(static_cast<std::int64_t>(hosts.size()) == nodes,
                "--hosts '" << text << "': " << hosts.size() << " hosts for a machine of " << nodes
                            << " nodes (" << machine.to_string() << "), expected one per node");
  for (const std::string& h : hosts)
    HCART_REQUIRE(!h.empty() && h.find_first_of(" \t=") == std::string::npos,
                  "--hosts '" << text
                              << "': an empty or blank host name, expected names "
                                 "separated by commas");
  return hosts;
}

} // namespace hcart::apps
