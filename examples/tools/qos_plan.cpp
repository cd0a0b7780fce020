// SPDX-License-Identifier: BSL-1.0
// qos_plan: from SL requirements (bandwidth share, maximum table distance, MTU) to a DTable and
// an InfiniBand VL arbitration table by [QoSThesis]'s configuration methodology (Sections
// 4.3.3.2-4.3.3.3 and 5.5.3), then runs of the model's 48-port switch that show whether the
// shares and the latency order hold.
//
//   qos_plan [--sls NAME:SHARE:DISTANCE:MTU,...] [--entries N] [--gmtu BYTES] [--w W --k K]
//            [--loads L,...] [--seeds N] [--csv FILE]   (qos_plan_args.hpp: every setting)
#include <interlock/model/qos_switch.hpp>
#include <interlock/qos/dtable_config.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "qos_plan_args.hpp"

namespace qs = interlock::model::qos_switch;

namespace {

std::string help() {
  return "usage: qos_plan [options]\n"
         "\n"
         "Plans an output table from each SL's requirements, as [QoSThesis] Section\n"
         "5.5.3 configures Table 5.4: an SL whose table entries may be at most D apart\n"
         "gets N / D entries (entries left over go to the SLs with the largest\n"
         "distance); k is the smallest multiple of 0.1 that lets every SL's MTU fit\n"
         "its share (min_phi <= share), then w the smallest multiple of 0.1 from k\n"
         "that lets every share fit the entries (max_phi >= share); the methodology\n"
         "and its bandwidth correction give the DTable's entry weights. The\n"
         "InfiniBand table is the same entries as (VL, weight in 64-byte units), in\n"
         "the low-priority table. Then one 48-port switch (Chapter 2's, with 64-byte\n"
         "flits), each SL on its own SC and VL, every NIC injecting each SL at\n"
         "share x load flits/cycle in packets of its MTU to uniform destinations:\n"
         "per scheduler and load, each SL's share of the delivered flits against its\n"
         "requirement, and whether mean latency follows the distances.\n"
         "\n" +
         qos_plan_tool::table().help() +
         "\n"
         "Exit status: 0 done; 2 bad input (a requirement the methodology cannot meet\n"
         "names the SL and its range); 3 an output could not be written.\n";
}

int run(int argc, char** argv) {
  qos_plan_tool::settings s = qos_plan_tool::parse(argc, argv);
  const std::vector<qos_plan_tool::requirement>& req = s.sls;
  const std::size_t entries = s.entries;
  double& w = s.w;  // 0 until searched
  double& k = s.k;
  const std::size_t sls = req.size();
  constexpr std::uint32_t credit = 64;
  std::vector<std::uint32_t> mtu(sls);
  std::uint32_t largest = 0;
  for (std::size_t i = 0; i < sls; ++i) {
    mtu[i] = (req[i].mtu_bytes + credit - 1) / credit;
    largest = std::max(largest, mtu[i]);
  }
  const std::uint32_t gmtu = s.gmtu_bytes == 0 ? largest : (s.gmtu_bytes + credit - 1) / credit;
  if (gmtu < largest)
    throw cli::bad_input{"--gmtu: " + std::to_string(s.gmtu_bytes) +
                         " bytes is below the largest MTU (" + std::to_string(largest * credit) +
                         " bytes)"};

  // Entries from distances; what is left goes to the largest distances.
  std::vector<interlock::qos::dtable_sl> plan_sls(sls);
  std::size_t used = 0;
  for (std::size_t i = 0; i < sls; ++i) {
    plan_sls[i] = {std::max<std::size_t>(1, entries / req[i].distance), mtu[i]};
    used += plan_sls[i].entries;
  }
  if (used > entries)
    throw cli::bad_input{"--sls: the distances need " + std::to_string(used) +
                         " entries; the table has " + std::to_string(entries) +
                         " (--entries, or longer distances)"};
  std::vector<std::size_t> by_distance(sls);
  for (std::size_t i = 0; i < sls; ++i) by_distance[i] = i;
  std::stable_sort(by_distance.begin(), by_distance.end(),
                   [&](std::size_t a, std::size_t b) { return req[a].distance > req[b].distance; });
  for (std::size_t i = 0; used < entries; i = (i + 1) % sls, ++used)
    ++plan_sls[by_distance[i]].entries;
  std::vector<double> phi(sls);
  for (std::size_t i = 0; i < sls; ++i) phi[i] = req[i].share;

  // k, then w, in steps of 0.1 (Section 5.5.3), unless given.
  const bool searched = w == 0;
  if (searched) {
    const auto tenth = [](int t) { return t / 10.0; };
    int kt = 1;
    for (;; ++kt) {
      bool fits = true;
      for (std::size_t i = 0; i < sls; ++i)
        fits =
            fits && double(plan_sls[i].entries) * mtu[i] / (double(entries) * gmtu * tenth(kt)) <=
                        phi[i] + 1e-12;
      if (fits || kt > 100000) break;
    }
    k = tenth(kt);
    for (int wt = kt;; ++wt) {
      const double m = std::floor(gmtu * tenth(wt) + 1e-9);
      bool fits = true;
      for (std::size_t i = 0; i < sls; ++i)
        fits = fits &&
               double(plan_sls[i].entries) * m / (double(entries) * gmtu * k) >= phi[i] - 1e-12;
      if (fits || wt > 100000) {
        w = tenth(wt);
        break;
      }
    }
  }
  const interlock::qos::dtable_plan plan = [&] {
    try {
      return interlock::qos::plan_dtable({entries, gmtu, w, k}, plan_sls, phi);
    } catch (const interlock::config_error& e) {
      // The methodology's fields, said as the flags that set them.
      const std::string& f = e.field();
      const std::string flag = f == "w"                        ? "--w"
                               : f == "k"                      ? "--k"
                               : f.rfind("sum of n_i", 0) == 0 ? "--entries"
                                                               : "--sls";
      throw cli::bad_input{flag + ": " + f + " = " + e.value() + "; allowed: " + e.allowed()};
    }
  }();

  std::printf(
      "DTable: N = %zu, GMTU = %u credits of 64 bytes, w = %g, k = %g%s: M = %u, pool = %g\n",
      entries, gmtu, w, k, searched ? " (searched)" : "", plan.max_entry_weight, plan.pool);
  std::printf("  %-6s %5s %8s %6s %8s %8s %7s %7s %7s\n", "SL", "share", "distance", "#entr", "MTU",
              "min_phi", "max_phi", "E.W.", "T.W.");
  for (std::size_t i = 0; i < sls; ++i) {
    std::uint32_t lo = ~0u, hi = 0;
    for (const auto& e : plan.table)
      if (e.sl == i) {
        lo = std::min(lo, e.weight);
        hi = std::max(hi, e.weight);
      }
    std::printf("  %-6s %5.3f %8zu %6zu %8u %8.4f %8.3f %3u-%-3u %7llu\n", req[i].name.c_str(),
                phi[i], req[i].distance, plan_sls[i].entries, req[i].mtu_bytes, plan.sls[i].min_phi,
                plan.sls[i].max_phi, lo, hi,
                static_cast<unsigned long long>(plan.sls[i].final_weight));
  }
  std::printf("  table (SL:weight, in order):");
  for (std::size_t e = 0; e < plan.table.size(); ++e)
    std::printf("%s%u:%u", e % 16 == 0 ? "\n    " : " ", plan.table[e].sl, plan.table[e].weight);
  interlock::qos::ib_vl_arbitration_config ib;
  for (const auto& e : plan.table) {
    if (e.weight > 255)
      throw cli::bad_input{"--sls: an entry weight of " + std::to_string(e.weight) +
                           " credits exceeds InfiniBand's 255 units"};
    ib.low.push_back({e.sl, static_cast<std::uint8_t>(e.weight)});
  }
  std::printf(
      "\nInfiniBand low-priority table: the same %zu entries as (VL, 64-byte units), VL = SL\n\n",
      ib.low.size());

  // The switch: each SL on its own SC and VL; 64-byte flits.
  std::vector<std::uint8_t> ident(sls);
  for (std::size_t i = 0; i < sls; ++i) ident[i] = static_cast<std::uint8_t>(i);
  const qs::service_levels levels(ident, ident);
  qs::shape shape = qs::opa_48_port();
  shape.flit_bytes = shape.credit_bytes = credit;
  shape.input_flits = shape.output_flits = shape.central_flits =
      std::max<std::uint32_t>(256, 8 * gmtu);
  shape.vl_max_flits = shape.input_flits;
  shape.vl_min_flits = std::min<std::uint32_t>(gmtu, shape.input_flits / std::uint32_t(sls));
  shape.latency = {1, 4, 6, 1, 0, 1};
  shape.whole_packet_crossing = s.whole_packets;
  std::vector<double> normalized_phi = phi;
  double total_phi = 0;
  for (const double p : phi) total_phi += p;
  for (double& p : normalized_phi) p /= total_phi;
  const qs::sl_traffic offered{normalized_phi, mtu};

  cli::output_file csv("--csv", s.csv);
  // What the run derived (the general MTU, w and k when searched) is what
  // its rows were run with.
  s.gmtu_bytes = gmtu * credit;
  const std::string config = qos_plan_tool::table().values(s);
  csv.line(
      "scheduler,load,sl,name,share,distance,throughput,normalized_throughput,latency_mean,"
      "mtu_bytes," +
      qos_plan_tool::table().columns());
  const auto sweep = [&](const char* name, const auto& scheduler) {
    for (const double load : s.loads) {
      using S = std::decay_t<decltype(scheduler)>;
      const std::vector<qs::sl_result> m = qs::mean_over_seeds(s.seeds, [&](std::uint64_t seed) {
        qs::network<S> net(qs::single_switch(qos_plan_tool::ports), shape, levels, offered,
                           scheduler);
        net.run(qs::pattern::uniform, load, qos_plan_tool::warmup, s.cycles, seed);
        return net.results();
      });
      std::printf("%s, load %.2f:\n  %-6s %6s %9s %9s\n", name, load, "SL", "share", "delivered",
                  "latency");
      bool ordered = true;
      std::size_t measured = 0;
      for (std::size_t i = 0; i < sls; ++i) {
        std::printf("  %-6s %6.3f %s %s\n", req[i].name.c_str(), normalized_phi[i],
                    cli::figure("%9.3f", m[i].normalized_throughput, 9).c_str(),
                    cli::figure("%9.0f", m[i].latency_mean, 9).c_str());
        if (m[i].latency_mean == m[i].latency_mean) ++measured;
        // Over the SLs that delivered: a latency over no message orders nothing.
        for (std::size_t j = 0; j < sls; ++j)
          if (req[j].distance < req[i].distance && m[j].latency_mean > m[i].latency_mean)
            ordered = false;
        csv.line(cli::format("%s,%.2f,%zu,%s,%.5f,%zu,%.5f,%s,%s,%u,", name, load, i,
                             req[i].name.c_str(), normalized_phi[i], req[i].distance,
                             m[i].throughput, cli::cell("%.5f", m[i].normalized_throughput).c_str(),
                             cli::cell("%.1f", m[i].latency_mean).c_str(), req[i].mtu_bytes) +
                 config);
      }
      if (measured < 2) {
        std::printf("  latency against the distances: inconclusive (%zu SL%s delivered)\n\n",
                    measured, measured == 1 ? "" : "s");
      } else if (measured < sls) {
        std::printf("  latency %s the distances over the %zu SLs that delivered\n\n",
                    ordered ? "follows" : "does not follow", measured);
      } else {
        std::printf("  latency %s the distances\n\n", ordered ? "follows" : "does not follow");
      }
    }
  };
  sweep("dtable", qs::dtable_for(levels, plan.table, mtu));
  sweep("ib", qs::ib_for(ib));
  csv.close();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string text = help();
  return cli::run_tool("qos_plan", text.c_str(), "try fewer --entries", argc, argv,
                       [&] { return run(argc, argv); });
}
