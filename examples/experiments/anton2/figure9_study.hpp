// SPDX-License-Identifier: BSL-1.0
// The Figure 9 study (docs/results.md, "The Figure 9 study"): its grid file,
// its design file and the rule that decides its verdict.
//
// Contract
//   read_grid(text, path) reads the grid the study's runner appends to
//   (scripts/study), one row per run; read_design(text, path) the cells a
//   registered design runs, each with seeds 1, 2 and 3. Both refuse with
//   "path:line:column: ..." (a cli::bad_input) a wrong header, a field that
//   is not what its column holds (the arbiter one of the models, the sizes
//   6 or 8, the pipeline 1 or 4), a `consistent` field that is not what
//   consistent() says of its adapter buffer and torus latency, and a run
//   given twice. summarize(rows) takes each cell's mean, least and greatest
//   over its seeds. judge() applies the rule: inverse weights at least 0.85
//   at batches 1,024 and 4,096 in a physically consistent network at 8x8x8,
//   round robin at most 0.65 at both and lower at 4,096 than at 1,024; and
//   says when the batches already complete rule a network out.
//   stable() applies the 1-hop statement's rule: an arbiter's mean at
//   4,096 at least 0.95 of its greatest over batches 256, 1,024, 4,096.
#ifndef INTERLOCK_EXAMPLES_ANTON2_FIGURE9_STUDY_HPP
#define INTERLOCK_EXAMPLES_ANTON2_FIGURE9_STUDY_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cli.hpp"
#include "csv_file.hpp"
#include "study_setting.hpp"

namespace figure9 {

/// The arbiter models a run may use (saturation's --arbiters names).
inline const std::vector<std::string>& arbiters() {
  static const std::vector<std::string> a = {"round_robin",        "inverse_weighted",
                                             "inverse_weighted:2", "inverse_weighted:3",
                                             "inverse_weighted:4", "inverse_weighted_exact"};
  return a;
}
/// The Figure 6/8 hardware models: what the verdict reads as "inverse weights".
inline bool hardware(const std::string& arbiter) {
  return arbiter.compare(0, 16, "inverse_weighted") == 0 && arbiter != "inverse_weighted_exact";
}

using study_setting::cell;
using study_setting::consistent;
using study_setting::round_trip_flits;

/// One run of the grid.
struct row {
  cell network;
  std::string arbiter;
  std::size_t batch = 0;
  std::uint64_t seed = 0;
  bool finished = false;
  double normalized = 0, spread = 0, forfeited_per_grant = 0;
};

/// One run a design asks for (seeds 1, 2 and 3 each).
struct planned {
  cell network;
  std::string arbiter;
  std::size_t batch = 0;
};

inline const char* grid_header() {
  return "size,arbiter,router_buffer,adapter_buffer,torus_latency,pipeline,batch,seed,consistent,"
         "normalized,spread,forfeited_per_grant,finished,last_arrival,request_share,"
         "request_share_p10,seconds";
}
inline const char* design_header() {
  return "size,arbiter,router_buffer,adapter_buffer,torus_latency,pipeline,batch";
}
constexpr std::uint64_t seeds = 3;

namespace detail {

// Reads field k of a line of the grid or the design (cli/csv_file.hpp), and
// their first seven columns as a planned run.
struct reader : cli::csv_field {
  std::string arbiter(std::size_t k) const { return one_of(k, arbiters()); }
  // size, arbiter, router_buffer, adapter_buffer, torus_latency, pipeline, batch: columns 0..6.
  planned run() const {
    planned p;
    p.network.size = static_cast<unsigned>(whole(0, 6, 8));
    if (p.network.size == 7) throw cli::bad_input{where(0) + ": 7; allowed: 6, 8"};
    p.arbiter = arbiter(1);
    study_setting::read_unknowns(*this, 2, p.network);
    p.batch = static_cast<std::size_t>(whole(6, 1, 1000000));
    return p;
  }
};

}  // namespace detail

/// The rows of a grid file's text (`path` names it in errors).
inline std::vector<row> read_grid(const std::string& text, const std::string& path) {
  std::vector<row> rows;
  std::map<std::tuple<cell, std::string, std::size_t, std::uint64_t>, std::size_t> seen;
  for (const cli::csv_line& x : cli::csv_lines(text, path, grid_header())) {
    const detail::reader f{{path, x, cli::split(grid_header())}};
    const planned p = f.run();
    row r;
    r.network = p.network;
    r.arbiter = p.arbiter;
    r.batch = p.batch;
    r.seed = f.whole(7, 1, 1000);
    study_setting::check_consistent(f, 8, r.network);
    r.normalized = f.real(9);
    r.spread = f.real(10);
    r.forfeited_per_grant = f.real(11);
    r.finished = f.whole(12, 0, 1) == 1;
    // last_arrival, the request shares and seconds: checked, not judged.
    f.whole(13, 0, ~std::uint64_t{0} >> 8);
    for (std::size_t k = 14; k <= 16; ++k) f.real(k);
    cli::unique_run(seen, std::make_tuple(r.network, r.arbiter, r.batch, r.seed), path, x.number);
    rows.push_back(r);
  }
  return rows;
}

/// The runs of a design file's text.
inline std::vector<planned> read_design(const std::string& text, const std::string& path) {
  std::vector<planned> design;
  std::map<std::tuple<cell, std::string, std::size_t>, std::size_t> seen;
  for (const cli::csv_line& x : cli::csv_lines(text, path, design_header())) {
    const planned p = detail::reader{{path, x, cli::split(design_header())}}.run();
    cli::unique_run(seen, std::make_tuple(p.network, p.arbiter, p.batch), path, x.number);
    design.push_back(p);
  }
  return design;
}

/// A cell's runs of one arbiter and batch, over their seeds.
struct summary {
  std::size_t runs = 0;
  bool finished = true;
  double mean = 0, least = 0, most = 0, spread = 0, forfeited_per_grant = 0;
  bool complete() const { return runs >= seeds; }
};
using summary_key = std::tuple<cell, std::string, std::size_t>;

inline std::map<summary_key, summary> summarize(const std::vector<row>& rows) {
  return study_setting::summarize_by<summary>(
      rows,
      [](const row& r) {
        return summary_key{r.network, r.arbiter, r.batch};
      },
      [](summary& s, const row& r, double n) {
        s.spread += r.spread / n;
        s.forfeited_per_grant += r.forfeited_per_grant / n;
      });
}

/// The rule, for network c and the inverse-weighted model `weighted`.
/// `ruled_out` once a batch with every seed in is on the wrong side of it
/// (no later run changes that), `reason` saying which: the model below 0.85
/// at 1,024 or 4,096, round robin above 0.65 at 1,024, at or above 0.65 at
/// 4,096 (it must be lower there than at 1,024, where it is at most 0.65),
/// or not lower at 4,096 than at 1,024, or a run that did not finish.
/// Once every batch is complete, a network not ruled out meets the rule.
struct judgement {
  bool complete = false;  // both batches of both arbiters have their seeds
  bool ruled_out = false;
  std::string reason;
  bool reproduces(const cell& c) const {
    return complete && !ruled_out && c.size == 8 && consistent(c.adapter_buffer, c.torus_latency);
  }
};

inline judgement judge(const std::map<summary_key, summary>& s, const cell& c,
                       const std::string& weighted) {
  judgement j;
  // A batch with every seed in (finished or not), or nullptr.
  auto get = [&](const std::string& a, std::size_t b) -> const summary* {
    const auto it = s.find(summary_key{c, a, b});
    return it == s.end() || !it->second.complete() ? nullptr : &it->second;
  };
  const summary *w1 = get(weighted, 1024), *w4 = get(weighted, 4096);
  const summary *r1 = get("round_robin", 1024), *r4 = get("round_robin", 4096);
  auto fail = [&](bool failed, const std::string& why) {
    if (!failed || j.ruled_out) return;
    j.ruled_out = true;
    j.reason = why;
  };
  for (const auto& [x, a, b] :
       {std::make_tuple(w1, weighted, 1024), std::make_tuple(w4, weighted, 4096),
        std::make_tuple(r1, std::string("round_robin"), 1024),
        std::make_tuple(r4, std::string("round_robin"), 4096)})
    if (x != nullptr) fail(!x->finished, a + " at " + std::to_string(b) + ": a run did not finish");
  for (const auto& [x, b] : {std::make_pair(w1, 1024), std::make_pair(w4, 4096)})
    if (x != nullptr)
      fail(x->mean < 0.85, cli::format("%s %.3f at %d", weighted.c_str(), x->mean, b));
  if (r1 != nullptr) fail(r1->mean > 0.65, cli::format("round_robin %.3f at 1024", r1->mean));
  if (r4 != nullptr) fail(r4->mean >= 0.65, cli::format("round_robin %.3f at 4096", r4->mean));
  if (r1 != nullptr && r4 != nullptr)
    fail(r4->mean >= r1->mean,
         cli::format("round_robin %.3f at 4096, %.3f at 1024", r4->mean, r1->mean));
  j.complete = w1 != nullptr && w4 != nullptr && r1 != nullptr && r4 != nullptr;
  return j;
}

/// Figure 9's 1-hop statement (docs/results.md, "Figure 9's 1-hop
/// statement"): an arbiter's 1-hop traffic in network c is stable when its
/// mean at batch 4,096 is at least 0.95 of the greatest of its means at
/// 256, 1,024 and 4,096. `ratio` is that mean over the greatest; pending
/// while a batch lacks a seed or has a run that did not finish.
struct stability {
  bool complete = false;
  double ratio = 0;
  bool stable() const { return complete && ratio >= 0.95; }
};

inline stability stable(const std::map<summary_key, summary>& s, const cell& c,
                        const std::string& arbiter) {
  stability out;
  double greatest = 0, last = 0;
  for (const std::size_t b : {std::size_t{256}, std::size_t{1024}, std::size_t{4096}}) {
    const auto it = s.find(summary_key{c, arbiter, b});
    if (it == s.end() || !it->second.complete() || !it->second.finished) return out;
    greatest = std::max(greatest, it->second.mean);
    last = it->second.mean;
  }
  out.complete = true;
  out.ratio = greatest > 0 ? last / greatest : 0;
  return out;
}

}  // namespace figure9

#endif  // INTERLOCK_EXAMPLES_ANTON2_FIGURE9_STUDY_HPP
