// SPDX-License-Identifier: BSL-1.0
// interlock/model/network.hpp: a cycle-level network of credit-based virtual cut-through
// routers on a torus or mesh, composing any interlock routing scheme and output policy.
//
// Contract
//   network<Scheme, Policy> is one router per node of Scheme's
//   torus_topology (ports numbered by the topology: port_of(d, sign,
//   slice), local_port() for injection and ejection), each deciding as
//   router<Scheme, Policy> (router.hpp) says, and one traffic source per
//   node (sources.hpp). The network moves what the routers decide:
//   - Input buffers per (port, VC) of config::buffer_flits flits
//     (config::injection_buffer_flits at the local port,
//     config::adapter_buffer_flits at routers hosting no endpoints), FIFO. A
//     packet granted an output takes credits for all of it downstream; its
//     flits then cross the switch and the channel one per cycle (the input
//     port and the output channel are busy for `flits` cycles). Its head
//     reaches the next router config::channel_latency cycles after it leaves
//     and may compete there config::router_delay cycles later, before its
//     tail has arrived.
//   - Credits return when a packet's tail leaves its buffer, after the
//     channel latency (per packet: for multi-flit packets a buffer's space
//     comes back up to `flits - 1` cycles later than flit-level credits
//     would say; exact for 1-flit packets).
//   - Injection: a node's oldest queued packet enters a local input port
//     (one per endpoint, config::endpoints; the first whose injection
//     channel is free), one packet at a time at config::endpoint_bandwidth
//     flits per cycle, into the VC set of its first hop; it leaves its
//     destination through the endpoint drawn at creation, as fast.
//   - With config::switch_stages = 2, an input's pick reaches its output's
//     arbiter a cycle later (SA1, SA2; router.hpp).
//   - With config::head_cycles, each packet waits that long at the head of
//     its buffer before it competes (route computation and VC allocation).
//   - With an age-reading Policy, the age clocks tick every cycle; a packet
//     is aged on arrival (Procedure 1, with its input port's bias) and
//     leaves with its age computed at the output (Procedure 2, send_packet);
//     the Table 4 counters count departures by age.
//   - With config::utilization_bin, the links between nodes' use over the
//     run, per bin (link_timeline.hpp, results::link_utilization).
//   - The run: warm-up, a measured window and a drain (config), or a batch;
//     a network holding packets in which nothing moves for the stall limit
//     is declared deadlocked and the cycle of full buffers reported.
//   - With config::threads, the routers step on that many threads, each a
//     block of them (router_sweep.hpp): the same run, bit for bit.
//   It is a composition of parts, none deriving from another: the routers
//   (router.hpp), the channels between them (channel_unit.hpp), the
//   endpoints' injection (injection_unit.hpp) and the sweep over the
//   routers (router_sweep.hpp); here the state they share,
//   the cycle and the run (the configuration's checks: network_checks.hpp;
//   results: network_results.hpp).
//   Work per cycle is proportional to activity: events sit on a timing
//   wheel (event_wheel.hpp), creations in a heap, and only routers holding
//   packets and nodes with packets to send are visited.
//   Configuration is validated once, here: config::check(), then what needs
//   the scheme (VCs, ports, the age clock's 2047-packet limit), each error a
//   config_error naming the config field ("vcs", "buffer_flits", ...) or
//   the age_config field ("port_bias").
//
// Example
//   using namespace interlock;
//   torus_topology t({4, 4}, {true, true});
//   dimension_order_routing dor(t);
//   model::config c;
//   c.load = 0.2;
//   traffic::uniform_random uniform;
//   model::network<dimension_order_routing, round_robin_arbiter<64>> net(
//       dor, c, [&](node_id s, splitmix64& g) { return uniform.destination(t, s, g); },
//       [](node_id, std::size_t) { return round_robin_arbiter<64>{}; });
//   model::results r = net.run();      // r.accepted is about 0.2
#ifndef INTERLOCK_MODEL_NETWORK_HPP
#define INTERLOCK_MODEL_NETWORK_HPP

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "interlock/core/bits.hpp"
#include "interlock/core/random.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/model/anton2_node.hpp"
#include "interlock/model/audit.hpp"
#include "interlock/model/channel_unit.hpp"
#include "interlock/model/config.hpp"
#include "interlock/model/deadlock.hpp"
#include "interlock/model/event_wheel.hpp"
#include "interlock/model/fabric.hpp"
#include "interlock/model/injection_unit.hpp"
#include "interlock/model/link_timeline.hpp"
#include "interlock/model/measurement.hpp"
#include "interlock/model/network_checks.hpp"
#include "interlock/model/network_results.hpp"
#include "interlock/model/packet.hpp"
#include "interlock/model/router.hpp"
#include "interlock/model/router_state.hpp"
#include "interlock/model/router_sweep.hpp"
#include "interlock/model/sources.hpp"
#include "interlock/model/vc_sets.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

template <class Scheme, class Policy, class Allocator = separable_input_first,
          class InputPolicy = round_robin_arbiter<64>>
class network {
 public:
  using route_state = typename Scheme::state;
  using router_type = router<Scheme, Policy, Allocator, InputPolicy>;
  using policy_factory = typename router_type::policy_factory;
  using input_policy_factory = typename router_type::input_policy_factory;
  static constexpr bool ages = router_type::ages;

  /// A network of Scheme's topology: `make_policy(router, output port)`
  /// makes each output's policy, `make_input(router, input port)` each input
  /// port's (empty: InputPolicy{}); `age` is used with an age-reading policy.
  network(const Scheme& scheme, const config& cfg, traffic_source destination,
          const policy_factory& make_policy, age_config age = {}, const Allocator& allocator = {},
          const input_policy_factory& make_input = {})
      : scheme_(scheme),
        f_(make_fabric(scheme.topology())),
        cfg_(detail::checked_config(cfg, f_)),
        destination_(std::move(destination)),
        age_cfg_(std::move(age)),
        sets_(scheme.vcs_per_channel(), scheme.vcs_per_class(),
              cfg_.response_share<1, cfg_.response_share> 0, cfg_.vcs),
        s_(detail::make_router_state(f_, sets_, cfg_, detail::scheme_candidates(scheme))),
        age_(ages ? detail::checked_age(age_cfg_, f_, sets_, cfg_) : 0, s_.ports, age_cfg_),
        router_(scheme, s_, sets_, age_, pool_, make_policy, age_cfg_.rule, allocator, make_input),
        wheel_(
            cfg_.channel_latency + f_.max_extra_latency() + cfg_.router_delay +
            static_cast<std::uint64_t>(std::ceil(
                cfg_.max_flits() / std::min(cfg_.endpoint_bandwidth, detail::min_bandwidth(f_)))) +
            3),
        src_(f_.routers(), cfg_, detail::host_flags(f_)),
        m_(f_.routers(), s_.ports),
        timeline_(f_, cfg_.utilization_bin),
        channels_(f_, cfg_, s_),
        injection_(static_cast<std::size_t>(f_.routers()) * cfg_.endpoints) {
    stall_limit_ = cfg_.stall_limit != 0 ? cfg_.stall_limit
                                         : 1000 + 8 * (cfg_.max_flits() + cfg_.channel_latency +
                                                       f_.max_extra_latency() + cfg_.router_delay);
    router_.set_prefetch(cfg_.prefetch);
    sweep_.spread(*this, cfg_.threads);
  }
  network(const network&) = delete;
  network& operator=(const network&) = delete;

  /// Called for every packet that wins an output: (router, input port, output
  /// port, flits, cycle); tests check the ports' one flit per cycle with it.
  std::function<void(node_id, std::size_t, std::size_t, unsigned, std::uint64_t)> on_send;
  /// Called for every packet delivered: (source, destination, class, sequence, cycle).
  std::function<void(node_id, node_id, unsigned, std::uint64_t, std::uint64_t)> on_delivery;

  // ---- running ----------------------------------------------------------

  /// Runs on `traffic` (a trace, model/trace_replay.hpp) instead of the
  /// sources' draws; before start(). The traffic must outlive the run. The
  /// run then measures every packet, like a batch, and ends when the
  /// traffic is done and the network empty (or at config::measure +
  /// config::drain cycles, or a deadlock).
  void drive(external_traffic& traffic) {
    if (started_) throw std::logic_error("network::drive after the run started");
    feed_ = &traffic;
  }

  /// Sets the traffic going: the first creations of a Bernoulli run, or
  /// every packet of a batch. run() calls it; a test that steps the network
  /// itself calls it once first.
  void start() {
    if (started_) return;
    started_ = true;
    if (finite()) {
      m_.set_window(0, ~std::uint64_t{0});
      if (cfg_.count_requests) router_.count_requests(true);
      if (feed_ != nullptr) return;  // a trace's packets are counted as they are released
      // Every packet of a batch is measured; one whose source sends nothing
      // is taken back when it is dropped.
      for (std::uint64_t k = 0; k < cfg_.batch * f_.host_count(); ++k) m_.count_created();
    } else {
      m_.set_window(cfg_.warmup, cfg_.warmup + cfg_.measure);
    }
    src_.start();
  }

  /// The last cycle a run may reach: the drain's end (a batch: the cycle limit).
  std::uint64_t end_of_run() const {
    return finite() ? cfg_.measure + cfg_.drain : m_.window_end() + cfg_.drain;
  }

  /// With nothing in flight (no packet in the network, in a source queue or
  /// on its way out, no event), jumps to the next creation, window boundary
  /// or the end of the run; returns whether it jumped. run() calls it before
  /// every step (not with config::evaluate_every_cycle).
  bool skip_idle() {
    if (in_network_ != 0 || src_.any_injecting() || wheel_.pending() != 0) return false;
    std::uint64_t target = std::min(src_.next_creation(), end_of_run());
    if (feed_ != nullptr) target = std::min(target, feed_->next_ready());
    if (now_ < m_.window_start()) target = std::min(target, m_.window_start());
    if (now_ < m_.window_end()) target = std::min(target, m_.window_end());
    if (target <= now_ || target == sources::never) return false;
    if constexpr (ages) age_.tick_idle(target - now_);
    now_ = target;
    return true;
  }

  /// Whether a run is over: a batch delivered (or out of cycles), the
  /// measured packets delivered after the window (or the drain used up),
  /// or a deadlock.
  bool finished() const {
    if (deadlock_.deadlocked) return true;
    if (now_ >= end_of_run()) return true;
    if (feed_ != nullptr) return feed_->done() && in_network_ == 0 && delivered_ == src_.enqueued();
    if (cfg_.batch > 0) return delivered_ + dropped_ == src_.enqueued();
    return now_ >= m_.window_end() && m_.measured_delivered() == m_.measured_created();
  }

  /// Runs warm-up, the measured window and the drain (or a batch) and
  /// returns what was measured. `progress(fraction)` is called now and then.
  results run(const std::function<void(double)>& progress = {}) {
    const auto start_time = std::chrono::steady_clock::now();
    start();
    while (!finished()) {
      if (!cfg_.evaluate_every_cycle && skip_idle() && finished()) break;
      step();
      if (progress && (now_ & 4095) == 0) progress(progress_fraction());
    }
    results r;
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
    collect(r);
    return r;
  }

  /// How far the run is: delivered share of a batch, else cycles of the window.
  double progress_fraction() const {
    if (feed_ != nullptr) return static_cast<double>(now_) / static_cast<double>(end_of_run());
    if (cfg_.batch > 0)
      return src_.enqueued() == 0 ? 1
                                  : static_cast<double>(delivered_ + dropped_) /
                                        static_cast<double>(src_.enqueued());
    return static_cast<double>(now_) / static_cast<double>(m_.window_end());
  }

  /// One cycle.
  void step() {
    const std::uint64_t t = now_;
    ++stepped_;
    if constexpr (ages) {
      if (t == m_.window_start() && !window_snapshot_) take_snapshot(window_snapshot_, t);
      if (t == m_.window_end() && !end_snapshot_) take_snapshot(end_snapshot_, t);
    }
    if (cfg_.count_requests && cfg_.batch == 0) {
      if (t == m_.window_start()) router_.count_requests(true);
      if (t == m_.window_end()) router_.count_requests(false);
    }
    sweep_.handle(*this, wheel_.due(t));
    wheel_.clear(t);
    src_.create_due(t, [this](node_id, std::uint64_t at) {
      if (m_.in_window(at)) m_.count_created();
    });
    if (feed_ != nullptr)
      feed_->release(t, [this, t](node_id n, const offered_packet& p) {
        if (n >= feed_sends_.size()) feed_sends_.resize(n + std::size_t{1});
        feed_sends_[n] = true;
        m_.count_created();
        src_.offer(n, t, p);
      });
    if constexpr (ages) age_.tick();
    sweep_.inject(*this, t);
    sweep_.step(*this, t);
    if (in_network_ > 0 && t - last_progress_ > stall_limit_) {
      deadlock_ = find_deadlock(s_, f_, t);
      if (deadlock_.deadlocked && !finite()) m_.end_window_at(t);
    }
    ++now_;
  }

  // ---- observation (tests, drivers) -------------------------------------

  std::uint64_t now() const noexcept { return now_; }
  std::size_t vcs() const noexcept { return sets_.physical(); }
  std::size_t vc_replication() const noexcept { return sets_.replication(); }
  std::uint64_t created() const noexcept { return created_; }
  std::uint64_t injected() const noexcept { return injected_; }
  std::uint64_t delivered() const noexcept { return delivered_; }
  std::uint64_t in_network() const noexcept { return in_network_; }
  const deadlock_report& deadlock() const noexcept { return deadlock_; }
  const config& configuration() const noexcept { return cfg_; }
  /// The size in flits of each VC's buffer at router r's input port p.
  unsigned buffer_flits(node_id r, std::size_t p) const { return s_.buffer_flits(r, p); }
  /// Flits sent out of router r's output port o during the measured window.
  std::uint64_t channel_flits(node_id r, std::size_t o) const { return m_.channel_flits(r, o); }
  /// The routers' decisions and policies.
  router_type& routers() noexcept { return router_; }
  const router_type& routers() const noexcept { return router_; }

  /// Conservation and every credit loop (audit.hpp); empty if all hold.
  std::string check_invariants() const {
    return audit(s_, pool_, wheel_, packet_counts{injected_, delivered_, in_network_});
  }

 private:
  // A batch or a trace: every packet measured, the run ends when all are delivered.
  bool finite() const noexcept { return cfg_.batch > 0 || feed_ != nullptr; }

  // The parts: the routers, the channels between them and the endpoints'
  // injection, each calling back into the network for what it moves.
  friend router_type;
  friend channel_unit;
  friend injection_unit;
  friend struct lane<network>;
  friend class router_sweep<network>;

  // A router's departures (router.hpp): the channel unit carries them.
  std::uint64_t carry(node_id r, std::size_t in, const choice& c, std::size_t o, std::uint32_t id,
                      std::uint32_t flits, std::uint64_t t) {
    return channels_.carry(*this, r, in, c, o, id, flits, t);
  }
  void release(node_id r, std::size_t in, std::size_t vc, std::uint32_t flits, std::uint64_t t) {
    channels_.release(*this, r, in, vc, flits, t);
  }
  std::uint64_t carry_staged(node_id r, std::size_t o, std::size_t x, std::size_t out_vc,
                             std::uint32_t id, std::uint32_t flits, bool eject, std::uint64_t t) {
    return channels_.carry_staged(*this, r, o, x, out_vc, id, flits, eject, t);
  }

  const Scheme& scheme_;
  fabric f_;
  config cfg_;
  traffic_source destination_;
  age_config age_cfg_;
  vc_sets sets_;
  router_state s_;
  age_state age_;
  packet_pool<route_state> pool_;
  router_type router_;
  event_wheel wheel_;
  sources src_;
  measurement m_;
  link_timeline timeline_;
  channel_unit channels_;
  injection_unit injection_;
  router_sweep<network> sweep_;  // the routers a cycle steps, on one thread or several
  // Time and counts.
  std::uint64_t now_ = 0, last_progress_ = 0, stall_limit_ = 0;
  std::uint64_t created_ = 0, injected_ = 0, delivered_ = 0, in_network_ = 0, sequence_ = 0;
  std::uint64_t dropped_ = 0;  // packets whose source had no destination
  std::uint64_t stepped_ = 0;  // cycles stepped (the others were skipped, idle)
  bool started_ = false;
  external_traffic* feed_ = nullptr;  // a trace's packets, instead of the sources' draws
  // Age runs: the counters at the measured window's start and end.
  std::unique_ptr<age_snapshot> window_snapshot_, end_snapshot_;
  deadlock_report deadlock_;
  std::vector<bool> feed_sends_;  // a trace's: the nodes it has offered a packet

  // ---- results -----------------------------------------------------------------

  void take_snapshot(std::unique_ptr<age_snapshot>& s, std::uint64_t t) {
    s = std::make_unique<age_snapshot>(age_.snapshot(t));
    s->cycle = t;
  }

  void collect(results& r) {
    r.cycles = now_;
    r.stepped_cycles = stepped_;
    r.routers = f_.routers();
    r.deadlock = deadlock_;
    m_.fill(r, f_, s_.local, cfg_.load, finite(), [&](node_id n) {
      if (!f_.hosts(n)) return false;
      if (feed_ != nullptr) return n < feed_sends_.size() && feed_sends_[n];
      splitmix64 probe(n);
      return destination_(n, probe).node != no_node;
    });
    // A trace offers no load of its own: none (its packets are measured).
    if (feed_ != nullptr) r.offered = std::numeric_limits<double>::quiet_NaN();
    if constexpr (ages) {
      if (!window_snapshot_) take_snapshot(window_snapshot_, finite() ? 0 : now_);
      if (!end_snapshot_) take_snapshot(end_snapshot_, now_);
      detail::collect_age(r, *window_snapshot_, *end_snapshot_, f_, s_.ports);
    }
    r.link_utilization = timeline_.utilization(now_);
    if (cfg_.count_requests) detail::collect_requests(r, router_, s_);
  }
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_NETWORK_HPP
