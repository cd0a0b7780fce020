// SPDX-License-Identifier: BSL-1.0
// interlock/qos/deficit_table.hpp: the Deficit Table as a fabric manager programs it.
//
// Models [QoSThesis], Sections 4.3.3 and 5.4: N entries (SL, weight), weights
// in flow-control credits, each queue's SL and each SL's MTU. The scheduler
// that serves it is basic_dtable_scheduler (qos/dtable.hpp); the
// configuration methodology that fills it is qos/dtable_config.hpp.
//
// Contract
//   - deficit_table(table, queue_sls, sl_mtu): 1..256 entries
//     (dtable_entry{sl, weight}); sl_mtu[sl] in 1..65535 credits for up to
//     32 SLs; each entry's weight >= its SL's MTU (so a selected entry
//     always sends) and <= 2^24; 1..64 queues, each of an SL with at least
//     one table entry (a queue of an SL without one would never be served).
//     config_error names the entry or field otherwise.
//   - Immutable once built, and shared (std::shared_ptr<const>) by every
//     port that uses it; it keeps, per byte of a queue mask, the union of
//     the entries of those queues' SLs (8 KB per 8 queues), so a decision
//     finds the eligible entries with one lookup per 8 queues.
//
// Example (Figure 5.2's table)
//   interlock::qos::deficit_table t({{0, 3}, {1, 3}}, {0, 1}, {2, 2});
//   assert(t.entry_count() == 2 && t.entry_sl(1) == 1 && t.mtu(0) == 2);
#ifndef INTERLOCK_QOS_DEFICIT_TABLE_HPP
#define INTERLOCK_QOS_DEFICIT_TABLE_HPP

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

}  // namespace qos
}  // namespace interlock

#endif  // INTERLOCK_QOS_DEFICIT_TABLE_HPP
