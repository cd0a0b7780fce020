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
//   - deficit_table(table, queue_sls, sl_mtu): 1..256 entries
//     (dtable_entry{sl, weight}); sl_mtu[sl] in 1..65535 credits for up to
//     32 SLs; each entry's weight >= its SL's MTU (so a selected entry
//     always sends) and <= 2^24; 1..64 queues, each of an SL with at least
//     one table entry (a queue of an SL without one would never be served).
//     config_error names the entry or field otherwise.
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
#include "interlock/qos/queue_requests.hpp"
#include "interlock/qos/service_maps.hpp"

namespace interlock {
namespace qos {

struct dtable_entry {
  std::uint8_t sl = 0;
  std::uint32_t weight = 0;  // credits
  friend bool operator==(const dtable_entry& a, const dtable_entry& b) noexcept {
    return a.sl == b.sl && a.weight == b.weight;
  }
};

/// The Deficit Table as a fabric manager programs it: entries, each queue's
/// SL and each SL's MTU. Immutable once built; validated here.
class deficit_table {
 public:
  static constexpr std::size_t max_entries = 256;
  static constexpr std::size_t max_sls = 32;
  static constexpr std::size_t max_queues = 64;
  static constexpr std::uint32_t max_mtu = 0xFFFF;
  static constexpr std::uint32_t max_weight = 1u << 24;

  deficit_table(const std::vector<dtable_entry>& table, const qos::queue_sls& sls,
                const std::vector<std::uint32_t>& sl_mtu) {
    detail::require_in_range("dtable_scheduler", "table entries", table.size(), 1, max_entries);
    detail::require_in_range("dtable_scheduler", "SL count (SL_MTU entries)", sl_mtu.size(), 1,
                             max_sls);
    detail::require_in_range("dtable_scheduler", "queue count", sls.size(), 1, max_queues);
    for (std::size_t sl = 0; sl < sl_mtu.size(); ++sl) {
      detail::require_in_range("dtable_scheduler", "SL_MTU[" + std::to_string(sl) + "]", sl_mtu[sl],
                               1, max_mtu);
      mtu_[sl] = sl_mtu[sl];
    }
    for (std::size_t e = 0; e < table.size(); ++e) check_entry(e, table[e]);
    detail::map_queues(sls, sl_mtu.size(), "dtable_scheduler", "an SL with an MTU", sl_of_queue_,
                       queues_of_sl_);
    size_ = static_cast<std::uint16_t>(table.size());
    queue_count_ = static_cast<std::uint8_t>(sls.size());
    sl_count_ = static_cast<std::uint8_t>(sl_mtu.size());
    std::array<detail::entry_mask, max_sls> entries_of_sl{};  // built here, kept per byte below
    for (std::size_t e = 0; e < table.size(); ++e) {
      entry_sl_[e] = table[e].sl;
      entry_weight_[e] = table[e].weight;
      entries_of_sl[table[e].sl][e / 64] |= bits::bit(e % 64);
    }
    for (std::size_t q = 0; q < sls.size(); ++q) {
      if (!detail::any(entries_of_sl[sls[q]])) {  // it would never be served
        throw config_error("dtable_scheduler", "SL of queue " + std::to_string(q),
                           std::to_string(sls[q]), "an SL with at least one table entry");
      }
    }
    // Per byte of the active mask, the union of its queues' entry masks:
    // a decision ORs one mask per 8 queues instead of one per active queue.
    const std::size_t groups = (sls.size() + 7) / 8;
    entries_of_byte_.assign(groups * 256, detail::entry_mask{});
    for (std::size_t g = 0; g < groups; ++g)
      for (std::size_t b = 1; b < 256; ++b) {
        const std::size_t low = bits::lowest_index(b);
        const std::size_t q = g * 8 + low;
        detail::entry_mask m = entries_of_byte_[g * 256 + (b & (b - 1))];
        if (q < sls.size())
          for (std::size_t w = 0; w < 4; ++w) m[w] |= entries_of_sl[sls[q]][w];
        entries_of_byte_[g * 256 + b] = m;
      }
  }

  std::size_t entry_count() const noexcept { return size_; }
  std::size_t queue_count() const noexcept { return queue_count_; }
  std::size_t sl_count() const noexcept { return sl_count_; }
  dtable_entry entry(std::size_t e) const noexcept {
    return e < size_ ? dtable_entry{entry_sl_[e], entry_weight_[e]} : dtable_entry{};
  }
  std::uint8_t entry_sl(std::size_t e) const noexcept { return entry_sl_[e % max_entries]; }
  std::uint32_t entry_weight(std::size_t e) const noexcept {
    return entry_weight_[e % max_entries];
  }
  std::uint32_t mtu(std::size_t sl) const noexcept { return sl < max_sls ? mtu_[sl] : 0; }
  std::uint8_t sl_of_queue(std::size_t q) const noexcept { return sl_of_queue_[q % max_queues]; }
  std::uint64_t queues_of_sl(std::size_t sl) const noexcept {
    return sl < max_sls ? queues_of_sl_[sl] : 0;
  }
  /// The entries of every queue in `active` (bits beyond the queues ignored):
  /// one lookup per 8 queues.
  detail::entry_mask entries_of(std::uint64_t active) const noexcept {
    detail::entry_mask m{};
    const std::size_t groups = entries_of_byte_.size() / 256;
    for (std::size_t g = 0; g < groups; ++g) {
      const std::size_t b = static_cast<std::size_t>(active >> (8 * g) & 0xFFu);
      const detail::entry_mask& part = entries_of_byte_[g * 256 + b];
      for (std::size_t w = 0; w < 4; ++w) m[w] |= part[w];
    }
    return m;
  }
  /// Sum of the weights of SL `sl`'s entries (credits).
  std::uint64_t sl_weight(std::size_t sl) const noexcept {
    std::uint64_t total = 0;
    for (std::size_t e = 0; e < size_; ++e)
      if (entry_sl_[e] == sl) total += entry_weight_[e];
    return total;
  }
  /// The largest cyclic distance between consecutive entries of SL `sl`
  /// (entry_count() for an SL with one entry, 0 for an SL with none).
  std::size_t entry_distance(std::size_t sl) const noexcept {
    std::size_t first = detail::not_found, previous = 0, widest = 0;
    for (std::size_t e = 0; e < size_; ++e) {
      if (entry_sl_[e] != sl) continue;
      if (first == detail::not_found) {
        first = e;
      } else if (e - previous > widest) {
        widest = e - previous;
      }
      previous = e;
    }
    if (first == detail::not_found) return 0;
    const std::size_t wrap = first + size_ - previous;
    return wrap > widest ? wrap : widest;
  }

  friend bool operator==(const deficit_table& a, const deficit_table& b) noexcept {
    return a.size_ == b.size_ && a.entry_sl_ == b.entry_sl_ && a.entry_weight_ == b.entry_weight_ &&
           a.queue_count_ == b.queue_count_ && a.sl_of_queue_ == b.sl_of_queue_ &&
           a.sl_count_ == b.sl_count_ && a.mtu_ == b.mtu_;
  }
  friend bool operator!=(const deficit_table& a, const deficit_table& b) noexcept {
    return !(a == b);
  }

 private:
  void check_entry(std::size_t e, const dtable_entry& entry) const {
    const std::string field = "table[" + std::to_string(e) + "]";
    if (entry.sl >= max_sls || mtu_[entry.sl] == 0) {
      throw config_error("dtable_scheduler", field + ".sl", std::to_string(entry.sl),
                         "an SL with an MTU in SL_MTU");
    }
    if (entry.weight < mtu_[entry.sl] || entry.weight > max_weight) {
      throw config_error("dtable_scheduler", field + ".weight", std::to_string(entry.weight),
                         std::to_string(mtu_[entry.sl]) + ".." + std::to_string(max_weight) +
                             " (at least SL" + std::to_string(entry.sl) +
                             "'s MTU, so a selected entry can send a packet)");
    }
  }

  std::array<std::uint8_t, max_entries> entry_sl_{};
  std::array<std::uint32_t, max_entries> entry_weight_{};
  std::vector<detail::entry_mask> entries_of_byte_;  // [group * 256 + byte]
  std::array<std::uint64_t, max_sls> queues_of_sl_{};
  std::array<std::uint8_t, max_queues> sl_of_queue_{};
  std::array<std::uint32_t, max_sls> mtu_{};
  std::uint16_t size_ = 0;
  std::uint8_t queue_count_ = 0;
  std::uint8_t sl_count_ = 0;
};

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
