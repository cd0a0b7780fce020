// SPDX-License-Identifier: BSL-1.0
// age_epoch_timeline: an epoch switch and an inhibited rollover, cycle by cycle.
//
// The Cray XT age clock (Abts & Weisser, SC'07, Procedure 3) with
// AGE_CLK_PERIOD = 2. Packet A arrives early and waits; the first rollover
// switches epochs; B arrives in the new epoch; at the second rollover A's
// epoch is still busy, so the switch is inhibited, the timestamp stops and
// the output port falls back to round robin until A has left.
// docs/arbiters/age_epoch.md shows this output; ctest compares it with
// examples/demos/expected/age_epoch_timeline.txt.
#include <interlock/interlock.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "run_tool.hpp"

namespace {

struct port {
  interlock::age_clock clock{2};
  interlock::age_heads<2> heads;  // candidate 1 holds A, candidate 0 holds B
  std::uint64_t present = 0;
  interlock::age_epoch_arbiter<2> arbiter;  // AGE_RR_SELECT all 1s
  long cycle = 0;

  void show(const char* event) const {
    auto age = [&](std::size_t i) {
      return (present >> i & 1u) != 0 ? std::to_string(heads.age(i, clock)) : std::string("-");
    };
    const std::string ages = age(1) + "," + age(0);
    std::printf("%6ld  %9u  %5u  %7s  %6u/%-6u %-8s  %s\n", cycle, unsigned{clock.timestamp()},
                clock.epoch(), clock.inhibit() ? "yes" : "no", unsigned{clock.packet_count(0)},
                unsigned{clock.packet_count(1)}, ages.c_str(), event);
  }
  void tick_until(long until) {
    while (cycle < until) {
      const bool was_inhibited = clock.inhibit();
      const unsigned epoch = clock.epoch();
      clock.tick();
      ++cycle;
      if (clock.inhibit() && !was_inhibited)
        show("rollover inhibited: epoch 0 still holds A");
      else if (!clock.inhibit() && was_inhibited)
        show("epoch 0 drained: inhibit clears");
      else if (clock.epoch() != epoch)
        show("rollover: epoch switches");
    }
  }
  void arrive(std::size_t i, std::uint8_t age, const char* what) {
    heads.set(i, interlock::receive_packet(interlock::age_field::with_age(age), 0, {1, 1}, clock));
    present |= std::uint64_t{1} << i;
    show(what);
  }
  void arbitrate() {
    const bool by_age = arbiter.policy(clock.inhibit()) == interlock::age_policy::age;
    const interlock::grant g = arbiter.grant(heads.requests(present, clock));
    const interlock::age_field sent = interlock::send_packet(heads.field(g.index()), clock);
    present &= ~(std::uint64_t{1} << g.index());
    const std::string event = std::string(g.index() == 1 ? "A" : "B") + " leaves with age " +
                              std::to_string(sent.age()) + (by_age ? " (age)" : " (round robin)");
    show(event.c_str());
  }
};

}  // namespace

int main(int argc, char** argv) {
  return cli::run_demo(
      "age_epoch_timeline",
      "usage: age_epoch_timeline\n"
      "The Cray XT age clock (AGE_CLK_PERIOD = 2) through an epoch switch and an\n"
      "inhibited rollover, cycle by cycle.\n",
      argc, argv, [](const std::vector<std::string>&) {
        std::printf("AGE_CLK_PERIOD = 2 clock ticks per age tick; ages shown as A,B\n\n");
        std::printf("%6s  %9s  %5s  %7s  %13s %-8s  %s\n", "cycle", "timestamp", "epoch", "inhibit",
                    "count[0]/[1]", "ages A,B", "event");
        port p;
        p.arrive(1, 9, "A arrives with age 9, +1 bias");
        p.tick_until(700);
        p.arrive(0, 0, "B arrives in the new epoch, age 0 +1");
        p.tick_until(1030);
        p.show("the timestamp stays at 255 while inhibited");
        p.arbitrate();
        p.tick_until(1034);
        p.arbitrate();
        return 0;
      });
}
