// SPDX-License-Identifier: BSL-1.0
// figure10_verdict: the Figure 10 study's tables and verdicts, from its grid and design files.
//
//   figure10_verdict --grid FILE --design FILE [--csv FILE] [--reading R]
//
// Reads the grid the study's runner writes (scripts/study figure10; one row
// per run) and the registered design (figure10_study.hpp) and prints each
// blend's normalized throughput and completion spread per arbiter setting
// over its seeds, then the verdict by the rule (two labelled weight sets of
// the hardware model within 0.80-0.90 at every blend: reproduced once every
// blend is in and inside, not reproduced as soon as one complete blend is
// outside, pending otherwise), the single-set statement and the band with
// exact Eq. 3's weights. Markdown tables, for docs/results.md. With --csv,
// the summaries one row per setting, arbiter and blend (what
// docs/results/studies/figure10/grid.gp plots). --reading names the router
// reading the runs were made under (the decomposition study's part F), for
// the title; the single-set line says "not in the design" when the design
// has no single weight set.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "csv_file.hpp"
#include "figure10_study.hpp"
#include "study_files.hpp"

namespace {

using namespace figure10;

struct arguments {
  cli::study_files files;
  std::string reading = "default";
};

const cli::setting_table<arguments>& flag_settings() {
  static const cli::setting_table<arguments> table = [] {
    std::vector<cli::setting<arguments>> list = cli::study_file_settings<arguments>(
        "the registered design (CSV: "
        "size, router_buffer, adapter_buffer, torus_latency, pipeline, setting, arbiter, "
        "share, batch)",
        "the summaries as CSV, one row per setting, arbiter and blend: seeds in, all finished, "
        "normalized throughput's mean, least and greatest, mean completion spread");
    list.push_back(cli::custom<arguments>(
        "--reading", "R", "the router reading the runs were made under, for the title",
        [](arguments& a, const std::string& v) {
          if (v.empty() || v.size() > 40 ||
              v.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_+") != std::string::npos)
            throw cli::bad_input{"--reading: '" + v.substr(0, 40) +
                                 "'; allowed: a reading's name (letters, digits, _ and +)"};
          a.reading = v;
        },
        [](const arguments& a) { return a.reading; }));
    return cli::setting_table<arguments>(std::move(list));
  }();
  return table;
}

std::string help_text() {
  return cli::help_page(
      "usage: figure10_verdict --grid FILE --design FILE [--csv FILE] [--reading R]\n",
      "The Figure 10 study (docs/results.md, \"The Figure 10 study\"): from its grid\n"
      "(one row per run, as scripts/study figure10 writes it) and its registered\n"
      "design (the runs it makes, each with seeds 1, 2 and 3), each blend's\n"
      "normalized throughput per arbiter setting over the seeds (mean,\n"
      "least-greatest) and completion spread, then the verdict by the rule: two\n"
      "labelled weight sets (both, the hardware model) hold a mean within\n"
      "0.80-0.90 at every blend the design runs; not reproduced as soon as a blend\n"
      "with its three seeds in is outside or has a run that did not finish,\n"
      "pending while blends are missing. Then the single-set statement (forward\n"
      "at least 0.05 above round robin at f = 0 and at most 0.03 above it at\n"
      "f = 1, reverse the mirror) and the band with exact Eq. 3's weights.\n",
      flag_settings(),
      "Exit status: 0 done; 2 bad input (a flag, or the file, line and column);\n"
      "3 the output could not be written.\n");
}

// The table's columns: each (setting, arbiter) the design runs, in Figure 10's order.
std::vector<std::pair<std::string, std::string>> columns(const std::vector<planned>& design) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& a : arbiters())
    for (const std::string& setting : settings())
      for (const planned& p : design)
        if (p.setting == setting && p.arbiter == a) {
          out.emplace_back(setting, a);
          break;
        }
  return out;
}

std::string title(const std::pair<std::string, std::string>& c) {
  return c.second == "inverse_weighted_exact" ? c.first + ", exact Eq. 3" : c.first;
}

// One table over the blends: each column's throughput (mean, least-greatest)
// or, with `spread`, its mean completion spread.
void print_table(const std::map<summary_key, summary>& s, const std::vector<planned>& design,
                 bool spread) {
  const auto cols = columns(design);
  std::set<unsigned> shares;
  for (const planned& p : design) shares.insert(p.share);
  std::string head = "| f |", rule = "|---|";
  for (const auto& c : cols) {
    head += " " + title(c) + " |";
    rule += "---|";
  }
  std::printf("%s\n%s\n", head.c_str(), rule.c_str());
  const cell n = design.front().network;
  const std::size_t batch = design.front().batch;
  for (const unsigned f : shares) {
    std::string line = cli::format("| %.1f |", f / 1000.0);
    for (const auto& c : cols) {
      const auto it = s.find(summary_key{n, c.first, c.second, f, batch});
      if (it == s.end()) {
        line += " |";
        continue;
      }
      const summary& x = it->second;
      if (!x.complete())
        line += cli::format(" %zu of %llu seeds |", x.runs, static_cast<unsigned long long>(seeds));
      else if (spread)
        line += cli::format(" %.2f |", x.spread);
      else
        line += cli::format(" %.3f (%.3f-%.3f)%s |", x.mean, x.least, x.most,
                            x.finished ? "" : " unfinished");
    }
    std::printf("%s\n", line.c_str());
  }
}

// The runs in the grid of the design's setting and batch: (setting, arbiter, blend, seed).
using run_set = std::set<std::tuple<std::string, std::string, unsigned, std::uint64_t>>;

// Of the design's runs that `pick` selects (seeds 1..3 each), how many
// there are and how many the grid holds.
template <class Pick>
std::pair<std::size_t, std::size_t> runs_in(const std::vector<planned>& design, const run_set& done,
                                            Pick pick) {
  std::size_t runs = 0, in = 0;
  for (const planned& p : design)
    if (pick(p))
      for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
        ++runs;
        in += done.count(std::make_tuple(p.setting, p.arbiter, p.share, seed));
      }
  return {runs, in};
}

// The band's line for (setting, arbiter): the verdict's wording.
std::string band_line(const std::map<summary_key, summary>& s, const std::vector<planned>& design,
                      const std::string& setting, const std::string& arbiter, const run_set& done) {
  const band_judgement j = band(s, design, setting, arbiter);
  if (j.blends == 0) return "undecided (the design does not run it)";
  const auto [runs, in] = runs_in(
      design, done, [&](const planned& p) { return p.setting == setting && p.arbiter == arbiter; });
  if (j.in_band())
    return cli::format("reproduced (every one of %zu blends within 0.80-0.90)", j.blends);
  if (j.out)
    return cli::format("not reproduced (%s, outside 0.80-0.90; %zu of the %zu runs in)",
                       j.reason.c_str(), in, runs);
  return cli::format("pending (%zu of the %zu runs in)", in, runs);
}

void write_csv(cli::output_file& out, const std::map<summary_key, summary>& s) {
  out.line(
      "size,router_buffer,adapter_buffer,torus_latency,pipeline,setting,arbiter,share,batch,"
      "seeds,finished,normalized_mean,normalized_least,normalized_greatest,spread");
  for (const auto& [key, x] : s) {
    const cell& c = std::get<0>(key);
    out.line(cli::format("%u,%u,%u,%u,%u,%s,%s,%.3f,%zu,%zu,%d,%.5f,%.5f,%.5f,%.4f", c.size,
                         c.router_buffer, c.adapter_buffer, c.torus_latency, c.pipeline,
                         std::get<1>(key).c_str(), std::get<2>(key).c_str(),
                         std::get<3>(key) / 1000.0, std::get<4>(key), x.runs, x.finished ? 1 : 0,
                         x.mean, x.least, x.most, x.spread));
  }
  out.close();
}

int run(int argc, char** argv) {
  arguments given;
  flag_settings().parse(argc, argv, given).write_resolved(flag_settings().resolved(given));
  const std::string &grid_path = given.files.grid, &design_path = given.files.design,
                    &csv_path = given.files.csv;
  const std::vector<planned> design =
      read_design(cli::file_text("--design", design_path), design_path);
  if (design.empty())
    throw cli::bad_input{design_path + ":2:1: no runs: a design runs at least one"};
  cli::output_file csv("--csv", csv_path);
  const std::vector<row> rows = read_grid(cli::file_text("--grid", grid_path), grid_path);
  const cell n = design.front().network;
  run_set done;
  std::size_t beside = 0;  // rows of another setting or batch than the design's
  for (const row& r : rows) {
    if (r.run.network == n && r.run.batch == design.front().batch)
      done.emplace(r.run.setting, r.run.arbiter, r.run.share, r.seed);
    else
      ++beside;
  }
  const std::size_t in = runs_in(design, done, [](const planned&) { return true; }).second;
  const std::map<summary_key, summary> s = summarize(rows);
  std::printf(
      "Figure 10, the study (docs/results.md): Anton 2's node, %s%s, %zu packets\n"
      "per core; each packet to tornado's node with probability 1 - f, to reverse\n"
      "tornado's with probability f; %zu of the design's %zu runs in the grid%s.\n"
      "Normalized throughput: the mean over the seeds (least-greatest).\n\n",
      study_setting::name(n).c_str(),
      given.reading == "default" ? "" : (", router reading " + given.reading).c_str(),
      design.front().batch, in, design.size() * seeds,
      beside == 0 ? ""
                  : cli::format(" (and %zu rows outside the design's setting)", beside).c_str());
  print_table(s, design, false);
  std::printf(
      "\nCompletion spread (the cores' last over first completion), mean over the seeds:\n\n");
  print_table(s, design, true);
  std::printf("\nFigure 10 verdict: %s\n",
              band_line(s, design, "both", "inverse_weighted", done).c_str());
  const single_set_judgement j = single_set(s, design);
  const bool single = std::any_of(design.begin(), design.end(), [](const planned& p) {
    return p.setting == "forward" || p.setting == "reverse";
  });
  std::printf("Single weight sets: %s\n",
              !single ? "not in the design"
              : !j.complete
                  ? "pending"
                  : cli::format("%s (forward %+.3f over none at f = 0, %+.3f at f = 1; "
                                "reverse %+.3f at f = 1, %+.3f at f = 0)",
                                j.holds ? "as Section 4.2 says" : "not as Section 4.2 says",
                                j.forward_gain, j.forward_far, j.reverse_gain, j.reverse_far)
                        .c_str());
  std::printf("With exact Eq. 3's weights for both: %s\n",
              band_line(s, design, "both", "inverse_weighted_exact", done).c_str());
  if (csv.open()) write_csv(csv, s);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("figure10_verdict", help.c_str(), "a smaller grid", argc, argv,
                       [&] { return run(argc, argv); });
}
