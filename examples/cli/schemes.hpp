// SPDX-License-Identifier: BSL-1.0
// The routing scheme a torus tool's flags name, built once for every tool
// that takes them (netsim, fairness_check, deadlock_check):
//   with_scheme(torus, spec, f) builds the scheme `spec` names and returns
//   f(scheme), the scheme's type known to f at compile time:
//     dor             dimension_order_routing (--orders, --no-datelines,
//                     --dateline-rule)
//     vc_promotion,   vc_promotion_routing (--orders, default all; the
//     per_dimension   options' non-minimal routes and minus dateline)
//     t3e             direction_order_routing with the VC tables of
//                     --tables and the allowed routes
//     t3e_adaptive    t3e_adaptive_routing over that escape network
//     node anton2     anton2_routing: VC promotion across Anton 2's node
//                     (--node anton2, any scheme but dor), its links
// Names outside the list throw bad_input naming --scheme; the tools check
// the names where the flags enter, so this is a last guard.
#ifndef INTERLOCK_EXAMPLES_CLI_SCHEMES_HPP
#define INTERLOCK_EXAMPLES_CLI_SCHEMES_HPP

#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/topology/anton2_node.hpp>
#include <interlock/topology/torus.hpp>

#include <string>

#include "routing_flags.hpp"
#include "values.hpp"

namespace cli {

/// What --scheme and the flags that shape a scheme say.
struct scheme_spec {
  std::string scheme = "dor";
  std::string node = "router";  // router, or anton2: Anton 2's unified network
  std::string orders;           // --orders: "all", a list, or "" (the scheme's default)
  bool datelines = true;        // dor: --no-datelines turns them off
  interlock::dateline_rule dateline_rule = interlock::dateline_rule::switch_at_wrap;
  std::string tables = "toc";         // t3e, t3e_adaptive: --tables
  bool tables_every_route = false;    // optimize the tables for every allowed route
  interlock::allowed_routes allowed;  // t3e's other-way tags, initial and final hops
  bool non_minimal = false;           // vc_promotion, per_dimension
  std::size_t minus_dateline = 0;
  interlock::anton2_links links;  // node anton2
};

template <class F>
auto with_scheme(const interlock::torus_topology& t, const scheme_spec& s, F&& f) {
  const std::size_t n = t.dimensions();
  if (s.scheme == "dor") {
    const interlock::dimension_order_routing dor(t, parse_orders(s.orders, n, false),
                                                 {s.datelines, s.dateline_rule});
    return f(dor);
  }
  if (s.node == "anton2") {
    const interlock::anton2_topology node(t, s.links);
    const interlock::anton2_routing scheme(node, parse_orders(s.orders, n, true));
    return f(scheme);
  }
  if (s.scheme == "vc_promotion" || s.scheme == "per_dimension") {
    interlock::vc_promotion_options options;
    options.scheme = s.scheme == "vc_promotion" ? interlock::vc_scheme::promotion
                                                : interlock::vc_scheme::per_dimension;
    options.non_minimal_routes = s.non_minimal;
    options.minus_dateline = s.minus_dateline;
    const interlock::vc_promotion_routing scheme(t, parse_orders(s.orders, n, true), options);
    return f(scheme);
  }
  const std::vector<std::size_t>& radix = t.radices();
  if (s.scheme == "t3e") {
    const interlock::direction_order_routing t3e(
        t, {}, vc_tables(radix, s.tables, s.tables_every_route), s.allowed);
    return f(t3e);
  }
  if (s.scheme == "t3e_adaptive") {
    const interlock::t3e_adaptive_routing adaptive(
        t, {}, vc_tables(radix, s.tables, s.tables_every_route));
    return f(adaptive);
  }
  throw bad_input{"--scheme: '" + s.scheme +
                  "'; allowed: dor, t3e, t3e_adaptive, vc_promotion, per_dimension"};
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_SCHEMES_HPP
