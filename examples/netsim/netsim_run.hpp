// SPDX-License-Identifier: BSL-1.0
// netsim's runs: the policies (netsim_traffic.hpp gives the traffic) and the
// model, reported by netsim_points.hpp, for one routing scheme type at a time. Each scheme type's
// runs are compiled in a translation unit of their own (netsim_<scheme>.cpp), so that the
// compositions build in parallel.
#ifndef INTERLOCK_EXAMPLES_NETSIM_RUN_HPP
#define INTERLOCK_EXAMPLES_NETSIM_RUN_HPP

#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weighted_family.hpp>
#include <interlock/arbiters/inverse_weights.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/model/network.hpp>
#include <interlock/model/presets.hpp>
#include <interlock/routing/adaptive.hpp>
#include <interlock/routing/anton2.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/routing/vc_table.hpp>
#include <interlock/traffic/arbitration_weights.hpp>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "netsim_args.hpp"
#include "netsim_config.hpp"
#include "netsim_points.hpp"
#include "netsim_traffic.hpp"

namespace netsim_tool {

using interlock::node_id;

// The age parameters: given, or Section 3.2's methodology for this network
// (interlock::model::recommended_age).
inline interlock::model::age_config make_age_config(const arguments& a,
                                                    const interlock::torus_topology& t,
                                                    unsigned vcs_per_class,
                                                    bool per_port_bias = true) {
  const unsigned classes = a.model.response_share > 0 && a.model.response_share < 1 ? 2 : 1;
  const unsigned per_link = a.model.vcs != 0 ? a.model.vcs / classes : vcs_per_class;
  const interlock::model::age_advice advice =
      interlock::model::recommended_age(t, a.model, per_link);
  interlock::model::age_config age = advice.age;
  if (a.age_period != 0) age.period = a.age_period;
  // A node of many routers (--node anton2) has on-chip ports: one bias for all.
  if (!per_port_bias && (a.age_bias.size() > 1 || a.rsp_age_bias.size() > 1))
    throw bad_input{std::string(a.age_bias.size() > 1 ? "--age-bias" : "--rsp-age-bias") +
                    ": one value with --node anton2 (its routers' ports are on-chip, not "
                    "dimensions)"};
  const std::vector<unsigned> bias = !a.age_bias.empty() ? a.age_bias
                                     : per_port_bias     ? advice.dimension_bias
                                                         : std::vector<unsigned>{};
  // RSP_AGE_BIAS: --rsp-age-bias, else as REQ_AGE_BIAS.
  const std::vector<unsigned> rsp = a.rsp_age_bias.empty() ? bias : a.rsp_age_bias;
  if (bias.size() <= 1 && rsp.size() <= 1) {
    age.bias = interlock::age_bias{bias.empty() ? 1u : bias[0], rsp.empty() ? 1u : rsp[0]};
  } else {
    const auto spread = [&](const std::vector<unsigned>& b) {
      return b.size() == 1 ? std::vector<unsigned>(t.dimensions() + 1, b[0]) : b;
    };
    const auto req_ports = interlock::model::biases_by_dimension(t, spread(bias));
    const auto rsp_ports = interlock::model::biases_by_dimension(t, spread(rsp));
    for (std::size_t p = 0; p < t.ports(); ++p)
      age.port_bias.push_back(interlock::age_bias{req_ports[p].request(), rsp_ports[p].request()});
  }
  if (a.quiet) return age;
  std::printf("age: AGE_CLK_PERIOD %u%s, REQ/RSP_AGE_BIAS", age.period,
              a.age_period != 0 ? ""
              : advice.advised  ? " (Section 3.2's recommendation)"
                                : " (default)");
  if (bias.empty()) std::printf(" 1 (default)");
  for (std::size_t i = 0; i < bias.size(); ++i) std::printf("%s%u", i ? "," : " ", bias[i]);
  if (a.age_bias.empty() && advice.advised && per_port_bias)
    std::printf(" (by dimension, Section 3.2)");
  if (!a.rsp_age_bias.empty()) {
    std::printf("; RSP_AGE_BIAS");
    for (std::size_t i = 0; i < rsp.size(); ++i) std::printf("%s%u", i ? "," : " ", rsp[i]);
  }
  std::printf("; AGE_RR_SELECT 0x%llx\n", static_cast<unsigned long long>(a.age_rr_select));
  return age;
}

template <class Scheme, class Policy, class Allocator, class InputPolicy>
int simulate(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
             const std::function<Policy(node_id, std::size_t)>& make_policy,
             const interlock::model::age_config& age, const Allocator& allocator,
             const std::function<InputPolicy(node_id, std::size_t)>& make_input) {
  return run_points(a, scheme, traffic, age,
                    [&](const interlock::model::config& cfg, trace_session* session,
                        const std::function<void(double)>& progress) {
                      interlock::model::network<Scheme, Policy, Allocator, InputPolicy> net(
                          scheme, cfg, traffic.destination, make_policy, age, allocator,
                          make_input);
                      if (session) net.drive(session->replay());
                      return net.run(progress);
                    });
}

// The separable allocators, input first or output first (one round), as one
// type chosen at run time: the same runs as either's own type, bit for bit
// (tests/model/allocator_choice_test.cpp), compiled once.
inline interlock::model::separable_allocator separable(const arguments& a) {
  return interlock::model::separable_allocator{a.allocator == "separable_output_first", 1};
}

// The switch allocator and input arbiter (--allocator, --input-arbiter) for
// an output policy: the compositions netsim instantiates (parse() refuses the
// others).
template <class Scheme, class Policy, class MakePolicy>
int with_allocator(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
                   const MakePolicy& make_policy, const interlock::model::age_config& age) {
  namespace m = interlock::model;
  using rr = interlock::round_robin_arbiter<64>;
  const std::function<Policy(node_id, std::size_t)> policies = make_policy;
  const bool same_input = a.input_arbiter == a.arbiter && a.arbiter != "round_robin";
  if constexpr (std::is_same<Policy, interlock::age_epoch_arbiter<64>>::value) {
    if (same_input) {
      // The SeaStar compares every (input, VC) head by age: age at both stages.
      const std::function<Policy(node_id, std::size_t)> inputs =
          [select = a.age_rr_select](node_id, std::size_t) { return Policy(select); };
      return simulate<Scheme, Policy, m::separable_allocator, Policy>(a, scheme, traffic, policies,
                                                                      age, separable(a), inputs);
    }
  }
  if constexpr (std::is_same<Policy, rr>::value) {
    if (a.allocator == "islip")
      return simulate<Scheme, Policy, m::islip<16>, rr>(a, scheme, traffic, policies, age,
                                                        m::islip<16>{a.islip_iterations}, {});
    if (a.allocator == "wavefront")
      return simulate<Scheme, Policy, m::wavefront<16>, rr>(a, scheme, traffic, policies, age, {},
                                                            {});
  }
  return simulate<Scheme, Policy, m::separable_allocator, rr>(a, scheme, traffic, policies, age,
                                                              separable(a), {});
}

// The inverse-weighted arbiters at the outputs, and at the inputs with
// --input-arbiter inverse_weighted, each from its inputs' loads (Section 3.1).
template <class Scheme, class Policy, class MakeOutput, class MakeInput>
int with_inverse_inputs(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
                        const MakeOutput& outputs, const MakeInput& inputs) {
  namespace m = interlock::model;
  const std::function<Policy(node_id, std::size_t)> out = outputs;
  if (!inverse_weighted_name(a.input_arbiter))
    return with_allocator<Scheme, Policy>(a, scheme, traffic, outputs, {});
  const std::function<Policy(node_id, std::size_t)> in = inputs;
  return simulate<Scheme, Policy, m::separable_allocator, Policy>(a, scheme, traffic, out, {},
                                                                  separable(a), in);
}

// The output arbiters (and the input arbiters with --input-arbiter the
// same) of one inverse-weighted model, each programmed from its inputs'
// loads by `tables` (inverse_weight_tables.hpp).
template <class Policy, class Scheme, class Tables>
int with_inverse_weights(const arguments& a, const Scheme& scheme, const traffic_setup& traffic,
                         Tables tables) {
  const interlock::torus_topology& t = scheme.topology();
  const auto out = interlock::arbitration_tables(tables, traffic.loads);
  const auto in = interlock::arbitration_tables(tables, traffic.input_loads);
  return with_inverse_inputs<Scheme, Policy>(
      a, scheme, traffic,
      [out, &t](node_id r, std::size_t o) {
        return Policy(out[interlock::router_arbiter(t, r, o)]);
      },
      [in, &t](node_id r, std::size_t q) {
        return Policy(in[interlock::router_arbiter(t, r, q)]);
      });
}

// Anton 2's unified network: arbiters of 8 inputs (ports at the outputs,
// VCs at the inputs), with 12-bit weights: an on-chip router's inputs carry
// loads up to 572 times apart (a core's injection against a torus link's).
template <class Policy, class Tables>
int with_inverse_weights(const arguments& a, const interlock::anton2_routing& scheme,
                         const traffic_setup& traffic, Tables tables) {
  using set = decltype(interlock::unified_arbitration_tables(tables, *traffic.unified));
  const auto w =
      std::make_shared<const set>(interlock::unified_arbitration_tables(tables, *traffic.unified));
  return with_inverse_inputs<interlock::anton2_routing, Policy>(
      a, scheme, traffic, [w](node_id r, std::size_t o) { return Policy(w->output(r, o)); },
      [w](node_id r, std::size_t q) { return Policy(w->input(r, q)); });
}

// --arbiter inverse_weighted (Figure 6/8's hardware model) or iw:FORM (the
// family), with weights of N labelled patterns: K inputs and M-bit weights,
// 64 and 8 on a torus of routers, 8 and 12 in Anton 2's node.
template <std::size_t N, class Scheme>
int with_inverse_weights(const arguments& a, const Scheme& scheme, const traffic_setup& traffic) {
  constexpr bool anton2 = std::is_same<Scheme, interlock::anton2_routing>::value;
  constexpr std::size_t K = anton2 ? 8 : 64;
  constexpr unsigned M = anton2 ? 12 : 8;
  if (a.arbiter != "inverse_weighted")
    return with_inverse_weights<interlock::inverse_weighted_family<K, N, M>>(
        a, scheme, traffic,
        interlock::inverse_weighted_family_tables<K, N, M>(
            interlock::parse_inverse_weighted_form(a.arbiter.substr(3)), a.weight_headroom));
  return with_inverse_weights<interlock::inverse_weighted_arbiter<K, N, M>>(
      a, scheme, traffic, interlock::inverse_weight_tables<K, N, M>(a.weight_headroom));
}

template <class Scheme>
int with_arbiter(const arguments& a, const Scheme& scheme) {
  const interlock::torus_topology& t = torus_of(scheme.topology());
  // [Towles14] programs one set of weights, from uniform traffic, for every
  // pattern it runs: --weights-from names the patterns whose loads set them.
  // Packets carry their pattern's label when the weights are per label.
  const std::size_t labels = !inverse_weighted_name(a.arbiter)
                                 ? 1
                                 : (a.weights_mix.empty() ? a.mix : a.weights_mix).size();
  traffic_setup traffic = with_traffic(a, scheme, a.mix, "--traffic", labels > 1);
  if (!a.weights_mix.empty()) {
    const traffic_setup weights = with_traffic(a, scheme, a.weights_mix, "--weights-from", false);
    traffic.loads = weights.loads;
    traffic.input_loads = weights.input_loads;
    traffic.unified = weights.unified;
  }
  if (a.arbiter == "round_robin") {
    using policy = interlock::round_robin_arbiter<64>;
    return with_allocator<Scheme, policy>(a, scheme, traffic,
                                          [](node_id, std::size_t) { return policy{}; }, {});
  }
  if (a.arbiter == "age") {
    using policy = interlock::age_epoch_arbiter<64>;
    return with_allocator<Scheme, policy>(
        a, scheme, traffic,
        [select = a.age_rr_select](node_id, std::size_t) { return policy(select); },
        make_age_config(a, t, scheme.vcs_per_class(),
                        std::is_same<Scheme, interlock::anton2_routing>::value == false));
  }
  if (labels == 2) return with_inverse_weights<2>(a, scheme, traffic);
  return with_inverse_weights<1>(a, scheme, traffic);
}

/// One run (or sweep) per routing scheme type; each defined in its own file.
int run_scheme(const arguments& a, const interlock::dimension_order_routing& scheme);
int run_scheme(const arguments& a, const interlock::vc_promotion_routing& scheme);
int run_scheme(const arguments& a, const interlock::direction_order_routing& scheme);
int run_scheme(const arguments& a, const interlock::t3e_adaptive_routing& scheme);
int run_scheme(const arguments& a, const interlock::anton2_routing& scheme);
/// The run (or sweep) the arguments name: the network, scheme and node (netsim_select.cpp).
int run_network(const arguments& a);

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_RUN_HPP
