// SPDX-License-Identifier: BSL-1.0
// The values of netsim's flags that are more than a number: a traffic mix
// (--traffic, --weights-from), packet lengths with shares (--packet-flits),
// arbiter names (iw:FORM too), age biases and masks, and the flag behind each field of the model's
// configuration, so that a configuration error names what the user typed. Each parser throws
// bad_input naming the flag.
#ifndef INTERLOCK_EXAMPLES_NETSIM_VALUES_HPP
#define INTERLOCK_EXAMPLES_NETSIM_VALUES_HPP

#include <interlock/arbiters/inverse_weighted_form.hpp>
#include <interlock/core/config_error.hpp>
#include <interlock/model/config.hpp>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "catalogue.hpp"
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
      {"threads", "--threads"},
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

/// --arbiter inverse_weighted (Figure 6/8's hardware model) or a corner of
/// the inverse-weighted family (iw:ORDERING.QUANTIZATION.HISTORY).
inline bool inverse_weighted_name(const std::string& arbiter) {
  return arbiter == "inverse_weighted" || arbiter.compare(0, 3, "iw:") == 0;
}

/// --arbiter's or --input-arbiter's value: a name of the catalogue, or
/// iw:FORM with a form that parses (written back in its canonical spelling).
inline std::string arbiter_name(const std::string& flag, const std::string& value) {
  if (value.compare(0, 3, "iw:") != 0) return cli::catalogue::check(flag, "arbiter", value);
  try {
    return "iw:" + interlock::parse_inverse_weighted_form(value.substr(3)).name();
  } catch (const interlock::config_error& e) {
    throw bad_input{flag + ": '" + value.substr(0, 80) + "': " + e.what()};
  }
}

/// --age-bias's and --rsp-age-bias's values, 0..7 each.
inline std::vector<unsigned> biases(const std::string& flag, const std::string& text) {
  std::vector<unsigned> b;
  for (const std::string& part : cli::split(text))
    b.push_back(static_cast<unsigned>(cli::number(flag, part, 0, 7)));
  return b;
}

/// --age-rr-select's mask, 0x and up to 16 hexadecimal digits.
inline std::uint64_t hex_mask(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  errno = 0;
  const unsigned long long mask =
      hex && text.size() <= 18 &&
              text.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos
          ? std::strtoull(text.c_str() + 2, &end, 16)
          : 0;
  if (!hex || end == nullptr || *end != '\0' || errno != 0)
    throw bad_input{flag + ": '" + text + "' is not a 64-bit hexadecimal mask (0x...)"};
  return mask;
}

/// --packet-flits as parse_lengths reads it.
inline std::string lengths_text(const std::vector<interlock::model::length_share>& lengths) {
  std::string text;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    text += (i ? "," : "") + std::to_string(lengths[i].flits) +
            (lengths.size() > 1 ? ":" + cli::real_text(lengths[i].share) : "");
  return text;
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_VALUES_HPP
