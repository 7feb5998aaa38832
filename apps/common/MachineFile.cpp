#include "MachineFile.hpp"

#include "Text.hpp"

#include <hcart/core/Error.hpp>

#include <fstream>
#include <sstream>

namespace hcart::apps {

namespace {
constexpr const char* schema = "hcart-machine-file/1";

// The field `key` of `object`, of the JSON type `check` accepts; else an error naming it.
template <class Check>
const nlohmann::json& field(const std::string& path, const nlohmann::json& object, const char* key,
                            const char* expected, Check check) {
  HCART_REQUIRE(object.is_object() && object.contains(key) && check(object.at(key)),
                "machine file '" << path << "': '" << key << "' missing or not " << expected);
  return object.at(key);
}
} // namespace

nlohmann::json machine_file_json(const MachineTimings& timings, const std::string& source) {
  nlohmann::json levels = nlohmann::json::array();
  for (const LevelTiming& level : timings.levels) {
    auto curve = [](const std::vector<ExchangeSample>& samples) {
      nlohmann::json out = nlohmann::json::array();
      for (const ExchangeSample& s : samples)
        out.push_back({{"unit_bytes", s.unit_bytes}, {"seconds", s.seconds}});
      return out;
    };
    nlohmann::json entry{{"name", level.name},
                         {"units", level.units},
                         {"latency_seconds", level.latency},
                         {"messages_per_rank", level.messages},
                         {"bandwidth_bytes_per_second", level.bandwidth()},
                         {"exchange", curve(level.exchange)}};
    if (!level.pair.empty()) entry["pair"] = curve(level.pair);
    levels.push_back(entry);
  }
  return {{"schema", schema}, {"machine", timings.machine}, {"source", source}, {"levels", levels}};
}

MachineTimings read_machine_file(const std::string& path) {
  std::ifstream in(path);
  HCART_REQUIRE(in.good(), "machine file '" << path << "': cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
  HCART_REQUIRE(!doc.is_discarded(), "machine file '" << path << "': not JSON");
  const auto is_string = [](const nlohmann::json& j) { return j.is_string(); };
  const auto is_integer = [](const nlohmann::json& j) { return j.is_number_integer(); };
  const auto is_number = [](const nlohmann::json& j) { return j.is_number(); };
  const auto is_array = [](const nlohmann::json& j) { return j.is_array(); };
  const std::string found = field(path, doc, "schema", "a string", is_string);
  HCART_REQUIRE(found == schema, "machine file '" << path << "': schema '" << found
                                                  << "', expected '" << schema << "'");
  MachineTimings timings;
  timings.machine = field(path, doc, "machine", "a string", is_string).get<std::string>();
  for (const nlohmann::json& l : field(path, doc, "levels", "an array", is_array)) {
    LevelTiming level;
    level.name = field(path, l, "name", "a string", is_string).get<std::string>();
    level.units = field(path, l, "units", "an integer", is_integer).get<std::int64_t>();
    level.latency = field(path, l, "latency_seconds", "a number", is_number).get<double>();
    level.messages = field(path, l, "messages_per_rank", "an integer", is_integer).get<int>();
    for (const nlohmann::json& s : field(path, l, "exchange", "an array", is_array)) {
      level.exchange.push_back(
          {field(path, s, "unit_bytes", "an integer", is_integer).get<std::int64_t>(),
           field(path, s, "seconds", "a number", is_number).get<double>()});
    }
    if (l.contains("pair")) { // optional: files measured before pairs were have none
      for (const nlohmann::json& s : field(path, l, "pair", "an array", is_array)) {
        level.pair.push_back(
            {field(path, s, "unit_bytes", "an integer", is_integer).get<std::int64_t>(),
             field(path, s, "seconds", "a number", is_number).get<double>()});
      }
    }
    timings.levels.push_back(level);
  }
  try {
    validate(timings);
  } catch (const InputError& e) {
    throw InputError("machine file '" + path + "': " + e.what());
  }
  return timings;
}

Table machine_timings_table(const MachineTimings& timings) {
  Table table({"level", "units", "latency", "bandwidth", "exchange, smallest", "largest"});
  for (const LevelTiming& level : timings.levels) {
    const ExchangeSample& first = level.exchange.front();
    const ExchangeSample& last = level.exchange.back();
    table.add_row({level.name, std::to_string(level.units), fixed(level.latency * 1e6, "%.1f us"),
                   fixed(level.bandwidth() / 1e6, "%.1f MB/s"),
                   human_bytes(static_cast<double>(first.unit_bytes)) + " in " +
                       fixed(first.seconds * 1e3, "%.3f ms"),
                   human_bytes(static_cast<double>(last.unit_bytes)) + " in " +
                       fixed(last.seconds * 1e3, "%.3f ms")});
  }
  return table;
}

} // namespace hcart::apps
