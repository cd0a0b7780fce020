// SPDX-License-Identifier: BSL-1.0
// Decision latency (arbitrate + commit) of the arbiters, against
// floor/<N>/<density%> measured in the same run:
//   round_robin/<N>/<density%>, priority/<N>/<density%> (P = 2, each request
//     high with probability 1/2), N = 4..64 with the compile-time-size
//     arbiters on std::uint64_t requests, N = 256 and 1024 with the
//     run-time-size ones on word arrays.
//   age_epoch/<N>/<density%>, N = 8, 16, 28 (the SeaStar port, 7 sources x
//     4 VCs), 32, 64: one output-port cycle of the Cray XT mechanism: an age
//     clock tick, a new head in one staging buffer, Procedure 2 for every
//     requesting head (age_heads), and the arbitration and commit with
//     AGE_RR_SELECT = 0101...01 (half age, half round robin).
//   round_robin_ascending/<N>/<density%>: the ascending rotation order.
//   integer_priority/<N>/<density%>, N = 5, 7, 28, 64: the ascending
//     integer-priority arbiter over 64-bit priorities drawn from 0..7 (many
//     ties), requests prepared before timing.
//   inverse_weighted/<K>/<density%> (the hardware model, M = 8) and
//     inverse_weighted_exact/<K>/<density%>, K = 6 (an Anton 2 router), 8,
//     16, 32, 64, two traffic patterns, weights from random loads; each
//     decision's pattern labels are a window into a random pool.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <interlock/arbiters/age_clock.hpp>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/integer_priority.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weighted_exact.hpp>
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

/// The request streams of (N, density), built once on first use and shared.
lazy<streams> stream_of(std::size_t n, double density) {
  static std::map<std::pair<std::size_t, int>, lazy<streams>> made;
  const std::pair<std::size_t, int> key{n, static_cast<int>(density * 100 + 0.5)};
  const auto found = made.find(key);
  if (found != made.end()) return found->second;
  const lazy<streams> s([=] {
    const std::size_t words = (n + 63) / 64;
    streams r;
    r.requests = request_words(n, density, stream_length(words),
                               1000 * n + static_cast<std::uint64_t>(density * 100));
    r.high = high_level_of(r.requests, 7);
    r.low.resize(r.requests.size());
    for (std::size_t w = 0; w < r.low.size(); ++w) r.low[w] = r.requests[w] & ~r.high[w];
    return r;
  });
  made.emplace(key, s);
  return s;
}

/// Registers `policy`/N/density for every density; `run(state, stream)` times it.
template <class Run>
void register_each_density(const char* policy, std::size_t n, Run run) {
  for (double d : densities) {
    const lazy<streams> stream = stream_of(n, d);
    benchmark::RegisterBenchmark(
        name(policy, n, d).c_str(),
        [stream, run](benchmark::State& state) { run(state, stream.get()); });
  }
}

template <std::size_t N>
void register_floor() {
  for (double d : densities)
    benchmark::RegisterBenchmark(name("floor", N, d).c_str(),
                                 [d](benchmark::State& state) { time_floor(state, N, d); });
}

template <std::size_t N>
void register_round_robin_and_priority() {
  register_each_density("round_robin", N, [](benchmark::State& state, const streams& s) {
    interlock::round_robin_arbiter<N> rr;
    time_decisions(state, s.requests.size(),
                   [&](std::size_t k) { return rr.grant(s.requests[k]).index(); });
  });
  register_each_density("round_robin_ascending", N, [](benchmark::State& state, const streams& s) {
    interlock::round_robin_arbiter<N, interlock::rr_order::ascending> rr;
    time_decisions(state, s.requests.size(),
                   [&](std::size_t k) { return rr.grant(s.requests[k]).index(); });
  });
  register_each_density("priority", N, [](benchmark::State& state, const streams& s) {
    interlock::priority_arbiter<N, 2> arb;
    time_decisions(state, s.requests.size(), [&](std::size_t k) {
      interlock::priority_requests<2> req;
      req.levels[0] = s.low[k];
      req.levels[1] = s.high[k];
      return arb.grant(req).index();
    });
  });
}

void register_wide(std::size_t n) {
  const std::size_t words = (n + 63) / 64;
  const std::size_t decisions = stream_length(words);
  register_each_density("floor", n, [=](benchmark::State& state, const streams& s) {
    floor_wide_round_robin floor(n);
    time_decisions(state, decisions,
                   [&](std::size_t k) { return floor.grant(s.requests.data() + k * words); });
  });
  register_each_density("round_robin", n, [=](benchmark::State& state, const streams& s) {
    interlock::dynamic_round_robin_arbiter rr(n);
    time_decisions(state, decisions, [&](std::size_t k) {
      return rr.grant(interlock::request_view(s.requests.data() + k * words, n)).index();
    });
  });
  register_each_density("priority", n, [=](benchmark::State& state, const streams& s) {
    interlock::dynamic_priority_arbiter<2> arb(n);
    time_decisions(state, decisions, [&](std::size_t k) {
      interlock::priority_request_views<2> req;
      req.levels[0] = interlock::request_view(s.low.data() + k * words, n);
      req.levels[1] = interlock::request_view(s.high.data() + k * words, n);
      return arb.grant(req).index();
    });
  });
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
  register_each_density("age_epoch", N, [](benchmark::State& state, const streams& s) {
    age_port<N> port(42);
    time_decisions(state, s.requests.size(),
                   [&](std::size_t k) { return port.decide(s.requests[k]); });
  });
}

/// Random loads in 0.25..4 on two patterns, and a pool of pattern labels.
struct inverse_weighted_setup {
  interlock::load_matrix loads;
  std::vector<std::uint8_t> labels;
  explicit inverse_weighted_setup(std::size_t k) {
    rng r(99 + k);
    for (std::size_t i = 0; i < k; ++i)
      loads.push_back({0.25 + static_cast<double>(r.next() % 376) / 100.0,
                       0.25 + static_cast<double>(r.next() % 376) / 100.0});
    for (std::size_t j = 0; j < 4096 + k; ++j)
      labels.push_back(static_cast<std::uint8_t>(r.next() & 1u));
  }
  interlock::span<const std::uint8_t> labels_at(std::size_t decision, std::size_t k) const {
    return {labels.data() + (decision * 7) % 4096, k};
  }
};

template <std::size_t K>
void register_inverse_weighted() {
  register_each_density("inverse_weighted", K, [](benchmark::State& state, const streams& s) {
    const inverse_weighted_setup setup(K);
    interlock::inverse_weighted_arbiter<K, 2, 8> arb(interlock::weights_from_loads(setup.loads, 8));
    time_decisions(state, s.requests.size(), [&](std::size_t k) {
      return arb.grant(interlock::pattern_requests{s.requests[k], setup.labels_at(k, K)}).index();
    });
  });
  register_each_density("inverse_weighted_exact", K, [](benchmark::State& state, const streams& s) {
    const inverse_weighted_setup setup(K);
    interlock::inverse_weighted_exact<K, 2> arb(setup.loads);
    time_decisions(state, s.requests.size(), [&](std::size_t k) {
      return arb.grant(interlock::pattern_requests{s.requests[k], setup.labels_at(k, K)}).index();
    });
  });
}

template <std::size_t N>
void register_integer_priority() {
  register_each_density("integer_priority", N, [](benchmark::State& state, const streams& s) {
    // 4096 prepared decisions (each carries N priorities), replayed.
    std::vector<interlock::integer_requests<N>> requests(
        std::min<std::size_t>(4096, s.requests.size()));
    interlock::splitmix64 rng(N);
    for (std::size_t k = 0; k < requests.size(); ++k) {
      requests[k].requests = s.requests[k] & interlock::bits::low_mask(N);
      for (auto& p : requests[k].priority) p = static_cast<std::int64_t>(rng() & 7u);
    }
    interlock::integer_priority_arbiter<N, interlock::rr_order::ascending> arb;
    time_decisions(state, requests.size(),
                   [&](std::size_t k) { return arb.grant(requests[k]).index(); });
  });
}

const bool registered = [] {
  register_floor<5>();
  register_integer_priority<5>();
  register_floor<7>();
  register_integer_priority<7>();
  register_floor<4>();
  register_round_robin_and_priority<4>();
  register_floor<6>();
  register_inverse_weighted<6>();
  register_floor<8>();
  register_round_robin_and_priority<8>();
  register_age<8>();
  register_inverse_weighted<8>();
  register_floor<16>();
  register_round_robin_and_priority<16>();
  register_age<16>();
  register_inverse_weighted<16>();
  register_floor<28>();
  register_age<28>();
  register_integer_priority<28>();
  register_floor<32>();
  register_round_robin_and_priority<32>();
  register_age<32>();
  register_inverse_weighted<32>();
  register_floor<64>();
  register_round_robin_and_priority<64>();
  register_integer_priority<64>();
  register_age<64>();
  register_inverse_weighted<64>();
  register_wide(256);
  register_wide(1024);
  return true;
}();

}  // namespace
