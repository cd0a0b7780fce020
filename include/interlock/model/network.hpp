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
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "interlock/arbiters/age_clock.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/random.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/model/anton2_node.hpp"
#include "interlock/model/audit.hpp"
#include "interlock/model/config.hpp"
#include "interlock/model/deadlock.hpp"
#include "interlock/model/event_wheel.hpp"
#include "interlock/model/link_timeline.hpp"
#include "interlock/model/measurement.hpp"
#include "interlock/model/packet.hpp"
#include "interlock/model/router.hpp"
#include "interlock/model/router_state.hpp"
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
        cfg_(checked(cfg, f_)),
        destination_(std::move(destination)),
        age_cfg_(std::move(age)),
        sets_(scheme.vcs_per_channel(), scheme.vcs_per_class(),
              cfg_.response_share<1, cfg_.response_share> 0, cfg_.vcs),
        s_(make_state(f_, sets_, cfg_, max_candidates(scheme.topology()))),
        age_(ages ? checked_age(age_cfg_, f_, sets_, cfg_) : 0, s_.ports, age_cfg_),
        router_(scheme, s_, sets_, age_, make_policy, age_cfg_.rule, allocator, make_input),
        wheel_(cfg_.channel_latency + f_.max_extra_latency() + cfg_.router_delay +
               static_cast<std::uint64_t>(std::ceil(
                   cfg_.max_flits() / std::min(cfg_.endpoint_bandwidth, min_bandwidth()))) +
               3),
        src_(f_.routers(), cfg_, hosts(f_)),
        m_(f_.routers(), s_.ports),
        timeline_(f_, cfg_.utilization_bin) {
    const node_id nodes = f_.routers();
    stall_limit_ = cfg_.stall_limit != 0 ? cfg_.stall_limit
                                         : 1000 + 8 * (cfg_.max_flits() + cfg_.channel_latency +
                                                       f_.max_extra_latency() + cfg_.router_delay);
    const std::size_t endpoints = static_cast<std::size_t>(nodes) * cfg_.endpoints;
    pending_.assign(endpoints, no_packet);
    pending_set_.assign(endpoints, 0);
    pending_flits_.assign(endpoints, 0);
    inj_free_at_.assign(endpoints, 0);
    inj_busy_.assign(endpoints, 0.0);
    ej_busy_.assign(endpoints, 0.0);
    if (!f_.uniform_bandwidth())
      channel_busy_.assign(static_cast<std::size_t>(nodes) * s_.ports, 0.0);
  }
  network(const network&) = delete;
  network& operator=(const network&) = delete;

  // ---- running ----------------------------------------------------------

  /// Sets the traffic going: the first creations of a Bernoulli run, or
  /// every packet of a batch. run() calls it; a test that steps the network
  /// itself calls it once first.
  void start() {
    if (started_) return;
    started_ = true;
    if (cfg_.batch > 0) {
      m_.set_window(0, ~std::uint64_t{0});
      if (cfg_.count_requests) router_.count_requests(true);
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
    return cfg_.batch > 0 ? cfg_.measure + cfg_.drain : m_.window_end() + cfg_.drain;
  }

  /// With nothing in flight (no packet in the network, in a source queue or
  /// on its way out, no event), jumps to the next creation, window boundary
  /// or the end of the run; returns whether it jumped. run() calls it before
  /// every step (not with config::evaluate_every_cycle).
  bool skip_idle() {
    if (in_network_ != 0 || src_.any_injecting() || wheel_.pending() != 0) return false;
    std::uint64_t target = std::min(src_.next_creation(), end_of_run());
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
    auto& due = wheel_.due(t);
    // The packets arriving now are cold (they were last touched a hop
    // ago): ask for all of them before handling any.
    for (const event& e : due)
      if (e.kind == event_kind::arrival) pool_.prefetch(e.payload);
    for (std::size_t i = 0; i < due.size(); ++i) handle(due[i]);
    wheel_.clear(t);
    src_.create_due(t, [this](node_id, std::uint64_t at) {
      if (m_.in_window(at)) m_.count_created();
    });
    if constexpr (ages) age_.tick();
    inject(t);
    // Routers holding packets, in index order (their state is laid out so).
    for (std::size_t w = 0; w < s_.active.size(); ++w) {
      for (std::uint64_t x = s_.active[w]; x != 0; x &= x - 1) {
        const node_id r = static_cast<node_id>(w * 64 + bits::lowest_index(x));
        if (s_.sleep_until[r] <= t || cfg_.evaluate_every_cycle) router_.step(r, t, mover_);
        if (!s_.holds_packets(r)) s_.active[w] &= ~bits::bit(r % 64);
      }
    }
    if (in_network_ > 0 && t - last_progress_ > stall_limit_) {
      deadlock_ = find_deadlock(s_, f_, t);
      if (deadlock_.deadlocked && cfg_.batch == 0) m_.end_window_at(t);
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
  /// Called for every packet that wins an output: (router, input port, output
  /// port, flits, cycle); tests check the ports' one flit per cycle with it.
  std::function<void(node_id, std::size_t, std::size_t, unsigned, std::uint64_t)> on_send;
  /// Called for every packet delivered: (source, destination, class, sequence, cycle).
  std::function<void(node_id, node_id, unsigned, std::uint64_t, std::uint64_t)> on_delivery;

  /// Conservation and every credit loop (audit.hpp); empty if all hold.
  std::string check_invariants() const {
    return audit(s_, pool_, wheel_, packet_counts{injected_, delivered_, in_network_});
  }

 private:
  // ---- validation --------------------------------------------------------

  static config checked(const config& c, const fabric& f) {
    c.check();
    if (f.network_ports() > 63)
      throw config_error("interlock::model::network", "slices", std::to_string(f.torus().slices()),
                         "at most 64 router ports (2 x dimensions x slices + 1)");
    if (f.network_ports() + c.endpoints > 64)
      throw config_error("interlock::model::config", "endpoints", std::to_string(c.endpoints),
                         "at most " + std::to_string(64 - f.network_ports()) +
                             " here: 64 router ports (network ports + endpoints)");
    return c;
  }
  static router_state make_state(const fabric& f, const vc_sets& sets, const config& c,
                                 std::size_t candidates) {
    router_state s(f, sets.physical(), {c.buffer_flits, c.injection_flits(), c.adapter_flits()},
                   c.min_flits(), candidates, c.endpoints, c.channel_latency);
    if (c.staging_flits != 0) s.add_staging(c.staging_flits, c.staging_flits / c.min_flits());
    if (c.head_cycles != 0) s.add_head_pipeline(c.head_cycles);
    if (c.switch_stages == 2) s.add_switch_stages();
    return s;
  }
  static std::size_t max_candidates(const torus_topology& t) {
    const std::size_t m = 1 + 2 * t.dimensions() * t.slices();
    return m > max_route_candidates ? max_route_candidates : m;
  }
  template <class Topology>
  static std::size_t max_candidates(const Topology& t) {
    return t.max_candidates();
  }
  static std::vector<std::uint8_t> hosts(const fabric& f) {
    std::vector<std::uint8_t> h(f.routers());
    for (node_id r = 0; r < f.routers(); ++r) h[r] = f.hosts(r) ? 1 : 0;
    return h;
  }
  double min_bandwidth() const {
    double b = 1;
    if (f_.uniform_bandwidth()) return b;
    for (node_id r = 0; r < f_.routers(); ++r)
      for (std::size_t o = 0; o < f_.network_ports(); ++o) b = std::min(b, f_.bandwidth(r, o));
    return b;
  }
  static node_id checked_age(const age_config& a, const fabric& f, const vc_sets& sets,
                             const config& c) {
    const std::size_t network = f.network_ports();
    if (!a.port_bias.empty() && a.port_bias.size() != network + 1)
      throw config_error("interlock::model::age_config", "port_bias",
                         std::to_string(a.port_bias.size()) + " ports",
                         "one bias per router port (" + std::to_string(network + 1) + ")");
    // The age clock's packet_count (11 bits) must hold every packet a router
    // can store (the deeper kind's, with channel adapters).
    bool adapters = false;
    for (node_id r = 0; r < f.routers() && !adapters; ++r) adapters = !f.hosts(r);
    const unsigned deepest =
        adapters ? std::max(c.buffer_flits, c.adapter_flits()) : c.buffer_flits;
    const bool by_adapters = deepest != c.buffer_flits;
    const std::size_t capacity = deepest / c.min_flits();
    const std::size_t ports = network + c.endpoints;
    const std::size_t packets =
        (network * capacity + c.endpoints * (c.injection_flits() / c.min_flits()) +
         ports * (c.staging_flits / c.min_flits())) *
        sets.physical();
    if (packets > age_clock::max_packet_count)
      throw config_error(
          "interlock::model::config", by_adapters ? "adapter_buffer_flits" : "buffer_flits",
          std::to_string(deepest),
          "a router holding at most 2047 packets with an age arbiter (the age clock's "
          "11-bit packet_count): " +
              std::to_string(ports) + " ports x " + std::to_string(sets.physical()) + " VCs of " +
              std::to_string(capacity) +
              " packets of the shortest length (the local port's by injection_buffer_flits, and "
              "the staging buffers) is too many");
    return f.routers();
  }

  // ---- injection ----------------------------------------------------------

  // Each endpoint of a node whose injection channel is free takes the next
  // packet of the node's source queue.
  void inject(std::uint64_t t) {
    const std::size_t endpoints = cfg_.endpoints;
    src_.for_each_injecting([&](node_id n) {
      bool pending = false;
      for (std::size_t e = 0; e < endpoints; ++e) {
        const std::size_t k = n * endpoints + e;
        if (inj_free_at_[k] <= t) try_inject(n, e, t);
        pending = pending || pending_[k] != no_packet;
      }
      return pending || !src_.queue(n).empty();
    });
  }

  void try_inject(node_id n, std::size_t e, std::uint64_t t) {
    splitmix64& rng = src_.rng(n);
    const std::size_t k = n * cfg_.endpoints + e;
    while (pending_[k] == no_packet) {
      time_queue& queue = src_.queue(n);
      if (queue.empty()) return;
      const std::uint64_t born = queue.front();
      queue.pop();
      const labelled_destination drawn = destination_(n, rng);
      const node_id d = drawn.node;
      if (d == no_node) {  // this source has nothing to send
        ++dropped_;
        if (cfg_.batch > 0 || m_.in_window(born)) m_.uncount_created();
        continue;
      }
      const std::uint32_t id = pool_.acquire();
      packet<route_state>& p = pool_[id];
      p.created = born;
      p.source = n;
      p.flits = src_.draw_length(n) & 0x7FFu;  // 1..1024
      p.pattern = drawn.pattern;
      const bool response = cfg_.response_share >= 1 ||
                            (cfg_.response_share > 0 && uniform_unit(rng) < cfg_.response_share);
      p.cls = response ? 1 : 0;
      p.route = scheme_.start(n, d, static_cast<traffic_class>(p.cls), rng);
      p.sequence = sequence_++;
      p.measured = (cfg_.batch > 0 || m_.in_window(born)) ? 1 : 0;
      if (cfg_.endpoints > 1)  // (no draw with one endpoint: the same runs as before)
        p.endpoint = static_cast<std::uint16_t>(uniform_below(rng, cfg_.endpoints) & 7u);
      pending_[k] = id;
      // The local input VC: the set of the first hop's VC (any VC of the
      // class for a packet to its own node).
      unsigned scheme_vc = p.cls * scheme_.vcs_per_class();
      if (!scheme_.arrived(n, p.route)) {
        hop options[max_route_candidates];
        scheme_.candidates(n, p.route, options);
        scheme_vc = options[0].vc;
      }
      pending_set_[k] = static_cast<std::uint8_t>(sets_.first(scheme_vc));
      pending_flits_[k] = p.flits;
      ++created_;
    }
    const std::size_t port = s_.local + e;
    const std::size_t base = s_.buffer(n, port, 0);
    const std::uint32_t flits = pending_flits_[k];
    const int pick = sets_.pick(&s_.credits[base + pending_set_[k]], flits);
    if (pick < 0) return;
    const std::size_t v = pending_set_[k] + static_cast<std::size_t>(pick);
    s_.credits[base + v] -= static_cast<std::int32_t>(flits);
    packet<route_state>& p = pool_[pending_[k]];
    p.queued = static_cast<std::uint32_t>(std::min<std::uint64_t>(t - p.created, 0xFFFFFFFFu));
    // The injection channel carries config::endpoint_bandwidth flits per
    // cycle; the head reaches the router so that forwarding it at one flit
    // per cycle never overtakes its tail.
    std::uint64_t head_leaves = t;
    if (cfg_.endpoint_bandwidth >= 1) {
      inj_free_at_[k] = t + flits;
    } else {
      inj_busy_[k] =
          continued(inj_busy_[k], t) + static_cast<double>(flits) / cfg_.endpoint_bandwidth;
      inj_free_at_[k] = static_cast<std::uint64_t>(std::ceil(inj_busy_[k]));
      head_leaves = std::max(t, inj_free_at_[k] - flits);
    }
    if (p.measured) m_.count_injected();
    if (in_network_ == 0) last_progress_ = t;  // an empty network has not stalled
    ++injected_;
    ++in_network_;
    wheel_.schedule(head_leaves + cfg_.channel_latency + cfg_.router_delay,
                    event{event_kind::arrival, static_cast<std::uint8_t>(port),
                          static_cast<std::uint8_t>(v), n, pending_[k]});
    pending_[k] = no_packet;
  }

  // When a slow endpoint port busy until `busy` (a fraction of a cycle) starts
  // its next packet at cycle t: right after the last one when it goes on at
  // once (the fraction is not lost), else at t.
  static double continued(double busy, std::uint64_t t) {
    return static_cast<double>(t) < busy + 1.0 ? std::max(busy, static_cast<double>(t) - 1.0)
                                               : static_cast<double>(t);
  }

  // ---- events --------------------------------------------------------------

  void handle(const event& e) {
    switch (e.kind) {
      case event_kind::arrival:
        arrive(e.router, e.port, e.vc, e.payload);
        break;
      case event_kind::credit: {
        s_.credits[s_.buffer(e.router, e.port, e.vc)] += static_cast<std::int32_t>(e.payload);
        std::uint64_t& waiting = s_.port[s_.port_index(e.router, e.port)].waiters;
        for (std::uint64_t x = waiting; x != 0; x &= x - 1)
          s_.port[s_.port_index(e.router, bits::lowest_index(x))].blocked = 0;
        waiting = 0;
        s_.wake(e.router);
        break;
      }
      case event_kind::delivery:
        deliver(e.router, e.payload);
        break;
      case event_kind::staging_credit:
        s_.staging[s_.staging_index(e.router, e.port, e.vc)].free +=
            static_cast<std::int32_t>(e.payload);
        s_.wake(e.router);
        break;
    }
  }

  void arrive(node_id r, std::size_t port, std::size_t v, std::uint32_t id) {
    packet<route_state>& p = pool_[id];
    if constexpr (ages) {
      // The bias follows the class (REQ_AGE_BIAS for VC0/1, RSP for VC2/3).
      p.age = receive_packet(age_field::from_bits(p.age), p.cls * 2u,
                             age_cfg_.port_bias.empty()
                                 ? age_cfg_.bias
                                 : age_cfg_.port_bias[std::min(port, f_.network_ports())],
                             age_.clock(r))
                  .bits();
      if (v < 4)  // Table 4: VC0-3
        age_.counters(r, port).count_received(static_cast<unsigned>(v), p.flits);
    }
    const std::size_t b = s_.buffer(r, port, v);
    buffer_state& in = s_.buf[b];
    INTERLOCK_ASSERT(in.count < in.slots, "input buffer overflow");
    s_.wake(r);
    std::size_t slot = in.head + in.count;
    if (slot >= in.slots) slot -= in.slots;
    s_.ring[in.base + slot] = id;
    if (s_.buf[b].count++ == 0) {
      router_.route_head(r, b, p, now_);
      s_.port[s_.port_index(r, port)].vcs |= bits::bit(v);
      s_.port_mask[r] |= bits::bit(port);
      s_.mark_active(r);
    }
  }

  void deliver(node_id at, std::uint32_t id) {
    const packet<route_state>& p = pool_[id];
    const std::uint64_t t = now_;
    ++delivered_;
    m_.count_delivery(p.source, p.flits, p.measured != 0, p.created, p.queued, p.hops, t);
    if (on_delivery) on_delivery(p.source, at, p.cls, p.sequence, t);
    pool_.release(id);
  }

  // Takes the head packet out of input buffer b (its id; `flits` its length).
  std::uint32_t take_head(std::size_t b, std::uint32_t& flits, std::uint64_t t) {
    buffer_state& head = s_.buf[b];
    const std::uint32_t id = s_.packet_at(b, 0);
    flits = head.flits;
    const std::size_t next_head = head.head + std::size_t{1};
    head.head = static_cast<std::uint16_t>(next_head == head.slots ? 0 : next_head);
    --head.count;
    last_progress_ = t;
    return id;
  }

  // After a head left input buffer (r, in, vc): the next packet of the VC,
  // if any, becomes the head.
  void next_head(node_id r, std::size_t in, std::size_t vc) {
    const std::size_t pi = s_.port_index(r, in);
    const std::size_t b = pi * s_.vcs + vc;
    if (s_.buf[b].count == 0) {
      // With a head pipeline, the next packet's routing starts no earlier
      // than this one's tail leaves.
      if (s_.head_cycles != 0) s_.ready_at[b] = s_.port[pi].in_free_at;
      s_.port[pi].vcs &= ~bits::bit(vc);
      if (s_.port[pi].vcs == 0) s_.port_mask[r] &= ~bits::bit(in);
    } else {
      // It is the head once the packet before it has left the buffer.
      router_.route_head(r, b, pool_[s_.packet_at(b, 0)], s_.port[pi].in_free_at);
      // The one behind it is routed when it leaves: ask for it now.
      if (s_.buf[b].count > 1) pool_.prefetch(s_.packet_at(b, 1));
    }
  }

  // A packet leaves router r (from input port `in`): with an age arbiter,
  // its age computed at the output leaves in the header (Procedure 2) and
  // is counted in the departures' histogram.
  void depart(node_id r, std::size_t in, packet<route_state>& p) {
    if constexpr (ages) {
      const age_field sent = send_packet(age_field::from_bits(p.age), age_.clock(r), age_cfg_.rule);
      age_.counters(r, in).count_departure_age(sent.age());
      p.age = sent.bits();
    } else {
      (void)r, (void)in, (void)p;
    }
  }

  // Cycles router r's ejection port o (an endpoint's) takes for `flits` from cycle t.
  std::uint64_t ejection_cycles(node_id r, std::size_t o, std::uint32_t flits, std::uint64_t t) {
    if (cfg_.endpoint_bandwidth >= 1) return flits;
    double& busy = ej_busy_[r * cfg_.endpoints + (o - s_.local)];
    busy = continued(busy, t) + static_cast<double>(flits) / cfg_.endpoint_bandwidth;
    return static_cast<std::uint64_t>(std::ceil(busy)) - t;
  }

  // Cycles router r's network output o takes for `flits` from cycle t: one
  // per flit, or as the fabric's slower channel takes.
  std::uint64_t channel_cycles(node_id r, std::size_t o, std::uint32_t flits, std::uint64_t t) {
    if (f_.uniform_bandwidth()) return flits;
    const double bandwidth = f_.bandwidth(r, o);
    if (bandwidth >= 1) return flits;
    double& busy = channel_busy_[s_.port_index(r, o)];
    busy = continued(busy, t) + static_cast<double>(flits) / bandwidth;
    return static_cast<std::uint64_t>(std::ceil(busy)) - t;
  }

  // Moves the head of (r, in, c.vc) out through port o.
  void send(node_id r, std::size_t in, const choice& c, std::size_t o, std::uint64_t t) {
    const std::size_t pi = s_.port_index(r, in);
    const std::size_t b = pi * s_.vcs + c.vc;
    std::uint32_t flits = 0;
    const std::uint32_t id = take_head(b, flits, t);
    if (on_send) on_send(r, in, o, flits, t);
    // Cycles the packet holds the crossbar input and the output: its flits,
    // or as long as a slower channel or endpoint_bandwidth takes.
    const std::uint64_t busy = c.candidate == choice::eject ? ejection_cycles(r, o, flits, t)
                                                            : channel_cycles(r, o, flits, t);
    const std::uint64_t tail_leaves = t + busy - 1;
    s_.port[pi].in_free_at = t + busy;
    const port_state& out = s_.port[s_.port_index(r, o)];
    s_.port[s_.port_index(r, o)].out_free_at = t + busy;
    // The buffer's space goes back upstream when the tail has left, to the
    // output of the router behind that drives this input (the local port's
    // credits are the injection side's, at the same router).
    wheel_.schedule(
        tail_leaves + s_.port[pi].in_latency,
        event{event_kind::credit, s_.port[pi].upstream_port, c.vc, s_.port[pi].upstream, flits});
    depart(r, in, pool_[id]);
    if (c.candidate == choice::eject) {
      --in_network_;
      wheel_.schedule(t + busy, event{event_kind::delivery, 0, 0, r, id});
    } else {
      router_.follow_taken(r, b, c.candidate, pool_[id]);
      s_.credits[s_.buffer(r, o, c.out_vc)] -= static_cast<std::int32_t>(flits);
      m_.count_channel(r, o, flits, t);
      if (timeline_.enabled()) timeline_.count(r, o, flits, t);
      // (A slower channel delivers the head so that forwarding it at a flit
      // per cycle never overtakes its tail.)
      wheel_.schedule(
          t + (busy - flits) + out.out_latency + cfg_.router_delay,
          event{event_kind::arrival, out.downstream_port, c.out_vc, out.downstream, id});
    }
    next_head(r, in, c.vc);
  }

  // Moves the head of (r, in, c.vc) through the crossbar into its staging
  // buffer at output o (output staging buffers).
  void stage(node_id r, std::size_t in, const choice& c, std::size_t o, std::uint64_t t) {
    const std::size_t pi = s_.port_index(r, in);
    const std::size_t b = pi * s_.vcs + c.vc;
    std::uint32_t flits = 0;
    const std::uint32_t id = take_head(b, flits, t);
    s_.port[pi].in_free_at = t + flits;
    wheel_.schedule(
        t + flits - 1 + s_.port[pi].in_latency,
        event{event_kind::credit, s_.port[pi].upstream_port, c.vc, s_.port[pi].upstream, flits});
    packet<route_state>& p = pool_[id];
    if (c.candidate != choice::eject) router_.follow_taken(r, b, c.candidate, p);
    p.next_set = c.out_vc;  // the downstream VC set's first VC
    // Into the staging buffer (input port x VCs + VC) at output o.
    const std::size_t x = in * s_.vcs + c.vc;
    const std::size_t i = s_.staging_index(r, o, x);
    staging_state& st = s_.staging[i];
    std::size_t slot = st.head + st.count;
    if (slot >= s_.staging_capacity) slot -= s_.staging_capacity;
    s_.staging_ring[i * s_.staging_capacity + slot] = id;
    st.free -= static_cast<std::int32_t>(flits);
    if (st.count++ == 0) stage_head(st, p, o >= s_.local);
    s_.staged_mask[s_.port_index(r, o)] |= bits::bit(x);
    s_.staged_outputs[r] |= bits::bit(o);
    next_head(r, in, c.vc);
  }

  static void stage_head(staging_state& st, const packet<route_state>& p, bool eject) {
    st.flits = p.flits;
    st.age = p.age;
    st.pattern = p.pattern;
    st.priority = p.cls;
    st.eject = eject ? 1 : 0;
    st.first_vc = p.next_set;
  }

  // Moves the head of staging buffer x at router r's output o into VC out_vc
  // downstream (or ejects it).
  void send_staged(node_id r, std::size_t o, std::size_t x, std::size_t out_vc, std::uint64_t t) {
    const std::size_t i = s_.staging_index(r, o, x);
    staging_state& st = s_.staging[i];
    const std::uint32_t id = s_.staged_at(i, 0);
    const std::uint32_t flits = st.flits;
    const bool eject = st.eject != 0;
    const std::size_t next_head = st.head + std::size_t{1};
    st.head = static_cast<std::uint16_t>(next_head == s_.staging_capacity ? 0 : next_head);
    --st.count;
    last_progress_ = t;
    const std::size_t in = x / s_.vcs;
    if (on_send) on_send(r, in, o, flits, t);
    const std::uint64_t busy =
        eject ? ejection_cycles(r, o, flits, t) : channel_cycles(r, o, flits, t);
    const std::size_t po = s_.port_index(r, o);
    s_.port[po].out_free_at = t + busy;
    // The staging buffer's space comes back when the tail has left.
    wheel_.schedule(t + busy, event{event_kind::staging_credit, static_cast<std::uint8_t>(o),
                                    static_cast<std::uint8_t>(x), r, flits});
    depart(r, in, pool_[id]);
    if (eject) {
      --in_network_;
      wheel_.schedule(t + busy, event{event_kind::delivery, 0, 0, r, id});
    } else {
      s_.credits[s_.buffer(r, o, out_vc)] -= static_cast<std::int32_t>(flits);
      m_.count_channel(r, o, flits, t);
      if (timeline_.enabled()) timeline_.count(r, o, flits, t);
      wheel_.schedule(t + (busy - flits) + s_.port[po].out_latency + cfg_.router_delay,
                      event{event_kind::arrival, s_.port[po].downstream_port,
                            static_cast<std::uint8_t>(out_vc), s_.port[po].downstream, id});
    }
    if (st.count == 0) {
      s_.staged_mask[po] &= ~bits::bit(x);
      if (s_.staged_mask[po] == 0) s_.staged_outputs[r] &= ~bits::bit(o);
    } else {
      stage_head(st, pool_[s_.staged_at(i, 0)], eject);
    }
  }

  // What the router's decisions move (router::step's Moves).
  struct moves {
    network* n;
    void send(node_id r, std::size_t in, const choice& c, std::size_t o, std::uint64_t t) {
      n->send(r, in, c, o, t);
    }
    void stage(node_id r, std::size_t in, const choice& c, std::size_t o, std::uint64_t t) {
      n->stage(r, in, c, o, t);
    }
    void send_staged(node_id r, std::size_t o, std::size_t x, std::size_t out_vc, std::uint64_t t) {
      n->send_staged(r, o, x, out_vc, t);
    }
  };

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
    m_.fill(r, f_, s_.local, cfg_.load, cfg_.batch > 0, [&](node_id n) {
      if (!f_.hosts(n)) return false;
      splitmix64 probe(n);
      return destination_(n, probe).node != no_node;
    });
    if constexpr (ages) collect_age(r);
    r.link_utilization = timeline_.utilization(now_);
    if (cfg_.count_requests) collect_requests(r);
  }

  // The share of its arbiter's cycles each input port requested each output.
  void collect_requests(results& r) const {
    std::vector<double> shares;
    for (node_id x = 0; x < f_.routers(); ++x)
      for (std::size_t o = 0; o < s_.ports; ++o) {
        const std::uint64_t cycles = router_.arbitrations(x, o);
        if (cycles == 0) continue;
        for (std::size_t i = 0; i < s_.ports; ++i) {
          const std::uint64_t k = router_.request_cycles(x, o, i);
          if (k != 0) shares.push_back(static_cast<double>(k) / static_cast<double>(cycles));
        }
      }
    r.request_pairs = shares.size();
    if (shares.empty()) return;
    double sum = 0;
    for (const double x : shares) sum += x;
    r.request_share_mean = sum / static_cast<double>(shares.size());
    std::sort(shares.begin(), shares.end());
    r.request_share_p10 = shares[shares.size() / 10];
    r.request_share_p50 = shares[shares.size() / 2];
  }

  // The Table 4 counters over the measured window (a batch: the whole run),
  // by input port direction.
  void collect_age(results& r) {
    if (!window_snapshot_) take_snapshot(window_snapshot_, cfg_.batch > 0 ? 0 : now_);
    if (!end_snapshot_) take_snapshot(end_snapshot_, now_);
    const age_snapshot& a = *window_snapshot_;
    const age_snapshot& b = *end_snapshot_;
    r.has_age = true;
    const std::size_t dims = f_.torus().dimensions();
    r.stalled_by_direction.assign(dims, {0, 0});
    std::vector<std::array<std::uint64_t, 2>> packets(dims, {0, 0});
    std::uint64_t all_packets = 0;
    for (std::size_t i = 0; i < b.ports.size(); ++i) {
      const router_perf_counters& x = a.ports[i];
      const router_perf_counters& y = b.ports[i];
      for (unsigned k = 0; k < 4; ++k) {
        r.age_histogram[k] += static_cast<std::uint32_t>(y.age_bucket(k) - x.age_bucket(k));
        r.vc_blocked[k] += y.vc_blocked(k) - x.vc_blocked(k);
      }
      const std::uint64_t stalled = y.stalled() - x.stalled();
      const std::uint64_t received =
          y.vc_packets(0) + y.vc_packets(1) - x.vc_packets(0) - x.vc_packets(1);
      r.stalled_cycles += stalled;
      all_packets += received;
      const std::size_t port = i % s_.ports;
      if (port >= f_.network_ports()) {
        r.stalled_local += stalled;
        continue;
      }
      const channel_direction info = f_.in_direction(static_cast<node_id>(i / s_.ports), port);
      if (!info.between_nodes()) {
        r.stalled_on_chip += stalled;
        continue;
      }
      const std::size_t side = info.sign > 0 ? 0 : 1;
      const auto dim = static_cast<std::size_t>(info.dimension);
      r.stalled_by_direction[dim][side] += stalled;
      packets[dim][side] += received;
    }
    r.occupancy_by_direction.assign(dims, {0.0, 0.0});
    for (std::size_t d = 0; d < dims; ++d)
      for (std::size_t side = 0; side < 2; ++side)
        r.occupancy_by_direction[d][side] =
            packets[d][side] == 0 ? 0.0
                                  : static_cast<double>(r.stalled_by_direction[d][side]) /
                                        static_cast<double>(packets[d][side]);
    r.occupancy = all_packets == 0
                      ? 0.0
                      : static_cast<double>(r.stalled_cycles) / static_cast<double>(all_packets);
    r.epoch_switches = b.epoch_switches - a.epoch_switches;
    const double router_cycles =
        static_cast<double>(f_.routers()) * static_cast<double>(b.cycle - a.cycle);
    r.inhibited_share =
        router_cycles > 0
            ? static_cast<double>(b.inhibited_ticks - a.inhibited_ticks) / router_cycles
            : 0.0;
  }

  // ---- data ----------------------------------------------------------------------

  const Scheme& scheme_;
  fabric f_;
  config cfg_;
  traffic_source destination_;
  age_config age_cfg_;
  vc_sets sets_;
  router_state s_;
  age_state age_;
  router_type router_;
  event_wheel wheel_;
  packet_pool<route_state> pool_;
  sources src_;
  measurement m_;
  link_timeline timeline_;
  // Per node: the packet waiting to enter the local input port, its VC set
  // there and length, and when the injection channel frees.
  std::vector<std::uint32_t> pending_;
  std::vector<std::uint8_t> pending_set_;
  std::vector<std::uint16_t> pending_flits_;
  std::vector<std::uint64_t> inj_free_at_;
  std::vector<double> inj_busy_, ej_busy_;  // endpoint_bandwidth < 1: when each port frees
  std::vector<double> channel_busy_;        // the fabric's slower channels: when each frees
  // Time and counts.
  std::uint64_t now_ = 0, last_progress_ = 0, stall_limit_ = 0;
  std::uint64_t created_ = 0, injected_ = 0, delivered_ = 0, in_network_ = 0, sequence_ = 0;
  std::uint64_t dropped_ = 0;  // packets whose source had no destination
  std::uint64_t stepped_ = 0;  // cycles stepped (the others were skipped, idle)
  bool started_ = false;
  moves mover_{this};
  // Age runs: the counters at the measured window's start and end.
  std::unique_ptr<age_snapshot> window_snapshot_, end_snapshot_;
  deadlock_report deadlock_;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_NETWORK_HPP
