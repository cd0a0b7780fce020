// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/core/arbiter_traits.hpp: is_arbiter_v accepts the
// library's arbiters and rejects each way of missing the protocol.
// (tests/compile_fail/ checks the messages of require_arbiter.)
#include "support/interlock_test.hpp"

#include <interlock/arbiters/priority.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/core/arbiter_traits.hpp>

// A named namespace: the types are used only in unevaluated contexts, which
// clang reports as unneeded in an anonymous one.
namespace arbiter_traits_test {

struct complete {
  using request_type = std::uint64_t;
  interlock::grant arbitrate(const request_type&) const { return interlock::grant(); }
  void commit(interlock::grant, const std::uint64_t&) {}
  interlock::grant grant(const request_type&) { return interlock::grant(); }
  std::size_t size() const { return 1; }
  friend bool operator==(const complete&, const complete&) { return true; }
};

struct no_request_type {
  interlock::grant arbitrate(const std::uint64_t&) const { return interlock::grant(); }
  void commit(interlock::grant, const std::uint64_t&) {}
  interlock::grant grant(const std::uint64_t&) { return interlock::grant(); }
  std::size_t size() const { return 1; }
  friend bool operator==(const no_request_type&, const no_request_type&) { return true; }
};

struct mutable_arbitrate {
  using request_type = std::uint64_t;
  interlock::grant arbitrate(const request_type&) { return interlock::grant(); }  // not const
  void commit(interlock::grant, const std::uint64_t&) {}
  interlock::grant grant(const request_type&) { return interlock::grant(); }
  std::size_t size() const { return 1; }
  friend bool operator==(const mutable_arbitrate&, const mutable_arbitrate&) { return true; }
};

struct arbitrate_returns_int {
  using request_type = std::uint64_t;
  int arbitrate(const request_type&) const { return 0; }
  void commit(interlock::grant, const std::uint64_t&) {}
  interlock::grant grant(const request_type&) { return interlock::grant(); }
  std::size_t size() const { return 1; }
  friend bool operator==(const arbitrate_returns_int&, const arbitrate_returns_int&) {
    return true;
  }
};

struct no_commit {
  using request_type = std::uint64_t;
  interlock::grant arbitrate(const request_type&) const { return interlock::grant(); }
  interlock::grant grant(const request_type&) { return interlock::grant(); }
  std::size_t size() const { return 1; }
  friend bool operator==(const no_commit&, const no_commit&) { return true; }
};

struct not_comparable {
  using request_type = std::uint64_t;
  interlock::grant arbitrate(const request_type&) const { return interlock::grant(); }
  void commit(interlock::grant, const std::uint64_t&) {}
  interlock::grant grant(const request_type&) { return interlock::grant(); }
  std::size_t size() const { return 1; }
};

}  // namespace arbiter_traits_test

using namespace arbiter_traits_test;

TEST_CASE("is_arbiter_v: the library's arbiters follow the protocol", "[arbiter_traits]") {
  STATIC_REQUIRE(interlock::is_arbiter_v<interlock::round_robin_arbiter<1>>);
  STATIC_REQUIRE(interlock::is_arbiter_v<interlock::round_robin_arbiter<64>>);
  STATIC_REQUIRE(interlock::is_arbiter_v<interlock::dynamic_round_robin_arbiter>);
  STATIC_REQUIRE(interlock::is_arbiter_v<interlock::priority_arbiter<8, 2>>);
  STATIC_REQUIRE(interlock::is_arbiter_v<interlock::dynamic_priority_arbiter<3>>);
  STATIC_REQUIRE(interlock::is_arbiter<complete>::value);
  STATIC_REQUIRE(interlock::require_arbiter<complete>());
}

TEST_CASE("is_arbiter_v: each missing part of the protocol is detected", "[arbiter_traits]") {
  STATIC_REQUIRE_FALSE(interlock::is_arbiter_v<int>);
  STATIC_REQUIRE_FALSE(interlock::is_arbiter_v<no_request_type>);
  STATIC_REQUIRE_FALSE(interlock::is_arbiter_v<mutable_arbitrate>);
  STATIC_REQUIRE_FALSE(interlock::is_arbiter_v<arbitrate_returns_int>);
  STATIC_REQUIRE_FALSE(interlock::is_arbiter_v<no_commit>);
  STATIC_REQUIRE_FALSE(interlock::is_arbiter_v<not_comparable>);
  STATIC_REQUIRE_FALSE(interlock::detail::has_const_arbitrate<mutable_arbitrate>::value);
  STATIC_REQUIRE(interlock::detail::has_commit<mutable_arbitrate>::value);
  STATIC_REQUIRE_FALSE(interlock::detail::has_commit<no_commit>::value);
}
