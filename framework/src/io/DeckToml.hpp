// A deck's TOML side: parsing text into toml11's values with messages that name the line
// to fix, and converting one value to a key's type with its checks. Internal to the deck's
// sources; toml11 stays out of the installed headers.
#pragma once

#include <hcart/io/Deck.hpp>

#include <toml.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace hcart::deck_toml {

// Parses `text` (named `name` in toml11's messages); a syntax error is an InputError that
// starts with `where` and names the line where the broken construct began.
toml::value parse_text(const std::string& text, const std::string& name, const std::string& where);

// Converts and checks one TOML value for `key` (type, list length, range, choices) into the
// vectors or the text; an InputError that starts with `where` names the value as written.
void convert(const toml::value& v, const DeckKey& key, const std::string& where,
             std::vector<double>& reals, std::vector<std::int64_t>& ints, std::vector<bool>& bools,
             std::string& text);

} // namespace hcart::deck_toml
