// SPDX-License-Identifier: BSL-1.0
// interlock/core/config_error.hpp: the exception for bad configuration.
//
// Contract
//   Configuration is validated once, where it enters (constructors and factory
//   functions). A value outside what the hardware or the paper allows throws
//   interlock::config_error, derived from std::invalid_argument, whose message
//   names the component, the field, the value and what is allowed:
//
//     "round_robin_arbiter: rr_therm = 0x5; allowed: a thermometer code (ones
//      from bit 0 up) of at most 4 bits"
//
//   The parts are also kept apart (component(), field(), value(), allowed())
//   so a tool can report them in its own words. Decision paths never throw it.
//
// Example
//   try { interlock::dynamic_round_robin_arbiter arb(0); }
//   catch (const interlock::config_error& e) { std::cerr << e.what() << '\n'; }
#ifndef INTERLOCK_CORE_CONFIG_ERROR_HPP
#define INTERLOCK_CORE_CONFIG_ERROR_HPP

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace interlock {

class config_error : public std::invalid_argument {
 public:
  config_error(std::string_view component, std::string_view field, std::string_view value,
               std::string_view allowed)
      : std::invalid_argument(compose(component, field, value, allowed)),
        component_(component),
        field_(field),
        value_(value),
        allowed_(allowed) {}

  const std::string& component() const noexcept { return component_; }
  const std::string& field() const noexcept { return field_; }
  const std::string& value() const noexcept { return value_; }
  const std::string& allowed() const noexcept { return allowed_; }

 private:
  static std::string compose(std::string_view component, std::string_view field,
                             std::string_view value, std::string_view allowed) {
    std::string text;
    text.append(component).append(": ").append(field).append(" = ").append(value);
    text.append("; allowed: ").append(allowed);
    return text;
  }

  std::string component_;
  std::string field_;
  std::string value_;
  std::string allowed_;
};

namespace detail {

/// Lower-case hexadecimal with a 0x prefix, for masks in error messages.
inline std::string to_hex(std::uint64_t value) {
  constexpr char digits[] = "0123456789abcdef";
  std::string text;
  do {
    text.insert(text.begin(), digits[value & 0xfu]);
    value >>= 4;
  } while (value != 0);
  return "0x" + text;
}

/// Throws config_error unless lo <= value <= hi; the allowed text is "lo..hi".
inline void require_in_range(std::string_view component, std::string_view field,
                             std::uint64_t value, std::uint64_t lo, std::uint64_t hi) {
  if (value < lo || value > hi) {
    throw config_error(component, field, std::to_string(value),
                       std::to_string(lo) + ".." + std::to_string(hi));
  }
}

}  // namespace detail
}  // namespace interlock

#endif  // INTERLOCK_CORE_CONFIG_ERROR_HPP
