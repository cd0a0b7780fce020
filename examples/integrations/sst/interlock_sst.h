// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_sst.h: what the element's topology and crossbar arbitration
// share.
//
//   topo_event   a packet inside the network: Merlin's internal event, the
//                route state of interlock.torus's scheme, and the SeaStar's
//                11-bit age field ([Abts07] Table 1): the header's age between
//                routers, the field Procedure 1 stored while at a router.
//                Merlin moves it from router to router and serializes it
//                across ranks.
//   router_age   one router's age clock (Procedure 3), its input ports' age
//                biases and AGE_RR_SELECT, and the times of its last 256 age
//                ticks. The clock ticks at every edge of the router's clock;
//                the router may stop its clock when no packet is counted in
//                either epoch, and the edges it did not run are caught up
//                from the simulation time at the next edge or arrival, so
//                idle routers cost nothing and results do not depend on when
//                SST wakes them.
//   router_context  what interlock.torus keeps for a router's crossbar
//                arbitration: its router_age (given age_period) and
//                xbar_separable's configuration (separable_config). The
//                topology registers it under the router's component id;
//                the arbitration finds it there (hr_router gives crossbar
//                arbitration no parameters, so the topology is the
//                parameterized parent).
//
// Procedure 1 on arrival. Merlin shows a router a packet that came from
// another router only when it reaches the head of its input VC
// (route_packet). The topology then runs Procedure 1 as it would have run on
// arrival: the age ticks since the event's delivery time give the clock's
// reading then (age_clock::reading), and the packet is admitted into that
// reading's epoch. That is exact for a packet that waited fewer than 256 age
// ticks. One that waited longer has saturated at 255, which is what the
// topology stores, admitted into the current epoch; a rollover in between
// may have switched epochs that the hardware would have inhibited.
// late_admissions counts such packets.
#ifndef INTERLOCK_SST_INTERLOCK_SST_H
#define INTERLOCK_SST_INTERLOCK_SST_H

#include <sst/core/sst_types.h>
#include <sst/elements/merlin/router.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include <sst/core/output.h>
#include <sst/core/statapi/statbase.h>

#include <interlock/arbiters/age_clock.hpp>
#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/core/bits.hpp>
#include <interlock/core/state_io.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/direction_order.hpp>
#include <interlock/routing/vc_promotion.hpp>

namespace interlock_sst {

using SST::Merlin::internal_router_event;
using SST::Merlin::RtrEvent;

using dor_scheme = interlock::dimension_order_routing;
using promotion_scheme = interlock::vc_promotion_routing;
using t3e_scheme = interlock::direction_order_routing;
static_assert(std::is_trivially_copyable<dor_scheme::state>::value &&
                  std::is_trivially_copyable<promotion_scheme::state>::value &&
                  std::is_trivially_copyable<t3e_scheme::state>::value,
              "route states are copied as bytes");
/// A route state of any of the schemes, as bytes.
using route_state =
    std::array<unsigned char, std::max({sizeof(dor_scheme::state), sizeof(promotion_scheme::state),
                                        sizeof(t3e_scheme::state)})>;

/// Stops the simulation with `message` (a configuration the element cannot run).
[[noreturn]] inline void refuse(const std::string& message) {
  SST::Output out("", 0, 0, SST::Output::STDERR);
  out.fatal(CALL_INFO, -1, "%s\n", message.c_str());
  std::abort();
}

/// A parameter the element cannot take: its name, its value, what is
/// allowed (thrown by the parameter readers; the component stops the
/// simulation naming it).
struct bad_parameter {
  std::string name, value, allowed;
};

/// An interlock policy's state (core/state_io.hpp) through SST's
/// serializer, as bytes; a checkpoint the policy cannot hold stops the
/// restart naming the byte and field.
template <class Policy>
void serialize_state(SST::Core::Serialization::serializer& ser, Policy& policy,
                     const std::string& owner) {
  std::vector<std::uint8_t> bytes;
  const bool unpacking = ser.mode() == SST::Core::Serialization::serializer::UNPACK;
  if (!unpacking) bytes = interlock::save_state(policy);
  SST_SER(bytes);
  if (!unpacking) return;
  try {
    interlock::restore_state(policy, bytes);
  } catch (const interlock::state_error& e) {
    refuse(owner + ": a checkpoint it cannot restore: " + e.what());
  }
}

/// A packet inside the network: Merlin's internal event and interlock's route state.
class topo_event : public internal_router_event {
 public:
  topo_event() = default;
  explicit topo_event(RtrEvent* ev) : internal_router_event(ev) {}

  internal_router_event* clone() override { return new topo_event(*this); }

  route_state state{};    // at arrival, before this router's hop
  route_state after{};    // after the hop chosen at router `at`
  int at = -1;            // the router that chose `after`, or -1
  int origin = -1;        // an untimed broadcast's first router
  std::uint16_t age = 0;  // the age field: the header's between routers, the stored one at age_at
  int age_at = -1;        // the router whose Procedure 1 stored `age`, or -1 (the header's)

  void serialize_order(SST::Core::Serialization::serializer& ser) override {
    internal_router_event::serialize_order(ser);
    std::vector<std::uint8_t> bytes(2 * sizeof(route_state));
    if (ser.mode() != SST::Core::Serialization::serializer::UNPACK) {
      std::memcpy(bytes.data(), &state, sizeof(route_state));
      std::memcpy(bytes.data() + sizeof(route_state), &after, sizeof(route_state));
    }
    SST_SER(bytes);
    SST_SER(at);
    SST_SER(origin);
    SST_SER(age);
    SST_SER(age_at);
    if (ser.mode() == SST::Core::Serialization::serializer::UNPACK) {
      std::memcpy(&state, bytes.data(), sizeof(route_state));
      std::memcpy(&after, bytes.data() + sizeof(route_state), sizeof(route_state));
    }
  }
  ImplementSerializable(interlock_sst::topo_event)
};

/// One router's age clock and what Procedure 1 and 2 need with it.
struct router_age {
  explicit router_age(std::uint32_t period) : clock(period) {}

  interlock::age_clock clock;
  std::vector<interlock::age_bias> bias;  // per input port
  std::uint64_t select = ~std::uint64_t{0};
  bool claimed =
      false;  // a crossbar arbitration ticks it (xbar_age, or xbar_separable's age stage)
  std::uint64_t late_admissions = 0;            // see the header comment
  std::array<SST::SimTime_t, 256> tick_time{};  // [n % 256]: when age tick n happened

 private:
  SST::SimTime_t last_edge_ = 0, edge_period_ = 0;
  bool have_edge_ = false;

 public:
  /// The router's clock edge at simulation time `now`: the cycles it slept
  /// through first (catch_up), then this cycle's tick.
  void cycle(SST::SimTime_t now) {
    catch_up(now);
    if (have_edge_ && edge_period_ == 0) edge_period_ = now - last_edge_;
    tick_at(now);
  }
  void tick_at(SST::SimTime_t edge) {
    const std::uint64_t before = clock.age_ticks();
    clock.tick();
    if (clock.age_ticks() != before) tick_time[clock.age_ticks() % 256] = edge;
    last_edge_ = edge;
    have_edge_ = true;
  }
  /// The edges before `now` that the router did not run: those it slept
  /// through, and those SST skips while waking it for a packet that arrived
  /// during its sleep. The chip's age clock ticks at every edge regardless:
  /// with no packet counted, tick_idle does them at once (and the tick log
  /// restarts: every arrival still to come is at `now` or later); with
  /// packets, one by one, each logged at its edge.
  void catch_up(SST::SimTime_t now) {
    if (!have_edge_ || edge_period_ == 0 || now <= last_edge_) return;
    const SST::SimTime_t skipped = (now - last_edge_ - 1) / edge_period_;
    if (skipped == 0) return;
    if (clock.packet_count(0) == 0 && clock.packet_count(1) == 0) {
      clock.tick_idle(skipped);
      last_edge_ += skipped * edge_period_;
      tick_time.fill(0);
      return;
    }
    for (SST::SimTime_t i = 0; i < skipped; ++i) tick_at(last_edge_ + edge_period_);
  }
  /// The clock's state (interlock's save and restore), the late admissions
  /// and the tick log, for a checkpoint; the bias and AGE_RR_SELECT come
  /// from interlock.torus's parameters.
  void serialize(SST::Core::Serialization::serializer& ser, const std::string& owner) {
    serialize_state(ser, clock, owner);
    SST_SER(late_admissions);
    std::vector<SST::SimTime_t> times(tick_time.begin(), tick_time.end());
    SST_SER(times);
    if (ser.mode() == SST::Core::Serialization::serializer::UNPACK) {
      if (times.size() != tick_time.size()) refuse(owner + ": a checkpoint's age tick log");
      std::copy(times.begin(), times.end(), tick_time.begin());
    }
    SST_SER(last_edge_);
    SST_SER(edge_period_);
    SST_SER(have_edge_);
  }

  /// Whether the router may stop its clock: no packet outstanding in either
  /// epoch, and the clock's period known (from its first two edges).
  bool may_pause() const {
    return edge_period_ != 0 && clock.packet_count(0) == 0 && clock.packet_count(1) == 0;
  }

  /// The age ticks at time t or later, up to 256: an arrival at t reads the clock as it was
  /// before that cycle's tick, whichever of the two SST runs first (so the reading does not
  /// depend on how the network is partitioned).
  std::uint64_t ticks_since(SST::SimTime_t t) const {
    const std::uint64_t n = clock.age_ticks();
    std::uint64_t lo = 0,
                  hi = std::min<std::uint64_t>(256, n);  // ticks n - k + 1 .. n are at t or later
    while (lo < hi) {
      const std::uint64_t k = (lo + hi + 1) / 2;
      if (tick_time[(n - k + 1) % 256] >= t)
        lo = k;
      else
        hi = k - 1;
    }
    return lo;
  }
  /// Procedure 1 for a packet that arrived at `input` at time `arrived`
  /// carrying header field `header`; returns the stored field.
  std::uint16_t arrive(int input, std::uint16_t header, SST::SimTime_t arrived,
                       SST::SimTime_t now) {
    catch_up(now);
    const interlock::age_bias b = bias[static_cast<std::size_t>(input) % bias.size()];
    const std::uint64_t k = ticks_since(arrived);
    if (k >= 256) {  // older than the tick log: its age has saturated
      ++late_admissions;
      const interlock::age_reading now = clock.reading();
      clock.admit(now.epoch);
      return interlock::stored_age_field(interlock::age_field::with_age(255), 0, b, now).bits();
    }
    const interlock::age_reading then = clock.reading(k);  // at most one rollover since: exact
    clock.admit(then.epoch);
    return interlock::stored_age_field(interlock::age_field::from_bits(header), 0, b, then).bits();
  }
};

/// How interlock.xbar_separable allocates at one router: chosen by
/// interlock.torus's xbar_input / xbar_output parameters (hr_router gives
/// crossbar arbitration no parameters of its own).
struct separable_config {
  enum class stage { round_robin, priority, inverse_weighted, age };
  using weight_table = interlock::inverse_weighted_arbiter<64, 1, 8>::table_type;
  using labelled_table = interlock::inverse_weighted_arbiter<64, 2, 8>::table_type;

  stage input = stage::round_robin;         // a VC arbiter per input port
  stage output = stage::round_robin;        // a port arbiter per output port
  std::vector<std::int64_t> vc_priority;    // priority: per VC of an input port
  std::vector<std::int64_t> port_priority;  // priority: per input port
  // inverse_weighted under one iw_pattern (every label 0): per output port, per input port
  std::vector<std::shared_ptr<const weight_table>> weights, input_weights;
  // inverse_weighted under two (label n, pattern n, on VN n): per output port, per input port
  std::vector<std::shared_ptr<const labelled_table>> labelled_weights, labelled_input_weights;
};

/// What interlock.torus keeps for a router's crossbar arbitration.
struct router_context {
  std::shared_ptr<router_age> age;  // with age_period only
  separable_config xbar;
};

/// A crossbar arbitration's shape: up to 64 ports and 64 VCs per port (one
/// 64-bit word of round-robin state).
inline void check_shape(const std::string& name, int ports, int vcs) {
  if (ports < 1 || ports > 64 || vcs < 1 || vcs > 64)
    refuse(name + ": " + std::to_string(ports) + " ports and " + std::to_string(vcs) +
           " VCs per port; allowed 1..64 of each (one 64-bit word of round-robin state)");
}

/// Whether a VC head can cross now: its output port is free and has credits
/// for the whole packet (Merlin moves whole packets, counting credits in flits).
inline bool can_go(SST::Merlin::PortInterface** ports, internal_router_event* head,
                   const int* out_port_busy) {
  if (head == nullptr) return false;
  const int next = head->getNextPort();
  return out_port_busy[next] <= 0 && ports[next]->spaceToSend(head->getVC(), head->getFlitCount());
}

/// The VCs of input port `port` whose head can cross now (can_go), as a mask.
inline std::uint64_t ready_vcs(SST::Merlin::PortInterface** ports, int port, int vcs,
                               const int* out_port_busy) {
  internal_router_event** heads = ports[port]->getVCHeads();
  std::uint64_t ready = 0;
  for (int vc = 0; vc < vcs; ++vc)
    if (can_go(ports, heads[vc], out_port_busy)) ready |= std::uint64_t{1} << vc;
  return ready;
}

/// Procedure 2 lines 13-14 for a packet granted at a router with an age
/// clock: its age leaves in the header, and its epoch lets it go.
inline void depart(topo_event* e, router_age& age) {
  e->age = interlock::send_packet(interlock::age_field::from_bits(e->age), age.clock).bits();
  e->age_at = -1;
}

/// The routers' contexts, by router component id (the topology is built
/// before the crossbar arbitration, and registers first).
inline std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
inline std::map<SST::ComponentId_t, std::shared_ptr<router_context>>& registry() {
  static std::map<SST::ComponentId_t, std::shared_ptr<router_context>> r;
  return r;
}
inline void register_router(SST::ComponentId_t router, std::shared_ptr<router_context> context) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[router] = std::move(context);
}
inline std::shared_ptr<router_context> find_router(SST::ComponentId_t router) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  const auto it = registry().find(router);
  return it == registry().end() ? nullptr : it->second;
}

/// The age clock's statistics, moved once per router cycle by the crossbar
/// arbitration that ticks the clock (interlock.xbar_age, or xbar_separable
/// with an age output stage).
struct age_statistics {
  SST::Statistics::Statistic<std::uint64_t>* epoch_switches = nullptr;
  SST::Statistics::Statistic<std::uint64_t>* inhibited_ticks = nullptr;
  SST::Statistics::Statistic<std::uint64_t>* late_admissions = nullptr;
  std::uint64_t switches_seen = 0, late_seen = 0;

  void serialize(SST::Core::Serialization::serializer& ser) {
    SST_SER(epoch_switches);
    SST_SER(inhibited_ticks);
    SST_SER(late_admissions);
    SST_SER(switches_seen);
    SST_SER(late_seen);
  }

  /// One router cycle at simulation cycle `now`: the clock's edge, then the statistics.
  void tick(router_age& age, SST::SimTime_t now) {
    age.cycle(now);
    if (age.clock.inhibit()) inhibited_ticks->addData(1);
    if (age.clock.epoch_switches() != switches_seen) {
      switches_seen = age.clock.epoch_switches();
      epoch_switches->addData(1);
    }
    if (age.late_admissions != late_seen) {
      late_admissions->addData(age.late_admissions - late_seen);
      late_seen = age.late_admissions;
    }
  }
};

// The ELI entries of age_statistics, for each arbitration that registers them.
#define INTERLOCK_SST_AGE_STATISTICS                                                             \
  {"epoch_switches", "Epoch switches of the router's age clock", "switches", 1},                 \
      {"inhibited_ticks", "Clock ticks an epoch switch waited for the old epoch to drain",       \
       "cycles", 1},                                                                             \
  {                                                                                              \
    "late_admissions",                                                                           \
        "Packets shown to the router more than 255 age ticks after they arrived (stored as age " \
        "255)",                                                                                  \
        "packets", 1                                                                             \
  }

}  // namespace interlock_sst

#endif  // INTERLOCK_SST_INTERLOCK_SST_H
