// A deck's schema: its keys (type, default, bounds, choices, help), former names, and the
// reference text docs/decks.md is made of.
#include "DeckText.hpp"

#include <hcart/core/Error.hpp>
#include <hcart/io/Deck.hpp>

#include <sstream>

namespace hcart {

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
        allowed += (allowed.empty() ? "" : ", ") + deck_text::toml_quoted(c);
    }
    if (k.minimum)
      allowed += (k.minimum_exclusive ? "> " : ">= ") + deck_text::format_bound(*k.minimum);
    if (k.maximum)
      allowed += (allowed.empty() ? "<= " : ", <= ") + deck_text::format_bound(*k.maximum);
    if (k.list_length)
      allowed += (allowed.empty() ? "" : ", ") + std::to_string(k.list_length) + " entries";
    out << "| `" << k.key << "` | " << deck_text::type_name(k.type) << " | `"
        << (k.default_value.empty() ? "(required)" : k.default_value) << "` | " << allowed << " | "
        << k.help << " |\n";
  }
  if (!table.empty()) former_names(table);
  return out.str();
}

} // namespace hcart
