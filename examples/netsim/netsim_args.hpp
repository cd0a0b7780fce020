// SPDX-License-Identifier: BSL-1.0
// netsim's command line: the flags, their checks, and nothing else, read by
// the tools' shared layer (cli.hpp: the argument loop, --config FILE, the
// network flags). parse() throws bad_input naming the flag for anything it
// refuses. The network and scheme flags are deadlock_check's, so a
// configuration checked there runs here unchanged.
#ifndef INTERLOCK_EXAMPLES_NETSIM_ARGS_HPP
#define INTERLOCK_EXAMPLES_NETSIM_ARGS_HPP

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <interlock/arbiters/inverse_weighted_form.hpp>
#include <interlock/model/config.hpp>
#include <interlock/model/measurement.hpp>
#include <interlock/model/presets.hpp>
#include <interlock/topology/anton2_node.hpp>
#include "catalogue.hpp"
#include "cli.hpp"
#include "grid.hpp"
#include "netsim_trace_args.hpp"
#include "netsim_values.hpp"
#include "prefetch_flag.hpp"
#include "routing_flags.hpp"

namespace netsim_tool {

using cli::bad_input;

using cli::token;

struct arguments {
  std::vector<std::size_t> radix;
  std::vector<bool> wrap;
  std::size_t slices = 1;
  std::string scheme = "dor";
  std::string node = "router";  // router: one per node; anton2: Anton 2's on-chip mesh
  interlock::anton2_links links;
  std::string orders;
  bool no_datelines = false;
  std::string dateline_rule = "switch_at_wrap";
  std::string tables = "toc";
  std::string arbiter = "round_robin";
  std::string input_arbiter = "round_robin";  // round_robin, or the same as --arbiter
  std::string allocator = "separable_input_first";
  std::size_t islip_iterations = 1;
  std::string traffic = "uniform_random";
  std::size_t destination = ~std::size_t{0};  // all_to_one / hotspot node; default the last
  double hotspot_fraction = 0.5;
  std::size_t neighbor_hops = 1;
  std::vector<double> sweep;
  std::uint32_t age_period = 0;        // 0: Section 3.2's recommendation for the network
  std::vector<unsigned> age_bias;      // one value, one per dimension, or per dimension + local
  std::vector<unsigned> rsp_age_bias;  // as age_bias; empty: as age_bias
  std::uint64_t age_rr_select = ~std::uint64_t{0};  // AGE_RR_SELECT: every grant by age
  std::string weights_from;                         // inverse_weighted: the pattern of the loads
  std::vector<mix_component> mix{{"uniform_random", 1}};  // --traffic, parsed
  std::vector<mix_component> weights_mix;                 // --weights-from, parsed
  unsigned weight_headroom = 0;  // inverse_weighted: bits of M the weights leave unused
  std::string csv;
  std::string per_source;
  std::string json;           // --json FILE: configuration and results
  std::string write_config;   // --write-config FILE: the configuration as run
  std::size_t jobs = 1;       // --jobs: the points of a sweep run at once (default: the cores)
  std::vector<token> config;  // what was given, file then command line (echoed)
  bool progress = true;
  std::uint64_t max_work = 100000000000;  // router-cycles a run may take (about 9 h)
  std::uint64_t max_memory_mib = 4096;    // latency samples a run may keep
  interlock::model::config model;
  trace_arguments trace;            // --trace FILE and its options
  interlock::model::preset preset;  // --preset, if given
  // A driver's hooks (fairness_check): no summary printed, and each run's
  // results handed over.
  bool quiet = false;
  std::function<void(const interlock::model::results&)> on_results;

  /// A batch or a trace: every packet measured, the run ends at the last delivery.
  bool finite() const noexcept { return model.batch > 0 || trace.on(); }
};

/// The run's work, estimated before it starts and refused past --max-work
/// (router-cycles: every router stepped over warm-up, window and the whole
/// drain, for every point of a sweep) or --max-memory (the latency samples
/// the window keeps, 8 bytes per delivered packet).
inline void check_work(const arguments& a) {
  if (a.trace.on()) return;  // a trace's work is its packets', whatever the cycles
  double nodes = 1;
  for (const std::size_t k : a.radix) nodes *= static_cast<double>(k);
  const bool anton2 = a.node == "anton2";
  const double routers =
      nodes * (anton2 ? static_cast<double>(interlock::anton2_topology::mesh_routers +
                                            interlock::anton2_topology::channels)
                      : 1.0);
  const double hosts =
      nodes * (anton2 ? static_cast<double>(interlock::anton2_topology::mesh_routers)
                      : static_cast<double>(a.model.endpoints));
  const double points = a.sweep.empty() ? 1.0 : static_cast<double>(a.sweep.size());
  const double cycles = static_cast<double>(a.model.warmup) + static_cast<double>(a.model.measure) +
                        static_cast<double>(a.model.drain);
  const double work = routers * cycles * points;
  if (work > static_cast<double>(a.max_work))
    throw bad_input{
        cli::format("--max-work: the run could take %.3g router-cycles (about %.3g "
                    "hours at 3e6 router-cycles/s); lower --cycles or raise --max-work "
                    "(now %.3g)",
                    work, work / 3e6 / 3600, static_cast<double>(a.max_work))};
  double load = a.model.load;
  for (const double l : a.sweep) load = std::max(load, l);
  unsigned shortest = 1024;
  for (const auto& l : a.model.lengths) shortest = std::min(shortest, l.flits);
  const double packets = a.model.batch > 0
                             ? hosts * static_cast<double>(a.model.batch)
                             : hosts * load * static_cast<double>(a.model.measure) / shortest;
  const double mib = packets * 8 / (1024.0 * 1024.0);
  if (mib > static_cast<double>(a.max_memory_mib))
    throw bad_input{
        cli::format("--max-memory: the run could keep %.3g MiB of latency samples "
                    "(%.3g packets); lower --cycles or raise --max-memory (now %llu)",
                    mib, packets, static_cast<unsigned long long>(a.max_memory_mib))};
}

/// An arbiter whose weights are programmed from loads: Figure 6/8's
/// hardware model (inverse_weighted) or a corner of the inverse-weighted
/// family (iw:ORDERING.QUANTIZATION.HISTORY, inverse_weighted_form.hpp).
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

/// Flags that take no value; in a configuration file `key = true` or `false`.
inline bool is_switch(const std::string& flag) {
  return flag == "--no-datelines" || flag == "--no-progress" || is_trace_switch(flag);
}

/// A driver's own flags (fairness_check's): own(flag, value) reads the flag
/// and returns true, or returns false to leave it to netsim. Its flags share
/// the argument loop: a configuration file, each flag at most once.
using own_flags = std::function<bool(const std::string&, const std::function<std::string()>&)>;

inline arguments parse(int argc, char** argv, const own_flags& own = {}) {
  using cli::number;
  using cli::split;
  arguments a;
  bool load_given = false, headroom_given = false;
  cli::network net;
  std::vector<std::string> age_flags, scheme_flags, traffic_flags, node_flags;
  cli::flags flags(argc, argv, is_switch);
  flags.tool_writes_config();  // resolved, in simulate() (netsim_config.hpp)
  flags.for_each([&](const std::string& flag, const auto& value) {
    if (own && own(flag, value)) return;
    if (flag == "--preset") {
      const std::string name = value();
      if (name == "seastar") {
        a.preset = interlock::model::seastar_preset();
      } else if (name == "anton2") {
        a.preset = interlock::model::anton2_preset();
      } else {
        throw bad_input{"--preset: '" + name + "'; allowed: seastar, anton2"};
      }
    } else if (net.parse(flag, value, 256)) {
    } else if (parse_trace_flag(flag, value, a.trace)) {
    } else if (flag == "--scheme") {
      a.scheme = value();
    } else if (flag == "--orders") {
      a.orders = value();
      scheme_flags.push_back(flag);
    } else if (flag == "--no-datelines") {
      a.no_datelines = true;
      scheme_flags.push_back(flag);
    } else if (flag == "--dateline-rule") {
      a.dateline_rule = value();
      if (a.dateline_rule != "switch_at_wrap" && a.dateline_rule != "booksim2")
        throw bad_input{"--dateline-rule: '" + a.dateline_rule +
                        "'; allowed: switch_at_wrap, booksim2"};
      scheme_flags.push_back(flag);
    } else if (flag == "--tables") {
      a.tables = value();
      scheme_flags.push_back(flag);
      if (a.tables != "toc" && a.tables != "optimized")
        throw bad_input{"--tables: '" + a.tables + "'; allowed: toc, optimized"};
    } else if (flag == "--arbiter") {
      a.arbiter = arbiter_name(flag, value());
    } else if (flag == "--input-arbiter") {
      a.input_arbiter = arbiter_name(flag, value());
    } else if (flag == "--allocator") {
      const std::string text = value();
      const std::size_t colon = text.find(':');
      a.allocator = cli::catalogue::check(flag, "allocator", text.substr(0, colon));
      if (colon != std::string::npos) {
        if (a.allocator != "islip")
          throw bad_input{"--allocator: '" + text + "'; only islip takes :K (iterations)"};
        a.islip_iterations = number(flag, text.substr(colon + 1), 1, 16);
      }
    } else if (flag == "--age-period") {
      a.age_period = static_cast<std::uint32_t>(number(flag, value(), 1, 0xFFFFFFFFu));
      age_flags.push_back(flag);
    } else if (flag == "--rsp-age-bias") {
      for (const std::string& part : split(value()))
        a.rsp_age_bias.push_back(static_cast<unsigned>(number(flag, part, 0, 7)));
      age_flags.push_back(flag);
    } else if (flag == "--age-rr-select") {
      const std::string text = value();
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
      a.age_rr_select = mask;
      age_flags.push_back(flag);
    } else if (flag == "--weights-from") {
      a.weights_from = value();
      a.weights_mix = parse_mix(flag, a.weights_from);
    } else if (flag == "--weight-headroom") {
      a.weight_headroom = static_cast<unsigned>(number(flag, value(), 0, 11));
      headroom_given = true;
    } else if (flag == "--age-bias") {
      for (const std::string& part : split(value()))
        a.age_bias.push_back(static_cast<unsigned>(number(flag, part, 0, 7)));
      age_flags.push_back(flag);
    } else if (flag == "--vcs") {
      a.model.vcs = static_cast<unsigned>(number(flag, value(), 1, 64));
    } else if (flag == "--buffer-flits") {
      a.model.buffer_flits = static_cast<unsigned>(number(flag, value(), 1, 65535));
    } else if (flag == "--staging-flits") {
      a.model.staging_flits = static_cast<unsigned>(number(flag, value(), 0, 65535));
    } else if (flag == "--injection-buffer-flits") {
      a.model.injection_buffer_flits = static_cast<unsigned>(number(flag, value(), 1, 65535));
    } else if (flag == "--packet-flits") {
      a.model.lengths = parse_lengths(flag, value());
    } else if (flag == "--endpoint-bandwidth") {
      a.model.endpoint_bandwidth = cli::real(flag, value(), 1.0 / 1024, 1);
    } else if (flag == "--channel-latency") {
      a.model.channel_latency = static_cast<unsigned>(number(flag, value(), 1, 1000));
    } else if (flag == "--router-delay") {
      a.model.router_delay = static_cast<unsigned>(number(flag, value(), 0, 1000));
    } else if (flag == "--node") {
      a.node = cli::catalogue::check(flag, "node", value());
    } else if (flag == "--torus-bandwidth") {
      a.links.torus_bandwidth = cli::real(flag, value(), 1.0 / 1024, 1);
      node_flags.push_back(flag);
    } else if (flag == "--torus-latency") {
      a.links.torus_latency = static_cast<unsigned>(number(flag, value(), 0, 1000));
      node_flags.push_back(flag);
    } else if (flag == "--adapter-buffer-flits") {
      a.model.adapter_buffer_flits = static_cast<unsigned>(number(flag, value(), 1, 65535));
      node_flags.push_back(flag);
    } else if (flag == "--endpoints") {
      a.model.endpoints = static_cast<unsigned>(number(flag, value(), 1, 8));
    } else if (flag == "--head-cycles") {
      a.model.head_cycles = static_cast<unsigned>(number(flag, value(), 0, 1000));
    } else if (flag == "--switch-stages") {
      a.model.switch_stages = static_cast<unsigned>(number(flag, value(), 1, 2));
    } else if (flag == "--prefetch") {
      a.model.prefetch = cli::prefetch_mode(flag, value());
    } else if (flag == "--traffic") {
      a.traffic = value();
      a.mix = parse_mix(flag, a.traffic);
    } else if (flag == "--destination") {
      a.destination = number(flag, value(), 0, 1u << 24);
      traffic_flags.push_back(flag);
    } else if (flag == "--hotspot-fraction") {
      a.hotspot_fraction = cli::real(flag, value(), 0, 1);
      traffic_flags.push_back(flag);
    } else if (flag == "--neighbor-hops") {
      a.neighbor_hops = number(flag, value(), 0, 128);
      traffic_flags.push_back(flag);
    } else if (flag == "--load") {
      a.model.load = cli::real(flag, value(), 0, 1);
      load_given = true;
    } else if (flag == "--sweep") {
      for (const std::string& part : split(value())) a.sweep.push_back(cli::real(flag, part, 0, 1));
    } else if (flag == "--batch") {
      a.model.batch = number(flag, value(), 1, 100000000);
    } else if (flag == "--response-share") {
      a.model.response_share = cli::real(flag, value(), 0, 1);
    } else if (flag == "--warmup") {
      a.model.warmup = number(flag, value(), 0, std::size_t{1} << 40);
    } else if (flag == "--cycles") {
      a.model.measure = number(flag, value(), 1, std::size_t{1} << 40);
    } else if (flag == "--drain") {
      a.model.drain = number(flag, value(), 0, std::size_t{1} << 40);
    } else if (flag == "--seed") {
      a.model.seed = number(flag, value(), 0, 1000000000000000000);
    } else if (flag == "--csv") {
      a.csv = value();
    } else if (flag == "--per-source") {
      a.per_source = value();
    } else if (flag == "--json") {
      a.json = value();
    } else if (flag == "--jobs") {
      a.jobs = number(flag, value(), 1, 1024);
    } else if (flag == "--write-config") {
      a.write_config = value();
    } else if (flag == "--no-progress") {
      a.progress = false;
    } else if (flag == "--max-work") {
      a.max_work = number(flag, value(), 1, 1000000000000000000);
    } else if (flag == "--max-memory") {
      a.max_memory_mib = number(flag, value(), 1, std::size_t{1} << 24);
    } else {
      throw bad_input{flag + ": unknown option (see --help)"};
    }
  });
  a.config = flags.words();
  const auto given = [&](const char* f) { return flags.given(f); };
  if (!a.preset.name.empty()) {
    // The preset's values for every flag not given.
    const interlock::model::preset& p = a.preset;
    if (!given("--radix")) net.radix = p.radix;
    if (!given("--slices")) net.slices = p.slices;
    if (!given("--scheme")) a.scheme = p.scheme;
    if (!given("--orders") && a.scheme == p.scheme) a.orders = p.orders;
    if (!given("--arbiter")) a.arbiter = p.arbiter;
    if (!given("--buffer-flits")) a.model.buffer_flits = p.model.buffer_flits;
    if (!given("--packet-flits")) a.model.lengths = p.model.lengths;
    if (!given("--response-share")) a.model.response_share = p.model.response_share;
    if (!given("--endpoint-bandwidth")) a.model.endpoint_bandwidth = p.model.endpoint_bandwidth;
    if (!given("--staging-flits")) a.model.staging_flits = p.model.staging_flits;
    if (!given("--node")) a.node = p.node;
  }
  if (net.radix.empty()) net.radix = {8, 8, 8};
  net.finish();
  a.radix = net.radix;
  a.wrap = net.wrap;
  a.slices = net.slices;
  cli::catalogue::check("--scheme", "routing", a.scheme);
  for (const std::string& f : scheme_flags) {
    const bool ok = (f == "--orders" && (a.scheme == "dor" || a.scheme == "vc_promotion" ||
                                         a.scheme == "per_dimension")) ||
                    ((f == "--no-datelines" || f == "--dateline-rule") && a.scheme == "dor") ||
                    (f == "--tables" && (a.scheme == "t3e" || a.scheme == "t3e_adaptive"));
    if (!ok) throw bad_input{f + ": does not apply to --scheme " + a.scheme};
  }
  for (const std::string& f : traffic_flags) {
    const bool ok = (f == "--destination" &&
                     (mix_has(a.mix, "all_to_one") || mix_has(a.mix, "hotspot") ||
                      mix_has(a.weights_mix, "all_to_one") || mix_has(a.weights_mix, "hotspot"))) ||
                    (f == "--hotspot-fraction" &&
                     (mix_has(a.mix, "hotspot") || mix_has(a.weights_mix, "hotspot"))) ||
                    (f == "--neighbor-hops" &&
                     (mix_has(a.mix, "neighbor") || mix_has(a.weights_mix, "neighbor")));
    if (!ok) throw bad_input{f + ": does not apply to --traffic " + a.traffic};
  }
  if ((a.allocator == "islip" || a.allocator == "wavefront") && a.arbiter != "round_robin")
    throw bad_input{"--allocator: " + a.allocator +
                    " grants with its own round-robin pointers; only with --arbiter round_robin"};
  if (a.input_arbiter != "round_robin" && a.input_arbiter != a.arbiter)
    throw bad_input{"--input-arbiter: " + a.input_arbiter + " with --arbiter " + a.arbiter +
                    "; allowed: round_robin, or the same as --arbiter"};
  if (a.node == "anton2") {
    if (a.scheme != "vc_promotion")
      throw bad_input{
          "--node: anton2 routes with VC promotion across its mesh and the torus; "
          "--scheme vc_promotion (the anton2 preset's), not " +
          a.scheme};
    if (a.model.endpoints != 1)
      throw bad_input{"--endpoints: " + std::to_string(a.model.endpoints) +
                      " with --node anton2; every mesh router hosts one core"};
  } else if (!node_flags.empty()) {
    throw bad_input{node_flags.front() + ": applies only to --node anton2"};
  }
  if (a.input_arbiter != "round_robin" && a.allocator != "separable_input_first" &&
      a.allocator != "separable_output_first")
    throw bad_input{"--input-arbiter: " + a.input_arbiter + " with --allocator " + a.allocator +
                    "; allowed with the separable allocators"};
  if (a.arbiter != "age" && !age_flags.empty())
    throw bad_input{age_flags.front() + ": applies only to --arbiter age"};
  const std::size_t n = a.radix.size();
  if (!a.weights_from.empty() && !inverse_weighted_name(a.arbiter))
    throw bad_input{"--weights-from: applies only to --arbiter inverse_weighted or iw:FORM"};
  if (headroom_given && !inverse_weighted_name(a.arbiter))
    throw bad_input{"--weight-headroom: applies only to --arbiter inverse_weighted or iw:FORM"};
  // Weights of M bits: 8 on a torus of routers, 12 in Anton 2's node.
  const unsigned weight_bits = a.node == "anton2" ? 12 : 8;
  if (a.weight_headroom >= weight_bits)
    throw bad_input{"--weight-headroom: " + std::to_string(a.weight_headroom) + "; allowed: 0.." +
                    std::to_string(weight_bits - 1) + " (the arbiters' weights have " +
                    std::to_string(weight_bits) + " bits" +
                    (a.node == "anton2" ? " in Anton 2's node)" : " on a torus of routers)")};
  // The inverse-weighted arbiter's N patterns: its weights' patterns, each a
  // label; traffic of more than one pattern is labelled only then.
  if (inverse_weighted_name(a.arbiter) && a.model.endpoints > 1)
    throw bad_input{"--endpoints: " + std::to_string(a.model.endpoints) + " with --arbiter " +
                    a.arbiter +
                    "; its weights come from the loads of one local port per router (1 only)"};
  if (inverse_weighted_name(a.arbiter)) {
    const auto& weights = a.weights_mix.empty() ? a.mix : a.weights_mix;
    if (weights.size() > 2)
      throw bad_input{std::string(a.weights_mix.empty() ? "--traffic" : "--weights-from") + ": " +
                      a.arbiter + " takes weights for 1 or 2 labelled patterns"};
    if (weights.size() == 2 && a.mix.size() != 2)
      throw bad_input{"--traffic: weights for 2 labelled patterns need a mix of 2 patterns, " +
                      std::to_string(a.mix.size()) + " given"};
  }
  if (!a.rsp_age_bias.empty() && a.rsp_age_bias.size() != 1 && a.rsp_age_bias.size() != n &&
      a.rsp_age_bias.size() != n + 1)
    throw bad_input{"--rsp-age-bias: " + std::to_string(a.rsp_age_bias.size()) +
                    " values; give 1, one per dimension (" + std::to_string(n) +
                    "), or one per dimension and one for the local port (" + std::to_string(n + 1) +
                    ")"};
  if (!a.age_bias.empty() && a.age_bias.size() != 1 && a.age_bias.size() != n &&
      a.age_bias.size() != n + 1)
    throw bad_input{"--age-bias: " + std::to_string(a.age_bias.size()) +
                    " values; give 1, one per dimension (" + std::to_string(n) +
                    "), or one per dimension and one for the local port (" + std::to_string(n + 1) +
                    ")"};
  if (a.model.batch > 0 && (load_given || !a.sweep.empty()))
    throw bad_input{"--batch: not with --load or --sweep (a batch sends as fast as it can)"};
  if (!a.sweep.empty() && load_given) throw bad_input{"--sweep: not with --load"};
  if (!a.per_source.empty() && !a.sweep.empty())
    throw bad_input{"--per-source: not with --sweep (one run's sources)"};
  if (!flags.given("--jobs")) a.jobs = cli::default_jobs();
  check_trace_flags(a.trace, a.node, a.model, given);
  check_work(a);
  return a;
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_ARGS_HPP
