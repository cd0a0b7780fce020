// Decision paths with INTERLOCK_ASSERT compiled out: bad input must take the
// documented fallback, never undefined behaviour (the sanitizer build runs
// this too). This binary defines INTERLOCK_ASSERT itself, as a user may.
#define INTERLOCK_ASSERT(condition, message) static_cast<void>(0)

#include <catch2/catch.hpp>

#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>

using interlock::grant;

TEST_CASE("fallback: request bits at or above N are ignored", "[fallback]") {
  interlock::round_robin_arbiter<4> rr;
  CHECK(rr.arbitrate(0xF0) == grant());
  CHECK(rr.arbitrate(0xF2) == grant(1));
  interlock::priority_arbiter<4, 2> prio;
  interlock::priority_requests<2> r;
  r.levels[1] = 0xF0;
  r.levels[0] = 0x1;
  CHECK(prio.arbitrate(r) == grant(0));
}

TEST_CASE("fallback: committing a grant to a requester that does not exist is a no-op",
          "[fallback]") {
  interlock::round_robin_arbiter<4> rr =
      interlock::round_robin_arbiter<4>::with_highest_priority(1);
  rr.commit(grant(4));
  rr.commit(grant(1000));
  rr.commit(grant());
  CHECK(rr.highest_priority() == 1);
  interlock::dynamic_round_robin_arbiter wide(100);
  wide.commit(grant(100));
  CHECK(wide.highest_priority() == 99);
}

TEST_CASE("fallback: a request view of another size reads only the arbiter's requesters",
          "[fallback]") {
  interlock::dynamic_round_robin_arbiter wide(70);
  interlock::dynamic_request_set longer(200), shorter(10);
  longer.set(150).set(69);
  shorter.set(3);
  CHECK(wide.arbitrate(longer) == grant(69));
  CHECK(wide.arbitrate(shorter) == grant(3));
  interlock::dynamic_request_set set(5);
  set.set(7);  // out of range: ignored
  CHECK(set.none());
}
