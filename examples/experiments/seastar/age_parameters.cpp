// SPDX-License-Identifier: BSL-1.0
// age_parameters: the age-epoch arbiter's parameters against round robin on a SeaStar-shaped
// torus, Abts & Weisser (SC'07) Section 4 and Table 5, on the network model.
//
//   age_parameters [--full] [--radix K0,K1,K2] [--load-fraction F] [--cycles N]
//                  [--settings S,...] [--seed N] [--csv FILE] [--json FILE] [--jobs N]
//
// The router is the seastar preset's (interlock/model/presets.hpp): dimension
// order with datelines, 4 VCs (request/response x dateline), 96-flit input
// buffers and 16-flit output staging buffers, 9-flit packets, half of them
// responses, the processor port at 2.1/4.8 of a link; every (input, VC) head
// compared by the same arbiter at the input and the output. Traffic is
// uniform at --load-fraction of the pattern's capacity. Each setting is one
// run; round robin is the same arbiter with AGE_RR_SELECT = 0 (every grant
// by round robin), as the SeaStar runs it, so its Table 4 counters count too.
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/loads.hpp>
#include <interlock/traffic/patterns.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <interlock/model/network.hpp>
#include <interlock/model/presets.hpp>
#include "cli.hpp"
#include "experiment.hpp"
#include "settings.hpp"

namespace {

using interlock::node_id;
using age_arbiter = interlock::age_epoch_arbiter<64>;

struct setting {
  std::string name;
  std::uint32_t period = 0;    // 0: Section 3.2's recommendation
  std::vector<unsigned> bias;  // per dimension; empty: the recommendation's
  std::uint64_t select = age_arbiter::all_age;
};

std::vector<setting> all_settings() {
  const std::uint64_t rr = 0, half = 0x5555555555555555ull;
  return {
      {"round_robin", interlock::model::hardware_age_clk_period, {1, 1, 1}, rr},
      {"default", interlock::model::hardware_age_clk_period, {1, 1, 1}, age_arbiter::all_age},
      {"age4_111", 4, {1, 1, 1}, age_arbiter::all_age},
      {"age4_321", 4, {3, 2, 1}, age_arbiter::all_age},
      {"age8_111", 8, {1, 1, 1}, age_arbiter::all_age},
      {"age8_321", 8, {3, 2, 1}, age_arbiter::all_age},
      {"age16_111", 16, {1, 1, 1}, age_arbiter::all_age},
      {"age16_321", 16, {3, 2, 1}, age_arbiter::all_age},
      {"predicted", 0, {}, age_arbiter::all_age},
      {"age8_321_half_rr", 8, {3, 2, 1}, half},
  };
}

struct settings {
  std::vector<std::size_t> radix{6, 6, 6};
  double fraction = 1.0;
  std::uint64_t cycles = 16000, seed = 1;
  std::vector<setting> chosen = all_settings();
  cli::experiment_flags shared;
};

const cli::setting_table<settings>& table() {
  using s_t = settings;
  static const cli::setting_table<s_t> t([] {
    std::vector<cli::setting<s_t>> list{
        cli::radix3_setting<s_t>(64, "the torus, 2..64 per dimension (the rows' radix column)")
            .axis(),
        cli::decimal<s_t>(
            "--load-fraction", "F", [](auto& s) -> auto& { return s.fraction; }, 0.05, 1,
            "offered load as a share of uniform traffic's capacity (1: heavy traffic)"),
        cli::whole<s_t>(
            "--cycles", "N", [](auto& s) -> auto& { return s.cycles; }, 100, 100000000,
            "measured cycles (warm-up half as many)"),
        cli::custom<s_t>(
            "--settings", "S,...",
            "round_robin, default (AGE_CLK_PERIOD 0x1000), age4_111, age4_321, age8_111, "
            "age8_321, age16_111, age16_321, predicted (Section 3.2's period and biases), "
            "age8_321_half_rr (AGE_RR_SELECT 0x5555...: every other grant by round robin)",
            [](s_t& s, const std::string& v) {
              std::vector<std::string> known;
              for (const setting& x : all_settings()) known.push_back(x.name);
              s.chosen.clear();
              for (const std::string& name : cli::names("--settings", v, known))
                for (const setting& x : all_settings())
                  if (x.name == name) s.chosen.push_back(x);
            },
            [](const s_t& s) {
              std::string out;
              for (const setting& x : s.chosen) out += (out.empty() ? "" : ",") + x.name;
              return out;
            })
            .axis()
            .defaults("all"),
        cli::whole<s_t>(
            "--seed", "N", [](auto& s) -> auto& { return s.seed; }, 0, 1000000000,
            "the runs' seed")};
    cli::append(list, cli::experiment_flags::settings<s_t>(
                          "the paper's machine: an 11x12x16 torus, 40000 cycles (flags given "
                          "keep their value)"));
    return list;
  }());
  return t;
}

std::string help_text() {
  return "usage: age_parameters [options]\n"
         "\n"
         "The age-epoch arbiter's parameters against round robin (Abts & Weisser,\n"
         "SC'07, Section 4, Table 5) on a SeaStar-shaped torus (the seastar preset)\n"
         "under uniform request/response traffic: per-direction stalled cycles per\n"
         "packet (Eq. 17), latency mean, sd and max, the spread of the sources' mean\n"
         "latency, the departures' age histogram (Table 4's buckets).\n"
         "\n" +
         table().help() +
         "\n"
         "Exit status: 0 done; 1 a run deadlocked; 2 bad input; 3 an output could not\n"
         "be written.\n";
}

int run(int argc, char** argv) {
  settings st;
  const cli::flags flags = table().parse(argc, argv, st);
  cli::experiment_flags& shared = st.shared;
  if (shared.full) {
    if (!flags.given("--radix")) st.radix = {11, 12, 16};
    if (!flags.given("--cycles")) st.cycles = 40000;
  }
  shared.resolve(flags, table().resolved(st));
  const std::vector<std::size_t>& radix = st.radix;
  const double fraction = st.fraction;
  const std::uint64_t cycles = st.cycles, seed = st.seed;
  const std::vector<setting>& chosen = st.chosen;
  // Every router stepped over warm-up, window and the longest drain, per setting.
  shared.check_work(static_cast<double>(radix[0] * radix[1] * radix[2]) *
                        static_cast<double>(cycles / 2 + cycles + 4 * cycles) *
                        static_cast<double>(chosen.size()),
                    "lower --radix, --cycles or --settings");
  const interlock::model::preset p = interlock::model::seastar_preset();
  const interlock::torus_topology t(radix, {}, 1);
  const interlock::dimension_order_routing dor(t);
  const interlock::traffic::uniform_random uniform;
  // Uniform traffic's capacity: the busiest channel, or the processor port.
  const std::vector<double> loads = interlock::channel_loads(dor, uniform);
  const double busiest = *std::max_element(loads.begin(), loads.end());
  const double capacity = std::min(1.0 / busiest, p.model.endpoint_bandwidth);
  interlock::model::config c = p.model;
  c.load = fraction * capacity;
  c.warmup = cycles / 2;
  c.measure = cycles;
  c.drain = 4 * cycles;
  c.seed = seed;
  const interlock::model::age_advice advice = interlock::model::recommended_age(t, c, 2);
  cli::table_output csv = shared.output("age_parameters");
  csv.line(
      "setting,period,bias,age_rr_select,radix,offered,accepted,stalled_px,stalled_mx,"
      "stalled_py,stalled_my,stalled_pz,stalled_mz,latency_mean,latency_sd,latency_max,"
      "network_latency_mean,source_latency_max_min,age_0_63,age_64_127,age_128_191,"
      "age_192_255,inhibited_share," +
      table().columns());
  const std::string config = table().values(st);
  std::printf(
      "Age parameters (Abts & Weisser, SC'07, Section 4, Table 5) on a SeaStar-shaped\n"
      "%zux%zux%zu torus: 9-flit packets, half responses, 96-flit input and 16-flit staging\n"
      "buffers, processor port at 2.1/4.8; uniform traffic at %.2f of its capacity (%.3f\n"
      "flits/node/cycle); %llu measured cycles. Section 3.2 predicts AGE_CLK_PERIOD %u.\n\n",
      radix[0], radix[1], radix[2], fraction, capacity, static_cast<unsigned long long>(cycles),
      advice.age.period);
  std::printf("%-17s %6s %6s  %-29s %8s %7s %6s %11s %s\n", "setting", "period", "bias",
              "stalled/packet +x -x +y -y +z -z", "latency", "sd", "max", "src spread",
              "ages 0-63/64-127/128-191/192-255");
  std::fflush(stdout);
  struct outcome {
    interlock::model::results r;
    std::uint32_t period = 0;
    std::vector<unsigned> bias;
  };
  int status = 0;
  shared.grid(
      chosen.size(),
      [&](std::size_t k, bool) {
        const setting& s = chosen[k];
        outcome out;
        interlock::model::age_config age;
        age.period = s.period != 0 ? s.period : advice.age.period;
        out.period = age.period;
        out.bias = !s.bias.empty() ? s.bias : advice.dimension_bias;
        age.port_bias = interlock::model::biases_by_dimension(t, out.bias);
        const std::uint64_t select = s.select;
        interlock::model::network<interlock::dimension_order_routing, age_arbiter,
                                  interlock::model::separable_input_first, age_arbiter>
            net(
                dor, c,
                [&](node_id n, interlock::splitmix64& g) { return uniform.destination(t, n, g); },
                [select](node_id, std::size_t) { return age_arbiter(select); }, age, {},
                [select](node_id, std::size_t) { return age_arbiter(select); });
        out.r = net.run();
        return out;
      },
      [&](std::size_t k, const outcome& out) {
        const setting& s = chosen[k];
        const interlock::model::results& r = out.r;
        const std::vector<unsigned>& bias = out.bias;
        const std::uint64_t select = s.select;
        if (r.deadlock.deadlocked) status = 1;
        std::string bias_text;
        for (std::size_t i = 0; i < bias.size(); ++i)
          bias_text += (i ? "," : "") + std::to_string(bias[i]);
        std::string csv_bias = bias_text;  // "3/2/1": a CSV cell
        for (char& ch : csv_bias)
          if (ch == ',') ch = '/';
        const auto& o = r.occupancy_by_direction;
        std::printf(
            "%-17s %6u %6s  %4.1f %4.1f %4.1f %4.1f %4.1f %4.1f %8.0f %7.0f %6.0f %11.2f "
            "%llu/%llu/%llu/%llu\n",
            s.name.c_str(), out.period, bias_text.c_str(), o[0][0], o[0][1], o[1][0], o[1][1],
            o[2][0], o[2][1], r.latency_mean, r.latency_sd, r.latency_max, r.source_latency_max_min,
            static_cast<unsigned long long>(r.age_histogram[0]),
            static_cast<unsigned long long>(r.age_histogram[1]),
            static_cast<unsigned long long>(r.age_histogram[2]),
            static_cast<unsigned long long>(r.age_histogram[3]));
        std::fflush(stdout);
        // Latency over no delivered packet is none: an empty cell.
        const auto latency = [&](const char* pattern, double x) {
          return r.measured_delivered == 0 ? std::string() : cli::format(pattern, x);
        };
        csv.line(cli::format("%s,%u,%s,0x%llx,%zux%zux%zu,%.5f,%.5f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,",
                             s.name.c_str(), out.period, csv_bias.c_str(),
                             static_cast<unsigned long long>(select), radix[0], radix[1], radix[2],
                             r.offered, r.accepted, o[0][0], o[0][1], o[1][0], o[1][1], o[2][0],
                             o[2][1]) +
                 latency("%.2f", r.latency_mean) + "," + latency("%.2f", r.latency_sd) + "," +
                 latency("%.0f", r.latency_max) + "," + latency("%.2f", r.network_latency_mean) +
                 "," + latency("%.4f", r.source_latency_max_min) +
                 cli::format(",%llu,%llu,%llu,%llu,%.4f,",
                             static_cast<unsigned long long>(r.age_histogram[0]),
                             static_cast<unsigned long long>(r.age_histogram[1]),
                             static_cast<unsigned long long>(r.age_histogram[2]),
                             static_cast<unsigned long long>(r.age_histogram[3]),
                             r.inhibited_share) +
                 config);
      });
  csv.close();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("age_parameters", help.c_str(), "try a smaller --radix", argc, argv,
                       [&] { return run(argc, argv); });
}
