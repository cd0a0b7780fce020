// SPDX-License-Identifier: BSL-1.0
// interlock/qos/dtable.hpp: the Deficit Table (DTable) output scheduler.
//
// Models [QoSThesis], Sections 4.3.3 and 5.4 (Algorithm 3, Figure 5.2). The
// table has N entries (SL, weight), weights in flow-control credits. Each SL
// has a deficit counter (initially 0) and the port one accumulated-weight
// counter. When an entry is selected, accumulated weight = the entry's weight
// + its SL's deficit counter, and the SL sends packets while the accumulated
// weight covers the head packet, each packet subtracting its size in credits.
// The scheduler then moves, cyclically from the entry after the current one,
// to the next entry whose SL is active. An entry ends in one of two ways:
//   1. its SL is inactive: the accumulated weight is discarded and the SL's
//      deficit counter set to 0;
//   2. the accumulated weight is below the head packet's size: it is kept in
//      the SL's deficit counter.
// An SL may own several queues (SCs or VLs); each time one of its entries is
// selected it serves the next active one round robin (Section 4.3.3: SC0/VL0
// the first time, SC1/VL1 the second), and keeps serving that queue while it
// stays active (the next active queue of the SL otherwise).
//
// Choices: the deficit counter moves into the accumulated weight when an
// entry is selected (it reads 0 while the entry is served and is written back
// when the entry ends); Algorithm 3 subtracts SL_MTU per packet, we subtract
// the head packet's size (Section 5.4's "one packet size"), the same when
// packets are MTU-sized as in the thesis. A decision with no active queue is
// no grant and changes nothing, so the selected SL's accumulated weight
// survives an idle port; Algorithm 3 would discard it at once.
//
// Configuration and state. The table a fabric manager programs is a
// deficit_table: immutable, validated once, shared (std::shared_ptr<const>)
// by every port that uses it. A scheduler is that pointer and a small
// comparable state per port (dtable_state: current entry, SL and queue,
// accumulated weight, a deficit counter and a round-robin position per SL):
// 56 bytes for dtable_scheduler (up to 16 SLs, InfiniBand's), 104 for
// basic_dtable_scheduler<32> (Omni-Path's 32 SLs), whatever the table size.
// Two schedulers are equal when their tables are equal and their states are.
//
// Contract
//   - deficit_table (qos/deficit_table.hpp): the table, validated there;
//     each entry's weight >= its SL's MTU, so a selected entry always sends.
//   - basic_dtable_scheduler<S>(shared table): config_error when the table
//     has more than S SLs. dtable_scheduler(table, queue_sls, sl_mtu) builds
//     a table of its own.
//   - Requests: queue_requests with head_size[q] in credits, 1..MTU of q's
//     SL (a precondition; a size outside is clamped into that range).
//   - Decision protocol: arbitrate() const; commit(g, r) replays the decision
//     and updates entry, accumulated weight and deficit counters; grant()
//     does both; commit of no grant is a no-op.
//   - Invariants: grant_implies_request, work_conserving; deficit counter of
//     an SL < its MTU; over a saturated table cycle SL i sends its table
//     weight within one MTU; phi_i = sum of SL i's weights / table total.
//     Latency control: an active SL whose consecutive entries are at most d
//     entries apart waits at most d - 1 other entries, i.e. at most the sum
//     of the d - 1 largest foreign weights in credits (entry_distance()).
//   - Save and restore: state(ar) (core/state_io.hpp) writes the entry, its
//     SL, the queue, the accumulated weight and each SL's deficit counter
//     and round-robin queue; a restore checks each against the table (the
//     SL of the entry, a queue of that SL, a deficit below the SL's MTU).
//   Complexity: per decision, one lookup per 8 queues (per-byte unions of
//   entry masks, built once in the shared table: 8 KB per 8 queues) and a
//   find-first over the table's words; no loop over entries or active queues.
//
// Example (Figure 5.2)
//   interlock::qos::dtable_scheduler d({{0, 3}, {1, 3}}, {0, 1}, {2, 2});
//   std::array<std::uint32_t, 2> size{2, 2};
//   interlock::qos::queue_requests sl0_only{0b01, size};
//   d.grant(sl0_only);        // entry 0: accumulated 3 -> 1; 1 < 2 goes to the deficit
//   d.grant(sl0_only);        // SL1 idle, entry 0 again: 1 + 3 = 4 -> 2
//   assert(d.accumulated_weight() == 2);
#ifndef INTERLOCK_QOS_DTABLE_HPP
#define INTERLOCK_QOS_DTABLE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/invariants.hpp"
#include "interlock/core/state_io.hpp"
#include "interlock/qos/deficit_table.hpp"
#include "interlock/qos/queue_requests.hpp"
#include "interlock/qos/service_maps.hpp"

namespace interlock {
namespace qos {

/// One port's DTable state, for tables of up to S SLs.
template <std::size_t S>
struct dtable_state {
  static constexpr std::uint8_t no_sl = 0xFF;
  std::uint16_t entry = 0;                 // the entry being served
  std::uint8_t sl = no_sl;                 // its SL, or no_sl before the first decision
  std::uint8_t queue = 0;                  // the queue being served
  std::uint32_t accumulated = 0;           // accumulated weight, credits
  std::array<std::uint16_t, S> deficit{};  // per SL, < its MTU
  std::array<std::uint8_t, S> rr{};        // per SL: the queue its last entry started with

  friend bool operator==(const dtable_state& a, const dtable_state& b) noexcept {
    return a.entry == b.entry && a.sl == b.sl && a.queue == b.queue &&
           a.accumulated == b.accumulated && a.deficit == b.deficit && a.rr == b.rr;
  }
  friend bool operator!=(const dtable_state& a, const dtable_state& b) noexcept {
    return !(a == b);
  }
};

template <std::size_t S = 16>
class basic_dtable_scheduler {
  static_assert(S >= 1 && S <= deficit_table::max_sls,
                "basic_dtable_scheduler<S>: S must be 1..32 SLs");

 public:
  using request_type = queue_requests;
  using state_type = dtable_state<S>;
  /// Head sizes and weights are in flow-control credits.
  static constexpr size_unit head_size_unit = size_unit::credits;
  static constexpr std::size_t max_entries = deficit_table::max_entries;
  static constexpr std::size_t max_sls = S;
  static constexpr std::size_t max_queues = deficit_table::max_queues;
  static constexpr std::uint32_t max_mtu = deficit_table::max_mtu;
  static constexpr std::uint32_t max_weight = deficit_table::max_weight;
  static constexpr std::uint8_t no_sl = state_type::no_sl;

  /// What one decision does: serve `queue`; `new_entry` when it starts entry
  /// `entry` (ending the current one), `sl_inactive` when the current entry
  /// ended because its SL had nothing to send.
  struct decision {
    std::size_t queue = detail::not_found;
    std::size_t entry = detail::not_found;
    bool new_entry = false;
    bool sl_inactive = false;
    std::uint32_t size = 0;
  };

  /// A scheduler with a table of its own.
  basic_dtable_scheduler(const std::vector<dtable_entry>& table, const qos::queue_sls& sls,
                         const std::vector<std::uint32_t>& sl_mtu)
      : basic_dtable_scheduler(std::make_shared<const deficit_table>(table, sls, sl_mtu)) {}
  /// A port's scheduler over a shared table.
  explicit basic_dtable_scheduler(std::shared_ptr<const deficit_table> table)
      : table_(std::move(table)) {
    if (!table_) throw config_error("dtable_scheduler", "table", "null", "a deficit_table");
    detail::require_in_range("dtable_scheduler", "SL count of the table", table_->sl_count(), 1, S);
    state_.entry = static_cast<std::uint16_t>(table_->entry_count() - 1);  // first search: entry 0
    state_.rr.fill(0xFF);
  }

  /// The decision for `r` without changing anything.
  decision decide(const queue_requests& r) const {
    const deficit_table& t = *table_;
    decision d;
    const std::uint64_t active = r.requests & bits::low_mask(t.queue_count());
    INTERLOCK_ASSERT(active == r.requests, "request for a queue the scheduler does not have");
    if (active == 0) return d;
    if (state_.sl != no_sl) {
      const std::uint64_t own = active & t.queues_of_sl(state_.sl);
      if (own != 0) {
        const std::size_t q = detail::next_at_or_after(own, state_.queue);
        if (q >= max_queues) return decision{};  // unreachable: own != 0
        const std::uint32_t size = head_size(r, q);
        if (size <= state_.accumulated) {
          d.queue = q;
          d.entry = state_.entry;
          d.size = size;
          return d;
        }
      } else {
        d.sl_inactive = true;
      }
    }
    // The next entry whose SL is active: the union of the active queues'
    // entry masks (a lookup per byte of the mask), then a cyclic find-first
    // from the entry after this one.
    const detail::entry_mask eligible = t.entries_of(active);
    const std::size_t e = detail::next_at_or_after(eligible, state_.entry + 1u, t.entry_count());
    INTERLOCK_ASSERT(e != detail::not_found, "an active queue whose SL has no table entry");
    if (e >= max_entries) return decision{};
    const std::size_t sl = t.entry_sl(e);
    d.queue = detail::next_at_or_after(active & t.queues_of_sl(sl), state_.rr[sl] + 1u);
    if (d.queue >= max_queues) return decision{};  // unreachable: the SL is active
    d.entry = e;
    d.new_entry = true;
    d.size = head_size(r, d.queue);
    return d;
  }

  interlock::grant arbitrate(const queue_requests& r) const {
    const decision d = decide(r);
    const interlock::grant g(d.queue);
    INTERLOCK_ASSERT(invariants::grant_implies_request(r.requests, g), "grant_implies_request");
    return g;
  }

  void commit(interlock::grant g, const queue_requests& r) {
    if (!g) return;
    const decision d = decide(r);
    INTERLOCK_ASSERT(d.queue == g.index(), "commit of a grant the scheduler did not decide");
    if (d.queue == g.index()) apply(d);
  }

  /// arbitrate and commit with one decision.
  interlock::grant grant(const queue_requests& r) {
    const decision d = decide(r);
    if (d.queue != detail::not_found) apply(d);
    return interlock::grant(d.queue);
  }

  /// The shared table, and this port's state.
  const deficit_table& table() const noexcept { return *table_; }
  const std::shared_ptr<const deficit_table>& shared_table() const noexcept { return table_; }
  const state_type& state() const noexcept { return state_; }

  std::size_t size() const noexcept { return table_->queue_count(); }
  std::size_t entry_count() const noexcept { return table_->entry_count(); }
  std::size_t sl_count() const noexcept { return table_->sl_count(); }
  dtable_entry entry(std::size_t e) const noexcept { return table_->entry(e); }
  std::uint32_t mtu(std::size_t sl) const noexcept { return table_->mtu(sl); }
  /// The entry being served (entry_count() - 1 before the first decision).
  std::size_t current_entry() const noexcept { return state_.entry; }
  /// The SL being served, or no_sl before the first decision.
  std::size_t current_sl() const noexcept { return state_.sl; }
  std::uint32_t accumulated_weight() const noexcept { return state_.accumulated; }
  std::uint32_t deficit_counter(std::size_t sl) const noexcept {
    return sl < S ? state_.deficit[sl] : 0;
  }
  std::uint64_t sl_weight(std::size_t sl) const noexcept { return table_->sl_weight(sl); }
  std::size_t entry_distance(std::size_t sl) const noexcept { return table_->entry_distance(sl); }

  /// Save and restore (core/state_io.hpp), checked against the table.
  template <class Archive>
  void state(Archive& ar) {
    const deficit_table& t = *table_;
    ar.object("DTBL", "dtable_scheduler", S);
    ar.u16("entry", state_.entry, state_range{0, t.entry_count() - 1});
    const std::uint8_t entry_sl = t.entry_sl(state_.entry);
    ar.u8("sl", state_.sl,
          state_rule{[&](std::uint64_t v) { return v == no_sl || v == entry_sl; },
                     "the entry's SL, or 255 before the first decision"});
    const std::uint8_t sl = state_.sl;
    ar.u8("queue", state_.queue,
          state_rule{[&](std::uint64_t q) {
                       return q < t.queue_count() && (sl == no_sl || t.sl_of_queue(q) == sl);
                     },
                     "a queue of the entry's SL"});
    const std::uint64_t most = sl == no_sl ? 0 : t.mtu(sl) - 1 + t.entry_weight(state_.entry);
    ar.u32("accumulated", state_.accumulated, state_range{0, most});
    for (std::size_t s = 0; s < t.sl_count(); ++s) {
      ar.u16("deficit", state_.deficit[s], state_range{0, t.mtu(s) - 1});
      ar.u8("rr", state_.rr[s],
            state_rule{[&](std::uint64_t q) {
                         return q == 0xFF || (q < t.queue_count() && t.sl_of_queue(q) == s);
                       },
                       "a queue of the SL, or 255 before its first entry"});
    }
  }

  friend bool operator==(const basic_dtable_scheduler& a,
                         const basic_dtable_scheduler& b) noexcept {
    return (a.table_ == b.table_ || *a.table_ == *b.table_) && a.state_ == b.state_;
  }
  friend bool operator!=(const basic_dtable_scheduler& a,
                         const basic_dtable_scheduler& b) noexcept {
    return !(a == b);
  }

 private:
  void apply(const decision& d) noexcept {
    if (d.new_entry) {
      if (state_.sl != no_sl)
        state_.deficit[state_.sl] =
            static_cast<std::uint16_t>(d.sl_inactive ? 0 : state_.accumulated);
      state_.entry = static_cast<std::uint16_t>(d.entry);
      state_.sl = table_->entry_sl(d.entry);
      state_.accumulated = state_.deficit[state_.sl] + table_->entry_weight(d.entry);
      state_.deficit[state_.sl] = 0;
      state_.rr[state_.sl] = static_cast<std::uint8_t>(d.queue);
    }
    state_.queue = static_cast<std::uint8_t>(d.queue);
    state_.accumulated -= d.size;
  }

  std::uint32_t head_size(const queue_requests& r, std::size_t q) const {
    const std::uint32_t mtu = table_->mtu(table_->sl_of_queue(q));
    const std::uint32_t size = r.head_size.at(q, 0);
    INTERLOCK_ASSERT(size >= 1 && size <= mtu, "head packet size outside 1..MTU of its SL");
    return size < 1 ? 1 : (size > mtu ? mtu : size);
  }

  std::shared_ptr<const deficit_table> table_;
  state_type state_;
};

/// Up to 16 SLs (InfiniBand): a 56-byte state per port.
using dtable_scheduler = basic_dtable_scheduler<16>;

}  // namespace qos

/// Requests from a candidate_view: head sizes in credits, `credits_per_flit`
/// per flit of the view (default 1: a flit is a credit).
template <std::size_t S>
class request_builder<qos::basic_dtable_scheduler<S>> : public detail::sized_request_builder {
 public:
  explicit request_builder(const qos::basic_dtable_scheduler<S>& s,
                           std::uint32_t credits_per_flit = 1)
      : sized_request_builder(s.size(), credits_per_flit, "request_builder<dtable_scheduler>") {}
};

}  // namespace interlock

#endif  // INTERLOCK_QOS_DTABLE_HPP
