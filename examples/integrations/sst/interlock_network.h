// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_network.h: one configuration's network, shared by the
// routers of a process: interlock.torus's topology and routing scheme, deadlock-checked when
// built, and the loads behind its inverse weights.
//
// network_from(params) reads the parameters that shape the network:
//   shape       the torus, "4x4x4" (1 to 8 dimensions, each 2..65535)
//   wrap        per dimension 1 (a ring, default) or 0 (a line), as 1x0x1 or one value
//   local_ports 1 (the only value supported); width 1 in every dimension or absent
//   routing     dimension_order (default), vc_promotion or direction_order
//   dateline    dimension_order's: seastar (default), booksim2 or none
//   orders      xyz (default) or all
//   vc_tables   direction_order's: toc (default) or optimized
//   t3e_routes  direction_order's: minimal (default) or a comma list of
//               other_way, initial_hops, final_hop
// The first router of a process to ask for a configuration builds its
// network and checks its channel dependency graph
// (verify/channel_dependency_graph.hpp); the others share it.
//
// Contract: network_from throws bad_parameter for a bad value and
// deadlock_found (the configuration and the cycle, printed) for routes that
// can deadlock; the caller stops the simulation with them.
#ifndef INTERLOCK_SST_INTERLOCK_NETWORK_H
#define INTERLOCK_SST_INTERLOCK_NETWORK_H

#include <sst/core/params.h>

#include "interlock_patterns.h"
#include "interlock_sst.h"
#include "interlock_weights.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include <interlock/core/config_error.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/routing/vc_table.hpp>
#include <interlock/topology/torus.hpp>
#include <interlock/verify/cdg_report.hpp>
#include <interlock/verify/channel_dependency_graph.hpp>

namespace interlock_sst {

/// Routes that can deadlock: the configuration and a cycle of channel dependencies.
struct deadlock_found {
  std::string key, witness;
};

/// One configuration's network, shared by the routers of a process.
struct network {
  std::unique_ptr<interlock::torus_topology> topology;
  std::unique_ptr<scheme_variant> scheme;
  weight_loads weights;  // behind iw_pattern's inverse weights
};

namespace detail {

/// The process's network for `key`, made by `build` the first time.
template <class Build>
std::shared_ptr<network> network_for(const std::string& key, Build&& build) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<network>> networks;
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<network>& n = networks[key];
  if (!n) {
    auto made = std::make_shared<network>();
    build(*made);
    n = made;
  }
  return n;
}

}  // namespace detail

/// The network these parameters configure, built once per process.
inline std::shared_ptr<network> network_from(SST::Params& params) {
  const auto refuse_value = [](const std::string& name, const std::string& value,
                               const std::string& allowed) {
    throw bad_parameter{name, value, allowed};
  };
  const std::string shape = params.find<std::string>("shape", "");
  std::vector<std::size_t> radix;
  try {
    radix = shape_radix(shape);
  } catch (const std::invalid_argument& e) {
    refuse_value("shape", shape, e.what());
  }
  const std::string wrap_text = params.find<std::string>("wrap", "1");
  std::vector<bool> wrap;
  for (const std::string& w : split_list(wrap_text, 'x')) {
    if (w != "0" && w != "1") refuse_value("wrap", wrap_text, "0 or 1 per dimension, as 1x0x1");
    wrap.push_back(w == "1");
  }
  if (wrap.size() == 1) wrap.assign(radix.size(), wrap[0]);
  if (wrap.size() != radix.size())
    refuse_value("wrap", wrap_text,
                 "one value or " + std::to_string(radix.size()) + " (one per dimension)");
  const int local = params.find<int>("local_ports", 1);
  if (local != 1) refuse_value("local_ports", std::to_string(local), "1");
  const std::string width = params.find<std::string>("width", "");
  if (!width.empty() && width.find_first_not_of("1x") != std::string::npos)
    refuse_value("width", width, "1 in every dimension");
  const std::string routing = params.find<std::string>("routing", "dimension_order");
  if (routing != "dimension_order" && routing != "vc_promotion" && routing != "direction_order")
    refuse_value("routing", routing, "dimension_order, vc_promotion or direction_order");
  const std::string dateline = params.find<std::string>("dateline", "seastar");
  if (dateline != "seastar" && dateline != "booksim2" && dateline != "none")
    refuse_value("dateline", dateline, "seastar, booksim2 or none");
  const std::string orders = params.find<std::string>("orders", "xyz");
  if (orders != "xyz" && orders != "all") refuse_value("orders", orders, "xyz or all");
  const std::string tables = params.find<std::string>("vc_tables", "toc");
  if (tables != "toc" && tables != "optimized")
    refuse_value("vc_tables", tables, "toc or optimized");
  const std::string t3e_routes = params.find<std::string>("t3e_routes", "minimal");
  interlock::allowed_routes allowed;
  if (t3e_routes != "minimal") {
    for (const std::string& r : split_list(t3e_routes, ',')) {
      if (r == "other_way") {
        allowed.other_way = true;
      } else if (r == "initial_hops") {
        allowed.initial_hops = true;
      } else if (r == "final_hop") {
        allowed.final_hop = true;
      } else {
        refuse_value("t3e_routes", t3e_routes,
                     "minimal, or a comma list of other_way, initial_hops, final_hop");
      }
    }
  }

  const std::string key = shape + "/" + wrap_text + "/" + routing + "/" +
                          (routing == "dimension_order" ? dateline + "/" + orders
                           : routing == "vc_promotion"  ? orders
                                                        : tables + "/" + t3e_routes);
  return detail::network_for(key, [&](network& n) {
    n.topology = std::make_unique<interlock::torus_topology>(radix, wrap);
    std::vector<interlock::dimension_sequence> sequences;
    if (orders == "all") sequences = interlock::all_dimension_orders(radix.size());
    if (routing == "dimension_order") {
      interlock::dimension_order_options options;
      if (dateline == "booksim2") options.rule = interlock::dateline_rule::booksim2;
      if (dateline == "none") options.datelines = false;
      n.scheme = std::make_unique<scheme_variant>(std::in_place_type<dor_scheme>, *n.topology,
                                                  sequences, options);
    } else if (routing == "vc_promotion") {
      n.scheme = std::make_unique<scheme_variant>(std::in_place_type<promotion_scheme>, *n.topology,
                                                  sequences);
    } else {
      std::vector<interlock::ring_vc_assignment> vc_tables;
      if (tables == "optimized") {
        interlock::vc_optimizer_options o;
        o.routes = allowed.other_way || allowed.final_hop ? interlock::vc_routes::every_route
                                                          : interlock::vc_routes::minimal;
        for (const std::size_t k : radix)
          vc_tables.push_back(k <= 64 ? interlock::optimize_vc_assignment(k, 8, o)
                                      : interlock::ring_vc_assignment(64));
      }
      try {
        n.scheme = std::make_unique<scheme_variant>(std::in_place_type<t3e_scheme>, *n.topology,
                                                    std::vector<interlock::direction>{}, vc_tables,
                                                    allowed);
      } catch (const interlock::config_error& e) {
        refuse_value("vc_tables", tables,
                     std::string("tables the T3E's routes accept: ") + e.what());
      }
    }
    const auto report = std::visit(
        [](const auto& s) { return interlock::verify::check_deadlock_freedom(s); }, *n.scheme);
    if (!report.deadlock_free())
      throw deadlock_found{key, interlock::verify::format_cycle(*n.topology, report)};
  });
}

}  // namespace interlock_sst

#endif  // INTERLOCK_SST_INTERLOCK_NETWORK_H
