// SPDX-License-Identifier: BSL-1.0
// Request streams for the benchmarks, generated before timing from a fixed
// seed: every requester asks independently with the given probability.
//
// A stream is about 2 MiB of requests (262,144 decisions of one word, fewer
// of wider ones). A short stream replayed many times lets the branch
// predictor learn it: at 4,096 decisions a round robin looks three times
// faster than on an unseen stream, which no simulator sees. Streams are
// built on first use, so a filtered run builds only what it times.
#ifndef INTERLOCK_BENCHMARKS_SUPPORT_STREAMS_HPP
#define INTERLOCK_BENCHMARKS_SUPPORT_STREAMS_HPP

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <interlock/core/random.hpp>

namespace interlock_bench {

/// interlock's splitmix64: the same sequence on every platform.
class rng : public interlock::splitmix64 {
 public:
  explicit rng(std::uint64_t seed) : interlock::splitmix64(seed) {}
  /// True with probability p.
  bool chance(double p) { return interlock::uniform_unit(*this) < p; }
};

/// `count` request vectors of n bits, `words` words each, flattened.
inline std::vector<std::uint64_t> request_words(std::size_t n, double density, std::size_t count,
                                                std::uint64_t seed) {
  const std::size_t words = (n + 63) / 64;
  std::vector<std::uint64_t> out(words * count, 0);
  rng r(seed);
  for (std::size_t k = 0; k < count; ++k)
    for (std::size_t i = 0; i < n; ++i)
      if (r.chance(density)) out[k * words + i / 64] |= std::uint64_t{1} << (i % 64);
  return out;
}

/// Splits requests into two priority levels: each request is high with probability 1/2.
inline std::vector<std::uint64_t> high_level_of(const std::vector<std::uint64_t>& requests,
                                                std::uint64_t seed) {
  std::vector<std::uint64_t> high(requests.size());
  rng r(seed);
  for (std::size_t k = 0; k < requests.size(); ++k) high[k] = requests[k] & r.next();
  return high;
}

/// Decisions in a stream of requests `words` words wide: about 2 MiB of them.
constexpr std::size_t stream_length(std::size_t words) { return (std::size_t{1} << 18) / words; }

/// A value built on first use and shared by the copies of a benchmark.
template <class T>
class lazy {
 public:
  explicit lazy(std::function<T()> make)
      : state_(std::make_shared<state>(state{std::move(make), nullptr})) {}
  const T& get() const {
    if (!state_->value) state_->value = std::make_unique<T>(state_->make());
    return *state_->value;
  }

 private:
  struct state {
    std::function<T()> make;
    std::unique_ptr<T> value;
  };
  std::shared_ptr<state> state_;
};

/// Times `decide(k)` for k over a pre-generated stream of `decisions`, many
/// decisions per iteration, and reports ns_per_decision. The decisions form
/// a dependent chain: decision k reads its request at an index that depends
/// on decision k-1's result (through a zero the compiler cannot see), so
/// the processor cannot overlap them and every benchmark, the floor
/// included, measures the latency of one decision the same way.
template <class Decide>
void time_decisions(benchmark::State& state, std::size_t decisions, Decide&& decide) {
  volatile std::uint64_t opaque_zero = 0;
  const std::uint64_t zero = opaque_zero;
  std::uint64_t checksum = 0;
  std::uint64_t last = 0;
  for (auto _ : state) {
    for (std::size_t k = 0; k < decisions; ++k) {
      last = static_cast<std::uint64_t>(decide(k + static_cast<std::size_t>(last & zero)));
      checksum += last;
    }
    benchmark::DoNotOptimize(checksum);
  }
  state.counters["ns_per_decision"] = benchmark::Counter(
      static_cast<double>(decisions),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

inline std::string name(const char* policy, std::size_t n, double density) {
  return std::string(policy) + "/" + std::to_string(n) + "/" +
         std::to_string(static_cast<int>(density * 100 + 0.5));
}

}  // namespace interlock_bench

#endif  // INTERLOCK_BENCHMARKS_SUPPORT_STREAMS_HPP
