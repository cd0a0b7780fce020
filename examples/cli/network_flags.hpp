// SPDX-License-Identifier: BSL-1.0
// The network flags every tool of a torus reads: --radix (2..max_radix per
// dimension, 1 to 8 dimensions), --wrap (one 0/1 per dimension, default all
// 1) and --slices.
#ifndef INTERLOCK_EXAMPLES_CLI_NETWORK_FLAGS_HPP
#define INTERLOCK_EXAMPLES_CLI_NETWORK_FLAGS_HPP

#include <interlock/topology/torus.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "values.hpp"

namespace cli {

/// The network flags: --radix (2..max_radix per dimension, 1 to 8
/// dimensions), --wrap (one 0/1 per dimension, default all 1), --slices.
struct network {
  std::vector<std::size_t> radix;
  std::vector<bool> wrap;
  std::size_t slices = 1;
  bool wrap_given = false;

  /// Reads the flag if it is one of these; false otherwise.
  template <class Value>
  bool parse(const std::string& flag, Value&& value, std::size_t max_radix) {
    if (flag == "--radix") {
      radix.clear();
      for (const std::string& part : split(value()))
        radix.push_back(number(flag, part, 2, max_radix));
    } else if (flag == "--wrap") {
      wrap_given = true;
      wrap.clear();
      for (const std::string& part : split(value())) wrap.push_back(number(flag, part, 0, 1) != 0);
    } else if (flag == "--slices") {
      slices = number(flag, value(), 1, 8);
    } else {
      return false;
    }
    return true;
  }
  /// Checks the flags together once all are read.
  void finish() {
    if (radix.empty()) throw bad_input{"--radix: missing (e.g. --radix 8,8,8)"};
    if (radix.size() > interlock::max_dimensions)
      throw bad_input{"--radix: " + std::to_string(radix.size()) + " dimensions; allowed 1..8"};
    if (!wrap_given) wrap.assign(radix.size(), true);
    if (wrap.size() != radix.size())
      throw bad_input{"--wrap: " + std::to_string(wrap.size()) + " values for " +
                      std::to_string(radix.size()) + " dimensions"};
  }
};

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_NETWORK_FLAGS_HPP
