// The deck's texts for messages, its reference and its resolved form: type names, numbers
// that read back as the same double, quoted strings, the tables and keys a schema knows.
// Internal to the deck's sources (Deck.cpp, DeckSchema.cpp, DeckToml.cpp).
#pragma once

#include <hcart/io/Deck.hpp>

#include <string>

namespace hcart::deck_text {

// "an integer", "a list of numbers", ...
const char* type_name(DeckType type);
bool is_list(DeckType type);
// The text on one line (line breaks as spaces).
std::string one_line(std::string text);
// The shortest text that reads back as the same double, a TOML float ("1.0", not "1").
std::string format_real(double v);
// A TOML basic string: "text", with quotes and backslashes escaped.
std::string toml_quoted(const std::string& s);
// A bound for messages: 1, 0.5, 1e-08, 1000000000.
std::string format_bound(double v);
// "nx, ny, nz": the keys of a table.
std::string known_keys(const DeckSchema& schema, const std::string& table);
// "[mesh], [halo], ...": the tables, in the order declared.
std::string known_tables(const DeckSchema& schema);

} // namespace hcart::deck_text
