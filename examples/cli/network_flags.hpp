// SPDX-License-Identifier: BSL-1.0
// The network settings every tool of a torus declares (settings.hpp):
// --radix (2..max_radix per dimension, 1 to 8 dimensions), --wrap (one 0/1
// per dimension, default all 1) and --slices, for a program whose settings
// S hold `radix`, `wrap` and `slices`; finish_torus() checks them together
// once the loop has read them. radix3_setting(): --radix of a program that
// runs 3-D tori only.
#ifndef INTERLOCK_EXAMPLES_CLI_NETWORK_FLAGS_HPP
#define INTERLOCK_EXAMPLES_CLI_NETWORK_FLAGS_HPP

#include <interlock/topology/torus.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "flags.hpp"
#include "output.hpp"
#include "settings.hpp"
#include "values.hpp"

namespace cli {

/// --radix, --wrap and --slices.
template <class S>
std::vector<setting<S>> torus_settings(std::size_t max_radix) {
  return {
      custom<S>(
          "--radix", "K0,K1,...",
          "radix of each dimension (2.." + std::to_string(max_radix) + "), 1 to 8 dimensions",
          [max_radix](S& s, const std::string& v) {
            s.radix.clear();
            for (const std::string& part : split(v))
              s.radix.push_back(number("--radix", part, 2, max_radix));
          },
          [](const S& s) { return joined(s.radix); }),
      custom<S>(
          "--wrap", "W0,W1,...", "1: ring (torus), 0: line (mesh)",
          [](S& s, const std::string& v) {
            s.wrap.clear();
            for (const std::string& part : split(v))
              s.wrap.push_back(number("--wrap", part, 0, 1) != 0);
          },
          [](const S& s) { return joined(s.wrap); })
          .defaults("all 1"),
      whole<S>(
          "--slices", "N", [](auto& s) -> auto& { return s.slices; }, 1, 8,
          "parallel copies of every link (Anton 2: 2)"),
  };
}

/// --radix K0,K1,K2 alone: a 3-D torus of 2..max_radix per dimension, for a
/// program whose settings S hold `radix` (its help: `help`).
template <class S>
setting<S> radix3_setting(std::size_t max_radix, std::string help) {
  return custom<S>(
      "--radix", "K0,K1,K2", std::move(help),
      [max_radix](S& s, const std::string& v) {
        s.radix.clear();
        for (const std::string& k : split(v)) s.radix.push_back(number("--radix", k, 2, max_radix));
        if (s.radix.size() != 3)
          throw bad_input{"--radix: " + std::to_string(s.radix.size()) +
                          " radices; three (a 3-D torus)"};
      },
      [](const S& s) { return joined(s.radix); });
}

/// After the loop (and a preset): at most 8 dimensions; --wrap all 1 when
/// not given, else one value per dimension. A refusal names FILE:LINE:COLUMN
/// when a configuration file gave the flag.
template <class S>
void finish_torus(S& s, const flags& f) {
  using table = setting_table<S>;
  if (s.radix.size() > interlock::max_dimensions)
    throw table::refusal(
        f, "--radix", "--radix: " + std::to_string(s.radix.size()) + " dimensions; allowed 1..8");
  if (!f.given("--wrap")) s.wrap.assign(s.radix.size(), true);
  if (s.wrap.size() != s.radix.size())
    throw table::refusal(f, "--wrap",
                         "--wrap: " + std::to_string(s.wrap.size()) + " values for " +
                             std::to_string(s.radix.size()) + " dimensions");
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_NETWORK_FLAGS_HPP
