// SPDX-License-Identifier: BSL-1.0
// The routing flags every tool of a torus shares (deadlock_check, netsim):
//   - parse_orders(): --orders, "all" or a comma list of dimension orders
//     (xyz, zyx, ... or 012, 210, ...), each dimension once;
//   - vc_tables(): --tables, the T3E's VC tables, "toc" (the scheme's own)
//     or "optimized" (optimize_vc_assignment per ring, 8 VCs).
// Both throw bad_input naming the flag for anything they refuse.
#ifndef INTERLOCK_EXAMPLES_CLI_ROUTING_FLAGS_HPP
#define INTERLOCK_EXAMPLES_CLI_ROUTING_FLAGS_HPP

#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/vc_table.hpp>

#include "cli.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace cli {

/// The T3E's VC tables: "toc" (the scheme's own, empty here) or "optimized"
/// (optimize_vc_assignment per ring, 8 VCs; rings above 64 nodes keep 64).
inline std::vector<interlock::ring_vc_assignment> vc_tables(const std::vector<std::size_t>& radix,
                                                            const std::string& tables,
                                                            bool every_route) {
  std::vector<interlock::ring_vc_assignment> result;
  if (tables == "toc") return result;
  interlock::vc_optimizer_options options;
  options.routes = every_route ? interlock::vc_routes::every_route : interlock::vc_routes::minimal;
  for (const std::size_t k : radix)
    result.push_back(k <= 64 ? interlock::optimize_vc_assignment(k, 8, options)
                             : interlock::ring_vc_assignment(64));
  return result;
}

// The orders of --orders: "all", or a comma list such as xyz,zyx or 012,210.
inline std::vector<interlock::dimension_sequence> parse_orders(const std::string& text,
                                                               std::size_t n, bool all_by_default) {
  if (text == "all" || (text.empty() && all_by_default)) return interlock::all_dimension_orders(n);
  if (text.empty()) return {};
  std::vector<interlock::dimension_sequence> orders;
  for (const std::string& part : cli::split(text)) {
    interlock::dimension_sequence order;
    std::vector<bool> seen(n, false);
    bool ok = part.size() == n;
    for (const char c : part) {
      unsigned d = 99;
      if (c >= '0' && c <= '7') d = static_cast<unsigned>(c - '0');
      if (n <= 3 && c >= 'x' && c <= 'z') d = static_cast<unsigned>(c - 'x');
      ok = ok && d < n && !seen[d];
      if (ok) seen[d] = true;
      order.push_back(d);
    }
    if (!ok)
      throw bad_input{"--orders: '" + part + "' is not an order of the " + std::to_string(n) +
                      " dimensions (each once: xyz, zyx, ... or 012, 210, ...)"};
    orders.push_back(order);
  }
  return orders;
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_ROUTING_FLAGS_HPP
