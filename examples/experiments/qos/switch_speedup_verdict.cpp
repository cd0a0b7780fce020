// SPDX-License-Identifier: BSL-1.0
// switch_speedup_verdict: the verdict of the QoS switch's crossbar speed-up
// study (docs/results/studies/switch_speedup/registration.md) from its design
// and grid.
//
//   switch_speedup_verdict --design FILE --grid FILE
//
// Reads the registered design and the grid the runner appends to (study
// switch_speedup), refusing a wrong header, a field that is not what its
// column holds and a run given twice with FILE:LINE:COLUMN; prints, per
// speed-up and traffic, the total delivered against the load offered (mean
// and range over the seeds), the knee, SBT's shares at the highest load,
// and the registered rule's line `Switch saturation verdict: ...`. A figure
// over no runs is "pending", never a number.
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "csv_file.hpp"
#include "study_files.hpp"

namespace {

struct arguments {
  cli::study_files files;
};

const cli::setting_table<arguments>& settings() {
  static const cli::setting_table<arguments> table = [] {
    std::vector<cli::setting<arguments>> list =
        cli::study_file_settings<arguments>("the registered design (the study's design.csv)", "");
    return cli::setting_table<arguments>(std::move(list));
  }();
  return table;
}

std::string help_text() {
  return cli::help_page(
      "usage: switch_speedup_verdict --design FILE --grid FILE\n",
      "The QoS switch's crossbar speed-up study's verdict (docs/results/studies/\n"
      "switch_speedup/registration.md) from its design and its grid.\n",
      settings(), "Exit status: 0 done (the verdict may be pending); 2 bad input.\n");
}

const std::string design_header = "speedup,traffic,scheduler,load";
const std::string grid_header =
    "speedup,traffic,scheduler,load,seed,offered,delivered,sl0,sl1,sl2,share0,share1,share2,"
    "latency0,latency1,latency2";
const std::vector<std::string> levels = {"1/1", "1.5/1.5", "2/2", "3/4"};
constexpr double top_load = 2.0;

// A cell: speed-up, traffic, scheduler, load in tenths.
using cell = std::tuple<std::string, std::string, std::string, std::uint64_t>;

struct stats {
  std::size_t runs = 0;
  double sum = 0, least = 0, most = 0;
  double shares[3] = {0, 0, 0};
  void add(double v) {
    least = runs == 0 || v < least ? v : least;
    most = runs == 0 || v > most ? v : most;
    sum += v;
    ++runs;
  }
  double mean() const { return sum / static_cast<double>(runs); }
};

cell read_cell(const cli::csv_field& f) {
  f.one_of(0, levels);
  f.one_of(1, {"uniform", "shift"});
  f.one_of(2, {"sbt"});
  const double load = f.real(3);
  const double tenths = std::round(load * 10);
  if (std::fabs(load * 10 - tenths) > 1e-9 || tenths < 1 || tenths > 20)
    throw cli::bad_input{f.where(3) + ": '" + f.text(3) + "'; allowed: 0.1, 0.2, ..., 2.0"};
  return cell{f.text(0), f.text(1), f.text(2), static_cast<std::uint64_t>(tenths)};
}

std::string level_name(const std::string& l) {
  return l == "3/4" ? "x3/x4" : "x" + l.substr(0, l.find('/'));
}

int run(int argc, char** argv) {
  arguments given;
  settings().parse(argc, argv, given).write_resolved(settings().resolved(given));
  const std::string &grid_path = given.files.grid, &design_path = given.files.design;
  std::vector<cell> design;
  std::map<cell, std::size_t> planned;
  for (const cli::csv_line& x :
       cli::csv_lines(cli::file_text("--design", design_path), design_path, design_header)) {
    const cli::csv_field f{design_path, x, cli::split(design_header)};
    const cell c = read_cell(f);
    cli::unique_run(planned, c, design_path, x.number);
    design.push_back(c);
  }
  std::map<cell, stats> s;
  std::map<std::tuple<cell, std::uint64_t>, std::size_t> seen;
  std::size_t rows = 0;
  for (const cli::csv_line& x :
       cli::csv_lines(cli::file_text("--grid", grid_path), grid_path, grid_header)) {
    const cli::csv_field f{grid_path, x, cli::split(grid_header)};
    const cell c = read_cell(f);
    const std::uint64_t seed = f.whole(4, 1, 3);
    cli::unique_run(seen, std::make_tuple(c, seed), grid_path, x.number);
    stats& st = s[c];
    st.add(f.real(6));
    for (std::size_t k = 0; k < 3; ++k) st.shares[k] += f.real(10 + k);
    for (std::size_t k : {5u, 7u, 8u, 9u, 13u, 14u, 15u}) (void)f.real(k);
    ++rows;
  }
  std::printf(
      "The QoS switch's crossbar speed-up study (registration.md): %zu runs in the grid, %zu "
      "design rows x 3 seeds.\nConfiguration A, SBT; total delivered flits/cycle/NIC against the "
      "load offered: mean (least-greatest) over seeds 1-3.\n",
      rows, design.size());
  std::string meets, lines;
  bool pending = false;
  for (const std::string& l : levels) {
    double sat[2] = {0, 0};
    bool known[2] = {false, false};
    for (int k = 0; k < 2; ++k) {
      const std::string traffic = k == 0 ? "uniform" : "shift";
      std::printf("\n%s, %s traffic\n\n| load | delivered |\n|---|---|\n", level_name(l).c_str(),
                  traffic.c_str());
      std::string knee = "none";
      for (std::uint64_t t = 1; t <= 20; ++t) {
        const double load = static_cast<double>(t) / 10;
        const auto it = s.find(cell{l, traffic, "sbt", t});
        if (it == s.end()) continue;
        const stats& x = it->second;
        std::printf("| %.1f | %.3f (%.3f-%.3f)%s |\n", load, x.mean(), x.least, x.most,
                    x.runs < 3 ? cli::format(", %zu of 3 seeds", x.runs).c_str() : "");
        if (knee == "none" && x.runs == 3 && x.mean() < 0.98 * load)
          knee = cli::format("%.1f", load);
        if (t == 20 && x.runs == 3) {
          sat[k] = x.mean();
          known[k] = true;
          std::printf(
              "\nS = %.3f at load %.1f; the knee: %s; SBT's shares there: %.3f / %.3f / "
              "%.3f\n",
              x.mean(), top_load, knee.c_str(), x.shares[0] / 3, x.shares[1] / 3, x.shares[2] / 3);
        }
      }
    }
    const std::string name = level_name(l);
    if (!known[0] || !known[1]) {
      pending = true;
      lines += cli::format("%s%s pending", lines.empty() ? "" : "; ", name.c_str());
      continue;
    }
    const bool full = sat[1] >= 0.99, near = sat[0] >= 0.65 && sat[0] <= 0.80;
    if (full && near) meets += std::string(meets.empty() ? "" : ", ") + name;
    lines += cli::format("%s%s: %.3f uniform, %.3f shift", lines.empty() ? "" : "; ", name.c_str(),
                         sat[0], sat[1]);
  }
  std::printf("\n");
  if (!meets.empty())
    std::printf("Switch saturation verdict: reproduced (%s; %s)\n", meets.c_str(), lines.c_str());
  else if (pending)
    std::printf("Switch saturation verdict: pending (%s)\n", lines.c_str());
  else
    std::printf("Switch saturation verdict: not reproduced (%s)\n", lines.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("switch_speedup_verdict", help.c_str(), "a smaller grid", argc, argv,
                       [&] { return run(argc, argv); });
}
