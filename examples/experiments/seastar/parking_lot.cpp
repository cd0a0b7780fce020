// SPDX-License-Identifier: BSL-1.0
// parking_lot: [Abts07] Section 2 and Figure 4 ([Abts10] Figure 5) on the network
// model: 8 nodes on a line (1-mesh) and on a ring (1-torus), every node sending
// to P7 as fast as it can, under round-robin, age-based and inverse-weighted
// ([Towles14], weights from the all-to-P7 pattern's loads) output arbitration.
//
//   parking_lot [--cycles N] [--csv FILE] [--json FILE] [--jobs N]
//
// Prints, per network, each source's share of P7's ejection port under each
// arbiter beside round robin's share by the paper's merging rule, and the
// fairness of each arbiter. --csv writes the same table, one row per source.
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weights.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/arbitration_weights.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <interlock/model/network.hpp>
#include <interlock/model/presets.hpp>
#include <interlock/traffic/merging.hpp>
#include "cli.hpp"
#include "experiment.hpp"
#include "settings.hpp"

namespace {

using interlock::node_id;

struct outcome {
  interlock::model::results round_robin, age, inverse;
  std::vector<double> merging;
  interlock::model::age_config age_parameters;
};

outcome run(bool wrap, std::uint64_t cycles) {
  const interlock::torus_topology t({8}, {wrap});
  const interlock::dimension_order_routing dor(t);
  interlock::model::config c;  // 16-flit buffers, 1-flit packets, request class only
  c.load = 1.0;
  c.warmup = 2000;
  c.measure = cycles;
  c.drain = 0;
  const interlock::traffic::all_to_one pattern{7};
  const interlock::model::destination_function to_p7 = [&](node_id s, interlock::splitmix64& g) {
    return pattern.destination(t, s, g);
  };
  outcome o;
  o.merging = interlock::traffic::merging_rule_shares(dor, 7);
  using rr = interlock::round_robin_arbiter<64>;
  interlock::model::network<interlock::dimension_order_routing, rr> a(
      dor, c, to_p7, [](node_id, std::size_t) { return rr{}; });
  o.round_robin = a.run();
  // Age: AGE_CLK_PERIOD and the bias by Section 3.2's methodology.
  const interlock::model::age_advice advice =
      interlock::model::recommended_age(t, c, dor.vcs_per_class());
  o.age_parameters = advice.age;
  if (!advice.dimension_bias.empty())
    o.age_parameters.port_bias = interlock::model::biases_by_dimension(t, advice.dimension_bias);
  using age = interlock::age_epoch_arbiter<64>;
  interlock::model::network<interlock::dimension_order_routing, age> b(
      dor, c, to_p7, [](node_id, std::size_t) { return age(age::all_age); }, o.age_parameters);
  o.age = b.run();
  // Inverse weights ([Towles14] Section 3.1) from this pattern's loads at
  // every output: each input served in proportion to the sources behind it.
  const interlock::arbiter_loads loads =
      interlock::router_arbiter_loads(dor, interlock::traffic_class::request, pattern);
  using iw = interlock::inverse_weighted_arbiter<64, 1, 8>;
  interlock::inverse_weight_tables<64, 1, 8> weights;
  const auto tables = interlock::arbitration_tables(weights, loads);
  interlock::model::network<interlock::dimension_order_routing, iw> w(
      dor, c, to_p7, [&](node_id r, std::size_t port) {
        return iw(tables[interlock::router_arbiter(t, r, port)]);
      });
  o.inverse = w.run();
  return o;
}

std::string fraction(double x) {
  // The merging rule's shares are powers of two: print them as 1/2^k.
  for (int k = 0; k <= 20; ++k)
    if (x == 1.0 / static_cast<double>(1u << k)) return "1/" + std::to_string(1u << k);
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", x);
  return text;
}

struct settings {
  std::uint64_t cycles = 40000;
  cli::experiment_flags shared;
};

const cli::setting_table<settings>& table() {
  using s_t = settings;
  static const cli::setting_table<s_t> t([] {
    std::vector<cli::setting<s_t>> list{cli::whole<s_t>(
        "--cycles", "N", [](auto& s) -> auto& { return s.cycles; }, 100, 100000000,
        "measured cycles (after 2000 of warm-up)")};
    cli::append(list, cli::experiment_flags::settings<s_t>(""));
    return list;
  }());
  return t;
}

std::string help_text() {
  return "usage: parking_lot [options]\n"
         "\n"
         "The parking lot ([Abts07] Section 2, Figure 4): 8 nodes on a line and on a\n"
         "ring, P0..P6 all sending to P7 as fast as they can; each source's share of\n"
         "P7's ejection port and its network latency under round robin, age-based\n"
         "arbitration (Section 3.2's parameters) and inverse weights ([Towles14]),\n"
         "beside round robin's share by the paper's merging rule.\n"
         "\n" +
         table().help() +
         "\n"
         "Exit status: 0 done; 2 bad input; 3 an output could not be written.\n";
}

int run_all(int argc, char** argv) {
  settings st;
  const cli::flags flags = table().parse(argc, argv, st);
  const std::uint64_t cycles = st.cycles;
  cli::experiment_flags& shared = st.shared;
  shared.resolve(flags, table().resolved(st));
  // Two networks of 8 routers, three runs each, over warm-up and window.
  shared.check_work(2.0 * 3 * 8 * static_cast<double>(2000 + cycles), "lower --cycles");
  cli::table_output csv = shared.output("parking_lot");
  const std::string config = table().values(st);
  csv.line(
      "network,source,hops,round_robin,age,merging_rule,round_robin_network_latency,"
      "age_network_latency,inverse_weighted,inverse_weighted_network_latency," +
      table().columns());
  std::printf(
      "Parking lot ([Abts07] Section 2, Figure 4): 8 nodes, P0..P6 all send to P7 as\n"
      "fast as they can; each source's share of P7's ejection port, measured over\n"
      "%llu cycles on the network model (dimension order, 16-flit buffers, 1-flit\n"
      "packets), beside round robin's share by the paper's merging rule.\n",
      static_cast<unsigned long long>(cycles));
  std::fflush(stdout);
  shared.grid(
      2, [&](std::size_t k, bool) { return run(k == 1, cycles); },
      [&](std::size_t k, const outcome& o) {
        const bool wrap = k == 1;
        const interlock::torus_topology t({8}, {wrap});
        std::printf("\n%s, age-based with AGE_CLK_PERIOD %u and age bias %u (Section 3.2):\n",
                    wrap ? "8-node ring (1-torus)" : "8-node line (1-mesh)",
                    o.age_parameters.period,
                    o.age_parameters.port_bias.empty() ? o.age_parameters.bias.request()
                                                       : o.age_parameters.port_bias[0].request());
        std::printf(
            "  source  hops  round robin  age-based  inverse weights  merging rule (paper)   "
            "network "
            "latency: round robin  age-based  inverse weights\n");
        for (std::size_t i = 0; i < o.round_robin.sources.size(); ++i) {
          const node_id s = o.round_robin.sources[i];
          const std::size_t hops = t.distance(s, 7);
          std::printf(
              "  P%u      %zu     %.4f       %.4f     %.4f           %-22s %12.1f %10.1f %10.1f\n",
              s, hops, o.round_robin.accepted_per_source[i], o.age.accepted_per_source[i],
              o.inverse.accepted_per_source[i], fraction(o.merging[s]).c_str(),
              o.round_robin.network_latency_per_source[i], o.age.network_latency_per_source[i],
              o.inverse.network_latency_per_source[i]);
          csv.line(
              cli::format("%s,P%u,%zu,%.6f,%.6f,%.6f,%s,%s,%.6f,%s,", wrap ? "ring" : "mesh", s,
                          hops, o.round_robin.accepted_per_source[i], o.age.accepted_per_source[i],
                          o.merging[s],
                          cli::cell("%.3f", o.round_robin.network_latency_per_source[i]).c_str(),
                          cli::cell("%.3f", o.age.network_latency_per_source[i]).c_str(),
                          o.inverse.accepted_per_source[i],
                          cli::cell("%.3f", o.inverse.network_latency_per_source[i]).c_str()) +
              config);
        }
        std::printf(
            "  Jain's fairness index   round robin %.3f   age-based %.3f   inverse weights %.3f\n",
            o.round_robin.jain, o.age.jain, o.inverse.jain);
        std::printf(
            "  max/min share           round robin %.1f    age-based %.1f    inverse weights "
            "%.2f\n",
            o.round_robin.max_min_ratio, o.age.max_min_ratio, o.inverse.max_min_ratio);
        std::printf("  max/min network latency round robin %.2f   age-based %.3f\n",
                    o.round_robin.source_network_latency_max_min,
                    o.age.source_network_latency_max_min);
      });
  std::printf(
      "\nRound robin gives the paper's geometric shares, and the far sources' packets\n"
      "wait longest. Age-based arbitration gives every source's packets the same\n"
      "latency through the network ([Abts07]'s claim): ages count from entry into\n"
      "the router, as the SeaStar does, so the heads that meet at an output are\n"
      "equally old, and a source's share follows the buffers its packets fill\n"
      "(Little's law): on the line P0 gets twice P1, the rest about equal; far\n"
      "flatter than round robin, not equal (docs/model.md). Inverse weights\n"
      "([Towles14]), programmed from this pattern's loads, serve each input of each output\n"
      "in proportion to the sources behind it: every source gets 1/7. Network\n"
      "latency: from injection to delivery, mean over the packets delivered in the\n"
      "window.\n");
  csv.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("parking_lot", help.c_str(), "fewer --cycles", argc, argv,
                       [&] { return run_all(argc, argv); });
}
