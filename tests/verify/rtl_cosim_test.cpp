// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/verify/rtl_cosim.hpp, rtl_ports.hpp and rtl_stimulus.hpp
// with models of the port convention written in C++: a model that follows
// the policy passes millions of cycles, and each kind of wrong model is
// caught with the cycle and signal that differ. (tests/rtl/ runs the same
// harness on Verilator's models of the RTL.)
#include "support/interlock_test.hpp"

#include <array>
#include <cstdint>
#include <string>

#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/verify/rtl_cosim.hpp>
#include <interlock/verify/rtl_ports.hpp>
#include <interlock/verify/rtl_stimulus.hpp>

namespace verify = interlock::verify;

namespace {

// A cycle-level model of anton2_priority_arbiter.sv (P levels, 2-bit level
// fields) with ports as Verilator declares them for N = 32: 64-bit level
// vector, 32-bit request and grant. `fault` plants one wrong behaviour.
enum class fault { none, state_on_falling_edge, state_one_too_far, moves_without_commit };

struct priority_model {
  std::uint8_t clk = 0, rst = 0, commit = 0, gnt_valid = 0;
  std::uint32_t req = 0, gnt = 0, state_rr_therm = 0;
  std::uint64_t req_level = 0;
  fault bug = fault::none;
  std::uint8_t last_clk = 0;

  void eval() {
    decide();
    const bool rising = clk && !last_clk, falling = !clk && last_clk;
    last_clk = clk;
    if (bug == fault::state_on_falling_edge ? falling : rising) {
      if (rst) {
        state_rr_therm = 0;
      } else if ((commit || bug == fault::moves_without_commit) && gnt != 0) {
        state_rr_therm = bug == fault::state_one_too_far ? (gnt << 1) - 1 : gnt - 1;
      }
      decide();
    }
  }

  void decide() {
    unsigned top = 0;
    for (int i = 0; i < 32; ++i)
      if ((req >> i) & 1u) top = std::max(top, static_cast<unsigned>(req_level >> (2 * i)) & 3u);
    std::uint32_t at_top = 0;
    for (int i = 0; i < 32; ++i)
      if (((req >> i) & 1u) && ((req_level >> (2 * i)) & 3u) == top) at_top |= 1u << i;
    const std::uint32_t preferred = at_top & state_rr_therm;
    const std::uint32_t pool = preferred != 0 ? preferred : at_top;
    gnt = pool == 0 ? 0 : 1u << interlock::bits::highest_index(pool);
    gnt_valid = gnt != 0;
  }
};

using policy = interlock::priority_arbiter<32, 4>;

std::string run_model(fault bug, std::uint64_t seed, std::uint64_t cycles) {
  priority_model rtl;
  rtl.bug = bug;
  verify::arbiter_properties p;
  p.wait_bound = 31;
  verify::rtl_cosim<priority_model, policy> sim(rtl, policy{}, p);
  verify::rtl_stimulus_stream stream(32, verify::rtl_ports::field_values(policy{}), seed);
  sim.run(stream, cycles);
  return sim.failure();
}

}  // namespace

TEST_CASE("rtl_cosim: a model that follows the policy passes", "[verify][rtl]") {
  rc::prop("the priority model agrees with priority_arbiter<32, 4> cycle by cycle", [] {
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    const std::string failure = run_model(fault::none, seed, interlock_test::sized(20000, 2000));
    RC_ASSERT(failure.empty());
  });
}

TEST_CASE("rtl_cosim: each planted fault is caught with its cycle and signal", "[verify][rtl]") {
  const std::uint64_t cycles = 100000;
  const std::string edge = run_model(fault::state_on_falling_edge, 1, cycles);
  CHECK_THAT(edge, Catch::Contains(" differs: RTL 0x"));
  const std::string far = run_model(fault::state_one_too_far, 1, cycles);
  CHECK_THAT(far, Catch::Contains("state_rr_therm differs"));
  const std::string moves = run_model(fault::moves_without_commit, 1, cycles);
  CHECK_THAT(moves, Catch::Contains("state_rr_therm differs"));
  CHECK_THAT(moves, Catch::Contains("no commit"));
}

TEST_CASE("rtl_cosim: a grant the policy would not make is caught at once", "[verify][rtl]") {
  struct fixed_priority {
    std::uint8_t clk = 0, rst = 0, req = 0, commit = 0, gnt = 0, gnt_valid = 0;
    void eval() {
      gnt = req == 0 ? 0 : static_cast<std::uint8_t>(1u << interlock::bits::highest_index(req));
      gnt_valid = gnt != 0;
    }
  } rtl;
  verify::rtl_cosim<fixed_priority, interlock::round_robin_arbiter<8>> sim(
      rtl, interlock::round_robin_arbiter<8>{});
  verify::rtl_stimulus s;
  s.requests = 0b1001;
  CHECK(sim.cycle(s));
  CHECK_FALSE(sim.cycle(s));
  CHECK(sim.failure() ==
        "cycle 1: gnt differs: RTL 0x8, interlock 0x1 (req 0x9, commit, fields 0,0,0,0,0,0,0,0)");
  CHECK_FALSE(sim.cycle(s));  // stays failed
}

TEST_CASE("rtl_cosim: the oracle judges the RTL's decisions", "[verify][rtl]") {
  // A model that follows round robin passes a wait bound of N - 1 and fails N - 2.
  struct rr_model {
    std::uint8_t clk = 0, rst = 0, req = 0, commit = 0, gnt = 0, gnt_valid = 0, therm = 0, last = 0;
    void eval() {
      if (clk && !last) {
        if (rst)
          therm = 0;
        else if (commit && gnt)
          therm = static_cast<std::uint8_t>(gnt - 1);
      }
      last = clk;
      const std::uint8_t pool = (req & therm) != 0 ? req & therm : req;
      gnt = pool == 0 ? 0 : static_cast<std::uint8_t>(1u << interlock::bits::highest_index(pool));
      gnt_valid = gnt != 0;
    }
  };
  for (const std::size_t bound : {std::size_t{7}, std::size_t{6}}) {
    rr_model rtl;
    verify::arbiter_properties p;
    p.wait_bound = bound;
    verify::rtl_cosim<rr_model, interlock::round_robin_arbiter<8>> sim(
        rtl, interlock::round_robin_arbiter<8>{}, p);
    verify::rtl_stimulus all;
    all.requests = 0xFF;
    for (int t = 0; t < 64; ++t) sim.cycle(all);
    CHECK(sim.passed() == (bound == 7));
    if (bound == 6) CHECK_THAT(sim.failure(), Catch::Contains("wait_bound violated"));
  }
}

TEST_CASE("rtl_ports: bits of integer and word-array ports", "[verify][rtl]") {
  std::array<std::uint32_t, 4> wide{};
  verify::rtl_ports::write(wide, 60, 8, 0xAB);
  CHECK(wide[1] == 0xB0000000u);
  CHECK(wide[2] == 0xAu);
  CHECK(verify::rtl_ports::read(wide, 60, 8) == 0xAB);
  verify::rtl_ports::write(wide, 0, 64, ~std::uint64_t{0});
  CHECK(verify::rtl_ports::read(wide, 0, 64) == ~std::uint64_t{0});
  CHECK(verify::rtl_ports::read(wide, 60, 8) == 0xAF);
  // A field inside one word leaves the word's other bits as they were.
  verify::rtl_ports::write(wide, 36, 8, 0);
  CHECK(wide[1] == 0xFFFFF00Fu);
  CHECK(wide[0] == 0xFFFFFFFFu);
  std::uint16_t narrow = 0;
  verify::rtl_ports::write(narrow, 4, 4, 0x1F);  // only 4 bits are written
  CHECK(narrow == 0xF0);
  CHECK(verify::rtl_ports::read(narrow, 4, 8) == 0xF);
  CHECK(verify::rtl_ports::field_bits(1) == 1);
  CHECK(verify::rtl_ports::field_bits(2) == 1);
  CHECK(verify::rtl_ports::field_bits(3) == 2);
  CHECK(verify::rtl_ports::field_bits(256) == 8);
}

TEST_CASE("rtl_stimulus_stream: every phase appears, fields stay in range", "[verify][rtl]") {
  verify::rtl_stimulus_stream stream(12, 5, 3);
  std::size_t resets = 0, idle = 0, saturated = 0, withheld = 0, suspended = 0;
  for (int t = 0; t < 100000; ++t) {
    const verify::rtl_stimulus s = stream.next();
    REQUIRE((s.requests >> 12) == 0);
    for (std::size_t i = 0; i < 12; ++i) REQUIRE(s.field[i] < 5);
    resets += s.reset;
    idle += s.requests == 0;
    saturated += s.requests == 0xFFF;
    withheld += !s.commit;
    suspended += s.age_suspended;
  }
  CHECK(resets > 10);
  CHECK(idle > 5000);
  CHECK(saturated > 5000);
  CHECK(withheld > 5000);
  CHECK(suspended > 5000);
  CHECK_THROWS_WITH(verify::rtl_stimulus_stream(65, 1, 0), Catch::Contains("requesters = 65"));
  CHECK_THROWS_WITH(verify::rtl_stimulus_stream(8, 0, 0), Catch::Contains("field_values = 0"));
}
