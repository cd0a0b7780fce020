// SPDX-License-Identifier: BSL-1.0
// The floor every benchmark is reported against: a minimal bit-mask round
// robin, written without interlock. The pointer is the last grant; the next
// grant is the lowest requester above it, else the lowest requester.
#ifndef INTERLOCK_BENCHMARKS_SUPPORT_FLOOR_HPP
#define INTERLOCK_BENCHMARKS_SUPPORT_FLOOR_HPP

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace interlock_bench {

inline constexpr std::uint32_t no_grant = 0xFFFFFFFFu;

/// N <= 64 requesters in one word.
class floor_round_robin {
 public:
  std::uint32_t grant(std::uint64_t requests) {
    const std::uint64_t after = requests & after_last_;
    const std::uint64_t pick = after != 0 ? after : requests;
    const std::uint32_t g =
        pick != 0 ? static_cast<std::uint32_t>(__builtin_ctzll(pick)) : no_grant;
    const std::uint64_t next = ~((std::uint64_t{2} << (g & 63u)) - 1);
    after_last_ = g != no_grant ? next : after_last_;
    return g;
  }

 private:
  std::uint64_t after_last_ = ~std::uint64_t{0};
};

/// Any N, requests as an array of words.
class floor_wide_round_robin {
 public:
  explicit floor_wide_round_robin(std::size_t n) : n_(n), words_((n + 63) / 64), last_(n - 1) {}

  std::uint32_t grant(const std::uint64_t* requests) {
    const std::size_t next = last_ + 1 == n_ ? 0 : last_ + 1;  // search from here, cyclically
    const std::size_t start = next / 64;
    const std::uint64_t first = requests[start] & ~((std::uint64_t{1} << (next % 64)) - 1);
    if (first != 0) return take(start * 64 + static_cast<std::size_t>(__builtin_ctzll(first)));
    for (std::size_t w = start + 1; w < words_; ++w)
      if (requests[w] != 0)
        return take(w * 64 + static_cast<std::size_t>(__builtin_ctzll(requests[w])));
    for (std::size_t w = 0; w <= start; ++w)
      if (requests[w] != 0)
        return take(w * 64 + static_cast<std::size_t>(__builtin_ctzll(requests[w])));
    return no_grant;
  }

 private:
  std::uint32_t take(std::size_t g) {
    last_ = g;
    return static_cast<std::uint32_t>(g);
  }
  std::size_t n_;
  std::size_t words_;
  std::size_t last_;
};

}  // namespace interlock_bench

#include "support/streams.hpp"

namespace interlock_bench {

/// The floor's stream of n <= 64 requesters at a density: the same in every
/// binary (length and seed fixed here), so every binary's floor/<n>/<d>
/// measures the same decisions.
inline const std::vector<std::uint64_t>& floor_stream(std::size_t n, double density) {
  static std::vector<std::pair<std::pair<std::size_t, int>, std::vector<std::uint64_t>>> made;
  const std::pair<std::size_t, int> key{n, static_cast<int>(density * 100 + 0.5)};
  for (const auto& [k, stream] : made)
    if (k == key) return stream;
  made.emplace_back(key,
                    request_words(n, density, stream_length(1),
                                  0xF100u + n * 1000 + static_cast<std::uint64_t>(key.second)));
  return made.back().second;
}

/// Times the floor over floor_stream(n, density): what every binary reports
/// as floor/<n>/<density%>.
inline void time_floor(benchmark::State& state, std::size_t n, double density) {
  const std::vector<std::uint64_t>& requests = floor_stream(n, density);
  floor_round_robin floor;
  time_decisions(state, requests.size(), [&](std::size_t k) { return floor.grant(requests[k]); });
  state.counters["state_bytes"] = sizeof(floor_round_robin);
}

}  // namespace interlock_bench

#endif  // INTERLOCK_BENCHMARKS_SUPPORT_FLOOR_HPP
