// SPDX-License-Identifier: BSL-1.0
// figure9_verdict: the registered Figure 9 study's tables and verdict, from its grid file.
//
//   figure9_verdict --grid FILE
//
// Reads the grid the study's runner writes (scripts/study figure9; one row
// per run, figure9_study.hpp) and prints, per pattern, every cell's
// throughput over its seeds, the registered criteria per configuration, the
// verdict line the rule gives ("pending" while runs are missing) and each
// factor's main effect. Markdown tables, for docs/results.md.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "figure9_study.hpp"

namespace {

using namespace figure9;

const char* const help_text =
    "usage: figure9_verdict --grid FILE\n"
    "\n"
    "The registered Figure 9 study (docs/results.md, \"Registered study: Figure 9\n"
    "at 8x8x8\"): from its grid file (one row per run, as scripts/study figure9\n"
    "writes it), per pattern: every cell's normalized throughput over its three\n"
    "seeds (mean, least-greatest), completion spread, forfeits per grant and\n"
    "request share; the registered criteria per configuration; the verdict the\n"
    "rule gives (pending while runs are missing); each factor's main effect at\n"
    "batch 1024 with its standard error from the seeds.\n"
    "\n"
    "  --grid FILE        the grid (CSV with the study's header)\n"
    "  --config FILE      flags from a file of 'key = value' lines\n"
    "  --help             this text\n"
    "\n"
    "Exit status: 0 done; 2 bad input (a flag, or the file, line and column);\n"
    "3 the output could not be written.\n";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw cli::bad_input{"--grid: cannot open '" + path + "'"};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw cli::bad_input{"--grid: cannot read '" + path + "'"};
  return text.str();
}

const char* pattern_name(const std::string& p) {
  return p == "uniform" ? "uniform" : "2-hop neighbor";
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

std::string throughput(const std::map<cell_key, cell>& cells, const cell_key& key) {
  const auto it = cells.find(key);
  if (it == cells.end()) return "0 of 3 runs";
  const cell& c = it->second;
  if (!c.complete()) return std::to_string(c.runs) + " of 3 runs";
  return cli::format("%.3f (%.3f-%.3f)%s", c.mean, c.least, c.most,
                     c.finished ? "" : " unfinished");
}

void print_cells(const std::map<cell_key, cell>& cells, const std::string& pattern) {
  std::printf(
      "\n%s: normalized throughput, mean over the seeds (least-greatest); at batch 1024 the\n"
      "means of completion spread, forfeits per grant and request share (10th percentile)\n\n",
      pattern_name(pattern));
  std::printf(
      "| configuration | router | adapter | torus latency | pipeline | arbiter | batch 256 | "
      "batch 1024 | spread | forfeits/grant | request share (p10) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (std::size_t c = 1; c <= design().size(); ++c) {
    const configuration& x = design()[c - 1];
    for (const std::string& a : arbiters()) {
      const auto it = cells.find(cell_key{c, pattern, a, 1024});
      std::string extra = "| | |";
      if (it != cells.end() && it->second.complete())
        extra = cli::format("| %.2f | %.4f | %.2f (%.2f) |", it->second.spread,
                            it->second.forfeits_per_grant, it->second.request_share,
                            it->second.request_share_p10);
      std::printf("| %zu | %u | %u | %u | %u | %s | %s | %s %s\n", c, x.router_buffer,
                  x.adapter_buffer, x.torus_latency, x.pipeline, a.c_str(),
                  throughput(cells, cell_key{c, pattern, a, 256}).c_str(),
                  throughput(cells, cell_key{c, pattern, a, 1024}).c_str(), extra.c_str());
    }
  }
}

// The verdict line for `weighted` at `pattern`.
std::string verdict(const std::map<cell_key, cell>& cells, const std::string& pattern,
                    const std::string& weighted, std::size_t runs) {
  std::string which;
  bool complete = true;
  for (std::size_t c = 1; c <= design().size(); ++c) {
    const judgement j = judge(cells, c, pattern, weighted);
    complete = complete && j.complete;
    if (j.reproduces()) which += (which.empty() ? "" : ", ") + std::to_string(c);
  }
  if (!complete || runs < runs_per_pattern)
    return cli::format("pending (%zu of %zu runs)", runs, runs_per_pattern);
  if (which.empty()) return "not reproduced";
  return "reproduced (configuration" +
         std::string(which.find(',') == std::string::npos ? " " : "s ") + which + ")";
}

void print_criteria(const std::map<cell_key, cell>& cells, const std::string& pattern,
                    std::size_t runs) {
  const bool uniform = pattern == "uniform";
  std::printf(
      "\nCriteria at %s: 1, T(1024) >= 0.85; 2, T(1024) >= T(256) - 0.03%s (T: the\n"
      "weighted arbiter's mean over the seeds)\n\n",
      pattern_name(pattern), uniform ? "; 3, round robin's T(1024) <= 0.65" : "");
  std::printf("| configuration | inverse_weighted: 1, 2%s | inverse_weighted_exact: 1, 2%s |\n",
              uniform ? ", 3" : "", uniform ? ", 3" : "");
  std::printf("|---|---|---|\n");
  for (std::size_t c = 1; c <= design().size(); ++c) {
    std::string columns;
    for (const char* weighted : {"inverse_weighted", "inverse_weighted_exact"}) {
      const judgement j = judge(cells, c, pattern, weighted);
      std::string text = "pending";
      if (j.complete && !j.finished) text = "a run did not finish";
      if (j.complete && j.finished)
        text = yes_no(j.held_high) + ", " + yes_no(j.held_level) +
               (uniform ? ", " + yes_no(j.round_robin_low) : "");
      columns += " " + text + " |";
    }
    std::printf("| %zu |%s\n", c, columns.c_str());
  }
  std::printf("\nFigure 9 verdict (%s): %s\n", pattern_name(pattern),
              verdict(cells, pattern, "inverse_weighted", runs).c_str());
  std::printf("With exact Eq. 3 in place of the hardware model (%s): %s\n", pattern_name(pattern),
              verdict(cells, pattern, "inverse_weighted_exact", runs).c_str());
}

void print_effects(const std::map<cell_key, cell>& cells, const std::string& pattern) {
  std::printf(
      "\nMain effects at %s, batch 1024: high level minus low, +- the standard error\n"
      "from the seeds (* more than twice it); aliased with three-factor interactions\n\n",
      pattern_name(pattern));
  std::printf(
      "| factor (low, high) | round_robin | inverse_weighted | inverse_weighted_exact | "
      "inverse_weighted - round_robin |\n");
  std::printf("|---|---|---|---|---|\n");
  const char* factors[] = {"A: router buffer (8, 32)", "B: adapter buffer (1x, 4x A)",
                           "C: torus latency (0, 64)", "D: pipeline (1, 4)"};
  auto at = [&](std::size_t c, const std::string& a) -> const cell* {
    const auto it = cells.find(cell_key{c + 1, pattern, a, 1024});
    return it == cells.end() || !it->second.complete() ? nullptr : &it->second;
  };
  for (std::size_t f = 0; f < 4; ++f) {
    std::string line = cli::format("| %s |", factors[f]);
    for (int response = 0; response < 4; ++response) {
      bool complete = true;
      for (std::size_t c = 0; c < design().size(); ++c)
        complete = complete && at(c, "round_robin") != nullptr &&
                   at(c, "inverse_weighted") != nullptr &&
                   at(c, "inverse_weighted_exact") != nullptr;
      if (!complete) {
        line += " pending |";
        continue;
      }
      const effect_estimate e = effect(f, [&](std::size_t c) {
        if (response < 3) {
          const cell* x = at(c, arbiters()[static_cast<std::size_t>(response)]);
          return std::make_pair(x->mean, x->sd);
        }
        // The gap's seed variation: the two arbiters' runs are independent.
        const cell* w = at(c, "inverse_weighted");
        const cell* r = at(c, "round_robin");
        return std::make_pair(w->mean - r->mean, std::sqrt(w->sd * w->sd + r->sd * r->sd));
      });
      // (an effect that rounds to zero prints as +0.000, whatever its sign)
      const double shown = std::fabs(e.effect) < 0.0005 ? 0.0 : e.effect;
      line += cli::format(" %+.3f +- %.3f%s |", shown, e.standard_error, e.shown() ? " *" : "");
    }
    std::printf("%s\n", line.c_str());
  }
}

int run(int argc, char** argv) {
  std::string grid;
  cli::flags flags(argc, argv, cli::no_switches);
  flags.for_each([&](const std::string& flag, const auto& value) {
    if (flag == "--grid") {
      grid = value();
    } else {
      throw cli::bad_input{flag + ": unknown option (see --help)"};
    }
  });
  if (grid.empty()) throw cli::bad_input{"--grid: required (the study's grid file)"};
  const std::vector<row> rows = read_grid(read_file(grid), grid);
  const std::map<cell_key, cell> cells = summarize(rows);
  std::size_t uniform = 0;
  for (const row& r : rows) uniform += r.pattern == "uniform" ? 1u : 0u;
  const std::size_t neighbor = rows.size() - uniform;
  std::printf(
      "Figure 9 at 8x8x8, the registered study (docs/results.md): Anton 2's node,\n"
      "1-flit packets, weights from uniform traffic's loads\n"
      "Runs in the grid: uniform %zu of %zu, 2-hop neighbor %zu of %zu\n",
      uniform, runs_per_pattern, neighbor, runs_per_pattern);
  for (const std::string& p : patterns()) {
    print_cells(cells, p);
    print_criteria(cells, p, p == "uniform" ? uniform : neighbor);
    print_effects(cells, p);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return cli::run_tool("figure9_verdict", help_text, "a smaller grid", argc, argv,
                       [&] { return run(argc, argv); });
}
