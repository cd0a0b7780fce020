// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch.hpp: NICs and hierarchical QoS switches, simulated per event.
//
// Models [QoSThesis] Sections 2.2 and 4.2.2 (Figures 2.1, 2.2, 4.2) by
// composing the switch's components: its buffers and links (vl_fabric.hpp), VC
// and switch allocation with its crossbars (allocation.hpp), the links'
// schedulers and routing (link_scheduler.hpp), the NICs' sources
// (sl_sources.hpp), what a run measures (sl_measurement.hpp) and its invariants
// (fabric_audit.hpp), all driven by one queue of events (events.hpp). Each SL's
// packets keep their SL's SC and VL end to end. NICs schedule their link
// with the same scheduler as the switches' output ports: in the thesis's
// Figures 2.4-2.5 each SL gets its table's share at the NIC too once the
// offered load exceeds a link.
//
//   Work follows activity: a buffer is looked at only in a cycle in which a
//   header became ready in it, its crossbar input freed, a buffer it waits
//   for freed room or its write port, or it lost an arbitration the cycle
//   before; a link only when it freed, a header arrived or credits came.
//   Events are kept in a binary heap; nothing scans every buffer.
//
// Contract
//   - network<Scheduler>(layout, shape, levels, traffic, scheduler):
//     every configuration is checked here (config_error names the field);
//     each output port and NIC link gets a copy of `scheduler` (tables are
//     shared, states are per port).
//   - run(pattern, load, warmup, measure, seed): NICs inject `load` flits
//     per cycle each, split among SLs by the traffic's shares (run_rates:
//     each SL's rate given), each SL's packets created by its source
//     (sl_sources.hpp: Bernoulli, constant bit rate on a connection or
//     to the pattern, bursts), to uniform random other NICs, to (src + 1)
//     mod NICs or to fixed destinations (each message one packet, or cut
//     into packets by the traffic's packet_limit); one run per network; results()
//     (sl_measurement.hpp) after
//     it gives per SL over the measured window: offered and delivered flits
//     per cycle per NIC, the share of delivered flits, mean end-to-end
//     latency (creation to tail delivered) and network latency (head leaving
//     the NIC to tail delivered) of the messages delivered in the window
//     (a message cut into packets: to its last packet's tail, from its
//     first packet leaving the NIC).
//   - drain() stops creating packets and runs until every packet has been
//     delivered; audit() returns what breaks the model's invariants (empty
//     when none), by the laws every network of the model keeps
//     (conservation.hpp): every created packet delivered, queued or being
//     delivered; each buffer's occupancy per VL equals its queued and
//     departing flits; each link's credit view equals the input buffer's
//     occupancy plus the credits in flight; after drain() nothing left.
//   - Same seed, same results: one generator per NIC.
//
// Example
//   auto layout = interlock::model::qos_switch::single_switch(48);
//   interlock::model::qos_switch::service_levels a({0, 1, 2}, {0, 1, 2});
//   interlock::model::qos_switch::sl_traffic t{{0.5, 0.4, 0.1}, {16, 16, 16}};
//   interlock::model::qos_switch::network<interlock::qos::sbt_scheduler> net(
//       layout, interlock::model::qos_switch::opa_48_port(), a, t,
//       interlock::model::qos_switch::sbt_for(a, {60, 30, 10}));
//   net.run(interlock::model::qos_switch::pattern::uniform, 1.0, 5000, 20000, 1);
//   double sl0 = net.results()[0].normalized_throughput;   // about 0.6
#ifndef INTERLOCK_MODEL_QOS_SWITCH_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "interlock/core/config_error.hpp"
#include "interlock/model/qos_switch/allocation.hpp"
#include "interlock/model/qos_switch/events.hpp"
#include "interlock/model/qos_switch/fabric_audit.hpp"
#include "interlock/model/qos_switch/layout.hpp"
#include "interlock/model/qos_switch/link_scheduler.hpp"
#include "interlock/model/qos_switch/schedulers.hpp"
#include "interlock/model/qos_switch/shape.hpp"
#include "interlock/model/qos_switch/sl_measurement.hpp"
#include "interlock/model/qos_switch/sl_sources.hpp"
#include "interlock/model/qos_switch/vl_fabric.hpp"
#include "interlock/qos/ib_vl_arbiter.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

template <class Scheduler>
class network {
 public:
  network(qos_switch::layout layout, const qos_switch::shape& shape, const service_levels& levels,
          const sl_traffic& traffic, const Scheduler& scheduler)
      : f_(std::move(layout), shape, levels),
        traffic_(traffic),
        generators_(f_.layout.nics(), traffic),
        measure_(levels.sls()) {
    f_.shape.check();
    f_.layout.check();
    if (f_.layout.ports() != f_.shape.ports) {
      throw config_error("network", "layout ports", std::to_string(f_.layout.ports()),
                         "the shape's ports (" + std::to_string(f_.shape.ports) + ")");
    }
    const std::uint32_t smallest =
        std::min({f_.shape.input_flits, f_.shape.output_flits, f_.shape.central_flits});
    traffic_.check(f_.levels.sls(), std::min(smallest, f_.shape.vl_max_flits));
    if (f_.layout.max_class() + 1 > f_.levels.classes()) {
      throw config_error(
          "network", "route classes", std::to_string(f_.layout.max_class() + 1),
          "at most the service levels' SC classes (" + std::to_string(f_.levels.classes()) + ")");
    }
    if (link_scheduler<Scheduler>::per_vl && f_.levels.vls() > qos::ib::data_vls) {
      throw config_error("network", "VLs", std::to_string(f_.levels.vls()),
                         "1..15 for InfiniBand's arbiter");
    }
    f_.build(scheduler);
    allocation_.build(f_);
  }

  const qos_switch::layout& layout() const noexcept { return f_.layout; }
  const qos_switch::shape& shape() const noexcept { return f_.shape; }
  std::uint64_t now() const noexcept { return f_.now; }

  void run(pattern pattern, double load, std::uint64_t warmup, std::uint64_t measure,
           std::uint64_t seed) {
    if (!(load >= 0 && load <= 64)) {
      throw config_error("network", "load", std::to_string(load), "0..64 flits/cycle/NIC");
    }
    std::vector<double> rates(f_.levels.sls());
    for (std::size_t sl = 0; sl < rates.size(); ++sl) rates[sl] = load * traffic_.share[sl];
    run_rates(pattern, rates, warmup, measure, seed);
  }

  /// run() with each SL's rate given, in flits per cycle per NIC (the
  /// traffic's shares are not read).
  void run_rates(pattern pattern, const std::vector<double>& rates, std::uint64_t warmup,
                 std::uint64_t measure, std::uint64_t seed) {
    if (ran_) {
      throw config_error("network", "run", "a second call",
                         "one run per network (build another for the next point)");
    }
    if (rates.size() != f_.levels.sls()) {
      throw config_error("network", "rates", std::to_string(rates.size()),
                         "one per SL (" + std::to_string(f_.levels.sls()) + ")");
    }
    for (std::size_t sl = 0; sl < rates.size(); ++sl) {
      if (!(rates[sl] >= 0 && rates[sl] <= 64)) {
        throw config_error("network", "rate of SL" + std::to_string(sl), std::to_string(rates[sl]),
                           "0..64 flits/cycle/NIC");
      }
    }
    ran_ = true;
    if (pattern == pattern::fixed && !generators_.has_destinations()) {
      throw config_error("network", "pattern", "fixed",
                         "a pattern whose destinations set_destinations() gave");
    }
    interlock::detail::require_in_range("network", "measured cycles", measure, 1,
                                        std::uint64_t{1} << 40);
    measure_.reset(f_.now);
    measure_.window(f_.now + warmup, f_.now + warmup + measure);
    f_.switch_rng.clear();
    for (std::size_t sw = 0; sw < f_.layout.switches(); ++sw)
      f_.switch_rng.emplace_back(~seed * 0xD1B54A32D192ED03ull + sw + 1);
    generating_ = generators_.start(pattern, rates, seed, f_.now,
                                    [&](std::uint64_t at, std::uint32_t n, std::uint32_t sl) {
                                      push(f_.events, at, event_kind::generate, n, sl);
                                    });
    advance(measure_.end());
  }

  /// The destination of each NIC's packets under pattern::fixed.
  void set_destinations(const std::vector<std::uint32_t>& destination) {
    generators_.set_destinations(destination);
  }

  /// Creates one packet of `sl` from `src` to `dst` now (a probe; run() need not be called).
  void inject(std::size_t src, std::size_t dst, std::size_t sl) {
    const std::size_t nics = f_.layout.nics();
    interlock::detail::require_in_range("network", "source NIC", src, 0, nics - 1);
    interlock::detail::require_in_range("network", "destination NIC", dst, 0, nics - 1);
    interlock::detail::require_in_range("network", "SL", sl, 0, f_.levels.sls() - 1);
    if (!measure_.started()) measure_.reset(f_.now);
    create(static_cast<std::uint32_t>(src), static_cast<std::uint32_t>(dst),
           static_cast<std::uint32_t>(sl));
    step();
  }

  /// Stops creating packets and runs until every packet is delivered.
  void drain() {
    generating_ = false;
    advance(~std::uint64_t{0});
  }

  std::vector<sl_result> results() const { return measure_.results(f_.layout.nics(), f_.now); }

  std::uint64_t packets_created() const noexcept { return total_created_; }
  std::uint64_t packets_delivered() const noexcept { return total_delivered_; }
  std::uint64_t packets_in_flight() const noexcept { return total_created_ - total_delivered_; }
  /// Flits sent so far by each switch output port, and received by each input port.
  std::uint64_t flits_sent(std::size_t s, std::size_t p) const noexcept {
    return f_.link_flits[s * f_.shape.ports + p];
  }
  std::uint64_t flits_received(std::size_t s, std::size_t p) const noexcept {
    return f_.input_flits[s * f_.shape.ports + p];
  }
  /// The largest number of flits any link or input port carried in one
  /// cycle, and any crossbar transfer into one buffer, or with
  /// share_cycles any buffer's crossbar input in a cycle (checks of the
  /// speeds).
  std::uint32_t peak_link_rate() const noexcept { return f_.peak_link; }
  double peak_crossbar_rate() const noexcept { return f_.peak_crossbar; }
  /// Virtual allocations under va_rule::routed that picked a VL whose head
  /// had no room where it goes (the input requested nothing that cycle).
  std::uint64_t blocked_picks() const noexcept { return f_.blocked_picks; }

  /// What breaks the model's invariants, or "" (qos_switch/fabric_audit.hpp).
  std::string audit() const {
    return qos_switch::audit(f_, !generating_ && f_.events.empty(), total_created_,
                             total_delivered_);
  }

 private:
  void generate(std::uint32_t n, std::uint32_t sl) {
    if (!generating_) return;
    generators_.fire(
        n, sl, f_.now, [&](std::uint32_t dst) { create(n, dst, sl); },
        [&](std::uint64_t at, std::uint32_t nic, std::uint32_t s) {
          push(f_.events, at, event_kind::generate, nic, s);
        });
  }

  // A message of `sl` from NIC n: one packet, or packets of at most the
  // traffic's packet_limit flits sharing a message record.
  void create(std::uint32_t n, std::uint32_t dst, std::uint32_t sl) {
    const std::uint32_t flits = traffic_.packet_flits[sl];
    const std::uint32_t limit = traffic_.packet_limit;
    measure_.created(sl, flits, f_.now);
    if (limit == 0 || flits <= limit) {
      create_packet(n, dst, sl, flits, no_message);
      return;
    }
    const std::uint32_t m = messages_.acquire();
    messages_[m].created = f_.now;
    messages_[m].remaining = (flits + limit - 1) / limit;
    for (std::uint32_t left = flits; left > 0; left -= std::min(left, limit))
      create_packet(n, dst, sl, std::min(left, limit), m);
  }

  void create_packet(std::uint32_t n, std::uint32_t dst, std::uint32_t sl, std::uint32_t flits,
                     std::uint32_t message) {
    const std::uint32_t id = f_.packets.acquire();
    packet& pk = f_.packets[id];
    pk.created = f_.now;
    pk.src = n;
    pk.dst = dst;
    pk.flits = flits;
    pk.message = message;
    pk.sl = static_cast<std::uint8_t>(sl);
    pk.sc = static_cast<std::uint8_t>(f_.levels.sc(sl));
    pk.vl = static_cast<std::uint8_t>(f_.levels.vl(sl));
    pk.head_ready = f_.now;
    pk.tail_at = f_.now;
    ++total_created_;
    buffer& B = f_.buffers[f_.nic_base + n];
    B.space.reserve(pk.vl, pk.flits);
    B.enqueue(f_.packets, f_.queue_of(static_cast<std::uint32_t>(f_.nic_base + n), pk), id);
    f_.wake_link(static_cast<std::uint32_t>(f_.nic_link + n));
  }

  void deliver(std::uint32_t id) {
    const packet& pk = f_.packets[id];
    ++total_delivered_;
    if (pk.message == no_message) {
      measure_.delivered(pk.sl, pk.flits, f_.now - pk.created, f_.now - pk.injected, f_.now);
    } else {
      measure_.flits_delivered(pk.sl, pk.flits, f_.now);
      message& m = messages_[pk.message];
      m.injected = std::min(m.injected, pk.injected);
      if (--m.remaining == 0) {
        measure_.completed(pk.sl, f_.now - m.created, f_.now - m.injected, f_.now);
        messages_.release(pk.message);
      }
    }
    f_.packets.release(id);
  }

  // A cycle's work once its events are handled: allocation, then the links.
  void step() {
    allocation_.allocate(f_);
    links_.schedule(f_);
  }

  // Cycle by cycle, each with events: its events (those pushed for it
  // while they are handled too), then a step; a step that pushes events for
  // its own cycle is followed by another round of it.
  void advance(std::uint64_t until) {
    events& q = f_.events;
    for (std::uint64_t t = q.next(); t < until; t = q.next()) {
      q.advance_to(t);
      f_.now = t;
      std::vector<event>& due = q.due();
      for (std::size_t i = 0; i < due.size(); ++i) handle(event(due[i]));
      q.clear();
      step();
    }
    if (until != ~std::uint64_t{0}) {
      f_.now = until;
      q.advance_to(until);
    }
  }

  void handle(const event& e) {
    switch (e.kind) {
      case event_kind::wake_source:
        f_.wake_source(e.a);
        break;
      case event_kind::wake_link:
        f_.wake_link(e.a);
        break;
      case event_kind::release:
        f_.release(e.a, e.b, e.c);
        break;
      case event_kind::port_free:
        f_.port_free(e.a);
        break;
      case event_kind::credit:
        f_.credit(e.a, e.b, e.c);
        break;
      case event_kind::generate:
        generate(e.a, e.b);
        break;
      case event_kind::deliver:
        deliver(e.a);
        break;
    }
  }

  fabric<Scheduler> f_;
  sl_traffic traffic_;
  allocation<Scheduler> allocation_;
  link_scheduler<Scheduler> links_;
  bool generating_ = false, ran_ = false;
  sources generators_;  // the NICs' packet sources
  messages messages_;   // messages cut into packets, in flight
  measurement measure_;
  std::uint64_t total_created_ = 0, total_delivered_ = 0;
};

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_HPP
