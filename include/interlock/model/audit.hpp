// SPDX-License-Identifier: BSL-1.0
// interlock/model/audit.hpp: the model's conservation and credit-loop invariants, checked.
//
// Contract
//   audit() visits a whole network and returns what is wrong (empty if
//   nothing), by the laws of conservation.hpp: every packet injected is
//   delivered, in a buffer, on a channel or being ejected (packet_ledger);
//   the count of packets in the network agrees; every output (router,
//   port, VC) with a buffer downstream closes its credit loop (credit_loop:
//   the buffer's size by kind of router and port, router_state::
//   buffer_flits), and so does every output staging buffer with its space
//   coming back. It costs a pass over every buffer and pending event: for
//   tests, not for runs.
//
// Example
//   // each cycle of a test: net.step(); REQUIRE(net.check_invariants().empty());
#ifndef INTERLOCK_MODEL_AUDIT_HPP
#define INTERLOCK_MODEL_AUDIT_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/model/conservation.hpp"
#include "interlock/model/event_wheel.hpp"
#include "interlock/model/router_state.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

/// What a network counts of its packets.
struct packet_counts {
  std::uint64_t injected = 0, delivered = 0, in_network = 0;
};

template <class Pool>
std::string audit(const router_state& s, const Pool& pool, const event_wheel& wheel,
                  const packet_counts& n) {
  std::uint64_t in_buffers = 0, in_flight = 0, ejecting = 0;
  std::vector<std::int64_t> held(s.credits.size(), 0);  // flits a buffer holds or will
  std::vector<std::int64_t> returning(s.credits.size(), 0);
  for (std::size_t b = 0; b < s.buf.size(); ++b) {
    in_buffers += s.buf[b].queue.count;
    for (std::size_t k = 0; k < s.buf[b].queue.count; ++k) held[b] += pool[s.packet_at(b, k)].flits;
  }
  // Output staging buffers: their packets, and their space coming back.
  std::vector<std::int64_t> staged_held(s.staging.size(), 0);
  std::vector<std::int64_t> staged_returning(s.staging.size(), 0);
  for (std::size_t i = 0; i < s.staging.size(); ++i) {
    in_buffers += s.staging[i].count;
    for (std::size_t k = 0; k < s.staging[i].count; ++k)
      staged_held[i] += pool[s.staged_at(i, k)].flits;
  }
  wheel.for_each([&](const event& e) {
    if (e.kind == event_kind::staging_credit) {
      staged_returning[s.staging_index(e.router, e.port, e.vc)] += e.payload;
      return;
    }
    const std::size_t b = s.buffer(e.router, e.port, e.vc);
    if (e.kind == event_kind::arrival) {
      ++in_flight;
      held[b] += pool[e.payload].flits;
    } else if (e.kind == event_kind::credit) {
      returning[b] += e.payload;
    } else {
      ++ejecting;
    }
  });
  for (std::size_t i = 0; i < s.staging.size(); ++i) {
    const credit_loop loop{static_cast<std::int64_t>(s.staging_flits()), s.staging[i].free,
                           staged_held[i], staged_returning[i]};
    if (!loop.holds()) return check(loop, "staging buffer " + std::to_string(i));
  }
  const packet_ledger ledger{n.injected, n.delivered, in_buffers, in_flight, ejecting};
  if (!ledger.holds()) return check(ledger);
  if (n.in_network != ledger.in_network())
    return "the network counts " + std::to_string(n.in_network) + " packets in it, " +
           std::to_string(ledger.in_network()) + " are";
  for (node_id r = 0; r < s.nodes; ++r)
    for (std::size_t o = 0; o < s.ports_of(r); ++o)
      for (std::size_t v = 0; v < s.vcs; ++v) {
        const std::size_t up = s.buffer(r, o, v);
        std::size_t down;
        unsigned size;  // the downstream buffer's
        if (o >= s.local) {
          down = up;  // the injection side's credits for the local input buffer
          size = s.buffer_flits(r, o);
        } else {
          const link_state& out = s.link[s.port_index(r, o)];
          if (out.downstream == no_node) continue;
          down = s.buffer(out.downstream, out.downstream_port, v);
          size = s.buffer_flits(out.downstream, out.downstream_port);
        }
        const credit_loop loop{size, s.credits[up], held[down], returning[up]};
        if (!loop.holds())
          return check(loop, "router " + std::to_string(r) + " port " + std::to_string(o) + " VC " +
                                 std::to_string(v));
      }
  return {};
}

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_AUDIT_HPP
