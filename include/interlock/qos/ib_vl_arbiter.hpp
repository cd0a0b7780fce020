// SPDX-License-Identifier: BSL-1.0
// interlock/qos/ib_vl_arbiter.hpp: InfiniBand dual-table VL arbitration with LimitOfHighPriority.
//
// Models [QoSThesis], Section 6.2 (Figure 6.1), and the InfiniBand
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
// Configuration and state: the tables are a vl_arbitration_tables,
// immutable, validated once and shared (std::shared_ptr<const>) by every
// port that uses them; an arbiter is that pointer and a 16-byte ib_vl_state
// per port (each table's entry and weight left, the byte counter).
//
// Contract
//   - ib_vl_arbiter(config) (tables of its own) or ib_vl_arbiter(shared
//     vl_arbitration_tables); vl_arbitration_tables(config): config_error when a table has more
//     than 64 entries, an entry's VL is above 14 (VL15 is management, outside VL arbitration), or a
//     weight above 255. LimitOfHighPriority is a uint8_t, so every value is valid.
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
//   - Save and restore: state(ar) (core/state_io.hpp); entries are checked
//     against the tables, weights left against what one packet can overdraw.
//   Complexity: two lookups per decision (per-byte unions of entry masks,
//   4 KB per table, built once in the shared tables); no loop over entries
//   or active VLs.
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

/// The two VLArbitration tables and LimitOfHighPriority as a subnet manager
/// programs them, validated once; immutable and shared by every port that
/// uses them.
class vl_arbitration_tables {
 public:
  /// One table's entries, indexed for mask searches.
  struct table {
    std::array<std::uint8_t, ib::max_table_entries> vl{};
    std::array<std::uint8_t, ib::max_table_entries> weight{};
    std::array<std::uint64_t, ib::data_vls> entries_of_vl{};  // entries with weight > 0
    /// Per byte of the active VLs (VLs 0-7, then 8-14): the union of their
    /// entries_of_vl, so a decision ORs two masks whatever the active VLs.
    std::array<std::uint64_t, 512> entries_of_byte{};
    std::uint64_t vls_with_entries = 0;
    std::uint8_t size = 0;

    friend bool operator==(const table& a, const table& b) noexcept {
      return a.size == b.size && a.vl == b.vl && a.weight == b.weight;
    }
  };

  explicit vl_arbitration_tables(const ib_vl_arbitration_config& config)
      : limit_(config.limit_of_high_priority), turn_(config.turn) {
    configure(high_, config.high, "high-priority table");
    configure(low_, config.low, "low-priority table");
  }

  const table& high() const noexcept { return high_; }
  const table& low() const noexcept { return low_; }
  std::uint8_t limit_of_high_priority() const noexcept { return limit_; }
  low_priority_turn turn() const noexcept { return turn_; }

  friend bool operator==(const vl_arbitration_tables& a, const vl_arbitration_tables& b) noexcept {
    return a.high_ == b.high_ && a.low_ == b.low_ && a.limit_ == b.limit_ && a.turn_ == b.turn_;
  }
  friend bool operator!=(const vl_arbitration_tables& a, const vl_arbitration_tables& b) noexcept {
    return !(a == b);
  }

 private:
  static void configure(table& t, const std::vector<ib_vl_arbitration_entry>& entries,
                        const char* name) {
    if (entries.size() > ib::max_table_entries) {
      throw config_error("ib_vl_arbiter", std::string(name) + " entries",
                         std::to_string(entries.size()), "at most 64");
    }
    t.size = static_cast<std::uint8_t>(entries.size());
    for (std::size_t e = 0; e < entries.size(); ++e) {
      if (entries[e].vl >= ib::data_vls) {
        throw config_error("ib_vl_arbiter", std::string(name) + "[" + std::to_string(e) + "].vl",
                           std::to_string(entries[e].vl),
                           "0..14 (VL15 is management traffic, outside VL arbitration)");
      }
      t.vl[e] = entries[e].vl;
      t.weight[e] = entries[e].weight;
      if (entries[e].weight > 0) {
        t.entries_of_vl[entries[e].vl] |= bits::bit(e);
        t.vls_with_entries |= bits::bit(entries[e].vl);
      }
    }
    for (std::size_t g = 0; g < 2; ++g)
      for (std::size_t b = 1; b < 256; ++b) {
        const std::size_t vl = g * 8 + bits::lowest_index(b);
        t.entries_of_byte[g * 256 + b] = t.entries_of_byte[g * 256 + (b & (b - 1))] |
                                         (vl < ib::data_vls ? t.entries_of_vl[vl] : 0);
      }
  }

  table high_;
  table low_;
  std::uint8_t limit_;
  low_priority_turn turn_;
};

/// One port's VL arbitration state: each table's current entry and the
/// weight left in it, the high-priority byte counter, and whether a
/// whole-entry low-priority turn is under way. 16 bytes.
struct ib_vl_state {
  std::int32_t high_remaining = 0;  // 64-byte units; <= 0: the entry has ended
  std::int32_t low_remaining = 0;
  std::uint32_t high_bytes = 0;  // high-priority bytes since the low table last sent
  std::uint8_t high_entry = ib::max_table_entries - 1;  // the first search starts at entry 0
  std::uint8_t low_entry = ib::max_table_entries - 1;
  bool in_low_turn = false;

  friend bool operator==(const ib_vl_state& a, const ib_vl_state& b) noexcept {
    return a.high_remaining == b.high_remaining && a.low_remaining == b.low_remaining &&
           a.high_bytes == b.high_bytes && a.high_entry == b.high_entry &&
           a.low_entry == b.low_entry && a.in_low_turn == b.in_low_turn;
  }
  friend bool operator!=(const ib_vl_state& a, const ib_vl_state& b) noexcept { return !(a == b); }
};

class ib_vl_arbiter {
 public:
  using request_type = queue_requests;
  using state_type = ib_vl_state;
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

  /// An arbiter with tables of its own.
  explicit ib_vl_arbiter(const ib_vl_arbitration_config& config)
      : ib_vl_arbiter(std::make_shared<const vl_arbitration_tables>(config)) {}
  /// A port's arbiter over shared tables.
  explicit ib_vl_arbiter(std::shared_ptr<const vl_arbitration_tables> tables)
      : tables_(std::move(tables)) {
    if (!tables_) throw config_error("ib_vl_arbiter", "tables", "null", "vl_arbitration_tables");
    state_.high_entry = start_entry(tables_->high());
    state_.low_entry = start_entry(tables_->low());
  }

  decision decide(const queue_requests& r) const {
    decision d;
    const std::uint64_t active = r.requests & bits::low_mask(ib::data_vls);
    INTERLOCK_ASSERT(active == r.requests, "request for VL15 or above");
    if (active == 0) return d;
    const vl_arbitration_tables& t = *tables_;
    if (state_.in_low_turn && continues(t.low(), state_.low_entry, state_.low_remaining, active))
      return serve(t.low(), state_.low_entry, state_.low_remaining, active, r, table::low);
    const bool high_ready = (active & t.high().vls_with_entries) != 0;
    const bool low_ready = (active & t.low().vls_with_entries) != 0;
    if (low_ready && (!high_ready || limit_reached()))
      return serve(t.low(), state_.low_entry, state_.low_remaining, active, r, table::low);
    if (high_ready)
      return serve(t.high(), state_.high_entry, state_.high_remaining, active, r, table::high);
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

  /// The shared tables, and this port's state.
  const vl_arbitration_tables& tables() const noexcept { return *tables_; }
  const std::shared_ptr<const vl_arbitration_tables>& shared_tables() const noexcept {
    return tables_;
  }
  const state_type& state() const noexcept { return state_; }

  std::size_t size() const noexcept { return ib::data_vls; }
  std::uint8_t limit_of_high_priority() const noexcept { return tables_->limit_of_high_priority(); }
  low_priority_turn turn() const noexcept { return tables_->turn(); }
  /// High-priority bytes sent since the low-priority table last sent.
  std::uint32_t high_priority_bytes() const noexcept { return state_.high_bytes; }
  /// Sets the byte counter (to start from a state such as Figure 6.1's).
  void set_high_priority_bytes(std::uint32_t bytes) noexcept { state_.high_bytes = bytes; }
  std::size_t current_entry(table t) const noexcept {
    return t == table::low ? state_.low_entry : state_.high_entry;
  }
  /// Weight left in the table's current entry, in 64-byte units (<= 0: ended).
  std::int32_t remaining_weight(table t) const noexcept {
    return t == table::low ? state_.low_remaining : state_.high_remaining;
  }

  /// Save and restore (core/state_io.hpp): each table's current entry and
  /// the weight it has left (64-byte units; a packet may overdraw it), the
  /// high-priority byte counter and the low table's turn flag; entries are
  /// checked against the tables' sizes.
  template <class Archive>
  void state(Archive& ar) {
    const vl_arbitration_tables& t = *tables_;
    ar.object("IBVL", "ib_vl_arbiter", ib::data_vls);
    const auto remaining_rule = state_rule{
        [](std::int64_t v) {
          return v >= 1 - std::int64_t{ib::weight_units(ib::max_packet_bytes)} && v <= 255;
        },
        "1 - (units of the largest packet)..255"};
    ar.u8("high_entry", state_.high_entry, state_range{0, start_entry(t.high())});
    ar.i32("high_remaining", state_.high_remaining, remaining_rule);
    ar.u8("low_entry", state_.low_entry, state_range{0, start_entry(t.low())});
    ar.i32("low_remaining", state_.low_remaining, remaining_rule);
    ar.u32("high_bytes", state_.high_bytes);
    ar.flag("in_low_turn", state_.in_low_turn);
  }

  friend bool operator==(const ib_vl_arbiter& a, const ib_vl_arbiter& b) noexcept {
    return (a.tables_ == b.tables_ || *a.tables_ == *b.tables_) && a.state_ == b.state_;
  }
  friend bool operator!=(const ib_vl_arbiter& a, const ib_vl_arbiter& b) noexcept {
    return !(a == b);
  }

 private:
  using weighted_table = vl_arbitration_tables::table;

  static std::uint8_t start_entry(const weighted_table& t) noexcept {
    return static_cast<std::uint8_t>(t.size == 0 ? 0 : t.size - 1);
  }
  static bool continues(const weighted_table& t, std::uint8_t entry, std::int32_t remaining,
                        std::uint64_t active) noexcept {
    return remaining > 0 && ((active >> t.vl[entry]) & 1u) != 0;
  }
  static std::uint64_t eligible(const weighted_table& t, std::uint64_t active) noexcept {
    return t.entries_of_byte[active & 0xFFu] | t.entries_of_byte[256 + (active >> 8 & 0x7Fu)];
  }
  static decision serve(const weighted_table& t, std::uint8_t entry, std::int32_t remaining,
                        std::uint64_t active, const queue_requests& r, table from) {
    decision d;
    d.from = from;
    if (continues(t, entry, remaining, active)) {
      d.entry = entry;
    } else {
      d.entry = detail::next_at_or_after(eligible(t, active), entry + 1u < t.size ? entry + 1u : 0);
      d.new_entry = true;
      if (d.entry >= ib::max_table_entries) return decision{};  // unreachable: eligible
    }
    d.vl = t.vl[d.entry];
    const std::uint32_t size_bytes = r.head_size.at(d.vl, 0);
    INTERLOCK_ASSERT(size_bytes >= 1 && size_bytes <= ib::max_packet_bytes,
                     "head packet size outside 1..4222 bytes");
    d.size = size_bytes < 1
                 ? 1
                 : (size_bytes > ib::max_packet_bytes ? ib::max_packet_bytes : size_bytes);
    return d;
  }
  static void spend(const weighted_table& t, const decision& d, std::uint8_t& entry,
                    std::int32_t& remaining) noexcept {
    if (d.new_entry) {
      entry = static_cast<std::uint8_t>(d.entry);
      remaining = t.weight[d.entry];
    }
    remaining -= static_cast<std::int32_t>(ib::weight_units(d.size));
  }

  void apply(const decision& d) noexcept {
    if (d.from == table::high) {
      spend(tables_->high(), d, state_.high_entry, state_.high_remaining);
      const std::uint64_t bytes = std::uint64_t{state_.high_bytes} + d.size;
      state_.high_bytes = bytes > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<std::uint32_t>(bytes);
    } else {
      spend(tables_->low(), d, state_.low_entry, state_.low_remaining);
      state_.high_bytes = 0;
      state_.in_low_turn =
          tables_->turn() == low_priority_turn::whole_entry && state_.low_remaining > 0;
    }
  }

  bool limit_reached() const noexcept {
    return ib::limit_reached(tables_->limit_of_high_priority(), state_.high_bytes);
  }

  std::shared_ptr<const vl_arbitration_tables> tables_;
  state_type state_;
};

}  // namespace qos

/// Requests from a candidate_view: head sizes in bytes, `bytes_per_flit`
/// per flit of the view (default 64, InfiniBand's credit).
template <>
class request_builder<qos::ib_vl_arbiter> : public detail::sized_request_builder {
 public:
  explicit request_builder(const qos::ib_vl_arbiter& a,
                           std::uint32_t bytes_per_flit = qos::ib::weight_unit_bytes)
      : sized_request_builder(a.size(), bytes_per_flit, "request_builder<ib_vl_arbiter>") {}
};

}  // namespace interlock

#endif  // INTERLOCK_QOS_IB_VL_ARBITER_HPP
