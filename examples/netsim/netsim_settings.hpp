// SPDX-License-Identifier: BSL-1.0
// netsim's settings, each declared once (cli/settings.hpp): the flag, the
// value it takes, its help, its check, how it is written back, whether it
// changes a result and when it applies. The table makes netsim's parser
// (netsim_args.hpp), --help's lines, the configuration as run (the echo,
// --write-config, --json's "configuration") and the CSV's configuration
// columns: every result setting is a column, empty where it does not apply.
// fairness_check reads the same settings.
#ifndef INTERLOCK_EXAMPLES_NETSIM_SETTINGS_HPP
#define INTERLOCK_EXAMPLES_NETSIM_SETTINGS_HPP

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <interlock/arbiters/inverse_weighted_form.hpp>
#include <interlock/model/config.hpp>
#include <interlock/model/presets.hpp>
#include <interlock/model/results.hpp>
#include <interlock/topology/anton2_node.hpp>
#include "catalogue.hpp"
#include "cli.hpp"
#include "netsim_arguments.hpp"
#include "netsim_router_settings.hpp"
#include "netsim_trace_args.hpp"
#include "netsim_values.hpp"
#include "prefetch_flag.hpp"
#include "settings.hpp"

namespace netsim_tool {

/// Whether the run's traffic (or the loads its weights come from) uses `pattern`.
inline bool uses(const arguments& a, const char* pattern) {
  return (!a.trace.on() && mix_has(a.mix, pattern)) || mix_has(a.weights_mix, pattern);
}
/// netsim's settings, in --help's order: the network's and router's
/// (netsim_router_settings.hpp), then the traffic's, the trace's and the
/// run's. `when` texts complete "applies only to ...".
inline std::vector<cli::setting<arguments>> settings_list() {
  using a = arguments;
  using cli::custom;
  using cli::decimal;
  using cli::whole;
  const auto patterns = [](const a& s) { return !s.trace.on(); };
  const auto traced = [](const a& s) { return s.trace.on(); };
  std::vector<cli::setting<arguments>> list = router_settings();
  std::vector<cli::setting<arguments>> rest{
      // traffic
      custom<a>(
          "--traffic", "NAME|NAME:SHARE,...",
          "uniform_random, tornado, reverse_tornado, bit_complement, transpose, neighbor, "
          "all_to_one, hotspot; or a mix NAME:SHARE,NAME:SHARE (up to 4): each packet draws a "
          "pattern by share, its label the pattern's index (inverse-weighted arbiters: 2 "
          "patterns, weights per label)",
          [](a& s, const std::string& v) {
            s.traffic = v;
            s.mix = parse_mix("--traffic", v);
          },
          [](const a& s) { return s.traffic; })
          .when(patterns, "runs without --trace (the trace gives the packets)"),
      whole<a>(
          "--destination", "N", [](auto& s) -> auto& { return s.destination; }, 0, 1u << 24,
          "all_to_one, hotspot: the node")
          .when([](const a& s) { return uses(s, "all_to_one") || uses(s, "hotspot"); },
                "--traffic all_to_one or hotspot")
          .defaults("the last")
          .under(),
      decimal<a>(
          "--hotspot-fraction", "F", [](auto& s) -> auto& { return s.hotspot_fraction; }, 0, 1,
          "hotspot: share of packets to it")
          .when([](const a& s) { return uses(s, "hotspot"); }, "--traffic hotspot")
          .under(),
      whole<a>(
          "--neighbor-hops", "H", [](auto& s) -> auto& { return s.neighbor_hops; }, 0, 128,
          "neighbor: at most H hops per dimension")
          .when([](const a& s) { return uses(s, "neighbor"); }, "--traffic neighbor")
          .under(),
      decimal<a>(
          "--load", "L", [](auto& s) -> auto& { return s.model.load; }, 0, 1,
          "offered flits per node per cycle")
          .when([](const a& s) { return s.model.batch == 0 && s.sweep.empty() && !s.trace.on(); },
                "runs without --batch, --sweep or --trace"),
      custom<a>(
          "--sweep", "L1,L2,...", "one run per load, one CSV row each, in the list's order",
          [](a& s, const std::string& v) {
            s.sweep.clear();
            for (const std::string& part : cli::split(v))
              s.sweep.push_back(cli::real("--sweep", part, 0, 1));
          },
          [](const a& s) { return cli::joined(s.sweep); })
          .when([](const a& s) { return !s.sweep.empty() && s.model.batch == 0 && !s.trace.on(); },
                "runs without --batch or --trace")
          .defaults("-"),
      whole<a>(
          "--batch", "B", [](auto& s) -> auto& { return s.model.batch; }, 1, 100000000,
          "every source sends B packets as fast as it can; the run ends at the last "
          "delivery")
          .when([](const a& s) { return s.model.batch > 0 && !s.trace.on(); },
                "runs without --trace")
          .defaults("-"),
      custom<a>(
          "--packet-flits", "N|N:S,...", "packet length, or lengths with shares",
          [](a& s, const std::string& v) { s.model.lengths = parse_lengths("--packet-flits", v); },
          [](const a& s) { return lengths_text(s.model.lengths); })
          .when(patterns, "runs without --trace (the trace gives the sizes)"),
      decimal<a>(
          "--response-share", "F", [](auto& s) -> auto& { return s.model.response_share; }, 0, 1,
          "share of packets in the response class"),
      // trace (instead of the traffic flags)
      custom<a>(
          "--trace", "FILE",
          "replay a Netrace trace (format 1, .tra or .tra.bz2) closed-loop: a packet enters "
          "its node's source queue at its trace cycle or once the packets it depends on are "
          "delivered, whichever is later; the run ends at the last delivery (--cycles + "
          "--drain: a limit, none by default)",
          [](a& s, const std::string& v) { s.trace.path = v; },
          [](const a& s) { return s.trace.path; })
          .when(traced, "")
          .defaults("-"),
      whole<a>(
          "--trace-flit-bytes", "B", [](auto& s) -> auto& { return s.trace.flit_bytes; }, 1, 72,
          "bytes per flit (16: a trace's 8-byte packets are 1 flit, its 72-byte ones 5)")
          .when(traced, "runs with --trace")
          .under(),
      whole<a>(
          "--trace-dependency-delay", "N",
          [](auto& s) -> auto& { return s.trace.dependency_delay; }, 0, 1u << 20,
          "cycles from a dependency's delivery to the packet's readiness (Netrace's "
          "example uses 8)")
          .when(traced, "runs with --trace")
          .under(),
      custom<a>(
          "--trace-open-loop", "", "ignore dependencies: every packet at its trace cycle",
          [](a& s, const std::string&) { s.trace.dependencies = false; },
          [](const a& s) { return std::string(s.trace.dependencies ? "false" : "true"); })
          .when(traced, "runs with --trace")
          .under(),
      custom<a>(
          "--trace-node-map", "FILE",
          "'TRACE_NODE NETWORK_NODE' lines, one per trace node (default: node i is node i; "
          "the network needs as many)",
          [](a& s, const std::string& v) { s.trace.node_map = v; },
          [](const a& s) { return s.trace.node_map; })
          .when([](const a& s) { return s.trace.on() && !s.trace.node_map.empty(); },
                "runs with --trace")
          .defaults("-")
          .under(),
      cli::toggle<a>(
          "--trace-classes", [](auto& s) -> auto& { return s.trace.classes; },
          "responses in the response class (with --response-share between 0 and 1, "
          "which then only sizes the VCs)")
          .when(traced, "runs with --trace")
          .under(),
      whole<a>(
          "--trace-region", "R", [](auto& s) -> auto& { return s.trace.region; }, 0, 65535,
          "replay region R alone (Netrace's regions)")
          .when([](const a& s) { return s.trace.on() && s.trace.region != ~std::size_t{0}; },
                "runs with --trace")
          .defaults("every region")
          .under(),
      // run
      whole<a>(
          "--warmup", "N", [](auto& s) -> auto& { return s.model.warmup; }, 0,
          std::uint64_t{1} << 40, "cycles before measuring")
          .when(patterns, "runs without --trace (a trace measures every packet)"),
      custom<a>(
          "--cycles", "N", "measured cycles; none: no limit (a trace's default: to its end)",
          [](a& s, const std::string& v) {
            s.model.measure =
                v == "none"
                    ? no_cycle_limit
                    : static_cast<std::size_t>(cli::number("--cycles", v, 1, no_cycle_limit - 1));
          },
          [](const a& s) {
            return s.model.measure >= no_cycle_limit ? std::string("none")
                                                     : std::to_string(s.model.measure);
          }),
      whole<a>(
          "--drain", "N", [](auto& s) -> auto& { return s.model.drain; }, 0, std::uint64_t{1} << 40,
          "at most N more cycles for measured packets"),
      whole<a>(
          "--seed", "N", [](auto& s) -> auto& { return s.model.seed; }, 0, 1000000000000000000,
          "the run's seed"),
      cli::output<a>(
          "--csv", [](auto& s) -> auto& { return s.csv; },
          "one row per run, with a header line: the configuration's columns, then "
          "the results'"),
      cli::output<a>(
          "--per-source", [](auto& s) -> auto& { return s.per_source; },
          "one row per source: source,hops,accepted,share,latency_mean,latency_sd,"
          "network_latency_mean,completion (completion: a batch's last delivery "
          "from the source); not with --sweep")
          .when([](const a& s) { return s.sweep.empty(); }, "runs without --sweep"),
      cli::output<a>(
          "--json", [](auto& s) -> auto& { return s.json; },
          "the configuration as run and every run's results (per source too) as one "
          "JSON document"),
      cli::output<a>(
          "--write-config", [](auto& s) -> auto& { return s.write_config; },
          "the configuration as run, resolved (defaults, preset, VC count, age "
          "parameters), as 'key = value' lines that --config FILE reads back"),
      whole<a>(
          "--jobs", "N", [](auto& s) -> auto& { return s.jobs; }, 1, 1024,
          "a sweep's loads run N at a time; the results equal --jobs 1's")
          .local()
          .defaults("the machine's cores"),
      custom<a>(
          "--no-progress", "", "no progress bar (it is shown only on a terminal)",
          [](a& s, const std::string&) { s.progress = false; },
          [](const a& s) { return std::string(s.progress ? "false" : "true"); })
          .local(),
      whole<a>(
          "--max-work", "N", [](auto& s) -> auto& { return s.max_work; }, 1, 1000000000000000000,
          "refuse a run estimated to step more router-cycles (routers x (warm-up + window "
          "+ drain) x loads; about 9 hours)")
          .control(),
      whole<a>(
          "--max-memory", "MIB", [](auto& s) -> auto& { return s.max_memory_mib; }, 1,
          std::uint64_t{1} << 24,
          "refuse a run whose latency samples could take more (8 bytes per packet of the "
          "window)")
          .control(),
  };
  list.insert(list.end(), rest.begin(), rest.end());
  return list;
}

/// netsim's settings' table, made once.
inline const cli::setting_table<arguments>& settings() {
  static const cli::setting_table<arguments> table(settings_list());
  return table;
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_SETTINGS_HPP
