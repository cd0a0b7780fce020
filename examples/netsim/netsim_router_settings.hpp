// SPDX-License-Identifier: BSL-1.0
// netsim's network and router settings (the first part of its table,
// netsim_settings.hpp): the torus and node shape, the routing scheme and
// its options, the arbiters with theirs, the allocator and the router's
// buffers and stages. `when` texts complete "applies only to ...".
#ifndef INTERLOCK_EXAMPLES_NETSIM_ROUTER_SETTINGS_HPP
#define INTERLOCK_EXAMPLES_NETSIM_ROUTER_SETTINGS_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "catalogue.hpp"
#include "cli.hpp"
#include "netsim_arguments.hpp"
#include "netsim_values.hpp"
#include "prefetch_flag.hpp"
#include "settings.hpp"

namespace netsim_tool {

inline std::vector<cli::setting<arguments>> router_settings() {
  using a = arguments;
  using cli::custom;
  using cli::decimal;
  using cli::whole;
  const auto anton2 = [](const a& s) { return s.node == "anton2"; };
  const auto ordered = [](const a& s) {
    return !s.orders.empty() &&
           (s.scheme == "dor" || s.scheme == "vc_promotion" || s.scheme == "per_dimension");
  };
  const auto dor = [](const a& s) { return s.scheme == "dor"; };
  const auto age = [](const a& s) { return s.arbiter == "age"; };
  const auto weighted = [](const a& s) { return inverse_weighted_name(s.arbiter); };
  // network (as deadlock_check)
  std::vector<cli::setting<a>> out = cli::torus_settings<a>(256);
  cli::append(
      out,
      {
          custom<a>(
              "--node", "NAME",
              "router: one router per node; anton2: each node Anton 2's 4x4 mesh of routers with "
              "skip channels and torus-channel adapters, one core per router (a 3-D torus of 2 "
              "slices, --scheme vc_promotion; the anton2 preset's); rates are then per core",
              [](a& s, const std::string& v) {
                s.node = cli::catalogue::check("--node", "node", v);
              },
              [](const a& s) { return s.node; }),
          decimal<a>(
              "--torus-bandwidth", "F", [](auto& s) -> auto& { return s.links.torus_bandwidth; },
              1.0 / 1024, 1,
              "anton2: flits per cycle of a torus link, a mesh channel carrying 1 (89.6 / "
              "288: Section 2.2's effective torus bandwidth)")
              .when(anton2, "--node anton2")
              .under(),
          whole<a>(
              "--torus-latency", "N", [](auto& s) -> auto& { return s.links.torus_latency; }, 0,
              1000, "anton2: cycles a torus link takes beyond a mesh channel's")
              .when(anton2, "--node anton2")
              .under(),
          custom<a>(
              "--adapter-buffer-flits", "N", "anton2: the channel adapters' input buffers, per VC",
              [](a& s, const std::string& v) {
                s.model.adapter_buffer_flits =
                    static_cast<unsigned>(cli::number("--adapter-buffer-flits", v, 1, 65535));
              },
              [](const a& s) { return std::to_string(s.model.adapter_flits()); })
              .when(anton2, "--node anton2")
              .defaults("as --buffer-flits")
              .under(),
          custom<a>(
              "--scheme", "NAME",
              "routing: dor, vc_promotion, t3e, t3e_adaptive, per_dimension (as deadlock_check)",
              [](a& s, const std::string& v) {
                s.scheme = cli::catalogue::check("--scheme", "routing", v);
              },
              [](const a& s) { return s.scheme; }),
          custom<a>(
              "--orders", "ORDER;...",
              "dimension orders (as deadlock_check's --orders); default the scheme's",
              [](a& s, const std::string& v) { s.orders = v; }, [](const a& s) { return s.orders; })
              .when(ordered, "--scheme dor, vc_promotion or per_dimension")
              .defaults("-")
              .under(),
          cli::toggle<a>(
              "--no-datelines", [](auto& s) -> auto& { return s.no_datelines; },
              "dor: no dateline VCs (a torus may then deadlock)")
              .when(dor, "--scheme dor")
              .under(),
          cli::one_of<a>(
              "--dateline-rule", [](auto& s) -> auto& { return s.dateline_rule; },
              {"switch_at_wrap", "booksim2"},
              "dor: the VC a packet takes on a ring: switch_at_wrap switches at the wrap "
              "link; booksim2 chooses on entering a ring by whether the route wraps")
              .when(dor, "--scheme dor")
              .under(),
          cli::one_of<a>(
              "--tables", [](auto& s) -> auto& { return s.tables; }, {"toc", "optimized"},
              "t3e, t3e_adaptive: VC tables")
              .when([](const a& s) { return s.scheme == "t3e" || s.scheme == "t3e_adaptive"; },
                    "--scheme t3e or t3e_adaptive")
              .under(),
          // router
          custom<a>(
              "--arbiter", "NAME",
              "output arbiter: round_robin, age (the Cray XT age-epoch arbiter, every grant by "
              "age), inverse_weighted (Anton 2, weights from the pattern's loads, M = 8), "
              "iw:ORDERING.QUANTIZATION.HISTORY (the inverse-weighted family: levels|full . "
              "mbit|real . window|unbounded|lagL; iw:levels.mbit.window decides as "
              "inverse_weighted, iw:full.real.unbounded as Eq. 3)",
              [](a& s, const std::string& v) { s.arbiter = arbiter_name("--arbiter", v); },
              [](const a& s) { return s.arbiter; }),
          whole<a>(
              "--age-period", "N", [](auto& s) -> auto& { return s.age_period; }, 1, 0xFFFFFFFFu,
              "age: AGE_CLK_PERIOD in cycles")
              .when(age, "--arbiter age")
              .defaults("Section 3.2's recommendation for the network, recommend_age_clock")
              .under(),
          custom<a>(
              "--age-bias", "B|B0,...",
              "age: REQ_AGE_BIAS (0..7) of every input port, or of the ports of each dimension "
              "[and the local port]",
              [](a& s, const std::string& v) { s.age_bias = biases("--age-bias", v); },
              [](const a& s) { return cli::joined(s.age_bias); })
              .when(age, "--arbiter age")
              .defaults("Section 3.2's n, n-1, ..., 1 by dimension")
              .under(),
          custom<a>(
              "--rsp-age-bias", "B|B0,...", "age: RSP_AGE_BIAS likewise",
              [](a& s, const std::string& v) { s.rsp_age_bias = biases("--rsp-age-bias", v); },
              [](const a& s) { return cli::joined(s.rsp_age_bias); })
              .when(age, "--arbiter age")
              .defaults("as --age-bias")
              .under(),
          custom<a>(
              "--age-rr-select", "0xM",
              "age: AGE_RR_SELECT, bit c of the grant counter's value selects age (1) or round "
              "robin (0)",
              [](a& s, const std::string& v) { s.age_rr_select = hex_mask("--age-rr-select", v); },
              [](const a& s) {
                return cli::format("0x%llx", static_cast<unsigned long long>(s.age_rr_select));
              })
              .when(age, "--arbiter age")
              .defaults("all 1s")
              .under(),
          custom<a>(
              "--weights-from", "NAME",
              "inverse_weighted, iw:FORM: program the weights from this pattern's loads "
              "([Towles14] uses uniform_random's for every pattern)",
              [](a& s, const std::string& v) {
                s.weights_from = v;
                s.weights_mix = parse_mix("--weights-from", v);
              },
              [](const a& s) { return s.weights_from; })
              .when([weighted](const a& s) { return weighted(s) && !s.weights_from.empty(); },
                    "--arbiter inverse_weighted or iw:FORM")
              .defaults("the run's --traffic")
              .under(),
          whole<a>(
              "--weight-headroom", "H", [](auto& s) -> auto& { return s.weight_headroom; }, 0, 11,
              "inverse_weighted, iw:FORM: quantize the weights to M - H bits in the M-bit "
              "arbiters (M = 8; 12 with --node anton2); 0: every bit used")
              .when(weighted, "--arbiter inverse_weighted or iw:FORM")
              .under(),
          custom<a>(
              "--input-arbiter", "NAME",
              "which VC of an input port competes: round_robin, or age with --arbiter age (the "
              "SeaStar compares every (input, VC) head by age), or inverse_weighted or iw:FORM "
              "with the same --arbiter (weights from each VC's load at the port)",
              [](a& s, const std::string& v) {
                s.input_arbiter = arbiter_name("--input-arbiter", v);
              },
              [](const a& s) { return s.input_arbiter; }),
          custom<a>(
              "--allocator", "NAME",
              "switch allocation: separable_input_first, separable_output_first, islip[:K] (K "
              "iterations, 1..16) or wavefront; islip and wavefront with --arbiter round_robin "
              "only (they grant by their own pointers)",
              [](a& s, const std::string& text) {
                const std::size_t colon = text.find(':');
                s.allocator =
                    cli::catalogue::check("--allocator", "allocator", text.substr(0, colon));
                if (colon == std::string::npos) return;
                if (s.allocator != "islip")
                  throw bad_input{"--allocator: '" + text + "'; only islip takes :K (iterations)"};
                s.islip_iterations = cli::number("--allocator", text.substr(colon + 1), 1, 16);
              },
              [](const a& s) {
                return s.allocator == "islip" ? "islip:" + std::to_string(s.islip_iterations)
                                              : s.allocator;
              }),
          whole<a>(
              "--vcs", "N", [](auto& s) -> auto& { return s.model.vcs; }, 1, 64,
              "physical VCs per channel: a multiple of what the scheme uses for the classes "
              "sent")
              .defaults("exactly that"),
          whole<a>(
              "--buffer-flits", "N", [](auto& s) -> auto& { return s.model.buffer_flits; }, 1,
              65535, "input buffer per (port, VC), >= the longest packet"),
          custom<a>(
              "--injection-buffer-flits", "N", "the local (injection) port's, per VC",
              [](a& s, const std::string& v) {
                s.model.injection_buffer_flits =
                    static_cast<unsigned>(cli::number("--injection-buffer-flits", v, 1, 65535));
              },
              [](const a& s) { return std::to_string(s.model.injection_flits()); })
              .defaults("as --buffer-flits"),
          whole<a>(
              "--staging-flits", "N", [](auto& s) -> auto& { return s.model.staging_flits; }, 0,
              65535,
              "output staging buffers: at every output, N flits for each (input port, VC); "
              "the output arbiter chooses among their heads (seastar preset 16)"),
          whole<a>(
              "--channel-latency", "N", [](auto& s) -> auto& { return s.model.channel_latency; }, 1,
              1000, "cycles on a channel"),
          decimal<a>(
              "--endpoint-bandwidth", "F",
              [](auto& s) -> auto& { return s.model.endpoint_bandwidth; }, 1.0 / 1024, 1,
              "flits per cycle of each node's injection and ejection port (seastar preset "
              "2.1/4.8)"),
          whole<a>(
              "--router-delay", "N", [](auto& s) -> auto& { return s.model.router_delay; }, 0, 1000,
              "cycles from a head's arrival to its allocation"),
          whole<a>(
              "--endpoints", "N", [](auto& s) -> auto& { return s.model.endpoints; }, 1, 8,
              "endpoints per node (Anton 2 injects from many cores): each its own injection "
              "and ejection port at the router, fed by the node's source queue"),
          whole<a>(
              "--head-cycles", "N", [](auto& s) -> auto& { return s.model.head_cycles; }, 0, 1000,
              "cycles each packet spends at the head of its buffer before it competes (route "
              "computation and VC allocation as stages, BookSim2's iq_router: routing_delay + "
              "vc_alloc_delay); a queued packet waits them after the one before it leaves"),
          whole<a>(
              "--switch-stages", "N", [](auto& s) -> auto& { return s.model.switch_stages; }, 1, 2,
              "1: switch allocation in one cycle; 2: an input's pick (SA1) reaches its "
              "output's arbiter (SA2) a cycle later, Anton 2's pipeline (Towles et al. Fig. "
              "12; with --head-cycles 2: RC, VA, SA1, SA2); separable_input_first only"),
          custom<a>(
              "--prefetch", "MODE",
              "automatic, always or never: cache hints ahead of each cycle (automatic: where the "
              "routers' input buffers exceed 1 MiB); the same results, only the time differs",
              [](a& s, const std::string& v) {
                s.model.prefetch = cli::prefetch_mode("--prefetch", v);
              },
              [](const a& s) { return cli::prefetch_name(s.model.prefetch); })
              .control(),
          whole<a>(
              "--threads", "N", [](auto& s) -> auto& { return s.model.threads; }, 1, 64,
              "each run's routers step on N threads, a block of them each; the results equal "
              "--threads 1's")
              .local(),
      });
  return out;
}

}  // namespace netsim_tool

#endif  // INTERLOCK_EXAMPLES_NETSIM_ROUTER_SETTINGS_HPP
