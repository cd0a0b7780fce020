// SPDX-License-Identifier: BSL-1.0
// interlock/model/switch_network.hpp: NICs and hierarchical QoS switches, simulated per event.
//
// Models [QoSThesis] Sections 2.2 and 4.2.2 (Figures 2.1, 2.2, 4.2): each
// switch (switch_config.hpp) has an input buffer per port, an output buffer
// per port and a central buffer per central link, each a dynamic VL space
// (vl_buffer.hpp). A packet:
//   - leaves its NIC when the NIC's scheduler picks its queue and the input
//     buffer at the other end has room for all of it in its VL (credits,
//     virtual cut-through); its header is routed SB + RT after arriving;
//   - is allocated in two stages (VA-SA): each input or central buffer's
//     input arbiter (round robin over VLs) offers one VL whose head packet
//     has room where it goes; each output buffer's, and each central link's,
//     output arbiter (round robin) grants one of the buffers that offered it.
//     An output in the input's own MPort is reached through the MPort
//     crossbar; any other through the MPort's central links, taken in order
//     (each link's arbiter grants among the offers that fit it, the rest go
//     on to the next link), then the central crossbar;
//   - crosses a crossbar at the speed-up of its link (mport_speedup or
//     central_speedup flits per cycle), never ending before its tail has
//     arrived: the source buffer and the destination's write port are busy
//     until it ends, and the source's space comes back then;
//   - leaves an output buffer when the port's scheduler (the template
//     parameter: round_robin_scheduler, qos::sbt_scheduler,
//     qos::dtable_scheduler, qos::ib_vl_arbiter, any queue_requests
//     scheduler) grants its queue among the heads that have arrived and have
//     credits downstream, at one flit per cycle.
//   Credits for a link's input buffer come back FLY cycles after its space
//   frees. NICs hold one unbounded queue per VL ([QoSThesis] Section 4.4.1:
//   what does not fit waits in the application) and schedule their link
//   with the same scheduler as the switches' output ports: in the thesis's
//   Figures 2.4-2.5 each SL gets its table's share at the NIC too once the
//   offered load exceeds a link. Each SL's packets keep their SL's SC and VL
//   end to end.
//
//   Work follows activity: a buffer is looked at only in a cycle in which a
//   header became ready in it, its crossbar input freed, a buffer it waits
//   for freed room or its write port, or it lost an arbitration the cycle
//   before; a link only when it freed, a header arrived or credits came.
//   Events are kept in a binary heap; nothing scans every buffer.
//
// Contract
//   - switch_network<Scheduler>(layout, shape, levels, traffic, scheduler):
//     every configuration is checked here (config_error names the field);
//     each output port and NIC link gets a copy of `scheduler` (tables are
//     shared, states are per port).
//   - run(pattern, load, warmup, measure, seed): NICs inject `load` flits
//     per cycle each, split among SLs by the traffic's shares (run_rates:
//     each SL's rate given), each SL's packets created by its source
//     (switch_sources.hpp: Bernoulli, constant bit rate on a connection or
//     to the pattern, bursts), to uniform random other NICs, to (src + 1)
//     mod NICs or to fixed destinations; one run per network; results()
//     (switch_measurement.hpp) after
//     it gives per SL over the measured window: offered and delivered flits
//     per cycle per NIC, the share of delivered flits, mean end-to-end
//     latency (creation to tail delivered) and network latency (head leaving
//     the NIC to tail delivered) of the packets delivered in the window.
//   - drain() stops creating packets and runs until every packet has been
//     delivered; audit() returns what breaks the model's invariants (empty
//     when none): each buffer's occupancy per VL equals its queued and
//     departing flits, each link's credit view equals the input buffer's
//     occupancy plus the credits in flight, and after drain() everything is
//     empty and every created packet delivered.
//   - Same seed, same results: one generator per NIC.
//
// Example
//   auto layout = interlock::model::single_switch(48);
//   interlock::model::service_levels a({0, 1, 2}, {0, 1, 2});
//   interlock::model::sl_traffic t{{0.5, 0.4, 0.1}, {16, 16, 16}};
//   interlock::model::switch_network<interlock::qos::sbt_scheduler> net(
//       layout, interlock::model::opa_48_port(), a, t, interlock::model::sbt_for(a, {60, 30, 10}));
//   net.run(interlock::model::switch_pattern::uniform, 1.0, 5000, 20000, 1);
//   double sl0 = net.results()[0].normalized_throughput;   // about 0.6
#ifndef INTERLOCK_MODEL_SWITCH_NETWORK_HPP
#define INTERLOCK_MODEL_SWITCH_NETWORK_HPP

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/random.hpp"
#include "interlock/core/span.hpp"
#include "interlock/model/switch_config.hpp"
#include "interlock/model/switch_layout.hpp"
#include "interlock/model/switch_measurement.hpp"
#include "interlock/model/switch_schedulers.hpp"
#include "interlock/model/switch_sources.hpp"
#include "interlock/model/vl_buffer.hpp"
#include "interlock/qos/queue_requests.hpp"

namespace interlock {
namespace model {

template <class Scheduler>
class switch_network {
  static constexpr bool per_vl = switch_queues<Scheduler>::per_vl;
  static constexpr std::size_t max_queues = 64;

 public:
  switch_network(switch_layout layout, const switch_shape& shape, const service_levels& levels,
                 const sl_traffic& traffic, const Scheduler& scheduler)
      : layout_(std::move(layout)),
        shape_(shape),
        levels_(levels),
        traffic_(traffic),
        generators_(layout_.nics(), traffic),
        measure_(levels.sls()) {
    shape_.check();
    layout_.check();
    if (layout_.ports() != shape_.ports) {
      throw config_error("switch_network", "layout ports", std::to_string(layout_.ports()),
                         "the shape's ports (" + std::to_string(shape_.ports) + ")");
    }
    const std::uint32_t smallest =
        std::min({shape_.input_flits, shape_.output_flits, shape_.central_flits});
    traffic_.check(levels_.sls(), std::min(smallest, shape_.vl_max_flits));
    if (layout_.max_class() + 1 > levels_.classes()) {
      throw config_error(
          "switch_network", "route classes", std::to_string(layout_.max_class() + 1),
          "at most the service levels' SC classes (" + std::to_string(levels_.classes()) + ")");
    }
    if (per_vl && levels_.vls() > qos::ib::data_vls) {
      throw config_error("switch_network", "VLs", std::to_string(levels_.vls()),
                         "1..15 for InfiniBand's arbiter");
    }
    build(scheduler);
  }

  const switch_layout& layout() const noexcept { return layout_; }
  const switch_shape& shape() const noexcept { return shape_; }
  std::uint64_t now() const noexcept { return now_; }

  void run(switch_pattern pattern, double load, std::uint64_t warmup, std::uint64_t measure,
           std::uint64_t seed) {
    if (!(load >= 0 && load <= 64)) {
      throw config_error("switch_network", "load", std::to_string(load), "0..64 flits/cycle/NIC");
    }
    std::vector<double> rates(levels_.sls());
    for (std::size_t sl = 0; sl < rates.size(); ++sl) rates[sl] = load * traffic_.share[sl];
    run_rates(pattern, rates, warmup, measure, seed);
  }

  /// run() with each SL's rate given, in flits per cycle per NIC (the
  /// traffic's shares are not read).
  void run_rates(switch_pattern pattern, const std::vector<double>& rates, std::uint64_t warmup,
                 std::uint64_t measure, std::uint64_t seed) {
    if (ran_) {
      throw config_error("switch_network", "run", "a second call",
                         "one run per network (build another for the next point)");
    }
    if (rates.size() != levels_.sls()) {
      throw config_error("switch_network", "rates", std::to_string(rates.size()),
                         "one per SL (" + std::to_string(levels_.sls()) + ")");
    }
    for (std::size_t sl = 0; sl < rates.size(); ++sl) {
      if (!(rates[sl] >= 0 && rates[sl] <= 64)) {
        throw config_error("switch_network", "rate of SL" + std::to_string(sl),
                           std::to_string(rates[sl]), "0..64 flits/cycle/NIC");
      }
    }
    ran_ = true;
    if (pattern == switch_pattern::fixed && !generators_.has_destinations()) {
      throw config_error("switch_network", "pattern", "fixed",
                         "a pattern whose destinations set_destinations() gave");
    }
    interlock::detail::require_in_range("switch_network", "measured cycles", measure, 1,
                                        std::uint64_t{1} << 40);
    measure_.reset(now_);
    measure_.window(now_ + warmup, now_ + warmup + measure);
    switch_rng_.clear();
    for (std::size_t sw = 0; sw < layout_.switches(); ++sw)
      switch_rng_.emplace_back(~seed * 0xD1B54A32D192ED03ull + sw + 1);
    generating_ = generators_.start(pattern, rates, seed, now_,
                                    [&](std::uint64_t at, std::uint32_t n, std::uint32_t sl) {
                                      push(at, ev::generate, n, sl);
                                    });
    advance(measure_.end());
  }

  /// The destination of each NIC's packets under switch_pattern::fixed.
  void set_destinations(const std::vector<std::uint32_t>& destination) {
    generators_.set_destinations(destination);
  }

  /// Creates one packet of `sl` from `src` to `dst` now (a probe; run() need not be called).
  void inject(std::size_t src, std::size_t dst, std::size_t sl) {
    interlock::detail::require_in_range("switch_network", "source NIC", src, 0, layout_.nics() - 1);
    interlock::detail::require_in_range("switch_network", "destination NIC", dst, 0,
                                        layout_.nics() - 1);
    interlock::detail::require_in_range("switch_network", "SL", sl, 0, levels_.sls() - 1);
    if (!measure_.started()) measure_.reset(now_);
    create(static_cast<std::uint32_t>(src), static_cast<std::uint32_t>(dst),
           static_cast<std::uint32_t>(sl));
    allocate();
    schedule_links();
  }

  /// Stops creating packets and runs until every packet is delivered.
  void drain() {
    generating_ = false;
    advance(~std::uint64_t{0});
  }

  std::vector<sl_result> results() const { return measure_.results(layout_.nics(), now_); }

  std::uint64_t packets_created() const noexcept { return total_created_; }
  std::uint64_t packets_delivered() const noexcept { return total_delivered_; }
  std::uint64_t packets_in_flight() const noexcept { return total_created_ - total_delivered_; }
  /// Flits sent so far by each switch output port, and received by each input port.
  std::uint64_t flits_sent(std::size_t s, std::size_t p) const noexcept {
    return link_flits_[s * shape_.ports + p];
  }
  std::uint64_t flits_received(std::size_t s, std::size_t p) const noexcept {
    return input_flits_[s * shape_.ports + p];
  }
  /// The largest number of flits any link or input port carried in one
  /// cycle, and any crossbar transfer into one buffer (checks of the speeds).
  std::uint32_t peak_link_rate() const noexcept { return peak_link_; }
  double peak_crossbar_rate() const noexcept { return peak_crossbar_; }

  /// What breaks the model's invariants, or "".
  std::string audit() const {
    const std::size_t buffers = buffers_.size();
    for (std::size_t b = 0; b < buffers; ++b) {
      const buffer& B = buffers_[b];
      for (std::size_t v = 0; v < levels_.vls(); ++v) {
        std::uint64_t queued = 0;
        for (std::uint32_t id = B.queue[v].head; id != fifo_end; id = packets_[id].next)
          queued += packets_[id].flits;
        if (B.space.used(v) != queued + B.leaving[v]) {
          return "buffer " + std::to_string(b) + " VL " + std::to_string(v) + " holds " +
                 std::to_string(B.space.used(v)) + " flits but queues " + std::to_string(queued) +
                 " and sends " + std::to_string(B.leaving[v]);
        }
      }
    }
    for (std::size_t l = 0; l < links_.size(); ++l) {
      const link& L = links_[l];
      if (L.to_input == no_buffer) continue;
      for (std::size_t v = 0; v < levels_.vls(); ++v) {
        const std::uint64_t seen = L.credit_view.used(v);
        const std::uint64_t real = buffers_[L.to_input].space.used(v) + L.credits_in_flight[v];
        if (seen != real) {
          return "link " + std::to_string(l) + " VL " + std::to_string(v) + " sees " +
                 std::to_string(seen) + " flits used downstream, " + std::to_string(real) +
                 " are (occupancy + credits in flight)";
        }
      }
    }
    if (!generating_ && events_.empty()) {
      if (total_created_ != total_delivered_) {
        return std::to_string(total_created_ - total_delivered_) + " packets never delivered";
      }
      for (std::size_t b = 0; b < buffers; ++b) {
        if (buffers_[b].space.used() != 0)
          return "buffer " + std::to_string(b) + " not empty after drain";
      }
    }
    return {};
  }

 private:
  static constexpr std::uint32_t no_buffer = 0xFFFFFFFFu;

  struct packet_record {
    std::uint64_t created = 0, injected = 0;
    std::uint64_t head_ready = 0, tail_at = 0;
    std::uint32_t next = fifo_end;
    std::uint32_t src = 0, dst = 0;
    std::uint32_t flits = 0;
    std::uint16_t out = 0;                  // the output port chosen at this switch
    std::uint8_t sl = 0, sc = 0, vl = 0;    // the SC and VL it holds now
    std::uint8_t next_sc = 0, next_vl = 0;  // those it takes out of this switch
  };

  struct buffer {
    vl_space space;
    std::array<packet_fifo, vl_space::max_vls> queue{};
    std::uint32_t occupied = 0;  // bit v: queue[v] holds a packet
    std::array<std::uint32_t, vl_space::max_vls> leaving{};
    std::uint64_t read_busy_until = 0;        // as a source: its crossbar input
    std::uint64_t write_busy_until = 0;       // as a destination: its write port
    std::uint64_t stamp = ~std::uint64_t{0};  // the cycle it was last woken as a source
    std::uint32_t link_in = no_buffer;        // the link feeding it (input buffers)
    round_robin_arbiter<32, rr_order::ascending> vl_arbiter;
    round_robin_arbiter<64, rr_order::ascending> source_arbiter;
    std::vector<std::uint32_t> waiters;  // sources waiting for its room or write port
  };

  struct link {
    std::uint32_t from = 0;              // its output buffer or NIC queue
    std::uint32_t to_input = no_buffer;  // the input buffer at the other end, or none (a NIC)
    std::uint32_t latency = 0;
    std::uint64_t busy_until = 0;
    std::uint64_t stamp = ~std::uint64_t{0};
    vl_space credit_view;
    std::array<std::uint32_t, vl_space::max_vls> credits_in_flight{};
    Scheduler scheduler;
  };

  enum class ev : std::uint8_t {
    wake_source,
    wake_link,
    release,
    port_free,
    credit,
    generate,
    deliver
  };
  struct event {
    std::uint64_t at;
    std::uint64_t order;
    ev kind;
    std::uint32_t a, b, c;
    bool operator>(const event& o) const noexcept {
      return at != o.at ? at > o.at : order > o.order;
    }
  };

  void build(const Scheduler& scheduler) {
    const std::size_t S = layout_.switches(), P = shape_.ports;
    const std::size_t vls = levels_.vls();
    inputs_ = 0;
    outputs_ = S * P;
    centrals_ = 2 * S * P;
    nic_base_ = centrals_ + S * shape_.central_buffers();
    const auto space = [&](std::uint32_t capacity) {
      const std::uint32_t max = std::min(shape_.vl_max_flits, capacity);
      return vl_space(capacity, vls, std::min(shape_.vl_min_flits, capacity / std::uint32_t(vls)),
                      max);
    };
    buffers_.resize(nic_base_ + layout_.nics());
    for (std::size_t b = 0; b < buffers_.size(); ++b) {
      std::uint32_t capacity = b < outputs_    ? shape_.input_flits
                               : b < centrals_ ? shape_.output_flits
                               : b < nic_base_ ? shape_.central_flits
                                               : (1u << 30);
      buffers_[b].space = b < nic_base_ ? space(capacity) : vl_space(capacity, vls, 0, capacity);
    }
    // Links: one per switch output port with a peer, then one per NIC.
    link_of_output_.assign(S * P, no_buffer);
    for (std::size_t s = 0; s < S; ++s) {
      for (std::size_t p = 0; p < P; ++p) {
        const port_peer& q = layout_.peer(s, p);
        if (q.what == port_peer::kind::none) continue;
        link L{static_cast<std::uint32_t>(outputs_ + s * P + p),
               q.what == port_peer::kind::switch_port
                   ? static_cast<std::uint32_t>(inputs_ + q.id * P + q.port)
                   : no_buffer,
               shape_.latency.fly,
               0,
               ~std::uint64_t{0},
               space(shape_.input_flits),
               {},
               scheduler};
        link_of_output_[s * P + p] = static_cast<std::uint32_t>(links_.size());
        if (L.to_input != no_buffer) buffers_[L.to_input].link_in = std::uint32_t(links_.size());
        links_.push_back(std::move(L));
      }
    }
    nic_link_ = links_.size();
    for (std::size_t n = 0; n < layout_.nics(); ++n) {
      const nic_attachment& at = layout_.nic(n);
      link L{static_cast<std::uint32_t>(nic_base_ + n),
             static_cast<std::uint32_t>(inputs_ + at.sw * P + at.port),
             shape_.latency.inj,
             0,
             ~std::uint64_t{0},
             space(shape_.input_flits),
             {},
             scheduler};
      buffers_[L.to_input].link_in = static_cast<std::uint32_t>(links_.size());
      links_.push_back(std::move(L));
    }
    for (std::size_t sw = 0; sw < S; ++sw) switch_rng_.emplace_back(sw + 1);
    link_flits_.assign(S * P, 0);
    input_flits_.assign(S * P, 0);
    requests_.assign(S * P + S * shape_.mports(), 0);
    chosen_vl_.assign(nic_base_, 0);
  }

  // ---- events ------------------------------------------------------------
  void push(std::uint64_t at, ev kind, std::uint32_t a, std::uint32_t b = 0, std::uint32_t c = 0) {
    events_.push(event{at, order_++, kind, a, b, c});
  }
  void wake_source(std::uint32_t b) {
    buffer& B = buffers_[b];
    if (B.stamp == now_) return;
    B.stamp = now_;
    sources_.push_back(b);
  }
  void wake_link(std::uint32_t l) {
    link& L = links_[l];
    if (L.stamp == now_) return;
    L.stamp = now_;
    ready_links_.push_back(l);
  }
  void wake_waiters(std::uint32_t d) {
    auto& w = buffers_[d].waiters;
    for (const std::uint32_t s : w) wake_source(s);
    w.clear();
  }

  void enqueue(buffer& B, std::size_t v, std::uint32_t id) noexcept {
    B.queue[v].push(packets_, id);
    B.occupied |= std::uint32_t{1} << v;
  }
  std::uint32_t dequeue(buffer& B, std::size_t v) noexcept {
    const std::uint32_t id = B.queue[v].pop(packets_);
    if (B.queue[v].empty()) B.occupied &= ~(std::uint32_t{1} << v);
    return id;
  }

  std::uint32_t acquire() {
    if (!free_.empty()) {
      const std::uint32_t id = free_.back();
      free_.pop_back();
      packets_[id] = packet_record{};
      return id;
    }
    packets_.emplace_back();
    return static_cast<std::uint32_t>(packets_.size() - 1);
  }

  void generate(std::uint32_t n, std::uint32_t sl) {
    if (!generating_) return;
    generators_.fire(
        n, sl, now_, [&](std::uint32_t dst) { create(n, dst, sl); },
        [&](std::uint64_t at, std::uint32_t nic, std::uint32_t s) {
          push(at, ev::generate, nic, s);
        });
  }

  void create(std::uint32_t n, std::uint32_t dst, std::uint32_t sl) {
    const std::uint32_t id = acquire();
    packet_record& pk = packets_[id];
    pk.created = now_;
    pk.src = n;
    pk.dst = dst;
    pk.flits = traffic_.packet_flits[sl];
    pk.sl = static_cast<std::uint8_t>(sl);
    pk.sc = static_cast<std::uint8_t>(levels_.sc(sl));
    pk.vl = static_cast<std::uint8_t>(levels_.vl(sl));
    pk.head_ready = now_;
    pk.tail_at = now_;
    ++total_created_;
    measure_.created(sl, pk.flits, now_);
    buffer& B = buffers_[nic_base_ + n];
    B.space.reserve(pk.vl, pk.flits);
    enqueue(B, pk.vl, id);
    wake_link(static_cast<std::uint32_t>(nic_link_ + n));
  }

  void deliver(std::uint32_t id) {
    const packet_record& pk = packets_[id];
    ++total_delivered_;
    measure_.delivered(pk.sl, pk.flits, now_ - pk.created, now_ - pk.injected, now_);
    free_.push_back(id);
  }

  // ---- the main loop -----------------------------------------------------
  void advance(std::uint64_t until) {
    while (!events_.empty() && events_.top().at < until) {
      now_ = events_.top().at;
      while (!events_.empty() && events_.top().at == now_) {
        const event e = events_.top();
        events_.pop();
        handle(e);
      }
      allocate();
      schedule_links();
    }
    if (until != ~std::uint64_t{0}) now_ = until;
  }

  void handle(const event& e) {
    switch (e.kind) {
      case ev::wake_source:
        wake_source(e.a);
        break;
      case ev::wake_link:
        wake_link(e.a);
        break;
      case ev::release: {
        buffer& B = buffers_[e.a];
        B.space.release(e.b, e.c);
        B.leaving[e.b] -= e.c;
        wake_waiters(e.a);
        if (e.a < outputs_ && B.link_in != no_buffer) {
          link& L = links_[B.link_in];
          L.credits_in_flight[e.b] += e.c;
          push(now_ + L.latency, ev::credit, B.link_in, e.b, e.c);
        }
        break;
      }
      case ev::port_free:  // a buffer's write port: its waiters try again
        wake_waiters(e.a);
        // An output buffer's link is looked at as a packet lands in it. This
        // fixes the order links act in within a cycle, and so the order in
        // which a switch draws the route choices of the packets they send it.
        if (e.a >= outputs_ && e.a < centrals_) {
          const std::uint32_t l = link_of_output_[e.a - outputs_];
          if (l != no_buffer) wake_link(l);
        }
        break;
      case ev::credit: {
        link& L = links_[e.a];
        L.credit_view.release(e.b, e.c);
        L.credits_in_flight[e.b] -= e.c;
        wake_link(e.a);
        break;
      }
      case ev::generate:
        generate(e.a, e.b);
        break;
      case ev::deliver:
        deliver(e.a);
        break;
    }
  }

  // Where the head of buffer b's VL goes next: an output buffer, or the
  // central stage of b's MPort (returned as central_stage + group).
  std::uint32_t destination(std::uint32_t b, const packet_record& pk) const noexcept {
    const std::size_t P = shape_.ports;
    if (b < outputs_) {
      const std::size_t s = b / P, p = b % P;
      const std::size_t o = pk.out;
      if (shape_.mport_of(o) == shape_.mport_of(p))
        return static_cast<std::uint32_t>(outputs_ + s * P + o);
      return static_cast<std::uint32_t>(central_stage() + s * shape_.mports() + shape_.mport_of(p));
    }
    const std::size_t c = b - centrals_;
    const std::size_t s = c / shape_.central_buffers();
    return static_cast<std::uint32_t>(outputs_ + s * P + pk.out);
  }
  std::size_t central_stage() const noexcept { return buffers_.size(); }
  std::uint32_t central_buffer(std::uint32_t group, std::size_t j) const noexcept {
    return static_cast<std::uint32_t>(centrals_ + group * shape_.central_links + j);
  }
  bool can_take(std::uint32_t d, const packet_record& pk) const noexcept {
    const buffer& D = buffers_[d];
    return D.write_busy_until <= now_ && D.space.fits(pk.next_vl, pk.flits);
  }

  // The requester index a source has at a destination's arbiter.
  std::size_t local_index(std::uint32_t src) const noexcept {
    const std::size_t P = shape_.ports, m = shape_.mport_ports;
    if (src < outputs_) return (src % P) % m;
    return m + (src - centrals_) % shape_.central_buffers();
  }
  std::uint32_t source_of(std::uint32_t d_index, std::size_t local) const noexcept {
    // d_index: an output buffer's index (s * P + o) or a central group's (s * M + g).
    const std::size_t P = shape_.ports, m = shape_.mport_ports;
    if (d_index < outputs_) {
      const std::size_t s = d_index / P, g = shape_.mport_of(d_index % P);
      if (local < m) return static_cast<std::uint32_t>(inputs_ + s * P + g * m + local);
      return static_cast<std::uint32_t>(centrals_ + s * shape_.central_buffers() + (local - m));
    }
    const std::size_t group = d_index - outputs_;
    const std::size_t s = group / shape_.mports(), g = group % shape_.mports();
    return static_cast<std::uint32_t>(inputs_ + s * P + g * m + local);
  }

  void allocate() {
    if (sources_.empty()) return;
    touched_.clear();
    // Virtual allocation: each awake source offers one VL.
    for (const std::uint32_t b : sources_) {
      buffer& B = buffers_[b];
      if (B.read_busy_until > now_) continue;  // woken when its transfer ends
      std::uint64_t eligible = 0;
      for (std::uint32_t m = B.occupied; m != 0; m &= m - 1) {
        const std::size_t v = bits::lowest_index(m);
        const packet_record& pk = packets_[B.queue[v].head];
        if (pk.head_ready > now_) continue;  // woken when it is ready
        const std::uint32_t d = destination(b, pk);
        head_destination_[v] = d;
        if (d >= central_stage()) {
          const std::uint32_t group = d - static_cast<std::uint32_t>(central_stage());
          bool any = false;
          for (std::size_t j = 0; j < shape_.central_links; ++j)
            any = any || can_take(central_buffer(group, j), pk);
          if (any) {
            eligible |= std::uint64_t{1} << v;
          } else {
            for (std::size_t j = 0; j < shape_.central_links; ++j)
              buffers_[central_buffer(group, j)].waiters.push_back(b);
          }
        } else if (can_take(d, pk)) {
          eligible |= std::uint64_t{1} << v;
        } else {
          buffers_[d].waiters.push_back(b);
        }
      }
      if (eligible == 0) continue;
      const grant g = B.vl_arbiter.arbitrate(eligible);
      const std::size_t v = g.index();
      chosen_vl_[b] = static_cast<std::uint8_t>(v);
      const std::uint32_t d = head_destination_[v];
      const std::size_t di = d >= central_stage()
                                 ? outputs_ + (d - central_stage())  // central groups after outputs
                                 : d - outputs_;
      if (requests_[di] == 0) touched_.push_back(static_cast<std::uint32_t>(di));
      requests_[di] |= std::uint64_t{1} << local_index(b);
    }
    sources_.clear();
    // Switch allocation: each requested destination grants one source.
    for (const std::uint32_t di : touched_) {
      std::uint64_t req = requests_[di];
      requests_[di] = 0;
      if (di < outputs_) {
        buffer& D = buffers_[outputs_ + di];
        const grant g = D.source_arbiter.arbitrate(req);
        const std::uint32_t src = source_of(di, g.index());
        D.source_arbiter.commit(g);
        transfer(src, static_cast<std::uint32_t>(outputs_ + di));
        req &= ~(std::uint64_t{1} << g.index());
      } else {
        const std::uint32_t group = di - static_cast<std::uint32_t>(outputs_);
        for (std::size_t j = 0; j < shape_.central_links && req != 0; ++j) {
          const std::uint32_t cb = central_buffer(group, j);
          buffer& D = buffers_[cb];
          std::uint64_t fit = 0;
          for (std::uint64_t r = req; r != 0; r &= r - 1) {
            const std::size_t local = bits::lowest_index(r);
            const std::uint32_t src = source_of(di, local);
            const buffer& B = buffers_[src];
            if (can_take(cb, packets_[B.queue[chosen_vl_[src]].head]))
              fit |= std::uint64_t{1} << local;
          }
          if (fit == 0) continue;
          const grant g = D.source_arbiter.arbitrate(fit);
          D.source_arbiter.commit(g);
          transfer(source_of(di, g.index()), cb);
          req &= ~(std::uint64_t{1} << g.index());
        }
      }
      // Sources that lost try again next cycle.
      for (std::uint64_t r = req; r != 0; r &= r - 1)
        push(now_ + 1, ev::wake_source, source_of(di, bits::lowest_index(r)));
    }
  }

  void transfer(std::uint32_t src, std::uint32_t dst) {
    buffer& B = buffers_[src];
    const std::size_t v = chosen_vl_[src];
    B.vl_arbiter.commit(grant(v));
    const std::uint32_t id = dequeue(B, v);
    packet_record& pk = packets_[id];
    const bool from_input = src < outputs_;
    const std::uint32_t speed = from_input ? shape_.mport_speedup : shape_.central_speedup;
    const std::uint64_t end = std::max(now_ + (pk.flits + speed - 1) / speed, pk.tail_at);
    peak_crossbar_ =
        std::max(peak_crossbar_, static_cast<double>(pk.flits) / static_cast<double>(end - now_));
    B.read_busy_until = end;
    B.leaving[v] += pk.flits;
    push(end, ev::release, src, static_cast<std::uint32_t>(v), pk.flits);
    push(end, ev::wake_source, src);
    // Out of the input buffer the packet takes the SC and VL of its route.
    pk.sc = pk.next_sc;
    pk.vl = pk.next_vl;
    buffer& D = buffers_[dst];
    D.space.reserve(pk.vl, pk.flits);
    D.write_busy_until = end;
    const bool to_output = dst < centrals_;
    const std::uint64_t delay =
        shape_.latency.at + shape_.latency.x + (to_output ? shape_.latency.sb : 0);
    pk.head_ready = now_ + delay;
    pk.tail_at = end + delay;
    enqueue(D, pk.vl, id);
    if (to_output) {
      const std::uint32_t l = link_of_output_[dst - outputs_];
      push(pk.head_ready, ev::wake_link, l);
    } else {
      push(pk.head_ready, ev::wake_source, dst);
    }
    push(end, ev::port_free, dst);
  }

  void schedule_links() {
    for (const std::uint32_t l : ready_links_) send(l);
    ready_links_.clear();
  }

  void send(std::uint32_t l) {
    link& L = links_[l];
    if (L.busy_until > now_) return;  // woken when it frees
    buffer& B = buffers_[L.from];
    qos::queue_requests r;
    std::uint64_t mask = 0;
    for (std::uint32_t m = B.occupied; m != 0; m &= m - 1) {
      const std::size_t v = bits::lowest_index(m);
      const packet_record& pk = packets_[B.queue[v].head];
      if (pk.head_ready > now_) continue;
      if (L.to_input != no_buffer && !L.credit_view.fits(v, pk.flits)) continue;
      const std::size_t q = per_vl ? v : pk.sc;
      mask |= std::uint64_t{1} << q;
      head_size_[q] = head_units<Scheduler>(pk.flits, shape_);
      queue_vl_[q] = static_cast<std::uint8_t>(v);
    }
    if (mask == 0) return;
    r.requests = mask;
    r.head_size = span<const std::uint32_t>(head_size_.data(), head_size_.size());
    const grant g = L.scheduler.arbitrate(r);
    if (!g) return;
    L.scheduler.commit(g, r);
    const std::size_t v = queue_vl_[g.index()];
    const std::uint32_t id = dequeue(B, v);
    packet_record& pk = packets_[id];
    const std::uint64_t end = std::max(now_ + pk.flits, pk.tail_at);
    L.busy_until = end;
    push(end, ev::wake_link, l);
    if (L.from >= nic_base_) {
      pk.injected = now_;
      B.space.release(v, pk.flits);
    } else {
      B.leaving[v] += pk.flits;
      push(end, ev::release, L.from, static_cast<std::uint32_t>(v), pk.flits);
      link_flits_[L.from - outputs_] += pk.flits;
    }
    peak_link_ = std::max<std::uint32_t>(
        peak_link_, static_cast<std::uint32_t>((pk.flits + (end - now_) - 1) / (end - now_)));
    if (L.to_input == no_buffer) {
      push(end + L.latency, ev::deliver, id);
      return;
    }
    L.credit_view.reserve(v, pk.flits);
    buffer& D = buffers_[L.to_input];
    D.space.reserve(v, pk.flits);
    input_flits_[L.to_input - inputs_] += pk.flits;
    route(L.to_input, pk);
    pk.head_ready = now_ + L.latency + shape_.latency.sb + shape_.latency.rt;
    pk.tail_at = end + L.latency + shape_.latency.sb;
    if (shape_.whole_packet_crossing) pk.head_ready = std::max(pk.head_ready, pk.tail_at);
    enqueue(D, v, id);
    push(pk.head_ready, ev::wake_source, L.to_input);
  }

  // Routing at an input buffer: a port of the route's group, picked at
  // random by the switch's generator, and the SC and VL of its class.
  void route(std::uint32_t input, packet_record& pk) {
    const std::size_t s = (input - inputs_) / shape_.ports;
    const switch_route& r = layout_.route_entry(s, pk.dst);
    const std::size_t pick = r.count > 1 ? uniform_below(switch_rng_[s], r.count) : 0;
    pk.out = static_cast<std::uint16_t>(r.first + pick);
    pk.next_sc = static_cast<std::uint8_t>(levels_.sc(pk.sl, r.cls));
    pk.next_vl = static_cast<std::uint8_t>(levels_.vl(pk.sl, r.cls));
  }

  switch_layout layout_;
  switch_shape shape_;
  service_levels levels_;
  sl_traffic traffic_;

  std::size_t inputs_ = 0, outputs_ = 0, centrals_ = 0, nic_base_ = 0, nic_link_ = 0;
  std::vector<buffer> buffers_;
  std::vector<link> links_;
  std::vector<std::uint32_t> link_of_output_;
  std::vector<packet_record> packets_;
  std::vector<std::uint32_t> free_;
  std::priority_queue<event, std::vector<event>, std::greater<event>> events_;
  std::uint64_t order_ = 0, now_ = 0;

  std::vector<std::uint32_t> sources_, ready_links_, touched_;
  std::vector<std::uint64_t> requests_;
  std::vector<std::uint8_t> chosen_vl_;
  std::array<std::uint32_t, max_queues> head_size_{};
  std::array<std::uint8_t, max_queues> queue_vl_{};
  std::array<std::uint32_t, vl_space::max_vls> head_destination_{};  // allocate()'s, per VL

  bool generating_ = false, ran_ = false;
  std::vector<splitmix64> switch_rng_;
  switch_sources generators_;  // the NICs' packet sources
  switch_measurement measure_;
  std::uint64_t total_created_ = 0, total_delivered_ = 0;
  std::vector<std::uint64_t> link_flits_, input_flits_;
  std::uint32_t peak_link_ = 0;
  double peak_crossbar_ = 0;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_SWITCH_NETWORK_HPP
