// SPDX-License-Identifier: BSL-1.0
// netsim's runs for the scheme and node the arguments name (netsim and
// fairness_check share it).
#include <cstdio>
#include <string>

#include "netsim_args.hpp"
#include "netsim_run.hpp"

namespace netsim_tool {

namespace {

std::vector<interlock::ring_vc_assignment> t3e_tables(const arguments& a) {
  return cli::vc_tables(a.radix, a.tables, false);
}

}  // namespace

int run_network(const arguments& a) {
  const interlock::torus_topology t(a.radix, a.wrap, a.slices);
  if (t.node_count() > (1u << 20))
    throw bad_input{"--radix: " + std::to_string(t.node_count()) + " nodes; at most 1048576"};
  const std::size_t n = a.radix.size();
  if (!a.quiet) {
    std::printf("network: %zu nodes,", static_cast<std::size_t>(t.node_count()));
    for (std::size_t d = 0; d < n; ++d)
      std::printf("%s%zu%s", d ? " x " : " ", a.radix[d], a.wrap[d] ? "" : " (mesh)");
    std::printf(", %zu slice%s; scheme %s; arbiter %s; traffic %s\n", a.slices,
                a.slices > 1 ? "s" : "", a.scheme.c_str(), a.arbiter.c_str(), a.traffic.c_str());
  }
  if (a.scheme == "dor") {
    const interlock::dimension_order_routing dor(
        t, cli::parse_orders(a.orders, n, false),
        {!a.no_datelines, a.dateline_rule == "booksim2"
                              ? interlock::dateline_rule::booksim2
                              : interlock::dateline_rule::switch_at_wrap});
    return run_scheme(a, dor);
  }
  if (a.node == "anton2") {
    // Anton 2's unified network: every node a 4x4 mesh of routers with
    // channel adapters, routed across mesh and torus with VC promotion.
    const interlock::anton2_topology node(t, a.links);
    const interlock::anton2_routing scheme(node, cli::parse_orders(a.orders, n, true));
    if (!a.quiet)
      std::printf(
          "node: Anton 2's unified network, %zu mesh routers and %zu channel adapters per "
          "node, one core per router; torus links at %.3f flits per cycle\n",
          interlock::anton2_topology::mesh_routers, interlock::anton2_topology::channels,
          a.links.torus_bandwidth);
    return run_scheme(a, scheme);
  }
  if (a.scheme == "vc_promotion" || a.scheme == "per_dimension") {
    interlock::vc_promotion_options options;
    options.scheme = a.scheme == "vc_promotion" ? interlock::vc_scheme::promotion
                                                : interlock::vc_scheme::per_dimension;
    const interlock::vc_promotion_routing scheme(t, cli::parse_orders(a.orders, n, true), options);
    return run_scheme(a, scheme);
  }
  if (a.scheme == "t3e") {
    const interlock::direction_order_routing t3e(t, {}, t3e_tables(a));
    return run_scheme(a, t3e);
  }
  const interlock::t3e_adaptive_routing adaptive(t, {}, t3e_tables(a));
  return run_scheme(a, adaptive);
}

}  // namespace netsim_tool
