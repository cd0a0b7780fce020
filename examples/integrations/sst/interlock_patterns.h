// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_patterns.h: the traffic patterns the element names, as
// interlock's (traffic/patterns.hpp), for interlock.torus's iw_pattern and
// interlock.blend_endpoint's patterns.
//
//   uniform          every node to every node, itself included (uniform_random)
//   tornado          (x_d + k_d/2 - 1) in every dimension ([Towles14] Section 4.2)
//   reverse_tornado  (x_d - k_d/2 + 1)
//   bit_complement   x_d -> k_d - 1 - x_d
//   transpose        the coordinates reversed (dimensions of one radix)
//   all_to_one:N     every other node to node N (the parking lot)
//
// with_pattern(name, topology, f) returns f(pattern) for the named pattern.
// split_list(text, separator) splits a parameter's list; shape_radix(text)
// reads a torus shape, as 4x4x4.
//
// Contract: with_pattern throws std::invalid_argument, its what() the
// values allowed, for a name it does not know, an all_to_one node outside
// the topology or a pattern the topology does not fit (transpose on
// dimensions of different radix); the caller names the parameter.
#ifndef INTERLOCK_SST_INTERLOCK_PATTERNS_H
#define INTERLOCK_SST_INTERLOCK_PATTERNS_H

#include <cstddef>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <interlock/core/config_error.hpp>
#include <interlock/topology/torus.hpp>
#include <interlock/traffic/patterns.hpp>

namespace interlock_sst {

/// The patterns with_pattern knows, for a message.
inline std::string pattern_names(const interlock::torus_topology& t) {
  return "uniform, tornado, reverse_tornado, bit_complement, transpose or all_to_one:N (N in "
         "0.." +
         std::to_string(t.node_count() - 1) + ")";
}

/// f(pattern) for the pattern called `name` on `t`.
template <class F>
decltype(auto) with_pattern(const std::string& name, const interlock::torus_topology& t, F&& f) {
  namespace traffic = interlock::traffic;
  const auto checked = [&](const auto& pattern) -> decltype(auto) {
    try {
      pattern.check(t);
    } catch (const interlock::config_error& e) {
      throw std::invalid_argument(std::string("a pattern this torus fits: ") + e.what());
    }
    return f(pattern);
  };
  if (name == "uniform") return checked(traffic::uniform_random{});
  if (name == "tornado") return checked(traffic::tornado{});
  if (name == "reverse_tornado") return checked(traffic::reverse_tornado{});
  if (name == "bit_complement") return checked(traffic::bit_complement{});
  if (name == "transpose") return checked(traffic::transpose{});
  if (name.compare(0, 11, "all_to_one:") == 0 && name.size() > 11) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(name.c_str() + 11, &end, 10);
    if (*end == '\0' && name[11] >= '0' && name[11] <= '9' && n < t.node_count()) {
      traffic::all_to_one p;
      p.to = static_cast<interlock::node_id>(n);
      return checked(p);
    }
  }
  throw std::invalid_argument(pattern_names(t));
}

/// The radices of a torus shape, as 4x4x4 (1 to 8 dimensions, each
/// 2..65535); std::invalid_argument, its what() the values allowed, otherwise.
inline std::vector<std::size_t> shape_radix(const std::string& shape);

/// `text` split at every `separator` (an empty text gives one empty part).
inline std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  for (;;) {
    const std::string::size_type end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

inline std::vector<std::size_t> shape_radix(const std::string& shape) {
  std::vector<std::size_t> radix;
  for (const std::string& part : split_list(shape, 'x')) {
    char* end = nullptr;
    const unsigned long k = std::strtoul(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || k < 2 || k > 65535)
      throw std::invalid_argument("as 4x4x4, each 2..65535");
    radix.push_back(k);
  }
  if (radix.size() > 8) throw std::invalid_argument("1 to 8 dimensions, as 4x4x4");
  return radix;
}

}  // namespace interlock_sst

#endif  // INTERLOCK_SST_INTERLOCK_PATTERNS_H
