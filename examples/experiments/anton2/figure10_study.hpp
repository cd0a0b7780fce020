// SPDX-License-Identifier: BSL-1.0
// The Figure 10 study (docs/results.md, "The Figure 10 study"): its design
// and grid files and the rules that decide its verdicts.
//
// Contract
//   read_design(text, path) reads the registered runs (each with seeds 1, 2
//   and 3): one network setting (study_setting.hpp), an arbiter setting of
//   Figure 10 (none, forward, reverse, both) with its arbiter model (round
//   robin exactly for none; the hardware model or exact Eq. 3 for the
//   weighted ones), the blend f (the share of packets to reverse tornado's
//   node, in thousandths) and the batch. read_grid(text, path) reads the
//   rows the runner appends, one per run. Both refuse with
//   "path:line:column: ..." (a cli::bad_input) a wrong header, a field that
//   is not what its column holds, a `consistent` field that disagrees with
//   consistent(), a run given twice and, in a design, a second network
//   setting. summarize(rows) takes each (setting, arbiter, f)'s mean, least
//   and greatest over its seeds.
//   band() applies the verdict's rule to one weighted setting: every blend
//   of the design with its mean in [0.80, 0.90] ("approximately 85%"), each
//   blend's three seeds in and finished; out as soon as one complete blend
//   is outside or has a run that did not finish. single_set() applies the
//   single-set statement's rule: forward above none by at least 0.05 at
//   f = 0 and at most 0.03 above it at f = 1, reverse the mirror.
#ifndef INTERLOCK_EXAMPLES_ANTON2_FIGURE10_STUDY_HPP
#define INTERLOCK_EXAMPLES_ANTON2_FIGURE10_STUDY_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cli.hpp"
#include "csv_file.hpp"
#include "study_setting.hpp"

namespace figure10 {

using study_setting::cell;
using study_setting::consistent;

inline const std::vector<std::string>& settings() {
  static const std::vector<std::string> s = {"none", "forward", "reverse", "both"};
  return s;
}
inline const std::vector<std::string>& arbiters() {
  static const std::vector<std::string> a = {"round_robin", "inverse_weighted",
                                             "inverse_weighted_exact"};
  return a;
}

/// One run a design asks for: (setting, arbiter) at blend f = share / 1000.
struct planned {
  cell network;
  std::string setting, arbiter;
  unsigned share = 0;  // thousandths
  std::size_t batch = 0;
};

struct row {
  planned run;
  std::uint64_t seed = 0;
  bool finished = false;
  double normalized = 0, spread = 0;
};

inline const char* design_header() {
  return "size,router_buffer,adapter_buffer,torus_latency,pipeline,setting,arbiter,share,batch";
}
inline const char* grid_header() {
  return "size,router_buffer,adapter_buffer,torus_latency,pipeline,setting,arbiter,share,batch,"
         "seed,consistent,normalized,spread,finished,last_arrival,seconds";
}
constexpr std::uint64_t seeds = 3;

namespace detail {

// The first nine columns, a design's and a grid's alike.
inline planned read_run(const cli::csv_field& f) {
  planned p;
  p.network.size = static_cast<unsigned>(f.whole(0, 4, 16));
  study_setting::read_unknowns(f, 1, p.network);
  p.setting = f.one_of(5, settings());
  p.arbiter = f.one_of(6, arbiters());
  if ((p.setting == "none") != (p.arbiter == "round_robin"))
    throw cli::bad_input{f.where(6) + ": " + p.arbiter + " with the setting " + p.setting +
                         "; allowed: round_robin with none alone"};
  const double share = f.real(7);
  if (share > 1) throw cli::bad_input{f.where(7) + ": " + f.text(7) + " is not in 0..1"};
  p.share = static_cast<unsigned>(std::lround(share * 1000));
  if (std::fabs(share * 1000 - p.share) > 1e-6)
    throw cli::bad_input{f.where(7) + ": " + f.text(7) + " is not a whole number of thousandths"};
  p.batch = static_cast<std::size_t>(f.whole(8, 1, 1000000));
  return p;
}

using run_key = std::tuple<std::string, std::string, unsigned, std::size_t>;
inline run_key key_of(const planned& p) { return run_key{p.setting, p.arbiter, p.share, p.batch}; }

}  // namespace detail

/// The runs of a design file's text, all of one network setting.
inline std::vector<planned> read_design(const std::string& text, const std::string& path) {
  std::vector<planned> design;
  std::map<detail::run_key, std::size_t> seen;
  for (const cli::csv_line& x : cli::csv_lines(text, path, design_header())) {
    const cli::csv_field f{path, x, cli::split(design_header())};
    const planned p = detail::read_run(f);
    if (!design.empty() && !(p.network == design.front().network))
      throw cli::bad_input{path + ":" + std::to_string(x.number) +
                           ":1: a second network setting (" + study_setting::name(p.network) +
                           "); a design runs one"};
    cli::unique_run(seen, detail::key_of(p), path, x.number);
    design.push_back(p);
  }
  return design;
}

/// The rows of a grid file's text.
inline std::vector<row> read_grid(const std::string& text, const std::string& path) {
  std::vector<row> rows;
  std::map<std::tuple<cell, detail::run_key, std::uint64_t>, std::size_t> seen;
  for (const cli::csv_line& x : cli::csv_lines(text, path, grid_header())) {
    const cli::csv_field f{path, x, cli::split(grid_header())};
    row r;
    r.run = detail::read_run(f);
    r.seed = f.whole(9, 1, 1000);
    study_setting::check_consistent(f, 10, r.run.network);
    r.normalized = f.real(11);
    r.spread = f.real(12);
    r.finished = f.whole(13, 0, 1) == 1;
    f.whole(14, 0, ~std::uint64_t{0} >> 8);  // last_arrival and seconds: checked, not judged
    f.real(15);
    cli::unique_run(seen, std::make_tuple(r.run.network, detail::key_of(r.run), r.seed), path,
                    x.number);
    rows.push_back(r);
  }
  return rows;
}

/// A (setting, arbiter, blend)'s runs over their seeds.
struct summary {
  std::size_t runs = 0;
  bool finished = true;
  double mean = 0, least = 0, most = 0, spread = 0;
  bool complete() const { return runs >= seeds; }
};
/// (network, setting, arbiter, share in thousandths, batch).
using summary_key = std::tuple<cell, std::string, std::string, unsigned, std::size_t>;

inline std::map<summary_key, summary> summarize(const std::vector<row>& rows) {
  return study_setting::summarize_by<summary>(
      rows,
      [](const row& r) {
        return summary_key{r.run.network, r.run.setting, r.run.arbiter, r.run.share, r.run.batch};
      },
      [](summary& s, const row& r, double n) { s.spread += r.spread / n; });
}

/// The verdict's rule for one weighted setting over the blends the design
/// runs it at: `in_band` once every blend is complete and within
/// [0.80, 0.90]; `out` (with `reason`) once a complete blend is outside it
/// or has a run that did not finish.
struct band_judgement {
  std::size_t blends = 0, complete = 0;
  bool out = false;
  std::string reason;
  bool in_band() const { return blends > 0 && complete == blends && !out; }
};
constexpr double band_low = 0.80, band_high = 0.90;

inline band_judgement band(const std::map<summary_key, summary>& s,
                           const std::vector<planned>& design, const std::string& setting,
                           const std::string& arbiter) {
  band_judgement j;
  for (const planned& p : design) {
    if (p.setting != setting || p.arbiter != arbiter) continue;
    ++j.blends;
    const auto it = s.find(summary_key{p.network, p.setting, p.arbiter, p.share, p.batch});
    if (it == s.end() || !it->second.complete()) continue;
    ++j.complete;
    const summary& x = it->second;
    std::string why;
    if (!x.finished)
      why = cli::format("f = %.1f: a run did not finish", p.share / 1000.0);
    else if (x.mean < band_low || x.mean > band_high)
      why = cli::format("%.3f at f = %.1f", x.mean, p.share / 1000.0);
    if (!why.empty() && !j.out) {
      j.out = true;
      j.reason = why;
    }
  }
  return j;
}

/// The single-set statement: forward at least 0.05 above none at f = 0 and
/// at most 0.03 above it at f = 1; reverse at least 0.05 above none at
/// f = 1 and at most 0.03 above it at f = 0. `complete` once the six
/// blends it reads (hardware model, the design's batch) have their seeds,
/// all finished.
struct single_set_judgement {
  bool complete = false, holds = false;
  double forward_gain = 0, forward_far = 0, reverse_gain = 0, reverse_far = 0;
};

inline single_set_judgement single_set(const std::map<summary_key, summary>& s,
                                       const std::vector<planned>& design) {
  single_set_judgement j;
  if (design.empty()) return j;
  const cell c = design.front().network;
  const std::size_t batch = design.front().batch;
  auto mean = [&](const std::string& setting, unsigned share, bool& ok) {
    const std::string a = setting == "none" ? "round_robin" : "inverse_weighted";
    const auto it = s.find(summary_key{c, setting, a, share, batch});
    if (it == s.end() || !it->second.complete() || !it->second.finished) {
      ok = false;
      return 0.0;
    }
    return it->second.mean;
  };
  bool ok = true;
  j.forward_gain = mean("forward", 0, ok) - mean("none", 0, ok);
  j.forward_far = mean("forward", 1000, ok) - mean("none", 1000, ok);
  j.reverse_gain = mean("reverse", 1000, ok) - mean("none", 1000, ok);
  j.reverse_far = mean("reverse", 0, ok) - mean("none", 0, ok);
  j.complete = ok;
  j.holds = ok && j.forward_gain >= 0.05 && j.forward_far <= 0.03 && j.reverse_gain >= 0.05 &&
            j.reverse_far <= 0.03;
  return j;
}

}  // namespace figure10

#endif  // INTERLOCK_EXAMPLES_ANTON2_FIGURE10_STUDY_HPP
