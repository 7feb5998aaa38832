#include "Text.hpp"

#include <hcart/core/Error.hpp>

#include <cmath>
#include <cstdio>

namespace hcart::apps {

namespace {
std::vector<std::string> split(const std::string& option, const std::string& text,
                               std::size_t max_count) {
  std::vector<std::string> items;
  std::string item;
  for (char c : text + ",") {
    if (c == ',') {
      items.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  HCART_REQUIRE(!text.empty() && items.size() <= max_count,
                option << " '" << text << "': " << (text.empty() ? 0 : items.size())
                       << " values, expected 1 to " << max_count << " separated by commas");
  for (const auto& s : items) {
    HCART_REQUIRE(!s.empty(), option << " '" << text << "': an empty value");
  }
  return items;
}
} // namespace

std::vector<std::int64_t> parse_int_list(const std::string& option, const std::string& text,
                                         std::size_t max_count) {
  std::vector<std::int64_t> out;
  for (const auto& s : split(option, text, max_count)) {
    std::size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    HCART_REQUIRE(used == s.size() && used > 0,
                  option << " '" << text << "': '" << s << "' is not an integer");
    out.push_back(value);
  }
  return out;
}

std::vector<double> parse_real_list(const std::string& option, const std::string& text,
                                    std::size_t max_count) {
  std::vector<double> out;
  for (const auto& s : split(option, text, max_count)) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    HCART_REQUIRE(used == s.size() && used > 0 && std::isfinite(value),
                  option << " '" << text << "': '" << s << "' is not a finite number");
    out.push_back(value);
  }
  return out;
}

std::vector<bool> parse_bool_list(const std::string& option, const std::string& text,
                                  std::size_t max_count) {
  std::vector<bool> out;
  for (const auto& s : split(option, text, max_count)) {
    if (s == "1" || s == "true" || s == "yes")
      out.push_back(true);
    else if (s == "0" || s == "false" || s == "no")
      out.push_back(false);
    else {
      throw InputError(option + " '" + text + "': '" + s + "' is not 0 or 1");
    }
  }
  return out;
}

std::string join(const std::vector<std::int64_t>& values, const char* separator) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) {
    s += (i ? separator : "") + std::to_string(values[i]);
  }
  return s;
}

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  while (std::fabs(bytes) >= 1024.0 && u < 5) {
    bytes /= 1024.0;
    ++u;
  }
  char text[32];
  if (u == 0)
    std::snprintf(text, sizeof text, "%.0f B", bytes);
  else
    std::snprintf(text, sizeof text, bytes < 10 ? "%.2f %s" : "%.1f %s", bytes, units[u]);
  return text;
}

std::string fixed(double value, const char* format) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

} // namespace hcart::apps
