// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_weights.h: a router's inverse-weight tables from
// interlock's loads, for interlock.xbar_separable's inverse-weighted stages
// (interlock.torus's iw_pattern).
//
// [Towles14] Section 3.1: software programs every arbiter from its inputs'
// loads under the traffic it expects. iw_pattern names that traffic: one
// pattern (every packet labelled 0), or two, one per VN: pattern n's
// packets travel on VN n, are labelled n, and label n's weights are pattern
// n's loads, each pattern's computed alone (Eq. 3-5: the arbiter then serves
// any blend of the two in proportion to its loads).
//
//   output stage  output port o's inputs are the input ports; input port i
//                 weighted by the load it carries to o (router_arbiter_loads,
//                 through the topology's peer_port: Merlin numbers an input
//                 by the link's port at this router, interlock by its peer).
//   input stage   input port q's inputs are its VCs; VC v of VN n weighted by
//                 the load the scheme's VC v mod V carries into q
//                 (router_input_loads); with two patterns, under label n only
//                 (VN n carries pattern n alone).
//
// The loads of each pattern are computed once per process and
// configuration (weight_loads, shared by its routers); equal tables are
// shared (inverse_weight_tables).
//
// Contract: iw_patterns and program_weights throw std::invalid_argument, its
// what() the values allowed for iw_pattern; the caller names the parameter.
#ifndef INTERLOCK_SST_INTERLOCK_WEIGHTS_H
#define INTERLOCK_SST_INTERLOCK_WEIGHTS_H

#include "interlock_patterns.h"
#include "interlock_sst.h"

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <interlock/arbiters/inverse_weight_tables.hpp>
#include <interlock/topology/torus.hpp>
#include <interlock/traffic/loads.hpp>

namespace interlock_sst {

using scheme_variant = std::variant<dor_scheme, promotion_scheme, t3e_scheme>;

/// The loads behind one configuration's inverse weights, by pattern, and
/// its tables: shared by the configuration's routers in a process.
struct weight_loads {
  std::mutex mutex;                                        // guards what follows
  std::map<std::string, interlock::arbiter_loads> output;  // per input port, by pattern
  std::map<std::string, interlock::arbiter_loads> input;   // per VC, by pattern
  interlock::inverse_weight_tables<64, 1, 8> tables;
  interlock::inverse_weight_tables<64, 2, 8> labelled_tables;
};

/// The router whose stages are programmed.
struct weight_router {
  const interlock::torus_topology& topology;
  const scheme_variant& scheme;
  interlock::node_id router;
  std::size_t ports, vns, vcs_per_vn;
};

/// iw_pattern's patterns: one, or one per VN (two, on a router of two VNs).
inline std::vector<std::string> iw_patterns(const std::string& text, const weight_router& r) {
  const std::vector<std::string> patterns = split_list(text, ',');
  if (patterns.size() > 2 || (patterns.size() == 2 && r.vns != 2))
    throw std::invalid_argument(
        "one pattern, or two (one per VN, a packet labelled with its VN) on routers of 2 VNs; "
        "these routers have " +
        std::to_string(r.vns) + " VN" + (r.vns == 1 ? "" : "s"));
  for (const std::string& p : patterns)
    with_pattern(p, r.topology, [](const auto&) { return 0; });  // throws for a bad one
  return patterns;
}

namespace detail {

/// Pattern `name`'s loads (per input port, or per VC with `per_vc`), computed once.
inline const interlock::arbiter_loads& pattern_loads(const std::string& name, bool per_vc,
                                                     const weight_router& r, weight_loads& w) {
  auto& cache = per_vc ? w.input : w.output;
  auto it = cache.find(name);
  if (it == cache.end()) {
    const auto c = interlock::traffic_class::request;
    interlock::arbiter_loads loads = with_pattern(name, r.topology, [&](const auto& pattern) {
      return std::visit(
          [&](const auto& s) {
            return per_vc ? interlock::router_input_loads(s, c, pattern)
                          : interlock::router_arbiter_loads(s, c, pattern);
          },
          r.scheme);
    });
    it = cache.emplace(name, std::move(loads)).first;
  }
  return it->second;
}

/// One table per port of the router: the output stage's (per_vc false) or
/// the input stage's, from the patterns' loads, one label per pattern.
template <class Tables>
auto stage_tables(const std::vector<std::string>& patterns, bool per_vc, const weight_router& r,
                  weight_loads& w, Tables& tables) {
  std::vector<const interlock::arbiter_loads*> parts;
  for (const std::string& p : patterns) parts.push_back(&pattern_loads(p, per_vc, r, w));
  const std::size_t labels = parts.size();
  std::vector<std::shared_ptr<const typename Tables::table>> out;
  for (std::size_t port = 0; port < r.ports; ++port) {
    if (port >= r.topology.ports()) {  // a port Merlin has beyond the topology's: never used
      out.push_back(tables.from_loads(0, [](std::size_t, std::size_t) { return 0.0; }));
      continue;
    }
    const std::size_t a = interlock::router_arbiter(r.topology, r.router, port);
    if (per_vc) {
      out.push_back(tables.from_loads(r.vns * r.vcs_per_vn, [&](std::size_t v, std::size_t n) {
        if (n >= labels || (labels > 1 && v / r.vcs_per_vn != n)) return 0.0;
        const auto& vcs = (*parts[n])[a];
        const std::size_t scheme_vc = v % r.vcs_per_vn;
        return scheme_vc < vcs.size() && !vcs[scheme_vc].empty() ? vcs[scheme_vc][0] : 0.0;
      }));
    } else {
      out.push_back(tables.from_loads((*parts[0])[a].size(), [&](std::size_t i, std::size_t n) {
        if (n >= labels) return 0.0;
        const auto& inputs = (*parts[n])[a];
        const std::size_t peer = r.topology.peer_port(i);
        return peer < inputs.size() && !inputs[peer].empty() ? inputs[peer][0] : 0.0;
      }));
    }
  }
  return out;
}

}  // namespace detail

/// Programs x's inverse-weighted stages (those x.input and x.output name)
/// from `patterns` (iw_patterns): one pattern fills weights and
/// input_weights, two labelled_weights and labelled_input_weights.
inline void program_weights(separable_config& x, const std::vector<std::string>& patterns,
                            const weight_router& r, weight_loads& w) {
  using stage = separable_config::stage;
  std::lock_guard<std::mutex> lock(w.mutex);
  const bool labelled = patterns.size() == 2;
  if (x.output == stage::inverse_weighted) {
    if (labelled)
      x.labelled_weights = detail::stage_tables(patterns, false, r, w, w.labelled_tables);
    else
      x.weights = detail::stage_tables(patterns, false, r, w, w.tables);
  }
  if (x.input == stage::inverse_weighted) {
    if (labelled)
      x.labelled_input_weights = detail::stage_tables(patterns, true, r, w, w.labelled_tables);
    else
      x.input_weights = detail::stage_tables(patterns, true, r, w, w.tables);
  }
}

}  // namespace interlock_sst

#endif  // INTERLOCK_SST_INTERLOCK_WEIGHTS_H
