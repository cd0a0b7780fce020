// SPDX-License-Identifier: BSL-1.0
// all_to_one: the parking lot at network scale ([Abts07] Section 2; [Towles14] Section 3.1) on
// the network model: every node of a 3-D torus sends to one node as fast as it can.
//
//   all_to_one [--full] [--radix K0,K1,K2] [--cycles N] [--injection-buffers B,...]
//              [--csv FILE] [--json FILE] [--jobs N]
//
// Per source, its share of the destination's ejection port and its packets'
// network latency, under round robin, the age-epoch arbiter (at Section 3.2's
// AGE_CLK_PERIOD, and at the smallest doubling of it that keeps the age clock
// from being inhibited), and inverse weights programmed from this pattern's
// loads. --injection-buffers repeats the age runs with other injection buffer
// depths: with ages counted from entry into the router, a source's share
// follows the buffers its packets fill (docs/model.md's fluid analysis).
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/arbitration_weights.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <interlock/model/network.hpp>
#include "cli.hpp"
#include "experiment.hpp"
#include "settings.hpp"

namespace {

using interlock::node_id;

struct settings {
  std::vector<std::size_t> radix{4, 4, 4};
  std::uint64_t cycles = 40000;
  std::vector<std::size_t> injection{16};
  cli::experiment_flags shared;
};

const cli::setting_table<settings>& table() {
  using s_t = settings;
  static const cli::setting_table<s_t> t([] {
    std::vector<cli::setting<s_t>> list{
        cli::radix3_setting<s_t>(32, "the torus, 2..32 per dimension"),
        cli::whole<s_t>(
            "--cycles", "N", [](auto& s) -> auto& { return s.cycles; }, 1000, 100000000,
            "measured cycles (after 10000 of warm-up)"),
        cli::custom<s_t>(
            "--injection-buffers", "B,...",
            "injection buffer depths (flits) for the age runs; 16 is the network's",
            [](s_t& s, const std::string& v) {
              s.injection = cli::numbers("--injection-buffers", v, 1, 4096);
            },
            [](const s_t& s) { return cli::joined(s.injection); })
            .axis()};
    cli::append(list, cli::experiment_flags::settings<s_t>(
                          "an 8x8x8 torus (--radix given keeps its value)"));
    return list;
  }());
  return t;
}

std::string help_text() {
  return "usage: all_to_one [options]\n"
         "\n"
         "The parking lot at network scale: every node of a 3-D torus sends to the\n"
         "last node as fast as it can (dimension order with datelines, 16-flit\n"
         "buffers, 1-flit packets). Per arbiter: each source's share of the\n"
         "destination's ejection port by its distance, Jain's index, max/min share\n"
         "and network latency. Arbiters: round robin; age (Section 3.2's period, and\n"
         "the smallest doubling of it with the age clock inhibited under 1% of the\n"
         "time); inverse weights from this pattern's loads.\n"
         "\n" +
         table().help() +
         "\n"
         "Exit status: 0 done; 1 a run deadlocked; 2 bad input; 3 an output could not\n"
         "be written.\n";
}

struct row {
  std::string setting;
  unsigned injection = 0;
  interlock::model::results r;
  double inhibited = 0;
};

int run(int argc, char** argv) {
  settings st;
  const cli::flags flags = table().parse(argc, argv, st);
  cli::experiment_flags& shared = st.shared;
  if (shared.full && !flags.given("--radix")) st.radix = {8, 8, 8};
  shared.resolve(flags, table().resolved(st));
  const std::vector<std::size_t>& radix = st.radix;
  const std::uint64_t cycles = st.cycles;
  const std::vector<std::size_t>& injection = st.injection;
  const interlock::torus_topology t(radix, {}, 1);
  const interlock::dimension_order_routing dor(t);
  const node_id destination = t.node_count() - 1;
  const interlock::traffic::all_to_one pattern{destination};
  const interlock::model::destination_function to_one = [&](node_id s, interlock::splitmix64& g) {
    return pattern.destination(t, s, g);
  };
  interlock::model::config c;  // 16-flit buffers, 1-flit packets, requests only
  c.load = 1.0;
  c.warmup = 10000;
  c.measure = cycles;
  c.drain = 0;
  const interlock::model::age_advice advice =
      interlock::model::recommended_age(t, c, dor.vcs_per_class());
  // The runs: round robin, the age runs of each injection buffer depth (the
  // period doubled until the age clock is quiet, at most to 0x1000), inverse
  // weights.
  double age_runs = 0;
  for (std::uint32_t period = advice.age.period; period < 0x1000; period *= 2) ++age_runs;
  shared.check_work(static_cast<double>(t.node_count()) * static_cast<double>(c.warmup + cycles) *
                        (2 + static_cast<double>(injection.size()) * (age_runs + 1)),
                    "lower --radix, --cycles or --injection-buffers");
  cli::table_output csv = shared.output("all_to_one");
  const std::string config = table().values(st);
  csv.line("setting,period,injection_buffer_flits,source,hops,share,network_latency," +
           table().columns());
  using rr = interlock::round_robin_arbiter<64>;
  using age = interlock::age_epoch_arbiter<64>;
  using iw = interlock::inverse_weighted_arbiter<64, 1, 8>;
  interlock::model::age_config age_cfg = advice.age;
  age_cfg.port_bias = interlock::model::biases_by_dimension(t, advice.dimension_bias);
  interlock::inverse_weight_tables<64, 1, 8> weights;
  const interlock::arbiter_loads loads =
      interlock::router_arbiter_loads(dor, interlock::traffic_class::request, pattern);
  const auto tables = interlock::arbitration_tables(weights, loads);
  // A cell's rows and the period from which its age clock stayed quiet.
  struct cell {
    std::vector<row> rows;
    std::uint32_t quiet_period = 0;
  };
  std::vector<row> rows;
  std::uint32_t quiet_period = 0;
  shared.grid(
      injection.size() + 2,
      [&](std::size_t k, bool) {
        cell out;
        if (k == 0) {
          interlock::model::network<interlock::dimension_order_routing, rr> net(
              dor, c, to_one, [](node_id, std::size_t) { return rr{}; });
          out.rows.push_back({"round_robin", c.buffer_flits, net.run(), 0});
        } else if (k == injection.size() + 1) {
          interlock::model::network<interlock::dimension_order_routing, iw> net(
              dor, c, to_one, [&](node_id r, std::size_t port) {
                return iw(tables[interlock::router_arbiter(t, r, port)]);
              });
          out.rows.push_back({"inverse_weighted", c.buffer_flits, net.run(), 0});
        } else {
          const unsigned inj = static_cast<unsigned>(injection[k - 1]);
          interlock::model::config ci = c;
          ci.injection_buffer_flits = inj;
          for (std::uint32_t period = advice.age.period;; period *= 2) {
            interlock::model::age_config a = age_cfg;
            a.period = period;
            interlock::model::network<interlock::dimension_order_routing, age> net(
                dor, ci, to_one, [](node_id, std::size_t) { return age(age::all_age); }, a);
            const interlock::model::results r = net.run();
            const bool first = period == advice.age.period;
            const bool quiet = r.inhibited_share < 0.01 || period >= 0x1000;
            if (first)
              out.rows.push_back({"age_" + std::to_string(period), inj, r, r.inhibited_share});
            if (quiet) {
              if (!first)
                out.rows.push_back({"age_" + std::to_string(period), inj, r, r.inhibited_share});
              out.quiet_period = period;
              break;
            }
          }
        }
        return out;
      },
      [&](std::size_t, const cell& out) {
        rows.insert(rows.end(), out.rows.begin(), out.rows.end());
        if (quiet_period == 0) quiet_period = out.quiet_period;
      });
  std::printf(
      "All-to-one on a %zux%zux%zu torus: %u sources send to node %u as fast as they can\n"
      "(dimension order, 16-flit buffers, 1-flit packets; %llu measured cycles). Section 3.2\n"
      "gives AGE_CLK_PERIOD %u and biases by dimension; the age clock stays uninhibited\n"
      "from period %u.\n\n",
      radix[0], radix[1], radix[2], t.node_count() - 1, destination,
      static_cast<unsigned long long>(cycles), advice.age.period, quiet_period);
  std::size_t far = 0;
  for (node_id s = 0; s < destination; ++s) far = std::max(far, t.distance(s, destination));
  std::printf("%-18s %6s %6s %6s %7s  mean share by hops 1..%zu (x sources)\n", "setting", "inj",
              "jain", "max/min", "latency", far);
  int status = 0;
  for (const row& x : rows) {
    const interlock::model::results& r = x.r;
    if (r.deadlock.deadlocked) status = 1;
    double total = 0;
    for (const double a : r.accepted_per_source) total += a;
    std::map<std::size_t, std::pair<double, int>> by_hops;
    for (std::size_t i = 0; i < r.sources.size(); ++i) {
      const std::size_t h = t.distance(r.sources[i], destination);
      // A share of nothing delivered is none, and so is a latency over no packet.
      const double share =
          total > 0 ? r.accepted_per_source[i] / total : std::numeric_limits<double>::quiet_NaN();
      if (total > 0) {
        by_hops[h].first += share * static_cast<double>(r.sources.size());
        ++by_hops[h].second;
      }
      const double latency = r.accepted_per_source[i] > 0
                                 ? r.network_latency_per_source[i]
                                 : std::numeric_limits<double>::quiet_NaN();
      const std::string period = x.setting.rfind("age_", 0) == 0 ? x.setting.substr(4) : "";
      csv.line(cli::format("%s,%s,%u,%u,%zu,%s,%s,", x.setting.c_str(), period.c_str(), x.injection,
                           r.sources[i], h, cli::cell("%.6f", share).c_str(),
                           cli::cell("%.2f", latency).c_str()) +
               config);
    }
    std::printf("%-18s %6u %6.3f %7.2f %7.2f ", x.setting.c_str(), x.injection, r.jain,
                r.max_min_ratio, r.source_network_latency_max_min);
    for (const auto& h : by_hops) std::printf(" %.2f", h.second.first / h.second.second);
    std::printf("%s\n", x.inhibited > 0.1 ? "  (age clock inhibited >10%)" : "");
  }
  std::printf(
      "\n(shares x sources: 1.00 is an equal share; latency: max/min of the sources' mean\n"
      "network latency)\n");
  csv.close();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("all_to_one", help.c_str(), "try a smaller --radix", argc, argv,
                       [&] { return run(argc, argv); });
}
