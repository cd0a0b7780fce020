// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/age_epoch.hpp: the Cray XT output arbiter: oldest packet first, AGE_RR_SELECT
// mixing.
//
// Models Abts & Weisser (SC'07), Sections 2.1-2.3 and Procedure 2 line 12,
// with the SeaStar router context of Abts, "The Cray XT4 and Seastar 3-D
// Torus Interconnect". Each output port arbitrates per packet among the
// heads of its staging buffers whose VC is not blocked (send credits >=
// MAX_PACKET_SIZE); those are the requests. Two policies, each with its own
// pointer ("two independent arbitration pointers"):
//   - age: the largest computed age wins (ages from output_age, Procedure
//     2); ties are broken round robin with the age pointer;
//   - round robin: the round-robin pointer, ages ignored.
// A 6-bit grant counter, incremented on each grant, indexes the 64-bit
// AGE_RR_SELECT mask: bit c = 1 selects age for the grant made while the
// counter is c, 0 selects round robin. All 0s is pure round robin, all 1s
// pure age, 0101...0101 half and half.
//
// While the chip-wide age clock is inhibited (an epoch switch waiting for
// the old epoch to drain), age arbitration is suspended and every grant is
// made by the round-robin pointer; the request's age_suspended flag is the
// inhibit wire from age_clock to this port (age_heads::requests sets it).
// The paper gives the old epoch no precedence during the drain; round robin
// serves it fairly with everything else.
//
// The ages come from age_heads (arbiters/age_heads.hpp): Procedure 2 over
// the staging-buffer heads, whose oldest requesters make the age_requests.
//
// Contract
//   - Both pointers are the thermometer-coded round robin of
//     arbiters/round_robin.hpp; a pointer moves only when its policy made
//     the committed grant. The grant counter moves on every committed grant
//     (mod 64); no grant moves nothing.
//   - age_epoch_arbiter<N>, 1 <= N <= 64 candidates. An output port of S
//     sources x V VCs (the SeaStar shape: 7 x 4) is candidate s*V + v;
//     output_port_shape checks that it fits (config_error otherwise).
//   - Invariants: grant_implies_request, work_conserving,
//     no_state_change_without_commit; in age mode the grant has the maximum
//     age among the requests (age_respected, checked by the properties over
//     age_heads); with AGE_RR_SELECT = 0 the arbiter grants exactly as
//     round_robin_arbiter<N>.
//   - Forward progress (docs/arbiters/age_epoch.md): if no competitor is
//     older than a waiting packet p, p is granted within N decisions under a
//     pure policy (all 0s or all 1s) and within 2N - 1 decisions under any
//     mix; a packet whose age has saturated at 255 is granted within N
//     age-mode decisions. Both bounds are reached by adversarial schedules
//     (tests). They rest on ages never wrapping, which the epoch rule of
//     age_clock guarantees.
//   - An `oldest` set that is not a non-empty subset of the requests is a
//     contract violation; the arbiter then uses the requests that are in it,
//     or all requests. Request bits at or above N are ignored (also one).
//   - request_builder<age_epoch_arbiter<N>>(clock) makes the request from a
//     candidate_view's age fields (core/candidates.hpp).
//   - parse_age_rr_select reads AGE_RR_SELECT from text (age, rr, half, or
//     0x and 1 to 16 hex digits), throwing config_error for anything else,
//     a mask wider than 64 bits included.
//   - Save and restore: state(ar) (core/state_io.hpp): AGE_RR_SELECT,
//     the grant counter (0..63) and both pointers.
//   Complexity: arbitrate is O(1); age_heads::oldest is O(N/8) vector steps.
//
// Example
//   interlock::age_clock clock(18);
//   interlock::age_heads<28> heads;                 // the staging-buffer heads
//   heads.set(5, interlock::age_field::with_age(90));  // fields as Procedure 1 stored them
//   heads.set(9, interlock::age_field::with_age(120));
//   interlock::age_epoch_arbiter<28> out(interlock::seastar_output_port);  // all 1s: age
//   assert(out.grant(heads.requests((1u << 5) | (1u << 9), clock)).index() == 9);
#ifndef INTERLOCK_ARBITERS_AGE_EPOCH_HPP
#define INTERLOCK_ARBITERS_AGE_EPOCH_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "interlock/arbiters/age_clock.hpp"
#include "interlock/arbiters/age_heads.hpp"
#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/arbiter_traits.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/invariants.hpp"
#include "interlock/core/span.hpp"
#include "interlock/core/state_io.hpp"

namespace interlock {

/// An output port's staging buffers: `sources` input sources x `vcs` VCs.
struct output_port_shape {
  std::size_t sources;
  std::size_t vcs;

  constexpr std::size_t candidates() const noexcept { return sources * vcs; }
  /// The candidate index of (source, vc).
  constexpr std::size_t candidate(std::size_t source, std::size_t vc) const noexcept {
    return source * vcs + vc;
  }
  /// Throws config_error unless the shape is non-empty and fits `width` candidates.
  void validate(std::size_t width, const char* component) const {
    detail::require_in_range(component, "sources", sources, 1, width);
    detail::require_in_range(component, "VCs per source", vcs, 1, width);
    if (candidates() > width) {
      throw config_error(component, "sources x VCs",
                         std::to_string(sources) + " x " + std::to_string(vcs) + " = " +
                             std::to_string(candidates()),
                         "at most the arbiter width, " + std::to_string(width));
    }
  }
};

/// The SeaStar output port as the model uses it: 7 input sources x 4 VCs.
inline constexpr output_port_shape seastar_output_port{7, 4};

enum class age_policy { round_robin, age };

/// An AGE_RR_SELECT value from its text, as configuration files and
/// simulators' parameters spell it: "age" (all 1s), "rr" (all 0s), "half"
/// (0101...0101, bit 0 age) or a hex mask "0x..." of 1 to 16 digits.
/// Throws config_error naming the text otherwise.
inline std::uint64_t parse_age_rr_select(const std::string& text) {
  if (text == "age") return ~std::uint64_t{0};
  if (text == "rr") return 0;
  if (text == "half") return 0x5555555555555555ull;
  const bool hex = text.size() >= 3 && text.size() <= 18 && text[0] == '0' &&
                   (text[1] == 'x' || text[1] == 'X') &&
                   text.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos;
  if (!hex) {
    throw config_error("age_epoch_arbiter", "AGE_RR_SELECT", text,
                       "age, rr, half, or a hex mask 0x... of 1 to 16 digits");
  }
  std::uint64_t mask = 0;
  for (std::size_t i = 2; i < text.size(); ++i) {
    const char c = text[i];
    const unsigned digit =
        c <= '9' ? static_cast<unsigned>(c - '0') : static_cast<unsigned>((c | 0x20) - 'a' + 10);
    mask = mask << 4 | digit;
  }
  return mask;
}

template <std::size_t N>
class age_epoch_arbiter : public arbiter_base<age_epoch_arbiter<N>, age_requests> {
  static_assert(N >= 1 && N <= 64, "age_epoch_arbiter<N>: N must be 1..64 candidates");

 public:
  static constexpr std::uint64_t valid_mask = bits::low_mask(N);
  static constexpr std::uint64_t all_age = ~std::uint64_t{0};
  static constexpr std::uint64_t all_round_robin = 0;

  /// AGE_RR_SELECT defaults to all 1s: every grant by age.
  explicit age_epoch_arbiter(std::uint64_t age_rr_select = all_age) noexcept
      : select_(age_rr_select) {}
  /// An arbiter for an output port of the given shape (config_error if it does not fit N).
  explicit age_epoch_arbiter(output_port_shape shape, std::uint64_t age_rr_select = all_age)
      : select_(age_rr_select) {
    shape.validate(N, "age_epoch_arbiter");
  }

  static constexpr std::size_t size() noexcept { return N; }

  /// A write to the AGE_RR_SELECT register.
  void write_age_rr_select(std::uint64_t age_rr_select) noexcept { select_ = age_rr_select; }
  std::uint64_t age_rr_select() const noexcept { return select_; }
  /// The 6-bit grant counter that indexes AGE_RR_SELECT.
  unsigned grant_counter() const noexcept { return counter_; }
  /// The policy of the next grant, given the age clock's inhibit flag.
  age_policy policy(bool age_suspended = false) const noexcept {
    return ((select_ >> counter_) & 1u) != 0 && !age_suspended ? age_policy::age
                                                               : age_policy::round_robin;
  }
  const round_robin_arbiter<N>& round_robin_pointer() const noexcept { return rr_; }
  const round_robin_arbiter<N>& age_pointer() const noexcept { return age_rr_; }

  interlock::grant arbitrate(const age_requests& r) const {
    INTERLOCK_ASSERT((r.requests & ~valid_mask) == 0, "request bit at or above N");
    const std::uint64_t req = r.requests & valid_mask;
    if (policy(r.age_suspended) == age_policy::round_robin) return rr_.arbitrate(req);
    INTERLOCK_ASSERT((r.oldest & ~req) == 0 && (r.oldest != 0) == (req != 0),
                     "oldest must be a non-empty subset of the requests");
    const std::uint64_t oldest = r.oldest & req;
    return age_rr_.arbitrate(oldest != 0 ? oldest : req);
  }

  /// Moves the pointer of the policy that made g (read from the request's
  /// inhibit flag and the counter) and the grant counter; no grant (or one
  /// to a candidate that does not exist) moves nothing.
  void commit(interlock::grant g, const age_requests& r) {
    INTERLOCK_ASSERT(!g || g.index() < N, "commit of a grant to a candidate that does not exist");
    if (!g || g.index() >= N) return;
    (policy(r.age_suspended) == age_policy::age ? age_rr_ : rr_).commit(g);
    counter_ = (counter_ + 1) & 63u;
  }

  /// Save and restore (core/state_io.hpp): AGE_RR_SELECT, the grant
  /// counter (0..63), then the round-robin and the age pointers.
  template <class Archive>
  void state(Archive& ar) {
    ar.object("AGEA", "age_epoch_arbiter", N);
    ar.u64("AGE_RR_SELECT", select_);
    ar.u8("grant_counter", counter_, state_range{0, 63});
    rr_.state(ar);
    age_rr_.state(ar);
  }

  friend bool operator==(const age_epoch_arbiter& a, const age_epoch_arbiter& b) noexcept {
    return a.rr_ == b.rr_ && a.age_rr_ == b.age_rr_ && a.select_ == b.select_ &&
           a.counter_ == b.counter_;
  }
  friend bool operator!=(const age_epoch_arbiter& a, const age_epoch_arbiter& b) noexcept {
    return !(a == b);
  }

 private:
  round_robin_arbiter<N> rr_;
  round_robin_arbiter<N> age_rr_;
  std::uint64_t select_;
  unsigned counter_ = 0;
};

/// Requests from a candidate_view: the view's age fields become the heads
/// of the staging buffers (Procedure 1's stored fields), and Procedure 2
/// picks the oldest against the chip's age clock, whose inhibit flag the
/// request carries. The clock must outlive the builder.
template <std::size_t N>
class request_builder<age_epoch_arbiter<N>> {
 public:
  explicit request_builder(const age_clock& clock,
                           saturation_rule rule = saturation_rule::corrected) noexcept
      : clock_(&clock), rule_(rule) {}
  request_builder(const age_epoch_arbiter<N>&, const age_clock& clock,
                  saturation_rule rule = saturation_rule::corrected) noexcept
      : request_builder(clock, rule) {}

  age_requests operator()(const candidate_view& v) {
    INTERLOCK_ASSERT((v.requests & ~bits::low_mask(N)) == 0, "candidate at or above N");
    const std::uint64_t req = v.requests & bits::low_mask(N);
    for (std::uint64_t x = req; x != 0; x &= x - 1) {
      const std::size_t i = bits::lowest_index(x);
      heads_.set(i, age_field::from_bits(v.age.at(i, 0)));
    }
    return heads_.requests(req, *clock_, rule_);
  }
  const age_heads<N>& heads() const noexcept { return heads_; }

 private:
  const age_clock* clock_;
  saturation_rule rule_;
  age_heads<N> heads_;
};

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_AGE_EPOCH_HPP
