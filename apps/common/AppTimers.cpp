#include "AppTimers.hpp"

namespace hcart::apps {

void account_halo_times(Timers& timers, const HaloExchanger& halo, HaloTimes& accounted) {
  const HaloTimes& t = halo.times();
  timers.add("halo.pack", t.pack - accounted.pack + t.post - accounted.post);
  timers.add("halo.wait", t.wait - accounted.wait);
  timers.add("halo.unpack", t.unpack - accounted.unpack);
  if (t.check > accounted.check) timers.add("halo.check", t.check - accounted.check);
  accounted = t;
}

nlohmann::json timers_json(const std::vector<Timers::Summary>& summary, bool with_calls) {
  nlohmann::json timers = nlohmann::json::array();
  for (const auto& t : summary) {
    nlohmann::json entry = {{"name", t.name},
                            {"min", t.min},
                            {"mean", t.mean},
                            {"max", t.max},
                            {"imbalance", t.imbalance}};
    if (with_calls) entry["calls"] = t.calls;
    timers.push_back(entry);
  }
  return timers;
}

} // namespace hcart::apps
