// SPDX-License-Identifier: BSL-1.0
// deadlock_check's settings, each declared once (cli::setting_table): the
// network (as netsim's), the node, the scheme with the options each scheme
// takes, and the limits of a run. parse() reads them (--config FILE too) and
// throws bad_input naming the flag, with FILE:LINE:COLUMN when a file gave
// it, for anything it refuses and nothing else. Shared by the tool and by
// the fuzz harness of its flag parsing (tests/fuzz/tool_flags_fuzz.cpp).
#ifndef INTERLOCK_EXAMPLES_DEADLOCK_CHECK_ARGS_HPP
#define INTERLOCK_EXAMPLES_DEADLOCK_CHECK_ARGS_HPP

#include <interlock/routing/route.hpp>
#include <interlock/topology/torus.hpp>

#include "catalogue.hpp"
#include "cli.hpp"
#include "grid.hpp"
#include "routing_flags.hpp"
#include "settings.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace deadlock_check_tool {

using cli::bad_input;
using cli::parse_orders;
using cli::vc_tables;

struct arguments {
  std::vector<std::size_t> radix;
  std::vector<bool> wrap;
  std::size_t slices = 1;
  std::string scheme;
  std::string node = "router";  // router: one per node; anton2: Anton 2's on-chip mesh
  std::string orders;
  unsigned vcs = 0;  // 0: the scheme's
  std::vector<interlock::traffic_class> classes{interlock::traffic_class::request,
                                                interlock::traffic_class::response};
  bool no_datelines = false, other_way = false, initial_hops = false, final_hop = false;
  bool initial_onto_dateline = false, non_minimal = false;
  std::string tables = "toc";
  std::string flow = "whole_packet";
  std::size_t minus_dateline = 0;
  std::size_t max_memory_mib = 4096;
  std::size_t max_routes = 1000000000;
  std::size_t threads = cli::default_jobs();
};

/// The orders a scheme takes when --orders is not given, as --orders names
/// them: dimension order's x, y, z... ; the others' "all".
inline std::string default_orders(const arguments& a) {
  if (a.scheme != "dor" || a.node == "anton2") return "all";
  std::string orders;
  for (std::size_t d = 0; d < a.radix.size(); ++d)
    orders += a.radix.size() <= 3 ? static_cast<char>('x' + d) : static_cast<char>('0' + d);
  return orders;
}

inline const cli::setting_table<arguments>& settings() {
  using a = arguments;
  using cli::custom;
  using cli::toggle;
  // The scheme's own options, on one router per node (Anton 2's node takes
  // --orders only).
  const auto scheme_is = [](std::vector<std::string> names) {
    return [names](const a& s) {
      bool in = false;
      for (const std::string& n : names) in = in || s.scheme == n;
      return in && s.node == "router";
    };
  };
  const auto ordered = [](const a& s) {
    return s.node == "anton2" || s.scheme == "dor" || s.scheme == "vc_promotion" ||
           s.scheme == "per_dimension";
  };
  static const cli::setting_table<a> table([&] {
    std::vector<cli::setting<a>> list = cli::torus_settings<a>(65535);
    cli::append(
        list,
        {custom<a>(
             "--node", "NAME",
             "router: one router per node; anton2: every node Anton 2's 4x4 mesh of routers, "
             "skip channels and channel adapters, one graph with the torus (a 3-D torus of 2 "
             "slices, --scheme vc_promotion; routes between every two cores: 4x4x4 takes about "
             "20 s)",
             [](a& s, const std::string& v) {
               s.node = cli::catalogue::check("--node", "node", v);
             },
             [](const a& s) { return s.node; }),
         custom<a>(
             "--scheme", "NAME",
             "the routing scheme: dor (dimension order, a dateline VC switch: 2 VCs per "
             "class), t3e (the Cray T3E's direction order +X,+Y,+Z,-X,-Y,-Z: 2 VCs per class), "
             "t3e_adaptive (the T3E's adaptive routing over the t3e escape network), "
             "vc_promotion (Anton 2: VC +1 at a dateline or at the end of a dimension without "
             "one: n+1 VCs per class), per_dimension (the 2n-VC scheme VC promotion improves "
             "on); required",
             [](a& s, const std::string& v) {
               s.scheme = cli::catalogue::check("--scheme", "routing", v);
             },
             [](const a& s) { return s.scheme; })
             .defaults("-"),
         custom<a>(
             "--orders", "LIST",
             "dor, vc_promotion, per_dimension: 'all', or orders separated by commas, each "
             "naming every dimension once: xyz, zyx, ... or 0123, 3210, ...",
             [](a& s, const std::string& v) { s.orders = v; },
             [](const a& s) { return s.orders.empty() ? default_orders(s) : s.orders; })
             .when(ordered, "--scheme dor, vc_promotion or per_dimension")
             .defaults("dor: xyz...; the others: all")
             .under(),
         toggle<a>(
             "--no-datelines", [](auto& s) -> auto& { return s.no_datelines; },
             "dor: no switch, 1 VC (deadlocks on rings of 5 and more)")
             .when(scheme_is({"dor"}), "--scheme dor on --node router")
             .under(),
         toggle<a>(
             "--other-way", [](auto& s) -> auto& { return s.other_way; },
             "t3e: route tags may go the long way round")
             .when(scheme_is({"t3e"}), "--scheme t3e on --node router")
             .under(),
         toggle<a>(
             "--initial-hops", [](auto& s) -> auto& { return s.initial_hops; },
             "t3e: an initial +X, +Y or +Z hop")
             .when(scheme_is({"t3e"}), "--scheme t3e on --node router")
             .under(),
         toggle<a>(
             "--final-hop", [](auto& s) -> auto& { return s.final_hop; },
             "t3e: a final hop in the last direction")
             .when(scheme_is({"t3e"}), "--scheme t3e on --node router")
             .under(),
         [] {
           // A switch that implies --initial-hops.
           cli::setting<a> x = toggle<a>(
               "--initial-onto-dateline", [](auto& s) -> auto& { return s.initial_onto_dateline; },
               "t3e, unsafe: initial hops, onto a dateline node too");
           x.read = [](a& s, const std::string&) {
             s.initial_onto_dateline = s.initial_hops = true;
           };
           return x;
         }()
             .when(scheme_is({"t3e"}), "--scheme t3e on --node router")
             .under(),
         cli::one_of<a>(
             "--tables", [](auto& s) -> auto& { return s.tables; }, {"toc", "optimized"},
             "t3e, t3e_adaptive: the VC lookup tables (optimized: Table 1's)")
             .when(scheme_is({"t3e", "t3e_adaptive"}),
                   "--scheme t3e or t3e_adaptive on --node router")
             .under(),
         cli::one_of<a>(
             "--flow", [](auto& s) -> auto& { return s.flow; }, {"whole_packet", "wormhole"},
             "t3e_adaptive: whole_packet, the T3E's rule; wormhole checks Duato's extended "
             "graph")
             .when(scheme_is({"t3e_adaptive"}), "--scheme t3e_adaptive on --node router")
             .under(),
         toggle<a>(
             "--non-minimal", [](auto& s) -> auto& { return s.non_minimal; },
             "vc_promotion, per_dimension, unsafe: routes may go the long way round")
             .when(scheme_is({"vc_promotion", "per_dimension"}),
                   "--scheme vc_promotion or per_dimension on --node router")
             .under(),
         cli::whole<a>(
             "--minus-dateline", "S", [](auto& s) -> auto& { return s.minus_dateline; }, 0, 65534,
             "vc_promotion, per_dimension, unsafe when S != 0: the - dateline between "
             "ordinates S-1 and S")
             .when(scheme_is({"vc_promotion", "per_dimension"}),
                   "--scheme vc_promotion or per_dimension on --node router")
             .under(),
         cli::whole<a>(
             "--vcs", "N", [](auto& s) -> auto& { return s.vcs; }, 1, 4096,
             "the hardware has only N VCs per class: a VC number above N-1 saturates at N-1 "
             "(1..the scheme's count)")
             .when([](const a& s) { return s.vcs != 0; }, "a limit")
             .defaults("the scheme's"),
         custom<a>(
             "--classes", "request|response|both", "the traffic classes to check",
             [](a& s, const std::string& v) {
               if (v == "request") {
                 s.classes = {interlock::traffic_class::request};
               } else if (v == "response") {
                 s.classes = {interlock::traffic_class::response};
               } else if (v != "both") {
                 throw bad_input{"--classes: '" + v.substr(0, 80) +
                                 "'; allowed: request, response, both"};
               }
             },
             [](const a& s) -> std::string {
               if (s.classes.size() == 2) return "both";
               return s.classes[0] == interlock::traffic_class::request ? "request" : "response";
             }),
         cli::whole<a>(
             "--max-memory", "MIB", [](auto& s) -> auto& { return s.max_memory_mib; }, 1, 1u << 24,
             "refuse a run estimated to need more")
             .control(),
         cli::whole<a>(
             "--max-routes", "N", [](auto& s) -> auto& { return s.max_routes; }, 1,
             1000000000000000,
             "refuse a run of more routes (the default: about two minutes "
             "at 110-140 ns a route)")
             .control(),
         cli::whole<a>(
             "--threads", "N", [](auto& s) -> auto& { return s.threads; }, 1, 256,
             "walk the routes on N threads, each with its own graph and memo; the report is "
             "the same for any N")
             .local()
             .defaults("the machine's cores")});
    return list;
  }());
  return table;
}

inline arguments parse(int argc, char** argv) {
  arguments a;
  const cli::flags flags = settings().parse(argc, argv, a);
  using table = cli::setting_table<arguments>;
  if (a.radix.empty()) throw bad_input{"--radix: missing (e.g. --radix 8,8,8)"};
  cli::finish_torus(a, flags);
  if (a.scheme.empty()) throw bad_input{"--scheme: missing (see --help for the list)"};
  if (a.node == "anton2") {
    if (a.scheme != "vc_promotion")
      throw table::refusal(flags, "--node",
                           "--node: anton2 routes with VC promotion across its mesh and the "
                           "torus; --scheme vc_promotion, not " +
                               a.scheme);
    // Anton 2's node lays its channels out for a 3-D torus of two slices.
    if (a.radix.size() != 3)
      throw table::refusal(flags, "--radix",
                           "--radix: " + std::to_string(a.radix.size()) +
                               " dimensions; --node anton2 takes a 3-D torus (K0,K1,K2)");
    if (a.slices != 2)
      throw table::refusal(flags, "--slices",
                           "--slices: " + std::to_string(a.slices) +
                               "; --node anton2 has Anton 2's two slices (--slices 2)");
  }
  flags.write_resolved(settings().resolved(a));
  return a;
}

}  // namespace deadlock_check_tool

#endif  // INTERLOCK_EXAMPLES_DEADLOCK_CHECK_ARGS_HPP
