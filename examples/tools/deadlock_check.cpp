// SPDX-License-Identifier: BSL-1.0
// deadlock_check: builds the channel dependency graph of a routing scheme on
// a mesh or torus and says whether it is acyclic (Dally and Seitz), printing
// a witness cycle in the network's own terms when it is not.
//
//   deadlock_check --radix 8,8,8 --wrap 1,1,1 --scheme vc_promotion --orders all
//
// Exit status: 0 deadlock free, 1 a cycle (or a route that does not
// arrive), 2 bad input. --help lists the schemes and their options.
#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/routing/vc_table.hpp>
#include <interlock/verify/adaptive_deadlock.hpp>
#include <interlock/verify/channel_dependency_graph.hpp>
#include <interlock/verify/unified_deadlock.hpp>

#include "cli.hpp"
#include "deadlock_check_args.hpp"
#include "schemes.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace deadlock_check_tool;

std::string help_text() {
  return "usage: deadlock_check --radix K0,K1,... --scheme NAME [options]\n"
         "\n"
         "Walks every route the scheme gives between every two nodes (every order,\n"
         "slice, route tag, initial and final hop it allows), builds the channel\n"
         "dependency graph over (channel, VC) and looks for a cycle.\n"
         "\n" +
         settings().help() +
         "\n"
         "Before it starts, the check estimates the routes it will walk (pairs x the\n"
         "routes the scheme gives a pair x classes) and the memory it needs (the graph's\n"
         "bits, and the memo of the routes to one destination), and refuses a run over\n"
         "either limit, printing the estimate. A flag the scheme does not take, or a\n"
         "flag given twice, is refused.\n"
         "\n"
         "exit status: 0 deadlock free, 1 a cycle or a route that does not arrive,\n"
         "2 bad input or a run over the limits, 3 out of memory or another failure\n";
}

std::string order_names(const std::vector<interlock::dimension_sequence>& orders, std::size_t n) {
  std::string text;
  for (const auto& order : orders) {
    if (!text.empty()) text += ",";
    for (const unsigned d : order)
      text += n <= 3 ? static_cast<char>('x' + d) : static_cast<char>('0' + d);
  }
  return text;
}

void print_network(const arguments& a) {
  std::string radix, wrap;
  for (std::size_t d = 0; d < a.radix.size(); ++d) {
    radix += (d != 0 ? "x" : "") + std::to_string(a.radix[d]);
    wrap += (d != 0 ? "," : "") + std::string(a.wrap[d] ? "1" : "0");
  }
  std::printf("network: %s (wrap %s), %zu slice%s\n", radix.c_str(), wrap.c_str(), a.slices,
              a.slices == 1 ? "" : "s");
}

// Prints a report; returns the exit status.
int print_report(const interlock::torus_topology& t, const interlock::verify::cdg_report& r,
                 const arguments& a, const char* what) {
  std::printf("%sroutes: %llu\n", what, static_cast<unsigned long long>(r.routes));
  std::printf("%sgraph: %zu resources, %zu dependencies\n", what, r.resources, r.dependencies);
  std::string used;
  for (const auto c : a.classes) {
    if (!used.empty()) used += ", ";
    used += c == interlock::traffic_class::request ? "request " : "response ";
    used += std::to_string(r.vcs_used[static_cast<std::size_t>(c)]);
  }
  std::printf("%sVCs used: %s\n", what, used.c_str());
  if (!r.routes_arrive) {
    std::printf("%sverdict: a route does not arrive: %s %s\n", what,
                interlock::verify::describe(t, r.failed_route).c_str(), r.route_problem.c_str());
    return 1;
  }
  if (!r.acyclic) {
    std::printf("%sverdict: cycle: deadlock possible\n%s", what,
                interlock::verify::format_cycle(t, r).c_str());
    return 1;
  }
  std::printf("%sverdict: acyclic: deadlock free\n", what);
  return 0;
}

interlock::verify::cdg_options checker_options(const arguments& a, unsigned per_class) {
  if (a.vcs > per_class)
    throw bad_input{"--vcs: " + std::to_string(a.vcs) + "; the scheme has " +
                    std::to_string(per_class) + " VCs per class, allowed 1.." +
                    std::to_string(per_class)};
  interlock::verify::cdg_options o;
  o.vc_limit = a.vcs;
  o.classes = a.classes;
  o.threads = static_cast<unsigned>(a.threads);
  return o;
}

// Refuses (bad_input naming the limit's flag) a run estimated to walk more
// routes or need more memory than allowed. Routes: ordered pairs x the
// routes the scheme gives one pair (sampled on the farthest pair) x
// classes. Memory: the graph keeps a bit per (vertex, successor), vertices
// = channels x VCs, successors = 2n x slices x VCs; the memo of the routes
// to one destination keeps about two states per route's first hop.
template <class Scheme>
void check_limits(const Scheme& scheme, const arguments& a, unsigned vcs_per_channel) {
  const interlock::torus_topology& t = scheme.topology();
  const double nodes = static_cast<double>(t.node_count());
  double per_pair = 0;
  scheme.for_each_start(0, t.node_count() - 1, a.classes.front(),
                        [&](const typename Scheme::state&, double) { per_pair += 1; });
  const double routes = nodes * (nodes - 1) * per_pair * static_cast<double>(a.classes.size());
  const double vertices = static_cast<double>(t.channel_count()) * vcs_per_channel;
  const double successors =
      2.0 * static_cast<double>(t.dimensions() * t.slices()) * vcs_per_channel;
  const double graph_bytes = vertices * std::ceil(successors / 64) * 8 + vertices / 8;
  const double memo_bytes = (nodes - 1) * per_pair * 2 * (sizeof(typename Scheme::state) + 16);
  // (each thread keeps a graph and a memo of its own)
  const double threads = static_cast<double>(a.threads);
  const double mib = threads * (graph_bytes + memo_bytes) / (1024.0 * 1024.0);
  char text[200];
  if (routes > static_cast<double>(a.max_routes)) {
    std::snprintf(text, sizeof text, "%.3g routes (%.0f per pair); raise --max-routes to allow it",
                  routes, per_pair);
    throw bad_input{"--max-routes: the check would walk " + std::string(text)};
  }
  if (mib > static_cast<double>(a.max_memory_mib)) {
    std::snprintf(text, sizeof text,
                  "%.1f MiB (graph %.1f, memo %.1f, each of %zu threads); raise --max-memory "
                  "or lower --threads to allow it",
                  mib, graph_bytes / 1048576, memo_bytes / 1048576, a.threads);
    throw bad_input{"--max-memory: the check would need " + std::string(text)};
  }
}

template <class Scheme>
int check(const Scheme& scheme, const arguments& a, const std::string& description) {
  check_limits(scheme, a, interlock::traffic_classes * scheme.vcs_per_class());
  std::printf("scheme: %s, %u VCs per class%s\n", description.c_str(), scheme.vcs_per_class(),
              a.vcs != 0 ? (", limited to " + std::to_string(a.vcs)).c_str() : "");
  const auto report =
      interlock::verify::check_deadlock_freedom(scheme, checker_options(a, scheme.vcs_per_class()));
  return print_report(scheme.topology(), report, a, "");
}

// Anton 2's unified network: the mesh, skip, adapter and torus channels of
// every node in one graph.
int check_unified(const interlock::anton2_routing& scheme, const arguments& a) {
  const std::size_t n = a.radix.size();
  std::printf(
      "node: Anton 2's unified network, 16 mesh routers and 12 channel adapters per "
      "node; scheme vc_promotion across mesh and torus, orders %s, %u VCs per class\n",
      order_names(scheme.orders(), n).c_str(), scheme.vcs_per_class());
  const interlock::verify::unified_cdg_report r =
      interlock::verify::check_unified_deadlock_freedom(scheme, a.classes);
  std::printf("routes: %llu\n", static_cast<unsigned long long>(r.routes));
  std::printf("graph: %zu resources, %zu dependencies\n", r.vertices, r.edges);
  if (!r.routes_arrive) {
    std::printf("verdict: a route does not arrive: %s\n", r.route_problem.c_str());
    return 1;
  }
  if (!r.acyclic) {
    std::printf("verdict: cycle: deadlock possible\n");
    for (const std::string& x : r.cycle) std::printf("  %s\n", x.c_str());
    return 1;
  }
  std::printf("verdict: acyclic: deadlock free\n");
  return 0;
}

// The escape network's graph, and the adaptive hops' conditions.
int check_adaptive(const interlock::t3e_adaptive_routing& adaptive, const arguments& a) {
  const interlock::torus_topology& t = adaptive.topology();
  check_limits(adaptive, a, adaptive.vcs_per_channel());
  const auto flow = a.flow == "wormhole" ? interlock::verify::adaptive_flow_control::wormhole
                                         : interlock::verify::adaptive_flow_control::whole_packet;
  std::printf(
      "scheme: t3e_adaptive, %s tables, %s flow control, escape %u VCs per class + 1 "
      "adaptive VC\n",
      a.tables.c_str(), a.flow.c_str(), adaptive.vcs_per_class());
  const auto r = interlock::verify::check_adaptive_deadlock_freedom(
      adaptive, flow, checker_options(a, adaptive.vcs_per_class()));
  const int escape = print_report(t, r.escape, a, "escape ");
  std::printf(
      "adaptive: %zu adaptive resources; escape hop always offered: %s; adaptive hops "
      "profitable: %s\n",
      r.adaptive_resources, r.escape_always_offered ? "yes" : "no",
      r.adaptive_profitable && r.continues_as_fresh_route ? "yes" : "no");
  if (!r.problem.empty()) std::printf("adaptive: %s\n", r.problem.c_str());
  int status = escape != 0 || !r.problem.empty() ? 1 : 0;
  if (flow == interlock::verify::adaptive_flow_control::wormhole)
    status |= print_report(t, r.extended, a, "extended ");
  std::printf("verdict: %s\n", r.deadlock_free() ? "deadlock free" : "deadlock possible");
  return status;
}

int run(const arguments& a) {
  const interlock::torus_topology t(a.radix, a.wrap, a.slices);
  const std::size_t n = a.radix.size();
  print_network(a);
  cli::scheme_spec spec;
  spec.scheme = a.scheme;
  spec.node = a.node;
  spec.orders = a.orders;
  spec.datelines = !a.no_datelines;
  spec.tables = a.tables;
  spec.tables_every_route = a.other_way || a.final_hop;
  spec.allowed.other_way = a.other_way;
  spec.allowed.initial_hops = a.initial_hops;
  spec.allowed.final_hop = a.final_hop;
  spec.allowed.initial_onto_dateline = a.initial_onto_dateline;
  spec.non_minimal = a.non_minimal;
  spec.minus_dateline = a.minus_dateline;
  return cli::with_scheme(t, spec, [&](const auto& scheme) {
    using S = std::decay_t<decltype(scheme)>;
    if constexpr (std::is_same<S, interlock::anton2_routing>::value) {
      return check_unified(scheme, a);
    } else if constexpr (std::is_same<S, interlock::t3e_adaptive_routing>::value) {
      return check_adaptive(scheme, a);
    } else if constexpr (std::is_same<S, interlock::dimension_order_routing>::value) {
      return check(scheme, a,
                   "dor, orders " + order_names(scheme.orders(), n) +
                       (a.no_datelines ? ", no datelines" : ""));
    } else if constexpr (std::is_same<S, interlock::vc_promotion_routing>::value) {
      std::string description = a.scheme + ", orders " + order_names(scheme.orders(), n);
      if (a.non_minimal) description += ", non-minimal routes";
      if (a.minus_dateline != 0)
        description += ", - dateline before ordinate " + std::to_string(a.minus_dateline);
      return check(scheme, a, description);
    } else {
      std::string description = "t3e, " + a.tables + " tables";
      if (a.other_way) description += ", other-way tags";
      if (a.initial_hops) description += ", initial hops";
      if (a.initial_onto_dateline) description += " (onto datelines too)";
      if (a.final_hop) description += ", final hop";
      return check(scheme, a, description);
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("deadlock_check", help.c_str(), "lower the network or --max-memory", argc,
                       argv, [&] { return run(parse(argc, argv)); });
}
