#include "DeckText.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace hcart::deck_text {

const char* type_name(DeckType type) {
  switch (type) {
  case DeckType::Integer: return "an integer";
  case DeckType::Real: return "a number";
  case DeckType::Boolean: return "true or false";
  case DeckType::String: return "a string";
  case DeckType::IntegerList: return "a list of integers";
  case DeckType::RealList: return "a list of numbers";
  case DeckType::BooleanList: return "a list of true/false";
  }
  return "?";
}

bool is_list(DeckType t) {
  return t == DeckType::IntegerList || t == DeckType::RealList || t == DeckType::BooleanList;
}

std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

std::string format_real(double v) {
  char text[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    if (std::strtod(text, nullptr) == v) break;
  }
  std::string s = text;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0"; // stay a TOML float
  return s;
}

std::string toml_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string format_bound(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.15g", v);
  return text;
}

std::string known_keys(const DeckSchema& schema, const std::string& table) {
  std::string s;
  for (const auto& k : schema.keys()) {
    if (k.table == table) s += (s.empty() ? "" : ", ") + k.key;
  }
  return s;
}

std::string known_tables(const DeckSchema& schema) {
  std::string s;
  std::vector<std::string> seen;
  for (const auto& k : schema.keys()) {
    if (std::find(seen.begin(), seen.end(), k.table) != seen.end()) continue;
    seen.push_back(k.table);
    s += (s.empty() ? "[" : ", [") + k.table + "]";
  }
  return s;
}

} // namespace hcart::deck_text
