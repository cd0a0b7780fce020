// SPDX-License-Identifier: BSL-1.0
// --prefetch automatic|always|never: interlock::model::config::prefetch, the
// cache hints the network model gives ahead of a cycle (results are the same
// with any of the three; only the time differs). automatic gives them where
// the routers' input buffers take more than 1 MiB; always and never measure
// what they save on a given machine. Changing no result, the flag is no CSV
// column; --write-config writes it back as a control.
#ifndef INTERLOCK_EXAMPLES_CLI_PREFETCH_FLAG_HPP
#define INTERLOCK_EXAMPLES_CLI_PREFETCH_FLAG_HPP

#include <interlock/model/config.hpp>

#include <string>

#include "values.hpp"

namespace cli {

/// The mode `text` names, or bad_input naming the flag.
inline interlock::model::prefetch_mode prefetch_mode(const std::string& flag,
                                                     const std::string& text) {
  if (text == "automatic") return interlock::model::prefetch_mode::automatic;
  if (text == "always") return interlock::model::prefetch_mode::always;
  if (text == "never") return interlock::model::prefetch_mode::never;
  throw bad_input{flag + ": '" + text.substr(0, 80) + "'; allowed: automatic, always, never"};
}

/// The name --prefetch gives `mode` by.
inline std::string prefetch_name(interlock::model::prefetch_mode mode) {
  using m = interlock::model::prefetch_mode;
  return mode == m::always ? "always" : mode == m::never ? "never" : "automatic";
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_PREFETCH_FLAG_HPP
