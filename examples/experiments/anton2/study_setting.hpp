// SPDX-License-Identifier: BSL-1.0
// The network setting a registered Anton 2 study runs (docs/results.md: the
// Figure 9 and Figure 10 studies): the torus's size and the text's unknowns
// (mesh router and channel adapter buffers, torus link latency, pipeline),
// and whether the setting is physically consistent.
//
// Contract
//   consistent(adapter, latency) is true when adapter buffers of `adapter`
//   flits per VC cover a torus link's credit round trip at `latency` extra
//   cycles: round_trip_flits(latency) = ceil(89.6 / 288 x (2 (1 + latency)
//   + 2)), Anton 2's torus link bandwidth in flits per cycle over that
//   round trip (2 flits at latency 0, 22 at 32, 61 at 96).
//   read_unknowns(f, k, c) reads fields k..k+3 of a study file's line
//   (router and adapter buffers, torus latency, pipeline 1 or 4) into c.
//   check_consistent(f, k, c) refuses (naming file, line and column) a
//   file's `consistent` field, column k, that is not what consistent()
//   says of c. name(c) is the setting as the studies' reports write it.
//   summarize_by<Summary>(rows, key_of, add) groups runs by key_of(row)
//   and gives each group's Summary: runs, whether all finished, the mean,
//   least and greatest of `normalized`, and what add(summary, row, n) adds
//   (n: the group's runs).
#ifndef INTERLOCK_EXAMPLES_ANTON2_STUDY_SETTING_HPP
#define INTERLOCK_EXAMPLES_ANTON2_STUDY_SETTING_HPP

#include <interlock/topology/anton2_node.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "csv_file.hpp"

namespace study_setting {

/// Whether adapter buffers of `adapter_flits` per VC cover a torus link's
/// credit round trip at `torus_latency`: a packet's head reaches the next
/// adapter 1 + latency cycles after it leaves, its credit comes back as
/// long after its tail leaves there, with a cycle at each end, so one VC
/// keeps the link busy when it holds the flits the link carries in
/// 2 (1 + latency) + 2 cycles (rounded up).
inline unsigned round_trip_flits(unsigned torus_latency) {
  const double bandwidth = interlock::anton2_links{}.torus_bandwidth;
  return static_cast<unsigned>(std::ceil(bandwidth * (2.0 * (1.0 + torus_latency) + 2.0) - 1e-9));
}
inline bool consistent(unsigned adapter_flits, unsigned torus_latency) {
  return adapter_flits >= round_trip_flits(torus_latency);
}

/// A network setting: size (the torus's radix) and the text's unknowns.
struct cell {
  unsigned size = 0, router_buffer = 0, adapter_buffer = 0, torus_latency = 0, pipeline = 0;
  auto key() const {
    return std::make_tuple(size, router_buffer, adapter_buffer, torus_latency, pipeline);
  }
  bool operator<(const cell& o) const { return key() < o.key(); }
  bool operator==(const cell& o) const { return key() == o.key(); }
};

/// Reads the text's unknowns of a setting from fields k..k+3 of f (mesh
/// router buffer, adapter buffer, torus latency, pipeline: 1 or 4) into c.
inline void read_unknowns(const cli::csv_field& f, std::size_t k, cell& c) {
  c.router_buffer = static_cast<unsigned>(f.whole(k, 1, 4096));
  c.adapter_buffer = static_cast<unsigned>(f.whole(k + 1, 1, 4096));
  c.torus_latency = static_cast<unsigned>(f.whole(k + 2, 0, 1000));
  c.pipeline = static_cast<unsigned>(f.whole(k + 3, 1, 4));
  if (c.pipeline != 1 && c.pipeline != 4)
    throw cli::bad_input{f.where(k + 3) + ": " + f.text(k + 3) + "; allowed: 1, 4"};
}

/// Refuses field k of f, the file's `consistent` (0 or 1), when it is not
/// what consistent() says of c.
inline void check_consistent(const cli::csv_field& f, std::size_t k, const cell& c) {
  const bool said = f.whole(k, 0, 1) == 1;
  if (said != consistent(c.adapter_buffer, c.torus_latency))
    throw cli::bad_input{f.where(k) + ": " + f.text(k) + "; adapter buffers of " +
                         std::to_string(c.adapter_buffer) + " flits at torus latency " +
                         std::to_string(c.torus_latency) + " are " + (said ? "not " : "") +
                         "consistent (the round trip takes " +
                         std::to_string(round_trip_flits(c.torus_latency)) + " flits)"};
}

/// Each group of `rows` (by key_of) over its runs, the seeds of a cell.
template <class Summary, class Row, class KeyOf, class Add>
auto summarize_by(const std::vector<Row>& rows, KeyOf key_of, Add add) {
  using key = decltype(key_of(std::declval<const Row&>()));
  std::map<key, std::vector<const Row*>> by;
  for (const Row& r : rows) by[key_of(r)].push_back(&r);
  std::map<key, Summary> out;
  for (const auto& [k, runs] : by) {
    Summary s;
    s.runs = runs.size();
    s.least = s.most = runs.front()->normalized;
    const double n = static_cast<double>(runs.size());
    for (const Row* r : runs) {
      s.finished = s.finished && r->finished;
      s.mean += r->normalized / n;
      s.least = std::min(s.least, r->normalized);
      s.most = std::max(s.most, r->normalized);
      add(s, *r, n);
    }
    out.emplace(k, s);
  }
  return out;
}

inline std::string name(const cell& c) {
  return cli::format("%ux%ux%u, router %u, adapter %u, latency %u, pipeline %u", c.size, c.size,
                     c.size, c.router_buffer, c.adapter_buffer, c.torus_latency, c.pipeline);
}

}  // namespace study_setting

#endif  // INTERLOCK_EXAMPLES_ANTON2_STUDY_SETTING_HPP
