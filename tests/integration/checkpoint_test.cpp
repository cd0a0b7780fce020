// SPDX-License-Identifier: BSL-1.0
// Save and restore of every stateful arbiter, allocator and clock
// (core/state_io.hpp): a policy restored midway and continued decides as
// one that never stopped, and a state it could not hold is refused.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <interlock/allocators/islip.hpp>
#include <interlock/allocators/separable.hpp>
#include <interlock/allocators/wavefront.hpp>
#include <interlock/arbiters/age_clock.hpp>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/integer_priority.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/inverse_weighted_exact.hpp>
#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/core/request_set.hpp>
#include <interlock/core/state_io.hpp>
#include <interlock/qos/dtable.hpp>
#include <interlock/qos/ib_vl_arbiter.hpp>
#include <interlock/qos/sbt.hpp>

#include "support/interlock_test.hpp"

using interlock::restore_state;
using interlock::save_state;
using interlock::state_error;
using interlock_test::splitmix;

namespace {

// Runs `a` for `before` steps, saves it, restores the bytes into `b` (built
// by `make` and run on other requests, so the restore must overwrite all
// of it), then runs both for `after` steps on the same requests: every
// step's outcome, the final states and the final bytes must agree. Every
// truncation of the bytes is refused and leaves `b` as it was.
template <class Make, class Step>
void check_resume(Make make, Step step, std::uint64_t seed, int before, int after) {
  auto a = make();
  splitmix rng(seed);
  for (int k = 0; k < before; ++k) step(a, rng);
  const std::vector<std::uint8_t> bytes = save_state(a);

  auto b = make();
  splitmix other(seed ^ 0x9e3779b97f4a7c15ull);
  for (int k = 0; k < before / 2 + 1; ++k) step(b, other);
  const std::vector<std::uint8_t> b_before = save_state(b);
  for (std::size_t n = 0; n < bytes.size(); n += 1 + n / 16) {
    RC_ASSERT_THROWS_AS(restore_state(b, bytes.data(), n), state_error);
    RC_ASSERT(save_state(b) == b_before);
  }
  restore_state(b, bytes);
  RC_ASSERT(save_state(b) == bytes);

  for (int k = 0; k < after; ++k) {
    splitmix same = rng;
    const auto ga = step(a, rng);
    const auto gb = step(b, same);
    RC_ASSERT(ga == gb);
  }
  RC_ASSERT(a == b);
  RC_ASSERT(save_state(a) == save_state(b));
}

template <std::size_t N>
std::uint64_t some_requests(splitmix& rng) {
  return rng() & interlock::bits::low_mask(N);
}

template <class Arbiter, std::size_t N>
void resume_mask_arbiter(std::uint64_t seed) {
  check_resume([] { return Arbiter(); },
               [](Arbiter& a, splitmix& rng) { return a.grant(some_requests<N>(rng)); }, seed, 40,
               60);
}

template <class Arbiter, std::size_t N, std::size_t P>
void resume_priority_arbiter(std::uint64_t seed) {
  check_resume([] { return Arbiter(); },
               [](Arbiter& a, splitmix& rng) {
                 interlock::priority_requests<P> r;
                 for (std::size_t i = 0; i < N; ++i)
                   if (rng.below(3) != 0) r.set(i, rng.below(P));
                 return a.grant(r);
               },
               seed, 40, 60);
}

}  // namespace

TEST_CASE("checkpoint: round robin, priority and integer-priority arbiters resume") {
  rc::prop("restore then continue equals never stopping", [](std::uint64_t seed) {
    resume_mask_arbiter<interlock::round_robin_arbiter<13>, 13>(seed);
    resume_mask_arbiter<interlock::round_robin_arbiter<64>, 64>(seed);
    resume_mask_arbiter<interlock::round_robin_arbiter<9, interlock::rr_order::ascending>, 9>(seed);
    resume_priority_arbiter<interlock::priority_arbiter<12, 3>, 12, 3>(seed);
    resume_priority_arbiter<interlock::priority_arbiter<7, 2, interlock::rr_order::ascending>, 7,
                            2>(seed);
    using integer = interlock::integer_priority_arbiter<10>;
    check_resume([] { return integer(); },
                 [](integer& a, splitmix& rng) {
                   interlock::integer_requests<10> r;
                   for (std::size_t i = 0; i < 10; ++i)
                     if (rng.below(2) != 0) r.set(i, static_cast<std::int64_t>(rng.below(4)));
                   return a.grant(r);
                 },
                 seed, 40, 60);
  });
}

TEST_CASE("checkpoint: the run-time round robin and priority arbiters resume past 64") {
  rc::prop("restore then continue equals never stopping", [](std::uint64_t seed) {
    using dynamic = interlock::dynamic_round_robin_arbiter;
    check_resume([] { return dynamic(150); },
                 [](dynamic& a, splitmix& rng) {
                   interlock::dynamic_request_set r(150);
                   for (std::size_t i = 0; i < 150; ++i)
                     if (rng.below(16) == 0) r.set(i);
                   return a.grant(r);
                 },
                 seed, 40, 60);
    using dynamic_priority = interlock::dynamic_priority_arbiter<2>;
    check_resume([] { return dynamic_priority(70); },
                 [](dynamic_priority& a, splitmix& rng) {
                   interlock::dynamic_priority_requests<2> r(70);
                   for (std::size_t i = 0; i < 70; ++i)
                     if (rng.below(8) == 0) r.set(i, rng.below(2));
                   return a.grant(r);
                 },
                 seed, 40, 60);
  });
}

TEST_CASE("checkpoint: the inverse-weighted arbiters resume, hardware and exact") {
  rc::prop("restore then continue equals never stopping", [](std::uint64_t seed) {
    splitmix w(seed);
    std::vector<std::vector<std::uint32_t>> m(6, std::vector<std::uint32_t>(3));
    for (auto& row : m)
      for (auto& x : row) x = static_cast<std::uint32_t>(1 + w.below(255));
    using hw = interlock::inverse_weighted_arbiter<6, 3, 8>;
    const auto table = std::make_shared<const hw::table_type>(m);
    const auto labelled = [](auto& a, splitmix& rng) {
      std::array<std::uint8_t, 6> labels{};
      for (auto& l : labels) l = static_cast<std::uint8_t>(rng.below(3));
      const interlock::pattern_requests r{rng() & 0x3F, labels};
      return a.grant(r);
    };
    check_resume([&] { return hw(table); }, labelled, seed, 200, 300);

    interlock::load_matrix loads(6, std::vector<double>(3));
    for (auto& row : loads)
      for (auto& g : row) g = 0.05 + static_cast<double>(w.below(100)) / 100.0;
    using exact = interlock::inverse_weighted_exact<6, 3>;
    const auto exact_table = std::make_shared<const exact::table_type>(loads);
    check_resume([&] { return exact(exact_table); }, labelled, seed, 200, 300);
  });
}

TEST_CASE("checkpoint: the age arbiter and the age clock resume") {
  rc::prop("restore then continue equals never stopping", [](std::uint64_t seed) {
    using age = interlock::age_epoch_arbiter<28>;
    const std::uint64_t select = splitmix(seed)();
    check_resume([&] { return age(interlock::seastar_output_port, select); },
                 [](age& a, splitmix& rng) {
                   interlock::age_requests r;
                   r.requests = some_requests<28>(rng);
                   r.oldest = r.requests & rng();
                   if (r.oldest == 0) r.oldest = r.requests & (~r.requests + 1);
                   r.age_suspended = rng.below(8) == 0;
                   return a.grant(r);
                 },
                 seed, 100, 100);

    // The clock: ticks, arrivals and departures in both epochs, idle runs.
    check_resume([] { return interlock::age_clock(3); },
                 [](interlock::age_clock& c, splitmix& rng) {
                   const std::uint64_t what = rng.below(10);
                   if (what == 0 && c.packet_count(0) + c.packet_count(1) == 0)
                     c.tick_idle(rng.below(2000));
                   else if (what < 3 && c.packet_count(c.epoch()) < 2047)
                     c.admit();
                   else if (what < 5 && c.packet_count(rng.below(2) == 0 ? 0u : 1u) > 0)
                     c.release(c.packet_count(0) > 0 ? 0u : 1u);
                   else
                     for (int t = 0; t < 100; ++t) c.tick();
                   return std::array<std::uint64_t, 4>{c.timestamp(), c.epoch(), c.age_ticks(),
                                                       c.inhibited_ticks()};
                 },
                 seed, 400, 400);
  });
}

TEST_CASE("checkpoint: the allocators resume") {
  rc::prop("restore then continue equals never stopping", [](std::uint64_t seed) {
    const auto random_matrix = [](splitmix& rng) {
      interlock::request_matrix<5, 7> r;
      for (std::size_t i = 0; i < 5; ++i) r.rows[i] = rng() & 0x7F & rng();
      return r;
    };
    using islip = interlock::islip_allocator<5, 7>;
    check_resume([] { return islip(3); },
                 [&](islip& a, splitmix& rng) { return a.allocate(random_matrix(rng)); }, seed, 40,
                 60);
    using input_first = interlock::separable_input_first<5, 7>;
    check_resume([] { return input_first(); },
                 [&](input_first& a, splitmix& rng) { return a.allocate(random_matrix(rng)); },
                 seed, 40, 60);
    using output_first = interlock::separable_output_first<5, 7, interlock::round_robin_arbiter<7>,
                                                           interlock::round_robin_arbiter<5>>;
    check_resume([] { return output_first(); },
                 [&](output_first& a, splitmix& rng) { return a.allocate(random_matrix(rng)); },
                 seed, 40, 60);
    using wavefront = interlock::wavefront_allocator<5, 7>;
    check_resume([] { return wavefront(); },
                 [&](wavefront& a, splitmix& rng) { return a.allocate(random_matrix(rng)); }, seed,
                 40, 60);
  });
}

TEST_CASE("checkpoint: the QoS output schedulers resume, SBT, DTable and InfiniBand's") {
  rc::prop("restore then continue equals never stopping", [](std::uint64_t seed) {
    using interlock::qos::queue_requests;
    // Four SLs over six queues; SL 3 owns queues 3 and 5.
    const interlock::qos::queue_sls sls{0, 1, 2, 3, 1, 3};
    using sbt = interlock::qos::sbt_scheduler;
    check_resume(
        [&] {
          return sbt({40, 30, 20, 10}, sls);
        },
        [](sbt& a, splitmix& rng) {
          return a.grant(queue_requests{rng() & 0x3F, {}});
        },
        seed, 150, 150);

    using dtable = interlock::qos::dtable_scheduler;
    const std::vector<std::uint32_t> mtu{4, 2, 8, 3};
    const auto table = std::make_shared<const interlock::qos::deficit_table>(
        std::vector<interlock::qos::dtable_entry>{{0, 5}, {3, 3}, {1, 9}, {2, 8}, {3, 7}, {0, 4}},
        sls, mtu);
    check_resume([&] { return dtable(table); },
                 [&](dtable& a, splitmix& rng) {
                   std::array<std::uint32_t, 6> size{};
                   for (std::size_t q = 0; q < 6; ++q)
                     size[q] = static_cast<std::uint32_t>(1 + rng.below(mtu[sls[q]]));
                   return a.grant(queue_requests{rng() & 0x3F, size});
                 },
                 seed, 150, 150);

    using ib = interlock::qos::ib_vl_arbiter;
    const interlock::qos::ib_vl_arbitration_config config{
        {{0, 2}, {1, 1}, {2, 0}, {0, 4}},
        {{3, 1}, {4, 3}, {5, 2}},
        1,
        splitmix(seed).below(2) == 0 ? interlock::qos::low_priority_turn::one_packet
                                     : interlock::qos::low_priority_turn::whole_entry};
    check_resume([&] { return ib(config); },
                 [](ib& a, splitmix& rng) {
                   std::array<std::uint32_t, 15> size{};
                   for (auto& b : size) b = static_cast<std::uint32_t>(1 + rng.below(4222));
                   return a.grant(queue_requests{rng() & 0x3F, size});
                 },
                 seed, 150, 150);
  });
}

namespace {
// The field of `x`'s bytes at `offset` set to `value` (little-endian, `width` bytes).
template <class T>
std::vector<std::uint8_t> with_field(const T& x, std::size_t offset, std::uint64_t value,
                                     unsigned width) {
  std::vector<std::uint8_t> bytes = save_state(x);
  for (unsigned b = 0; b < width; ++b)
    bytes.at(offset + b) = static_cast<std::uint8_t>(value >> (8 * b));
  return bytes;
}
template <class T>
std::string refusal(T x, const std::vector<std::uint8_t>& bytes) {
  try {
    restore_state(x, bytes);
  } catch (const state_error& e) {
    return e.what();
  }
  return "accepted";
}
// Header (5) + object code and size (8): the first field.
constexpr std::size_t first = 13;
}  // namespace

TEST_CASE("checkpoint: a state no policy could hold is refused by name") {
  SECTION("round robin: rr_therm not a thermometer code, a pointer past N") {
    interlock::round_robin_arbiter<8> rr;
    CHECK(refusal(rr, with_field(rr, first, 0x5, 8)) ==
          "state, byte 13: rr_thermometer.rr_therm = 5; allowed: a thermometer code (ones from "
          "bit 0 up) of at most N bits");
    CHECK(refusal(rr, with_field(rr, first, 0x1FF, 8)).find("rr_therm = 511") != std::string::npos);
    interlock::round_robin_arbiter<8, interlock::rr_order::ascending> up;
    CHECK(refusal(up, with_field(up, first, 8, 1)) ==
          "state, byte 13: rr_pointer.pointer = 8; allowed: 0..7");
  }
  SECTION("another arbiter's state, another size") {
    interlock::round_robin_arbiter<8> rr;
    interlock::round_robin_arbiter<8, interlock::rr_order::ascending> up;
    CHECK(refusal(rr, save_state(up)) ==
          "state, byte 5: rr_thermometer.object code = \"RRPT\"; allowed: \"RRTH\"");
    CHECK(refusal(interlock::round_robin_arbiter<16>(), save_state(rr)) ==
          "state, byte 9: rr_thermometer.size = 8; allowed: 16");
    CHECK(refusal(interlock::dynamic_round_robin_arbiter(100),
                  save_state(interlock::dynamic_round_robin_arbiter(99))) ==
          "state, byte 9: dynamic_rr_thermometer.size = 99; allowed: 100");
    interlock::dynamic_round_robin_arbiter d(100);
    CHECK(refusal(d, with_field(d, first, 101, 4)) ==
          "state, byte 13: dynamic_rr_thermometer.ones = 101; allowed: 0..100");
  }
  SECTION("the age arbiter's grant counter, the age clock's registers") {
    interlock::age_epoch_arbiter<28> a;
    CHECK(refusal(a, with_field(a, first + 8, 64, 1)) ==
          "state, byte 21: age_epoch_arbiter.grant_counter = 64; allowed: 0..63");
    interlock::age_clock c(5);
    CHECK(refusal(c, with_field(c, first, 0, 4)) ==
          "state, byte 13: age_clock.AGE_CLK_PERIOD = 0; allowed: 1..4294967295");
    CHECK(refusal(c, with_field(c, first + 4, 6, 4)) ==
          "state, byte 17: age_clock.countdown = 6; allowed: 1..5");
    CHECK(refusal(c, with_field(c, first + 9, 2, 1)) ==
          "state, byte 22: age_clock.epoch = 2; allowed: 0..1");
    CHECK(refusal(c, with_field(c, first + 11, 2048, 2)) ==
          "state, byte 24: age_clock.packet_count[0] = 2048; allowed: 0..2047");
    interlock::age_clock longer(6);
    restore_state(longer, with_field(c, first + 4, 5, 4));
    CHECK(longer.period() == 5);  // AGE_CLK_PERIOD is state: a register a run may write
  }
  SECTION("the inverse-weighted arbiter's accumulators and shape") {
    interlock::inverse_weighted_arbiter<4, 2, 8> a(
        std::vector<std::vector<std::uint32_t>>(4, std::vector<std::uint32_t>{3, 5}));
    CHECK(refusal(a, with_field(a, first + 3, 512, 4)) ==
          "state, byte 16: inverse_weighted_arbiter.accumulator = 512; allowed: 0..511");
    interlock::inverse_weighted_arbiter<4, 2, 7> seven(
        std::vector<std::vector<std::uint32_t>>(4, std::vector<std::uint32_t>{3, 5}));
    CHECK(refusal(seven, save_state(a)) ==
          "state, byte 13: inverse_weighted_arbiter.M = 8; allowed: 7..7");
    // An accumulator at or above 2^M restores a low-priority input.
    interlock::inverse_weighted_arbiter<4, 2, 8> b = a;
    restore_state(b, with_field(a, first + 3 + 4, 300, 4));
    CHECK(b.accumulator(1) == 300);
    CHECK(b.priority() == 0b1101);
  }
  SECTION("the exact arbiter's accumulators") {
    interlock::inverse_weighted_exact<3, 1> e(interlock::load_matrix{{1.0}, {0.5}, {0.25}});
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::uint64_t bits = 0;
    std::memcpy(&bits, &nan, sizeof bits);
    CHECK(refusal(e, with_field(e, first + 2, bits, 8)).find("accumulator = nan") !=
          std::string::npos);
  }
  SECTION("the QoS schedulers' states against their tables") {
    const interlock::qos::queue_sls sls{0, 1, 1};
    interlock::qos::sbt_scheduler sbt({60, 40}, sls);
    CHECK(refusal(sbt, with_field(sbt, first + 1, 61, 1)) ==
          "state, byte 14: sbt_scheduler.remaining = 61; allowed: 0..60");
    CHECK(refusal(sbt, with_field(sbt, first + 3, 99, 1)) ==
          "state, byte 16: sbt_scheduler.total_remaining = 99; allowed: the sum of the SLs' "
          "remaining weights, at least 1");
    std::vector<std::uint8_t> dry = with_field(sbt, first + 1, 0, 3);  // nothing left anywhere
    CHECK(refusal(sbt, dry).find("total_remaining = 0") != std::string::npos);

    interlock::qos::dtable_scheduler d({{0, 3}, {1, 4}}, sls, {2, 4});
    std::array<std::uint32_t, 3> size{2, 4, 4};
    d.grant(interlock::qos::queue_requests{0b010, size});  // entry 1, SL 1, queue 1
    CHECK(refusal(d, with_field(d, first + 2, 0, 1)) ==
          "state, byte 15: dtable_scheduler.sl = 0; allowed: the entry's SL, or 255 before the "
          "first decision");
    CHECK(refusal(d, with_field(d, first + 3, 0, 1)) ==
          "state, byte 16: dtable_scheduler.queue = 0; allowed: a queue of the entry's SL");
    CHECK(refusal(d, with_field(d, first + 4, 8, 4)) ==
          "state, byte 17: dtable_scheduler.accumulated = 8; allowed: 0..7");
    CHECK(refusal(d, with_field(d, first + 8, 2, 2)) ==
          "state, byte 21: dtable_scheduler.deficit = 2; allowed: 0..1");
    CHECK(refusal(d, with_field(d, first + 10, 1, 1)) ==
          "state, byte 23: dtable_scheduler.rr = 1; allowed: a queue of the SL, or 255 before its "
          "first entry");

    interlock::qos::ib_vl_arbiter ib(interlock::qos::ib_vl_arbitration_config{
        {{0, 2}, {1, 1}}, {{2, 1}}, 255, interlock::qos::low_priority_turn::one_packet});
    CHECK(refusal(ib, with_field(ib, first, 2, 1)) ==
          "state, byte 13: ib_vl_arbiter.high_entry = 2; allowed: 0..1");
    CHECK(refusal(ib, with_field(ib, first + 1, 0xFFFFFFBEu, 4)) ==
          "state, byte 14: ib_vl_arbiter.high_remaining = -66; allowed: 1 - (units of the "
          "largest packet)..255");
  }
  SECTION("the allocators' shapes and pointers") {
    interlock::islip_allocator<5, 7> two(2);
    CHECK(refusal(interlock::islip_allocator<5, 7>(1), save_state(two)) ==
          "state, byte 14: islip_allocator.iterations = 2; allowed: 1..1");
    CHECK(refusal(interlock::islip_allocator<5, 6>(2), save_state(two)) ==
          "state, byte 13: islip_allocator.outputs = 7; allowed: 6..6");
    interlock::wavefront_allocator<5, 7> w;
    CHECK(refusal(w, with_field(w, first, 7, 1)) ==
          "state, byte 13: wavefront_allocator.priority_diagonal = 7; allowed: 0..6");
  }
}
