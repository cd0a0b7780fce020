// SPDX-License-Identifier: BSL-1.0
// figure9_verdict: the Figure 9 study's tables and verdict, from its grid and design files.
//
//   figure9_verdict --grid FILE --design FILE [--pattern P] [--csv FILE]
//
// Reads the grid the study's runner writes (scripts/study figure9; one row
// per run) and the registered design (the runs the study makes, seeds 1..3
// each; figure9_study.hpp) and prints every network setting's throughput
// per arbiter and batch over its seeds, then the verdict the rule gives:
// reproduced as soon as one physically consistent 8x8x8 setting meets it,
// not reproduced once the runs in rule out every such setting the design
// judges (a batch with its three seeds in on the wrong side of the rule,
// or a run that did not finish: judge(), figure9_study.hpp; each setting's
// reason named) or every run the rule reads is in (the design's runs at
// 8x8x8 in a physically consistent setting, of round robin and the
// inverse weights judged, at batches 1,024 and 4,096) and none meets it,
// pending otherwise (naming the settings ruled out so far); undecided when the design holds none of
// the runs the rule reads (a design cut to other runs). Markdown tables, for docs/results.md. With
// --pattern neighbor1, the grid is of 1-hop traffic and the verdict is Figure 9's 1-hop statement's
// (figure9_study.hpp's stable()). With --csv, the same summaries one row per setting, arbiter and
// batch (what docs/results/studies/figure9/grid.gp plots).
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "figure9_study.hpp"
#include "study_files.hpp"

namespace {

using namespace figure9;

struct arguments {
  cli::study_files files;
  std::string pattern = "uniform";
};

const cli::setting_table<arguments>& settings() {
  static const cli::setting_table<arguments> table = [] {
    std::vector<cli::setting<arguments>> list = cli::study_file_settings<arguments>(
        "the registered design (CSV: "
        "size, arbiter, router_buffer, adapter_buffer, torus_latency, pipeline, batch)",
        "the summaries as CSV, one row per setting, arbiter and batch: the seeds in, whether all "
        "finished, normalized throughput's mean, least and greatest, mean spread and forfeits per "
        "grant");
    list.push_back(cli::one_of<arguments>(
        "--pattern", [](auto& s) -> auto& { return s.pattern; }, {"uniform", "neighbor1"},
        "uniform: the study's rule; neighbor1: Figure 9's 1-hop statement (docs/results.md), "
        "stable when the mean at batch 4096 is at least 0.95 of the greatest at 256, 1024 and "
        "4096, for round robin and the hardware model"));
    return cli::setting_table<arguments>(std::move(list));
  }();
  return table;
}

std::string help_text() {
  return cli::help_page(
      "usage: figure9_verdict --grid FILE --design FILE [--pattern P] [--csv FILE]\n",
      "The Figure 9 study (docs/results.md, \"The Figure 9 study\"): from its grid\n"
      "(one row per run, as scripts/study figure9 writes it) and its registered\n"
      "design (the runs it makes, each with seeds 1, 2 and 3), every network\n"
      "setting's normalized throughput per arbiter and batch over the seeds (mean,\n"
      "least-greatest), then the verdict by the rule: inverse weights at least 0.85\n"
      "at batches 1024 and 4096 in a physically consistent 8x8x8 setting (adapter\n"
      "buffers covering the torus link's credit round trip) while round robin is\n"
      "at most 0.65 at both and lower at 4096. Not reproduced once every setting\n"
      "is ruled out (a batch with its seeds in on the wrong side of the rule, or a\n"
      "run that did not finish; each setting's reason named), pending while runs\n"
      "the rule reads are missing and a setting may still meet it, undecided when\n"
      "the design holds none of the runs the rule reads; a second line applies it\n"
      "to exact Eq. 3.\n",
      settings(),
      "Exit status: 0 done; 2 bad input (a flag, or the file, line and column);\n"
      "3 the output could not be written.\n");
}

using study_setting::name;

void print_table(const std::map<summary_key, summary>& s, const std::set<cell>& cells,
                 const std::set<std::size_t>& batches) {
  std::string head =
      "| size | router | adapter | torus latency | pipeline | consistent | arbiter |";
  std::string rule = "|---|---|---|---|---|---|---|";
  for (const std::size_t b : batches) {
    head += cli::format(" batch %zu |", b);
    rule += "---|";
  }
  std::printf("%s spread | forfeits/grant |\n%s---|---|\n", head.c_str(), rule.c_str());
  for (const cell& c : cells)
    for (const std::string& a : arbiters()) {
      bool any = false;  // (a setting shows only the arbiters it ran)
      for (const std::size_t b : batches) any = any || s.count(summary_key{c, a, b}) != 0;
      if (!any) continue;
      std::string line =
          cli::format("| %u | %u | %u | %u | %u | %s | %s |", c.size, c.router_buffer,
                      c.adapter_buffer, c.torus_latency, c.pipeline,
                      consistent(c.adapter_buffer, c.torus_latency) ? "yes" : "no", a.c_str());
      const summary* last = nullptr;
      for (const std::size_t b : batches) {
        const auto it = s.find(summary_key{c, a, b});
        if (it == s.end()) {
          line += " |";
          continue;
        }
        const summary& x = it->second;
        if (x.complete()) {
          line += cli::format(" %.3f (%.3f-%.3f)%s |", x.mean, x.least, x.most,
                              x.finished ? "" : " unfinished");
          last = &x;
        } else {
          line +=
              cli::format(" %zu of %llu seeds |", x.runs, static_cast<unsigned long long>(seeds));
        }
      }
      line += last == nullptr
                  ? " | |"
                  : cli::format(" %.2f | %.4f |", last->spread, last->forfeited_per_grant);
      std::printf("%s\n", line.c_str());
    }
}

// The runs in the grid: (setting, arbiter, batch, seed).
using run_set = std::set<std::tuple<cell, std::string, std::size_t, std::uint64_t>>;

// How many of seeds 1..3 of arbiter a at batch b in setting c the grid lacks.
std::size_t missing_seeds(const run_set& done, const cell& c, const std::string& a, std::size_t b) {
  std::size_t missing = 0;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed)
    missing += done.count(std::make_tuple(c, a, b, seed)) == 0 ? 1u : 0u;
  return missing;
}

// A verdict no setting has decided yet, of `runs` the rule reads, `missing`
// of them not in the grid: undecided without any, pending while some are
// missing (`so_far` appended inside its parentheses), else not reproduced.
std::string open_verdict(std::size_t runs, std::size_t missing, const std::string& so_far = "") {
  if (runs == 0) return "undecided (the design holds none of the runs the rule reads)";
  if (missing == 0) return "not reproduced";
  return cli::format("pending (%zu of the %zu runs the rule reads", runs - missing, runs) + so_far +
         ")";
}

// The runs of the design the rule reads with the inverse-weighted models
// `weighted` picks (in the settings where the design runs one of them), and
// how many of them the grid lacks.
template <class Which>
std::pair<std::size_t, std::size_t> read_by_rule(const std::vector<planned>& design,
                                                 const run_set& done, Which weighted) {
  std::set<cell> judged;  // the settings where the design runs such a model
  for (const planned& p : design)
    if (weighted(p.arbiter)) judged.insert(p.network);
  std::size_t runs = 0, missing = 0;
  for (const planned& p : design) {
    const cell& c = p.network;
    if (judged.count(c) == 0) continue;
    if (c.size != 8 || !consistent(c.adapter_buffer, c.torus_latency)) continue;
    if (p.batch != 1024 && p.batch != 4096) continue;
    if (p.arbiter != "round_robin" && !weighted(p.arbiter)) continue;
    runs += seeds;
    missing += missing_seeds(done, c, p.arbiter, p.batch);
  }
  return {runs, missing};
}

// The verdict line for the inverse-weighted models `weighted` picks, over
// the design's network settings (`read`: the runs the rule reads and those
// missing): reproduced by a setting that meets the rule; not reproduced,
// each setting's reason named, once the runs in rule out every consistent
// 8x8x8 setting where the design runs such a model (or every run the rule
// reads is in).
template <class Which>
std::string verdict(const std::map<summary_key, summary>& s, const std::vector<planned>& design,
                    Which weighted, std::pair<std::size_t, std::size_t> read) {
  std::set<std::pair<cell, std::string>> judged;
  for (const planned& p : design)
    if (weighted(p.arbiter) && p.network.size == 8 &&
        consistent(p.network.adapter_buffer, p.network.torus_latency))
      judged.emplace(p.network, p.arbiter);
  std::string which;
  std::map<cell, std::vector<std::string>> why;  // per setting, its distinct reasons
  bool all_ruled_out = !judged.empty();
  for (const auto& [c, a] : judged) {
    const judgement j = judge(s, c, a);
    if (j.reproduces(c)) which += std::string(which.empty() ? "" : "; ") + name(c) + ", " + a;
    all_ruled_out = all_ruled_out && j.ruled_out;
    std::vector<std::string>& w = why[c];
    if (j.ruled_out && std::find(w.begin(), w.end(), j.reason) == w.end()) w.push_back(j.reason);
  }
  std::string reasons;
  for (const auto& [c, w] : why) {
    if (w.empty()) continue;
    reasons += (reasons.empty() ? "" : "; ") + name(c) + ": " + w.front();
    for (std::size_t k = 1; k < w.size(); ++k) reasons += ", " + w[k];
  }
  if (!which.empty()) return "reproduced (" + which + ")";
  const auto [runs, missing] = read;
  if (runs > 0 && (missing == 0 || all_ruled_out)) {
    std::string v = "not reproduced";
    if (missing > 0)
      v += cli::format(", every setting ruled out with %zu of the %zu runs the rule reads in",
                       runs - missing, runs);
    return reasons.empty() ? v : v + " (" + reasons + ")";
  }
  return open_verdict(runs, missing, reasons.empty() ? "" : "; ruled out so far: " + reasons);
}

// The 1-hop verdict line for the model `weighted` picks beside round robin,
// over the design's settings that run both at batches 256, 1,024 and
// 4,096: reproduced when both are stable in every such setting, not
// reproduced once one is not, pending while runs are missing.
template <class Which>
std::string onehop_verdict(const std::map<summary_key, summary>& s,
                           const std::vector<planned>& design, const run_set& done,
                           Which weighted) {
  const std::set<std::size_t> three = {256, 1024, 4096};
  std::map<std::pair<cell, std::string>, std::set<std::size_t>> batches_of;
  for (const planned& p : design) batches_of[{p.network, p.arbiter}].insert(p.batch);
  const auto runs_all = [&](const cell& c, const std::string& a) {
    const auto it = batches_of.find({c, a});
    return it != batches_of.end() &&
           std::includes(it->second.begin(), it->second.end(), three.begin(), three.end());
  };
  std::string detail;
  std::size_t runs = 0, missing = 0;
  bool failed = false;
  for (const auto& [key, b] : batches_of) {
    const cell& c = key.first;
    if (!weighted(key.second) || !runs_all(c, key.second) || !runs_all(c, "round_robin")) continue;
    std::string ratios;
    for (const std::string& a : {std::string("round_robin"), key.second}) {
      for (const std::size_t batch : three) {
        runs += seeds;
        missing += missing_seeds(done, c, a, batch);
      }
      const stability st = stable(s, c, a);
      if (!st.complete) continue;
      failed = failed || !st.stable();
      ratios += cli::format("%s%s %.3f", ratios.empty() ? "" : ", ", a.c_str(), st.ratio);
    }
    if (!ratios.empty()) detail += (detail.empty() ? "" : "; ") + name(c) + ": " + ratios;
  }
  const std::string of = "; the mean at 4,096 over the greatest";
  if (failed) return "not reproduced (" + detail + of + ")";
  if (runs == 0 || missing > 0) return open_verdict(runs, missing);
  return "reproduced (" + detail + of + ")";
}

// The summaries as CSV rows, in the tables' order.
void write_csv(cli::output_file& out, const std::map<summary_key, summary>& s) {
  out.line(
      "size,router_buffer,adapter_buffer,torus_latency,pipeline,consistent,arbiter,batch,seeds,"
      "finished,normalized_mean,normalized_least,normalized_greatest,spread,forfeited_per_grant");
  for (const auto& [key, x] : s) {
    const cell& c = std::get<0>(key);
    out.line(cli::format("%u,%u,%u,%u,%u,%d,%s,%zu,%zu,%d,%.5f,%.5f,%.5f,%.4f,%.5f", c.size,
                         c.router_buffer, c.adapter_buffer, c.torus_latency, c.pipeline,
                         consistent(c.adapter_buffer, c.torus_latency) ? 1 : 0,
                         std::get<1>(key).c_str(), std::get<2>(key), x.runs, x.finished ? 1 : 0,
                         x.mean, x.least, x.most, x.spread, x.forfeited_per_grant));
  }
  out.close();
}

int run(int argc, char** argv) {
  arguments given;
  settings().parse(argc, argv, given).write_resolved(settings().resolved(given));
  const std::string &grid_path = given.files.grid, &design_path = given.files.design,
                    &csv_path = given.files.csv, &pattern = given.pattern;
  const std::vector<planned> design =
      read_design(cli::file_text("--design", design_path), design_path);
  // (a path that cannot be written is bad input, before any other work)
  cli::output_file csv("--csv", csv_path);
  const std::vector<row> rows = read_grid(cli::file_text("--grid", grid_path), grid_path);
  run_set done;
  for (const row& r : rows) done.emplace(r.network, r.arbiter, r.batch, r.seed);
  std::size_t missing = 0;
  std::set<cell> cells;
  std::set<std::size_t> batches;
  for (const planned& p : design) {
    cells.insert(p.network);
    batches.insert(p.batch);
    missing += missing_seeds(done, p.network, p.arbiter, p.batch);
  }
  for (const row& r : rows) {  // (runs beyond the design are shown too)
    cells.insert(r.network);
    batches.insert(r.batch);
  }
  const std::size_t planned_runs = design.size() * seeds;
  const std::map<summary_key, summary> s = summarize(rows);
  const bool onehop = pattern == "neighbor1";
  std::printf(
      "%s (docs/results.md): Anton 2's node, %s traffic, 1-flit\n"
      "packets, weights from uniform traffic's loads; %zu of the design's %zu runs in\n"
      "the grid, %zu rows in all. Normalized throughput per batch: the mean over the\n"
      "seeds (least-greatest); spread and forfeits per grant at the largest batch run.\n"
      "Consistent: the adapter buffers cover the torus link's credit round trip.\n\n",
      onehop ? "Figure 9's 1-hop statement" : "Figure 9, the study",
      onehop ? "1-hop neighbor" : "uniform", planned_runs - missing, planned_runs, rows.size());
  print_table(s, cells, batches);
  const auto exact = [](const std::string& a) { return a == "inverse_weighted_exact"; };
  if (onehop) {
    const auto most_accurate = [](const std::string& a) { return a == "inverse_weighted"; };
    std::printf("\nFigure 9 1-hop verdict: %s\n",
                onehop_verdict(s, design, done, most_accurate).c_str());
    std::printf("With exact Eq. 3 as the inverse weights: %s\n",
                onehop_verdict(s, design, done, exact).c_str());
    if (csv.open()) write_csv(csv, s);
    return 0;
  }
  std::printf("\nFigure 9 verdict: %s\n",
              verdict(s, design, hardware, read_by_rule(design, done, hardware)).c_str());
  std::printf("With exact Eq. 3 as the inverse weights: %s\n",
              verdict(s, design, exact, read_by_rule(design, done, exact)).c_str());
  if (csv.open()) write_csv(csv, s);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("figure9_verdict", help.c_str(), "a smaller grid", argc, argv,
                       [&] { return run(argc, argv); });
}
