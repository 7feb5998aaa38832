#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/io/MachineFile.hpp>
#include <hcart/io/OutputDirectory.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace hcart {

namespace {

// The field `key` of `object`, of the JSON type `check` accepts; else an error naming it.
template <class Check>
const nlohmann::json& field(const std::string& path, const nlohmann::json& object, const char* key,
                            const char* expected, Check check) {
  HCART_REQUIRE(object.is_object() && object.contains(key) && check(object.at(key)),
                "machine file '" << path << "': '" << key << "' missing or not " << expected);
  return object.at(key);
}

nlohmann::json curve_json(const std::vector<ExchangeSample>& samples) {
  nlohmann::json out = nlohmann::json::array();
  for (const ExchangeSample& s : samples)
    out.push_back({{"unit_bytes", s.unit_bytes}, {"seconds", s.seconds}});
  return out;
}

std::vector<ExchangeSample> read_curve(const std::string& path, const nlohmann::json& level,
                                       const char* key) {
  const auto is_integer = [](const nlohmann::json& j) { return j.is_number_integer(); };
  const auto is_number = [](const nlohmann::json& j) { return j.is_number(); };
  const auto is_array = [](const nlohmann::json& j) { return j.is_array(); };
  std::vector<ExchangeSample> samples;
  for (const nlohmann::json& s : field(path, level, key, "an array", is_array)) {
    samples.push_back({field(path, s, "unit_bytes", "an integer", is_integer).get<std::int64_t>(),
                       field(path, s, "seconds", "a number", is_number).get<double>()});
  }
  return samples;
}

} // namespace

const char* machine_file_schema() noexcept {
  return "hcart-machine-file/1";
}

std::string machine_file_text(const MachineTimings& timings, const std::string& source) {
  nlohmann::json levels = nlohmann::json::array();
  for (const LevelTiming& level : timings.levels) {
    nlohmann::json entry{{"name", level.name},
                         {"units", level.units},
                         {"latency_seconds", level.latency},
                         {"messages_per_rank", level.messages},
                         {"bandwidth_bytes_per_second", level.bandwidth()},
                         {"exchange", curve_json(level.exchange)}};
    if (!level.pair.empty()) entry["pair"] = curve_json(level.pair);
    levels.push_back(entry);
  }
  const nlohmann::json doc{{"schema", machine_file_schema()},
                           {"machine", timings.machine},
                           {"source", source},
                           {"levels", levels}};
  return doc.dump(2) + "\n";
}

void write_machine_file(const std::string& path, const MachineTimings& timings,
                        const std::string& source) {
  write_text_file(path, machine_file_text(timings, source), "machine file");
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
  HCART_REQUIRE(found == machine_file_schema(), "machine file '" << path << "': schema '" << found
                                                                 << "', expected '"
                                                                 << machine_file_schema() << "'");
  MachineTimings timings;
  timings.machine = field(path, doc, "machine", "a string", is_string).get<std::string>();
  for (const nlohmann::json& l : field(path, doc, "levels", "an array", is_array)) {
    LevelTiming level;
    level.name = field(path, l, "name", "a string", is_string).get<std::string>();
    level.units = field(path, l, "units", "an integer", is_integer).get<std::int64_t>();
    level.latency = field(path, l, "latency_seconds", "a number", is_number).get<double>();
    const auto messages =
        field(path, l, "messages_per_rank", "an integer", is_integer).get<std::int64_t>();
    HCART_REQUIRE(messages >= 1 && messages <= 1 << 20,
                  "machine file '" << path << "': messages_per_rank " << messages
                                   << ", expected 1 to 1048576");
    level.messages = static_cast<int>(messages);
    level.exchange = read_curve(path, l, "exchange");
    // Optional: files measured before pairs were have none.
    if (l.contains("pair")) level.pair = read_curve(path, l, "pair");
    timings.levels.push_back(level);
  }
  try {
    validate(timings);
  } catch (const InputError& e) {
    throw InputError("machine file '" + path + "': " + e.what());
  }
  return timings;
}

MachineTimings read_machine_file(const std::string& path, MPI_Comm comm) {
  MachineTimings timings;
  agree_on_errors(comm, [&] { timings = read_machine_file(path); });
  return timings;
}

} // namespace hcart
