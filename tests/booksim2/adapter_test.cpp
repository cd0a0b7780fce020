// SPDX-License-Identifier: BSL-1.0
// The BookSim2 adapter (examples/integrations/booksim2) against BookSim2's Arbiter contract,
// through interface stand-ins of our own (tests/booksim2/fake): the registered names, BookSim2's
// round-robin rule, the age hooks, inverse weights through the port numbering, and the errors.
#include <catch2/catch.hpp>

#include <climits>
#include <memory>
#include <random>
#include <string>

#include <interlock/arbiters/inverse_weight_tables.hpp>

#include "config_utils.hpp"
#include "flit.hpp"
#include "interlock_arb.hpp"

int gK = 8;
int gN = 2;

namespace {

std::unique_ptr<Arbiter> make(Module* parent, const std::string& name, const std::string& type,
                              int size) {
  return std::unique_ptr<Arbiter>(interlock_booksim2::NewArbiter(parent, name, type, size));
}

// BookSim2's RoundRobinArbiter as its documentation states it: the highest
// pri wins, ties go to the smallest (input - pointer) mod size, and
// UpdateState moves the pointer to the winner + 1.
struct booksim_round_robin {
  int size, pointer = 0;
  int pick(const std::vector<int>& pri, const std::vector<bool>& valid) const {
    int best = -1;
    for (int i = 0; i < size; ++i) {
      if (!valid[static_cast<std::size_t>(i)]) continue;
      const int d = (i - pointer + size) % size, bd = (best - pointer + size) % size;
      if (best < 0 || pri[static_cast<std::size_t>(i)] > pri[static_cast<std::size_t>(best)] ||
          (pri[static_cast<std::size_t>(i)] == pri[static_cast<std::size_t>(best)] && d < bd))
        best = i;
    }
    return best;
  }
};

// The keys the adapter reads, as a run of interlock_age in both allocators
// under priority = class sets them (BookSim2's defaults otherwise).
struct age_config : Configuration {
  age_config() {
    Assign("priority", "class");
    Assign("vc_priority_donation", 0);
    Assign("speculative", 0);
    Assign("spec_sw_allocator", "prio");
    Assign("vc_allocator", "separable_input_first(interlock_age(1,1))");
    Assign("sw_allocator", "separable_output_first(interlock_age(1,1))");
  }
};

}  // namespace

TEST_CASE("interlock_round_robin decides as BookSim2's round_robin, pri first") {
  Module parent(nullptr, "sw_allocator");
  std::mt19937 rng(5);
  for (int size : {1, 2, 5, 7, 10, 33, 64}) {
    auto arb = make(&parent, "0rb_o", "interlock_round_robin", size);
    REQUIRE(arb);
    booksim_round_robin ideal{size};
    for (int round = 0; round < 3000; ++round) {
      std::vector<int> pri(static_cast<std::size_t>(size), 0);
      std::vector<bool> valid(static_cast<std::size_t>(size), false);
      arb->Clear();
      for (int i = 0; i < size; ++i) {
        if (rng() % 3 != 0) continue;
        valid[static_cast<std::size_t>(i)] = true;
        pri[static_cast<std::size_t>(i)] =
            static_cast<int>(rng() % 3) - (rng() % 5 == 0 ? 1 << 30 : 0);
        arb->AddRequest(i, 100 + i, pri[static_cast<std::size_t>(i)]);
      }
      int id = -1, p = 0;
      const int winner = arb->Arbitrate(&id, &p);
      const int expected = ideal.pick(pri, valid);
      REQUIRE(winner == expected);
      if (winner >= 0) {
        REQUIRE(id == 100 + winner);
        REQUIRE(p == pri[static_cast<std::size_t>(winner)]);
      }
      if (winner >= 0 && rng() % 4 != 0) {  // allocators update only the grants they keep
        arb->UpdateState();
        ideal.pointer = (winner + 1) % size;
      }
    }
  }
}

TEST_CASE("interlock_round_robin(descending) is Anton 2's order, not BookSim2's") {
  Module parent(nullptr, "sw_allocator");
  auto asc = make(&parent, "0rb_o", "interlock_round_robin(ascending)", 8);
  auto desc = make(&parent, "1rb_o", "interlock_round_robin(descending)", 8);
  for (Arbiter* a : {asc.get(), desc.get()}) {
    a->AddRequest(2, 0, 0);
    a->AddRequest(5, 0, 0);
  }
  // From the reset state the ascending pointer is at 0 and grants 2; the
  // thermometer order grants the most significant requester, 5.
  CHECK(asc->Arbitrate() == 2);
  CHECK(desc->Arbitrate() == 5);
}

TEST_CASE("interlock_inverse_weighted weighs BookSim2's ports by interlock's loads") {
  // Tornado on an 8-ary 2-cube: a router's +X output carries its own
  // injected packets and, on BookSim2's input 1 (packets travelling +X),
  // those of the two routers behind it: loads 1 : 2. Input 0 (travelling
  // -X) carries nothing to +X.
  gK = 8;
  gN = 2;
  Module network(nullptr, "network_0");
  Module router(&network, "router_2_5");
  Module alloc(&router, "sw_allocator");
  for (const char* name : {"0rb_o", "arb_o0"}) {
    auto arb = make(&alloc, name, "interlock_inverse_weighted(tornado)", 5);
    int through = 0, injected = 0;
    for (int round = 0; round < 3000; ++round) {
      arb->Clear();
      arb->AddRequest(1, 0, 0);
      arb->AddRequest(4, 0, 0);
      const int g = arb->Arbitrate();
      (g == 1 ? through : injected) += 1;
      arb->UpdateState();
    }
    CHECK(through == 2000);
    CHECK(injected == 1000);
  }
  // BookSim2's priorities come first: a higher pri wins whatever the weights.
  auto arb = make(&alloc, "0rb_o", "interlock_inverse_weighted(tornado)", 5);
  arb->AddRequest(1, 0, 0);
  arb->AddRequest(4, 0, 3);
  CHECK(arb->Arbitrate() == 4);
}

TEST_CASE("interlock_age grants the oldest packet by the ages its router's hooks keep") {
  const age_config config;
  static Module network(nullptr, "network_0");
  static Module router(&network, "router_0_3");
  static Module alloc(&router, "sw_allocator");
  auto arb = make(&alloc, "0rb_o", "interlock_age(1,1)", 4);  // AGE_CLK_PERIOD 1, bias 1
  interlock_booksim2::AgeTick(&router);
  interlock_booksim2::AgeTick(&router);  // timestamp 2: the stored difference 1 - 2 is not 0

  Flit older, body, younger, remote;
  older.vc = 1;
  interlock_booksim2::AgeArrive(&router, 2, &older);  // injected here: age 0, + bias 1
  body.head = false;
  body.vc = 1;
  body.pri = 12345;
  interlock_booksim2::AgeArrive(&router, 2, &body);  // the rest of the packet keeps its field
  CHECK(body.pri == older.pri);
  for (int t = 0; t < 6; ++t) interlock_booksim2::AgeTick(&router);
  interlock_booksim2::AgeArrive(&router, 0, &younger);
  remote.hops = 3;  // from another router, carrying age 40
  remote.pri = interlock::age_field::with_age(40).bits();
  interlock_booksim2::AgeArrive(&router, 1, &remote);
  interlock_booksim2::AgeTick(&router);

  arb->AddRequest(0, 0, younger.pri);
  arb->AddRequest(2, 0, older.pri);
  CHECK(arb->Arbitrate() == 2);  // older, though round robin would start at 0
  arb->UpdateState();
  arb->Clear();
  arb->AddRequest(1, 0, remote.pri);
  arb->AddRequest(2, 0, older.pri);
  CHECK(arb->Arbitrate() == 1);  // age 41 + 1 tick against 1 + 7 ticks
  arb->Clear();
  // A speculative request (pri + INT_MIN) goes after every other, whatever its age.
  arb->AddRequest(0, 0, younger.pri);
  arb->AddRequest(1, 0, remote.pri + INT_MIN);
  CHECK(arb->Arbitrate() == 0);

  // Leaving, the head carries Procedure 2's age: bias + the ticks it waited.
  interlock_booksim2::AgeDepart(&router, &older);
  CHECK(interlock::age_field::from_bits(static_cast<std::uint16_t>(older.pri)).age() == 1 + 7);
  interlock_booksim2::AgeDepart(&router, &remote);
  CHECK(interlock::age_field::from_bits(static_cast<std::uint16_t>(remote.pri)).age() == 41 + 1);
  interlock_booksim2::AgeDepart(&router, &younger);
}

TEST_CASE("the adapter refuses what it cannot run, naming the parameter") {
  const age_config config;
  static Module network(nullptr, "network_0");
  static Module unhooked(&network, "router_9_9");
  static Module alloc(&unhooked, "sw_allocator");
  Module parent(nullptr, "sw_allocator");
  CHECK(make(&parent, "0rb_o", "round_robin", 4) == nullptr);  // BookSim2's own
  CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_bogus", 4),
                    Catch::Contains("allowed interlock_round_robin, interlock_age"));
  CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_round_robin(sideways)", 4),
                    Catch::Contains("allowed ascending or descending"));
  CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_round_robin", 65),
                    Catch::Contains("65 requesters, allowed 1..64"));
  CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_age(0)", 4),
                    Catch::Contains("AGE_CLK_PERIOD is 0, allowed 1.."));
  CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_age(1,9)", 4),
                    Catch::Contains("bias is 9, allowed 0..7"));
  CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_age(1,1,often)", 4),
                    Catch::Contains("interlock_age(1,1,often): age_epoch_arbiter: AGE_RR_SELECT = "
                                    "often; allowed: age, rr, half"));
  CHECK(make(&parent, "0rb_o", "interlock_age(1,1)", 4) != nullptr);
  CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_age(2,1)", 4),
                    Catch::Contains("one setting for every router"));
  CHECK(make(&parent, "0rb_o", "interlock_age(1,1,0x5)", 4) != nullptr);
  CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_inverse_weighted(hotspot)", 5),
                    Catch::Contains("uniform|tornado"));
  CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_inverse_weighted", 5),
                    Catch::Contains("router_<ordinates>"));
  Module router(nullptr, "router_1_1");
  Module sw(&router, "sw_allocator");
  CHECK_THROWS_WITH(make(&sw, "0rb_o", "interlock_inverse_weighted", 6),
                    Catch::Contains("6 requesters, allowed 5"));
  CHECK_THROWS_WITH(make(&sw, "5rb_i", "interlock_inverse_weighted", 5),
                    Catch::Contains("is port 5, allowed 0..4"));
  gK = 7;
  CHECK_THROWS_WITH(make(&sw, "0rb_o", "interlock_inverse_weighted(tornado)", 5),
                    Catch::Contains("allowed: even k"));
  gK = 8;
  // An age arbiter whose router never calls the hooks stops at its first decision.
  auto arb = make(&alloc, "0rb_o", "interlock_age(1,1)", 4);
  arb->AddRequest(0, 0, 0);
  CHECK_THROWS_WITH(arb->Arbitrate(), Catch::Contains("AgeTick, AgeArrive and AgeDepart"));
}

TEST_CASE("interlock_age refuses a configuration that would hide or misread the age field") {
  Module parent(nullptr, "sw_allocator");
  const auto refused = [&](const std::string& key, const std::string& value,
                           const std::string& message) {
    age_config config;
    config.Assign(key, value);
    CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_age(1,1)", 4), Catch::Contains(message));
  };
  // BookSim2's default priority, none, keeps every VC's pri at 0: the
  // arbiter would serve round robin without a word.
  refused("priority", "none", "priority = none keeps every VC's pri at 0");
  for (const char* rewrites : {"local_age", "queue_length", "hop_count"})
    refused("priority", rewrites, std::string("priority = ") + rewrites + " rewrites the pri");
  // An allocator that reads pri with another arbiter reads the field as a number.
  refused("vc_allocator", "separable_input_first(interlock_round_robin)",
          "vc_allocator = separable_input_first(interlock_round_robin) would read the age field "
          "as an integer priority (its interlock_round_robin arbiters)");
  refused("sw_allocator", "separable_output_first",
          "sw_allocator = separable_output_first would read the age field as an integer priority "
          "(its round_robin arbiters");
  {
    // BookSim2's IQRouter does not pass arb_type to its allocators: a bare
    // separable allocator runs round_robin even with arb_type = interlock_age.
    age_config config;
    config.Assign("arb_type", "interlock_age(1,1)");
    config.Assign("sw_allocator", "separable_input_first");
    CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_age(1,1)", 4),
                      Catch::Contains("an allocator without a parameter does not read arb_type"));
  }
  refused("vc_allocator", "wavefront", "vc_allocator = wavefront would read");
  refused("sw_allocator", "select", "sw_allocator = select would read");
  {
    age_config config;
    config.Assign("vc_priority_donation", 1);
    CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_age(1,1)", 4),
                      Catch::Contains("vc_priority_donation = 1 gives a VC the highest pri"));
  }
  {
    age_config config;  // a speculative switch allocator of its own is an allocator too
    config.Assign("speculative", 1);
    config.Assign("spec_sw_allocator", "separable_input_first(round_robin)");
    CHECK_THROWS_WITH(make(&parent, "0rb_o", "interlock_age(1,1)", 4),
                      Catch::Contains("spec_sw_allocator = separable_input_first(round_robin)"));
    config.Assign("spec_sw_allocator", "prio");
    CHECK(make(&parent, "0rb_o", "interlock_age(1,1)", 4) != nullptr);
  }
  {
    age_config config;  // what runs: allocators that ignore pri, the age arbiter as parameter
    config.Assign("priority", "age");
    config.Assign("vc_allocator", "islip");
    config.Assign("sw_allocator", "separable_input_first(interlock_age(1,1))");
    CHECK(make(&parent, "0rb_o", "interlock_age(1,1)", 4) != nullptr);
    for (const char* ignores : {"pim", "loa", "max_size", "piggyback"}) {
      config.Assign("vc_allocator", ignores);
      CHECK(make(&parent, "0rb_o", "interlock_age(1,1)", 4) != nullptr);
    }
  }
}

TEST_CASE("interlock_inverse_weighted names the allocator it fits") {
  gK = 8;
  gN = 2;
  Module router(nullptr, "router_1_1");
  Module vc(&router, "vc_allocator");
  CHECK_THROWS_WITH(make(&vc, "0rb_o", "interlock_inverse_weighted", 5),
                    Catch::Contains("it fits the switch allocator only (sw_allocator = "
                                    "separable_input_first(interlock_inverse_weighted))"));
}

TEST_CASE("interlock_inverse_weighted with no load at all takes the library's weights") {
  // On an 8x8 mesh, router 0_0's -X output (1) carries nothing under
  // uniform traffic: the library's tables give every requester 2^M - 1.
  gK = 8;
  gN = 2;
  Module router(nullptr, "router_0_0");
  Module sw(&router, "sw_allocator");
  auto arb = make(&sw, "1rb_o", "interlock_inverse_weighted(uniform,mesh)", 5);
  interlock::inverse_weight_tables<64, 1, 8> tables;
  interlock::inverse_weighted_arbiter<64, 1, 8> library(
      tables.from_loads(5, [](std::size_t, std::size_t) { return 0.0; }));
  interlock::inverse_weighted_arbiter<64, 1, 8> ones(
      std::make_shared<const interlock::inverse_weight_table<64, 1, 8>>(
          std::vector<std::vector<std::uint32_t>>(64, std::vector<std::uint32_t>(1, 1))));
  const std::uint8_t labels[64] = {};
  std::mt19937 rng(5);
  int differs = 0;
  for (int round = 0; round < 2000; ++round) {
    const std::uint64_t want = rng() & 0x1F;  // partial requests
    arb->Clear();
    for (int i = 0; i < 5; ++i)
      if ((want >> i) & 1) arb->AddRequest(i, 0, 0);
    const interlock::pattern_requests r{want, interlock::span<const std::uint8_t>(labels)};
    const interlock::grant g = library.arbitrate(r), o = ones.arbitrate(r);
    REQUIRE(arb->Arbitrate() == (g ? static_cast<int>(g.index()) : -1));
    differs += g != o;
    arb->UpdateState();
    if (g) library.commit(g, r);
    if (o) ones.commit(o, r);
  }
  CHECK(differs > 0);  // weights of 1 would grant otherwise
}
