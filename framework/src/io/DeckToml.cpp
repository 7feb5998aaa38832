#include "DeckToml.hpp"

#include "DeckText.hpp"

#include <hcart/core/Error.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace hcart::deck_toml {

namespace {

// The literal text of a value in its deck line (or --set), e.g. "99999999999999999999".
std::string literal_of(const toml::value& v) {
  const toml::source_location where = v.location();
  const std::string& line = where.line_str();
  const std::size_t begin = where.column() > 0 ? where.column() - 1 : 0;
  return begin < line.size() ? line.substr(begin, where.region()) : std::string();
}

// True when an integer literal (decimal, underscores allowed) lies outside 64 bits, which
// toml11 silently caps at the largest or smallest integer.
bool overflows(const toml::value& v) {
  const std::int64_t x = v.as_integer();
  if (x != std::numeric_limits<std::int64_t>::max() &&
      x != std::numeric_limits<std::int64_t>::min()) {
    return false;
  }
  std::string digits;
  for (char c : literal_of(v)) {
    if (c != '_') digits += c;
  }
  if (digits.empty() || digits.find_first_of("xob") != std::string::npos) return false;
  errno = 0;
  std::strtoll(digits.c_str(), nullptr, 10);
  return errno == ERANGE;
}

// A value as the user wrote it, compactly: 1, 2.5, true, "text", [1, 2, 3].
std::string shown(const toml::value& v) {
  if (v.is_integer()) return std::to_string(v.as_integer());
  if (v.is_floating()) return deck_text::format_real(v.as_floating());
  if (v.is_boolean()) return v.as_boolean() ? "true" : "false";
  if (v.is_string()) return deck_text::toml_quoted(v.as_string().str);
  if (v.is_array()) {
    std::string s = "[";
    for (const auto& item : v.as_array())
      s += (s.size() > 1 ? ", " : "") + shown(item);
    return s + "]";
  }
  std::ostringstream out;
  out << v;
  return deck_text::one_line(out.str());
}

} // namespace

void convert(const toml::value& v, const DeckKey& key, const std::string& where,
             std::vector<double>& reals, std::vector<std::int64_t>& ints, std::vector<bool>& bools,
             std::string& text) {
  const std::string name = "[" + key.table + "] " + key.key;
  auto fail = [&](const std::string& why) {
    throw InputError(where + ": " + name + " = " + shown(v) + ": " + why);
  };
  std::vector<toml::value> items;
  if (deck_text::is_list(key.type)) {
    if (!v.is_array()) fail(std::string("expected ") + deck_text::type_name(key.type));
    items = v.as_array();
    if (key.list_length && items.size() != key.list_length) {
      fail("expected " + std::to_string(key.list_length) + " entries, got " +
           std::to_string(items.size()));
    }
    if (items.empty() || items.size() > 16) fail("expected 1 to 16 entries");
  } else {
    items = {v};
  }
  for (const auto& item : items) {
    switch (key.type) {
    case DeckType::Integer:
    case DeckType::IntegerList:
      if (!item.is_integer()) fail(std::string("expected ") + deck_text::type_name(key.type));
      if (overflows(item)) {
        throw InputError(
            where + ": [" + key.table + "] " + key.key + " = " + literal_of(item) +
            ": out of range, expected " +
            (key.minimum || key.maximum
                 ? std::string(key.minimum ? ">= " + deck_text::format_bound(*key.minimum) : "") +
                       (key.minimum && key.maximum ? ", " : "") +
                       (key.maximum ? "<= " + deck_text::format_bound(*key.maximum) : "")
                 : std::string("an integer from -9223372036854775808 to "
                               "9223372036854775807")));
      }
      ints.push_back(item.as_integer());
      reals.push_back(static_cast<double>(item.as_integer()));
      break;
    case DeckType::Real:
    case DeckType::RealList:
      if (item.is_integer())
        reals.push_back(static_cast<double>(item.as_integer()));
      else if (item.is_floating())
        reals.push_back(item.as_floating());
      else
        fail(std::string("expected ") + deck_text::type_name(key.type));
      if (!std::isfinite(reals.back())) fail("expected a finite number");
      break;
    case DeckType::Boolean:
    case DeckType::BooleanList:
      if (!item.is_boolean()) fail(std::string("expected ") + deck_text::type_name(key.type));
      bools.push_back(item.as_boolean());
      break;
    case DeckType::String:
      if (!item.is_string()) fail("expected a string");
      text = item.as_string().str;
      if (!key.choices.empty() &&
          std::find(key.choices.begin(), key.choices.end(), text) == key.choices.end()) {
        std::string list;
        for (const auto& c : key.choices)
          list += (list.empty() ? "" : ", ") + deck_text::toml_quoted(c);
        fail("expected one of " + list);
      }
      break;
    }
  }
  for (double x : reals) {
    if (key.minimum && (key.minimum_exclusive ? !(x > *key.minimum) : !(x >= *key.minimum))) {
      fail(std::string("expected ") + (key.minimum_exclusive ? "> " : ">= ") +
           deck_text::format_bound(*key.minimum) +
           (deck_text::is_list(key.type) ? " for every entry" : ""));
    }
    if (key.maximum && !(x <= *key.maximum)) {
      fail("expected <= " + deck_text::format_bound(*key.maximum) +
           (deck_text::is_list(key.type) ? " for every entry" : ""));
    }
  }
}

toml::value parse_text(const std::string& text, const std::string& name, const std::string& where) {
  std::istringstream in(text);
  try {
    return toml::parse(in, name);
  } catch (const toml::syntax_error& e) {
    const std::string what = e.what();
    std::string first = deck_text::one_line(what.substr(0, what.find('\n')));
    if (first.rfind("[error] ", 0) == 0) first = first.substr(8);
    // toml11 reports where it noticed the error, which for an unclosed array or table is the
    // next line; its message also shows where the construct began (" 2 | size = [8, 8"):
    // name that line, the one to fix.
    const std::size_t noticed = e.location().line();
    std::size_t began = noticed;
    std::istringstream lines(what);
    std::string line;
    while (std::getline(lines, line)) {
      std::size_t digits = line.find_first_not_of(' ');
      std::size_t end =
          digits == std::string::npos ? digits : line.find_first_not_of("0123456789", digits);
      if (digits == std::string::npos || end == digits || end == std::string::npos ||
          line.compare(end, 2, " |") != 0) {
        continue;
      }
      began = std::min<std::size_t>(began, std::stoul(line.substr(digits, end - digits)));
    }
    throw InputError(
        where + ", line " + std::to_string(began) + ": syntax error: " + first +
        (began < noticed ? " (noticed on line " + std::to_string(noticed) + ")" : std::string()));
  }
}

} // namespace hcart::deck_toml
