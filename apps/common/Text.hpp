// Text in and out of numbers, shared by hcart's applications and tools: lists given on a
// command line ("2048,1024,512"), and numbers, byte counts and extents for people. (The
// command line itself is hcart::CommandLine, hcart/app/CommandLine.hpp.)
#pragma once

#include <hcart/app/CommandLine.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace hcart::apps {

/// \brief Parses "2048,1024,512" into integers. \throws hcart::InputError naming the
/// option and the text when an entry is not an integer or the count is not 1..max_count.
std::vector<std::int64_t> parse_int_list(const std::string& option, const std::string& text,
                                         std::size_t max_count = 16);
/// \brief Parses "1,0.5,2" into finite numbers. \throws hcart::InputError as above.
std::vector<double> parse_real_list(const std::string& option, const std::string& text,
                                    std::size_t max_count = 16);
/// \brief Parses "0,1,1" (or true/false) into flags. \throws hcart::InputError as above.
std::vector<bool> parse_bool_list(const std::string& option, const std::string& text,
                                  std::size_t max_count = 16);

/// \brief "2048x1024x512" (or another separator).
std::string join(const std::vector<std::int64_t>& values, const char* separator = "x");

/// \brief Bytes for people: "512 B", "12.0 KiB", "3.50 GiB".
std::string human_bytes(double bytes);

/// \brief One number through a printf format: fixed(0.5, "%.1f%%") is "0.5%".
std::string fixed(double value, const char* format = "%.3f");

} // namespace hcart::apps
