// SPDX-License-Identifier: BSL-1.0
// The Anton 2 studies the runner knows (docs/results/studies/README.md):
// figure9, figure9_onehop and figure9_exact, runs of saturation; figure10,
// runs of blend. Each a study_kind (study_runner.hpp): its files' headers,
// the order its runs are due in, the program's arguments per run, the row
// made of what the program wrote (read by column name), and its verdict.
//
// Contract
//   figure9_kind(where, pattern, max_batch): a saturation run on Anton 2's
//   node per design row (size, arbiter, buffers, torus latency, pipeline,
//   batch) and seed 1-3, network setting by setting in the design's order,
//   within one the largest batches first, then seed; the cores' completion
//   by position and the torus links' use per 1,000 cycles appended to
//   positions.csv and timeline.csv, each line prefixed with the run's
//   network and seed. Its verdict: figure9_verdict to verdict.md (with the
//   count of refusals), figure9_profile to profile.md, gnuplot (when
//   installed) to grid.png. figure10_kind(where, max_batch, reading): a
//   blend run per design row (setting, arbiter, blend f, batch) and seed,
//   in the design's order, with the router reading's flags (reading_flags:
//   the decomposition study's readings); figure10_verdict, gnuplot. `consistent` is 1 when the
//   adapters' buffers cover a torus link's credit round trip (as
//   anton2/study_setting.hpp computes it).
#ifndef INTERLOCK_EXAMPLES_STUDY_KINDS_HPP
#define INTERLOCK_EXAMPLES_STUDY_KINDS_HPP

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "study_process.hpp"
#include "study_runner.hpp"

namespace study {

/// Where a study's files and programs are.
struct places {
  std::string folder;   // docs/results/studies/NAME
  std::string bin;      // the programs
  std::string summary;  // build/experiments: the verdicts' summaries
  std::string name;
};

/// The first data row of the CSV at `path` whose column `key` is `value`:
/// (table, row), or bad_input naming the file.
inline std::pair<table, std::size_t> row_where(const std::string& path, const std::string& key,
                                               const std::string& value) {
  std::ifstream in(path);
  std::string header;
  if (!in || !std::getline(in, header)) throw cli::bad_input{path + ": the program wrote no CSV"};
  table t = read_table("output", path, header);
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    if (t.at(r, key) == value) return {t, r};
  throw cli::bad_input{path + ": no row with " + key + " " + value};
}

/// Every data line of the CSV at `path`, each prefixed with `prefix`.
inline std::string lines_after_header(const std::string& path, const std::string& prefix) {
  std::ifstream in(path);
  std::string line, out;
  std::getline(in, line);
  while (std::getline(in, line))
    if (!line.empty()) out += prefix + line + "\n";
  return out;
}

inline std::string consistent(const std::string& adapter, const std::string& latency) {
  const double x = 89.6 / 288 * (2 * (1 + std::stod(latency)) + 2);
  double c = std::floor(x);
  if (c < x - 1e-9) c += 1;
  return std::stod(adapter) >= c ? "1" : "0";
}

/// Runs a program, its standard output to `output`; its status.
inline int run_to(const std::vector<std::string>& argv, const std::string& output) {
  scratch_folder s;
  int error = 0;
  const int status = run_program(argv, output, s.file("messages.txt"), error);
  std::ifstream m(s.file("messages.txt"));
  const std::string said((std::istreambuf_iterator<char>(m)), std::istreambuf_iterator<char>());
  std::fputs(said.c_str(), stderr);
  if (status < 0) std::fprintf(stderr, "%s: cannot run it\n", argv[0].c_str());
  return status;
}

/// The verdict program's output, to `file` by way of FILE.tmp, with the
/// count of refused runs added; printed. Its status.
inline int write_verdict(const std::vector<std::string>& argv, const std::string& file,
                         const std::string& refused, const std::string& program) {
  const int status = run_to(argv, file + ".tmp");
  if (status != 0) {
    std::remove((file + ".tmp").c_str());
    return status;
  }
  std::size_t refusals = 0;
  {
    std::ifstream in(refused);
    std::string line;
    for (std::getline(in, line); std::getline(in, line);)
      if (!line.empty()) ++refusals;
  }
  if (refusals > 0)
    append(file + ".tmp", cli::format("\n%zu of the design's runs refused by %s (%s, with its "
                                      "message).\n",
                                      refusals, program.c_str(), refused.c_str()));
  if (std::rename((file + ".tmp").c_str(), file.c_str()) != 0)
    throw std::runtime_error("cannot write " + file);
  std::ifstream in(file);
  std::fputs(
      std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()).c_str(),
      stdout);
  return 0;
}

/// The verdict program's output, to `file` by way of FILE.tmp; prints its
/// lines that start with `prefix` (the verdict lines). Its status.
inline int verdict_lines(const std::vector<std::string>& argv, const std::string& file,
                         const std::string& prefix) {
  const int status = run_to(argv, file + ".tmp");
  if (status != 0) {
    std::remove((file + ".tmp").c_str());
    return status;
  }
  if (std::rename((file + ".tmp").c_str(), file.c_str()) != 0) return 3;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) std::printf("%s\n", line.c_str());
  return 0;
}

/// gnuplot's drawing of a study's grid, when gnuplot is installed.
inline int draw(const std::string& script, const std::string& settings) {
  scratch_folder s;
  int error = 0;
  const int status =
      run_program({"gnuplot", "-e", settings, script}, "", s.file("messages.txt"), error);
  if (status < 0) {
    std::fprintf(stderr, "(gnuplot is not installed: nothing drawn)\n");
    return 0;
  }
  return status == 0 ? 0 : 3;
}

class figure9_kind : public study_kind {
 public:
  figure9_kind(places where, std::string pattern, std::size_t max_batch)
      : w_(std::move(where)), pattern_(std::move(pattern)), max_batch_(max_batch) {}

  std::string design_header() const override {
    return "size,arbiter,router_buffer,adapter_buffer,torus_latency,pipeline,batch";
  }
  std::string grid_header() const override {
    return "size,arbiter,router_buffer,adapter_buffer,torus_latency,pipeline,batch,seed,"
           "consistent,normalized,spread,forfeited_per_grant,finished,last_arrival,request_share,"
           "request_share_p10,seconds";
  }
  std::size_t key_fields() const override { return 8; }
  std::vector<std::pair<std::string, std::string>> other_files() const override {
    const std::string key = "size,router_buffer,adapter_buffer,torus_latency,pipeline,seed,";
    return {{w_.folder + "/positions.csv",
             key + "node,pattern,arbiter,batch,position,u,v,completion_mean,completion_first,"
                   "completion_last,last_arrival"},
            {w_.folder + "/timeline.csv",
             key + "node,pattern,arbiter,batch,bin_start,bin_cycles,torus_utilization"}};
  }

  std::vector<planned_run> due(const table& d, const table&,
                               const std::set<std::vector<std::string>>&) const override {
    // Network settings in the design's order; within one, the largest
    // batches first, then seed, then the design's order.
    std::vector<std::string> settings;
    const auto setting = [&](std::size_t r) {
      return d.rows[r][0] + "," + d.rows[r][2] + "," + d.rows[r][3] + "," + d.rows[r][4] + "," +
             d.rows[r][5];
    };
    for (std::size_t r = 0; r < d.rows.size(); ++r)
      if (std::find(settings.begin(), settings.end(), setting(r)) == settings.end())
        settings.push_back(setting(r));
    std::vector<planned_run> runs;
    for (const std::string& s : settings) {
      std::vector<std::pair<std::size_t, std::size_t>> cells;  // (row, seed)
      for (std::size_t r = 0; r < d.rows.size(); ++r)
        if (setting(r) == s && std::stoull(d.rows[r][6]) <= max_batch_)
          for (std::size_t seed = 1; seed <= 3; ++seed) cells.emplace_back(r, seed);
      std::stable_sort(cells.begin(), cells.end(), [&](const auto& a, const auto& b) {
        const auto ba = std::stoull(d.rows[a.first][6]), bb = std::stoull(d.rows[b.first][6]);
        return ba != bb ? ba > bb : a.second < b.second;
      });
      for (const auto& c : cells) runs.push_back(make(d.rows[c.first], c.second));
    }
    return runs;
  }

  finished_run collect(const planned_run& r, const scratch_folder& out) const override {
    const auto [t, k] = row_where(out.file("run.csv"), "node", "anton2");
    const std::vector<std::string>& x =
        r.key;  // size, arbiter, router, adapter, latency, pipeline, batch, seed
    finished_run f;
    f.fields = consistent(x[3], x[4]);
    for (const char* c :
         {"normalized_throughput", "completion_spread", "forfeits_per_grant", "finished",
          "last_arrival", "request_share", "request_share_p10", "seconds"})
      f.fields += "," + t.at(k, c);
    const std::string prefix =
        x[0] + "," + x[2] + "," + x[3] + "," + x[4] + "," + x[5] + "," + x[7] + ",";
    f.files = {
        {w_.folder + "/positions.csv", lines_after_header(out.file("positions.csv"), prefix)},
        {w_.folder + "/timeline.csv", lines_after_header(out.file("timeline.csv"), prefix)}};
    return f;
  }

  int check() const override {
    return run_to({w_.bin + "/figure9_verdict", "--grid", w_.folder + "/grid.csv", "--design",
                   w_.folder + "/design.csv", "--pattern", pattern_},
                  "/dev/null");
  }

  int verdict() const override {
    const std::string summary = w_.summary + "/" + w_.name + "_summary.csv";
    int status =
        write_verdict({w_.bin + "/figure9_verdict", "--grid", w_.folder + "/grid.csv", "--design",
                       w_.folder + "/design.csv", "--pattern", pattern_, "--csv", summary},
                      w_.folder + "/verdict.md", w_.folder + "/refused.csv", "saturation");
    if (status != 0) return status;
    status =
        run_to({w_.bin + "/figure9_profile", "--grid", w_.folder + "/grid.csv", "--positions",
                w_.folder + "/positions.csv", "--timeline", w_.folder + "/timeline.csv", "--maps"},
               w_.folder + "/profile.md.tmp");
    if (status != 0) return status;
    if (std::rename((w_.folder + "/profile.md.tmp").c_str(), (w_.folder + "/profile.md").c_str()))
      return 3;
    const bool uniform = pattern_ == "uniform";
    return draw(w_.folder + "/../figure9/grid.gp",
                "csv='" + summary + "'; out='" + w_.folder + "/grid.png'; traffic='" +
                    (uniform ? "uniform traffic" : "1-hop neighbor traffic") +
                    "'; rules=" + (uniform ? "1" : "0"));
  }

 private:
  planned_run make(const std::vector<std::string>& row, std::size_t seed) const {
    planned_run p;
    p.key = row;
    p.key.push_back(std::to_string(seed));
    p.argv = {w_.bin + "/saturation",
              "--radix",
              row[0],
              "--nodes",
              "anton2",
              "--patterns",
              pattern_,
              "--arbiters",
              row[1],
              "--batches",
              row[6],
              "--buffer-flits",
              row[2],
              "--adapter-buffer-flits",
              row[3],
              "--torus-latency",
              row[4],
              "--pipeline",
              row[5],
              "--seed",
              std::to_string(seed),
              "--jobs",
              "1",
              "--positions",
              "{out}/positions.csv",
              "--timeline-bin",
              "1000",
              "--timeline",
              "{out}/timeline.csv",
              "--csv",
              "{out}/run.csv"};
    p.label = cli::format(
        "%sx%sx%s, router %s, adapter %s, latency %s, pipeline %s, %s, batch "
        "%s, seed %zu",
        row[0].c_str(), row[0].c_str(), row[0].c_str(), row[2].c_str(), row[3].c_str(),
        row[4].c_str(), row[5].c_str(), row[1].c_str(), row[6].c_str(), seed);
    return p;
  }

  places w_;
  std::string pattern_;
  std::size_t max_batch_;
};

/// A router reading's flags (anton2_decomposition/registration.md's table:
/// readings joined by '+').
inline std::vector<std::string> reading_flags(const std::string& reading) {
  std::vector<std::string> flags;
  if (reading == "default") return flags;
  for (const std::string& part : cli::split(reading, '+')) {
    if (part == "pipelined") {
      flags.push_back("--pipelined-heads");
    } else if (part == "persistent") {
      flags.push_back("--persistent-picks");
    } else if (part == "output_first" || part == "wavefront") {
      flags.insert(flags.end(), {"--allocator", part});
    } else if (part == "islip1" || part == "islip4") {
      flags.insert(flags.end(), {"--allocator", "islip:" + part.substr(5)});
    } else {
      throw cli::bad_input{"router reading '" + reading + "': '" + part +
                           "' is not one of anton2_decomposition/registration.md's"};
    }
  }
  return flags;
}

class figure10_kind : public study_kind {
 public:
  figure10_kind(places where, std::size_t max_batch, std::string reading = "default")
      : w_(std::move(where)),
        max_batch_(max_batch),
        reading_(std::move(reading)),
        flags_(reading_flags(reading_)) {}

  std::string design_header() const override {
    return "size,router_buffer,adapter_buffer,torus_latency,pipeline,setting,arbiter,share,batch";
  }
  std::string grid_header() const override {
    return "size,router_buffer,adapter_buffer,torus_latency,pipeline,setting,arbiter,share,batch,"
           "seed,consistent,normalized,spread,finished,last_arrival,seconds";
  }
  std::size_t key_fields() const override { return 10; }

  std::vector<planned_run> due(const table& d, const table&,
                               const std::set<std::vector<std::string>>&) const override {
    std::vector<planned_run> runs;
    for (const auto& row : d.rows) {
      if (std::stoull(row[8]) > max_batch_) continue;
      for (std::size_t seed = 1; seed <= 3; ++seed) {
        planned_run p;
        p.key = row;
        p.key.push_back(std::to_string(seed));
        p.argv = {w_.bin + "/blend", "--radix", row[0], "--nodes", "anton2", "--settings", row[5]};
        if (row[5] != "none") p.argv.insert(p.argv.end(), {"--arbiter", row[6]});
        p.argv.insert(p.argv.end(), flags_.begin(), flags_.end());
        p.argv.insert(p.argv.end(), {"--shares", row[7], "--batch", row[8], "--buffer-flits",
                                     row[1], "--adapter-buffer-flits", row[2], "--torus-latency",
                                     row[3], "--pipeline", row[4], "--seed", std::to_string(seed),
                                     "--jobs", "1", "--csv", "{out}/run.csv"});
        p.label = cli::format(
            "%sx%sx%s, router %s, adapter %s, latency %s, pipeline %s, %s (%s), "
            "f %s, batch %s, seed %zu",
            row[0].c_str(), row[0].c_str(), row[0].c_str(), row[1].c_str(), row[2].c_str(),
            row[3].c_str(), row[4].c_str(), row[5].c_str(), row[6].c_str(), row[7].c_str(),
            row[8].c_str(), seed);
        runs.push_back(p);
      }
    }
    return runs;
  }

  finished_run collect(const planned_run& r, const scratch_folder& out) const override {
    const auto [t, k] = row_where(out.file("run.csv"), "node", "anton2");
    finished_run f;
    f.fields = consistent(r.key[2], r.key[3]);
    for (const char* c :
         {"normalized_throughput", "completion_spread", "finished", "last_arrival", "seconds"})
      f.fields += "," + t.at(k, c);
    return f;
  }

  int check() const override {
    return run_to({w_.bin + "/figure10_verdict", "--grid", w_.folder + "/grid.csv", "--design",
                   w_.folder + "/design.csv"},
                  "/dev/null");
  }

  int verdict() const override {
    const std::string summary = w_.summary + "/" + w_.name + "_summary.csv";
    const int status =
        write_verdict({w_.bin + "/figure10_verdict", "--grid", w_.folder + "/grid.csv", "--design",
                       w_.folder + "/design.csv", "--csv", summary, "--reading", reading_},
                      w_.folder + "/verdict.md", w_.folder + "/refused.csv", "blend");
    if (status != 0) return status;
    return draw(w_.folder + "/grid.gp", "csv='" + summary + "'; out='" + w_.folder + "/grid.png'");
  }

 private:
  places w_;
  std::size_t max_batch_;
  std::string reading_;
  std::vector<std::string> flags_;
};

}  // namespace study

#endif  // INTERLOCK_EXAMPLES_STUDY_KINDS_HPP
