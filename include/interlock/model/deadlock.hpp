// SPDX-License-Identifier: BSL-1.0
// interlock/model/deadlock.hpp: finding and describing the cycle of full buffers of a deadlocked
// run.
//
// Contract
//   A network holding packets in which nothing has moved for the stall limit
//   is deadlocked. find_deadlock() follows full buffers from the first one
//   whose head has a way on, each head waiting for the buffer its first
//   candidate hop (the escape hop of an adaptive scheme) leads to, until a
//   buffer repeats; the report lists the buffers of that cycle, each as
//   "node (x,y,z) input +X (travelling +X) VC1: 2 packets". It visits the
//   whole network: it runs once, when a run is declared deadlocked.
//
// Example
//   // after a run: const interlock::model::results r = net.run();
//   // if (r.deadlock.deadlocked) for (auto& b : r.deadlock.cycle_of_buffers) puts(b.c_str());
#ifndef INTERLOCK_MODEL_DEADLOCK_HPP
#define INTERLOCK_MODEL_DEADLOCK_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "interlock/model/fabric.hpp"
#include "interlock/model/router_state.hpp"
#include "interlock/model/vc_sets.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

struct deadlock_report {
  bool deadlocked = false;
  std::uint64_t cycle = 0;                    // when it was declared
  std::vector<std::string> cycle_of_buffers;  // full buffers, each waiting for the next
};

namespace detail {

inline constexpr std::size_t no_buffer = ~std::size_t{0};

inline std::size_t waits_for(const router_state& s, const fabric& f, std::size_t b) {
  if (s.buf[b].queue.count == 0 || s.buf[b].head.ncand == 0) return no_buffer;
  const node_id r = s.router_of(b / s.vcs);
  const candidate_info& h = s.cand_info[b * s.max_cand];
  const port_end next = f.downstream(r, h.port);
  if (next.router == no_node) return no_buffer;
  return s.buffer(next.router, next.port, h.first_vc);
}

}  // namespace detail

/// "node (x,y) input +X (travelling +X) VC1: 2 packets" for buffer b.
inline std::string describe_buffer(const router_state& s, const fabric& f, std::size_t b) {
  const node_id r = s.router_of(b / s.vcs);
  const std::size_t port = b / s.vcs - s.port_index(r, 0);
  const std::size_t v = b % s.vcs;
  return f.describe(r, port, s.local, s.endpoints) + " VC" + std::to_string(v) + ": " +
         std::to_string(s.buf[b].queue.count) + " packets";
}

/// The report of a run declared deadlocked at `cycle`.
inline deadlock_report find_deadlock(const router_state& s, const fabric& f, std::uint64_t cycle) {
  deadlock_report report;
  report.deadlocked = true;
  report.cycle = cycle;
  std::size_t b = detail::no_buffer;
  for (std::size_t x = 0; x < s.buf.size() && b == detail::no_buffer; ++x)
    if (s.buf[x].queue.count != 0 && s.buf[x].head.ncand != 0) b = x;
  std::map<std::size_t, std::size_t> seen;
  std::vector<std::size_t> path;
  while (b != detail::no_buffer && seen.find(b) == seen.end()) {
    seen[b] = path.size();
    path.push_back(b);
    b = detail::waits_for(s, f, b);
  }
  const std::size_t from = b == detail::no_buffer ? 0 : seen[b];
  for (std::size_t i = from; i < path.size(); ++i)
    report.cycle_of_buffers.push_back(describe_buffer(s, f, path[i]));
  return report;
}

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_DEADLOCK_HPP
