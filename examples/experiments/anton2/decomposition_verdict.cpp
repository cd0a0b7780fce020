// SPDX-License-Identifier: BSL-1.0
// decomposition_verdict: the verdict of the Anton 2 decomposition study
// (docs/results/studies/anton2_decomposition/registration.md) from its design and grid.
//
//   decomposition_verdict --design FILE --grid FILE [--refused FILE] [--part-f-reading]
//
// Reads the registered design and the grid its runner appends to (scripts/
// study anton2_decomposition), refusing a wrong header, a field that is not
// what its column holds and a run given twice with FILE:LINE:COLUMN; prints
// every arm over its seeds and what the registered rule gives: the loss of
// the hardware model to exact Eq. 3 taken apart by ordering, quantization
// and history (alone, and the 2^3 factorial effects), the lag, 2-hop
// traffic, each router reading against the default router, and one line
// per reading `Figure 9 verdict (READING): ...`, then rule 6's choice of
// the reading part F (the Figure 10 rerun) runs under; --part-f-reading
// prints that reading's name alone. A figure over no runs is
// "pending", never a number; an arm whose runs saturation refused (the
// runner's refused.csv: a configuration the model does not have) is
// "refused" with saturation's message, and decides nothing.
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
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
  std::string refused;
  bool part_f_reading = false;
};

const cli::setting_table<arguments>& settings() {
  static const cli::setting_table<arguments> table = [] {
    std::vector<cli::setting<arguments>> list = cli::study_file_settings<arguments>();
    list.push_back(cli::input<arguments>(
        "--refused", [](auto& s) -> auto& { return s.refused; },
        "the runs saturation refused, with its message (the study's refused.csv)"));
    list.push_back(cli::toggle<arguments>(
        "--part-f-reading", [](auto& s) -> auto& { return s.part_f_reading; },
        "print only the reading rule 6 selects for part F (or 'pending')"));
    return cli::setting_table<arguments>(std::move(list));
  }();
  return table;
}

std::string help_text() {
  return cli::help_page(
      "usage: decomposition_verdict --design FILE --grid FILE [--refused FILE]\n"
      "                             [--part-f-reading]\n",
      "The Anton 2 decomposition study's verdict (docs/results/studies/\n"
      "anton2_decomposition/registration.md) from its design and its grid.\n",
      settings(), "Exit status: 0 done (the verdict may be pending); 2 bad input.\n");
}

const std::string design_header =
    "part,setting,size,router_buffer,adapter_buffer,torus_latency,pipeline,pattern,router,"
    "arbiter,batch,condition";
const std::string grid_header =
    "part,setting,size,router_buffer,adapter_buffer,torus_latency,pipeline,pattern,router,"
    "arbiter,batch,seed,normalized,spread,finished,last_arrival,request_share,request_share_p10,"
    "grants,slides,zeroed_per_grant,quota_lost_per_grant,spread_mean,spread_max,seconds";
const std::string refused_header =
    "part,setting,size,router_buffer,adapter_buffer,torus_latency,pipeline,pattern,router,"
    "arbiter,batch,seed,message";
const std::string hardware = "iw:levels.mbit.window", exact = "iw:full.real.unbounded";
const std::vector<std::string> readings = {
    "default", "pipelined", "persistent",           "output_first",     "islip1",
    "islip4",  "wavefront", "pipelined+persistent", "pipelined+islip4", "pipelined+wavefront"};

// An arm: part, setting, pattern, router reading, arbiter, batch.
using arm =
    std::tuple<std::string, std::string, std::string, std::string, std::string, std::size_t>;

struct stats {
  std::string refused;  // saturation's message when it refused the arm's runs
  std::size_t runs = 0;
  bool finished = true;
  double sum = 0, least = 0, most = 0, lost = 0, zeroed = 0, spread = 0;
  std::size_t counted = 0;  // runs with the family's counts
  bool complete() const { return runs == 3 && finished; }
  double mean() const { return sum / static_cast<double>(runs); }
  double range() const { return most - least; }
};

// The fields every line of both files starts with, checked.
arm read_arm(const cli::csv_field& f, std::size_t batch_column) {
  f.one_of(0, {"D1", "D2", "D3"});
  f.one_of(1, {"A1", "A4"});
  f.whole(2, 2, 16);
  for (std::size_t k = 3; k <= 6; ++k) f.whole(k, 0, 100000);
  f.one_of(7, {"uniform", "neighbor2"});
  f.one_of(8, readings);
  const std::string& a = f.text(9);
  if (a != "round_robin" && a.compare(0, 3, "iw:") != 0)
    throw cli::bad_input{f.where(9) + ": '" + a.substr(0, 40) + "'; allowed: round_robin, iw:FORM"};
  return arm{f.text(0), f.text(1), f.text(7),
             f.text(8), a,         static_cast<std::size_t>(f.whole(batch_column, 1, 1000000))};
}

double optional(const cli::csv_field& f, std::size_t k) {
  return f.text(k) == "none" ? std::nan("") : f.real(k);
}

std::string shown(const std::map<arm, stats>& s, const arm& a) {
  const auto it = s.find(a);
  if (it != s.end() && it->second.runs == 0 && !it->second.refused.empty())
    return "refused: " + it->second.refused;
  if (it == s.end() || it->second.runs == 0) return "pending";
  const stats& x = it->second;
  std::string t = cli::format("%.3f (%.3f-%.3f)", x.mean(), x.least, x.most);
  if (x.runs < 3) t += cli::format(", %zu of 3 seeds", x.runs);
  if (!x.finished) t += ", a run did not finish";
  return t;
}

// Rule 1: b against the baseline a: "+0.123, moves", "... does not move", or pending.
std::string moves(const std::map<arm, stats>& s, const arm& a, const arm& b) {
  const auto x = s.find(a), y = s.find(b);
  for (const auto& z : {x, y})
    if (z != s.end() && !z->second.refused.empty()) return "refused: " + z->second.refused;
  if (x == s.end() || y == s.end() || !x->second.complete() || !y->second.complete())
    return "pending";
  const double d = y->second.mean() - x->second.mean();
  const bool m = std::fabs(d) > x->second.range() + y->second.range();
  return cli::format("%+.3f, %s", d, m ? "moves" : "does not move");
}

arm with(const arm& a, const std::string& arbiter) {
  arm b = a;
  std::get<4>(b) = arbiter;
  return b;
}

// Rule 2 for one setting and pattern: the loss, each factor alone, the
// factorial effects.
void decomposition(const std::map<arm, stats>& s, const std::string& part,
                   const std::string& setting, const std::string& pattern) {
  const arm base{part, setting, pattern, "default", hardware, 1024};
  std::printf("\n%s, %s traffic, batch 1,024: the hardware model's loss to exact Eq. 3\n",
              setting.c_str(), pattern.c_str());
  std::printf("- loss (exact Eq. 3 - hardware model): %s\n",
              moves(s, base, with(base, exact)).c_str());
  std::printf("- ordering alone (iw:full.mbit.window): %s\n",
              moves(s, base, with(base, "iw:full.mbit.window")).c_str());
  std::printf("- quantization alone (iw:levels.real.window): %s\n",
              moves(s, base, with(base, "iw:levels.real.window")).c_str());
  std::printf("- history alone (iw:levels.mbit.unbounded): %s\n",
              moves(s, base, with(base, "iw:levels.mbit.unbounded")).c_str());
  double y[2][2][2];
  for (int o = 0; o < 2; ++o)
    for (int q = 0; q < 2; ++q)
      for (int h = 0; h < 2; ++h) {
        const std::string name = std::string("iw:") + (o ? "full" : "levels") + "." +
                                 (q ? "real" : "mbit") + "." + (h ? "unbounded" : "window");
        const auto it = s.find(with(base, name));
        if (it == s.end() || !it->second.complete()) {
          std::printf("- factorial effects: pending (%s)\n", name.c_str());
          return;
        }
        y[o][q][h] = it->second.mean();
      }
  // Each effect: the mean over the eight corners of the product of the
  // factors' signs (-1 the hardware model's level, +1 exact Eq. 3's) times
  // the corner's mean, times 2: for a main effect, the mean of its four
  // differences.
  const char* names[] = {
      "ordering",           "quantization",           "history",  "ordering x quantization",
      "ordering x history", "quantization x history", "all three"};
  const int masks[] = {1, 2, 4, 3, 5, 6, 7};
  std::printf("- factorial effects (the loss = ordering + quantization + history + all three):");
  for (int e = 0; e < 7; ++e) {
    double sum = 0;
    for (int c = 0; c < 8; ++c) {
      int sign = 1;
      for (int f = 0; f < 3; ++f)
        if ((masks[e] >> f) & 1) sign *= ((c >> f) & 1) ? 1 : -1;
      sum += sign * y[c & 1][(c >> 1) & 1][(c >> 2) & 1];
    }
    std::printf("%s %s %+.3f", e == 0 ? "" : ",", names[e], sum / 4);
  }
  std::printf("\n");
}

// The (part, reading) whose rows stand for a reading in a setting: A4's
// one-stage router is the pipelined one (registration.md, "The router
// readings"), so in A4 `pipelined` is the default router and
// `pipelined+X` is X.
std::pair<std::string, std::string> rows_of(const std::string& reading,
                                            const std::string& setting) {
  std::string r = reading;
  if (setting == "A4" && r.compare(0, 9, "pipelined") == 0)
    r = r.size() == 9 ? "default" : r.substr(10);
  return {r == "default" ? "D1" : "D2", r};
}

// Rule 4's line for one reading.
std::string figure9(const std::map<arm, stats>& s, const std::string& reading) {
  std::string why, holds;
  bool pending = false;
  for (const char* setting : {"A4", "A1"}) {
    const auto [part, rows] = rows_of(reading, setting);
    const auto get = [&, part = part, rows = rows](const std::string& arbiter,
                                                   std::size_t batch) -> const stats* {
      const auto it = s.find(arm{part, setting, "uniform", rows, arbiter, batch});
      return it == s.end() || !it->second.complete() ? nullptr : &it->second;
    };
    const stats *h1 = get(hardware, 1024), *h4 = get(hardware, 4096),
                *r1 = get("round_robin", 1024), *r4 = get("round_robin", 4096);
    const auto r = s.find(arm{part, setting, "uniform", rows, hardware, 1024});
    if (r != s.end() && !r->second.refused.empty()) {
      why += cli::format("%s%s: refused", why.empty() ? "" : "; ", setting);
      continue;
    }
    if (h1 == nullptr) {
      pending = true;
      continue;
    }
    if (h1->mean() < 0.85) {
      why += cli::format("%s%s: hardware model %.3f at 1024", why.empty() ? "" : "; ", setting,
                         h1->mean());
      continue;
    }
    if (h4 == nullptr || r1 == nullptr || r4 == nullptr) {
      pending = true;
      continue;
    }
    if (h4->mean() >= 0.85 && r1->mean() <= 0.65 && r4->mean() < r1->mean())
      holds += std::string(holds.empty() ? "" : ", ") + setting;
    else
      why += cli::format(
          "%s%s: hardware model %.3f and %.3f, round robin %.3f and %.3f at 1024 and 4096",
          why.empty() ? "" : "; ", setting, h1->mean(), h4->mean(), r1->mean(), r4->mean());
  }
  if (!holds.empty()) return "reproduced (" + holds + ")";
  if (pending) return "pending";
  return "not reproduced (" + why + ")";
}

// Rule 6: the reading part F runs under, with the reason; "pending" while a
// Figure 9 verdict or a hardware mean it needs is.
std::pair<std::string, std::string> part_f_reading(const std::map<arm, stats>& s) {
  std::string best, why;
  double greatest = -1;
  for (const std::string& r : readings) {
    const std::string line = figure9(s, r);
    if (line == "pending") return {"pending", "the Figure 9 verdict (" + r + ") is pending"};
    if (line.compare(0, 10, "reproduced") != 0) continue;
    for (const char* setting : {"A4", "A1"}) {
      if (line.find(setting) == std::string::npos) continue;
      const auto [part, rows] = rows_of(r, setting);
      const auto it = s.find(arm{part, setting, "uniform", rows, hardware, 4096});
      if (it->second.mean() > greatest) {
        greatest = it->second.mean();
        best = r;
        why =
            cli::format("reproduces Figure 9 with the greatest hardware mean at 4,096: %.3f in %s",
                        greatest, setting);
      }
    }
  }
  if (!best.empty()) return {best, why};
  for (const std::string& r : readings) {
    const auto [part, rows] = rows_of(r, "A4");
    const auto it = s.find(arm{part, "A4", "uniform", rows, hardware, 1024});
    if (it == s.end() || (it->second.refused.empty() && !it->second.complete()))
      return {"pending", "the hardware model in A4 under " + r + " is pending"};
    if (!it->second.refused.empty() || it->second.mean() <= greatest) continue;
    greatest = it->second.mean();
    best = r;
  }
  if (best.empty()) return {"none", "every reading refused in A4"};
  return {best, cli::format("no reading reproduces Figure 9; the greatest hardware mean at "
                            "1,024 in A4: %.3f",
                            greatest)};
}

int run(int argc, char** argv) {
  arguments given;
  settings().parse(argc, argv, given).write_resolved(settings().resolved(given));
  const std::string &grid_path = given.files.grid, &design_path = given.files.design,
                    &refused_path = given.refused;
  std::vector<arm> design;
  std::map<arm, std::size_t> planned;
  for (const cli::csv_line& x :
       cli::csv_lines(cli::file_text("--design", design_path), design_path, design_header)) {
    const cli::csv_field f{design_path, x, cli::split(design_header)};
    const arm a = read_arm(f, 10);
    f.one_of(11, {"always", "arm_1024_at_least_0.80", "hardware_1024_at_least_0.80"});
    cli::unique_run(planned, a, design_path, x.number);
    design.push_back(a);
  }
  std::map<arm, stats> s;
  std::map<std::tuple<arm, std::uint64_t>, std::size_t> seen;
  std::size_t rows = 0;
  for (const cli::csv_line& x :
       cli::csv_lines(cli::file_text("--grid", grid_path), grid_path, grid_header)) {
    const cli::csv_field f{grid_path, x, cli::split(grid_header)};
    const arm a = read_arm(f, 10);
    const std::uint64_t seed = f.whole(11, 1, 3);
    cli::unique_run(seen, std::make_tuple(a, seed), grid_path, x.number);
    const double v = f.real(12);
    stats& st = s[a];
    st.least = st.runs == 0 || v < st.least ? v : st.least;
    st.most = st.runs == 0 || v > st.most ? v : st.most;
    st.sum += v;
    ++st.runs;
    st.finished = st.finished && f.whole(14, 0, 1) == 1;
    const double lost = optional(f, 21), zeroed = optional(f, 20), spread = optional(f, 22);
    if (lost == lost) {
      st.lost += lost;
      st.zeroed += zeroed;
      st.spread += spread;
      ++st.counted;
    }
    ++rows;
  }
  std::size_t refusals = 0;
  std::map<std::tuple<arm, std::uint64_t>, std::size_t> refused_seen;
  if (!refused_path.empty())
    for (const cli::csv_line& x :
         cli::csv_lines(cli::file_text("--refused", refused_path), refused_path, refused_header)) {
      const cli::csv_field f{refused_path, x, cli::split(refused_header)};
      const arm a = read_arm(f, 10);
      const std::uint64_t seed = f.whole(11, 1, 3);
      const auto in_grid = seen.find(std::make_tuple(a, seed));
      if (in_grid != seen.end())
        throw cli::bad_input{cli::format("%s:%zu:1: a run %s holds (line %zu)",
                                         refused_path.c_str(), x.number, grid_path.c_str(),
                                         in_grid->second)};
      cli::unique_run(refused_seen, std::make_tuple(a, seed), refused_path, x.number);
      if (s.count(a) != 0 && s[a].runs != 0)
        throw cli::bad_input{f.where(0) + ": an arm refused here has runs in " + grid_path};
      s[a].refused = f.text(12).substr(0, 300);
      ++refusals;
    }
  if (given.part_f_reading) {
    std::printf("%s\n", part_f_reading(s).first.c_str());
    return 0;
  }
  std::printf(
      "The Anton 2 decomposition study (registration.md): %zu runs in the grid, %zu refused, "
      "%zu design rows.\nNormalized throughput over seeds 1-3: mean (least-greatest); the family's "
      "counts, "
      "means over the seeds: quota lost and inputs zeroed per grant, the requesters' spread "
      "(quanta).\n\n",
      rows, refusals, design.size());
  std::printf(
      "| part | setting | pattern | reading | arbiter | batch | throughput | quota lost | zeroed | "
      "spread |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  std::set<arm> shown_arms(design.begin(), design.end());
  for (const auto& x : s) shown_arms.insert(x.first);
  for (const arm& a : design) {
    const auto it = s.find(a);
    if (it == s.end()) continue;  // a design row not run yet: only in the rule's lines
    const stats& x = it->second;
    if (x.runs == 0) {  // refused
      std::printf("| %s | %s | %s | %s | %s | %zu | %s | none | none | none |\n",
                  std::get<0>(a).c_str(), std::get<1>(a).c_str(), std::get<2>(a).c_str(),
                  std::get<3>(a).c_str(), std::get<4>(a).c_str(), std::get<5>(a),
                  shown(s, a).c_str());
      continue;
    }
    const double n = static_cast<double>(x.counted);
    std::printf("| %s | %s | %s | %s | %s | %zu | %s | %s | %s | %s |\n", std::get<0>(a).c_str(),
                std::get<1>(a).c_str(), std::get<2>(a).c_str(), std::get<3>(a).c_str(),
                std::get<4>(a).c_str(), std::get<5>(a), shown(s, a).c_str(),
                x.counted ? cli::format("%.4f", x.lost / n).c_str() : "none",
                x.counted ? cli::format("%.4f", x.zeroed / n).c_str() : "none",
                x.counted ? cli::format("%.3f", x.spread / n).c_str() : "none");
  }
  for (const char* setting : {"A4", "A1"}) decomposition(s, "D1", setting, "uniform");
  decomposition(s, "D3", "A4", "neighbor2");
  std::printf("\nThe lag, iw:full.real.lag2 against exact Eq. 3 (batch 1,024):");
  for (const char* setting : {"A4", "A1"}) {
    const arm base{"D1", setting, "uniform", "default", exact, 1024};
    std::printf(" %s %s;", setting, moves(s, base, with(base, "iw:full.real.lag2")).c_str());
  }
  std::printf("\n\nThe router readings against the default router (batch 1,024):\n");
  for (const std::string& r : readings) {
    if (r == "default") continue;
    for (const char* setting : {"A4", "A1"})
      for (const std::string& a : {hardware, exact}) {
        const arm b{"D2", setting, "uniform", r, a, 1024};
        if (shown_arms.count(b) == 0) continue;
        std::printf("- %s, %s, %s: %s\n", r.c_str(), setting, a.c_str(),
                    moves(s, arm{"D1", setting, "uniform", "default", a, 1024}, b).c_str());
      }
  }
  std::printf("\n");
  for (const std::string& r : readings)
    std::printf("Figure 9 verdict (%s): %s\n", r.c_str(), figure9(s, r).c_str());
  const auto [f_reading, f_why] = part_f_reading(s);
  std::printf("Part F reading (rule 6): %s (%s)\n", f_reading.c_str(), f_why.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("decomposition_verdict", help.c_str(), "a smaller grid", argc, argv,
                       [&] { return run(argc, argv); });
}
