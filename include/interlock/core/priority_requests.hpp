// SPDX-License-Identifier: BSL-1.0
// interlock/core/priority_requests.hpp: requests that carry one of P priority levels.
//
// Contract
//   A prioritized request set is P masks, one per level: levels[p] holds the
//   requesters asking at priority p, and P-1 is the highest level. This is the
//   bit-plane form a P-level arbiter consumes ([Towles14], Figure 8): the
//   arbiter never loops over requesters to read their levels.
//   - priority_requests<P>: N <= 64, one std::uint64_t per level.
//   - priority_request_views<P>: any N, one request_view per level, all of
//     the same size; dynamic_priority_requests<P> owns the words.
//   A requester that appears in several levels requests at the highest of
//   them. level_of(i) and highest_level() return P for "not requesting".
//
// Example
//   interlock::priority_requests<2> req;
//   req.set(3, 1).set(5, 0);            // 3 asks at the high level, 5 at the low
//   assert(req.requests() == 0b101000 && req.highest_level() == 1);
#ifndef INTERLOCK_CORE_PRIORITY_REQUESTS_HPP
#define INTERLOCK_CORE_PRIORITY_REQUESTS_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/request_set.hpp"

namespace interlock {

namespace detail {

template <std::size_t P>
constexpr void check_levels() {
  static_assert(P >= 1 && P <= 256, "priority levels: P must be 1..256");
}

/// Level of requester i in a level-indexed family of sets (P when absent).
template <class Levels, class Test>
constexpr std::size_t level_of(const Levels& levels, std::size_t i, Test test) {
  for (std::size_t p = levels.size(); p-- > 0;)
    if (test(levels[p], i)) return p;
  return levels.size();
}

template <class Levels, class Any>
constexpr std::size_t highest_level(const Levels& levels, Any any) {
  for (std::size_t p = levels.size(); p-- > 0;)
    if (any(levels[p])) return p;
  return levels.size();
}

}  // namespace detail

/// Requests of up to 64 requesters, each at one of P levels.
template <std::size_t P>
struct priority_requests {
  static constexpr std::size_t level_count = P;
  std::array<std::uint64_t, P> levels{};

  /// Adds requester i at `level`; i >= 64 or level >= P is a precondition
  /// violation and otherwise ignored.
  constexpr priority_requests& set(std::size_t i, std::size_t level) {
    detail::check_levels<P>();
    INTERLOCK_ASSERT(i < bits::word_bits && level < P, "requester or level out of range");
    if (level < P) levels[level] |= bits::bit(i);
    return *this;
  }
  /// Every requester, whatever its level.
  constexpr std::uint64_t requests() const noexcept {
    std::uint64_t all = 0;
    for (std::uint64_t l : levels) all |= l;
    return all;
  }
  constexpr std::size_t level_of(std::size_t i) const noexcept {
    return detail::level_of(levels, i,
                            [](std::uint64_t l, std::size_t j) { return requested(l, j); });
  }
  constexpr std::size_t highest_level() const noexcept {
    return detail::highest_level(levels, [](std::uint64_t l) { return l != 0; });
  }
  friend constexpr bool operator==(const priority_requests& a,
                                   const priority_requests& b) noexcept {
    return a.levels == b.levels;
  }
};

/// Non-owning requests of any number of requesters at P levels.
template <std::size_t P>
struct priority_request_views {
  static constexpr std::size_t level_count = P;
  std::array<request_view, P> levels{};

  std::size_t size() const noexcept { return levels[0].size(); }
  bool requested(std::size_t i) const noexcept { return level_of(i) < P; }
  bool any() const noexcept { return highest_level() < P; }
  std::size_t level_of(std::size_t i) const noexcept {
    return detail::level_of(levels, i,
                            [](const request_view& l, std::size_t j) { return l.test(j); });
  }
  std::size_t highest_level() const noexcept {
    return detail::highest_level(levels, [](const request_view& l) { return l.any(); });
  }
};

/// Owning storage for priority_request_views: P sets of `size` requesters.
template <std::size_t P>
class dynamic_priority_requests {
 public:
  explicit dynamic_priority_requests(std::size_t size) {
    detail::check_levels<P>();
    for (auto& l : levels_) l = dynamic_request_set(size);
  }
  std::size_t size() const noexcept { return levels_[0].size(); }
  /// Adds requester i at `level` (level >= P: precondition violation, ignored).
  dynamic_priority_requests& set(std::size_t i, std::size_t level) {
    INTERLOCK_ASSERT(level < P, "priority level out of range");
    if (level < P) levels_[level].set(i);
    return *this;
  }
  dynamic_priority_requests& clear() noexcept {
    for (auto& l : levels_) l.clear();
    return *this;
  }
  dynamic_request_set& level(std::size_t p) { return levels_[p]; }
  const dynamic_request_set& level(std::size_t p) const { return levels_[p]; }

  priority_request_views<P> view() const noexcept {
    priority_request_views<P> v;
    for (std::size_t p = 0; p < P; ++p) v.levels[p] = levels_[p].view();
    return v;
  }
  operator priority_request_views<P>() const noexcept { return view(); }

 private:
  std::array<dynamic_request_set, P> levels_;
};

template <std::size_t P>
constexpr bool requested(const priority_requests<P>& r, std::size_t i) noexcept {
  return requested(r.requests(), i);
}
template <std::size_t P>
constexpr bool any_requested(const priority_requests<P>& r) noexcept {
  return r.requests() != 0;
}
template <std::size_t P>
bool requested(const priority_request_views<P>& r, std::size_t i) noexcept {
  return r.requested(i);
}
template <std::size_t P>
bool any_requested(const priority_request_views<P>& r) noexcept {
  return r.any();
}

}  // namespace interlock

#endif  // INTERLOCK_CORE_PRIORITY_REQUESTS_HPP
