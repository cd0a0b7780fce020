// Decision latency (arbitrate + commit) of the arbiters, against
// floor/<N>/<density%> measured in the same run:
//   round_robin/<N>/<density%>, priority/<N>/<density%> (P = 2, each request
//     high with probability 1/2). N <= 64 uses the compile-time-size arbiters
//     on std::uint64_t requests; N = 256 and 1024 the run-time-size ones.
//   age_epoch/<N>/<density%>, N = 8, 16, 28 (the SeaStar port, 7 sources x
//     4 VCs), 32, 64: one output-port cycle of the Cray XT mechanism: an age
//     clock tick, a new head in one staging buffer, Procedure 2 for every
//     requesting head (age_heads), and the arbitration and commit with
//     AGE_RR_SELECT = 0101...01 (half age, half round robin).
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <vector>

#include <interlock/arbiters/age_clock.hpp>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>

#include "support/floor.hpp"
#include "support/streams.hpp"

namespace {

using namespace interlock_bench;

constexpr double densities[] = {0.1, 0.5, 0.9};

struct streams {
  std::vector<std::uint64_t> requests;  // decisions x words
  std::vector<std::uint64_t> high;      // the requests at level 1
  std::vector<std::uint64_t> low;       // the requests at level 0
};

lazy<streams> make_streams(std::size_t n, double density) {
  return lazy<streams>([=] {
    const std::size_t words = (n + 63) / 64;
    streams s;
    s.requests = request_words(n, density, stream_length(words),
                               1000 * n + static_cast<std::uint64_t>(density * 100));
    s.high = high_level_of(s.requests, 7);
    s.low.resize(s.requests.size());
    for (std::size_t w = 0; w < s.low.size(); ++w) s.low[w] = s.requests[w] & ~s.high[w];
    return s;
  });
}

template <std::size_t N>
void register_age();

template <std::size_t N>
void register_narrow() {
  if constexpr (N >= 8) register_age<N>();
  for (double d : densities) {
    const lazy<streams> stream = make_streams(N, d);
    benchmark::RegisterBenchmark(name("floor", N, d).c_str(), [stream](benchmark::State& state) {
      const auto& r = stream.get().requests;
      floor_round_robin floor;
      time_decisions(state, r.size(), [&](std::size_t k) { return floor.grant(r[k]); });
    });
    benchmark::RegisterBenchmark(
        name("round_robin", N, d).c_str(), [stream](benchmark::State& state) {
          const auto& r = stream.get().requests;
          interlock::round_robin_arbiter<N> rr;
          time_decisions(state, r.size(), [&](std::size_t k) { return rr.grant(r[k]).index(); });
        });
    benchmark::RegisterBenchmark(name("priority", N, d).c_str(), [stream](benchmark::State& state) {
      const streams& s = stream.get();
      interlock::priority_arbiter<N, 2> arb;
      time_decisions(state, s.requests.size(), [&](std::size_t k) {
        interlock::priority_requests<2> req;
        req.levels[0] = s.low[k];
        req.levels[1] = s.high[k];
        return arb.grant(req).index();
      });
    });
  }
}

// One output port of the Cray XT mechanism: N staging-buffer heads under an
// age clock. Each decision ticks the clock, takes one new head from a
// pre-generated pool (arrivals do not wait for grants), computes Procedure 2
// for every requesting head, and arbitrates with AGE_RR_SELECT = 0101...01.
template <std::size_t N>
class age_port {
 public:
  explicit age_port(std::uint64_t seed) : clock_(8), arb_(0x5555555555555555u) {
    rng r(seed);
    for (auto& f : pool_) f = interlock::age_field::from_bits(static_cast<std::uint16_t>(r.next()));
    for (std::size_t i = 0; i < N; ++i) heads_.set(i, pool_[i]);
  }

  std::size_t decide(std::uint64_t requests) {
    clock_.tick();
    const std::size_t k = next_++ & (pool_.size() - 1);
    heads_.set(k % N, pool_[k]);
    return arb_.grant(heads_.requests(requests, clock_)).index();
  }

 private:
  interlock::age_clock clock_;
  interlock::age_epoch_arbiter<N> arb_;
  interlock::age_heads<N> heads_;
  std::array<interlock::age_field, 4096> pool_{};
  std::size_t next_ = 0;
};

template <std::size_t N>
void register_age() {
  for (double d : densities) {
    const lazy<streams> stream = make_streams(N, d);
    if (N % 8 != 0) {  // sizes that register_narrow does not time: their own floor
      benchmark::RegisterBenchmark(name("floor", N, d).c_str(), [stream](benchmark::State& state) {
        const auto& r = stream.get().requests;
        floor_round_robin floor;
        time_decisions(state, r.size(), [&](std::size_t k) { return floor.grant(r[k]); });
      });
    }
    benchmark::RegisterBenchmark(
        name("age_epoch", N, d).c_str(), [stream](benchmark::State& state) {
          const auto& r = stream.get().requests;
          age_port<N> port(42);
          time_decisions(state, r.size(), [&](std::size_t k) { return port.decide(r[k]); });
        });
  }
}

void register_wide(std::size_t n) {
  const std::size_t words = (n + 63) / 64;
  const std::size_t decisions = stream_length(words);
  for (double d : densities) {
    const lazy<streams> stream = make_streams(n, d);
    benchmark::RegisterBenchmark(name("floor", n, d).c_str(), [=](benchmark::State& state) {
      const auto& r = stream.get().requests;
      floor_wide_round_robin floor(n);
      time_decisions(state, decisions,
                     [&](std::size_t k) { return floor.grant(r.data() + k * words); });
    });
    benchmark::RegisterBenchmark(name("round_robin", n, d).c_str(), [=](benchmark::State& state) {
      const auto& r = stream.get().requests;
      interlock::dynamic_round_robin_arbiter rr(n);
      time_decisions(state, decisions, [&](std::size_t k) {
        return rr.grant(interlock::request_view(r.data() + k * words, n)).index();
      });
    });
    benchmark::RegisterBenchmark(name("priority", n, d).c_str(), [=](benchmark::State& state) {
      const streams& s = stream.get();
      interlock::dynamic_priority_arbiter<2> arb(n);
      time_decisions(state, decisions, [&](std::size_t k) {
        interlock::priority_request_views<2> req;
        req.levels[0] = interlock::request_view(s.low.data() + k * words, n);
        req.levels[1] = interlock::request_view(s.high.data() + k * words, n);
        return arb.grant(req).index();
      });
    });
  }
}

const bool registered = [] {
  register_narrow<4>();
  register_narrow<8>();
  register_narrow<16>();
  register_narrow<32>();
  register_narrow<64>();
  register_wide(256);
  register_wide(1024);
  register_age<28>();
  return true;
}();

}  // namespace
