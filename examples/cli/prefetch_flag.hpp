// SPDX-License-Identifier: BSL-1.0
// --prefetch automatic|always|never: interlock::model::config::prefetch, the
// cache hints the network model gives ahead of a cycle (results are the same
// with any of the three; only the time differs). automatic gives them where
// the routers' input buffers take more than 1 MiB; always and never measure
// what they save on a given machine. Changing no result, the flag is left out
// of --write-config's settings.
#ifndef INTERLOCK_EXAMPLES_CLI_PREFETCH_FLAG_HPP
#define INTERLOCK_EXAMPLES_CLI_PREFETCH_FLAG_HPP

#include <interlock/model/config.hpp>

#include <string>

#include "values.hpp"

namespace cli {

/// --prefetch's help lines, aligned at `indent` columns.
inline std::string prefetch_help(std::size_t indent) {
  const std::string pad(indent, ' ');
  const std::string flag = "  --prefetch MODE";
  return flag + std::string(indent > flag.size() ? indent - flag.size() : 1, ' ') +
         "automatic (default), always or never: the model's cache\n" + pad +
         "hints (automatic: where the routers' input buffers exceed\n" + pad +
         "1 MiB); the results are the same, only the time differs\n";
}

/// The mode `text` names, or bad_input naming the flag.
inline interlock::model::prefetch_mode prefetch_mode(const std::string& flag,
                                                     const std::string& text) {
  if (text == "automatic") return interlock::model::prefetch_mode::automatic;
  if (text == "always") return interlock::model::prefetch_mode::always;
  if (text == "never") return interlock::model::prefetch_mode::never;
  throw bad_input{flag + ": '" + text.substr(0, 80) + "'; allowed: automatic, always, never"};
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_PREFETCH_FLAG_HPP
