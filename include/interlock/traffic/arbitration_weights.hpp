// SPDX-License-Identifier: BSL-1.0
// interlock/traffic/arbitration_weights.hpp: a network's arbitration points
// to their inverse-weight tables ([Towles14] Section 3.1), from the loads
// that router_arbiter_loads and router_input_loads compute (loads.hpp: per
// arbitration point, per input, per pattern label). Each point's inputs are
// weighted by their loads, one table per distinct set of loads
// (inverse_weight_tables shares equal tables, so a torus of identical
// routers under a symmetric pattern holds a handful).
//   - arbitration_table(tables, point, input_of): one point's table; the
//     arbiter's input i is the loads' input input_of(i) (same_numbering by
//     default; a simulator that numbers a router's inputs by the port of the
//     link at the receiving router, as SST's Merlin does, passes the
//     topology's peer_port). An input the loads do not have carries no load.
//   - arbitration_tables(tables, loads, input_of): every point's table, in the
//     loads' order (router_arbiter(topology, router, port) indexes them).
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

#include "interlock/arbiters/inverse_weighted.hpp"
#include "interlock/traffic/loads.hpp"

namespace interlock {

/// The arbiter numbers its inputs as the loads do.
struct same_numbering {
  constexpr std::size_t operator()(std::size_t input) const noexcept { return input; }
};

/// The table of one arbitration point, whose loads are point[input][label]:
/// the arbiter's input i weighted by point[input_of(i)][n] for each of the
/// table's N labels.
template <std::size_t K, std::size_t N, unsigned M, class InputOf = same_numbering>
std::shared_ptr<const typename inverse_weight_tables<K, N, M>::table> arbitration_table(
    inverse_weight_tables<K, N, M>& tables, const std::vector<std::vector<double>>& point,
    InputOf input_of = {}) {
  return tables.from_loads(point.size(), [&](std::size_t i, std::size_t n) {
    const std::size_t j = input_of(i);
    return j < point.size() && n < point[j].size() ? point[j][n] : 0.0;
  });
}

/// The table of every arbitration point of `loads`, in their order.
template <std::size_t K, std::size_t N, unsigned M, class InputOf = same_numbering>
std::vector<std::shared_ptr<const typename inverse_weight_tables<K, N, M>::table>>
arbitration_tables(inverse_weight_tables<K, N, M>& tables, const arbiter_loads& loads,
                   InputOf input_of = {}) {
  std::vector<std::shared_ptr<const typename inverse_weight_tables<K, N, M>::table>> out;
  out.reserve(loads.size());
  for (const auto& point : loads) out.push_back(arbitration_table(tables, point, input_of));
  return out;
}

}  // namespace interlock

#endif  // INTERLOCK_TRAFFIC_ARBITRATION_WEIGHTS_HPP
