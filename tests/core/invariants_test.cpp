// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/core/invariants.hpp: every named invariant holds where it
// should and fails where it should, so the properties built on them can fail.
#include "support/interlock_test.hpp"

#include <interlock/arbiters/round_robin.hpp>
#include <interlock/core/invariants.hpp>

namespace inv = interlock::invariants;
using interlock::grant;

namespace {

// An arbiter that moves its pointer while deciding: what
// no_state_change_without_commit exists to catch.
struct leaky_arbiter {
  using request_type = std::uint64_t;
  mutable std::size_t pointer = 0;
  interlock::grant arbitrate(std::uint64_t requests) const {
    ++pointer;
    return requests != 0 ? interlock::grant(interlock::bits::lowest_index(requests))
                         : interlock::grant();
  }
  void commit(interlock::grant, std::uint64_t) {}
  interlock::grant grant(std::uint64_t requests) { return arbitrate(requests); }
  std::size_t size() const { return 64; }
  friend bool operator==(const leaky_arbiter& a, const leaky_arbiter& b) {
    return a.pointer == b.pointer;
  }
};

// An arbiter whose commit of no grant is not a no-op.
struct no_grant_moves {
  using request_type = std::uint64_t;
  std::size_t pointer = 0;
  interlock::grant arbitrate(std::uint64_t) const { return interlock::grant(); }
  void commit(interlock::grant, std::uint64_t) { ++pointer; }
  interlock::grant grant(std::uint64_t requests) { return arbitrate(requests); }
  std::size_t size() const { return 64; }
  friend bool operator==(const no_grant_moves& a, const no_grant_moves& b) {
    return a.pointer == b.pointer;
  }
};

}  // namespace

TEST_CASE("invariants: grant_implies_request", "[invariants]") {
  CHECK(inv::grant_implies_request(std::uint64_t{0b0100}, grant(2)));
  CHECK(inv::grant_implies_request(std::uint64_t{0b0100}, grant()));
  CHECK_FALSE(inv::grant_implies_request(std::uint64_t{0b0100}, grant(1)));
  CHECK_FALSE(inv::grant_implies_request(std::uint64_t{~std::uint64_t{0}}, grant(64)));
}

TEST_CASE("invariants: grant_onehot0", "[invariants]") {
  CHECK(inv::grant_onehot0(0));
  CHECK(inv::grant_onehot0(0b1000));
  CHECK_FALSE(inv::grant_onehot0(0b1010));
}

TEST_CASE("invariants: work_conserving", "[invariants]") {
  CHECK(inv::work_conserving(std::uint64_t{0}, grant()));
  CHECK(inv::work_conserving(std::uint64_t{0b1}, grant(0)));
  CHECK_FALSE(inv::work_conserving(std::uint64_t{0b1}, grant()));
  CHECK_FALSE(inv::work_conserving(std::uint64_t{0}, grant(3)));
}

TEST_CASE("invariants: priority_respected", "[invariants]") {
  interlock::priority_requests<2> r;
  r.set(1, 1).set(4, 0);
  CHECK(inv::priority_respected(r, grant(1)));
  CHECK(inv::priority_respected(r, grant()));
  CHECK_FALSE(inv::priority_respected(r, grant(4)));
}

TEST_CASE("invariants: thermometer_coded", "[invariants]") {
  CHECK(inv::thermometer_coded(0, 4));
  CHECK(inv::thermometer_coded(0b1111, 4));
  CHECK_FALSE(inv::thermometer_coded(0b11111, 4));  // more bits than requesters
  CHECK_FALSE(inv::thermometer_coded(0b0101, 4));
}

TEST_CASE("invariants: no_state_change_without_commit", "[invariants]") {
  interlock::round_robin_arbiter<8> rr;
  CHECK(inv::no_state_change_without_commit(rr, std::uint64_t{0b1010}));
  CHECK_FALSE(inv::no_state_change_without_commit(leaky_arbiter{}, std::uint64_t{0b1010}));
  CHECK_FALSE(inv::no_state_change_without_commit(no_grant_moves{}, std::uint64_t{0b1010}));
}
