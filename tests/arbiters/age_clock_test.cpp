// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/arbiters/age_clock.hpp: Table 1, Procedures 1-3 of
// Abts & Weisser (SC'07), and the hardware age arithmetic against an ideal
// age model over random schedules with rollovers and inhibited periods.
#include "support/interlock_test.hpp"

#include <interlock/arbiters/age_clock.hpp>

#include <vector>

using interlock::age_bias;
using interlock::age_clock;
using interlock::age_field;
using interlock::output_age;
using interlock::receive_packet;
using interlock::saturation_rule;
using interlock::send_packet;

namespace {
void ticks(age_clock& clock, int n) {
  for (int i = 0; i < n; ++i) clock.tick();
}
}  // namespace

TEST_CASE("Table 1: the 11-bit age field", "[age_clock]") {
  const age_field f = age_field::from_bits(0x7FF | 0x800);  // bits above 10 are dropped
  CHECK(f.bits() == 0x7FF);
  CHECK(f.age() == 0xFF);
  CHECK(f.carry());
  CHECK(f.in_epoch() == 1);
  CHECK(f.difference() == 0x1FF);
  CHECK(age_field::with_age(40).bits() == 40);
}

TEST_CASE("Procedure 1: bias by VC class, saturation at 255, epoch and difference in the header",
          "[age_clock]") {
  age_clock clock(1);
  const age_bias bias{3, 1};
  const age_field request =
      receive_packet(age_field::with_age(40), 1, bias, clock);  // VC1: REQ bias
  CHECK(request.difference() == 43);                            // timestamp 0
  CHECK_FALSE(request.carry());
  CHECK(request.in_epoch() == 0);
  const age_field response =
      receive_packet(age_field::with_age(40), 2, bias, clock);  // VC2: RSP bias
  CHECK(response.difference() == 41);
  const age_field saturated = receive_packet(age_field::with_age(250), 0, age_bias{7, 7}, clock);
  CHECK(saturated.difference() == 255);
  CHECK(clock.packet_count(0) == 3);  // line 10
  // Bit 10 is not used by the algorithm and is left as it came.
  CHECK((receive_packet(age_field::from_bits(0x400 | 5), 0, bias, clock).bits() & 0x400) != 0);
}

TEST_CASE("Procedure 1 line 12: age - timestamp in 9 bits, its sign in the carry bit",
          "[age_clock]") {
  age_clock clock(1);
  ticks(clock, 20);
  REQUIRE(clock.timestamp() == 20);
  const age_field f = receive_packet(age_field::with_age(9), 0, age_bias{1, 1}, clock);  // age 10
  CHECK(f.difference() == ((10 - 20) & 0x1FF));
  CHECK(f.carry());  // negative difference
  ticks(clock, 5);
  CHECK(output_age(f, clock).new_age == 15);  // 10 + 5 age ticks
}

TEST_CASE("Procedure 3: the countdown, the timestamp and a write to AGE_CLK_PERIOD",
          "[age_clock]") {
  age_clock clock(3);
  CHECK(clock.countdown() == 3);
  ticks(clock, 2);
  CHECK(clock.timestamp() == 0);
  CHECK(clock.countdown() == 1);
  clock.tick();  // expiry: reload and increment
  CHECK(clock.timestamp() == 1);
  CHECK(clock.countdown() == 3);
  clock.tick();
  clock.write_period(10);  // the internal register is loaded at once
  CHECK(clock.countdown() == 10);
  ticks(clock, 9);
  CHECK(clock.timestamp() == 1);
  clock.tick();
  CHECK(clock.timestamp() == 2);
  CHECK_THROWS_WITH(age_clock(0),
                    "age_clock: AGE_CLK_PERIOD = 0; allowed: 1..4294967295 clock "
                    "ticks per age tick");
  CHECK_THROWS_AS(clock.write_period(0), interlock::config_error);
  CHECK(clock.period() == 10);  // a rejected write changes nothing
}

TEST_CASE("Procedure 3: the epoch switches at a rollover when the other epoch is empty",
          "[age_clock]") {
  age_clock clock(1);
  ticks(clock, 255);
  CHECK(clock.timestamp() == 255);
  CHECK(clock.epoch() == 0);
  clock.tick();
  CHECK(clock.timestamp() == 0);
  CHECK(clock.epoch() == 1);
  CHECK_FALSE(clock.inhibit());
  CHECK(clock.age_ticks() == 256);
}

TEST_CASE("Procedure 3: an inhibited rollover waits for the old epoch to drain", "[age_clock]") {
  age_clock clock(4);
  const age_bias bias{0, 0};
  const age_field old = receive_packet(age_field::with_age(0), 0, bias, clock);  // epoch 0, ts 0
  ticks(clock, 256 * 4);  // first rollover: epoch 1 is empty, so it switches
  REQUIRE(clock.epoch() == 1);
  REQUIRE(clock.timestamp() == 0);
  CHECK(output_age(old, clock).rollover);
  CHECK(output_age(old, clock).new_age == 255);  // 256 age ticks: saturated
  ticks(clock, 255 * 4);
  REQUIRE(clock.timestamp() == 255);
  ticks(clock, 4);  // second rollover: epoch 0 still holds `old`
  CHECK(clock.inhibit());
  CHECK(clock.epoch() == 1);
  CHECK(clock.timestamp() == 255);
  const std::uint32_t frozen = clock.countdown();
  ticks(clock, 100);  // inhibited: no countdown, no timestamp
  CHECK(clock.inhibit());
  CHECK(clock.countdown() == frozen);
  CHECK(clock.timestamp() == 255);
  send_packet(old, clock);  // the old epoch drains
  CHECK(clock.packet_count(0) == 0);
  clock.tick();  // lines 1-5: inhibit clears, nothing else
  CHECK_FALSE(clock.inhibit());
  CHECK(clock.epoch() == 1);
  ticks(clock, 3);
  CHECK(clock.epoch() == 1);
  clock.tick();  // the countdown expires again: now the switch happens
  CHECK(clock.epoch() == 0);
  CHECK(clock.timestamp() == 0);
}

TEST_CASE("Procedure 2: rollover, the 10-bit sum and saturation", "[age_clock]") {
  age_clock clock(1);
  const age_bias none{0, 0};
  const age_field f = receive_packet(age_field::with_age(200), 0, none, clock);  // ts 0
  ticks(clock, 55);
  auto out = output_age(f, clock);
  CHECK(out.new_age == 255);
  CHECK_FALSE(out.saturation);
  CHECK_FALSE(out.rollover);
  clock.tick();
  out = output_age(f, clock);
  CHECK(out.saturation);
  CHECK(out.sum == 256);
  CHECK(out.new_age == 255);
  // send_packet stuffs the new age into bits [7:0] and decrements the count.
  const age_field sent = send_packet(f, clock);
  CHECK(sent.age() == 255);
  CHECK(clock.packet_count(0) == 0);
}

TEST_CASE("Procedure 2 line 8: the printed saturation rule disagrees with the ideal age",
          "[age_clock]") {
  // Corner 1: a packet that arrives with an age below the timestamp has a
  // negative difference (carry set); the 10-bit sum then has bit 9 set, and
  // the rule as printed saturates it at once.
  age_clock clock(1);
  ticks(clock, 20);
  const age_field young = receive_packet(age_field::with_age(10), 0, age_bias{0, 0}, clock);
  ticks(clock, 5);
  CHECK(output_age(young, clock, saturation_rule::corrected).new_age == 15);
  CHECK(output_age(young, clock, saturation_rule::as_printed).new_age == 255);

  // Corner 2: a packet with a non-negative difference that waits across an
  // epoch switch until its true age is 512 or more: the printed rule misses
  // the overflow and the age wraps to a small number.
  age_clock c2(1);
  const age_field waiting = receive_packet(age_field::with_age(1), 0, age_bias{0, 0}, c2);  // ts 0
  ticks(c2, 256 + 255);  // one switch, then timestamp 255: 1 + 511 age ticks = 512
  REQUIRE(output_age(waiting, c2).rollover);
  CHECK(output_age(waiting, c2, saturation_rule::corrected).new_age == 255);
  CHECK(output_age(waiting, c2, saturation_rule::as_printed).new_age == 0);
}

TEST_CASE("age_clock: packet counters stay within 0..2047", "[age_clock][contract]") {
  age_clock clock(1);
  for (int i = 0; i < 2047; ++i) clock.admit();
  CHECK(clock.packet_count(0) == 2047);
  CHECK_THROWS_AS(clock.admit(), interlock::contract_violation);
  CHECK(clock.packet_count(0) == 2047);
  age_clock empty(1);
  CHECK_THROWS_AS(empty.release(1), interlock::contract_violation);
  CHECK(empty.packet_count(1) == 0);
}

TEST_CASE("age_bias: 3-bit fields of PORT_CONFIG", "[age_clock][config]") {
  const age_bias b{5, 2};
  CHECK(age_bias::from_port_config(b.port_config_bits()) == b);
  CHECK(b.port_config_bits() == (std::uint64_t{5} << 61 | std::uint64_t{2} << 58));
  CHECK(b.for_vc(0) == 5);
  CHECK(b.for_vc(3) == 2);
  CHECK_NOTHROW(age_bias{0, 7});
  // A bias outside the 3-bit field is refused where it enters: it cannot
  // reach receive_packet, which would otherwise age a packet by 8 & 7 = 0.
  CHECK_THROWS_WITH((age_bias{8, 1, "port +x"}), "port +x: REQ_AGE_BIAS = 8; allowed: 0..7");
  CHECK_THROWS_WITH((age_bias{1, 9}), "age_bias: RSP_AGE_BIAS = 9; allowed: 0..7");
  CHECK(age_bias{}.request() == 1);
  CHECK(age_bias{}.response() == 1);
}

namespace {

// One outstanding packet and what the ideal model knows of it.
struct tracked {
  age_field field;
  unsigned ideal_on_arrival;  // min(255, header age + bias)
  std::uint64_t ticks_on_arrival;
};

unsigned ideal_age(const tracked& p, const age_clock& clock) {
  const std::uint64_t age = p.ideal_on_arrival + (clock.age_ticks() - p.ticks_on_arrival);
  return age > 255 ? 255u : static_cast<unsigned>(age);
}

}  // namespace

TEST_CASE("age_clock: the hardware age equals the ideal age over random schedules",
          "[age_clock][property]") {
  rc::prop("output_age == min(255, age on arrival + bias + age ticks since arrival)", [] {
    // RapidCheck draws the schedule's parameters and a seed; the schedule
    // itself (thousands of events) comes from a generator seeded with it.
    age_clock clock(*rc::gen::inRange<std::uint32_t>(1, 4));
    const auto steps = *rc::gen::inRange(500, 4000);
    const auto arrival_permille = *rc::gen::inRange<std::uint64_t>(5, 120);
    const auto departure_permille = *rc::gen::inRange<std::uint64_t>(1, 120);
    // Departures take a uniformly chosen packet, or the newest (so that old
    // packets linger across epoch switches and inhibited rollovers).
    const bool newest_first = *rc::gen::arbitrary<bool>();
    interlock_test::splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    std::vector<tracked> outstanding;
    bool saw_inhibit = false, saw_rollover = false;
    std::uint64_t longest = 0;
    for (int s = 0; s < steps; ++s) {
      const std::uint64_t roll = rng.below(1000);
      if (roll < arrival_permille && outstanding.size() < 200) {
        const auto header = static_cast<unsigned>(rng.below(256));
        const auto vc = static_cast<unsigned>(rng.below(4));
        const age_bias bias{static_cast<unsigned>(rng.below(8)),
                            static_cast<std::uint8_t>(rng.below(8))};
        const unsigned ideal = std::min(255u, header + bias.for_vc(vc));
        outstanding.push_back(
            {receive_packet(age_field::with_age(static_cast<std::uint8_t>(header)), vc, bias,
                            clock),
             ideal, clock.age_ticks()});
      } else if (roll < arrival_permille + departure_permille && !outstanding.empty()) {
        const auto k = newest_first && rng.below(8) != 0
                           ? outstanding.size() - 1
                           : static_cast<std::size_t>(rng.below(outstanding.size()));
        const tracked p = outstanding[k];
        saw_rollover = saw_rollover || output_age(p.field, clock).rollover;
        RC_ASSERT(output_age(p.field, clock).new_age == ideal_age(p, clock));
        RC_ASSERT(send_packet(p.field, clock).age() == ideal_age(p, clock));
        outstanding.erase(outstanding.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        clock.tick();
        saw_inhibit = saw_inhibit || clock.inhibit();
      }
      RC_ASSERT(clock.packet_count(0) + clock.packet_count(1) == outstanding.size());
      if (s % 16 == 0)
        for (const tracked& p : outstanding) {
          RC_ASSERT(output_age(p.field, clock).new_age == ideal_age(p, clock));
          longest = std::max(longest, clock.age_ticks() - p.ticks_on_arrival);
        }
    }
    RC_CLASSIFY(saw_inhibit, "inhibited rollover");
    RC_CLASSIFY(saw_rollover, "departure after an epoch switch");
    RC_CLASSIFY(longest > 256, "a packet outstanding for more than 256 age ticks");
  });
}

TEST_CASE("tick_idle(n) leaves an empty clock as n ticks do, counters included",
          "[age_clock][property]") {
  rc::prop("tick_idle(n) == n x tick()", [] {
    const auto period = *rc::gen::inRange<std::uint32_t>(1, 40);
    age_clock a(period);
    // Some history first: packets admitted and released (an inhibit may be
    // pending when the last one leaves), and ticks.
    const auto warm = *rc::gen::inRange(0, 30000);
    std::vector<unsigned> held;
    for (int i = 0; i < warm; ++i) {
      if (i % 97 == 0) held.push_back(a.admit());
      if (i % 131 == 0 && !held.empty()) {
        a.release(held.back());
        held.pop_back();
      }
      a.tick();
    }
    while (!held.empty()) {
      a.release(held.back());
      held.pop_back();
    }
    age_clock b = a;
    const auto n = *rc::gen::inRange<std::uint64_t>(0, 200000);
    for (std::uint64_t i = 0; i < n; ++i) a.tick();
    b.tick_idle(n);
    RC_ASSERT(a == b);
    RC_ASSERT(a.age_ticks() == b.age_ticks());
    RC_ASSERT(a.epoch_switches() == b.epoch_switches());
    RC_ASSERT(a.inhibited_ticks() == b.inhibited_ticks());
  });
}

TEST_CASE("the clock counts its epoch switches and inhibited ticks", "[age_clock]") {
  age_clock clock(1);
  const unsigned e = clock.admit();  // a packet of epoch 0
  ticks(clock, 256);                 // 255 increments, then the switch to epoch 1
  CHECK(clock.epoch_switches() == 1);
  ticks(clock, 256);  // the next rollover waits: epoch 0 still holds the packet
  CHECK(clock.inhibit());
  ticks(clock, 10);
  CHECK(clock.inhibited_ticks() == 10);
  clock.release(e);
  ticks(clock, 1);  // the inhibit lifts
  CHECK_FALSE(clock.inhibit());
  ticks(clock, 1);  // the switch
  CHECK(clock.epoch_switches() == 2);
  CHECK(clock.epoch() == 0);
  CHECK(clock.inhibited_ticks() == 11);
}

TEST_CASE(
    "reading(k) is the timestamp and epoch of k age ticks back, through rollovers and "
    "inhibits",
    "[age_clock][property]") {
  rc::prop("reading(age ticks since t) == the reading at t, for the last 255 age ticks", [] {
    age_clock clock(*rc::gen::inRange<std::uint32_t>(1, 3));
    interlock_test::splitmix rng(*rc::gen::arbitrary<std::uint64_t>());
    // An outstanding packet in an old epoch now and then, so that some
    // rollovers are inhibited (inhibited ticks move neither field).
    std::vector<interlock::age_reading> at;  // at[n]: the reading after the n-th age tick
    at.push_back(clock.reading());
    std::vector<unsigned> epochs;
    bool saw_inhibit = false;
    for (int s = 0; s < 3000; ++s) {
      const std::uint64_t roll = rng.below(100);
      if (roll < 3) {
        epochs.push_back(clock.admit());
      } else if (roll < 6 && !epochs.empty()) {
        clock.release(epochs.back());
        epochs.pop_back();
      } else {
        clock.tick();
        saw_inhibit = saw_inhibit || clock.inhibit();
      }
      while (at.size() <= clock.age_ticks()) at.push_back(clock.reading());
      if (s % 8 != 0) continue;  // every eighth step looks back over the last 255 age ticks
      const std::uint64_t now = clock.age_ticks();
      for (std::uint64_t k = 0; k < 256 && k <= now; ++k) {
        const interlock::age_reading then = at[static_cast<std::size_t>(now - k)];
        RC_ASSERT(clock.reading(k).timestamp == then.timestamp);
        RC_ASSERT(clock.reading(k).epoch == then.epoch);
      }
    }
    RC_CLASSIFY(saw_inhibit, "inhibited rollover");
  });
}

TEST_CASE("Procedure 1 run late with reading(k) stores what it would have stored on arrival",
          "[age_clock]") {
  // Two clocks in step; one learns of each arrival some age ticks late. A
  // packet leaves before the next arrives.
  for (const std::uint32_t period : {1u, 3u}) {
    age_clock on_time(period), late(period);
    const age_bias bias{2, 5};
    for (int arrival = 0; arrival < 40; ++arrival) {
      const std::uint64_t ticks_at_arrival = on_time.age_ticks();
      const age_field header = age_field::with_age(static_cast<std::uint8_t>(arrival * 29 % 256));
      const age_field stored = receive_packet(header, 1, bias, on_time);
      // Up to 254 age ticks: Procedure 1 run late is exact while the packet
      // has not lived through two rollovers (the second would have checked
      // its epoch; see age_clock::reading).
      const int wait = arrival * 37 % static_cast<int>(255 * period);
      ticks(on_time, wait);
      ticks(late, wait);
      const interlock::age_reading then = late.reading(late.age_ticks() - ticks_at_arrival);
      const age_field learnt = interlock::stored_age_field(header, 1, bias, then);
      late.admit(then.epoch);
      CHECK(learnt.bits() == stored.bits());
      CHECK(output_age(learnt, late).new_age == output_age(stored, on_time).new_age);
      CHECK(send_packet(learnt, late).bits() == send_packet(stored, on_time).bits());
      CHECK(late == on_time);
    }
  }
}
