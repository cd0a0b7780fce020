// interlock/qos/ib_vl_arbiter.hpp: InfiniBand dual-table VL arbitration with LimitOfHighPriority.
//
// Models paper 004, Section 6.2 (Figure 6.1), and the InfiniBand
// specification's VL arbitration that it describes. An output port has a
// high-priority and a low-priority table of up to 64 entries (VL 0..14,
// weight 0..255 in 64-byte units; weight 0 skips the entry). Each table keeps
// its current entry and the weight left in it: the entry's VL sends whole
// packets while weight is left and the VL is active, each packet spending its
// size rounded up to 64-byte units, so the last packet may overrun the weight
// (weights are "rounded up to whole packets"); then the table moves on to its
// next entry with weight > 0 whose VL is active. An entry whose VL becomes
// inactive ends and loses its remaining weight.
//
// LimitOfHighPriority (0..255) bounds the high-priority bytes sent between
// two opportunities of the low-priority table: a byte counter adds each
// high-priority packet; once it reaches LimitOfHighPriority * 4096 bytes
// (and at least one packet: the value 0 allows exactly one high-priority
// packet), the low-priority table gets the next decision if it has an active
// entry, and the counter is reset when it takes it. 255 means no limit. When
// no high-priority entry is active, the low-priority table sends (and resets
// the counter) whatever the counter reads.
//
// Where the thesis and the specification differ we follow the specification:
//   - low_priority_turn::one_packet (the default): a low-priority opportunity
//     sends one packet ("the number of high-priority packets that can be
//     transmitted without an opportunity to send a low-priority packet"), the
//     low-priority entry keeping its remaining weight for later turns;
//   - low_priority_turn::whole_entry: the thesis's reading (Figure 6.1 and
//     Algorithm 4): the low-priority turn serves its whole entry.
// Figure 6.1's walk-through is reproduced under both in tests/qos.
//
// Contract
//   - ib_vl_arbiter(config): config_error when a table has more than 64
//     entries, an entry's VL is above 14 (VL15 is management, outside VL
//     arbitration), or a weight above 255. LimitOfHighPriority is a uint8_t,
//     so every value is valid.
//   - Requests: queue_requests over VLs 0..14 with head_size[v] in bytes,
//     1..4096+126 (a precondition; sizes outside are clamped into it).
//   - Decision protocol: arbitrate() const; commit(g, r) replays the decision
//     and advances the table it used and the byte counter; grant() does both;
//     commit of no grant is a no-op. decide() tells which table and entry.
//   - Invariants: grant_implies_request, work_conserving (an active VL with
//     an entry of weight > 0 in either table is never left idle); with
//     LimitOfHighPriority L < 255 and an active low-priority entry, at most
//     max(1, ceil(L * 4096 / smallest packet)) high-priority packets pass
//     between two low-priority packets.
//   Complexity: O(active VLs) mask work per decision; no loop over entries.
//
// Example (Figure 6.1)
//   interlock::qos::ib_vl_arbiter arb({{{0, 3}, {1, 3}}, {{2, 2}, {3, 2}}, 1});
//   arb.set_high_priority_bytes(3968);
//   std::array<std::uint32_t, 4> size{64, 64, 64, 64};
//   interlock::qos::queue_requests r{0b0101, size};
//   arb.grant(r); arb.grant(r);            // VL0 twice: 4096 bytes reached
//   assert(arb.grant(r).index() == 2);     // the low-priority opportunity: VL2
#ifndef INTERLOCK_QOS_IB_VL_ARBITER_HPP
#define INTERLOCK_QOS_IB_VL_ARBITER_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/invariants.hpp"
#include "interlock/qos/queue_requests.hpp"

namespace interlock {
namespace qos {

struct ib_vl_arbitration_entry {
  std::uint8_t vl = 0;
  std::uint8_t weight = 0;  // 64-byte units; 0 skips the entry
  friend bool operator==(const ib_vl_arbitration_entry& a,
                         const ib_vl_arbitration_entry& b) noexcept {
    return a.vl == b.vl && a.weight == b.weight;
  }
};

enum class low_priority_turn : std::uint8_t { one_packet, whole_entry };

struct ib_vl_arbitration_config {
  std::vector<ib_vl_arbitration_entry> high;
  std::vector<ib_vl_arbitration_entry> low;
  std::uint8_t limit_of_high_priority = 255;  // units of 4096 bytes; 255: no limit
  low_priority_turn turn = low_priority_turn::one_packet;
};

namespace ib {
inline constexpr std::size_t max_table_entries = 64;
inline constexpr std::size_t data_vls = 15;
inline constexpr std::uint32_t weight_unit_bytes = 64;
inline constexpr std::uint32_t limit_unit_bytes = 4096;
inline constexpr std::uint8_t unlimited = 255;
/// The largest packet: a 4096-byte MTU payload and at most 126 bytes of headers.
inline constexpr std::uint32_t max_packet_bytes = 4096 + 126;
/// True when `high_bytes` of high-priority traffic give the low-priority
/// table its opportunity: at least one packet and limit * 4096 bytes (never
/// for limit 255).
constexpr bool limit_reached(std::uint8_t limit, std::uint64_t high_bytes) noexcept {
  return limit != unlimited && high_bytes > 0 &&
         high_bytes >= std::uint64_t{limit} * limit_unit_bytes;
}
/// A packet's size in 64-byte weight units, rounded up.
constexpr std::uint32_t weight_units(std::uint32_t bytes) noexcept {
  return (bytes + weight_unit_bytes - 1) / weight_unit_bytes;
}
}  // namespace ib

class ib_vl_arbiter {
 public:
  using request_type = queue_requests;
  /// Head sizes are in bytes; weights in 64-byte units.
  static constexpr size_unit head_size_unit = size_unit::bytes;
  enum class table : std::uint8_t { none, high, low };

  struct decision {
    std::size_t vl = detail::not_found;
    table from = table::none;
    std::size_t entry = detail::not_found;
    bool new_entry = false;
    std::uint32_t size = 0;  // bytes
  };

  explicit ib_vl_arbiter(const ib_vl_arbitration_config& config)
      : limit_(config.limit_of_high_priority), turn_(config.turn) {
    high_.configure(config.high, "high-priority table");
    low_.configure(config.low, "low-priority table");
  }

  decision decide(const queue_requests& r) const {
    decision d;
    const std::uint64_t active = r.requests & bits::low_mask(ib::data_vls);
    INTERLOCK_ASSERT(active == r.requests, "request for VL15 or above");
    if (active == 0) return d;
    if (in_low_turn_ && low_.continues(active)) return low_.serve(active, r, table::low);
    const bool high_ready = high_.any_eligible(active);
    const bool low_ready = low_.any_eligible(active);
    if (low_ready && (!high_ready || limit_reached())) return low_.serve(active, r, table::low);
    if (high_ready) return high_.serve(active, r, table::high);
    return d;
  }

  interlock::grant arbitrate(const queue_requests& r) const {
    const interlock::grant g(decide(r).vl);
    INTERLOCK_ASSERT(invariants::grant_implies_request(r.requests, g), "grant_implies_request");
    return g;
  }

  void commit(interlock::grant g, const queue_requests& r) {
    if (!g) return;
    const decision d = decide(r);
    INTERLOCK_ASSERT(d.vl == g.index(), "commit of a grant the arbiter did not decide");
    if (d.vl == g.index()) apply(d);
  }

  /// arbitrate and commit with one decision.
  interlock::grant grant(const queue_requests& r) {
    const decision d = decide(r);
    if (d.from != table::none) apply(d);
    return interlock::grant(d.vl);
  }

  std::size_t size() const noexcept { return ib::data_vls; }
  std::uint8_t limit_of_high_priority() const noexcept { return limit_; }
  low_priority_turn turn() const noexcept { return turn_; }
  /// High-priority bytes sent since the low-priority table last sent.
  std::uint32_t high_priority_bytes() const noexcept { return high_bytes_; }
  /// Sets the byte counter (to start from a state such as Figure 6.1's).
  void set_high_priority_bytes(std::uint32_t bytes) noexcept { high_bytes_ = bytes; }
  std::size_t current_entry(table t) const noexcept {
    return t == table::low ? low_.entry_ : high_.entry_;
  }
  /// Weight left in the table's current entry, in 64-byte units (<= 0: ended).
  std::int32_t remaining_weight(table t) const noexcept {
    return t == table::low ? low_.remaining_ : high_.remaining_;
  }

  friend bool operator==(const ib_vl_arbiter& a, const ib_vl_arbiter& b) noexcept {
    return a.high_ == b.high_ && a.low_ == b.low_ && a.limit_ == b.limit_ && a.turn_ == b.turn_ &&
           a.high_bytes_ == b.high_bytes_ && a.in_low_turn_ == b.in_low_turn_;
  }
  friend bool operator!=(const ib_vl_arbiter& a, const ib_vl_arbiter& b) noexcept {
    return !(a == b);
  }

 private:
  /// One arbitration table and its position.
  struct weighted_table {
    std::array<std::uint8_t, ib::max_table_entries> vl{};
    std::array<std::uint8_t, ib::max_table_entries> weight{};
    std::array<std::uint64_t, ib::data_vls> entries_of_vl{};  // entries with weight > 0
    std::uint64_t vls_with_entries = 0;
    std::uint8_t size = 0;
    std::uint8_t entry_ = ib::max_table_entries - 1;  // the first search starts at entry 0
    std::int32_t remaining_ = 0;

    void configure(const std::vector<ib_vl_arbitration_entry>& entries, const char* name) {
      if (entries.size() > ib::max_table_entries) {
        throw config_error("ib_vl_arbiter", std::string(name) + " entries",
                           std::to_string(entries.size()), "at most 64");
      }
      size = static_cast<std::uint8_t>(entries.size());
      entry_ = static_cast<std::uint8_t>(size == 0 ? 0 : size - 1);
      for (std::size_t e = 0; e < entries.size(); ++e) {
        if (entries[e].vl >= ib::data_vls) {
          throw config_error("ib_vl_arbiter", std::string(name) + "[" + std::to_string(e) + "].vl",
                             std::to_string(entries[e].vl),
                             "0..14 (VL15 is management traffic, outside VL arbitration)");
        }
        vl[e] = entries[e].vl;
        weight[e] = entries[e].weight;
        if (entries[e].weight > 0) {
          entries_of_vl[entries[e].vl] |= bits::bit(e);
          vls_with_entries |= bits::bit(entries[e].vl);
        }
      }
    }

    bool any_eligible(std::uint64_t active) const noexcept {
      return (active & vls_with_entries) != 0;
    }
    bool continues(std::uint64_t active) const noexcept {
      return remaining_ > 0 && ((active >> vl[entry_]) & 1u) != 0;
    }
    std::uint64_t eligible(std::uint64_t active) const noexcept {
      std::uint64_t entries = 0;
      for (std::uint64_t x = active & vls_with_entries; x != 0; x &= x - 1)
        entries |= entries_of_vl[bits::lowest_index(x)];
      return entries;
    }
    decision serve(std::uint64_t active, const queue_requests& r, table from) const {
      decision d;
      d.from = from;
      if (continues(active)) {
        d.entry = entry_;
      } else {
        d.entry = detail::next_at_or_after(eligible(active), entry_ + 1u < size ? entry_ + 1u : 0);
        d.new_entry = true;
        if (d.entry >= ib::max_table_entries) return decision{};  // unreachable: eligible
      }
      d.vl = vl[d.entry];
      const std::uint32_t size_bytes = r.head_size.at(d.vl, 0);
      INTERLOCK_ASSERT(size_bytes >= 1 && size_bytes <= ib::max_packet_bytes,
                       "head packet size outside 1..4222 bytes");
      d.size = size_bytes < 1
                   ? 1
                   : (size_bytes > ib::max_packet_bytes ? ib::max_packet_bytes : size_bytes);
      return d;
    }
    void spend(const decision& d) noexcept {
      if (d.new_entry) {
        entry_ = static_cast<std::uint8_t>(d.entry);
        remaining_ = weight[d.entry];
      }
      remaining_ -= static_cast<std::int32_t>(ib::weight_units(d.size));
    }
    friend bool operator==(const weighted_table& a, const weighted_table& b) noexcept {
      return a.vl == b.vl && a.weight == b.weight && a.size == b.size && a.entry_ == b.entry_ &&
             a.remaining_ == b.remaining_;
    }
  };

  void apply(const decision& d) noexcept {
    if (d.from == table::high) {
      high_.spend(d);
      const std::uint64_t bytes = std::uint64_t{high_bytes_} + d.size;
      high_bytes_ = bytes > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<std::uint32_t>(bytes);
    } else {
      low_.spend(d);
      high_bytes_ = 0;
      in_low_turn_ = turn_ == low_priority_turn::whole_entry && low_.remaining_ > 0;
    }
  }

  bool limit_reached() const noexcept { return ib::limit_reached(limit_, high_bytes_); }

  weighted_table high_;
  weighted_table low_;
  std::uint8_t limit_;
  low_priority_turn turn_;
  std::uint32_t high_bytes_ = 0;
  bool in_low_turn_ = false;
};

}  // namespace qos

/// Requests from a candidate_view: head sizes in bytes, `bytes_per_flit`
/// per flit of the view (default 64, InfiniBand's credit).
template <>
class request_builder<qos::ib_vl_arbiter> : public qos::detail::sized_request_builder {
 public:
  explicit request_builder(const qos::ib_vl_arbiter& a,
                           std::uint32_t bytes_per_flit = qos::ib::weight_unit_bytes)
      : sized_request_builder(a.size(), bytes_per_flit, "request_builder<ib_vl_arbiter>") {}
};

}  // namespace interlock

#endif  // INTERLOCK_QOS_IB_VL_ARBITER_HPP
