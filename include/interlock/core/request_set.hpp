// SPDX-License-Identifier: BSL-1.0
// interlock/core/request_set.hpp: sets of requesters as bit masks.
//
// Contract
//   Requests are bit masks: bit i set means requester i requests.
//   - N <= 64: a plain std::uint64_t (the fast path every fixed-size policy
//     takes); the free functions requested(), any_requested() and
//     request_count() read it.
//   - any N: request_set<N> (compile-time size, std::array of words, no heap)
//     and dynamic_request_set (runtime size, words allocated once at
//     construction). Both convert to request_view, the non-owning
//     (words, size) pair that runtime-size policies take, so a decision never
//     copies or allocates.
//   Invariant: bits at or above size() are zero in every word. set() and
//   reset() of an index >= size() are precondition violations
//   (INTERLOCK_ASSERT) and otherwise do nothing; test() of such an index is
//   false.
//
//   Complexity: test/set/reset O(1); any/count/find_* O(words).
//
// Example
//   interlock::dynamic_request_set req(300);
//   req.set(7).set(299);
//   interlock::request_view v = req;   // what dynamic arbiters take
//   assert(v.find_last() == 299 && v.count() == 2);
#ifndef INTERLOCK_CORE_REQUEST_SET_HPP
#define INTERLOCK_CORE_REQUEST_SET_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"

namespace interlock {

// ---- N <= 64: a plain word -------------------------------------------------

/// True when requester i's bit is set (false for i >= 64).
constexpr bool requested(std::uint64_t requests, std::size_t i) noexcept {
  return (requests & bits::bit(i)) != 0;
}
constexpr bool any_requested(std::uint64_t requests) noexcept { return requests != 0; }
constexpr std::size_t request_count(std::uint64_t requests) noexcept {
  return bits::popcount(requests);
}

class request_view;

namespace detail {

/// Read-only set operations over Derived's data()/size()/word_count().
template <class Derived>
class word_set_query {
 public:
  std::size_t size() const noexcept { return self().size_bits(); }
  std::size_t word_count() const noexcept { return bits::words_for(size()); }
  /// Word w (bits [64w, 64w+64)); 0 for w >= word_count().
  std::uint64_t word(std::size_t w) const noexcept {
    return w < word_count() ? self().words()[w] : 0;
  }
  bool test(std::size_t i) const noexcept {
    return i < size() && ((word(i / bits::word_bits) >> (i % bits::word_bits)) & 1u) != 0;
  }
  bool any() const noexcept {
    for (std::size_t w = 0; w < word_count(); ++w)
      if (word(w) != 0) return true;
    return false;
  }
  bool none() const noexcept { return !any(); }
  std::size_t count() const noexcept {
    std::size_t n = 0;
    for (std::size_t w = 0; w < word_count(); ++w) n += bits::popcount(word(w));
    return n;
  }
  /// Lowest set index, or size() when empty.
  std::size_t find_first() const noexcept { return find_next(0); }
  /// Lowest set index >= from, or size() when there is none.
  std::size_t find_next(std::size_t from) const noexcept {
    if (from >= size()) return size();
    std::size_t w = from / bits::word_bits;
    std::uint64_t x = word(w) & ~bits::low_mask(from % bits::word_bits);
    while (x == 0) {
      if (++w >= word_count()) return size();
      x = word(w);
    }
    return w * bits::word_bits + bits::lowest_index(x);
  }
  /// Highest set index, or size() when empty.
  std::size_t find_last() const noexcept {
    for (std::size_t w = word_count(); w-- > 0;)
      if (word(w) != 0) return w * bits::word_bits + bits::highest_index(word(w));
    return size();
  }
  /// Calls f(i) for every set index i, in increasing order.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t w = 0; w < word_count(); ++w)
      for (std::uint64_t x = word(w); x != 0; x &= x - 1)
        f(w * bits::word_bits + bits::lowest_index(x));
  }

  template <class Other>
  bool same_bits(const word_set_query<Other>& other) const noexcept {
    if (size() != other.size()) return false;
    for (std::size_t w = 0; w < word_count(); ++w)
      if (word(w) != other.word(w)) return false;
    return true;
  }

 private:
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }
};

/// Mutating operations, for the owning sets.
template <class Derived>
class word_set_edit : public word_set_query<Derived> {
  using query = word_set_query<Derived>;

 public:
  Derived& set(std::size_t i, bool value = true) {
    INTERLOCK_ASSERT(i < query::size(), "request index out of range");
    if (i >= query::size()) return self();
    std::uint64_t& w = self().words()[i / bits::word_bits];
    const std::uint64_t b = std::uint64_t{1} << (i % bits::word_bits);
    w = value ? (w | b) : (w & ~b);
    return self();
  }
  Derived& reset(std::size_t i) { return set(i, false); }
  Derived& clear() noexcept {
    for (std::size_t w = 0; w < query::word_count(); ++w) self().words()[w] = 0;
    return self();
  }
  /// Sets word w (bits beyond size() are dropped); ignored for w >= word_count().
  Derived& set_word(std::size_t w, std::uint64_t value) noexcept {
    if (w >= query::word_count()) return self();
    self().words()[w] = value & valid_bits(w);
    return self();
  }
  Derived& operator|=(const Derived& other) noexcept {
    for (std::size_t w = 0; w < query::word_count(); ++w)
      set_word(w, query::word(w) | other.word(w));
    return self();
  }
  Derived& operator&=(const Derived& other) noexcept {
    for (std::size_t w = 0; w < query::word_count(); ++w)
      set_word(w, query::word(w) & other.word(w));
    return self();
  }

 private:
  std::uint64_t valid_bits(std::size_t w) const noexcept {
    return bits::low_mask(query::size() - w * bits::word_bits);
  }
  Derived& self() noexcept { return static_cast<Derived&>(*this); }
};

}  // namespace detail

/// Non-owning view of `size` request bits stored in words. The words must
/// outlive the view and keep bits at or above `size` zero.
class request_view : public detail::word_set_query<request_view> {
 public:
  constexpr request_view() noexcept = default;
  constexpr request_view(const std::uint64_t* words, std::size_t size) noexcept
      : words_(words), size_(words == nullptr ? 0 : size) {}

  const std::uint64_t* words() const noexcept { return words_; }
  std::size_t size_bits() const noexcept { return size_; }

 private:
  const std::uint64_t* words_ = nullptr;
  std::size_t size_ = 0;
};

/// N requesters, fixed at compile time; no heap.
template <std::size_t N>
class request_set : public detail::word_set_edit<request_set<N>> {
  static_assert(N >= 1, "request_set<N>: N must be at least 1");

 public:
  static constexpr std::size_t words_count = bits::words_for(N);

  constexpr request_set() noexcept = default;

  std::uint64_t* words() noexcept { return words_.data(); }
  const std::uint64_t* words() const noexcept { return words_.data(); }
  static constexpr std::size_t size_bits() noexcept { return N; }

  request_view view() const noexcept { return request_view(words_.data(), N); }
  operator request_view() const noexcept { return view(); }

  friend bool operator==(const request_set& a, const request_set& b) noexcept {
    return a.words_ == b.words_;
  }
  friend bool operator!=(const request_set& a, const request_set& b) noexcept { return !(a == b); }

 private:
  std::array<std::uint64_t, words_count> words_{};
};

/// Requesters counted at run time; the words are allocated once, here.
class dynamic_request_set : public detail::word_set_edit<dynamic_request_set> {
 public:
  dynamic_request_set() = default;
  explicit dynamic_request_set(std::size_t size) : words_(bits::words_for(size), 0), size_(size) {}

  std::uint64_t* words() noexcept { return words_.data(); }
  const std::uint64_t* words() const noexcept { return words_.data(); }
  std::size_t size_bits() const noexcept { return size_; }

  request_view view() const noexcept { return request_view(words_.data(), size_); }
  operator request_view() const noexcept { return view(); }

  friend bool operator==(const dynamic_request_set& a, const dynamic_request_set& b) noexcept {
    return a.size_ == b.size_ && a.words_ == b.words_;
  }
  friend bool operator!=(const dynamic_request_set& a, const dynamic_request_set& b) noexcept {
    return !(a == b);
  }

 private:
  std::vector<std::uint64_t> words_;
  std::size_t size_ = 0;
};

inline bool requested(request_view requests, std::size_t i) noexcept { return requests.test(i); }
inline bool any_requested(request_view requests) noexcept { return requests.any(); }
inline std::size_t request_count(request_view requests) noexcept { return requests.count(); }

}  // namespace interlock

#endif  // INTERLOCK_CORE_REQUEST_SET_HPP
