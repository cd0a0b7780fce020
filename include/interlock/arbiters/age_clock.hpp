// SPDX-License-Identifier: BSL-1.0
// interlock/arbiters/age_clock.hpp: the Cray XT (SeaStar) packet-aging mechanism, bit for bit.
//
// Models Abts & Weisser, "Age-based packet arbitration in large-radix k-ary
// n-cubes" (SC'07), Section 2: Table 1 (the 11-bit header age field), Table 2
// (variables), Procedure 1 (input port), Procedure 2 (age at the output) and
// Procedure 3 (age clock and epochs).
//
//   age_field      the 11 header bits: age[7:0], carry (bit 8), in epoch
//                  (bit 9), bit 10 unused. Between input and output,
//                  bits [8:0] hold the 9-bit two's-complement difference
//                  age - timestamp; bit 8 is its sign, which Table 1 calls
//                  the carry.
//   age_clock      the chip-wide state of Procedure 3: AGE_CLK_PERIOD and
//                  its internal countdown age_clk_period_reg (32 bits), the
//                  8-bit timestamp, the epoch bit, packet_count[0..1]
//                  (0..2047) and the inhibit flag.
//   age_bias       REQ_AGE_BIAS / RSP_AGE_BIAS of one port (3 bits each,
//                  PORT_CONFIG[63:61] and [60:58]; default 1).
//   receive_packet Procedure 1; output_age Procedure 2 lines 1-11;
//                  send_packet Procedure 2 lines 13-14.
//   age_reading    the timestamp and epoch an arrival reads; reading(k)
//                  gives the one k age ticks back, so a model that learns
//                  of an arrival late runs Procedure 1 as it would have
//                  then (stored_age_field, admit(epoch)).
//
// Contract
//   - Ages are 0..255 and saturate. The timestamp advances one age tick per
//     AGE_CLK_PERIOD clock ticks, and never while inhibited.
//   - The epoch switches on a timestamp rollover (255 -> 0) only when the
//     other epoch has no outstanding packet; otherwise the clock is
//     inhibited: the countdown and the timestamp stop, age arbitration is
//     suspended, and each tick re-checks the old epoch. Once it has drained,
//     the countdown resumes from its reloaded value, and the switch happens
//     at the next expiry (Procedure 3 exactly).
//   - Consequence (the guarantee the epochs buy): a packet is outstanding
//     across at most one epoch switch, so it accrues at most 511 age ticks,
//     and output_age equals the ideal age min(255, age on arrival + bias +
//     age ticks since arrival) for every packet (a property test).
//   - A write to AGE_CLK_PERIOD (write_period) also loads the internal
//     countdown, as Section 2.3.3 says.
//   - Decision paths do not allocate or throw; a packet_count that would
//     leave 0..2047 is a contract violation and otherwise stays at the
//     bound.
//
// The saturation rule. Procedure 2 line 8, as printed, saturates when
// new_age[8] = 1 OR (new_age[9] = 1 AND head flit[8] = 1). With bits [8:0]
// holding the two's-complement difference (Procedure 1 line 12 and Table 1),
// a packet whose age was below the timestamp when it arrived has bit 8 set
// and a 10-bit sum with bit 9 set, so the printed rule would saturate every
// such packet at once; and a packet with bit 8 clear whose true age reaches
// 512..766 (possible after an epoch switch) would not saturate and would
// wrap. The rule that agrees with the ideal age for every packet the epochs
// allow is new_age[8] = 1 OR (new_age[9] = 1 AND head flit[8] = 0): with a
// non-negative difference the sum is the age itself; with a negative one
// bit 9 is the cancelled borrow. saturation_rule::corrected (the default)
// implements that; saturation_rule::as_printed keeps the printed rule so the
// difference can be reproduced (tests/arbiters/age_clock_test.cpp shows
// both).
//   - Save and restore: state(ar) (core/state_io.hpp): AGE_CLK_PERIOD,
//     the countdown (1..period), the timestamp, epoch and inhibit flag, both
//     packet counts (0..2047) and the reference counts.
//
// Example
//   interlock::age_clock clock(18);                    // AGE_CLK_PERIOD = 18
//   interlock::age_field f = interlock::receive_packet(
//       interlock::age_field::with_age(40), /*vc=*/0, interlock::age_bias{3, 1}, clock);
//   for (int t = 0; t < 36; ++t) clock.tick();         // two age ticks
//   assert(interlock::output_age(f, clock).new_age == 45);
//   f = interlock::send_packet(f, clock);              // age 45 leaves in the header
#ifndef INTERLOCK_ARBITERS_AGE_CLOCK_HPP
#define INTERLOCK_ARBITERS_AGE_CLOCK_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "interlock/core/assert.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/state_io.hpp"

namespace interlock {

/// The 11-bit packet age field of the SeaStar header flit (Table 1).
class age_field {
 public:
  static constexpr std::uint16_t mask = 0x7FF;

  constexpr age_field() noexcept = default;
  /// From the 11 header bits (higher bits dropped).
  static constexpr age_field from_bits(std::uint16_t bits) noexcept {
    age_field f;
    f.bits_ = static_cast<std::uint16_t>(bits & mask);
    return f;
  }
  /// A header carrying `age` in bits [7:0], the other bits clear.
  static constexpr age_field with_age(std::uint8_t age) noexcept { return from_bits(age); }

  constexpr std::uint16_t bits() const noexcept { return bits_; }
  /// age[7:0]: the packet age as it travels between routers.
  constexpr std::uint8_t age() const noexcept { return static_cast<std::uint8_t>(bits_ & 0xFF); }
  /// Bit 8: the carry of age - timestamp (the sign of the 9-bit difference).
  constexpr bool carry() const noexcept { return (bits_ >> 8 & 1u) != 0; }
  /// Bit 9: the epoch in which the packet was received at the input.
  constexpr unsigned in_epoch() const noexcept { return bits_ >> 9 & 1u; }
  /// Bits [8:0]: the stored age - timestamp, as 9 bits.
  constexpr std::uint16_t difference() const noexcept {
    return static_cast<std::uint16_t>(bits_ & 0x1FF);
  }

  friend constexpr bool operator==(age_field a, age_field b) noexcept { return a.bits_ == b.bits_; }
  friend constexpr bool operator!=(age_field a, age_field b) noexcept { return a.bits_ != b.bits_; }

 private:
  std::uint16_t bits_ = 0;
};

/// One port's age biases: REQ_AGE_BIAS (VC0/VC1) and RSP_AGE_BIAS (VC2/VC3),
/// 3-bit fields (0..7) validated where they enter: a bias outside them is a
/// config_error at construction, so no packet can be aged by a truncated one.
class age_bias {
 public:
  static constexpr std::uint8_t max = 7;  // 3-bit fields

  /// REQ_AGE_BIAS and RSP_AGE_BIAS (default 1 each); config_error unless 0..7.
  constexpr age_bias(unsigned request = 1, unsigned response = 1,
                     const char* component = "age_bias")
      : request_(checked(request, component, "REQ_AGE_BIAS")),
        response_(checked(response, component, "RSP_AGE_BIAS")) {}

  constexpr std::uint8_t request() const noexcept { return request_; }
  constexpr std::uint8_t response() const noexcept { return response_; }
  /// The bias for a packet that arrived on `vc` (0..3): request for VC0/VC1.
  constexpr std::uint8_t for_vc(unsigned vc) const noexcept {
    return vc < 2 ? request_ : response_;
  }

  /// The biases as they sit in the PORT_CONFIG register: [63:61] and [60:58].
  constexpr std::uint64_t port_config_bits() const noexcept {
    return std::uint64_t{request_} << 61 | std::uint64_t{response_} << 58;
  }
  static constexpr age_bias from_port_config(std::uint64_t port_config) noexcept {
    return age_bias(static_cast<unsigned>(port_config >> 61 & 7u),
                    static_cast<unsigned>(port_config >> 58 & 7u));
  }
  friend constexpr bool operator==(age_bias a, age_bias b) noexcept {
    return a.request_ == b.request_ && a.response_ == b.response_;
  }
  friend constexpr bool operator!=(age_bias a, age_bias b) noexcept { return !(a == b); }

 private:
  static constexpr std::uint8_t checked(unsigned value, const char* component, const char* field) {
    if (value > max) throw config_error(component, field, std::to_string(value), "0..7");
    return static_cast<std::uint8_t>(value);
  }
  std::uint8_t request_;
  std::uint8_t response_;
};

/// What a packet arriving at one moment reads from the age clock: the
/// 8-bit timestamp and the epoch bit.
struct age_reading {
  std::uint8_t timestamp = 0;
  unsigned epoch = 0;
};

/// Procedure 3: the chip-wide age clock, epochs and packet counters.
class age_clock {
 public:
  static constexpr std::uint16_t max_packet_count = 2047;  // 11-bit counters (Table 2)

  /// AGE_CLK_PERIOD in clock ticks per age tick; config_error unless 1..2^32-1.
  explicit age_clock(std::uint32_t age_clk_period) { write_period(age_clk_period); }

  /// A write to the AGE_CLK_PERIOD MMR: the internal countdown
  /// age_clk_period_reg is loaded with the new value too.
  void write_period(std::uint32_t age_clk_period) {
    if (age_clk_period == 0) {
      throw config_error("age_clock", "AGE_CLK_PERIOD", "0",
                         "1..4294967295 clock ticks per age tick");
    }
    period_ = age_clk_period;
    countdown_ = age_clk_period;
  }

  /// One tick of the system clock (Procedure 3).
  void tick() noexcept {
    if (inhibit_) {  // lines 1-5: wait until the other epoch has drained
      ++inhibited_ticks_;
      inhibit_ = other_epoch_busy();
      return;
    }
    if (--countdown_ != 0) return;  // lines 7-8
    countdown_ = period_;           // line 9
    if (timestamp_ != 255) {        // line 19
      ++timestamp_;
      ++age_ticks_;
      return;
    }
    inhibit_ = other_epoch_busy();  // lines 11-13
    if (!inhibit_) {                // lines 15-16
      timestamp_ = 0;
      ++age_ticks_;
      ++epoch_switches_;
      epoch_ ^= 1u;
    }
  }

  /// `n` ticks of a clock whose epochs hold no packet (packet_count 0 in
  /// both), in O(1): the same state as n calls of tick(). For models that
  /// skip the cycles of an empty router or network.
  void tick_idle(std::uint64_t n) noexcept {
    INTERLOCK_ASSERT(count_[0] == 0 && count_[1] == 0, "tick_idle needs empty epochs");
    if (n == 0) return;
    if (inhibit_) {  // the other epoch is empty: the first tick lifts the inhibit
      ++inhibited_ticks_;
      inhibit_ = false;
      --n;
    }
    if (n < countdown_) {
      countdown_ -= static_cast<std::uint32_t>(n);
      return;
    }
    n -= countdown_;
    const std::uint64_t age_ticks = 1 + n / period_;
    countdown_ = static_cast<std::uint32_t>(period_ - n % period_);
    // Each age tick increments the timestamp, or at 255 switches the epoch
    // (never inhibited: the other epoch is empty) and restarts it at 0.
    const std::uint64_t position = timestamp_ + age_ticks;
    timestamp_ = static_cast<std::uint8_t>(position % 256);
    epoch_ ^= static_cast<unsigned>((position / 256) & 1u);
    epoch_switches_ += position / 256;
    age_ticks_ += age_ticks;
  }

  std::uint32_t period() const noexcept { return period_; }
  /// age_clk_period_reg: clock ticks left until the next age tick.
  std::uint32_t countdown() const noexcept { return countdown_; }
  std::uint8_t timestamp() const noexcept { return timestamp_; }
  unsigned epoch() const noexcept { return epoch_; }
  /// True while an epoch switch waits for the old epoch to drain; age
  /// arbitration is suspended meanwhile.
  bool inhibit() const noexcept { return inhibit_; }
  std::uint16_t packet_count(unsigned e) const noexcept { return count_[e & 1u]; }
  /// Age ticks (timestamp increments) since construction; not a hardware
  /// register, a reference for models and tests.
  std::uint64_t age_ticks() const noexcept { return age_ticks_; }
  /// Epoch switches, and ticks spent inhibited (waiting for the old epoch to
  /// drain), since construction; references for models, like age_ticks().
  std::uint64_t epoch_switches() const noexcept { return epoch_switches_; }
  std::uint64_t inhibited_ticks() const noexcept { return inhibited_ticks_; }

  /// Procedure 1 line 10: one more packet in the current epoch; returns it.
  unsigned admit() { return admit(epoch_); }
  /// Procedure 1 line 10 for an arrival a model learns of late (see
  /// reading()): one more packet in epoch `e`, the epoch of the arrival.
  unsigned admit(unsigned e) {
    std::uint16_t& c = count_[e & 1u];
    INTERLOCK_ASSERT(c < max_packet_count, "packet_count would exceed 2047");
    if (c < max_packet_count) ++c;
    return e & 1u;
  }

  /// The timestamp and epoch as they were `ticks_ago` age ticks back (0:
  /// now). Every age tick increments the timestamp or, from 255, restarts it
  /// at 0 in the other epoch; inhibited ticks move neither. For a model that
  /// learns of an arrival after the clock has moved on (a simulator that
  /// shows a router a packet only at the head of its queue): with the age
  /// ticks since the arrival, Procedure 1 can run as it would have then
  /// (stored_age_field, admit(e)). The reading is exact for ticks_ago < 256
  /// (older ones repeat every 512 age ticks). Running Procedure 1 late gives
  /// the clock the state it would have had unless a rollover in between
  /// checked the packet's epoch (the second rollover after the arrival), which
  /// the late admission could not inhibit.
  age_reading reading(std::uint64_t ticks_ago = 0) const noexcept {
    const std::uint64_t wraps =
        ticks_ago <= timestamp_ ? 0 : 1 + (ticks_ago - timestamp_ - 1) / 256;
    return age_reading{static_cast<std::uint8_t>((timestamp_ + 256 - ticks_ago % 256) % 256),
                       epoch_ ^ static_cast<unsigned>(wraps & 1u)};
  }
  /// Procedure 2 line 14: a packet of epoch `in_epoch` has left.
  void release(unsigned in_epoch) {
    std::uint16_t& c = count_[in_epoch & 1u];
    INTERLOCK_ASSERT(c > 0, "packet_count would go below 0");
    if (c > 0) --c;
  }

  /// Save and restore (core/state_io.hpp): AGE_CLK_PERIOD, the countdown
  /// (1..period), the timestamp, the epoch, the inhibit flag, the two
  /// packet counts (0..2047) and the three reference counts.
  template <class Archive>
  void state(Archive& ar) {
    ar.object("AGEC", "age_clock", 0);
    ar.u32("AGE_CLK_PERIOD", period_, state_range{1, 0xFFFFFFFFu});
    ar.u32("countdown", countdown_, state_range{1, period_});
    ar.u8("timestamp", timestamp_);
    ar.u8("epoch", epoch_, state_range{0, 1});
    ar.flag("inhibit", inhibit_);
    ar.u16("packet_count[0]", count_[0], state_range{0, max_packet_count});
    ar.u16("packet_count[1]", count_[1], state_range{0, max_packet_count});
    ar.u64("age_ticks", age_ticks_);
    ar.u64("epoch_switches", epoch_switches_);
    ar.u64("inhibited_ticks", inhibited_ticks_);
  }

  friend bool operator==(const age_clock& a, const age_clock& b) noexcept {
    return a.period_ == b.period_ && a.countdown_ == b.countdown_ && a.timestamp_ == b.timestamp_ &&
           a.epoch_ == b.epoch_ && a.inhibit_ == b.inhibit_ && a.count_ == b.count_;
  }

 private:
  // (epoch = 1 AND packet_count[0] > 0) OR (epoch = 0 AND packet_count[1] > 0)
  bool other_epoch_busy() const noexcept { return count_[epoch_ ^ 1u] > 0; }

  std::uint32_t period_ = 1;
  std::uint32_t countdown_ = 1;
  std::uint8_t timestamp_ = 0;
  unsigned epoch_ = 0;
  bool inhibit_ = false;
  std::array<std::uint16_t, 2> count_{};
  std::uint64_t age_ticks_ = 0;
  std::uint64_t epoch_switches_ = 0;
  std::uint64_t inhibited_ticks_ = 0;
};

/// Procedure 1 lines 1-9, 11-12 for a packet that arrived while the clock
/// read `at`: the field stored with it (the epoch in bit 9, age -
/// timestamp in bits [8:0], bit 10 as it came). receive_packet is this with
/// the clock's current reading, after admit().
inline age_field stored_age_field(age_field header, unsigned vc, age_bias bias, age_reading at) {
  INTERLOCK_ASSERT(vc < 4, "SeaStar has VC0..VC3");
  unsigned age = header.age() + bias.for_vc(vc);              // lines 1-6
  if (age > 255) age = 255;                                   // lines 7-9
  const unsigned difference = (age - at.timestamp) & 0x1FFu;  // line 12, 9 bits
  return age_field::from_bits(static_cast<std::uint16_t>(
      (header.bits() & 0x400u) | (at.epoch & 1u) << 9 | difference));  // line 11
}

/// Procedure 1: a packet arrives at an input port on `vc` (0..3). Adds the
/// port's bias for the VC class, saturates at 255, counts the packet in the
/// current epoch, and returns the header field with the epoch in bit 9 and
/// age - timestamp in bits [8:0]. Bit 10 is left as it came.
inline age_field receive_packet(age_field header, unsigned vc, age_bias bias, age_clock& clock) {
  const unsigned epoch = clock.admit();  // line 10
  return stored_age_field(header, vc, bias, age_reading{clock.timestamp(), epoch});
}

/// How Procedure 2 line 8 decides saturation (see the header comment).
enum class saturation_rule {
  corrected,   // new_age[8] OR (new_age[9] AND NOT carry): agrees with the ideal age
  as_printed,  // new_age[8] OR (new_age[9] AND carry): the rule as the paper prints it
};

/// Procedure 2 lines 1-11 for one packet at the head of a staging buffer.
struct output_age_result {
  std::uint8_t new_age;  // the age the arbiter compares and the header carries out
  bool saturation;
  bool rollover;
  std::uint16_t sum;  // new_age[9:0] before saturation
};

inline output_age_result output_age(age_field f, const age_clock& clock,
                                    saturation_rule rule = saturation_rule::corrected) noexcept {
  const unsigned rollover = f.in_epoch() != clock.epoch() ? 1u : 0u;  // lines 1-6
  const unsigned sum = (f.difference() + (rollover << 8 | clock.timestamp())) & 0x3FFu;  // line 7
  const unsigned carry = f.carry() ? 1u : 0u;
  const unsigned qualifier = rule == saturation_rule::corrected ? carry ^ 1u : carry;
  const bool saturation = (sum >> 8 & 1u) != 0 || ((sum >> 9 & 1u) & qualifier) != 0;  // line 8
  return output_age_result{static_cast<std::uint8_t>(saturation ? 255u : sum & 0xFFu), saturation,
                           rollover != 0, static_cast<std::uint16_t>(sum)};
}

/// Procedure 2 lines 13-14: the packet leaves. Stuffs the new age into bits
/// [7:0] of the header and decrements packet_count[in epoch].
inline age_field send_packet(age_field f, age_clock& clock,
                             saturation_rule rule = saturation_rule::corrected) {
  const output_age_result out = output_age(f, clock, rule);
  clock.release(f.in_epoch());
  return age_field::from_bits(static_cast<std::uint16_t>((f.bits() & 0x700u) | out.new_age));
}

}  // namespace interlock

#endif  // INTERLOCK_ARBITERS_AGE_CLOCK_HPP
