// SPDX-License-Identifier: BSL-1.0
// table5_verdict: the Table 5 study's tables and verdicts, from its grid and design files.
//
//   table5_verdict --grid FILE --design FILE [--csv FILE]
//
// Reads the grid table5_study writes (one row per run) and the registered
// design (table5_study.hpp) and prints, per workload, load and queue depth,
// each arbitration setting's accepted throughput, network latency, sources'
// spread, Eq. 17 stalls and ages over its seeds; then the verdicts by the
// study's rule: setting X beats Y at a point when X's seeds' range of mean
// network latency lies wholly below Y's and its accepted throughput's range
// not wholly below Y's, or its accepted throughput's range wholly above
// Y's and its latency's not wholly above (every seed of both in; where a
// run left measured packets undelivered, throughput alone). Markdown, for docs/results.md; with
// --csv, one row per setting and point.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "csv_file.hpp"
#include "study_files.hpp"
#include "table5_study.hpp"

namespace {

using namespace table5;

struct arguments {
  cli::study_files files;
};

const cli::setting_table<arguments>& settings() {
  static const cli::setting_table<arguments> table = [] {
    std::vector<cli::setting<arguments>> list = cli::study_file_settings<arguments>(
        "the registered design (CSV: workload, load, period, bias, queue)",
        "the summaries as CSV, one row per point and setting");
    return cli::setting_table<arguments>(std::move(list));
  }();
  return table;
}

std::string help_text() {
  return cli::help_page(
      "usage: table5_verdict --grid FILE --design FILE [--csv FILE]\n",
      "The Table 5 study (docs/results.md, \"The Table 5 study\"): from its grid (one\n"
      "row per run, as table5_study writes it) and its registered design, each\n"
      "point's settings over their seeds (mean, least-greatest), then the verdicts\n"
      "by the rule: X beats Y at a point when X's range of mean network latency\n"
      "over the seeds lies wholly below Y's and its accepted throughput's range is\n"
      "not wholly below Y's, or the reverse with throughput first; judged once\n"
      "both have all their seeds in, by throughput alone where a run of either left\n"
      "measured packets undelivered (a source starved).\n"
      "  Table 5 verdict: biases 3,2,1 against 1,1,1 at every point and period;\n"
      "  Table 5 period verdict: period 8 against every other period;\n"
      "  Table 5 age verdict: period 8 with 3,2,1 against round robin.\n",
      settings(),
      "Exit status: 0 done; 2 bad input (a flag, or the file, line and column);\n"
      "3 the output could not be written.\n");
}

/// A setting's runs at a point, over its seeds.
struct summary {
  std::size_t runs = 0;
  bool ok = true;  // every run complete, none deadlocked
  double lat = 0, lat_lo = 0, lat_hi = 0;
  double acc = 0, acc_lo = 0, acc_hi = 0;  // accepted / capacity
  double lat_max = 0, spread = 0, stall[3] = {}, ages[4] = {};
  bool complete() const { return runs >= seeds; }
};

using point = std::tuple<std::string, std::string, std::string>;  // workload, load, queue
using setting = std::pair<std::string, std::string>;              // period, bias
using table = std::map<point, std::map<setting, summary>>;

table summarize(const std::vector<row>& rows) {
  std::map<point, std::map<setting, std::vector<const row*>>> by;
  for (const row& r : rows)
    by[point{r.run.workload, r.run.load, r.run.queue}][setting{r.run.period, r.run.bias}].push_back(
        &r);
  table out;
  for (const auto& [p, settings] : by)
    for (const auto& [s, runs] : settings) {
      summary x;
      x.runs = runs.size();
      const double n = static_cast<double>(runs.size());
      bool first = true;
      for (const row* r : runs) {
        const measured& m = r->m;
        const double a = m.capacity > 0 ? m.accepted / m.capacity : 0;
        x.ok = x.ok && m.complete && !m.deadlocked;
        x.lat += m.latency_mean / n;
        x.acc += a / n;
        x.lat_lo = first ? m.latency_mean : std::min(x.lat_lo, m.latency_mean);
        x.lat_hi = first ? m.latency_mean : std::max(x.lat_hi, m.latency_mean);
        x.acc_lo = first ? a : std::min(x.acc_lo, a);
        x.acc_hi = first ? a : std::max(x.acc_hi, a);
        first = false;
        x.lat_max += m.latency_max / n;
        x.spread += m.source_spread / n;
        for (std::size_t d = 0; d < 3; ++d) x.stall[d] += (m.stall[d][0] + m.stall[d][1]) / 2 / n;
        double all = 0;
        for (const std::uint64_t b : m.ages) all += static_cast<double>(b);
        for (std::size_t b = 0; b < 4; ++b)
          x.ages[b] += all > 0 ? static_cast<double>(m.ages[b]) / all / n : 0;
      }
      out[p][s] = x;
    }
  return out;
}

enum class judged { pending, beats, loses, neither };

/// The rule: X against Y at one point, once both have every seed in. When
/// a run of either left measured packets undelivered (a source starved past
/// capacity), its latency is of the packets that got through, so
/// throughput alone judges.
judged judge(const summary* x, const summary* y) {
  if (x == nullptr || y == nullptr || !x->complete() || !y->complete()) return judged::pending;
  const bool latency_counts = x->ok && y->ok;
  const auto wins = [latency_counts](const summary& a, const summary& b) {
    const bool lat_better = latency_counts && a.lat_hi < b.lat_lo;
    const bool lat_worse = latency_counts && a.lat_lo > b.lat_hi;
    const bool acc_better = a.acc_lo > b.acc_hi, acc_worse = a.acc_hi < b.acc_lo;
    return (lat_better && !acc_worse) || (acc_better && !lat_worse);
  };
  if (wins(*x, *y)) return judged::beats;
  if (wins(*y, *x)) return judged::loses;
  return judged::neither;
}

const summary* find(const table& t, const point& p, const setting& s) {
  const auto i = t.find(p);
  if (i == t.end()) return nullptr;
  const auto j = i->second.find(s);
  return j == i->second.end() ? nullptr : &j->second;
}

std::string point_name(const point& p) {
  return std::get<0>(p) + " " + std::get<1>(p) + " " + std::get<2>(p);
}

/// A verdict line: how often X beats / loses to Y over the comparisons
/// `pairs` (each a point and the two settings), or pending.
struct tally {
  std::size_t total = 0, judged_count = 0, wins = 0, losses = 0;
  std::vector<std::string> won, lost;
  void add(judged j, const std::string& where) {
    ++total;
    if (j == judged::pending) return;
    ++judged_count;
    if (j == judged::beats) {
      ++wins;
      won.push_back(where);
    } else if (j == judged::loses) {
      ++losses;
      lost.push_back(where);
    }
  }
  static std::string listed(const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size() && i < 12; ++i) s += (i ? "; " : "") + v[i];
    if (v.size() > 12) s += cli::format("; and %zu more", v.size() - 12);
    return s;
  }
  // "pending (...): " while a comparison waits for runs; then "WIN at K of
  // M (where); LOSE at L (where)".
  std::string line(const char* win, const char* lose) const {
    if (total == 0) return "nothing to judge (the design has no such comparisons)";
    std::string head =
        judged_count < total
            ? cli::format("pending (%zu of %zu comparisons judged so far): ", judged_count, total)
            : std::string();
    std::string s = head + cli::format("%s at %zu of %zu", win, wins, judged_count);
    if (!won.empty()) s += " (" + listed(won) + ")";
    s += cli::format("; %s at %zu", lose, losses);
    if (!lost.empty()) s += " (" + listed(lost) + ")";
    return s;
  }
};

void print_point(const point& p, const std::map<setting, summary>& settings,
                 const std::vector<planned>& design) {
  std::printf("\n**%s, load %s, %s queues**\n\n", std::get<0>(p).c_str(), std::get<1>(p).c_str(),
              std::get<2>(p).c_str());
  std::printf(
      "| period | bias | seeds | accepted / capacity | network latency | max | sources' "
      "max/min | stall x, y, z | ages 0-63 / 64-127 / 128-191 / 192-255 |\n"
      "|---|---|---|---|---|---|---|---|---|\n");
  for (const planned& d : design) {
    if (point{d.workload, d.load, d.queue} != p) continue;
    const auto it = settings.find(setting{d.period, d.bias});
    if (it == settings.end()) {
      std::printf("| %s | %s | 0 | | | | | | |\n", d.period.c_str(), d.bias.c_str());
      continue;
    }
    const summary& x = it->second;
    std::printf(
        "| %s | %s | %zu%s | %.3f (%.3f-%.3f) | %.0f (%.0f-%.0f) | %.0f | %.2f | %.1f, %.1f, %.1f "
        "| %.3f / %.3f / %.3f / %.3f |\n",
        d.period.c_str(), d.bias.c_str(), x.runs, x.ok ? "" : " (incomplete)", x.acc, x.acc_lo,
        x.acc_hi, x.lat, x.lat_lo, x.lat_hi, x.lat_max, x.spread, x.stall[0], x.stall[1],
        x.stall[2], x.ages[0], x.ages[1], x.ages[2], x.ages[3]);
  }
}

int run(int argc, char** argv) {
  arguments given;
  settings().parse(argc, argv, given).write_resolved(settings().resolved(given));
  const std::string &grid_path = given.files.grid, &design_path = given.files.design,
                    &csv_path = given.files.csv;
  const std::vector<planned> design =
      read_design(cli::file_text("--design", design_path), design_path);
  if (design.empty())
    throw cli::bad_input{design_path + ":2:1: no runs: a design runs at least one"};
  cli::output_file csv("--csv", csv_path);
  const std::vector<row> rows = read_grid(cli::file_text("--grid", grid_path), grid_path);
  const table t = summarize(rows);
  std::vector<point> points;
  for (const planned& d : design) {
    const point p{d.workload, d.load, d.queue};
    if (std::find(points.begin(), points.end(), p) == points.end()) points.push_back(p);
  }
  std::size_t in = 0;
  for (const planned& d : design) {
    const summary* x = find(t, point{d.workload, d.load, d.queue}, setting{d.period, d.bias});
    in += x == nullptr ? 0 : std::min<std::size_t>(x->runs, seeds);
  }
  std::printf(
      "Table 5, the study (docs/results.md): %zu of the design's %zu runs in the grid.\n"
      "Per point, each setting over its seeds: accepted throughput as a share of the\n"
      "workload's capacity and mean network latency in cycles (mean, least-greatest),\n"
      "the worst packet's network latency, the sources' max/min of their mean network\n"
      "latency, Eq. 17's stalled cycles per packet (x, y, z: the mean of + and -) and\n"
      "the departures' ages in Table 4's buckets (shares), each the mean over the seeds.\n",
      in, design.size() * seeds);
  for (const point& p : points) {
    const auto it = t.find(p);
    print_point(p, it == t.end() ? std::map<setting, summary>{} : it->second, design);
  }
  // The verdicts, over the comparisons the design holds.
  const auto has = [&](const point& p, const std::string& period, const std::string& bias) {
    for (const planned& d : design)
      if (point{d.workload, d.load, d.queue} == p && d.period == period && d.bias == bias)
        return true;
    return false;
  };
  tally bias, period, age;
  const std::vector<std::string> age_periods = {"4", "8", "16", "32", "predicted"};
  for (const point& p : points) {
    for (const std::string& per : age_periods)
      if (has(p, per, "3/2/1") && has(p, per, "1/1/1"))
        bias.add(judge(find(t, p, {per, "3/2/1"}), find(t, p, {per, "1/1/1"})),
                 point_name(p) + " period " + per);
    for (const char* b : {"1/1/1", "3/2/1", "1/2/3"}) {
      if (!has(p, "8", b)) continue;
      // Period 8 beats every other period at (p, b): a win; loses to any: a loss.
      bool pending = false, all = true, any_loss = false, any = false;
      for (const std::string& per : age_periods) {
        if (per == "8" || !has(p, per, b)) continue;
        any = true;
        const judged j = judge(find(t, p, {"8", b}), find(t, p, {per, b}));
        pending = pending || j == judged::pending;
        all = all && j == judged::beats;
        any_loss = any_loss || j == judged::loses;
      }
      if (!any) continue;
      period.add(pending    ? judged::pending
                 : all      ? judged::beats
                 : any_loss ? judged::loses
                            : judged::neither,
                 point_name(p) + " bias " + b);
    }
    if (has(p, "8", "3/2/1") && has(p, "round_robin", "none"))
      age.add(judge(find(t, p, {"8", "3/2/1"}), find(t, p, {"round_robin", "none"})),
              point_name(p));
  }
  std::printf("\nTable 5 verdict: %s\n",
              bias.line("biases 3,2,1 beat 1,1,1", "1,1,1 beat 3,2,1").c_str());
  std::printf(
      "Table 5 period verdict: %s\n",
      period.line("period 8 beat every other period", "another period beat period 8").c_str());
  std::printf(
      "Table 5 age verdict: %s\n",
      age.line("age (period 8, biases 3,2,1) beat round robin", "round robin beat age").c_str());
  if (csv.open()) {
    csv.line(
        "workload,load,queue,period,bias,runs,complete,accepted_fraction,accepted_least,"
        "accepted_greatest,latency_mean,latency_least,latency_greatest,latency_max,"
        "source_spread,stall_x,stall_y,stall_z,age_0_63,age_64_127,age_128_191,age_192_255");
    for (const auto& [p, settings] : t)
      for (const auto& [s, x] : settings)
        csv.line(cli::format(
            "%s,%s,%s,%s,%s,%zu,%d,%.5f,%.5f,%.5f,%.2f,%.2f,%.2f,%.0f,%.4f,%.3f,%.3f,%.3f,%.4f,"
            "%.4f,%.4f,%.4f",
            std::get<0>(p).c_str(), std::get<1>(p).c_str(), std::get<2>(p).c_str(), s.first.c_str(),
            s.second.c_str(), x.runs, x.ok ? 1 : 0, x.acc, x.acc_lo, x.acc_hi, x.lat, x.lat_lo,
            x.lat_hi, x.lat_max, x.spread, x.stall[0], x.stall[1], x.stall[2], x.ages[0], x.ages[1],
            x.ages[2], x.ages[3]));
    csv.close();
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("table5_verdict", help.c_str(), "a smaller grid", argc, argv,
                       [&] { return run(argc, argv); });
}
