// A deck: a TOML file read on rank 0 and parsed on every rank against a schema, with
// defaults, --set overrides and former key names; its values by type, and its resolved text.
// The schema is in DeckSchema.cpp, the TOML conversion in DeckToml.cpp.
#include "DeckText.hpp"
#include "DeckToml.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/io/Deck.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace hcart {

Deck Deck::parse(const std::string& text, const std::string& name,
                 const std::vector<std::string>& overrides, const DeckSchema& schema) {
  Deck deck;
  deck.m_name = name;
  auto owned = std::make_shared<DeckSchema>(schema);
  deck.m_schema = owned;
  const std::string file = "deck '" + name + "'";
  const toml::value root = deck_toml::parse_text(text, name, file);
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
    deck_toml::convert(v, key, where, e.reals, e.ints, e.bools, e.text);
    deck.m_entries[key.table + "." + key.key] = e;
  };
  // Defaults first.
  for (const auto& key : owned->keys()) {
    if (key.default_value.empty()) continue;
    const toml::value d = deck_toml::parse_text("v = " + key.default_value, "default",
                                                "default of " + key.table + "." + key.key);
    store(key, toml::find(d, "v"), "default", false);
  }
  // The deck.
  for (const auto& [table, content] : root.as_table()) {
    const std::string line = file + ", line " + std::to_string(content.location().line());
    if (!content.is_table()) {
      throw InputError(line + ": key '" + table + "' outside a table; expected tables " +
                       deck_text::known_tables(*owned));
    }
    if (!owned->has_table(table)) {
      throw InputError(line + ": unknown table [" + table + "]; expected " +
                       deck_text::known_tables(*owned));
    }
    for (const auto& [name_of_key, value] : content.as_table()) {
      const std::string at = file + ", line " + std::to_string(value.location().line());
      const DeckKey* key = lookup(table, name_of_key, at);
      if (key == nullptr) {
        throw InputError(at + ": unknown key '" + name_of_key + "' in [" + table +
                         "]; known keys: " + deck_text::known_keys(*owned, table));
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
      throw InputError(
          where + ": unknown key " + table + "." + name_of_key +
          (owned->has_table(table)
               ? "; known keys in [" + table + "]: " + deck_text::known_keys(*owned, table)
               : "; expected tables " + deck_text::known_tables(*owned)));
    }
    std::string value = o.substr(eq + 1);
    // A bare word for a string key needs no quotes on a command line.
    if (key->type == DeckType::String && (value.empty() || value.front() != '"'))
      value = deck_text::toml_quoted(value);
    toml::value parsed;
    try {
      parsed = deck_toml::parse_text("v = " + value, "--set", where);
    } catch (const InputError&) {
      // Not a TOML value at all (--set jacobi.tolerance=abc): say what the key takes.
      throw InputError(where + ": [" + table + "] " + name_of_key + " = " + value + ": expected " +
                       deck_text::type_name(key->type) +
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
    case DeckType::Real: out << deck_text::format_real(e.reals[0]); break;
    case DeckType::Boolean: out << (e.bools[0] ? "true" : "false"); break;
    case DeckType::String: out << deck_text::toml_quoted(e.text); break;
    case DeckType::IntegerList:
      list(e.ints, [](std::int64_t x) { return std::to_string(x); });
      break;
    case DeckType::RealList:
      list(e.reals, [](double x) { return deck_text::format_real(x); });
      break;
    case DeckType::BooleanList:
      list(e.bools, [](bool x) { return std::string(x ? "true" : "false"); });
      break;
    }
    out << "\n";
  }
  return out.str();
}

} // namespace hcart
