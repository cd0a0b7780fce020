// SPDX-License-Identifier: BSL-1.0
// interlock/qos/sbt.hpp: the Simple Bandwidth Table (SBT) output scheduler.
//
// Models [QoSThesis], Sections 2.3.1 and 4.3.2 (Algorithms 1 and 2). The table
// has one entry per SL holding a weight: how many packets the SL may send in
// one table cycle. The scheduler walks the queues (VLs or SCs) round robin
// from the queue it served last and sends from the first active queue whose
// SL has weight left, decrementing that weight by one packet; so an SL keeps
// sending while it is active and has weight. When every active SL is dry, the
// starvation exception lets a dry one send without weight (Algorithm 2 serves
// the last active queue met in its walk), so the link is never left idle.
// The SL's share of a saturated link is phi_i = weight_i / 100.
//
// One choice where the algorithm and the text differ: Algorithm 2 resets the
// table inside the decision that finds every active entry dry and then sends
// that packet through the exception, without decrementing, so each saturated
// table cycle sends 101 packets and one SL gets an extra one. Section 4.3.2
// says the weights are "restored when the total table weight is zero"; we do
// that, at the commit that spends the last unit, so a saturated cycle is
// exactly 100 packets and the shares are exact (tests/qos/sbt_test.cpp runs
// Algorithm 2 as printed beside it and shows the extra packet).
//
// Configuration and state: the table is a bandwidth_table, immutable,
// validated once and shared (std::shared_ptr<const>) by every port that uses
// it; a scheduler is that pointer and a 48-byte sbt_state per port (weight
// left per SL, the queue served last).
//
// Contract
//   - sbt_scheduler(weights, queue_sls) (a table of its own), or
//     sbt_scheduler(shared bandwidth_table): weights[sl] for up to 32 SLs, summing
//     to 100 (Section 4.3.2); queue_sls[q] < weights.size() for 1..64 queues.
//     config_error names the field otherwise.
//   - Requests: queue_requests; head sizes are not read (SBT counts packets).
//   - Decision protocol: arbitrate() const; commit(g) spends one unit of the
//     SL's weight (none under the exception) and restores the table when the
//     total reaches zero; grant() does both; commit of no grant is a no-op.
//   - Invariants: grant_implies_request, work_conserving; a saturated table
//     cycle sends weight_i packets of SL i; an SL with weight w > 0 that
//     stays active waits at most 2 (100 - w) + queues packets of other SLs:
//     the rest of the current cycle (others' weight and exception packets,
//     one per queue at most while it is dry) and the start of the next
//     before the walk reaches it (100 - w when every SL stays active).
//   - Save and restore: state(ar) (core/state_io.hpp) writes the queue
//     served last, each SL's remaining weight and their total; a restore
//     checks each weight against the table and the total against the sum
//     (at least 1: a table with nothing left is restored at once).
//   Complexity: O(1) per decision (masks of queues whose SL has weight left).
//
// Example
//   interlock::qos::sbt_scheduler sbt({55, 45}, {0, 1});    // Table 4.1: SL0 55, SL1 45
//   interlock::qos::queue_requests both{0b11, {}};
//   for (int i = 0; i < 100; ++i) sbt.grant(both);           // 55 from queue 0, 45 from 1
//   assert(sbt.remaining(0) == 55);                          // restored after the cycle
#ifndef INTERLOCK_QOS_SBT_HPP
#define INTERLOCK_QOS_SBT_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interlock/core/arbiter_traits.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/invariants.hpp"
#include "interlock/core/state_io.hpp"
#include "interlock/qos/queue_requests.hpp"
#include "interlock/qos/service_maps.hpp"

namespace interlock {
namespace qos {

/// The Simple Bandwidth Table as a fabric manager programs it: a weight per
/// SL (summing to 100) and each queue's SL. Immutable once built.
class bandwidth_table {
 public:
  static constexpr std::size_t max_sls = 32;
  static constexpr std::size_t max_queues = 64;
  static constexpr std::uint32_t table_total = 100;

  bandwidth_table(const std::vector<std::uint32_t>& weights, const qos::queue_sls& sls) {
    detail::require_in_range("sbt_scheduler", "SL count", weights.size(), 1, max_sls);
    detail::require_in_range("sbt_scheduler", "queue count", sls.size(), 1, max_queues);
    std::uint64_t total = 0;
    for (std::uint32_t w : weights) total += w;
    if (total != table_total) {
      throw config_error("sbt_scheduler", "sum of weights", std::to_string(total),
                         "100 (Section 4.3.2: the weights are percentages)");
    }
    sl_count_ = static_cast<std::uint8_t>(weights.size());
    queue_count_ = static_cast<std::uint8_t>(sls.size());
    for (std::size_t sl = 0; sl < weights.size(); ++sl)
      weight_[sl] = static_cast<std::uint8_t>(weights[sl]);
    detail::map_queues(sls, weights.size(), "sbt_scheduler", "an SL of the table", sl_of_queue_,
                       queues_of_sl_);
    for (std::size_t sl = 0; sl < sl_count_; ++sl)
      if (weight_[sl] > 0) queues_with_weight_ |= queues_of_sl_[sl];
  }

  std::size_t sl_count() const noexcept { return sl_count_; }
  std::size_t queue_count() const noexcept { return queue_count_; }
  std::uint32_t weight(std::size_t sl) const noexcept { return sl < max_sls ? weight_[sl] : 0; }
  const std::array<std::uint8_t, max_sls>& weights() const noexcept { return weight_; }
  std::uint8_t sl_of_queue(std::size_t q) const noexcept { return sl_of_queue_[q % max_queues]; }
  std::uint64_t queues_of_sl(std::size_t sl) const noexcept {
    return sl < max_sls ? queues_of_sl_[sl] : 0;
  }
  /// The queues whose SL has a weight above 0.
  std::uint64_t queues_with_weight() const noexcept { return queues_with_weight_; }

  friend bool operator==(const bandwidth_table& a, const bandwidth_table& b) noexcept {
    return a.weight_ == b.weight_ && a.sl_of_queue_ == b.sl_of_queue_ &&
           a.queue_count_ == b.queue_count_ && a.sl_count_ == b.sl_count_;
  }
  friend bool operator!=(const bandwidth_table& a, const bandwidth_table& b) noexcept {
    return !(a == b);
  }

 private:
  std::array<std::uint8_t, max_sls> weight_{};
  std::array<std::uint64_t, max_sls> queues_of_sl_{};
  std::array<std::uint8_t, max_queues> sl_of_queue_{};
  std::uint64_t queues_with_weight_ = 0;
  std::uint8_t sl_count_ = 0;
  std::uint8_t queue_count_ = 0;
};

/// One port's SBT state: 48 bytes.
struct sbt_state {
  std::uint64_t queues_with_weight = 0;  // queues whose SL has weight left
  std::uint8_t last = 0;                 // the queue served last
  std::uint8_t total_remaining = 0;      // weight left in the table cycle
  std::array<std::uint8_t, bandwidth_table::max_sls> remaining{};  // per SL

  friend bool operator==(const sbt_state& a, const sbt_state& b) noexcept {
    return a.queues_with_weight == b.queues_with_weight && a.last == b.last &&
           a.total_remaining == b.total_remaining && a.remaining == b.remaining;
  }
  friend bool operator!=(const sbt_state& a, const sbt_state& b) noexcept { return !(a == b); }
};

class sbt_scheduler : public arbiter_base<sbt_scheduler, queue_requests> {
 public:
  using state_type = sbt_state;
  /// SBT counts packets: it reads no head size.
  static constexpr size_unit head_size_unit = size_unit::packets;
  static constexpr std::size_t max_sls = bandwidth_table::max_sls;
  static constexpr std::size_t max_queues = bandwidth_table::max_queues;
  static constexpr std::uint32_t table_total = bandwidth_table::table_total;

  /// A scheduler with a table of its own.
  sbt_scheduler(const std::vector<std::uint32_t>& weights, const qos::queue_sls& sls)
      : sbt_scheduler(std::make_shared<const bandwidth_table>(weights, sls)) {}
  /// A port's scheduler over a shared table.
  explicit sbt_scheduler(std::shared_ptr<const bandwidth_table> table) : table_(std::move(table)) {
    if (!table_) throw config_error("sbt_scheduler", "table", "null", "a bandwidth_table");
    restore();
  }

  interlock::grant arbitrate(const queue_requests& r) const {
    const std::uint64_t active = r.requests & valid_mask();
    INTERLOCK_ASSERT(active == r.requests, "request for a queue the scheduler does not have");
    if (active == 0) return interlock::grant();
    const std::uint64_t with_weight = active & state_.queues_with_weight;
    const std::size_t q = with_weight != 0 ? detail::next_at_or_after(with_weight, state_.last)
                                           : detail::last_before(active, state_.last);
    const interlock::grant g(q);
    INTERLOCK_ASSERT(invariants::work_conserving(active, g), "work_conserving");
    return g;
  }

  void commit(interlock::grant g, const queue_requests& /*r*/) { commit(g); }

  /// Spends one unit of the granted queue's SL (if it has any) and restores
  /// the table when the total reaches zero.
  void commit(interlock::grant g) {
    if (!g || g.index() >= table_->queue_count()) return;
    state_.last = static_cast<std::uint8_t>(g.index());
    const std::size_t sl = table_->sl_of_queue(g.index());
    if (state_.remaining[sl] == 0) return;  // the starvation exception
    if (--state_.remaining[sl] == 0) state_.queues_with_weight &= ~table_->queues_of_sl(sl);
    if (--state_.total_remaining == 0) restore();
  }

  /// The shared table, and this port's state.
  const bandwidth_table& table() const noexcept { return *table_; }
  const std::shared_ptr<const bandwidth_table>& shared_table() const noexcept { return table_; }
  const state_type& state() const noexcept { return state_; }

  std::size_t size() const noexcept { return table_->queue_count(); }
  std::size_t sl_count() const noexcept { return table_->sl_count(); }
  std::uint32_t weight(std::size_t sl) const noexcept { return table_->weight(sl); }
  /// The weight SL `sl` has left in this table cycle.
  std::uint32_t remaining(std::size_t sl) const noexcept {
    return sl < max_sls ? state_.remaining[sl] : 0;
  }
  /// The queue served last (where the next walk starts).
  std::size_t last_selected() const noexcept { return state_.last; }

  /// Save and restore (core/state_io.hpp), checked against the table.
  template <class Archive>
  void state(Archive& ar) {
    const bandwidth_table& t = *table_;
    ar.object("SBT_", "sbt_scheduler", t.sl_count());
    ar.u8("last", state_.last, state_range{0, t.queue_count() - 1});
    std::uint64_t sum = 0, with_weight = 0;
    for (std::size_t sl = 0; sl < t.sl_count(); ++sl) {
      ar.u8("remaining", state_.remaining[sl], state_range{0, t.weight(sl)});
      sum += state_.remaining[sl];
      with_weight |= state_.remaining[sl] != 0 ? t.queues_of_sl(sl) : 0;
    }
    ar.u8("total_remaining", state_.total_remaining,
          state_rule{[&](std::uint64_t v) { return v == sum && v >= 1; },
                     "the sum of the SLs' remaining weights, at least 1"});
    if constexpr (Archive::loading) state_.queues_with_weight = with_weight;
  }

  friend bool operator==(const sbt_scheduler& a, const sbt_scheduler& b) noexcept {
    return (a.table_ == b.table_ || *a.table_ == *b.table_) && a.state_ == b.state_;
  }
  friend bool operator!=(const sbt_scheduler& a, const sbt_scheduler& b) noexcept {
    return !(a == b);
  }

 private:
  std::uint64_t valid_mask() const noexcept { return bits::low_mask(table_->queue_count()); }

  void restore() noexcept {
    state_.remaining = table_->weights();
    state_.total_remaining = static_cast<std::uint8_t>(table_total);
    state_.queues_with_weight = table_->queues_with_weight();
  }

  std::shared_ptr<const bandwidth_table> table_;
  state_type state_;
};

}  // namespace qos

/// Requests from a candidate_view: the mask of active queues (SBT reads no size).
template <>
class request_builder<qos::sbt_scheduler> {
 public:
  explicit request_builder(const qos::sbt_scheduler& s) noexcept
      : mask_(bits::low_mask(s.size())) {}
  qos::queue_requests operator()(const candidate_view& v) const {
    INTERLOCK_ASSERT((v.requests & ~mask_) == 0,
                     "candidate for a queue the scheduler does not have");
    return qos::queue_requests{v.requests & mask_, {}};
  }

 private:
  std::uint64_t mask_;
};

}  // namespace interlock

#endif  // INTERLOCK_QOS_SBT_HPP
