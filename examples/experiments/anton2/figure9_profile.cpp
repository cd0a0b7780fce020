// SPDX-License-Identifier: BSL-1.0
// figure9_profile: where the Figure 9 study's runs lose throughput, from the
// files its runner writes beside the grid.
//
//   figure9_profile --grid FILE --positions FILE --timeline FILE [--maps] [--csv FILE]
//
// For every run of the grid (scripts/study figure9 or figure9_onehop) the
// runner keeps its cores' completion by their router's position in the node
// (S_positions.csv: each mesh router R(u,v)'s cores' mean completion) and
// its torus links' use per 1,000 cycles (S_timeline.csv). This program
// prints, per network setting, arbiter and batch over the seeds in the
// grid: the links' use over the whole run, over the bins beginning in its
// first half and in its last quarter; the position whose cores finish
// first and the one whose cores finish last (each as a fraction of the
// last arrival) and the ratio of the two. With --maps, each setting's and
// arbiter's 16 positions at its largest batch. A run stopped after its
// positions and use were written and run again leaves them twice in those
// files: the later lines replace the earlier (a position or bin read again
// for a run starts the run anew). Runs in the grid whose positions are not
// all there are counted and left out.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "csv_file.hpp"
#include "figure9_study.hpp"
#include "settings.hpp"

namespace {

using namespace figure9;
using study_setting::name;

struct arguments {
  std::string grid, positions, timeline, csv;
  bool maps = false;
};

const cli::setting_table<arguments>& settings() {
  using a = arguments;
  static const cli::setting_table<a> table({
      cli::input<a>(
          "--grid", [](auto& s) -> auto& { return s.grid; },
          "the runs (docs/results/studies/S/grid.csv)")
          .required("the study's runs"),
      cli::input<a>(
          "--positions", [](auto& s) -> auto& { return s.positions; },
          "their cores' completion by position (S_positions.csv)")
          .required("the runs' completion by position"),
      cli::input<a>(
          "--timeline", [](auto& s) -> auto& { return s.timeline; },
          "their torus links' use over time (S_timeline.csv)")
          .required("the runs' torus links' use over time"),
      cli::toggle<a>(
          "--maps", [](auto& s) -> auto& { return s.maps; },
          "also each setting's and arbiter's 16 positions at its largest batch, as a 4x4 map "
          "of the node (rows v, columns u)"),
      cli::output<a>(
          "--csv", [](auto& s) -> auto& { return s.csv; },
          "the table as CSV, with the 16 positions' fractions"),
  });
  return table;
}

std::string help_text() {
  return cli::help_page(
      "usage: figure9_profile --grid FILE --positions FILE --timeline FILE [--maps]\n"
      "                       [--csv FILE]\n",
      "Where the Figure 9 study's runs (docs/results.md) lose throughput: per network\n"
      "setting, arbiter and batch, over the seeds in the grid, the torus links' use\n"
      "over the run, in its first half and in its last quarter, and the mesh router\n"
      "position R(u,v) whose cores finish first and the one whose cores finish last\n"
      "(mean completion over the last arrival).\n",
      settings(),
      "Exit status: 0 done; 2 bad input (a flag, or the file, line and column);\n"
      "3 the output could not be written.\n");
}

constexpr std::size_t positions = 16;  // R(u,v), position 4u + v
using run_key = std::tuple<cell, std::string, std::size_t, std::uint64_t>;  // + batch, seed

std::string key_header() {
  return "size,router_buffer,adapter_buffer,torus_latency,pipeline,seed,node,pattern,arbiter,batch";
}
std::string positions_header() {
  return key_header() +
         ",position,u,v,completion_mean,completion_first,completion_last,last_arrival";
}
std::string timeline_header() { return key_header() + ",bin_start,bin_cycles,torus_utilization"; }

// Reads the ten columns both files begin with; every run of one file is of
// one traffic pattern (`pattern`, set by the first line).
struct key_reader : cli::csv_field {
  run_key key(std::string& pattern, std::size_t& pattern_line) const {
    cell c;
    c.size = static_cast<unsigned>(whole(0, 6, 8));
    if (c.size == 7) throw cli::bad_input{where(0) + ": 7; allowed: 6, 8"};
    study_setting::read_unknowns(*this, 1, c);
    const std::uint64_t seed = whole(5, 1, 1000);
    one_of(6, {"anton2"});
    const std::string p = one_of(7, {"uniform", "neighbor1"});  // (a copy: the list is a temporary)
    if (pattern.empty()) {
      pattern = p;
      pattern_line = x.number;
    } else if (p != pattern) {
      throw cli::bad_input{where(7) + ": '" + p + "'; the file's runs are of '" + pattern +
                           "' (line " + std::to_string(pattern_line) + ")"};
    }
    const std::string arbiter = one_of(8, arbiters());
    return run_key{c, arbiter, static_cast<std::size_t>(whole(9, 1, 1000000)), seed};
  }
};

struct run_positions {
  std::array<double, positions> mean{};  // each position's cores' mean completion
  std::array<bool, positions> have{};
  std::uint64_t last_arrival = 0;
  std::size_t line = 0;  // where last_arrival was read
  std::size_t count() const {
    return static_cast<std::size_t>(std::count(have.begin(), have.end(), true));
  }
};

std::map<run_key, run_positions> read_positions(const std::string& text, const std::string& path) {
  std::map<run_key, run_positions> out;
  std::string pattern;
  std::size_t pattern_line = 0;
  constexpr std::uint64_t cycles = ~std::uint64_t{0} >> 8;
  for (const cli::csv_line& x : cli::csv_lines(text, path, positions_header())) {
    const key_reader f{{path, x, cli::split(positions_header())}};
    run_positions& r = out[f.key(pattern, pattern_line)];
    const std::size_t p = static_cast<std::size_t>(f.whole(10, 0, positions - 1));
    const std::uint64_t u = f.whole(11, 0, 3), v = f.whole(12, 0, 3);
    if (u != p / 4 || v != p % 4)
      throw cli::bad_input{f.where(11) + ": R(" + f.text(11) + "," + f.text(12) +
                           ") is not position " + f.text(10) + "'s R(" + std::to_string(p / 4) +
                           "," + std::to_string(p % 4) + ")"};
    const double mean = f.real(13);
    const std::uint64_t first = f.whole(14, 0, cycles), last = f.whole(15, 0, cycles);
    const std::uint64_t arrival = f.whole(16, 1, cycles);
    if (!(static_cast<double>(first) <= mean + 0.05 && mean <= static_cast<double>(last) + 0.05 &&
          last <= arrival))
      throw cli::bad_input{f.where(13) + ": " + f.text(13) + " with first " + f.text(14) +
                           ", last " + f.text(15) + " and last arrival " + f.text(16) +
                           "; allowed: first <= mean <= last <= last arrival"};
    if (r.have[p]) r = run_positions{};  // the run again: its later lines replace these
    if (r.count() != 0 && arrival != r.last_arrival)
      throw cli::bad_input{f.where(16) + ": " + f.text(16) + "; line " + std::to_string(r.line) +
                           " gives the run's last arrival as " + std::to_string(r.last_arrival)};
    r.have[p] = true;
    r.mean[p] = mean;
    r.last_arrival = arrival;
    r.line = x.number;
  }
  return out;
}

// A run's bins: start -> (cycles, use).
using run_bins = std::map<std::uint64_t, std::pair<std::uint64_t, double>>;

std::map<run_key, run_bins> read_timeline(const std::string& text, const std::string& path) {
  std::map<run_key, run_bins> out;
  std::string pattern;
  std::size_t pattern_line = 0;
  for (const cli::csv_line& x : cli::csv_lines(text, path, timeline_header())) {
    const key_reader f{{path, x, cli::split(timeline_header())}};
    run_bins& bins = out[f.key(pattern, pattern_line)];
    const std::uint64_t start = f.whole(10, 0, ~std::uint64_t{0} >> 8);
    const std::uint64_t cycles = f.whole(11, 1, 1000000);
    const double use = f.real(12);
    if (use > 1.0) throw cli::bad_input{f.where(12) + ": " + f.text(12) + " is not in 0..1"};
    if (bins.count(start) != 0) bins.clear();  // the run again: its later lines replace these
    bins[start] = {cycles, use};
  }
  return out;
}

// One setting, arbiter and batch over its seeds.
struct profile {
  std::size_t runs = 0;
  double use = 0, first_half = 0, last_quarter = 0;
  std::array<double, positions> fraction{};  // mean completion over the last arrival
  std::size_t first() const {
    return static_cast<std::size_t>(std::min_element(fraction.begin(), fraction.end()) -
                                    fraction.begin());
  }
  std::size_t last() const {
    return static_cast<std::size_t>(std::max_element(fraction.begin(), fraction.end()) -
                                    fraction.begin());
  }
};
using profile_key = std::tuple<cell, std::string, std::size_t>;

// The use over the bins of `bins` beginning in [from, to).
double use_between(const run_bins& bins, double from, double to) {
  double busy = 0, cycles = 0;
  for (const auto& [start, b] : bins) {
    const double s = static_cast<double>(start);
    if (s < from || s >= to) continue;
    busy += b.second * static_cast<double>(b.first);
    cycles += static_cast<double>(b.first);
  }
  return cycles > 0 ? busy / cycles : 0;
}

std::string position_name(std::size_t p) { return cli::format("R(%zu,%zu)", p / 4, p % 4); }

void print_maps(const std::map<profile_key, profile>& s) {
  std::map<std::pair<cell, std::string>, const std::pair<const profile_key, profile>*> largest;
  for (const auto& e : s) largest[{std::get<0>(e.first), std::get<1>(e.first)}] = &e;
  for (const auto& [which, e] : largest) {
    const profile& x = e->second;
    std::printf(
        "\n%s, %s, batch %zu (%zu seed%s): each position's mean completion over the "
        "last arrival\n\n| v \\ u | 0 | 1 | 2 | 3 |\n|---|---|---|---|---|\n",
        name(which.first).c_str(), which.second.c_str(), std::get<2>(e->first), x.runs,
        x.runs == 1 ? "" : "s");
    for (std::size_t v = 0; v < 4; ++v)
      std::printf("| %zu | %.3f | %.3f | %.3f | %.3f |\n", v, x.fraction[v], x.fraction[4 + v],
                  x.fraction[8 + v], x.fraction[12 + v]);
  }
}

void write_csv(cli::output_file& out, const std::map<profile_key, profile>& s) {
  std::string head =
      "size,router_buffer,adapter_buffer,torus_latency,pipeline,consistent,arbiter,batch,seeds,"
      "use,use_first_half,use_last_quarter";
  for (std::size_t p = 0; p < positions; ++p) head += cli::format(",R%zu%zu", p / 4, p % 4);
  out.line(head);
  for (const auto& [key, x] : s) {
    const cell& c = std::get<0>(key);
    std::string l = cli::format(
        "%u,%u,%u,%u,%u,%d,%s,%zu,%zu,%.5f,%.5f,%.5f", c.size, c.router_buffer, c.adapter_buffer,
        c.torus_latency, c.pipeline, consistent(c.adapter_buffer, c.torus_latency) ? 1 : 0,
        std::get<1>(key).c_str(), std::get<2>(key), x.runs, x.use, x.first_half, x.last_quarter);
    for (const double f : x.fraction) l += cli::format(",%.4f", f);
    out.line(l);
  }
  out.close();
}

int run(int argc, char** argv) {
  arguments given;
  settings().parse(argc, argv, given).write_resolved(settings().resolved(given));
  const std::string &grid_path = given.grid, &positions_path = given.positions,
                    &timeline_path = given.timeline, &csv_path = given.csv;
  const bool maps = given.maps;
  cli::output_file csv("--csv", csv_path);
  const std::vector<row> rows = read_grid(cli::file_text("--grid", grid_path), grid_path);
  const auto at = read_positions(cli::file_text("--positions", positions_path), positions_path);
  const auto use = read_timeline(cli::file_text("--timeline", timeline_path), timeline_path);
  std::map<profile_key, profile> s;
  std::size_t left_out = 0;
  for (const row& r : rows) {
    const run_key k{r.network, r.arbiter, r.batch, r.seed};
    const auto p = at.find(k);
    const auto t = use.find(k);
    if (p == at.end() || p->second.count() != positions || t == use.end()) {
      ++left_out;
      continue;
    }
    profile& x = s[profile_key{r.network, r.arbiter, r.batch}];
    ++x.runs;
    const double last = static_cast<double>(p->second.last_arrival);
    // (sums here; the means over the runs below)
    x.use += use_between(t->second, 0, 1e300);
    x.first_half += use_between(t->second, 0, last / 2);
    x.last_quarter += use_between(t->second, 0.75 * last, 1e300);
    for (std::size_t q = 0; q < positions; ++q) x.fraction[q] += p->second.mean[q] / last;
  }
  for (auto& [key, x] : s) {
    const double n = static_cast<double>(x.runs);
    x.use /= n;
    x.first_half /= n;
    x.last_quarter /= n;
    for (double& f : x.fraction) f /= n;
  }
  std::printf(
      "Figure 9 study's runs in profile: %zu of the grid's %zu runs (%zu without their positions "
      "and links' use). Per setting, arbiter and batch, the mean over its seeds: the torus links' "
      "use over the run, in the bins beginning in its first half and in its last quarter; the mesh "
      "router position R(u,v) whose cores finish first and the one whose cores finish last, each "
      "its cores' mean completion over the last arrival.\n\n",
      rows.size() - left_out, rows.size(), left_out);
  std::printf(
      "| size | router | adapter | torus latency | pipeline | arbiter | batch | seeds | "
      "link use | first half | last quarter | first position | last position | last over "
      "first |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& [key, x] : s) {
    const cell& c = std::get<0>(key);
    const std::size_t a = x.first(), b = x.last();
    std::printf(
        "| %u | %u | %u | %u | %u | %s | %zu | %zu | %.3f | %.3f | %.3f | %s %.3f | %s "
        "%.3f | %.2f |\n",
        c.size, c.router_buffer, c.adapter_buffer, c.torus_latency, c.pipeline,
        std::get<1>(key).c_str(), std::get<2>(key), x.runs, x.use, x.first_half, x.last_quarter,
        position_name(a).c_str(), x.fraction[a], position_name(b).c_str(), x.fraction[b],
        x.fraction[a] > 0 ? x.fraction[b] / x.fraction[a] : 0.0);
  }
  if (maps) print_maps(s);
  if (csv.open()) write_csv(csv, s);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string help = help_text();
  return cli::run_tool("figure9_profile", help.c_str(), "a smaller grid", argc, argv,
                       [&] { return run(argc, argv); });
}
