// SPDX-License-Identifier: BSL-1.0
// The registered Figure 9 study (docs/results.md, "Registered study: Figure 9
// at 8x8x8"): its design, its grid file and the rule that decides its verdict.
//
// Contract
//   design(): the eight configurations of the half fraction (mesh router
//   buffer, channel adapter buffer, torus latency, pipeline), numbered 1..8
//   as registered; the arbiters, patterns, batches and seeds crossed with
//   them. read_grid(text, path) reads the grid file the study's runner
//   appends to (scripts/study), one row per run, refusing with "path:line:
//   column: ..." (a cli::bad_input) a wrong header, a field that is not what
//   its column holds, a configuration whose settings are not the design's,
//   and a run given twice. summarize(rows) takes each cell's mean, least and
//   greatest over its seeds; judge() applies the registered criteria to a
//   configuration; effect() a factor's main effect with its standard error
//   from the seeds.
#ifndef INTERLOCK_EXAMPLES_ANTON2_FIGURE9_STUDY_HPP
#define INTERLOCK_EXAMPLES_ANTON2_FIGURE9_STUDY_HPP

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cli.hpp"

namespace figure9 {

/// One configuration of the half fraction: its factors' settings.
struct configuration {
  unsigned router_buffer, adapter_buffer, torus_latency, pipeline;
};

/// The registered design: configurations 1..8 (index 0..7), D = ABC.
inline const std::array<configuration, 8>& design() {
  static const std::array<configuration, 8> d = {{{8, 8, 0, 1},
                                                  {32, 32, 0, 4},
                                                  {8, 32, 0, 4},
                                                  {32, 128, 0, 1},
                                                  {8, 8, 64, 4},
                                                  {32, 32, 64, 1},
                                                  {8, 32, 64, 1},
                                                  {32, 128, 64, 4}}};
  return d;
}
/// Whether configuration c (0..7) has factor f (0 A .. 3 D) at its high level.
inline bool high(std::size_t c, std::size_t f) {
  const configuration& x = design()[c];
  switch (f) {
    case 0:
      return x.router_buffer == 32;
    case 1:
      return x.adapter_buffer == 4 * x.router_buffer;
    case 2:
      return x.torus_latency == 64;
    default:
      return x.pipeline == 4;
  }
}
inline const std::vector<std::string>& arbiters() {
  static const std::vector<std::string> a = {"round_robin", "inverse_weighted",
                                             "inverse_weighted_exact"};
  return a;
}
inline const std::vector<std::string>& patterns() {
  static const std::vector<std::string> p = {"uniform", "neighbor2"};
  return p;
}
constexpr std::array<std::size_t, 2> batches = {256, 1024};
constexpr std::array<std::uint64_t, 3> seeds = {1, 2, 3};
/// Runs per pattern: configurations x arbiters x batches x seeds.
constexpr std::size_t runs_per_pattern = 8 * 3 * 2 * 3;

inline const char* grid_header() {
  return "configuration,router_buffer,adapter_buffer,torus_latency,pipeline,pattern,arbiter,"
         "batch,seed,finished,last_arrival,normalized_throughput,completion_spread,"
         "forfeits_per_grant,request_share,request_share_p10,seconds";
}

/// One run of the grid.
struct row {
  std::size_t configuration = 0;  // 1..8
  std::string pattern, arbiter;
  std::size_t batch = 0;
  std::uint64_t seed = 0;
  bool finished = false;
  double normalized = 0, spread = 0, forfeits_per_grant = 0, request_share = 0,
         request_share_p10 = 0;
};

namespace detail {

// The fields of one CSV line with the column each starts at (1-based).
inline std::vector<std::pair<std::string, std::size_t>> fields(const std::string& line) {
  std::vector<std::pair<std::string, std::size_t>> f;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    f.emplace_back(line.substr(start, comma - start), start + 1);
    if (comma == std::string::npos) return f;
    start = comma + 1;
  }
}

inline double real_field(const std::string& where, const std::string& name,
                         const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos ||
      std::count(text.begin(), text.end(), '.') > 1 || text == ".")
    throw cli::bad_input{where + ": " + name + ": '" + text.substr(0, 40) +
                         "' is not a number (digits and at most one point)"};
  return std::stod(text);
}

inline std::uint64_t whole_field(const std::string& where, const std::string& name,
                                 const std::string& text, std::uint64_t lo, std::uint64_t hi) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos)
    throw cli::bad_input{where + ": " + name + ": '" + text.substr(0, 40) +
                         "' is not a whole number"};
  const std::uint64_t v = std::stoull(text);
  if (v < lo || v > hi)
    throw cli::bad_input{where + ": " + name + ": " + text + " is not in " + std::to_string(lo) +
                         ".." + std::to_string(hi)};
  return v;
}

template <class List>
std::string one_of(const std::string& where, const std::string& name, const std::string& text,
                   const List& allowed) {
  std::string list;
  for (const auto& a : allowed) {
    if (a == text) return text;
    list += (list.empty() ? "" : ", ") + a;
  }
  throw cli::bad_input{where + ": " + name + ": '" + text.substr(0, 40) + "'; allowed: " + list};
}

}  // namespace detail

/// The rows of a grid file's text (`path` names it in errors).
inline std::vector<row> read_grid(const std::string& text, const std::string& path) {
  std::vector<row> rows;
  std::map<std::tuple<std::size_t, std::string, std::string, std::size_t, std::uint64_t>,
           std::size_t>
      seen;  // cell -> its line
  std::size_t line_no = 0, start = 0;
  const std::vector<std::string> columns = cli::split(grid_header());
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    const std::string at = path + ":" + std::to_string(line_no);
    if (line_no == 1) {
      if (line != grid_header())
        throw cli::bad_input{at + ":1: the header is not the grid's: expected '" +
                             std::string(grid_header()) + "'"};
      continue;
    }
    const auto f = detail::fields(line);
    if (f.size() != columns.size())
      throw cli::bad_input{at + ":1: " + std::to_string(f.size()) + " fields; expected " +
                           std::to_string(columns.size())};
    auto where = [&](std::size_t k) { return at + ":" + std::to_string(f[k].second); };
    auto whole = [&](std::size_t k, std::uint64_t lo, std::uint64_t hi) {
      return detail::whole_field(where(k), columns[k], f[k].first, lo, hi);
    };
    row r;
    r.configuration = whole(0, 1, 8);
    const configuration& c = design()[r.configuration - 1];
    const std::array<unsigned, 4> expected = {c.router_buffer, c.adapter_buffer, c.torus_latency,
                                              c.pipeline};
    for (std::size_t k = 1; k <= 4; ++k)
      if (whole(k, 0, 100000) != expected[k - 1])
        throw cli::bad_input{where(k) + ": " + columns[k] + ": " + f[k].first + "; configuration " +
                             f[0].first + " has " + std::to_string(expected[k - 1]) +
                             " in the registered design"};
    r.pattern = detail::one_of(where(5), columns[5], f[5].first, patterns());
    r.arbiter = detail::one_of(where(6), columns[6], f[6].first, arbiters());
    const std::vector<std::string> batch_names = {"256", "1024"};
    r.batch = static_cast<std::size_t>(
        std::stoul(detail::one_of(where(7), columns[7], f[7].first, batch_names)));
    r.seed = whole(8, 1, 3);
    r.finished = whole(9, 0, 1) == 1;
    whole(10, 0, ~std::uint64_t{0} >> 8);  // last_arrival: checked, not used
    r.normalized = detail::real_field(where(11), columns[11], f[11].first);
    r.spread = detail::real_field(where(12), columns[12], f[12].first);
    r.forfeits_per_grant = detail::real_field(where(13), columns[13], f[13].first);
    r.request_share = detail::real_field(where(14), columns[14], f[14].first);
    r.request_share_p10 = detail::real_field(where(15), columns[15], f[15].first);
    detail::real_field(where(16), columns[16], f[16].first);  // seconds: checked, not used
    const auto key = std::make_tuple(r.configuration, r.pattern, r.arbiter, r.batch, r.seed);
    const auto [it, added] = seen.emplace(key, line_no);
    if (!added)
      throw cli::bad_input{at + ":1: the run of line " + std::to_string(it->second) +
                           " again (configuration, pattern, arbiter, batch and seed)"};
    rows.push_back(r);
  }
  if (line_no == 0) throw cli::bad_input{path + ":1:1: empty: expected the grid's header"};
  return rows;
}

/// A cell (configuration, pattern, arbiter, batch) over its seeds.
struct cell {
  std::size_t runs = 0;
  bool finished = true;                          // every run finished
  double mean = 0, least = 0, most = 0, sd = 0;  // normalized throughput
  double spread = 0, forfeits_per_grant = 0, request_share = 0, request_share_p10 = 0;  // means
  bool complete() const { return runs == seeds.size(); }
};

using cell_key = std::tuple<std::size_t, std::string, std::string, std::size_t>;

inline std::map<cell_key, cell> summarize(const std::vector<row>& rows) {
  std::map<cell_key, std::vector<const row*>> by_cell;
  for (const row& r : rows)
    by_cell[cell_key{r.configuration, r.pattern, r.arbiter, r.batch}].push_back(&r);
  std::map<cell_key, cell> cells;
  for (const auto& [key, runs] : by_cell) {
    cell c;
    c.runs = runs.size();
    c.least = runs.front()->normalized;
    c.most = c.least;
    const double n = static_cast<double>(runs.size());
    for (const row* r : runs) {
      c.finished = c.finished && r->finished;
      c.mean += r->normalized / n;
      c.least = std::min(c.least, r->normalized);
      c.most = std::max(c.most, r->normalized);
      c.spread += r->spread / n;
      c.forfeits_per_grant += r->forfeits_per_grant / n;
      c.request_share += r->request_share / n;
      c.request_share_p10 += r->request_share_p10 / n;
    }
    double squares = 0;
    for (const row* r : runs) squares += (r->normalized - c.mean) * (r->normalized - c.mean);
    c.sd = runs.size() > 1 ? std::sqrt(squares / (n - 1)) : 0;
    cells.emplace(key, c);
  }
  return cells;
}

/// The registered criteria for configuration c (1..8), pattern p, weighted
/// arbiter `weighted` (inverse_weighted or inverse_weighted_exact).
struct judgement {
  bool complete = false;  // every run of the criteria's cells is there
  bool finished = false;  // and finished
  bool held_high = false, held_level = false, round_robin_low = false;  // criteria 1, 2, 3
  bool reproduces() const {
    return complete && finished && held_high && held_level && round_robin_low;
  }
};

inline judgement judge(const std::map<cell_key, cell>& cells, std::size_t c,
                       const std::string& pattern, const std::string& weighted) {
  judgement j;
  auto get = [&](const std::string& a, std::size_t b) -> const cell* {
    const auto it = cells.find(cell_key{c, pattern, a, b});
    return it == cells.end() || !it->second.complete() ? nullptr : &it->second;
  };
  const cell* w1024 = get(weighted, 1024);
  const cell* w256 = get(weighted, 256);
  const bool uniform = pattern == "uniform";
  const cell* rr1024 = uniform ? get("round_robin", 1024) : nullptr;
  j.complete = w1024 != nullptr && w256 != nullptr && (!uniform || rr1024 != nullptr);
  if (!j.complete) return j;
  j.finished = w1024->finished && w256->finished && (!uniform || rr1024->finished);
  j.held_high = w1024->mean >= 0.85;
  j.held_level = w1024->mean >= w256->mean - 0.03;
  // 2-hop neighbor: the text gives round robin's fall no size (criteria 1, 2 only).
  j.round_robin_low = !uniform || rr1024->mean <= 0.65;
  return j;
}

/// A factor's main effect on a response over the eight configurations (each
/// its seed mean), with its standard error from the seeds.
struct effect_estimate {
  double effect = 0, standard_error = 0;
  bool shown() const { return std::fabs(effect) > 2 * standard_error; }
};

/// `response(c)` gives configuration c's (0..7) seed mean and its seeds'
/// standard deviation.
template <class Response>
effect_estimate effect(std::size_t factor, Response response) {
  effect_estimate e;
  double variance = 0;
  for (std::size_t c = 0; c < design().size(); ++c) {
    const auto [mean, sd] = response(c);
    e.effect += (high(c, factor) ? mean : -mean) / 4;
    variance += sd * sd / static_cast<double>(seeds.size());
  }
  e.standard_error = std::sqrt(variance) / 4;
  return e;
}

}  // namespace figure9

#endif  // INTERLOCK_EXAMPLES_ANTON2_FIGURE9_STUDY_HPP
