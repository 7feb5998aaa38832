// hcart::Deck: input decks in TOML, validated against a schema (docs/decks.md; docs/design.md,
// 'Decks and command lines').
//
// An application declares its keys once:
//
//   hcart::DeckSchema schema;
//   schema.add("mesh", "size", hcart::DeckType::IntegerList, "[64, 64, 64]", "cells per direction")
//       .length(3).at_least(1);
//   schema.add("jacobi", "tolerance", hcart::DeckType::Real, "1e-8", "stop when ...").above(0);
//
// and reads a deck with it on every rank:
//
//   hcart::Deck deck = hcart::Deck::load(MPI_COMM_WORLD, "inputs/jacobi3d/default.toml",
//                                        {"jacobi.tolerance=1e-6"}, schema);
//   double tol = deck.real("jacobi", "tolerance");
//
// Rank 0 reads the file and shares its text; every rank parses the same text. A syntax
// error, an unknown table or key, a wrong type or a value out of range is an
// hcart::InputError on every rank naming the file, the line and the key; nothing starts.
// `--set table.key=value` overrides (the `overrides` argument) are checked the same way.
// resolved() is the complete deck after defaults and overrides, as TOML text.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hcart {

enum class DeckType { Integer, Real, Boolean, String, IntegerList, RealList, BooleanList };

/// \brief One key of a schema and what it accepts.
struct DeckKey {
  std::string table, key;
  DeckType type = DeckType::Integer;
  std::string default_value; ///< TOML literal; empty: the key is required
  std::string help;
  std::optional<double> minimum, maximum; ///< bounds for numbers and list entries
  bool minimum_exclusive = false;
  std::vector<std::string> choices; ///< allowed strings (empty: any)
  std::size_t list_length = 0;      ///< required list length (0: 1 to 16)

  DeckKey& at_least(double v) {
    minimum = v;
    minimum_exclusive = false;
    return *this;
  }
  DeckKey& above(double v) {
    minimum = v;
    minimum_exclusive = true;
    return *this;
  }
  DeckKey& at_most(double v) {
    maximum = v;
    return *this;
  }
  DeckKey& one_of(std::vector<std::string> values) {
    choices = std::move(values);
    return *this;
  }
  DeckKey& length(std::size_t n) {
    list_length = n;
    return *this;
  }
};

class DeckSchema {
public:
  /// \brief Declares table.key. Keys are echoed in the order they are added.
  DeckKey& add(const std::string& table, const std::string& key, DeckType type,
               const std::string& default_value, const std::string& help);
  /// \brief Accepts `old_key` of `table` as the former name of the declared key `key`: a
  /// deck or --set that uses it sets `key` (both at once is an error), and Deck::notes()
  /// says so.
  void rename(const std::string& table, const std::string& old_key, const std::string& key);
  const std::deque<DeckKey>& keys() const noexcept { return m_keys; }
  const DeckKey* find(const std::string& table, const std::string& key) const;
  /// \brief The key that `old_key` of `table` was renamed to, or null.
  const DeckKey* renamed(const std::string& table, const std::string& old_key) const;
  bool has_table(const std::string& table) const;
  /// \brief A Markdown table of every key: the deck reference in docs/.
  std::string reference() const;

private:
  std::deque<DeckKey> m_keys; // a deque: add() returns a reference that stays valid
  std::map<std::string, std::string> m_renamed; // "table.old" -> key
};

class Deck {
public:
  /// \brief Reads, parses and validates a deck on every rank of `comm` (collective).
  /// \throws hcart::InputError (collective) naming file, line and key.
  static Deck load(MPI_Comm comm, const std::string& path,
                   const std::vector<std::string>& overrides, const DeckSchema& schema);
  /// \brief Parses and validates deck text (no MPI). `name` is used in messages.
  /// \throws hcart::InputError naming `name`, the line and the key.
  static Deck parse(const std::string& text, const std::string& name,
                    const std::vector<std::string>& overrides, const DeckSchema& schema);

  std::int64_t integer(const std::string& table, const std::string& key) const;
  double real(const std::string& table, const std::string& key) const;
  bool boolean(const std::string& table, const std::string& key) const;
  std::string string(const std::string& table, const std::string& key) const;
  std::vector<std::int64_t> integers(const std::string& table, const std::string& key) const;
  std::vector<double> reals(const std::string& table, const std::string& key) const;
  std::vector<bool> booleans(const std::string& table, const std::string& key) const;
  /// \brief True when the deck or an override set the key (rather than its default).
  bool given(const std::string& table, const std::string& key) const;
  /// \brief Where the key's value came from, for error messages: "deck 'FILE', line N",
  /// "--set table.key=value", or "deck 'FILE' (default)".
  std::string where(const std::string& table, const std::string& key) const;

  /// \brief The whole deck, defaults and overrides applied, as TOML.
  std::string resolved() const;
  /// \brief The deck's file name (or the name given to parse()).
  const std::string& name() const noexcept { return m_name; }
  /// \brief Remarks for the log: keys given by a former name (DeckSchema::rename).
  const std::vector<std::string>& notes() const noexcept { return m_notes; }

private:
  struct Entry {
    const DeckKey* key = nullptr;
    std::vector<double> reals; // numbers (one for scalars)
    std::vector<std::int64_t> ints;
    std::vector<bool> bools;
    std::string text;
    bool given = false;
    std::string where; // the deck line, the --set, or "default"
  };
  const Entry& entry(const std::string& table, const std::string& key, DeckType type) const;

  std::string m_name;
  std::shared_ptr<const DeckSchema> m_schema;
  std::map<std::string, Entry> m_entries; // "table.key"
  std::vector<std::string> m_notes;
};

} // namespace hcart
