// SPDX-License-Identifier: BSL-1.0
// The runner's other studies: the Anton 2 decomposition study (runs of
// saturation under the arbiter family's forms and the router's readings,
// with rows a condition waits for), the Table 5 study (whose program,
// table5_study, runs its whole design itself) and the QoS switch's crossbar
// speed-up study (runs of qos_switch).
//
// Contract
//   decomposition_kind(where, parts): per design row (part, setting, its
//   network, pattern, router reading, arbiter, batch, condition) and seed
//   1-3, a saturation run with the reading's flags and the family's counts;
//   A4's rows before A1's, the parts in `parts`' order, the design's order
//   within; a row whose condition is not yet met (registration.md:
//   arm_1024_at_least_0.80, hardware_1024_at_least_0.80: the mean over the
//   three seeds, all finished, at 1,024) waits for a later round. Its
//   verdict: decomposition_verdict to verdict.md. table5_kind(where,
//   workloads): table5_study over the design (its own runs, resumed, on the
//   runner's jobs), then table5_verdict to verdict.md.
//   switch_speedup_kind(where): a qos_switch run (configuration A) per design
//   row (speed-up, traffic, scheduler, load) and seed 1-3, its SLs' rows
//   summed and listed; switch_speedup_verdict to verdict.md.
#ifndef INTERLOCK_EXAMPLES_STUDY_OTHERS_HPP
#define INTERLOCK_EXAMPLES_STUDY_OTHERS_HPP

#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "study_kinds.hpp"
#include "study_runner.hpp"

namespace study {

class decomposition_kind : public study_kind {
 public:
  decomposition_kind(places where, std::vector<std::string> parts)
      : w_(std::move(where)), parts_(std::move(parts)) {}

  std::string design_header() const override {
    return "part,setting,size,router_buffer,adapter_buffer,torus_latency,pipeline,pattern,router,"
           "arbiter,batch,condition";
  }
  std::string grid_header() const override {
    return "part,setting,size,router_buffer,adapter_buffer,torus_latency,pipeline,pattern,router,"
           "arbiter,batch,seed,normalized,spread,finished,last_arrival,request_share,"
           "request_share_p10,grants,slides,zeroed_per_grant,quota_lost_per_grant,spread_mean,"
           "spread_max,seconds";
  }
  std::size_t key_fields() const override { return 12; }

  std::vector<planned_run> due(const table& d, const table& grid,
                               const std::set<std::vector<std::string>>&) const override {
    std::vector<planned_run> runs;
    for (const char* setting : {"A4", "A1"})
      for (const std::string& part : parts_)
        for (const auto& row : d.rows) {
          if (row[0] != part || row[1] != setting || !decided(row, grid)) continue;
          for (std::size_t seed = 1; seed <= 3; ++seed) runs.push_back(make(row, seed));
        }
    return runs;
  }

  finished_run collect(const planned_run&, const scratch_folder& out) const override {
    const auto [t, k] = row_where(out.file("run.csv"), "node", "anton2");
    finished_run f;
    for (const char* c : {"normalized_throughput", "completion_spread", "finished", "last_arrival",
                          "request_share", "request_share_p10"})
      f.fields += (f.fields.empty() ? "" : ",") + t.at(k, c);
    const std::vector<const char*> counted = {"grants",           "slides",
                                              "zeroed_per_grant", "quota_lost_per_grant",
                                              "spread_mean",      "spread_max"};
    bool found = false;
    {
      std::ifstream in(out.file("counts.csv"));
      std::string header, line;
      found = std::getline(in, header) && std::getline(in, line);
    }
    if (found) {
      const auto [c, j] = row_where(out.file("counts.csv"), "node", "anton2");
      for (const char* x : counted) f.fields += "," + c.at(j, x);
    } else {
      for (std::size_t i = 0; i < counted.size(); ++i) f.fields += ",none";
    }
    f.fields += "," + t.at(k, "seconds");
    return f;
  }

  int check() const override {
    return run_to({w_.bin + "/decomposition_verdict", "--design", w_.folder + "/design.csv",
                   "--grid", w_.folder + "/grid.csv", "--refused", w_.folder + "/refused.csv"},
                  "/dev/null");
  }

  int verdict() const override {
    return verdict_lines(
        {w_.bin + "/decomposition_verdict", "--design", w_.folder + "/design.csv", "--grid",
         w_.folder + "/grid.csv", "--refused", w_.folder + "/refused.csv"},
        w_.folder + "/verdict.md", "Figure 9 verdict");
  }

 private:
  // Whether a row's condition lets it run now.
  static bool decided(const std::vector<std::string>& row, const table& grid) {
    const std::string& condition = row[11];
    if (condition == "always") return true;
    const std::string arbiter =
        condition == "hardware_1024_at_least_0.80" ? "iw:levels.mbit.window" : row[9];
    double sum = 0;
    std::size_t n = 0;
    bool finished = true;
    for (const auto& g : grid.rows) {
      if (g[0] != row[0] || g[1] != row[1] || g[7] != row[7] || g[8] != row[8] || g[9] != arbiter ||
          g[10] != "1024")
        continue;
      sum += std::stod(g[12]);
      finished = finished && g[14] == "1";
      ++n;
    }
    return n == 3 && finished && sum / 3 >= 0.80;
  }

  planned_run make(const std::vector<std::string>& row, std::size_t seed) const {
    planned_run p;
    p.key.assign(row.begin(), row.begin() + 11);
    p.key.push_back(std::to_string(seed));
    p.argv = {w_.bin + "/saturation",
              "--radix",
              row[2],
              "--nodes",
              "anton2",
              "--patterns",
              row[7],
              "--arbiters",
              row[9],
              "--batches",
              row[10],
              "--buffer-flits",
              row[3],
              "--adapter-buffer-flits",
              row[4],
              "--torus-latency",
              row[5],
              "--pipeline",
              row[6],
              "--seed",
              std::to_string(seed),
              "--jobs",
              "1"};
    const std::vector<std::string> flags = reading_flags(row[8]);
    p.argv.insert(p.argv.end(), flags.begin(), flags.end());
    p.argv.insert(p.argv.end(), {"--csv", "{out}/run.csv", "--counts", "{out}/counts.csv"});
    p.label = cli::joined(p.key);
    return p;
  }

  places w_;
  std::vector<std::string> parts_;
};

class switch_speedup_kind : public study_kind {
 public:
  explicit switch_speedup_kind(places where) : w_(std::move(where)) {}
  std::string design_header() const override { return "speedup,traffic,scheduler,load"; }
  std::string grid_header() const override {
    return "speedup,traffic,scheduler,load,seed,offered,delivered,sl0,sl1,sl2,share0,share1,"
           "share2,latency0,latency1,latency2";
  }
  std::size_t key_fields() const override { return 5; }
  std::vector<planned_run> due(const table& d, const table&,
                               const std::set<std::vector<std::string>>&) const override {
    std::vector<planned_run> runs;
    for (const auto& row : d.rows)
      for (std::size_t seed = 1; seed <= 3; ++seed) {
        planned_run p;
        p.key = row;
        p.key.push_back(std::to_string(seed));
        p.argv = {w_.bin + "/qos_switch",
                  "--preset",
                  "A",
                  "--speedup",
                  row[0],
                  "--traffic",
                  row[1],
                  "--scheduler",
                  row[2],
                  "--load",
                  row[3],
                  "--seeds",
                  "1",
                  "--first-seed",
                  std::to_string(seed),
                  "--jobs",
                  "1",
                  "--csv",
                  "{out}/run.csv"};
        p.label = cli::joined(p.key);
        runs.push_back(p);
      }
    return runs;
  }
  finished_run collect(const planned_run&, const scratch_folder& out) const override {
    double offered = 0, delivered = 0;
    std::string thr, share, latency;
    for (const char* sl : {"0", "1", "2"}) {
      const auto [t, k] = row_where(out.file("run.csv"), "sl", sl);
      offered += std::stod(t.at(k, "offered"));
      delivered += std::stod(t.at(k, "throughput"));
      thr += "," + t.at(k, "throughput");
      share += "," + t.at(k, "normalized_throughput");
      latency += "," + t.at(k, "latency_mean");
    }
    finished_run f;
    f.fields = cli::format("%.5f,%.5f", offered, delivered) + thr + share + latency;
    return f;
  }
  int check() const override {
    return run_to({w_.bin + "/switch_speedup_verdict", "--design", w_.folder + "/design.csv",
                   "--grid", w_.folder + "/grid.csv"},
                  "/dev/null");
  }
  int verdict() const override {
    return verdict_lines({w_.bin + "/switch_speedup_verdict", "--design", w_.folder + "/design.csv",
                          "--grid", w_.folder + "/grid.csv"},
                         w_.folder + "/verdict.md", "Switch saturation verdict");
  }

 private:
  places w_;
};

class table5_kind : public study_kind {
 public:
  table5_kind(places where, std::string workloads)
      : w_(std::move(where)), workloads_(std::move(workloads)) {}
  std::string design_header() const override { return "workload,load,period,bias,queue"; }
  std::string grid_header() const override { return ""; }
  std::size_t key_fields() const override { return 0; }
  std::vector<planned_run> due(const table&, const table&,
                               const std::set<std::vector<std::string>>&) const override {
    return {};
  }
  finished_run collect(const planned_run&, const scratch_folder&) const override { return {}; }
  bool runs_itself() const override { return true; }
  int run_itself(std::size_t jobs) const override {
    std::vector<std::string> argv = {
        w_.bin + "/table5_study", "--design", w_.folder + "/design.csv", "--grid",
        w_.folder + "/grid.csv",  "--jobs",   std::to_string(jobs)};
    if (!workloads_.empty()) argv.insert(argv.end(), {"--workloads", workloads_});
    std::fflush(stdout);
    const int status = run_to(argv, "-");
    return status == 1 ? 0 : status;  // 1: a run that did not finish, a result
  }
  int verdict() const override {
    return verdict_lines(
        {w_.bin + "/table5_verdict", "--design", w_.folder + "/design.csv", "--grid",
         w_.folder + "/grid.csv", "--csv", w_.summary + "/table5_summary.csv"},
        w_.folder + "/verdict.md", "Table 5");
  }

 private:
  places w_;
  std::string workloads_;
};

}  // namespace study

#endif  // INTERLOCK_EXAMPLES_STUDY_OTHERS_HPP
