// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/age_epoch.hpp: the Cray XT output arbiter
// (Abts & Weisser, SC'07, Sections 2.1-2.3): oldest first with round-robin
// ties, AGE_RR_SELECT mixing with two pointers, suspension while the age
// clock is inhibited, the SeaStar output-port shape, and forward progress.
#include "support/interlock_test.hpp"
#include "support/reference_arbiters.hpp"

#include <interlock/arbiters/age_clock.hpp>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/verify/arbiter_checks.hpp>

#include <array>

using interlock::age_epoch_arbiter;
using interlock::age_policy;
using interlock::age_requests;
using interlock::grant;
using namespace interlock_test;

namespace {

constexpr std::uint64_t alternate = 0x5555555555555555u;  // 0101...0101: age, rr, age, ...

// The request of an arbitration whose candidates' ages are given.
template <class Ages>
age_requests by_age(std::uint64_t requests, const Ages& ages, bool age_suspended = false) {
  return age_requests{requests, interlock::oldest_by_age(requests, ages), age_suspended};
}

// The arbiter written plainly: a policy per grant from the counter, a loop
// reference round robin per pointer, the age maximum by a loop.
struct reference_age_arbiter {
  std::size_t n;
  std::uint64_t select;
  unsigned counter = 0;
  bool suspended = false;
  reference_priority_arbiter rr{n, 0};
  reference_priority_arbiter age{n, 0};

  bool age_policy() const { return ((select >> counter) & 1u) != 0 && !suspended; }
  grant decide(std::uint64_t req, const std::vector<std::uint8_t>& ages) const {
    levels_t levels(n, -1);
    int oldest = -1;
    for (std::size_t i = 0; i < n; ++i)
      if ((req >> i & 1u) != 0) oldest = std::max(oldest, int{ages[i]});
    for (std::size_t i = 0; i < n; ++i)
      if ((req >> i & 1u) != 0 && (!age_policy() || ages[i] == oldest)) levels[i] = 0;
    return (age_policy() ? age : rr).arbitrate(levels);
  }
  void commit(grant g) {
    if (!g) return;
    (age_policy() ? age : rr).commit(g);
    counter = (counter + 1) % 64;
  }
};

template <std::size_t N>
void check_against_reference(std::uint64_t select, std::uint64_t seed, std::size_t steps) {
  splitmix rng(seed);
  age_epoch_arbiter<N> arb(select);
  reference_age_arbiter ref{N, select};
  std::vector<std::uint8_t> ages(N);
  for (std::size_t k = 0; k < steps; ++k) {
    const std::uint64_t req = rng.next() & interlock::bits::low_mask(N);
    const std::uint64_t spread = 1 + rng.below(256);  // few distinct ages: many ties
    for (auto& a : ages) a = static_cast<std::uint8_t>(rng.below(spread));
    const bool inhibit = rng.below(8) == 0;
    ref.suspended = inhibit;
    const age_requests r = by_age(req, ages, inhibit);
    const auto check = interlock::verify::check_decision(arb, r);
    RC_ASSERT(check.failed.empty());
    const grant expected = ref.decide(req, ages);
    RC_ASSERT(check.g == expected);
    if (ref.age_policy()) RC_ASSERT(interlock::invariants::age_respected(req, ages, check.g));
    arb.commit(check.g, r);
    ref.commit(expected);
    RC_ASSERT(arb.grant_counter() == ref.counter);
  }
}

}  // namespace

TEST_CASE("age_epoch_arbiter: the example of the header", "[age_epoch]") {
  interlock::age_clock clock(18);
  interlock::age_heads<28> heads;
  heads.set(5, interlock::age_field::with_age(90));
  heads.set(9, interlock::age_field::with_age(120));
  age_epoch_arbiter<28> out(interlock::seastar_output_port);
  CHECK(out.grant(heads.requests((1u << 5) | (1u << 9), clock)) == grant(9));
  CHECK(out.grant_counter() == 1);
}

TEST_CASE("age_epoch_arbiter: the largest age wins, ties go round robin", "[age_epoch]") {
  age_epoch_arbiter<8> arb;  // all 1s: age
  std::array<std::uint8_t, 8> ages{10, 200, 50, 200, 7, 200, 0, 0};
  const age_requests req = by_age(0b00101111, ages);  // 0, 1, 2, 3, 5
  std::vector<std::size_t> order;
  for (int k = 0; k < 6; ++k) order.push_back(arb.grant(req).index());
  CHECK(order == std::vector<std::size_t>{5, 3, 1, 5, 3, 1});  // the three 200s, round robin
  CHECK(arb.round_robin_pointer() == interlock::round_robin_arbiter<8>());  // never moved
}

TEST_CASE("age_epoch_arbiter: AGE_RR_SELECT picks the policy per grant", "[age_epoch]") {
  age_epoch_arbiter<8> arb(alternate);
  std::array<std::uint8_t, 8> ages{0, 0, 0, 0, 0, 0, 0, 90};
  const age_requests req = by_age(0b10000011, ages);  // 0, 1, and the old 7
  CHECK(arb.policy() == age_policy::age);
  CHECK(arb.grant(req) == grant(7));  // counter 0: age
  CHECK(arb.policy() == age_policy::round_robin);
  CHECK(arb.grant(req) == grant(7));  // counter 1: round robin; its pointer starts at 7
  CHECK(arb.grant(req) == grant(7));  // counter 2: age again
  CHECK(arb.grant(req) == grant(1));  // counter 3: round robin moves on
  CHECK(arb.grant_counter() == 4);
  for (int k = 0; k < 60; ++k) arb.grant(req);
  CHECK(arb.grant_counter() == 0);  // 6 bits: wraps at 64
  arb.commit(grant(), req);         // no grant: nothing moves
  CHECK(arb.grant_counter() == 0);
}

TEST_CASE("parse_age_rr_select: the names, hex masks, and what it refuses", "[age_epoch]") {
  CHECK(interlock::parse_age_rr_select("age") == ~std::uint64_t{0});
  CHECK(interlock::parse_age_rr_select("rr") == 0);
  CHECK(interlock::parse_age_rr_select("half") == 0x5555555555555555ull);
  CHECK(interlock::parse_age_rr_select("0x5") == 0x5);
  CHECK(interlock::parse_age_rr_select("0X00fF") == 0xFF);
  CHECK(interlock::parse_age_rr_select("0x8000000000000001") == 0x8000000000000001ull);
  CHECK(interlock::parse_age_rr_select("0xffffffffffffffff") == ~std::uint64_t{0});
  // "half" alternates starting with age: the counter's first grant is by age.
  interlock::age_epoch_arbiter<4> half(interlock::parse_age_rr_select("half"));
  CHECK(half.policy() == interlock::age_policy::age);
  for (const char* bad :
       {"", "often", "0x", "x5", "0x5g", "5", "0x10000000000000000", "AGE", " 0x5", "0x-1"}) {
    INFO(bad);
    CHECK_THROWS_AS(interlock::parse_age_rr_select(bad), interlock::config_error);
  }
  CHECK_THROWS_WITH(interlock::parse_age_rr_select("0x10000000000000000"),
                    Catch::Contains("AGE_RR_SELECT = 0x10000000000000000; allowed: age, rr, half, "
                                    "or a hex mask 0x... of 1 to 16 digits"));
}

TEST_CASE("age_epoch_arbiter: while the clock is inhibited, round robin drains", "[age_epoch]") {
  age_epoch_arbiter<4> arb;  // all 1s
  std::array<std::uint8_t, 4> ages{0, 0, 0, 255};
  const age_requests inhibited = by_age(0b1111, ages, true);
  CHECK(arb.policy(true) == age_policy::round_robin);
  std::vector<std::size_t> order;
  for (int k = 0; k < 4; ++k) order.push_back(arb.grant(inhibited).index());
  CHECK(order == std::vector<std::size_t>{3, 2, 1, 0});             // ages ignored
  CHECK(arb.age_pointer() == interlock::round_robin_arbiter<4>());  // the age pointer never moved
  CHECK(arb.grant(by_age(0b1111, ages)) == grant(3));
}

TEST_CASE("age_epoch_arbiter: a SeaStar output port, 7 sources x 4 VCs", "[age_epoch]") {
  const auto& shape = interlock::seastar_output_port;
  age_epoch_arbiter<28> port(shape);
  std::array<std::uint8_t, 28> ages{};
  std::uint64_t heads = 0;
  auto put = [&](std::size_t source, std::size_t vc, std::uint8_t age) {
    heads |= std::uint64_t{1} << shape.candidate(source, vc);
    ages[shape.candidate(source, vc)] = age;
  };
  put(0, 2, 250);  // the oldest packet, but VC2 has too few credits
  put(3, 0, 100);
  put(6, 3, 180);
  put(4, 2, 90);
  std::array<unsigned, 4> credits{20, 20, 3, 20};
  const unsigned max_packet_size = 9;
  std::uint64_t eligible = 0;
  for (std::size_t s = 0; s < shape.sources; ++s)
    for (std::size_t v = 0; v < shape.vcs; ++v)
      if (credits[v] >= max_packet_size) eligible |= std::uint64_t{1} << shape.candidate(s, v);
  CHECK(port.grant(by_age(heads & eligible, ages)) == grant(shape.candidate(6, 3)));
  credits[2] = 9;
  CHECK(port.grant(by_age(heads, ages)) == grant(shape.candidate(0, 2)));
}

TEST_CASE("age_epoch_arbiter: configuration errors", "[age_epoch][config]") {
  CHECK_THROWS_WITH((age_epoch_arbiter<64>(interlock::output_port_shape{9, 8})),
                    "age_epoch_arbiter: sources x VCs = 9 x 8 = 72; allowed: at most the arbiter "
                    "width, 64");
  CHECK_THROWS_AS((age_epoch_arbiter<28>(interlock::output_port_shape{0, 4})),
                  interlock::config_error);
  CHECK_NOTHROW((age_epoch_arbiter<24>(interlock::output_port_shape{6, 4})));
  age_epoch_arbiter<8> arb;
  CHECK_THROWS_AS(arb.arbitrate(age_requests{0x100, 0x100}), interlock::contract_violation);
  CHECK_THROWS_AS(arb.commit(grant(8), age_requests{}), interlock::contract_violation);
  CHECK_THROWS_AS(arb.arbitrate(age_requests{0b100, 0b010}), interlock::contract_violation);
  CHECK_THROWS_AS(arb.arbitrate(age_requests{0b100, 0}), interlock::contract_violation);
  interlock::age_heads<8> heads;
  CHECK_THROWS_AS(heads.set(8, interlock::age_field()), interlock::contract_violation);
}

TEST_CASE("age_heads: Procedure 2 for all heads at once", "[age_epoch][property]") {
  rc::prop("oldest() is the maximum of output_age over the requests, vector and scalar alike", [] {
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    interlock::age_clock clock(1);
    for (std::uint64_t t = rng.below(1500); t > 0; --t) clock.tick();
    const auto rule = *rc::gen::element(interlock::saturation_rule::corrected,
                                        interlock::saturation_rule::as_printed);
    interlock::age_heads<28> heads;
    std::array<std::uint8_t, 28> ages{};
    for (std::size_t i = 0; i < 28; ++i) {
      heads.set(i, interlock::age_field::from_bits(static_cast<std::uint16_t>(rng.next())));
      ages[i] = interlock::output_age(heads.field(i), clock, rule).new_age;
      RC_ASSERT(heads.age(i, clock, rule) == ages[i]);
    }
    const std::uint64_t req = rng.next() & interlock::bits::low_mask(28);
    const std::uint64_t expected = interlock::oldest_by_age(req, ages);
    RC_ASSERT(heads.oldest(req, clock, rule) == expected);
    const unsigned corrected = rule == interlock::saturation_rule::corrected ? 1u : 0u;
    RC_ASSERT(interlock::detail::oldest_scalar(req, heads.lanes(), clock.epoch(), clock.timestamp(),
                                               corrected) == expected);
    RC_ASSERT((expected != 0) == (req != 0));
  });
}

TEST_CASE("age_epoch_arbiter: against a loop reference", "[age_epoch][property]") {
  rc::prop("AGE_RR_SELECT all 0s grants exactly as round_robin_arbiter<N>", [] {
    splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    age_epoch_arbiter<28> arb(0);
    interlock::round_robin_arbiter<28> rr;
    std::array<std::uint8_t, 28> ages{};
    for (int k = 0; k < 500; ++k) {
      const std::uint64_t req = rng.next() & interlock::bits::low_mask(28);
      for (auto& a : ages) a = static_cast<std::uint8_t>(rng.below(256));
      RC_ASSERT(arb.grant(by_age(req, ages, rng.below(4) == 0)) == rr.grant(req));
    }
  });
  rc::prop("grants, pointers and counter match the reference for any AGE_RR_SELECT", [] {
    const std::uint64_t select =
        *rc::gen::oneOf(rc::gen::just(~std::uint64_t{0}), rc::gen::just(alternate),
                        rc::gen::arbitrary<std::uint64_t>());
    const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
    check_against_reference<7>(select, seed, 300);
    check_against_reference<28>(select, seed, 300);
    check_against_reference<64>(select, seed, 300);
  });
}

// ---- Forward progress ----------------------------------------------------

namespace {

// An output port with N candidate staging buffers under the full mechanism:
// the age clock of Procedure 3, Procedure 1 at arrival, Procedure 2 at the
// output. Packet p waits at candidate `watched`; every other candidate always
// has a head, and every packet that arrives after p is no older than p.
template <std::size_t N>
struct younger_stream {
  interlock::age_clock clock;
  age_epoch_arbiter<N> arb;
  interlock::age_heads<N> heads;
  std::size_t watched;
  unsigned p_ideal_on_arrival;
  std::uint64_t p_ticks_on_arrival;
  splitmix rng;
  bool used_rr_pointer = false;
  bool used_age_pointer = false;

  younger_stream(std::uint32_t period, std::uint64_t select, std::size_t w, std::uint64_t seed)
      : clock(period), arb(select), watched(w), rng(seed) {
    // Scramble the pointers, the counter and the clock before p arrives.
    const std::uint64_t warmup = rng.below(3 * N);
    for (std::uint64_t k = 0; k < warmup; ++k) arb.commit(grant(rng.below(N)), age_requests{});
    for (std::uint64_t k = rng.below(2000); k > 0; --k) clock.tick();
    const auto header = static_cast<std::uint8_t>(rng.below(256));
    const interlock::age_bias bias{static_cast<unsigned>(rng.below(8)), 1};
    p_ideal_on_arrival = std::min(255u, unsigned{header} + bias.request());
    p_ticks_on_arrival = clock.age_ticks();
    heads.set(watched,
              interlock::receive_packet(interlock::age_field::with_age(header), 0, bias, clock));
    for (std::size_t i = 0; i < N; ++i)
      if (i != watched) heads.set(i, younger_arrival());
  }

  unsigned p_ideal() const {
    return static_cast<unsigned>(
        std::min<std::uint64_t>(255, p_ideal_on_arrival + clock.age_ticks() - p_ticks_on_arrival));
  }
  // A packet arriving now with an age no larger than p's (bias 0).
  interlock::age_field younger_arrival() {
    const auto header = static_cast<std::uint8_t>(rng.below(p_ideal() + 1u));
    return interlock::receive_packet(interlock::age_field::with_age(header), 0,
                                     interlock::age_bias{0, 0}, clock);
  }

  // Runs decisions until p is granted; returns how many it took.
  std::size_t decisions_until_granted(std::size_t limit) {
    for (std::size_t d = 1; d <= limit; ++d) {
      for (std::uint64_t t = rng.below(40); t > 0; --t) clock.tick();
      RC_ASSERT(heads.age(watched, clock) == p_ideal());  // the epochs keep p's age exact
      (arb.policy(clock.inhibit()) == age_policy::age ? used_age_pointer : used_rr_pointer) = true;
      const age_requests r = heads.requests(interlock::bits::low_mask(N), clock);
      const grant g = arb.grant(r);
      interlock::send_packet(heads.field(g.index()), clock);
      if (g.index() == watched) return d;
      heads.set(g.index(), younger_arrival());
    }
    return limit + 1;
  }
};

template <std::size_t N>
void check_younger_stream_bound() {
  const std::uint64_t select =
      *rc::gen::oneOf(rc::gen::just(~std::uint64_t{0}), rc::gen::just(std::uint64_t{0}),
                      rc::gen::just(alternate), rc::gen::arbitrary<std::uint64_t>());
  younger_stream<N> sim(*rc::gen::inRange<std::uint32_t>(1, 8), select,
                        *rc::gen::inRange<std::size_t>(0, N), *rc::gen::arbitrary<std::uint64_t>());
  const std::size_t took = sim.decisions_until_granted(4 * N);
  const std::size_t bound = sim.used_rr_pointer && sim.used_age_pointer ? 2 * N - 1 : N;
  RC_ASSERT(took <= bound);
}

}  // namespace

TEST_CASE("age_epoch_arbiter: forward progress against a stream of younger arrivals",
          "[age_epoch][property]") {
  rc::prop("p is granted within N decisions with one pointer, 2N - 1 with both", [] {
    check_younger_stream_bound<4>();
    check_younger_stream_bound<8>();
    check_younger_stream_bound<28>();
  });
  rc::prop("a packet saturated at 255 is granted within N age-mode decisions, whatever competes",
           [] {
             constexpr std::size_t n = 16;
             splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
             age_epoch_arbiter<n> arb(*rc::gen::arbitrary<std::uint64_t>());
             for (std::uint64_t k = rng.below(100); k > 0; --k)
               arb.commit(grant(rng.below(n)), age_requests{});
             const std::size_t p = rng.below(n);
             std::array<std::uint8_t, n> ages{};
             std::size_t age_decisions = 0;
             for (std::size_t decisions = 0; decisions < 64 * n; ++decisions) {
               for (auto& a : ages)
                 a = rng.below(3) == 0 ? 255 : static_cast<std::uint8_t>(rng.below(256));
               ages[p] = 255;
               const bool age_mode = arb.policy() == age_policy::age;
               const std::uint64_t req =
                   (rng.next() & interlock::bits::low_mask(n)) | std::uint64_t{1} << p;
               const grant g = arb.grant(by_age(req, ages));
               age_decisions += age_mode ? 1 : 0;
               if (g.index() == p) return;
               RC_ASSERT(age_decisions < n);
             }
             RC_FAIL("never granted");
           });
}

TEST_CASE("age_epoch_arbiter: the forward-progress bounds are reached", "[age_epoch]") {
  constexpr std::size_t n = 8;
  const std::size_t p = 3;
  std::array<std::uint8_t, n> ages;
  ages.fill(255);  // every competitor as old as p: all ties
  const age_requests all = by_age(interlock::bits::low_mask(n), ages);
  SECTION("one pointer (AGE_RR_SELECT all 1s): N decisions") {
    age_epoch_arbiter<n> arb;
    arb.commit(grant(p), all);  // the age pointer now puts p last
    std::size_t d = 1;
    while (arb.grant(all) != grant(p) && d < 4 * n) ++d;
    CHECK(d == n);
  }
  SECTION("both pointers (0101...): 2N - 1 decisions") {
    age_epoch_arbiter<n> arb(alternate);
    arb.commit(grant(p), all);  // counter 0: the age pointer puts p last
    arb.commit(grant(p), all);  // counter 1: so does the round-robin pointer
    std::size_t d = 1;
    while (arb.grant(all) != grant(p) && d < 4 * n) ++d;
    CHECK(d == 2 * n - 1);
  }
}

namespace {

// The scenario of the epoch test: p (candidate 0) arrives at age tick 0 with
// age 0; from tick 100 to 299 one younger packet (age 0) arrives per tick at
// the other candidates in turn; every VC is blocked until tick 300; from then
// on the port makes one decision per tick. `age_of(arrival_tick, now)` is
// the age the output computes. Returns the decisions p waited.
template <class AgeOf>
std::size_t decisions_for_p(AgeOf&& age_of) {
  constexpr std::size_t n = 8;
  std::array<std::vector<unsigned>, n> queues;  // arrival ticks, FIFO
  queues[0].push_back(0);
  for (unsigned t = 100; t < 300; ++t) queues[1 + t % (n - 1)].push_back(t);
  age_epoch_arbiter<n> arb;  // all 1s: age
  std::array<std::uint8_t, n> ages{};
  for (unsigned now = 300, decisions = 1; decisions < 5000; ++now, ++decisions) {
    std::uint64_t req = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (queues[i].empty()) continue;
      req |= std::uint64_t{1} << i;
      ages[i] = age_of(queues[i].front(), now);
    }
    const grant g = arb.grant(by_age(req, ages));
    if (g.index() == 0) return decisions;
    queues[g.index()].erase(queues[g.index()].begin());
  }
  return 5000;
}

}  // namespace

TEST_CASE("age_epoch_arbiter: without the epoch rule a waiting packet starves", "[age_epoch]") {
  // With the epochs (age_clock, Procedures 1-3) p's age is exact: 300 age
  // ticks saturate at 255 and p wins at once.
  interlock::age_clock clock(1);
  std::vector<interlock::age_field> fields;
  std::vector<unsigned> arrival_ticks;
  for (unsigned t = 0; t < 300; ++t) {
    if (t == 0 || t >= 100) {
      fields.push_back(interlock::receive_packet(interlock::age_field::with_age(0), 0,
                                                 interlock::age_bias{0, 0}, clock));
      arrival_ticks.push_back(t);
    }
    clock.tick();
  }
  REQUIRE(clock.epoch() == 1);  // one switch, at tick 256
  auto hardware_age = [&](unsigned arrived, unsigned now) {
    REQUIRE(now == 300);  // the clock is not advanced further here
    for (std::size_t k = 0; k < arrival_ticks.size(); ++k)
      if (arrival_ticks[k] == arrived) return interlock::output_age(fields[k], clock).new_age;
    return std::uint8_t{0};
  };
  CHECK(hardware_age(0, 300) == 255);
  CHECK(decisions_for_p([&](unsigned arrived, unsigned now) {
          return now == 300 ? hardware_age(arrived, now)
                            : std::uint8_t(std::min(255u, now - arrived));
        }) == 1);

  // Without them, ages come from a free-running 8-bit timestamp: p's 300
  // ticks read as 44, and every packet that arrived between ticks 100 and
  // 255 looks older than p. p waits far beyond the 2N - 1 = 15 bound.
  const std::size_t starved = decisions_for_p([](unsigned arrived, unsigned now) {
    return static_cast<std::uint8_t>((now - arrived) & 0xFFu);
  });
  CHECK(starved > 100);
}
