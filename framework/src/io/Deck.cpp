#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/io/Deck.hpp>

#include <toml.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace hcart {

namespace {

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

// "deck 'file', line 7" (or the override's text), for messages.
struct Origin {
  std::string where;
};

std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

// The shortest text that reads back as the same double.
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

// A bound for messages: 1, 0.5, 1e-08, 1000000000.
std::string format_bound(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.15g", v);
  return text;
}

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
  if (v.is_floating()) return format_real(v.as_floating());
  if (v.is_boolean()) return v.as_boolean() ? "true" : "false";
  if (v.is_string()) return toml_quoted(v.as_string().str);
  if (v.is_array()) {
    std::string s = "[";
    for (const auto& item : v.as_array())
      s += (s.size() > 1 ? ", " : "") + shown(item);
    return s + "]";
  }
  std::ostringstream out;
  out << v;
  return one_line(out.str());
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

} // namespace

DeckKey& DeckSchema::add(const std::string& table, const std::string& key, DeckType type,
                         const std::string& default_value, const std::string& help) {
  HCART_CHECK(find(table, key) == nullptr,
              "hcart::DeckSchema: " << table << "." << key << " declared twice");
  DeckKey k;
  k.table = table;
  k.key = key;
  k.type = type;
  k.default_value = default_value;
  k.help = help;
  m_keys.push_back(k);
  return m_keys.back();
}

void DeckSchema::rename(const std::string& table, const std::string& old_key,
                        const std::string& key) {
  HCART_CHECK(find(table, key) != nullptr,
              "hcart::DeckSchema::rename: " << table << "." << key << " is not declared");
  HCART_CHECK(find(table, old_key) == nullptr,
              "hcart::DeckSchema::rename: " << table << "." << old_key << " is still declared");
  m_renamed[table + "." + old_key] = key;
}

const DeckKey* DeckSchema::renamed(const std::string& table, const std::string& old_key) const {
  const auto it = m_renamed.find(table + "." + old_key);
  return it == m_renamed.end() ? nullptr : find(table, it->second);
}

const DeckKey* DeckSchema::find(const std::string& table, const std::string& key) const {
  for (const auto& k : m_keys) {
    if (k.table == table && k.key == key) return &k;
  }
  return nullptr;
}

bool DeckSchema::has_table(const std::string& table) const {
  for (const auto& k : m_keys) {
    if (k.table == table) return true;
  }
  return false;
}

std::string DeckSchema::reference() const {
  std::ostringstream out;
  std::string table;
  // The former names of a table's keys, after its keys.
  auto former_names = [&](const std::string& of) {
    std::string names;
    for (const auto& [old, key] : m_renamed) {
      if (old.compare(0, of.size() + 1, of + ".") != 0) continue;
      names += (names.empty() ? "" : ", ") + std::string("`") + old.substr(of.size() + 1) +
               "` (now `" + key + "`)";
    }
    if (!names.empty()) out << "\nFormer names, still read: " << names << ".\n";
  };
  for (const auto& k : m_keys) {
    if (k.table != table) {
      if (!table.empty()) former_names(table);
      table = k.table;
      out << "\n### [" << table << "]\n\n| key | type | default | allowed | meaning |\n"
          << "| --- | --- | --- | --- | --- |\n";
    }
    std::string allowed;
    if (!k.choices.empty()) {
      for (const auto& c : k.choices)
        allowed += (allowed.empty() ? "" : ", ") + toml_quoted(c);
    }
    if (k.minimum) allowed += (k.minimum_exclusive ? "> " : ">= ") + format_bound(*k.minimum);
    if (k.maximum) allowed += (allowed.empty() ? "<= " : ", <= ") + format_bound(*k.maximum);
    if (k.list_length)
      allowed += (allowed.empty() ? "" : ", ") + std::to_string(k.list_length) + " entries";
    out << "| `" << k.key << "` | " << type_name(k.type) << " | `"
        << (k.default_value.empty() ? "(required)" : k.default_value) << "` | " << allowed << " | "
        << k.help << " |\n";
  }
  if (!table.empty()) former_names(table);
  return out.str();
}

namespace {

// Converts and checks one TOML value for `key`; throws InputError with `where`.
void convert(const toml::value& v, const DeckKey& key, const std::string& where,
             std::vector<double>& reals, std::vector<std::int64_t>& ints, std::vector<bool>& bools,
             std::string& text) {
  const std::string name = "[" + key.table + "] " + key.key;
  auto fail = [&](const std::string& why) {
    throw InputError(where + ": " + name + " = " + shown(v) + ": " + why);
  };
  std::vector<toml::value> items;
  if (is_list(key.type)) {
    if (!v.is_array()) fail(std::string("expected ") + type_name(key.type));
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
      if (!item.is_integer()) fail(std::string("expected ") + type_name(key.type));
      if (overflows(item)) {
        throw InputError(where + ": [" + key.table + "] " + key.key + " = " + literal_of(item) +
                         ": out of range, expected " +
                         (key.minimum || key.maximum
                              ? std::string(key.minimum ? ">= " + format_bound(*key.minimum) : "") +
                                    (key.minimum && key.maximum ? ", " : "") +
                                    (key.maximum ? "<= " + format_bound(*key.maximum) : "")
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
        fail(std::string("expected ") + type_name(key.type));
      if (!std::isfinite(reals.back())) fail("expected a finite number");
      break;
    case DeckType::Boolean:
    case DeckType::BooleanList:
      if (!item.is_boolean()) fail(std::string("expected ") + type_name(key.type));
      bools.push_back(item.as_boolean());
      break;
    case DeckType::String:
      if (!item.is_string()) fail("expected a string");
      text = item.as_string().str;
      if (!key.choices.empty() &&
          std::find(key.choices.begin(), key.choices.end(), text) == key.choices.end()) {
        std::string list;
        for (const auto& c : key.choices)
          list += (list.empty() ? "" : ", ") + toml_quoted(c);
        fail("expected one of " + list);
      }
      break;
    }
  }
  for (double x : reals) {
    if (key.minimum && (key.minimum_exclusive ? !(x > *key.minimum) : !(x >= *key.minimum))) {
      fail(std::string("expected ") + (key.minimum_exclusive ? "> " : ">= ") +
           format_bound(*key.minimum) + (is_list(key.type) ? " for every entry" : ""));
    }
    if (key.maximum && !(x <= *key.maximum)) {
      fail("expected <= " + format_bound(*key.maximum) +
           (is_list(key.type) ? " for every entry" : ""));
    }
  }
}

toml::value parse_text(const std::string& text, const std::string& name, const std::string& where) {
  std::istringstream in(text);
  try {
    return toml::parse(in, name);
  } catch (const toml::syntax_error& e) {
    const std::string what = e.what();
    std::string first = one_line(what.substr(0, what.find('\n')));
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

} // namespace

Deck Deck::parse(const std::string& text, const std::string& name,
                 const std::vector<std::string>& overrides, const DeckSchema& schema) {
  Deck deck;
  deck.m_name = name;
  auto owned = std::make_shared<DeckSchema>(schema);
  deck.m_schema = owned;
  const std::string file = "deck '" + name + "'";
  const toml::value root = parse_text(text, name, file);
  // A key given by its former name sets the key, with a note (DeckSchema::rename).
  auto lookup = [&](const std::string& table, const std::string& name_of_key,
                    const std::string& where) {
    const DeckKey* key = owned->find(table, name_of_key);
    if (key != nullptr) return key;
    key = owned->renamed(table, name_of_key);
    if (key != nullptr) {
      deck.m_notes.push_back(where + ": [" + table + "] " + name_of_key +
                             " is the former name of " + key->key + "; read as " + key->key);
    }
    return key;
  };
  auto store = [&](const DeckKey& key, const toml::value& v, const std::string& where, bool given) {
    Entry e;
    e.key = &key;
    e.given = given;
    e.where = given ? where : file + " (default)";
    convert(v, key, where, e.reals, e.ints, e.bools, e.text);
    deck.m_entries[key.table + "." + key.key] = e;
  };
  // Defaults first.
  for (const auto& key : owned->keys()) {
    if (key.default_value.empty()) continue;
    const toml::value d = parse_text("v = " + key.default_value, "default",
                                     "default of " + key.table + "." + key.key);
    store(key, toml::find(d, "v"), "default", false);
  }
  // The deck.
  for (const auto& [table, content] : root.as_table()) {
    const std::string line = file + ", line " + std::to_string(content.location().line());
    if (!content.is_table()) {
      throw InputError(line + ": key '" + table + "' outside a table; expected tables " +
                       known_tables(*owned));
    }
    if (!owned->has_table(table)) {
      throw InputError(line + ": unknown table [" + table + "]; expected " + known_tables(*owned));
    }
    for (const auto& [name_of_key, value] : content.as_table()) {
      const std::string at = file + ", line " + std::to_string(value.location().line());
      const DeckKey* key = lookup(table, name_of_key, at);
      if (key == nullptr) {
        throw InputError(at + ": unknown key '" + name_of_key + "' in [" + table +
                         "]; known keys: " + known_keys(*owned, table));
      }
      const Entry* before = &deck.m_entries[key->table + "." + key->key];
      if (before->given) {
        throw InputError(at + ": [" + table + "] " + key->key + " is given twice (" +
                         before->where + ", under its former name or this one)");
      }
      store(*key, value, at, true);
    }
  }
  // Command-line overrides.
  for (const auto& o : overrides) {
    const std::string where = "--set " + o;
    const auto eq = o.find('=');
    const auto dot = o.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot > eq || dot == 0 ||
        dot + 1 == eq) {
      throw InputError(where + ": expected table.key=value");
    }
    const std::string table = o.substr(0, dot), name_of_key = o.substr(dot + 1, eq - dot - 1);
    const DeckKey* key = lookup(table, name_of_key, where);
    if (key == nullptr) {
      throw InputError(where + ": unknown key " + table + "." + name_of_key +
                       (owned->has_table(table)
                            ? "; known keys in [" + table + "]: " + known_keys(*owned, table)
                            : "; expected tables " + known_tables(*owned)));
    }
    std::string value = o.substr(eq + 1);
    // A bare word for a string key needs no quotes on a command line.
    if (key->type == DeckType::String && (value.empty() || value.front() != '"'))
      value = toml_quoted(value);
    toml::value parsed;
    try {
      parsed = parse_text("v = " + value, "--set", where);
    } catch (const InputError&) {
      // Not a TOML value at all (--set jacobi.tolerance=abc): say what the key takes.
      throw InputError(where + ": [" + table + "] " + name_of_key + " = " + value + ": expected " +
                       type_name(key->type) +
                       (key->default_value.empty() ? std::string()
                                                   : " (written as in a deck, e.g. the default " +
                                                         key->default_value + ")"));
    }
    store(*key, toml::find(parsed, "v"), where, true);
  }
  for (const auto& key : owned->keys()) {
    if (deck.m_entries.count(key.table + "." + key.key) == 0) {
      throw InputError(file + ": missing key '" + key.key + "' in [" + key.table + "]");
    }
  }
  return deck;
}

Deck Deck::load(MPI_Comm comm, const std::string& path, const std::vector<std::string>& overrides,
                const DeckSchema& schema) {
  int rank = 0;
  HCART_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  std::string text;
  agree_on_errors(comm, [&] {
    if (rank != 0) return;
    std::error_code code;
    HCART_REQUIRE(!std::filesystem::is_directory(path, code),
                  "deck '" << path << "': is a directory, expected a TOML file");
    HCART_REQUIRE(std::filesystem::exists(path, code), "deck '" << path << "': does not exist");
    std::ifstream in(path, std::ios::binary);
    HCART_REQUIRE(in.good(), "deck '" << path << "': cannot be read");
    std::ostringstream all;
    all << in.rdbuf();
    text = all.str();
    HCART_REQUIRE(text.size() < (1u << 26), "deck '" << path << "': larger than 64 MiB");
  });
  long long length = static_cast<long long>(text.size());
  HCART_MPI_CHECK(MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, comm));
  text.resize(static_cast<std::size_t>(length));
  if (length > 0) {
    HCART_MPI_CHECK(MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, 0, comm));
  }
  Deck deck;
  agree_on_errors(comm, [&] { deck = parse(text, path, overrides, schema); });
  return deck;
}

const Deck::Entry& Deck::entry(const std::string& table, const std::string& key,
                               DeckType type) const {
  const auto it = m_entries.find(table + "." + key);
  HCART_CHECK(it != m_entries.end(),
              "hcart::Deck: no key " << table << "." << key << " in the schema");
  HCART_CHECK(it->second.key->type == type,
              "hcart::Deck: " << table << "." << key << " read as another type than declared");
  return it->second;
}

std::int64_t Deck::integer(const std::string& t, const std::string& k) const {
  return entry(t, k, DeckType::Integer).ints.at(0);
}
double Deck::real(const std::string& t, const std::string& k) const {
  return entry(t, k, DeckType::Real).reals.at(0);
}
bool Deck::boolean(const std::string& t, const std::string& k) const {
  return entry(t, k, DeckType::Boolean).bools.at(0);
}
std::string Deck::string(const std::string& t, const std::string& k) const {
  return entry(t, k, DeckType::String).text;
}
std::vector<std::int64_t> Deck::integers(const std::string& t, const std::string& k) const {
  return entry(t, k, DeckType::IntegerList).ints;
}
std::vector<double> Deck::reals(const std::string& t, const std::string& k) const {
  return entry(t, k, DeckType::RealList).reals;
}
std::vector<bool> Deck::booleans(const std::string& t, const std::string& k) const {
  return entry(t, k, DeckType::BooleanList).bools;
}
bool Deck::given(const std::string& t, const std::string& k) const {
  const auto it = m_entries.find(t + "." + k);
  return it != m_entries.end() && it->second.given;
}

std::string Deck::where(const std::string& t, const std::string& k) const {
  const auto it = m_entries.find(t + "." + k);
  return it == m_entries.end() ? "deck '" + m_name + "'" : it->second.where;
}

std::string Deck::resolved() const {
  std::ostringstream out;
  std::string table;
  for (const auto& key : m_schema->keys()) {
    if (key.table != table) {
      out << (table.empty() ? "" : "\n") << "[" << key.table << "]\n";
      table = key.table;
    }
    const Entry& e = m_entries.at(key.table + "." + key.key);
    out << key.key << " = ";
    auto list = [&](auto&& items, auto&& format) {
      out << "[";
      for (std::size_t i = 0; i < items.size(); ++i)
        out << (i ? ", " : "") << format(items[i]);
      out << "]";
    };
    switch (key.type) {
    case DeckType::Integer: out << e.ints[0]; break;
    case DeckType::Real: out << format_real(e.reals[0]); break;
    case DeckType::Boolean: out << (e.bools[0] ? "true" : "false"); break;
    case DeckType::String: out << toml_quoted(e.text); break;
    case DeckType::IntegerList:
      list(e.ints, [](std::int64_t x) { return std::to_string(x); });
      break;
    case DeckType::RealList: list(e.reals, [](double x) { return format_real(x); }); break;
    case DeckType::BooleanList:
      list(e.bools, [](bool x) { return std::string(x ? "true" : "false"); });
      break;
    }
    out << "\n";
  }
  return out.str();
}

} // namespace hcart
