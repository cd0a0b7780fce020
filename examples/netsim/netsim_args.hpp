// SPDX-License-Identifier: BSL-1.0
// netsim's command line: parse() reads the settings of netsim_settings.hpp
// through the tools' shared argument loop (cli.hpp: --config FILE, each flag
// once), then checks them together and estimates the run's work. It throws
// bad_input naming the flag (and FILE:LINE:COLUMN where a file gave it) for
// anything it refuses. The network and scheme flags are deadlock_check's,
// so a configuration checked there runs here unchanged.
#ifndef INTERLOCK_EXAMPLES_NETSIM_ARGS_HPP
#define INTERLOCK_EXAMPLES_NETSIM_ARGS_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
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
#include "netsim_settings.hpp"
#include "netsim_trace_args.hpp"
#include "netsim_values.hpp"
#include "prefetch_flag.hpp"
#include "routing_flags.hpp"

namespace netsim_tool {

using cli::bad_input;

using cli::token;

/// The run's work, estimated before it starts and refused past --max-work
/// (router-cycles: every router stepped over warm-up, window and the whole
/// drain, for every point of a sweep) or --max-memory (the latency samples
/// the window keeps, 8 bytes per delivered packet).
inline void check_work(const arguments& a) {
  if (a.trace.on()) return;  // check_trace_work(), once its header is read
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

/// A trace's work, estimated from its header before the replay: every
/// router stepped over the trace's cycles (or --cycles + --drain if fewer;
/// a network slower than the traced one takes more), and a latency sample
/// per packet.
inline void check_trace_work(const arguments& a, double routers, std::uint64_t trace_cycles,
                             std::uint64_t packets) {
  const double cycles =
      std::min(static_cast<double>(trace_cycles),
               static_cast<double>(a.model.measure) + static_cast<double>(a.model.drain));
  const double work = routers * cycles;
  if (work > static_cast<double>(a.max_work))
    throw bad_input{cli::format(
        "--max-work: replaying the trace could take %.3g router-cycles (%.3g routers over its "
        "%.3g cycles; about %.3g hours at 3e6 router-cycles/s); cut it off with --cycles or "
        "raise --max-work (now %.3g)",
        work, routers, cycles, work / 3e6 / 3600, static_cast<double>(a.max_work))};
  const double mib = static_cast<double>(packets) * 8 / (1024.0 * 1024.0);
  if (mib > static_cast<double>(a.max_memory_mib))
    throw bad_input{cli::format(
        "--max-memory: the replay could keep %.3g MiB of latency samples (%.3g "
        "packets); replay a region (--trace-region) or raise --max-memory (now %llu)",
        mib, static_cast<double>(packets), static_cast<unsigned long long>(a.max_memory_mib))};
}

/// Flags that take no value; in a configuration file `key = true` or `false`.
inline bool is_switch(const std::string& flag) { return settings().is_switch(flag); }

/// A driver's own flags (fairness_check's): own(flag, value) reads the flag
/// and returns true, or returns false to leave it to netsim. Its flags share
/// the argument loop: a configuration file, each flag at most once.
using own_flags = std::function<bool(const std::string&, const std::function<std::string()>&)>;

inline arguments parse(int argc, char** argv, const own_flags& own = {}) {
  arguments a;
  std::vector<std::string> theirs;  // the flags `own` read
  cli::flags flags(argc, argv, is_switch);
  flags.tool_writes_config();  // resolved, in simulate() (netsim_config.hpp)
  flags.for_each([&](const std::string& flag, const auto& value) {
    if (own && own(flag, value)) {
      theirs.push_back(flag);
      return;
    }
    if (flag == "--preset") {
      const std::string name = value();
      if (name == "seastar") {
        a.preset = interlock::model::seastar_preset();
      } else if (name == "anton2") {
        a.preset = interlock::model::anton2_preset();
      } else {
        throw bad_input{"--preset: '" + name + "'; allowed: seastar, anton2"};
      }
    } else if (!settings().read(a, flag, value)) {
      throw bad_input{flag + ": unknown option (see --help)"};
    }
  });
  a.config = flags.words();
  const auto given = [&](const char* f) { return flags.given(f); };
  // A check of several settings, naming the first flag's FILE:LINE:COLUMN
  // when a configuration file gave it.
  const auto refuse = [&](const char* flag, const std::string& message) {
    return cli::setting_table<arguments>::refusal(flags, flag, message);
  };
  if (!a.preset.name.empty()) {
    // The preset's values for every flag not given.
    const interlock::model::preset& p = a.preset;
    if (!given("--radix")) a.radix = p.radix;
    if (!given("--slices")) a.slices = p.slices;
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
  cli::finish_torus(a, flags);
  settings().refuse_inapplicable(a, flags, theirs);
  if ((a.allocator == "islip" || a.allocator == "wavefront") && a.arbiter != "round_robin")
    throw refuse("--allocator", "--allocator: " + a.allocator +
                                    " grants with its own round-robin pointers; only with "
                                    "--arbiter round_robin");
  if (a.input_arbiter != "round_robin" && a.input_arbiter != a.arbiter)
    throw refuse("--input-arbiter", "--input-arbiter: " + a.input_arbiter + " with --arbiter " +
                                        a.arbiter +
                                        "; allowed: round_robin, or the same as --arbiter");
  if (a.node == "anton2") {
    if (a.scheme != "vc_promotion")
      throw refuse("--node",
                   "--node: anton2 routes with VC promotion across its mesh and the torus; "
                   "--scheme vc_promotion (the anton2 preset's), not " +
                       a.scheme);
    if (a.model.endpoints != 1)
      throw refuse("--endpoints", "--endpoints: " + std::to_string(a.model.endpoints) +
                                      " with --node anton2; every mesh router hosts one core");
  }
  if (a.input_arbiter != "round_robin" && a.allocator != "separable_input_first" &&
      a.allocator != "separable_output_first")
    throw refuse("--input-arbiter", "--input-arbiter: " + a.input_arbiter + " with --allocator " +
                                        a.allocator + "; allowed with the separable allocators");
  const std::size_t n = a.radix.size();
  // Weights of M bits: 8 on a torus of routers, 12 in Anton 2's node.
  const unsigned weight_bits = a.node == "anton2" ? 12 : 8;
  if (a.weight_headroom >= weight_bits)
    throw refuse("--weight-headroom",
                 "--weight-headroom: " + std::to_string(a.weight_headroom) + "; allowed: 0.." +
                     std::to_string(weight_bits - 1) + " (the arbiters' weights have " +
                     std::to_string(weight_bits) + " bits" +
                     (a.node == "anton2" ? " in Anton 2's node)" : " on a torus of routers)"));
  // The inverse-weighted arbiter's N patterns: its weights' patterns, each a
  // label; traffic of more than one pattern is labelled only then.
  if (inverse_weighted_name(a.arbiter) && a.model.endpoints > 1)
    throw refuse("--endpoints",
                 "--endpoints: " + std::to_string(a.model.endpoints) + " with --arbiter " +
                     a.arbiter +
                     "; its weights come from the loads of one local port per router (1 only)");
  if (inverse_weighted_name(a.arbiter)) {
    const auto& weights = a.weights_mix.empty() ? a.mix : a.weights_mix;
    const char* from = a.weights_mix.empty() ? "--traffic" : "--weights-from";
    if (weights.size() > 2)
      throw refuse(from, std::string(from) + ": " + a.arbiter +
                             " takes weights for 1 or 2 labelled patterns");
    if (weights.size() == 2 && a.mix.size() != 2)
      throw refuse("--traffic",
                   "--traffic: weights for 2 labelled patterns need a mix of 2 "
                   "patterns, " +
                       std::to_string(a.mix.size()) + " given");
  }
  for (const char* flag : {"--age-bias", "--rsp-age-bias"}) {
    const std::size_t given_biases = flag[2] == 'a' ? a.age_bias.size() : a.rsp_age_bias.size();
    if (given_biases != 0 && given_biases != 1 && given_biases != n && given_biases != n + 1)
      throw refuse(flag, std::string(flag) + ": " + std::to_string(given_biases) +
                             " values; give 1, one per dimension (" + std::to_string(n) +
                             "), or one per dimension and one for the local port (" +
                             std::to_string(n + 1) + ")");
  }
  if (!given("--jobs")) a.jobs = cli::default_jobs();
  check_trace_flags(a.trace, a.node, a.model, given, refuse);
  check_work(a);
  return a;
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_ARGS_HPP
