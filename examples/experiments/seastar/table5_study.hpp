// SPDX-License-Identifier: BSL-1.0
// The Table 5 study (docs/results.md, "The Table 5 study"): its workloads,
// its queue depths and arbitration settings, and its design and grid files.
//
// Contract
//   workloads() are the study's traffic on a SeaStar-shaped torus (the
//   seastar preset), each with its torus, pattern, processor port and
//   share of responses; queues() the two queue depths (the SeaStar's
//   96-flit input and 16-flit staging buffers, and shallower: 48 and 9, the
//   least that holds a 9-flit packet). An arbitration setting is round
//   robin (period "round_robin", bias "none") or age with a period (4, 8,
//   16, 32, or "predicted": Section 3.2's for the network, queues and bias)
//   and a bias per dimension "x/y/z" (1/1/1, 3/2/1, 1/2/3).
//   read_design(text, path) reads the registered points, each run with
//   seeds 1, 2 and 3; read_grid(text, path) the rows the runner appends,
//   one per run. Both refuse with "path:line:column: ..." (a
//   cli::bad_input) a wrong header, a field that is not what its column
//   holds, a radix that is not the workload's and a run given twice.
//   grid_row() writes a run's row in the grid's columns.
#ifndef INTERLOCK_EXAMPLES_SEASTAR_TABLE5_STUDY_HPP
#define INTERLOCK_EXAMPLES_SEASTAR_TABLE5_STUDY_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <interlock/traffic/pattern_mix.hpp>
#include <interlock/traffic/patterns.hpp>

#include "cli.hpp"
#include "csv_file.hpp"

namespace table5 {

enum class traffic { uniform, neighbor_hotspot };

struct workload {
  std::string name;
  std::vector<std::size_t> radix;
  traffic pattern = traffic::uniform;
  bool processor_port_is_seastar = true;  // 2.1/4.8 of a link; else the link's rate
  double response_share = 0.5;
};

/// The hot node's share of every source's packets under neighbor_hotspot.
constexpr double hotspot_share = 0.01;

/// neighbor_hotspot's pattern: 1-hop neighbour traffic ([Towles14] Section
/// 4.1's), with hotspot_share of every source's packets to node 0 instead.
inline interlock::traffic::pattern_mix<interlock::traffic::neighbor, interlock::traffic::hotspot>
hotspot_mix() {
  return {{1}, {0, 1.0}, hotspot_share};
}

inline const std::vector<workload>& workloads() {
  static const std::vector<workload> w = {
      {"uniform_eject", {6, 6, 6}, traffic::uniform, true, 0.5},
      {"uniform_link", {6, 6, 12}, traffic::uniform, false, 0.5},
      {"uniform_xt3", {11, 12, 16}, traffic::uniform, false, 0.5},
      {"neighbor_hotspot", {6, 6, 12}, traffic::neighbor_hotspot, false, 0.5},
      {"uniform_link_requests", {6, 6, 12}, traffic::uniform, false, 0.0},
  };
  return w;
}

struct queue_depth {
  std::string name;
  unsigned input = 0, staging = 0;
};
inline const std::vector<queue_depth>& queues() {
  static const std::vector<queue_depth> q = {{"seastar", 96, 16}, {"shallow", 48, 9}};
  return q;
}

inline const std::vector<std::string>& periods() {
  static const std::vector<std::string> p = {"round_robin", "4", "8", "16", "32", "predicted"};
  return p;
}
inline const std::vector<std::string>& biases() {
  static const std::vector<std::string> b = {"none", "1/1/1", "3/2/1", "1/2/3"};
  return b;
}
/// The loads, in hundredths of the workload's capacity.
inline const std::vector<std::string>& loads() {
  static const std::vector<std::string> l = {"0.5", "0.8", "1.0", "1.2"};
  return l;
}

inline const workload& workload_named(const std::string& name) {
  for (const workload& w : workloads())
    if (w.name == name) return w;
  throw cli::bad_input{"no workload '" + name + "'"};
}
inline const queue_depth& queue_named(const std::string& name) {
  for (const queue_depth& q : queues())
    if (q.name == name) return q;
  throw cli::bad_input{"no queue depth '" + name + "'"};
}
inline std::string radix_text(const std::vector<std::size_t>& r) {
  std::string s;
  for (std::size_t i = 0; i < r.size(); ++i) s += (i ? "x" : "") + std::to_string(r[i]);
  return s;
}

/// One point of the design and one arbitration setting at it.
struct planned {
  std::string workload, load, period, bias, queue;
  bool round_robin() const { return period == "round_robin"; }
  std::vector<unsigned> bias_values() const {
    std::vector<unsigned> v;
    if (round_robin()) return {1, 1, 1};
    for (const std::string& b : cli::split(bias, '/'))
      v.push_back(static_cast<unsigned>(std::stoul(b)));
    return v;
  }
  double load_fraction() const { return std::stod(load); }
};

/// What a run measured (latencies in cycles, network latency: from leaving
/// the source queue to delivery).
struct measured {
  double capacity = 0, offered = 0, accepted = 0;
  std::uint32_t age_period = 0;  // AGE_CLK_PERIOD run (0: round robin)
  double latency_mean = 0, latency_sd = 0, latency_p99 = 0, latency_max = 0;
  double latency_total_mean = -1;  // creation to delivery; < 0: not reported (load >= 1)
  double source_spread = 0;        // max/min of the sources' mean network latency
  double stall[3][2] = {};         // Eq. 17 per dimension, + and -
  std::uint64_t ages[4] = {};      // departures in Table 4's buckets
  double inhibited = 0;
  bool complete = false, deadlocked = false;
  double seconds = 0;
};

struct row {
  planned run;
  std::uint64_t seed = 0;
  measured m;
};

constexpr std::uint64_t seeds = 3;

inline const char* design_header() { return "workload,load,period,bias,queue"; }
inline const char* grid_header() {
  return "workload,radix,load,period,bias,queue,seed,accepted,latency_mean,latency_max,stall_x,"
         "stall_y,stall_z,capacity,offered,accepted_fraction,age_period,latency_sd,latency_p99,"
         "latency_total_mean,source_spread,stall_px,stall_mx,stall_py,stall_my,stall_pz,stall_mz,"
         "age_0_63,age_64_127,age_128_191,age_192_255,inhibited_share,complete,deadlocked,seconds";
}

inline std::string grid_row(const planned& p, std::uint64_t seed, const measured& m) {
  const workload& w = workload_named(p.workload);
  const auto mean2 = [&](std::size_t d) { return (m.stall[d][0] + m.stall[d][1]) / 2; };
  std::string total = m.latency_total_mean < 0 ? "" : cli::format("%.2f", m.latency_total_mean);
  return cli::format(
      "%s,%s,%s,%s,%s,%s,%llu,%.5f,%.2f,%.0f,%.3f,%.3f,%.3f,%.5f,%.5f,%.4f,%u,%.2f,%.0f,%s,%.4f,"
      "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%llu,%llu,%llu,%llu,%.4f,%d,%d,%.1f",
      p.workload.c_str(), radix_text(w.radix).c_str(), p.load.c_str(), p.period.c_str(),
      p.bias.c_str(), p.queue.c_str(), static_cast<unsigned long long>(seed), m.accepted,
      m.latency_mean, m.latency_max, mean2(0), mean2(1), mean2(2), m.capacity, m.offered,
      m.capacity > 0 ? m.accepted / m.capacity : 0.0, m.age_period, m.latency_sd, m.latency_p99,
      total.c_str(), m.source_spread, m.stall[0][0], m.stall[0][1], m.stall[1][0], m.stall[1][1],
      m.stall[2][0], m.stall[2][1], static_cast<unsigned long long>(m.ages[0]),
      static_cast<unsigned long long>(m.ages[1]), static_cast<unsigned long long>(m.ages[2]),
      static_cast<unsigned long long>(m.ages[3]), m.inhibited, m.complete ? 1 : 0,
      m.deadlocked ? 1 : 0, m.seconds);
}

namespace detail {

// The columns a design and a grid share, from column `k` on: workload,
// load, period, bias, queue (a grid has the radix after the workload).
inline planned read_point(const cli::csv_field& f, bool grid) {
  planned p;
  std::vector<std::string> names;
  for (const workload& w : workloads()) names.push_back(w.name);
  p.workload = f.one_of(0, names);
  std::size_t k = 1;
  if (grid) {
    const std::string want = radix_text(workload_named(p.workload).radix);
    if (f.text(1) != want)
      throw cli::bad_input{f.where(1) + ": '" + f.text(1) + "'; " + p.workload + " runs on " +
                           want};
    k = 2;
  }
  p.load = f.one_of(k, loads());
  p.period = f.one_of(k + 1, periods());
  p.bias = f.one_of(k + 2, biases());
  if ((p.period == "round_robin") != (p.bias == "none"))
    throw cli::bad_input{f.where(k + 2) + ": " + p.bias + " with period " + p.period +
                         "; allowed: none with round_robin alone"};
  std::vector<std::string> qs;
  for (const queue_depth& q : queues()) qs.push_back(q.name);
  p.queue = f.one_of(k + 3, qs);
  return p;
}

using run_key = std::tuple<std::string, std::string, std::string, std::string, std::string>;
inline run_key key_of(const planned& p) {
  return run_key{p.workload, p.load, p.period, p.bias, p.queue};
}

}  // namespace detail

inline std::vector<planned> read_design(const std::string& text, const std::string& path) {
  std::vector<planned> design;
  std::map<detail::run_key, std::size_t> seen;
  for (const cli::csv_line& x : cli::csv_lines(text, path, design_header())) {
    const cli::csv_field f{path, x, cli::split(design_header())};
    const planned p = detail::read_point(f, false);
    cli::unique_run(seen, detail::key_of(p), path, x.number);
    design.push_back(p);
  }
  return design;
}

inline std::vector<row> read_grid(const std::string& text, const std::string& path) {
  std::vector<row> rows;
  std::map<std::pair<detail::run_key, std::uint64_t>, std::size_t> seen;
  for (const cli::csv_line& x : cli::csv_lines(text, path, grid_header())) {
    const cli::csv_field f{path, x, cli::split(grid_header())};
    row r;
    r.run = detail::read_point(f, true);
    r.seed = f.whole(6, 1, 1000);
    measured& m = r.m;
    m.accepted = f.real(7);
    m.latency_mean = f.real(8);
    m.latency_max = f.real(9);
    for (std::size_t k = 10; k <= 12; ++k) f.real(k);  // stall_x..z: the means of 21..26
    m.capacity = f.real(13);
    m.offered = f.real(14);
    f.real(15);  // accepted_fraction: accepted / capacity
    m.age_period = static_cast<std::uint32_t>(f.whole(16, 0, 65535));
    m.latency_sd = f.real(17);
    m.latency_p99 = f.real(18);
    if (!f.text(19).empty()) m.latency_total_mean = f.real(19);
    m.source_spread = f.real(20);
    for (std::size_t d = 0; d < 3; ++d)
      for (std::size_t s = 0; s < 2; ++s) m.stall[d][s] = f.real(21 + 2 * d + s);
    for (std::size_t b = 0; b < 4; ++b) m.ages[b] = f.whole(27 + b, 0, ~std::uint64_t{0} >> 8);
    m.inhibited = f.real(31);
    m.complete = f.whole(32, 0, 1) == 1;
    m.deadlocked = f.whole(33, 0, 1) == 1;
    m.seconds = f.real(34);
    cli::unique_run(seen, std::make_pair(detail::key_of(r.run), r.seed), path, x.number);
    rows.push_back(r);
  }
  return rows;
}

}  // namespace table5

#endif  // INTERLOCK_EXAMPLES_SEASTAR_TABLE5_STUDY_HPP
