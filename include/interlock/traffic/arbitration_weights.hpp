// SPDX-License-Identifier: BSL-1.0
// interlock/traffic/arbitration_weights.hpp: a network's arbitration points
// to their inverse-weight tables ([Towles14] Section 3.1), from the loads
// that router_arbiter_loads and router_input_loads compute (loads.hpp: per
// arbitration point, per input, per pattern label). Each point's inputs are
// weighted by their loads, one table per distinct set of loads
// (inverse_weight_tables shares equal tables, so a torus of identical
// routers under a symmetric pattern holds a handful). `tables` is either
// factory of inverse_weight_tables.hpp: inverse_weight_tables<K, N, M> (the
// hardware model, with its headroom) or exact_weight_tables<K, N> (Eq. 3).
//   - arbitration_table(tables, point, input_of): one point's table; the
//     arbiter's input i is the loads' input input_of(i) (same_numbering by
//     default; a simulator that numbers a router's inputs by the port of the
//     link at the receiving router, as SST's Merlin does, passes the
//     topology's peer_port). An input the loads do not have carries no load.
//   - arbitration_tables(tables, loads, input_of): every point's table, in the
//     loads' order (router_arbiter(topology, router, port) indexes them).
//   - stack_labels(parts), stack_unified_labels(parts): the loads of several
//     patterns, each computed alone (label 0), as one set whose label n is
//     part n's, for arbiters of N labels (packets labelled by their pattern).
//   - unified_arbitration_tables(tables, loads): Anton 2's unified network
//     (anton2_loads.hpp), both stages of every router and channel adapter:
//     output(r, o), its inputs the ports, and input(r, q), its inputs the VCs.
//
//   const auto loads = interlock::router_arbiter_loads(dor, interlock::traffic_class::request,
//                                                      interlock::traffic::uniform_random{});
//   interlock::inverse_weight_tables<64, 1, 8> tables;
//   const auto weights = interlock::arbitration_tables(tables, loads);
//   interlock::inverse_weighted_arbiter<64, 1, 8> arb(weights[interlock::router_arbiter(t, r, o)]);
#ifndef INTERLOCK_TRAFFIC_ARBITRATION_WEIGHTS_HPP
#define INTERLOCK_TRAFFIC_ARBITRATION_WEIGHTS_HPP

#include <cstddef>
#include <memory>
#include <vector>

#include "interlock/arbiters/inverse_weight_tables.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/traffic/anton2_loads.hpp"
#include "interlock/traffic/loads.hpp"

namespace interlock {

/// The arbiter numbers its inputs as the loads do.
struct same_numbering {
  constexpr std::size_t operator()(std::size_t input) const noexcept { return input; }
};

/// The table of one arbitration point, whose loads are point[input][label]:
/// the arbiter's input i weighted by point[input_of(i)][n] for each of the
/// table's N labels.
template <class Tables, class InputOf = same_numbering>
std::shared_ptr<const typename Tables::table> arbitration_table(
    Tables& tables, const std::vector<std::vector<double>>& point, InputOf input_of = {}) {
  return tables.from_loads(point.size(), [&](std::size_t i, std::size_t n) {
    const std::size_t j = input_of(i);
    return j < point.size() && n < point[j].size() ? point[j][n] : 0.0;
  });
}

/// The table of every arbitration point of `loads`, in their order.
template <class Tables, class InputOf = same_numbering>
std::vector<std::shared_ptr<const typename Tables::table>> arbitration_tables(
    Tables& tables, const arbiter_loads& loads, InputOf input_of = {}) {
  std::vector<std::shared_ptr<const typename Tables::table>> out;
  out.reserve(loads.size());
  for (const auto& point : loads) out.push_back(arbitration_table(tables, point, input_of));
  return out;
}

/// Part n's label-0 loads as label n of one set (every part of the same
/// shape: the same arbiters and inputs).
inline arbiter_loads stack_labels(const std::vector<const arbiter_loads*>& parts) {
  if (parts.empty()) throw config_error("stack_labels", "parts", "none", "at least one");
  arbiter_loads l = *parts[0];
  for (std::size_t a = 0; a < l.size(); ++a)
    for (std::size_t i = 0; i < l[a].size(); ++i) {
      l[a][i].clear();
      for (const arbiter_loads* p : parts) {
        if (p->size() != l.size() || (*p)[a].size() != l[a].size())
          throw config_error("stack_labels", "parts", "of different shapes",
                             "the same arbiters and inputs");
        l[a][i].push_back((*p)[a][i].empty() ? 0.0 : (*p)[a][i][0]);
      }
    }
  return l;
}

/// Anton 2's unified network: part n's label-0 loads as label n.
inline unified_arbiter_loads stack_unified_labels(
    const std::vector<const unified_arbiter_loads*>& parts) {
  if (parts.empty()) throw config_error("stack_unified_labels", "parts", "none", "at least one");
  for (const unified_arbiter_loads* p : parts)
    if (p->routers != parts[0]->routers || p->ports != parts[0]->ports || p->vcs != parts[0]->vcs ||
        p->patterns == 0)
      throw config_error("stack_unified_labels", "parts", "of different networks",
                         "one network's loads");
  unified_arbiter_loads u = *parts[0];
  const std::size_t np = parts.size();
  u.patterns = np;
  u.outputs.assign(parts[0]->outputs.size() / parts[0]->patterns * np, 0.0);
  u.inputs.assign(parts[0]->inputs.size() / parts[0]->patterns * np, 0.0);
  for (std::size_t k = 0; k < np; ++k) {
    const unified_arbiter_loads& p = *parts[k];
    for (std::size_t i = 0; i * p.patterns < p.outputs.size(); ++i)
      u.outputs[i * np + k] = p.outputs[i * p.patterns];
    for (std::size_t i = 0; i * p.patterns < p.inputs.size(); ++i)
      u.inputs[i * np + k] = p.inputs[i * p.patterns];
  }
  return u;
}

/// The tables of both stages of every router of Anton 2's unified network.
template <class Table>
struct unified_table_set {
  using table_ptr = std::shared_ptr<const Table>;
  std::size_t ports = 0;
  std::vector<table_ptr> outputs, inputs;  // [r * ports + port]

  /// Output port o's arbiter at router r: its inputs the input ports.
  const table_ptr& output(node_id r, std::size_t o) const {
    return outputs[static_cast<std::size_t>(r) * ports + o];
  }
  /// Input port q's arbiter at router r: its inputs the VCs.
  const table_ptr& input(node_id r, std::size_t q) const {
    return inputs[static_cast<std::size_t>(r) * ports + q];
  }
};
/// The hardware model's.
template <std::size_t K, std::size_t N, unsigned M>
using unified_tables = unified_table_set<inverse_weight_table<K, N, M>>;

/// Every router's tables from the unified network's loads, labels 0..N-1
/// (a label the loads lack carries no load).
template <class Tables>
unified_table_set<typename Tables::table> unified_arbitration_tables(
    Tables& tables, const unified_arbiter_loads& l) {
  unified_table_set<typename Tables::table> out;
  out.ports = l.ports;
  out.outputs.resize(l.routers * l.ports);
  out.inputs.resize(l.routers * l.ports);
  for (std::size_t r = 0; r < l.routers; ++r)
    for (std::size_t p = 0; p < l.ports; ++p) {
      const auto router = static_cast<node_id>(r);
      out.outputs[r * l.ports + p] = tables.from_loads(l.ports, [&](std::size_t i, std::size_t n) {
        return n < l.patterns ? l.output(router, p, i, n) : 0.0;
      });
      out.inputs[r * l.ports + p] = tables.from_loads(l.vcs, [&](std::size_t v, std::size_t n) {
        return n < l.patterns ? l.input(router, p, v, n) : 0.0;
      });
    }
  return out;
}

}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_ARBITRATION_WEIGHTS_HPP
