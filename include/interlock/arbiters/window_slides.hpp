// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/window_slides.hpp: counting what the inverse-weighted
// hardware model's window slides take from the inputs that were owed service.
//
// Models [Towles14] Section 3.3 and Figure 6: a grant to an input whose
// accumulator's MSB is set (low priority: no requester was high) slides the
// window by 2^M for every input, and an input whose MSB is clear is zeroed.
// Such an input was owed service: its accumulator lay below 2^M, and the
// 2^M - acc it had not yet been charged is forfeited. The paper argues this
// "should be rare" because inputs "remain largely non-empty"; in an
// input-first router an input requests an output only in the cycles its
// first-stage pick points there, so whether it is rare is a measurement.
//
//   window_slide_counter<Arbiter>  an inverse_weighted_arbiter<K, N, M> that
//                                  decides exactly as Arbiter does and counts,
//                                  at each commit: grants; slides (low-
//                                  priority grants); forfeits, the inputs
//                                  other than the granted one that were high
//                                  priority at a slide and had requested
//                                  since the previous slide (an input that
//                                  never requests is idle, not owed); and the
//                                  quota they forfeited, sum of 2^M - acc, in
//                                  weight units.
//
// Contract
//   Decisions, commits and accumulators are Arbiter's, bit for bit; the
//   counters only read them. request_builder<window_slide_counter<A>> is
//   request_builder<A>'s. Counting costs O(K) per slide, nothing otherwise.
//
// Example
//   using hw = interlock::inverse_weighted_arbiter<2, 1, 2>;
//   interlock::window_slide_counter<hw> a(std::vector<std::vector<std::uint32_t>>{{3}, {3}});
//   // after grants to 1, 0, 0 and a fourth to 0 (a slide): a.forfeits() == 1,
//   // a.forfeited_quota() == 1 (input 1 had been charged 3 of the window's 4)
#ifndef INTERLOCK_ARBITERS_WINDOW_SLIDES_HPP
#define INTERLOCK_ARBITERS_WINDOW_SLIDES_HPP

#include <cstddef>
#include <cstdint>
#include <utility>

#include "interlock/arbiters/inverse_weighted.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/grant.hpp"

namespace interlock {

/// What window_slide_counter counted, summed over arbiters.
struct window_slide_counts {
  std::uint64_t grants = 0, slides = 0, forfeits = 0, forfeited_quota = 0;
  window_slide_counts& operator+=(const window_slide_counts& o) noexcept {
    grants += o.grants;
    slides += o.slides;
    forfeits += o.forfeits;
    forfeited_quota += o.forfeited_quota;
    return *this;
  }
  /// Forfeits per grant (0 with no grant).
  double forfeits_per_grant() const noexcept {
    return grants == 0 ? 0.0 : static_cast<double>(forfeits) / static_cast<double>(grants);
  }
};

template <class Arbiter>
class window_slide_counter : public Arbiter {
 public:
  using Arbiter::Arbiter;
  using arbiter_type = Arbiter;
  static constexpr std::uint32_t window = Arbiter::window;

  /// Arbitrates and commits, counting (the base's grant() would not count).
  interlock::grant grant(const pattern_requests& r) {
    const interlock::grant g = this->arbitrate(r);
    commit(g, r);
    return g;
  }

  void commit(interlock::grant g, const pattern_requests& r) {
    active_ |= r.requests & Arbiter::valid_mask;
    if (g && g.index() < Arbiter::size()) {
      ++counts_.grants;
      const std::size_t granted = g.index();
      const std::uint64_t high = this->priority();
      if (((high >> granted) & 1u) == 0) {  // a low-priority grant: the window slides
        ++counts_.slides;
        // The owed: high priority (the granted input, low, is not among them)
        // and requesting since the last slide.
        for (std::uint64_t x = high & active_; x != 0; x &= x - 1) {
          ++counts_.forfeits;
          counts_.forfeited_quota += window - this->accumulator(bits::lowest_index(x));
        }
        active_ = r.requests & Arbiter::valid_mask;
      }
    }
    Arbiter::commit(g, r);
  }

  const window_slide_counts& counts() const noexcept { return counts_; }
  std::uint64_t grants() const noexcept { return counts_.grants; }
  std::uint64_t slides() const noexcept { return counts_.slides; }
  std::uint64_t forfeits() const noexcept { return counts_.forfeits; }
  std::uint64_t forfeited_quota() const noexcept { return counts_.forfeited_quota; }

 private:
  window_slide_counts counts_;
  std::uint64_t active_ = 0;  // inputs that requested since the last slide
};

template <class Arbiter>
class request_builder<window_slide_counter<Arbiter>> : public request_builder<Arbiter> {
 public:
  request_builder() = default;
  explicit request_builder(const window_slide_counter<Arbiter>& a) noexcept
      : request_builder<Arbiter>(static_cast<const Arbiter&>(a)) {}
};

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_WINDOW_SLIDES_HPP
