// SPDX-License-Identifier: BSL-1.0
// netsim's runs for the scheme and node the arguments name (netsim and
// fairness_check share it).
#include <cstdio>
#include <string>

#include "netsim_args.hpp"
#include "netsim_run.hpp"
#include "schemes.hpp"

namespace netsim_tool {

int run_network(const arguments& a) {
  const interlock::torus_topology t(a.radix, a.wrap, a.slices);
  if (t.node_count() > (1u << 20))
    throw bad_input{"--radix: " + std::to_string(t.node_count()) + " nodes; at most 1048576"};
  const std::size_t n = a.radix.size();
  if (!a.quiet) {
    std::printf("network: %zu nodes,", static_cast<std::size_t>(t.node_count()));
    for (std::size_t d = 0; d < n; ++d)
      std::printf("%s%zu%s", d ? " x " : " ", a.radix[d], a.wrap[d] ? "" : " (mesh)");
    std::printf(", %zu slice%s; scheme %s; arbiter %s; %s %s\n", a.slices, a.slices > 1 ? "s" : "",
                a.scheme.c_str(), a.arbiter.c_str(), a.trace.on() ? "trace" : "traffic",
                a.trace.on() ? a.trace.path.c_str() : a.traffic.c_str());
  }
  if (a.node == "anton2" && a.scheme != "dor" && !a.quiet)
    std::printf(
        "node: Anton 2's unified network, %zu mesh routers and %zu channel adapters per "
        "node, one core per router; torus links at %.3f flits per cycle\n",
        interlock::anton2_topology::mesh_routers, interlock::anton2_topology::channels,
        a.links.torus_bandwidth);
  cli::scheme_spec spec;
  spec.scheme = a.scheme;
  spec.node = a.node;
  spec.orders = a.orders;
  spec.datelines = !a.no_datelines;
  spec.dateline_rule = a.dateline_rule == "booksim2" ? interlock::dateline_rule::booksim2
                                                     : interlock::dateline_rule::switch_at_wrap;
  spec.tables = a.tables;
  spec.links = a.links;
  return cli::with_scheme(t, spec, [&](const auto& scheme) { return run_scheme(a, scheme); });
}

}  // namespace netsim_tool
