// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/rr_thermometer.hpp: the thermometer-coded round-robin state of Anton 2.
//
// Models [Towles14] (Towles et al., ISCA'14), Section 3.4 and Figure 8: the
// round-robin state is a thermometer code rr_therm, "such that for all inputs
// i > 0, if rr_therm[i] == 1, then rr_therm[i-1] == 1". Figure 8 gives
// requests with rr_therm[i] = 1 precedence over those with rr_therm[i] = 0 at
// the same level, and within each group the most significant bit has the
// highest priority. The update logic is omitted in the paper; interlock uses
// the one that makes the rule round robin:
//
//   after a grant to g, rr_therm = bits [0, g) set
//
// so requester g-1 has the highest priority next, then g-2, ..., 0, N-1, ...,
// g+1, and g itself comes last. Priority rotates downward, because the fixed
// priority rule of Figure 8 favours the most significant bit. The all-zero
// state (the default) and the all-ones state both give plain fixed priority:
// N-1 first.
//
// Contract
//   - rr_thermometer<N> (1 <= N <= 64) keeps rr_therm itself as a word.
//   - dynamic_rr_thermometer keeps it for any N as its number of ones (a
//     thermometer code of N bits is fixed by its count), and expands word w
//     on demand; word(w) is exactly rr_therm's bits [64w, 64w+64).
//   - Invariant thermometer_coded: the state is always a thermometer code of
//     at most N bits. Constructors validate a given state (config_error).
//   - advance(g) is branch-free; a grant that is not a requester (no grant,
//     or index >= N) leaves the state unchanged.
//   - Save and restore: state(ar) (core/state_io.hpp): rr_therm
//     (a thermometer code of at most N bits; the run-time one keeps its
//     count of ones, and its size is checked).
//
// Example
//   interlock::rr_thermometer<8> rr;        // rr_therm = 0: requester 7 first
//   rr.advance(interlock::grant(5));        // rr_therm = 0b00011111
//   assert(rr.highest_priority() == 4);
#ifndef INTERLOCK_ARBITERS_RR_THERMOMETER_HPP
#define INTERLOCK_ARBITERS_RR_THERMOMETER_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "interlock/core/arbiter_traits.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/invariants.hpp"
#include "interlock/core/request_set.hpp"
#include "interlock/core/state_io.hpp"

namespace interlock {

template <std::size_t N>
class rr_thermometer {
  static_assert(
      N >= 1 && N <= 64,
      "rr_thermometer<N>: N must be 1..64; use dynamic_rr_thermometer for more requesters");

 public:
  /// rr_therm = 0: plain fixed priority, requester N-1 first.
  constexpr rr_thermometer() noexcept = default;

  /// Takes rr_therm as given; throws config_error unless it is a thermometer
  /// code of at most N bits. `component` names the owner in the message.
  explicit rr_thermometer(std::uint64_t rr_therm, std::string_view component = "rr_thermometer")
      : therm_(rr_therm) {
    if (!invariants::thermometer_coded(rr_therm, N)) {
      throw config_error(
          component, "rr_therm", detail::to_hex(rr_therm),
          "a thermometer code (ones from bit 0 up) of at most " + std::to_string(N) + " bits");
    }
  }

  /// The state in which requester i has the highest priority (rr_therm = bits [0, i]).
  static rr_thermometer with_highest_priority(std::size_t i,
                                              std::string_view component = "rr_thermometer") {
    detail::require_in_range(component, "highest_priority", i, 0, N - 1);
    return rr_thermometer(bits::low_mask(i + 1), component);
  }

  static constexpr std::size_t size() noexcept { return N; }
  constexpr std::uint64_t mask() const noexcept { return therm_; }
  /// Ones in rr_therm (0..N).
  constexpr std::size_t ones() const noexcept { return bits::popcount(therm_); }
  constexpr std::size_t highest_priority() const noexcept {
    return therm_ == 0 ? N - 1 : bits::highest_index(therm_);
  }

  /// rr_therm = bits [0, g) when g is a requester; otherwise unchanged.
  constexpr void advance(grant g) noexcept {
    const std::size_t i = g.index();
    const std::uint64_t next = (std::uint64_t{1} << (i & 63u)) - 1;
    therm_ = i < N ? next : therm_;
  }

  /// Save and restore (core/state_io.hpp): rr_therm, a thermometer code.
  template <class Archive>
  void state(Archive& ar) {
    ar.object("RRTH", "rr_thermometer", N);
    ar.u64("rr_therm", therm_,
           state_rule{[](std::uint64_t v) { return invariants::thermometer_coded(v, N); },
                      "a thermometer code (ones from bit 0 up) of at most N bits"});
  }

  friend constexpr bool operator==(rr_thermometer a, rr_thermometer b) noexcept {
    return a.therm_ == b.therm_;
  }
  friend constexpr bool operator!=(rr_thermometer a, rr_thermometer b) noexcept {
    return a.therm_ != b.therm_;
  }

 private:
  std::uint64_t therm_ = 0;
};

class dynamic_rr_thermometer {
 public:
  static constexpr std::size_t max_size = grant::none_index;

  /// No requesters (the state of a run-time arbiter before it is sized).
  dynamic_rr_thermometer() = default;

  /// N requesters, rr_therm = 0; throws config_error unless 1 <= size <= max_size.
  explicit dynamic_rr_thermometer(std::size_t size,
                                  std::string_view component = "dynamic_rr_thermometer")
      : size_(size) {
    detail::require_in_range(component, "size", size, 1, max_size);
  }

  /// rr_therm given as a set of `size` bits; it must be a thermometer code.
  dynamic_rr_thermometer(request_view rr_therm, std::string_view component)
      : dynamic_rr_thermometer(rr_therm.size(), component) {
    ones_ = rr_therm.count();
    if (ones_ != (rr_therm.any() ? rr_therm.find_last() + 1 : 0)) {
      throw config_error(component, "rr_therm",
                         "a set whose highest one is bit " + std::to_string(rr_therm.find_last()) +
                             " but has " + std::to_string(ones_) + " ones",
                         "a thermometer code (ones from bit 0 up)");
    }
  }

  static dynamic_rr_thermometer with_highest_priority(std::size_t size, std::size_t i,
                                                      std::string_view component) {
    dynamic_rr_thermometer t(size, component);
    detail::require_in_range(component, "highest_priority", i, 0, size - 1);
    t.ones_ = i + 1;
    return t;
  }

  std::size_t size() const noexcept { return size_; }
  std::size_t ones() const noexcept { return ones_; }
  std::size_t word_count() const noexcept { return bits::words_for(size_); }

  /// rr_therm bits [64w, 64w + 64).
  std::uint64_t word(std::size_t w) const noexcept {
    const std::size_t first = w * bits::word_bits;
    return ones_ <= first ? 0 : bits::low_mask(ones_ - first);
  }
  /// The requesters that exist in word w.
  std::uint64_t valid_word(std::size_t w) const noexcept {
    const std::size_t first = w * bits::word_bits;
    return size_ <= first ? 0 : bits::low_mask(size_ - first);
  }
  /// The requester the next decision favours (0 with no requesters).
  std::size_t highest_priority() const noexcept {
    return ones_ != 0 ? ones_ - 1 : size_ != 0 ? size_ - 1 : 0;
  }

  dynamic_request_set mask() const {
    dynamic_request_set m(size_);
    for (std::size_t w = 0; w < word_count(); ++w) m.set_word(w, word(w));
    return m;
  }

  void advance(grant g) noexcept {
    const std::size_t i = g.index();
    ones_ = i < size_ ? i : ones_;
  }

  /// Save and restore (core/state_io.hpp): the ones of rr_therm, 0..size.
  /// The size is the constructor's; a state of another size is refused.
  template <class Archive>
  void state(Archive& ar) {
    ar.object("DRRT", "dynamic_rr_thermometer", size_);
    ar.u32("ones", ones_, state_range{0, size_});
  }

  friend bool operator==(const dynamic_rr_thermometer& a,
                         const dynamic_rr_thermometer& b) noexcept {
    return a.size_ == b.size_ && a.ones_ == b.ones_;
  }
  friend bool operator!=(const dynamic_rr_thermometer& a,
                         const dynamic_rr_thermometer& b) noexcept {
    return !(a == b);
  }

 private:
  std::size_t size_ = 0;
  std::size_t ones_ = 0;
};

namespace detail {

/// The first non-empty row of Figure 8's req_unroll for one 64-bit word.
struct figure8_row {
  std::size_t row;     // P .. 0; row 0 is every request
  std::uint64_t bits;  // the requests in that row (0 when there is none)
};

/// Figure 8: req_unroll[p][i] = req[i] & ({pri[i], rr_therm[i]} >= 2p - 1)
/// for p = 1..P, and req_unroll[0] = req. With at_or_above(p) the requests at
/// level >= p this is row p = at_or_above(p) | (at_or_above(p-1) & rr_therm).
/// The rows are scanned from P down (P + 1 fixed-priority passes) and the
/// first non-empty one wins; the scan is branch-free.
/// `level_word(p)` gives the requests at exactly level p in this word.
template <std::size_t P, class LevelWord>
constexpr figure8_row first_row(LevelWord&& level_word, std::uint64_t rr_therm) {
  std::uint64_t above = 0;  // requests at a level > p
  figure8_row pick{0, 0};
  for (std::size_t p = P; p-- > 0;) {
    const std::uint64_t at_or_above = above | level_word(p);
    const std::uint64_t row = above | (at_or_above & rr_therm);  // row p + 1
    const bool take = pick.bits == 0 && row != 0;
    pick.row = take ? p + 1 : pick.row;
    pick.bits = take ? row : pick.bits;
    above = at_or_above;
  }
  pick.bits = pick.bits != 0 ? pick.bits : above;  // row 0: every request
  return pick;
}

/// The fixed-priority pick within the chosen row: its most significant bit.
constexpr grant highest_of(std::uint64_t row, std::size_t word_index = 0) noexcept {
  if (row == 0) return no_grant();
  return grant(word_index * bits::word_bits + bits::highest_index_nonzero(row));
}

/// Figure 8's grant vector, computed as the hardware does it: a request is
/// granted when no higher bit of its row is set (parallel-prefix cancel).
constexpr std::uint64_t grant_vector_of(std::uint64_t row) noexcept {
  return row & ~bits::smear_down(row >> 1);
}

/// grant_onehot0 as the hardware sees it: the prefix-cancelled row is one-hot
/// and is exactly the granted bit.
constexpr bool grant_vector_agrees(std::uint64_t row, grant g) noexcept {
  const std::uint64_t vector = grant_vector_of(row);
  return invariants::grant_onehot0(vector) && vector == (g ? bits::bit(g.index() % 64) : 0);
}

/// Runs Figure 8 over a word array: the highest non-empty row wins, and
/// within it the most significant bit. Row P needs rr_therm, so it can only
/// occur at or below the word that holds rr_therm's top bit; that stretch is
/// searched first, from its top down, and a row-P request ends the search
/// (for P = 1 this is the round-robin scan from the pointer). Otherwise every
/// word is searched from the most significant, stopping at the first word
/// with a row P-1 request, the best left.
template <std::size_t P, class LevelWord>
grant scan_words(LevelWord&& level_word, const dynamic_rr_thermometer& rr) {
  auto pick_at = [&](std::size_t w) {
    const std::uint64_t valid = rr.valid_word(w);
    return first_row<P>([&](std::size_t p) { return level_word(p, w) & valid; }, rr.word(w));
  };
  auto finish = [](std::uint64_t row, std::size_t w) {
    const grant g = highest_of(row, w);
    INTERLOCK_ASSERT(grant_vector_agrees(row, g), "grant_onehot0");
    return g;
  };
  const std::size_t therm_words = bits::words_for(rr.ones());
  for (std::size_t w = therm_words; w-- > 0;) {
    const figure8_row pick = pick_at(w);
    if (pick.row == P) return finish(pick.bits, w);
  }
  figure8_row best{0, 0};
  std::size_t best_word = 0;
  for (std::size_t w = rr.word_count(); w-- > 0;) {
    const figure8_row pick = pick_at(w);
    if (pick.bits != 0 && (best.bits == 0 || pick.row > best.row)) {
      best = pick;
      best_word = w;
      if (best.row + 1 == P) break;  // row P is empty: nothing further down beats this
    }
  }
  return finish(best.bits, best_word);
}

/// What every arbiter built on an rr_thermometer shares: commit, grant, the
/// state accessors and equality. Derived supplies arbitrate(const Request&).
template <class Derived, class Request, class Thermometer>
class rr_arbiter_base : public arbiter_base<Derived, Request> {
 public:
  /// Advances the round-robin state past g; no grant (or an index that is
  /// not a requester, a precondition violation) leaves it unchanged.
  void commit(interlock::grant g) {
    INTERLOCK_ASSERT(!g || g.index() < rr_.size(),
                     "commit of a grant to a requester that does not exist");
    rr_.advance(g);
  }
  /// The protocol's form; the update needs only the grant.
  void commit(interlock::grant g, const Request&) { commit(g); }
  std::size_t size() const noexcept { return rr_.size(); }
  /// The round-robin state (rr_therm of Figure 8).
  const Thermometer& thermometer() const noexcept { return rr_; }
  /// The requester the next decision favours.
  std::size_t highest_priority() const noexcept { return rr_.highest_priority(); }

  /// Save and restore (core/state_io.hpp): the round-robin state.
  template <class Archive>
  void state(Archive& ar) {
    rr_.state(ar);
  }

  friend bool operator==(const Derived& a, const Derived& b) noexcept { return a.rr_ == b.rr_; }
  friend bool operator!=(const Derived& a, const Derived& b) noexcept { return !(a.rr_ == b.rr_); }

 protected:
  rr_arbiter_base() = default;
  explicit rr_arbiter_base(Thermometer rr) : rr_(rr) {}

  Thermometer rr_;
};

}  // namespace detail
}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_RR_THERMOMETER_HPP
