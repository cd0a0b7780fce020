// SPDX-License-Identifier: BSL-1.0
// interlock/qos/queue_requests.hpp: what an output scheduler decides over.
//
// Models the input of the output schedulers of [QoSThesis] (Sections 4.3, 5.4,
// 6.2): at each decision an output port holds up to 64 queues (VLs, or SCs
// where several SLs share a VL), and a queue is *active* when it holds a
// packet and the next device has credits for it (the thesis's is_active()).
// The scheduler grants one queue; its head packet is sent whole (virtual
// cut-through), and the next decision comes after it.
//
// Contract
//   - queue_requests{requests, head_size}: bit q of `requests` set means
//     queue q is active; head_size[q] is the size of queue q's head packet
//     in the scheduler's head_size_unit (credits for dtable, bytes for
//     ib_vl_arbiter; sbt counts packets and reads no size). The mask has
//     the name it has in every request type of interlock. A queue outside head_size reads as size
//     0, which each scheduler documents as a precondition violation with a fallback.
//   - Every scheduler declares head_size_unit, the unit it reads head sizes
//     in, and has a request_builder that makes queue_requests from a
//     candidate_view (core/candidates.hpp), converting the view's flits.
//   - detail::map_queues (interlock::detail, as every helper): the one check of a scheduler's
//   queue-to-SL map.
//   - detail::next_at_or_after / last_before: cyclic find-first on a mask of
//     up to 64 bits, and on the 4-word masks of tables of up to 256 entries,
//     so a scheduler skips inactive entries with masks, not loops.
//
// Example
//   std::array<std::uint32_t, 4> sizes{2, 2, 0, 1};
//   interlock::qos::queue_requests r{0b1011, sizes};   // queues 0, 1 and 3 active
//   interlock::qos::sbt_scheduler scheduler({25, 25, 25, 25}, {0, 1, 2, 3});
//   auto g = scheduler.grant(r);                        // the queue that sends next
//   assert(g.index() != 2);
#ifndef INTERLOCK_QOS_QUEUE_REQUESTS_HPP
#define INTERLOCK_QOS_QUEUE_REQUESTS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/request_set.hpp"
#include "interlock/core/span.hpp"

namespace interlock {
namespace qos {

struct queue_requests {
  std::uint64_t requests = 0;           // bit q: queue q is active (a packet it may send)
  span<const std::uint32_t> head_size;  // head_size[q]: its head packet's size, in head_size_unit
};

inline bool requested(const queue_requests& r, std::size_t q) noexcept {
  return interlock::requested(r.requests, q);
}
inline bool any_requested(const queue_requests& r) noexcept { return r.requests != 0; }

}  // namespace qos

// QoS helpers live in interlock::detail with the others.
namespace detail {

/// The index returned when a search finds nothing.
inline constexpr std::size_t not_found = static_cast<std::size_t>(-1);

/// The first set bit of `mask` at or after `start` (cyclically over 64 bits).
constexpr std::size_t next_at_or_after(std::uint64_t mask, std::size_t start) noexcept {
  if (mask == 0) return not_found;
  const std::uint64_t upper = start < 64 ? mask & ~bits::low_mask(start) : 0;
  return bits::lowest_index(upper != 0 ? upper : mask);
}

/// The last set bit of `mask` in the cyclic order that starts at `start`
/// (the bit just before `start`, going backwards).
constexpr std::size_t last_before(std::uint64_t mask, std::size_t start) noexcept {
  if (mask == 0) return not_found;
  const std::uint64_t lower = mask & bits::low_mask(start < 64 ? start : 64);
  return bits::highest_index(lower != 0 ? lower : mask);
}

/// Records each queue's SL (sls[q]) and each SL's queues as a mask, once at
/// construction; config_error "<component>: SL of queue q = s; allowed:
/// <what>, 0..sl_count-1" for an SL at or above sl_count.
template <class SlOfQueue, class QueuesOfSl>
void map_queues(const std::vector<std::uint8_t>& sls, std::size_t sl_count, const char* component,
                const char* what, SlOfQueue& sl_of_queue, QueuesOfSl& queues_of_sl) {
  for (std::size_t q = 0; q < sls.size(); ++q) {
    if (sls[q] >= sl_count) {
      throw config_error(component, "SL of queue " + std::to_string(q), std::to_string(sls[q]),
                         std::string(what) + ", 0.." + std::to_string(sl_count - 1));
    }
    sl_of_queue[q] = sls[q];
    queues_of_sl[sls[q]] |= bits::bit(q);
  }
}

/// A set of up to 256 table entries.
using entry_mask = std::array<std::uint64_t, 4>;

inline bool any(const entry_mask& m) noexcept { return (m[0] | m[1] | m[2] | m[3]) != 0; }

/// The first set entry at or after `start`, cyclically over `size` entries.
inline std::size_t next_at_or_after(const entry_mask& m, std::size_t start,
                                    std::size_t size) noexcept {
  if (start >= size) start = 0;
  const std::size_t words = bits::words_for(size);
  std::size_t w = start / 64;
  std::uint64_t x = m[w] & ~bits::low_mask(start % 64);
  for (std::size_t step = 0; step <= words; ++step) {
    if (x != 0) return w * 64 + bits::lowest_index(x);
    w = w + 1 < words ? w + 1 : 0;
    x = m[w];
  }
  return not_found;
}

/// A qos::queue_requests from a candidate_view: the mask (cut to the scheduler's
/// `queues`) and each requesting queue's head size in flits times
/// `units_per_flit` (saturating at 2^32 - 1). With 1 unit per flit the
/// view's sizes are passed through without a copy. config_error for 0
/// units per flit.
class sized_request_builder {
 public:
  sized_request_builder(std::size_t queues, std::uint32_t units_per_flit, const char* component)
      : mask_(bits::low_mask(queues < 64 ? queues : 64)), per_flit_(units_per_flit) {
    if (units_per_flit == 0) throw config_error(component, "units per flit", "0", "at least 1");
  }
  qos::queue_requests operator()(const candidate_view& v) {
    INTERLOCK_ASSERT((v.requests & ~mask_) == 0,
                     "candidate for a queue the scheduler does not have");
    const std::uint64_t req = v.requests & mask_;
    if (per_flit_ == 1) return qos::queue_requests{req, v.flits};
    for (std::uint64_t x = req; x != 0; x &= x - 1) {
      const std::size_t q = bits::lowest_index(x);
      const std::uint64_t units = std::uint64_t{v.flits.at(q, 0)} * per_flit_;
      size_[q] = units > 0xFFFFFFFFu ? 0xFFFFFFFFu : static_cast<std::uint32_t>(units);
    }
    return qos::queue_requests{req, size_};
  }
  std::uint32_t units_per_flit() const noexcept { return per_flit_; }

 private:
  std::uint64_t mask_;
  std::uint32_t per_flit_;
  std::array<std::uint32_t, 64> size_{};
};

}  // namespace detail
}  // namespace interlock

#endif  // INTERLOCK_QOS_QUEUE_REQUESTS_HPP
