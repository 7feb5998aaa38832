#include <hcart/core/Error.hpp>

namespace hcart::impl {

void throw_input_error(const std::string& message) {
  throw InputError(message);
}

void throw_error(const std::string& message) {
  throw Error(message);
}

} // namespace hcart::impl
