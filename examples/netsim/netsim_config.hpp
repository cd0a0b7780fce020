// SPDX-License-Identifier: BSL-1.0
// netsim's configuration as run, resolved: every flag's value after the
// preset and the defaults, in the syntax the flag takes, with what the run
// derives filled in (the physical VC count, the age clock's period and
// biases by Section 3.2's methodology). One list serves three outputs:
//   - the summary's `configuration:` line (KEY=VALUE ...);
//   - --write-config FILE: `key = value` lines that --config FILE reads back,
//     so a rerun from the file reproduces the CSV but for wall-clock columns;
//   - --json FILE's "configuration" object.
// Output paths (--csv, --per-source, --json, --write-config) and the
// progress bar are not configuration and are left out.
#ifndef INTERLOCK_EXAMPLES_NETSIM_CONFIG_HPP
#define INTERLOCK_EXAMPLES_NETSIM_CONFIG_HPP

#include <interlock/model/age_support.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "netsim_args.hpp"

namespace netsim_tool {

using setting = std::pair<std::string, std::string>;  // key (the flag without dashes), value

/// `values` joined by `separator`.
template <class Values>
std::string joined(const Values& values, const char* separator = ",") {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i)
    text += (i ? separator : "") + std::to_string(static_cast<unsigned long long>(values[i]));
  return text;
}

/// The resolved configuration: `physical_vcs` per channel as the run builds
/// them, `age` the age clock's parameters (with --arbiter age) and the
/// topology's dimensions `n` (the biases by port become one per dimension
/// and the local port).
inline std::vector<setting> resolved_settings(const arguments& a, unsigned physical_vcs,
                                              const interlock::model::age_config& age,
                                              std::size_t n) {
  using cli::real_text;
  std::vector<setting> s;
  const auto add = [&](const char* key, std::string value) { s.emplace_back(key, value); };
  add("radix", joined(a.radix));
  add("wrap", joined(a.wrap));
  add("slices", std::to_string(a.slices));
  add("node", a.node);
  if (a.node == "anton2") {
    add("torus-bandwidth", real_text(a.links.torus_bandwidth));
    add("torus-latency", std::to_string(a.links.torus_latency));
    add("adapter-buffer-flits", std::to_string(a.model.adapter_flits()));
  }
  add("scheme", a.scheme);
  const bool ordered =
      a.scheme == "dor" || a.scheme == "vc_promotion" || a.scheme == "per_dimension";
  if (ordered && !a.orders.empty()) add("orders", a.orders);
  if (a.scheme == "dor") {
    add("no-datelines", a.no_datelines ? "true" : "false");
    add("dateline-rule", a.dateline_rule);
  }
  if (a.scheme == "t3e" || a.scheme == "t3e_adaptive") add("tables", a.tables);
  add("arbiter", a.arbiter);
  add("input-arbiter", a.input_arbiter);
  add("allocator",
      a.allocator == "islip" ? "islip:" + std::to_string(a.islip_iterations) : a.allocator);
  if (a.arbiter == "age") {
    add("age-period", std::to_string(age.period));
    const auto biases = [&](bool response) {
      std::vector<unsigned> b;
      if (age.port_bias.empty()) {
        b.push_back(response ? age.bias.response() : age.bias.request());
      } else {
        // ports 2d, 2d + 1 of slice 0 for dimension d; the local port last
        for (std::size_t d = 0; d <= n && 2 * d < age.port_bias.size(); ++d) {
          const interlock::age_bias& x = age.port_bias[d < n ? 2 * d : age.port_bias.size() - 1];
          b.push_back(response ? x.response() : x.request());
        }
      }
      return joined(b);
    };
    add("age-bias", biases(false));
    add("rsp-age-bias", biases(true));
    add("age-rr-select", cli::format("0x%llx", static_cast<unsigned long long>(a.age_rr_select)));
  }
  if (inverse_weighted_name(a.arbiter) && !a.weights_from.empty())
    add("weights-from", a.weights_from);
  if (inverse_weighted_name(a.arbiter)) add("weight-headroom", std::to_string(a.weight_headroom));
  add("vcs", std::to_string(physical_vcs));
  add("buffer-flits", std::to_string(a.model.buffer_flits));
  add("injection-buffer-flits", std::to_string(a.model.injection_flits()));
  add("staging-flits", std::to_string(a.model.staging_flits));
  std::string lengths;
  for (std::size_t i = 0; i < a.model.lengths.size(); ++i)
    lengths += (i ? "," : "") + std::to_string(a.model.lengths[i].flits) +
               (a.model.lengths.size() > 1 ? ":" + real_text(a.model.lengths[i].share) : "");
  if (!a.trace.on()) add("packet-flits", lengths);
  add("channel-latency", std::to_string(a.model.channel_latency));
  add("endpoint-bandwidth", real_text(a.model.endpoint_bandwidth));
  add("router-delay", std::to_string(a.model.router_delay));
  add("endpoints", std::to_string(a.model.endpoints));
  add("head-cycles", std::to_string(a.model.head_cycles));
  add("switch-stages", std::to_string(a.model.switch_stages));
  if (!a.trace.on()) add("traffic", a.traffic);
  const auto uses = [&](const char* pattern) {
    return (!a.trace.on() && mix_has(a.mix, pattern)) || mix_has(a.weights_mix, pattern);
  };
  if (uses("all_to_one") || uses("hotspot")) {
    std::size_t nodes = 1;
    for (const std::size_t k : a.radix) nodes *= k;
    add("destination",
        std::to_string(a.destination == ~std::size_t{0} ? nodes - 1 : a.destination));
  }
  if (uses("hotspot")) add("hotspot-fraction", real_text(a.hotspot_fraction));
  if (uses("neighbor")) add("neighbor-hops", std::to_string(a.neighbor_hops));
  if (a.trace.on()) {
    const trace_arguments& t = a.trace;
    add("trace", t.path);
    add("trace-flit-bytes", std::to_string(t.flit_bytes));
    add("trace-dependency-delay", std::to_string(t.dependency_delay));
    add("trace-open-loop", t.dependencies ? "false" : "true");
    if (!t.node_map.empty()) add("trace-node-map", t.node_map);
    add("trace-classes", t.classes ? "true" : "false");
    if (t.region != ~std::size_t{0}) add("trace-region", std::to_string(t.region));
  } else if (a.model.batch > 0) {
    add("batch", std::to_string(a.model.batch));
  } else if (!a.sweep.empty()) {
    std::string loads;
    for (std::size_t i = 0; i < a.sweep.size(); ++i)
      loads += (i ? "," : "") + real_text(a.sweep[i]);
    add("sweep", loads);
  } else {
    add("load", real_text(a.model.load));
  }
  add("response-share", real_text(a.model.response_share));
  if (!a.trace.on()) add("warmup", std::to_string(a.model.warmup));
  add("cycles", std::to_string(a.model.measure));
  add("drain", std::to_string(a.model.drain));
  add("seed", std::to_string(a.model.seed));
  add("max-work", std::to_string(a.max_work));
  add("max-memory", std::to_string(a.max_memory_mib));
  return s;
}

/// The summary's echo: "configuration: KEY=VALUE ...".
inline std::string echo_line(const std::vector<setting>& settings) {
  std::string line = "configuration:";
  for (const setting& x : settings) line += " " + x.first + "=" + x.second;
  return line;
}

/// --write-config FILE: `key = value` lines --config FILE reads back.
inline void write_config(const std::string& path, const std::vector<setting>& settings,
                         const char* program) {
  cli::output_file out("--write-config", path);
  out.line(std::string("# ") + program + "'s configuration as run (" + cli::version_line(program) +
           "); read it back with --config FILE");
  for (const setting& x : settings) out.line(x.first + " = " + x.second);
  out.close();
}

// The run's configuration as CSV columns (values with commas joined by
// 'x' or ' '), so that the rows of many sweeps can be merged.
inline std::pair<std::string, std::string> config_columns(const arguments& a, double load,
                                                          unsigned physical_vcs) {
  std::string lengths;
  for (std::size_t i = 0; i < a.model.lengths.size(); ++i)
    lengths +=
        (i ? " " : "") + std::to_string(a.model.lengths[i].flits) +
        (a.model.lengths.size() > 1 ? ":" + cli::format("%g", a.model.lengths[i].share) : "");
  const std::vector<std::pair<const char*, std::string>> columns = {
      {"radix", joined(a.radix, "x")},
      {"wrap", joined(a.wrap, "x")},
      {"slices", std::to_string(a.slices)},
      {"scheme", a.scheme},
      {"dateline_rule", a.scheme == "dor" ? a.dateline_rule : std::string("-")},
      {"orders", a.orders},
      {"arbiter", a.arbiter},
      {"input_arbiter", a.input_arbiter},
      {"allocator",
       a.allocator == "islip" ? "islip:" + std::to_string(a.islip_iterations) : a.allocator},
      {"vcs", std::to_string(physical_vcs)},
      {"buffer_flits", std::to_string(a.model.buffer_flits)},
      {"injection_buffer_flits", std::to_string(a.model.injection_flits())},
      {"staging_flits", std::to_string(a.model.staging_flits)},
      {"packet_flits", lengths},
      {"channel_latency", std::to_string(a.model.channel_latency)},
      {"router_delay", std::to_string(a.model.router_delay)},
      {"head_cycles", std::to_string(a.model.head_cycles)},
      {"endpoints", std::to_string(a.model.endpoints)},
      {"endpoint_bandwidth", cli::format("%g", a.model.endpoint_bandwidth)},
      {"traffic", a.traffic},
      {"response_share", cli::format("%g", a.model.response_share)},
      {"load", a.model.batch > 0 ? "" : cli::format("%g", load)},
      {"batch", std::to_string(a.model.batch)},
      {"warmup", std::to_string(a.model.warmup)},
      {"cycles", std::to_string(a.model.measure)},
      {"seed", std::to_string(a.model.seed)},
  };
  std::pair<std::string, std::string> out;
  for (const auto& c : columns) {
    std::string value = c.second;  // a list's commas would split the column
    for (char& ch : value)
      if (ch == ',') ch = ' ';
    out.first += std::string(c.first) + ",";
    out.second += value + ",";
  }
  return out;
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_CONFIG_HPP
