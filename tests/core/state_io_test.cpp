// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/core/state_io.hpp: the format, and every way a state is refused.
#include <cstdint>
#include <string>
#include <vector>

#include <interlock/core/state_io.hpp>

#include "support/interlock_test.hpp"

using interlock::restore_state;
using interlock::save_state;
using interlock::state_error;

namespace {

// A policy-shaped type with one field of every width and rule.
struct sample {
  std::uint8_t small = 3;
  std::uint16_t middle = 500;
  std::uint32_t countdown = 7;
  std::uint64_t wide = 0x0123456789abcdefull;
  double real = 0.25;
  bool on = true;
  unsigned narrow = 9;  // saved as 8 bits, 0..9
  std::int32_t debt = -65;

  template <class Archive>
  void state(Archive& ar) {
    ar.object("SMPL", "sample", 2);
    ar.u8("small", small);
    ar.u16("middle", middle, interlock::state_range{0, 1000});
    ar.u32("countdown", countdown, interlock::state_range{1, 100});
    ar.u64("wide", wide);
    ar.f64("real", real,
           interlock::state_rule{[](double v) { return v >= 0 && v < 1; }, "0 <= v < 1"});
    ar.flag("on", on);
    ar.u8("narrow", narrow, interlock::state_range{0, 9});
    ar.i32(
        "debt", debt,
        interlock::state_rule{[](std::int64_t v) { return v >= -100 && v <= 100; }, "-100..100"});
  }
  friend bool operator==(const sample& a, const sample& b) {
    return a.small == b.small && a.middle == b.middle && a.countdown == b.countdown &&
           a.wide == b.wide && a.real == b.real && a.on == b.on && a.narrow == b.narrow &&
           a.debt == b.debt;
  }
};

// A member narrower than its field on the wire.
struct narrow_member {
  std::uint8_t v = 0;
  template <class Archive>
  void state(Archive& ar) {
    ar.object("NRRW", "narrow_member", 0);
    ar.u16("v", v);
  }
};

// Header 5 bytes, object code 4 and size 4: the first field is at byte 13.
constexpr std::size_t first_field = 13;

state_error refusal(const std::vector<std::uint8_t>& bytes) {
  sample s;
  try {
    restore_state(s, bytes);
  } catch (const state_error& e) {
    return e;
  }
  FAIL("the state was accepted");
  return state_error(0, "", "", "", "");
}

}  // namespace

TEST_CASE("state_io: the bytes are the header, the object and little-endian fields") {
  sample s;
  const std::vector<std::uint8_t> bytes = save_state(s);
  const std::vector<std::uint8_t> expected = {
      'I',  'L',  'S',  'T',  1,                       // header, version 1
      'S',  'M',  'P',  'L',  2,    0,    0,    0,     // object code, size 2
      3,                                               // small
      0xf4, 0x01,                                      // middle = 500
      7,    0,    0,    0,                             // countdown
      0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,  // wide
      0,    0,    0,    0,    0,    0,    0xd0, 0x3f,  // 0.25 as IEEE 754
      1,                                               // on
      9,                                               // narrow
      0xbf, 0xff, 0xff, 0xff};                         // debt = -65
  CHECK(bytes == expected);
  std::vector<std::uint8_t> appended = {42};
  save_state(s, appended);
  CHECK(appended.size() == bytes.size() + 1);
}

TEST_CASE("state_io: a restore reads back every field") {
  sample a;
  a.small = 200;
  a.middle = 1000;
  a.countdown = 1;
  a.wide = ~std::uint64_t{0};
  a.real = 0.75;
  a.on = false;
  a.narrow = 0;
  a.debt = 100;
  sample b;
  restore_state(b, save_state(a));
  CHECK(b == a);
}

TEST_CASE("state_io: each malformed part is refused with its byte offset and leaves the object") {
  const std::vector<std::uint8_t> good = save_state(sample{});

  SECTION("a value out of its range names the object, field, value and rule") {
    std::vector<std::uint8_t> bad = good;
    bad[first_field + 3] = 0;  // countdown = 0
    const state_error e = refusal(bad);
    CHECK(e.offset() == first_field + 3);
    CHECK(std::string(e.what()) == "state, byte 16: sample.countdown = 0; allowed: 1..100");
    CHECK(e.object() == "sample");
    CHECK(e.field() == "countdown");
  }
  SECTION("a 16-bit field above its range") {
    std::vector<std::uint8_t> bad = good;
    bad[first_field + 1] = 0xe9;
    bad[first_field + 2] = 0x03;  // middle = 1001
    CHECK(refusal(bad).value() == "1001");
  }
  SECTION("a predicate's description") {
    std::vector<std::uint8_t> bad = good;
    bad[first_field + 22] = 0xf0;  // real = 1.0
    const state_error e = refusal(bad);
    CHECK(e.field() == "real");
    CHECK(e.allowed() == "0 <= v < 1");
  }
  SECTION("a flag other than 0 or 1") {
    std::vector<std::uint8_t> bad = good;
    bad[first_field + 23] = 2;
    CHECK(refusal(bad).field() == "on");
  }
  SECTION("every truncation names the end of the bytes") {
    for (std::size_t n = 0; n < good.size(); ++n) {
      const std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<long>(n));
      const state_error e = refusal(cut);
      CHECK(e.offset() <= n);
      CHECK((e.value() == "the end of the bytes" || e.field() == "header"));
    }
  }
  SECTION("a signed field outside its rule") {
    std::vector<std::uint8_t> bad = good;
    bad[bad.size() - 4] = 0x9b;  // debt = -101
    const state_error e = refusal(bad);
    CHECK(e.value() == "-101");
    CHECK(e.offset() == good.size() - 4);
  }
  SECTION("bytes left over") {
    std::vector<std::uint8_t> bad = good;
    bad.push_back(0);
    const state_error e = refusal(bad);
    CHECK(e.offset() == good.size());
    CHECK(e.field() == "end");
  }
  SECTION("another format, another version") {
    std::vector<std::uint8_t> bad = good;
    bad[0] = 'X';
    CHECK(refusal(bad).field() == "header");
    bad = good;
    bad[4] = 2;
    const state_error e = refusal(bad);
    CHECK(e.offset() == 4);
    CHECK(e.field() == "version");
  }
  SECTION("another object, or another size") {
    std::vector<std::uint8_t> bad = good;
    bad[5] = 'T';
    const state_error e = refusal(bad);
    CHECK(e.offset() == 5);
    CHECK(e.value() == "\"TMPL\"");
    CHECK(e.allowed() == "\"SMPL\"");
    bad = good;
    bad[9] = 3;
    CHECK(refusal(bad).offset() == 9);
    CHECK(refusal(bad).field() == "size");
  }
  SECTION("a field wider than its member") {
    std::vector<std::uint8_t> bytes = save_state(narrow_member{});
    bytes.back() = 1;  // v = 256
    narrow_member m;
    CHECK_THROWS_AS(restore_state(m, bytes), state_error);
  }
  SECTION("the object is unchanged by a refused state") {
    sample changed;
    changed.small = 1;
    std::vector<std::uint8_t> bad = save_state(changed);
    bad[bad.size() - 5] = 10;  // narrow out of range, after the other fields were read
    sample s;
    const sample before = s;
    CHECK_THROWS_AS(restore_state(s, bad), state_error);
    CHECK(s == before);
  }
}
