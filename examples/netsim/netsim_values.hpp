// SPDX-License-Identifier: BSL-1.0
// The values of netsim's flags that are more than a number: a traffic mix
// (--traffic, --weights-from), packet lengths with shares (--packet-flits),
// and the flag behind each field of the model's configuration, so that a
// configuration error names what the user typed. Each parser throws
// bad_input naming the flag.
#ifndef INTERLOCK_EXAMPLES_NETSIM_VALUES_HPP
#define INTERLOCK_EXAMPLES_NETSIM_VALUES_HPP

#include <interlock/model/config.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "cli.hpp"

namespace netsim_tool {

using cli::bad_input;

/// A traffic mix: "tornado" (one pattern), or labelled patterns with shares,
/// "tornado:0.5,reverse_tornado:0.5" (label 0, 1, ... in order; at most 4).
struct mix_component {
  std::string name;
  double share = 1;
};

inline std::vector<mix_component> parse_mix(const std::string& flag, const std::string& text) {
  std::vector<mix_component> mix;
  for (const std::string& part : cli::split(text)) {
    const std::size_t colon = part.find(':');
    mix_component c;
    c.name = part.substr(0, colon);
    if (c.name.empty()) throw bad_input{flag + ": '" + text + "' names no pattern"};
    if (colon != std::string::npos) c.share = cli::real(flag, part.substr(colon + 1), 1e-9, 1e9);
    for (const mix_component& m : mix)
      if (m.name == c.name) throw bad_input{flag + ": " + c.name + " given twice"};
    mix.push_back(c);
  }
  if (mix.empty()) throw bad_input{flag + ": names no pattern"};
  if (mix.size() > 4) throw bad_input{flag + ": more than 4 patterns"};
  return mix;
}

inline bool mix_has(const std::vector<mix_component>& mix, const char* name) {
  for (const mix_component& m : mix)
    if (m.name == name) return true;
  return false;
}

/// The flag that sets a field of interlock::model::config (or age_config,
/// or the network's), for the model's configuration errors.
inline std::string flag_of_field(const std::string& field) {
  static const char* const fields[][2] = {
      {"vcs", "--vcs"},
      {"buffer_flits", "--buffer-flits"},
      {"injection_buffer_flits", "--injection-buffer-flits"},
      {"adapter_buffer_flits", "--adapter-buffer-flits"},
      {"staging_flits", "--staging-flits"},
      {"channel_latency", "--channel-latency"},
      {"endpoint_bandwidth", "--endpoint-bandwidth"},
      {"router_delay", "--router-delay"},
      {"head_cycles", "--head-cycles"},
      {"switch_stages", "--switch-stages"},
      {"prefetch", "--prefetch"},
      {"endpoints", "--endpoints"},
      {"lengths", "--packet-flits"},
      {"load", "--load"},
      {"batch", "--batch"},
      {"response_share", "--response-share"},
      {"warmup", "--warmup"},
      {"measure", "--cycles"},
      {"drain", "--drain"},
      {"seed", "--seed"},
      {"slices", "--slices"},
      {"dimensions", "--radix"},
      {"wrap", "--wrap"},
      {"torus_bandwidth", "--torus-bandwidth"},
      {"torus_latency", "--torus-latency"},
      {"port_bias", "--age-bias"},
      {"period", "--age-period"},
  };
  for (const auto& f : fields)
    if (field == f[0]) return f[1];
  return field;
}

// --packet-flits: "4", or lengths with shares "1:0.8,8:0.2".
inline std::vector<interlock::model::length_share> parse_lengths(const std::string& flag,
                                                                 const std::string& text) {
  std::vector<interlock::model::length_share> lengths;
  for (const std::string& part : cli::split(text)) {
    const std::size_t colon = part.find(':');
    interlock::model::length_share l;
    l.flits = static_cast<unsigned>(cli::number(flag, part.substr(0, colon), 1, 1024));
    l.share = colon == std::string::npos ? 1.0 : cli::real(flag, part.substr(colon + 1), 1e-9, 1e9);
    lengths.push_back(l);
  }
  if (lengths.size() > 16) throw bad_input{flag + ": more than 16 lengths"};
  return lengths;
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_VALUES_HPP
