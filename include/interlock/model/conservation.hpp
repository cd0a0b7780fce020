// SPDX-License-Identifier: BSL-1.0
// interlock/model/conservation.hpp: the conservation laws every network of the model keeps.
//
// Contract
//   Each kind of network counts where its packets and its buffers' space
//   are (audit.hpp: tori, Anton 2's node and the SeaStar's router;
//   qos_switch/fabric_audit.hpp: the QoS switch) and hands the counts to
//   these checks, which hold the laws and their wording, so that every
//   network of the model is audited by the same rules:
//   - packet_ledger: every packet created is delivered, in a buffer, on a
//     channel or being delivered (created = delivered + in_buffers +
//     in_flight + delivering);
//   - credit_loop: what a sender counts as used of a buffer downstream
//     (its size less the sender's credits) equals the flits that buffer
//     holds or will hold plus the credits on their way back, and lies
//     within [0, size];
//   - occupancy: a buffer's space in use equals the flits it queues plus
//     those leaving it.
//   Each record's holds() says whether its law holds; check() returns ""
//   when it does, or one line naming `where` (the caller's words for the
//   buffer, port or link) and every term. An audit over many buffers asks
//   holds() first and builds `where` only for a law that breaks.
//
// Example
//   interlock::model::packet_ledger n;
//   n.created = 10; n.delivered = 7; n.in_buffers = 2; n.in_flight = 1;
//   assert(interlock::model::check(n).empty());
//   interlock::model::credit_loop l{8, 3, 5, 0};   // size 8: 3 credits, 5 held
//   assert(interlock::model::check(l, "port 1").empty());
#ifndef INTERLOCK_MODEL_CONSERVATION_HPP
#define INTERLOCK_MODEL_CONSERVATION_HPP

#include <cstdint>
#include <string>

namespace interlock {
namespace model {

/// Where a network's packets are.
struct packet_ledger {
  std::uint64_t created = 0, delivered = 0;
  std::uint64_t in_buffers = 0;  // queued in a buffer (a source's, a router's, a staging one)
  std::uint64_t in_flight = 0;   // on a channel, not yet in the buffer it goes to
  std::uint64_t delivering = 0;  // left the network, its delivery not yet counted

  std::uint64_t in_network() const noexcept { return in_buffers + in_flight; }
  bool holds() const noexcept { return created == delivered + in_buffers + in_flight + delivering; }
};

/// created = delivered + in buffers + in flight + delivering.
inline std::string check(const packet_ledger& n) {
  if (n.holds()) return {};
  return "packets: created " + std::to_string(n.created) + " != delivered " +
         std::to_string(n.delivered) + " + in buffers " + std::to_string(n.in_buffers) +
         " + in flight " + std::to_string(n.in_flight) + " + being delivered " +
         std::to_string(n.delivering);
}

/// One credit loop: a buffer of `size` flits, its sender's credits, the
/// flits it holds or will hold, and the credits on their way back.
struct credit_loop {
  std::int64_t size = 0, credits = 0, held = 0, returning = 0;

  bool holds() const noexcept {
    return credits >= 0 && credits <= size && size - credits == held + returning;
  }
};

/// 0 <= credits <= size and size - credits = held + returning.
inline std::string check(const credit_loop& l, const std::string& where) {
  if (l.holds()) return {};
  const auto terms = [&] {
    return "credits " + std::to_string(l.credits) + " of " + std::to_string(l.size) + ", held " +
           std::to_string(l.held) + ", returning " + std::to_string(l.returning);
  };
  if (l.credits < 0 || l.credits > l.size)
    return where + ": credits out of range (" + terms() + ")";
  return where + ": credit loop broken, used " + std::to_string(l.size - l.credits) +
         " != held + returning (" + terms() + ")";
}

/// A buffer's space in use against the flits it queues and sends.
struct occupancy {
  std::uint64_t used = 0, queued = 0, leaving = 0;

  bool holds() const noexcept { return used == queued + leaving; }
};

/// used = queued + leaving.
inline std::string check(const occupancy& o, const std::string& where) {
  if (o.holds()) return {};
  return where + ": holds " + std::to_string(o.used) + " flits but queues " +
         std::to_string(o.queued) + " and sends " + std::to_string(o.leaving);
}

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_CONSERVATION_HPP
