// examples/model/network.hpp: a cycle-level network of credit-based virtual cut-through
// routers on a torus or mesh, composing any interlock routing scheme and output arbiter.
//
// The router (one per node of a torus_topology, ports numbered by the
// topology: port_of(d, sign, slice), local_port() for injection/ejection):
//   - Input buffers per (port, VC) of `buffer_flits` flits, FIFO. A packet
//     advances only when the downstream buffer has credits for the whole
//     packet (virtual cut-through). Its flits then cross the switch and the
//     channel one per cycle: the input port and the output channel are busy
//     for `flits` cycles, the head reaches the next router `channel_latency`
//     cycles after it leaves and may compete there `router_delay` cycles
//     later, before its tail has arrived.
//   - Route computation once per packet head, by Scheme::candidates(); the
//     route state travels in the packet and follow() is applied to the hop
//     the packet takes. An adaptive scheme's adaptive hops are preferred
//     (the one with the most credits) over its escape hop; under virtual
//     cut-through every hop already has room for the whole packet, which is
//     the T3E's rule for adaptive VCs.
//   - Physical VCs: a scheme numbers the VCs it needs (vcs_per_channel());
//     the router gives each VC the run uses a set of `vcs / used` physical
//     VCs (config::vcs; 0 means one each) and a packet takes the one of its
//     set with the most credits. With more than one per set, packets of one
//     flow may overtake each other.
//   - Allocation, separable and input first: each input port with a free
//     crossbar input chooses, round robin among its VCs whose head can go
//     now (output channel free, credits for the whole packet), one request;
//     each output then grants one of the input ports requesting it with the
//     Policy (any interlock arbiter with a request_builder): the candidates
//     are the input ports, described to the builder by a candidate_view
//     with each head's age field, pattern label, size and priority. The
//     input arbiter's pointer moves only when its choice is granted.
//   - Credits return when a packet's tail leaves the buffer (per packet,
//     so a buffer's space comes back `flits - 1` cycles later than a
//     flit-level model would say for multi-flit packets; exact for 1-flit
//     packets), after channel_latency cycles.
//   - With an arbiter that reads ages (age_epoch_arbiter), every router has
//     the chip-wide age clock of Procedure 3, ticking every cycle; a packet
//     is aged on arrival (Procedure 1, with the port's age_bias), its age
//     computed at the output (Procedure 2), and the age leaves in the header
//     (send_packet); the Table 4 counters count departures by age, VCs
//     blocked and stalled cycles.
// The node: a source queue (unbounded; packets are created by a Bernoulli
// process of rate load / mean length per cycle, drawn as geometric gaps, or
// all at once in a batch run), an injection channel into the local input
// port, one packet at a time, and ejection at one flit per cycle.
//
// Work per cycle is proportional to activity: events (arrivals, credits,
// deliveries) sit on a timing wheel, packet creations in a heap by time,
// and only routers holding packets and nodes with packets to send are
// visited; a router visits only its input ports with packets, by mask.
//
// Determinism: each node draws its traffic and route choices from its own
// splitmix64 seeded from (seed, node), so a run depends only on its config.
#ifndef INTERLOCK_EXAMPLES_MODEL_NETWORK_HPP
#define INTERLOCK_EXAMPLES_MODEL_NETWORK_HPP

#include <interlock/arbiters/age_clock.hpp>
#include <interlock/arbiters/age_counters.hpp>
#include <interlock/arbiters/round_robin.hpp>
#include <interlock/core/bits.hpp>
#include <interlock/core/candidates.hpp>
#include <interlock/core/config_error.hpp>
#include <interlock/core/grant.hpp>
#include <interlock/core/random.hpp>
#include <interlock/routing/route.hpp>
#include <interlock/topology/torus.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "config.hpp"
#include "metrics.hpp"

namespace netmodel {

using interlock::node_id;

/// A packet's destination at creation: f(source, rng), no_node to send nothing.
using destination_function = std::function<node_id(node_id, interlock::splitmix64&)>;

/// The age-clock side of a run (used only with an arbiter that reads ages).
struct age_config {
  std::uint32_t period = 18;                   // AGE_CLK_PERIOD
  interlock::age_bias bias{1, 1};              // every input port's, unless port_bias is given
  std::vector<interlock::age_bias> port_bias;  // per input port (the topology's numbering)
  interlock::saturation_rule rule = interlock::saturation_rule::corrected;
};

namespace detail {
template <class Policy, class = void>
struct reads_age : std::false_type {};
template <class Policy>
struct reads_age<Policy,
                 std::enable_if_t<std::is_constructible<interlock::request_builder<Policy>,
                                                        const interlock::age_clock&>::value>>
    : std::true_type {};

/// A FIFO of creation times that reuses its storage.
class time_queue {
 public:
  bool empty() const noexcept { return head_ == items_.size(); }
  std::size_t size() const noexcept { return items_.size() - head_; }
  std::uint64_t front() const noexcept { return items_[head_]; }
  void push(std::uint64_t t) { items_.push_back(t); }
  void pop() {
    if (++head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= 4096 && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

 private:
  std::vector<std::uint64_t> items_;
  std::size_t head_ = 0;
};
}  // namespace detail

template <class Scheme, class Policy>
class network {
 public:
  using state = typename Scheme::state;
  using policy_factory = std::function<Policy(node_id router, std::size_t output_port)>;
  static constexpr bool ages = detail::reads_age<Policy>::value;

  network(const Scheme& scheme, const config& cfg, destination_function destination,
          policy_factory make_policy, age_config age = {})
      : scheme_(scheme),
        t_(scheme.topology()),
        cfg_(cfg),
        destination_(std::move(destination)),
        age_(age) {
    static_assert(interlock::require_routing_scheme<Scheme>(), "Scheme must be a routing scheme");
    static_assert(interlock::has_request_builder_v<Policy>, "Policy needs a request_builder");
    cfg_.check();
    nodes_ = t_.node_count();
    ports_ = t_.ports();
    local_ = t_.local_port();
    if (ports_ > 64)
      throw interlock::config_error("network model", "--slices", std::to_string(t_.slices()),
                                    "at most 64 router ports (2 x dimensions x slices + 1)");
    map_vcs();
    if (!age_.port_bias.empty() && age_.port_bias.size() != ports_)
      throw interlock::config_error("network model", "--age-bias",
                                    std::to_string(age_.port_bias.size()) + " ports",
                                    "one bias per router port (" + std::to_string(ports_) + ")");
    min_flits_ = cfg_.lengths[0].flits;
    for (const auto& l : cfg_.lengths) min_flits_ = std::min(min_flits_, l.flits);
    capacity_ = cfg_.buffer_flits / min_flits_;
    if (ages) {
      // The age clock's packet_count (11 bits) must hold every packet a
      // router can store.
      if (ports_ * vcs_ * capacity_ > interlock::age_clock::max_packet_count)
        throw interlock::config_error(
            "network model", "--buffer-flits", std::to_string(cfg_.buffer_flits),
            "a router holding at most 2047 packets with --arbiter age (the age clock's "
            "11-bit packet_count): " +
                std::to_string(ports_) + " ports x " + std::to_string(vcs_) + " VCs x " +
                std::to_string(capacity_) + " packets of the shortest length is too many");
    }
    max_cand_ = 1 + 2 * t_.dimensions() * t_.slices();
    if (max_cand_ > interlock::max_route_candidates) max_cand_ = interlock::max_route_candidates;

    const std::size_t buffers = static_cast<std::size_t>(nodes_) * ports_ * vcs_;
    ring_.assign(buffers * capacity_, 0);
    buf_.assign(buffers, buffer_state{});
    cand_.assign(buffers * max_cand_, interlock::hop{});
    cand_info_.assign(buffers * max_cand_, candidate_info{});
    port_.assign(static_cast<std::size_t>(nodes_) * ports_, port_state{});
    for (node_id r = 0; r < nodes_; ++r)
      for (std::size_t q = 0; q < ports_; ++q) {
        if (q == local_) {
          port_[port_index(r, q)].upstream = r;
          port_[port_index(r, q)].downstream = r;
          continue;
        }
        const auto pr = t_.port_info(q);
        port_[port_index(r, q)].upstream = t_.neighbor(r, pr.dimension, -pr.sign);
        port_[port_index(r, q)].downstream = t_.neighbor(r, pr.dimension, pr.sign);
      }
    credits_.assign(buffers, static_cast<std::int32_t>(cfg_.buffer_flits));
    port_mask_.assign(nodes_, 0);
    input_arb_.assign(static_cast<std::size_t>(nodes_) * ports_,
                      interlock::round_robin_arbiter<64>{});
    active_.assign((nodes_ + 63) / 64, 0);
    sleep_until_.assign(nodes_, 0);
    asleep_since_.assign(nodes_, 0);
    asleep_blocked_.assign(nodes_, 0);
    asleep_stalled_.assign(nodes_, 0);
    policies_.reserve(static_cast<std::size_t>(nodes_) * ports_);
    for (node_id r = 0; r < nodes_; ++r)
      for (std::size_t o = 0; o < ports_; ++o) policies_.push_back(make_policy(r, o));
    if constexpr (ages) {
      clocks_.assign(nodes_, interlock::age_clock(age_.period));
      counters_.assign(nodes_, interlock::router_perf_counters{});
      for (node_id r = 0; r < nodes_; ++r) builders_.emplace_back(clocks_[r], age_.rule);
    } else {
      builders_.resize(1);
    }
    // Events reach at most this far ahead.
    std::uint64_t reach = cfg_.channel_latency + cfg_.router_delay + cfg_.max_flits() + 2;
    wheel_size_ = 1;
    while (wheel_size_ <= reach) wheel_size_ <<= 1;
    wheel_.resize(wheel_size_);
    stall_limit_ = cfg_.stall_limit != 0
                       ? cfg_.stall_limit
                       : 1000 + 8 * (cfg_.max_flits() + cfg_.channel_latency + cfg_.router_delay);
    // Nodes and their generators.
    rng_.reserve(nodes_);
    for (node_id n = 0; n < nodes_; ++n)
      rng_.emplace_back(interlock::splitmix64(cfg_.seed * 0x9E3779B97F4A7C15ull + n)());
    queue_.resize(nodes_);
    pending_.assign(nodes_, no_packet);
    pending_set_.assign(nodes_, 0);
    pending_flits_.assign(nodes_, 0);
    inj_free_at_.assign(nodes_, 0);
    in_inject_list_.assign(nodes_, 0);
    accepted_flits_.assign(nodes_, 0);
    source_hops_.assign(nodes_, 0);
    source_packets_.assign(nodes_, 0);
    channel_flits_.assign(static_cast<std::size_t>(nodes_) * ports_, 0);
    double share_total = 0;
    for (const auto& l : cfg_.lengths) share_total += l.share;
    double cumulative = 0;
    for (const auto& l : cfg_.lengths) {
      cumulative += l.share / share_total;
      length_cdf_.push_back(cumulative);
    }
    length_cdf_.back() = 1.0;
  }

  // ---- running ----------------------------------------------------------

  /// Sets the traffic going: the first creations of a Bernoulli run, or
  /// every packet of a batch. run() calls it; a test that steps the network
  /// itself calls it once first.
  void start() {
    if (started_) return;
    started_ = true;
    if (cfg_.batch > 0) {
      window_start_ = 0;
      window_end_ = ~std::uint64_t{0};
      start_batch();
    } else {
      window_start_ = cfg_.warmup;
      window_end_ = cfg_.warmup + cfg_.measure;
      schedule_all_creations();
    }
  }

  /// Whether a run is over: a batch delivered (or out of cycles), the
  /// measured packets delivered after the window (or the drain used up),
  /// or a deadlock.
  bool finished() const {
    if (deadlock_.deadlocked) return true;
    if (cfg_.batch > 0)
      return delivered_ + dropped_ == enqueued_ || now_ >= cfg_.measure + cfg_.drain;
    if (now_ >= window_end_ + cfg_.drain) return true;
    return now_ >= window_end_ && measured_delivered_ == measured_created_;
  }

  /// Runs warm-up, the measured window and the drain (or a batch) and
  /// returns what was measured. `progress(fraction)` is called now and then.
  results run(const std::function<void(double)>& progress = {}) {
    const auto start_time = std::chrono::steady_clock::now();
    start();
    while (!finished()) {
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
      return enqueued_ == 0
                 ? 1
                 : static_cast<double>(delivered_ + dropped_) / static_cast<double>(enqueued_);
    return static_cast<double>(now_) / static_cast<double>(window_end_);
  }

  /// One cycle.
  void step() {
    const std::uint64_t t = now_;
    auto& slot = wheel_[t & (wheel_size_ - 1)];
    for (std::size_t i = 0; i < slot.size(); ++i) handle(slot[i]);
    slot.clear();
    while (!creations_.empty() && creations_.top().first <= t) {
      const node_id n = creations_.top().second;
      creations_.pop();
      create(n, t);
      schedule_creation(n, t);
    }
    if constexpr (ages)
      for (auto& c : clocks_) c.tick();
    inject(t);
    // Routers holding packets, in index order (their state is laid out so).
    for (std::size_t w = 0; w < active_.size(); ++w) {
      for (std::uint64_t x = active_[w]; x != 0; x &= x - 1) {
        const node_id r = static_cast<node_id>(w * 64 + interlock::bits::lowest_index(x));
        if (sleep_until_[r] <= t || cfg_.evaluate_every_cycle) step_router(r, t);
        if (port_mask_[r] == 0) active_[w] &= ~interlock::bits::bit(r % 64);
      }
    }
    if (in_network_ > 0 && t - last_progress_ > stall_limit_) declare_deadlock(t);
    ++now_;
  }

  // ---- observation (tests, the driver) -----------------------------------

  std::uint64_t now() const noexcept { return now_; }
  std::size_t vcs() const noexcept { return vcs_; }
  std::size_t vc_replication() const noexcept { return replication_; }
  std::uint64_t created() const noexcept { return created_; }
  std::uint64_t injected() const noexcept { return injected_; }
  std::uint64_t delivered() const noexcept { return delivered_; }
  std::uint64_t in_network() const noexcept { return in_network_; }
  const deadlock_report& deadlock() const noexcept { return deadlock_; }
  /// Flits sent out of router r's output port o during the measured window.
  std::uint64_t channel_flits(node_id r, std::size_t o) const {
    return channel_flits_[port_index(r, o)];
  }
  /// Called for every packet that wins an output: (router, input port, output
  /// port, flits, cycle); tests check the ports' one flit per cycle with it.
  std::function<void(node_id, std::size_t, std::size_t, unsigned, std::uint64_t)> on_send;
  /// Called for every packet delivered: (source, destination, class, sequence, cycle).
  std::function<void(node_id, node_id, unsigned, std::uint64_t, std::uint64_t)> on_delivery;

  /// Checks packet conservation and every credit counter against the
  /// buffers and the flits and credits in flight; returns what is wrong
  /// (empty if nothing). Visits the whole network: for tests.
  std::string check_invariants() const {
    std::uint64_t in_buffers = 0, in_flight = 0, ejecting = 0;
    std::vector<std::int64_t> held(credits_.size(), 0);  // flits a buffer holds or will
    std::vector<std::int64_t> returning(credits_.size(), 0);
    for (std::size_t b = 0; b < buf_.size(); ++b) {
      in_buffers += buf_[b].count;
      for (std::size_t k = 0; k < buf_[b].count; ++k)
        held[b] += pool_[ring_[b * capacity_ + (buf_[b].head + k) % capacity_]].flits;
    }
    for (const auto& slot : wheel_)
      for (const event& e : slot) {
        const std::size_t b = buffer(e.router, e.port, e.vc);
        if (e.kind == event_kind::arrival) {
          ++in_flight;
          held[b] += pool_[e.payload].flits;
        } else if (e.kind == event_kind::credit) {
          returning[b] += e.payload;
        } else {
          ++ejecting;
        }
      }
    if (injected_ != delivered_ + in_buffers + in_flight + ejecting)
      return "packets: injected " + std::to_string(injected_) + " != delivered " +
             std::to_string(delivered_) + " + in buffers " + std::to_string(in_buffers) +
             " + in flight " + std::to_string(in_flight) + " + ejecting " +
             std::to_string(ejecting);
    if (in_network_ != in_buffers + in_flight) return "in_network count is wrong";
    for (node_id r = 0; r < nodes_; ++r)
      for (std::size_t o = 0; o < ports_; ++o)
        for (std::size_t v = 0; v < vcs_; ++v) {
          const std::size_t up = buffer(r, o, v);
          if (credits_[up] < 0 || credits_[up] > static_cast<std::int32_t>(cfg_.buffer_flits))
            return "credits out of range at router " + std::to_string(r) + " port " +
                   std::to_string(o) + " VC " + std::to_string(v);
          std::size_t down;
          if (o == local_) {
            down = up;  // the injection side's credits for the local input buffer
          } else {
            const auto p = t_.port_info(o);
            const node_id next = t_.neighbor(r, p.dimension, p.sign);
            if (next == interlock::no_node) continue;
            down = buffer(next, o, v);
          }
          const std::int64_t sum = credits_[up] + held[down] + returning[up];
          if (sum != static_cast<std::int64_t>(cfg_.buffer_flits))
            return "credit loop of router " + std::to_string(r) + " port " + std::to_string(o) +
                   " VC " + std::to_string(v) + ": credits " + std::to_string(credits_[up]) +
                   " + held " + std::to_string(held[down]) + " + returning " +
                   std::to_string(returning[up]) + " != " + std::to_string(cfg_.buffer_flits);
        }
    return {};
  }

 private:
  static constexpr std::uint32_t no_packet = 0xFFFFFFFFu;

  // A packet in flight (its destination is in its route state and is where
  // it is delivered). 64 bytes with dimension order's state.
  struct packet {
    state route;
    std::uint64_t created = 0, sequence = 0;
    std::uint32_t queued = 0;  // cycles in the source queue
    node_id source = 0;
    std::uint16_t flits : 15;
    std::uint16_t measured : 1;
    std::uint16_t age = 0;  // the header's 11-bit age field
    std::uint16_t hops = 0;
    std::uint8_t cls = 0;      // its priority too: a response outranks a request
    std::uint8_t pattern = 0;  // its traffic-pattern label
    packet() : flits(1), measured(0) {}
  };

  enum class event_kind : std::uint8_t { arrival, credit, delivery };
  struct event {
    event_kind kind;
    std::uint8_t port;
    std::uint8_t vc;
    node_id router;
    std::uint32_t payload;  // arrival/delivery: packet; credit: flits
  };

  // ---- VC mapping ----------------------------------------------------------

  void map_vcs() {
    // The scheme's VCs a run uses: every class that carries packets, and the
    // adaptive VCs after both classes.
    const unsigned per_class = scheme_.vcs_per_class();
    const unsigned all = scheme_.vcs_per_channel();
    std::vector<bool> used(all, false);
    const bool requests = cfg_.response_share<1, responses = cfg_.response_share> 0;
    for (unsigned v = 0; v < all; ++v) {
      const unsigned cls = v / per_class;
      used[v] =
          cls >= interlock::traffic_classes || (cls == 0 && requests) || (cls == 1 && responses);
    }
    std::size_t count = 0;
    logical_.assign(all, 0xFF);
    for (unsigned v = 0; v < all; ++v)
      if (used[v]) logical_[v] = static_cast<std::uint8_t>(count++);
    const std::size_t physical = cfg_.vcs == 0 ? count : cfg_.vcs;
    if (physical < count || physical % count != 0)
      throw interlock::config_error(
          "network model", "--vcs", std::to_string(cfg_.vcs),
          "a multiple of " + std::to_string(count) +
              " (the VCs the scheme uses for the classes this run sends)");
    vcs_ = physical;
    replication_ = physical / count;
  }

  /// The first physical VC of the set a scheme VC maps to.
  std::size_t first_vc(unsigned scheme_vc) const {
    return static_cast<std::size_t>(logical_[scheme_vc]) * replication_;
  }

  /// Of the set of physical VCs whose credits start at credits_[set], the
  /// one (its offset in the set) with the most credits, if one has room for
  /// `flits`.
  int pick_vc(std::size_t set, std::uint32_t flits) const {
    int best = -1;
    std::int32_t most = static_cast<std::int32_t>(flits) - 1;
    for (std::size_t k = 0; k < replication_; ++k) {
      const std::int32_t c = credits_[set + k];
      if (c > most) {
        most = c;
        best = static_cast<int>(k);
      }
    }
    return best;
  }

  // ---- indices -------------------------------------------------------------

  std::size_t buffer(node_id r, std::size_t p, std::size_t v) const noexcept {
    return (static_cast<std::size_t>(r) * ports_ + p) * vcs_ + v;
  }
  std::size_t port_index(node_id r, std::size_t p) const noexcept {
    return static_cast<std::size_t>(r) * ports_ + p;
  }

  void schedule(std::uint64_t at, const event& e) { wheel_[at & (wheel_size_ - 1)].push_back(e); }

  // ---- traffic -------------------------------------------------------------

  void schedule_all_creations() {
    if (cfg_.load <= 0) return;
    for (node_id n = 0; n < nodes_; ++n) schedule_creation(n, 0, true);
  }

  // The next creation at a node: a geometric gap (the Bernoulli process).
  void schedule_creation(node_id n, std::uint64_t t, bool first = false) {
    if (cfg_.batch > 0 || cfg_.load <= 0) return;
    const double p = cfg_.load / cfg_.mean_flits();
    std::uint64_t gap = 1;
    if (p < 1) {
      const double u = 1.0 - interlock::uniform_unit(rng_[n]);  // (0, 1]
      const double g = std::floor(std::log(u) / std::log1p(-p));
      gap = g > 1e15 ? std::uint64_t{1} << 50 : static_cast<std::uint64_t>(g) + 1;
    }
    creations_.push({first ? gap - 1 : t + gap, n});
  }

  void start_batch() {
    for (node_id n = 0; n < nodes_; ++n)
      for (std::size_t k = 0; k < cfg_.batch; ++k) create(n, 0);
  }

  void create(node_id n, std::uint64_t t) {
    ++enqueued_;
    queue_[n].push(t);
    if (!in_inject_list_[n]) {
      in_inject_list_[n] = 1;
      injecting_.push_back(n);
    }
  }

  unsigned draw_length(node_id n) {
    if (length_cdf_.size() == 1) return cfg_.lengths[0].flits;
    const double u = interlock::uniform_unit(rng_[n]);
    for (std::size_t i = 0; i < length_cdf_.size(); ++i)
      if (u < length_cdf_[i]) return cfg_.lengths[i].flits;
    return cfg_.lengths.back().flits;
  }

  std::uint32_t new_packet() {
    if (!free_.empty()) {
      const std::uint32_t id = free_.back();
      free_.pop_back();
      return id;
    }
    pool_.emplace_back();
    return static_cast<std::uint32_t>(pool_.size() - 1);
  }

  // Moves packets from source queues into the local input ports.
  void inject(std::uint64_t t) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < injecting_.size(); ++i) {
      const node_id n = injecting_[i];
      if (inj_free_at_[n] <= t) try_inject(n, t);
      if (pending_[n] != no_packet || !queue_[n].empty()) {
        injecting_[kept++] = n;
      } else {
        in_inject_list_[n] = 0;
      }
    }
    injecting_.resize(kept);
  }

  void try_inject(node_id n, std::uint64_t t) {
    while (pending_[n] == no_packet) {
      if (queue_[n].empty()) return;
      const std::uint64_t born = queue_[n].front();
      queue_[n].pop();
      const node_id d = destination_(n, rng_[n]);
      if (d == interlock::no_node) {  // this source has nothing to send
        ++dropped_;
        continue;
      }
      const std::uint32_t id = new_packet();
      packet& p = pool_[id];
      p = packet{};
      p.created = born;
      p.source = n;
      p.flits = draw_length(n) & 0x7FFFu;
      const bool response =
          cfg_.response_share >= 1 ||
          (cfg_.response_share > 0 && interlock::uniform_unit(rng_[n]) < cfg_.response_share);
      p.cls = response ? 1 : 0;
      p.route = scheme_.start(n, d, static_cast<interlock::traffic_class>(p.cls), rng_[n]);
      p.sequence = sequence_++;
      p.measured = (cfg_.batch > 0 || (born >= window_start_ && born < window_end_)) ? 1 : 0;
      pending_[n] = id;
      // The local input VC: the set of the first hop's VC (any VC of the
      // class for a packet to its own node).
      unsigned scheme_vc = p.cls * scheme_.vcs_per_class();
      if (!scheme_.arrived(n, p.route)) {
        interlock::hop options[interlock::max_route_candidates];
        scheme_.candidates(n, p.route, options);
        scheme_vc = options[0].vc;
      }
      pending_set_[n] = static_cast<std::uint8_t>(first_vc(scheme_vc));
      pending_flits_[n] = p.flits;
      ++created_;
      if (p.measured) ++measured_created_;
    }
    const std::size_t base = buffer(n, local_, 0);
    const std::uint32_t flits = pending_flits_[n];
    const int pick = pick_vc(base + pending_set_[n], flits);
    if (pick < 0) return;
    const std::size_t v = pending_set_[n] + static_cast<std::size_t>(pick);
    credits_[base + v] -= static_cast<std::int32_t>(flits);
    pool_[pending_[n]].queued = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(t - pool_[pending_[n]].created, 0xFFFFFFFFu));
    inj_free_at_[n] = t + flits;
    ++injected_;
    ++in_network_;
    schedule(t + cfg_.channel_latency + cfg_.router_delay,
             event{event_kind::arrival, static_cast<std::uint8_t>(local_),
                   static_cast<std::uint8_t>(v), n, pending_[n]});
    pending_[n] = no_packet;
  }

  // ---- events --------------------------------------------------------------

  void handle(const event& e) {
    switch (e.kind) {
      case event_kind::arrival:
        arrive(e.router, e.port, e.vc, e.payload);
        break;
      case event_kind::credit: {
        credits_[buffer(e.router, e.port, e.vc)] += static_cast<std::int32_t>(e.payload);
        std::uint64_t& waiting = port_[port_index(e.router, e.port)].waiters;
        for (std::uint64_t x = waiting; x != 0; x &= x - 1)
          port_[port_index(e.router, interlock::bits::lowest_index(x))].blocked = 0;
        waiting = 0;
        wake(e.router);
        break;
      }
      case event_kind::delivery:
        deliver(e.router, e.payload);
        break;
    }
  }

  void arrive(node_id r, std::size_t port, std::size_t v, std::uint32_t id) {
    packet& p = pool_[id];
    if constexpr (ages) {
      // The bias follows the class (REQ_AGE_BIAS for VC0/1, RSP for VC2/3).
      p.age = interlock::receive_packet(interlock::age_field::from_bits(p.age), p.cls * 2u,
                                        age_.port_bias.empty() ? age_.bias : age_.port_bias[port],
                                        clocks_[r])
                  .bits();
      if (v < 4) counters_[r].count_received(static_cast<unsigned>(v), p.flits);  // Table 4: VC0-3
    }
    const std::size_t b = buffer(r, port, v);
    INTERLOCK_ASSERT(buf_[b].count < capacity_, "input buffer overflow");
    wake(r);
    std::size_t slot = buf_[b].head + buf_[b].count;
    if (slot >= capacity_) slot -= capacity_;
    ring_[b * capacity_ + slot] = id;
    if (buf_[b].count++ == 0) {
      route_head(r, b, id);
      port_[port_index(r, port)].vcs |= interlock::bits::bit(v);
      port_mask_[r] |= interlock::bits::bit(port);
      active_[r / 64] |= interlock::bits::bit(r % 64);
    }
  }

  void wake(node_id r) { sleep_until_[r] = 0; }

  void route_head(node_id r, std::size_t b, std::uint32_t id) {
    packet& p = pool_[id];
    buf_[b].flits = p.flits;
    buf_[b].age = p.age;
    buf_[b].pattern = p.pattern;
    buf_[b].priority = p.cls;
    if (scheme_.arrived(r, p.route)) {
      buf_[b].ncand = 0;
    } else {
      buf_[b].ncand =
          static_cast<std::uint8_t>(scheme_.candidates(r, p.route, &cand_[b * max_cand_]));
      for (std::size_t k = 0; k < buf_[b].ncand; ++k) {
        const interlock::hop& h = cand_[b * max_cand_ + k];
        cand_info_[b * max_cand_ + k] = candidate_info{
            static_cast<std::uint8_t>(t_.port_of(h)), static_cast<std::uint8_t>(first_vc(h.vc)),
            static_cast<std::uint8_t>(h.adaptive ? 1 : 0), 0};
      }
      // One way on: the packet takes it whenever it goes, so its route
      // state moves on now, while the packet is in cache.
      buf_[b].followed = buf_[b].ncand == 1;
      if (buf_[b].followed) {
        packet& q = pool_[id];
        scheme_.follow(r, q.route, cand_[b * max_cand_]);
        ++q.hops;
      }
    }
    port_[b / vcs_].blocked &= ~interlock::bits::bit(b % vcs_);
  }

  void deliver(node_id at, std::uint32_t id) {
    const packet& p = pool_[id];
    const std::uint64_t t = now_;
    ++delivered_;
    last_delivery_ = t;
    if (t >= window_start_ && t < window_end_) accepted_flits_[p.source] += p.flits;
    if (p.measured) {
      ++measured_delivered_;
      latencies_.push_back(static_cast<std::uint32_t>(t - p.created));
      network_latency_sum_ += static_cast<double>(t - p.created - p.queued);
      queueing_latency_sum_ += static_cast<double>(p.queued);
      hops_sum_ += p.hops;
      source_hops_[p.source] += p.hops;
      ++source_packets_[p.source];
    }
    if (on_delivery) on_delivery(p.source, at, p.cls, p.sequence, t);
    free_.push_back(id);
  }

  // ---- the router ------------------------------------------------------------

  struct choice {
    std::uint8_t vc;
    std::uint8_t candidate;  // index into the head's candidates; 0xFF: eject
    std::uint8_t out_vc;
  };

  void step_router(node_id r, std::uint64_t t) {
    std::uint64_t out_requests = 0;
    std::array<std::uint64_t, 64> requesters;  // per output: the input ports asking for it
    std::array<choice, 64> chosen;
    std::array<std::uint16_t, 64> age_of;
    std::array<std::uint8_t, 64> pattern_of;
    std::array<std::uint32_t, 64> flits_of;
    std::array<std::uint8_t, 64> priority_of;
    std::array<choice, 64> options;
    std::array<std::uint8_t, 64> option_out;
    std::uint64_t blocked_vcs = 0;  // VCs whose head waits for credits
    // The next cycle a busy port this router waits for frees (credits and
    // arrivals wake it by event).
    std::uint64_t wake = ~std::uint64_t{0};
    if constexpr (ages) {
      // The Table 4 counters for the cycles it slept: nothing changed then.
      if (asleep_since_[r] + 1 < t) {
        const std::uint64_t skipped = t - asleep_since_[r] - 1;
        for (std::uint64_t x = asleep_blocked_[r]; x != 0; x &= x - 1)
          counters_[r].count_blocked_cycles(static_cast<unsigned>(interlock::bits::lowest_index(x)),
                                            skipped);
        if (asleep_stalled_[r]) counters_[r].count_stalled_cycles(skipped);
      }
      asleep_since_[r] = t;
      asleep_blocked_[r] = 0;
      asleep_stalled_[r] = 0;
    }

    // Input stage: each free input port picks one head that can go now.
    for (std::uint64_t ports = port_mask_[r]; ports != 0; ports &= ports - 1) {
      const std::size_t in = interlock::bits::lowest_index(ports);
      const std::size_t pi = port_index(r, in);
      if (port_[pi].in_free_at > t) {
        wake = std::min(wake, port_[pi].in_free_at);
        continue;
      }
      std::uint64_t can_go = 0;
      for (std::uint64_t vcs = port_[pi].vcs & ~port_[pi].blocked; vcs != 0; vcs &= vcs - 1) {
        const std::size_t v = interlock::bits::lowest_index(vcs);
        const std::size_t b = pi * vcs_ + v;
        if (buf_[b].ncand == 0) {
          const std::uint64_t free_at = port_[port_index(r, local_)].out_free_at;
          if (free_at <= t) {
            can_go |= interlock::bits::bit(v);
            options[v] = choice{static_cast<std::uint8_t>(v), 0xFF, 0};
            option_out[v] = static_cast<std::uint8_t>(local_);
          } else {
            wake = std::min(wake, free_at);
          }
          continue;
        }
        // Adaptive hops first (most credits), the escape hop otherwise.
        int best = -1;
        std::size_t best_vc = 0;
        bool best_adaptive = false;
        std::int32_t best_credits = -1;
        const std::uint32_t flits = buf_[b].flits;
        const candidate_info* info = &cand_info_[b * max_cand_];
        bool busy = false;
        for (std::size_t k = 0; k < buf_[b].ncand; ++k) {
          const candidate_info ci = info[k];
          const std::uint64_t free_at = port_[port_index(r, ci.port)].out_free_at;
          if (free_at > t) {
            wake = std::min(wake, free_at);
            busy = true;
            continue;
          }
          const std::size_t set = buffer(r, ci.port, ci.first_vc);
          const int pv = pick_vc(set, flits);
          if (pv < 0) {
            blocked_vcs |= interlock::bits::bit(v);
            continue;
          }
          const std::int32_t c = credits_[set + static_cast<std::size_t>(pv)];
          const bool better = best < 0 || (ci.adaptive != 0 && !best_adaptive) ||
                              (ci.adaptive != 0 && c > best_credits);
          if (better) {
            best = static_cast<int>(k);
            best_vc = ci.first_vc + static_cast<std::size_t>(pv);
            best_credits = c;
            best_adaptive = ci.adaptive != 0;
          }
        }
        if constexpr (!ages) {
          if (best < 0 && !busy) {
            // Every way on lacks credits: skip this head until one comes.
            port_[pi].blocked |= interlock::bits::bit(v);
            for (std::size_t k = 0; k < buf_[b].ncand; ++k)
              port_[port_index(r, info[k].port)].waiters |= interlock::bits::bit(in);
          }
        }
        if (best >= 0) {
          can_go |= interlock::bits::bit(v);
          options[v] = choice{static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(best),
                              static_cast<std::uint8_t>(best_vc)};
          option_out[v] = info[best].port;
        }
      }
      if (can_go == 0) continue;
      const std::size_t v = input_arb_[pi].arbitrate(can_go).index();
      const std::size_t o = option_out[v];
      chosen[in] = options[v];
      if ((out_requests & interlock::bits::bit(o)) == 0) requesters[o] = 0;
      out_requests |= interlock::bits::bit(o);
      requesters[o] |= interlock::bits::bit(in);
      const std::size_t b = pi * vcs_ + v;
      age_of[in] = buf_[b].age;
      pattern_of[in] = buf_[b].pattern;
      flits_of[in] = buf_[b].flits;
      priority_of[in] = buf_[b].priority;
    }
    if (out_requests == 0) {
      // Nothing can go: sleep until a port frees, a credit or a packet arrives.
      sleep_until_[r] = wake;
      if constexpr (ages) {
        asleep_blocked_[r] = blocked_vcs & 0xF;
        asleep_stalled_[r] = blocked_vcs != 0;
      }
    }
    if constexpr (ages) {
      for (std::uint64_t x = blocked_vcs & 0xF; x != 0; x &= x - 1)
        counters_[r].count_blocked_cycle(static_cast<unsigned>(interlock::bits::lowest_index(x)));
      if (blocked_vcs != 0 && out_requests == 0) counters_[r].count_stalled_cycle();
    }
    // Output stage: each requested output grants one input port.
    auto& builder = builders_[ages ? r : 0];
    for (std::uint64_t outs = out_requests; outs != 0; outs &= outs - 1) {
      const std::size_t o = interlock::bits::lowest_index(outs);
      interlock::candidate_view view;
      view.requests = requesters[o];
      view.age = {age_of.data(), ports_};
      view.pattern = {pattern_of.data(), ports_};
      view.flits = {flits_of.data(), ports_};
      view.priority = {priority_of.data(), ports_};
      Policy& policy = policies_[port_index(r, o)];
      const auto request = builder(view);
      const interlock::grant g = policy.arbitrate(request);
      if (!g) continue;
      policy.commit(g, request);
      const std::size_t in = g.index();
      const choice c = chosen[in];
      input_arb_[port_index(r, in)].commit(interlock::grant(c.vc));
      send(r, in, c, o, t);
    }
  }

  // Moves the head of (r, in, c.vc) out through port o.
  void send(node_id r, std::size_t in, const choice& c, std::size_t o, std::uint64_t t) {
    const std::size_t pi = port_index(r, in);
    const std::size_t b = pi * vcs_ + c.vc;
    const std::uint32_t id = ring_[b * capacity_ + buf_[b].head];
    const std::uint32_t flits = buf_[b].flits;
    const std::size_t next_head = buf_[b].head + std::size_t{1};
    buf_[b].head = static_cast<std::uint16_t>(next_head == capacity_ ? 0 : next_head);
    --buf_[b].count;
    last_progress_ = t;
    if (on_send) on_send(r, in, o, flits, t);
    const std::uint64_t tail_leaves = t + flits - 1;
    port_[pi].in_free_at = t + flits;
    port_[port_index(r, o)].out_free_at = t + flits;
    // The buffer's space goes back upstream when the tail has left. Input
    // port q holds packets that travelled in q's direction: its upstream is
    // the neighbor behind, whose output port is q too (the local port's
    // credits are the injection side's, at the same router).
    schedule(
        tail_leaves + cfg_.channel_latency,
        event{event_kind::credit, static_cast<std::uint8_t>(in), c.vc, port_[pi].upstream, flits});
    if constexpr (ages) {
      packet& p = pool_[id];
      const interlock::age_field sent =
          interlock::send_packet(interlock::age_field::from_bits(p.age), clocks_[r], age_.rule);
      counters_[r].count_departure_age(sent.age());
      p.age = sent.bits();
    }
    if (c.candidate == 0xFF) {
      --in_network_;
      schedule(t + flits, event{event_kind::delivery, 0, 0, r, id});
    } else {
      if (!buf_[b].followed) {
        packet& p = pool_[id];
        scheme_.follow(r, p.route, cand_[b * max_cand_ + c.candidate]);
        ++p.hops;
      }
      credits_[buffer(r, o, c.out_vc)] -= static_cast<std::int32_t>(flits);
      if (t >= window_start_ && t < window_end_) channel_flits_[port_index(r, o)] += flits;
      schedule(t + cfg_.channel_latency + cfg_.router_delay,
               event{event_kind::arrival, static_cast<std::uint8_t>(o), c.out_vc,
                     port_[port_index(r, o)].downstream, id});
    }
    // The next packet of this VC, if any, becomes the head.
    if (buf_[b].count == 0) {
      port_[pi].vcs &= ~interlock::bits::bit(c.vc);
      if (port_[pi].vcs == 0) port_mask_[r] &= ~interlock::bits::bit(in);
    } else {
      route_head(r, b, ring_[b * capacity_ + buf_[b].head]);
    }
  }

  // ---- deadlock ----------------------------------------------------------------

  void declare_deadlock(std::uint64_t t) {
    deadlock_.deadlocked = true;
    deadlock_.cycle = t;
    // Follow full buffers: each head waits for the escape hop's buffer downstream.
    std::map<std::size_t, std::size_t> seen;
    std::vector<std::size_t> path;
    std::size_t b = find_blocked_buffer();
    while (b != no_buffer && seen.find(b) == seen.end()) {
      seen[b] = path.size();
      path.push_back(b);
      b = waits_for(b);
    }
    if (b == no_buffer) {
      for (std::size_t x : path) deadlock_.cycle_of_buffers.push_back(describe(x));
      return;
    }
    for (std::size_t i = seen[b]; i < path.size(); ++i)
      deadlock_.cycle_of_buffers.push_back(describe(path[i]));
  }

  static constexpr std::size_t no_buffer = ~std::size_t{0};

  std::size_t find_blocked_buffer() const {
    for (std::size_t b = 0; b < buf_.size(); ++b)
      if (buf_[b].count != 0 && buf_[b].ncand != 0) return b;
    return no_buffer;
  }

  std::size_t waits_for(std::size_t b) const {
    if (buf_[b].count == 0 || buf_[b].ncand == 0) return no_buffer;
    const node_id r = static_cast<node_id>(b / (ports_ * vcs_));
    const interlock::hop& h = cand_[b * max_cand_];
    const node_id next = t_.neighbor(r, h.dimension, h.sign);
    const std::size_t first = static_cast<std::size_t>(logical_[h.vc]) * replication_;
    return buffer(next, t_.port_of(h), first);
  }

  std::string describe(std::size_t b) const {
    const node_id r = static_cast<node_id>(b / (ports_ * vcs_));
    const std::size_t port = b / vcs_ % ports_;
    const std::size_t v = b % vcs_;
    std::string s = "node (";
    const auto c = t_.coordinates_of(r);
    for (std::size_t d = 0; d < t_.dimensions(); ++d) s += (d ? "," : "") + std::to_string(c[d]);
    s += ") input ";
    if (port == local_) {
      s += "local";
    } else {
      const auto p = t_.port_info(port);
      const std::string dir = std::string(p.sign > 0 ? "+" : "-") + d_name(p.dimension);
      s += dir + " (travelling " + dir + ")";
      if (t_.slices() > 1) s += " slice " + std::to_string(p.slice);
    }
    s += " VC" + std::to_string(v) + ": " + std::to_string(buf_[b].count) + " packets";
    return s;
  }
  static char d_name(std::size_t d) {
    return static_cast<char>(d < 3 ? 'X' + static_cast<int>(d) : '0' + static_cast<int>(d));
  }

  // ---- results -----------------------------------------------------------------

  void collect(results& r) {
    if (cfg_.batch > 0) {
      r.batch_cycles = last_delivery_;
      window_start_ = 0;
      window_end_ = last_delivery_ + 1;
    }
    r.cycles = now_;
    r.routers = nodes_;
    r.deadlock = deadlock_;
    const double window = static_cast<double>(window_end_ - window_start_);
    r.offered = cfg_.batch > 0 ? 0 : cfg_.load;
    double total = 0;
    std::vector<bool> sends(nodes_, false);
    for (node_id n = 0; n < nodes_; ++n) {
      interlock::splitmix64 probe(n);
      sends[n] = destination_(n, probe) != interlock::no_node;
    }
    for (node_id n = 0; n < nodes_; ++n) {
      total += static_cast<double>(accepted_flits_[n]);
      if (!sends[n]) continue;
      r.sources.push_back(n);
      r.accepted_per_source.push_back(static_cast<double>(accepted_flits_[n]) / window);
      r.hops_per_source.push_back(source_packets_[n] == 0
                                      ? 0.0
                                      : static_cast<double>(source_hops_[n]) /
                                            static_cast<double>(source_packets_[n]));
    }
    r.accepted = total / window / static_cast<double>(nodes_);
    if (cfg_.batch > 0 && !r.sources.empty())
      r.offered = static_cast<double>(r.sources.size()) / static_cast<double>(nodes_);
    r.jain = jain_index(r.accepted_per_source);
    double lo = 0, hi = 0;
    for (std::size_t i = 0; i < r.accepted_per_source.size(); ++i) {
      const double a = r.accepted_per_source[i];
      lo = i == 0 ? a : std::min(lo, a);
      hi = i == 0 ? a : std::max(hi, a);
    }
    r.max_min_ratio = lo > 0 ? hi / lo : (hi > 0 ? INFINITY : 1);
    r.measured_packets = measured_created_;
    r.measured_delivered = measured_delivered_;
    if (!latencies_.empty()) {
      const double n = static_cast<double>(latencies_.size());
      double sum = 0, mx = 0;
      for (const auto l : latencies_) {
        sum += l;
        mx = std::max(mx, static_cast<double>(l));
      }
      r.latency_mean = sum / n;
      r.latency_max = mx;
      r.network_latency_mean = network_latency_sum_ / n;
      r.queueing_latency_mean = queueing_latency_sum_ / n;
      r.hops_mean = hops_sum_ / n;
      r.latency_p50 = quantile(latencies_, 0.5);
      r.latency_p99 = quantile(latencies_, 0.99);
    }
    r.utilization.assign(t_.dimensions(), {0.0, 0.0});
    std::vector<std::uint64_t> sent(t_.dimensions() * 2, 0);  // flits per direction
    for (node_id n = 0; n < nodes_; ++n)
      for (std::size_t o = 0; o < ports_; ++o)
        if (o != local_) {
          const auto p = t_.port_info(o);
          sent[p.dimension * 2 + (p.sign > 0 ? 0 : 1)] += channel_flits_[port_index(n, o)];
        }
    for (std::size_t d = 0; d < t_.dimensions(); ++d) {
      const std::size_t k = t_.radix(d);
      const double per_direction = static_cast<double>(nodes_) / static_cast<double>(k) *
                                   static_cast<double>(t_.wraps(d) ? k : k - 1) *
                                   static_cast<double>(t_.slices());
      for (std::size_t s = 0; s < 2; ++s)
        r.utilization[d][s] = static_cast<double>(sent[d * 2 + s]) / (per_direction * window);
    }
    if constexpr (ages) {
      r.has_age = true;
      for (node_id n = 0; n < nodes_; ++n) {
        const auto& c = counters_[n];
        const std::uint64_t g0 = c.age_group0(), g1 = c.age_group1();
        r.age_histogram[0] += g0 & 0xFFFFFFFFu;
        r.age_histogram[1] += g0 >> 32;
        r.age_histogram[2] += g1 & 0xFFFFFFFFu;
        r.age_histogram[3] += g1 >> 32;
        r.stalled_cycles += c.stalled();
        for (unsigned v = 0; v < 4; ++v) r.vc_blocked[v] += c.vc_blocked(v);
      }
    }
  }

  // ---- data ----------------------------------------------------------------------

  const Scheme& scheme_;
  const interlock::torus_topology& t_;
  config cfg_;
  destination_function destination_;
  age_config age_;
  node_id nodes_ = 0;
  std::size_t ports_ = 0, local_ = 0, vcs_ = 0, replication_ = 1, capacity_ = 0, max_cand_ = 1;
  unsigned min_flits_ = 1;
  std::vector<std::uint8_t> logical_;  // scheme VC -> index of its set (0xFF: unused)

  // What the allocator reads of each candidate of a head, packed.
  struct candidate_info {
    std::uint8_t port, first_vc, adaptive, unused;
  };
  // Per input buffer (router, port, VC): a ring of packet ids, and the head.
  struct buffer_state {
    std::uint16_t head = 0, count = 0;  // the ring
    std::uint16_t flits = 0;            // the head packet's length
    std::uint8_t ncand = 0;             // its ways on (0: it ejects here)
    std::uint8_t followed = 0;          // its route state has taken its only way on
    std::uint16_t age = 0;              // its header fields a policy may read
    std::uint8_t pattern = 0, priority = 0;
  };
  std::vector<std::uint32_t> ring_;
  std::vector<buffer_state> buf_;
  std::vector<interlock::hop> cand_;
  std::vector<candidate_info> cand_info_;
  // Per output (router, port, VC): credits for the downstream buffer; at
  // the local port, the injection side's credits for the local input buffer.
  std::vector<std::int32_t> credits_;
  // Per (router, port), as input and as output.
  struct port_state {
    std::uint64_t in_free_at = 0, out_free_at = 0;  // the crossbar input, the channel out
    std::uint64_t vcs = 0;                          // input VCs holding packets
    // VCs whose head waits for credits and nothing else; input ports with
    // such a head waiting on this output. A credit at the output makes them
    // look again. (Not with an age arbiter: its counters count every
    // blocked cycle.)
    std::uint64_t blocked = 0, waiters = 0;
    // The router at the other end (no_node off a mesh edge): where this
    // input's packets come from, where this output goes.
    node_id upstream = interlock::no_node, downstream = interlock::no_node;
  };
  std::vector<port_state> port_;
  std::vector<interlock::round_robin_arbiter<64>> input_arb_;
  std::vector<Policy> policies_;
  std::vector<interlock::request_builder<Policy>> builders_;
  // Per router.
  std::vector<std::uint64_t> port_mask_;                      // input ports holding packets
  std::vector<std::uint64_t> sleep_until_;                    // not evaluated before this cycle
  std::vector<std::uint64_t> asleep_since_, asleep_blocked_;  // age runs: counters while asleep
  std::vector<std::uint8_t> asleep_stalled_;
  std::vector<std::uint64_t> active_;  // bit r: router r holds packets
  std::vector<interlock::age_clock> clocks_;
  std::vector<interlock::router_perf_counters> counters_;
  // Per node.
  std::vector<interlock::splitmix64> rng_;
  std::vector<detail::time_queue> queue_;
  std::vector<std::uint32_t> pending_;     // the packet waiting to enter the local input port
  std::vector<std::uint8_t> pending_set_;  // its VC set there
  std::vector<std::uint16_t> pending_flits_;
  std::vector<std::uint64_t> inj_free_at_;
  std::vector<std::uint8_t> in_inject_list_;
  std::vector<node_id> injecting_;
  std::priority_queue<std::pair<std::uint64_t, node_id>,
                      std::vector<std::pair<std::uint64_t, node_id>>, std::greater<>>
      creations_;
  // Packets and events.
  std::vector<packet> pool_;
  std::vector<std::uint32_t> free_;
  std::vector<std::vector<event>> wheel_;
  std::uint64_t wheel_size_ = 1;
  std::vector<double> length_cdf_;
  // Time and counts.
  std::uint64_t now_ = 0, window_start_ = 0, window_end_ = 0, last_progress_ = 0;
  std::uint64_t last_delivery_ = 0, stall_limit_ = 0;
  std::uint64_t created_ = 0, injected_ = 0, delivered_ = 0, in_network_ = 0, sequence_ = 0;
  std::uint64_t measured_created_ = 0, measured_delivered_ = 0;
  std::uint64_t enqueued_ = 0, dropped_ = 0;  // into source queues; with no destination
  bool started_ = false;
  std::vector<std::uint64_t> accepted_flits_, source_hops_, source_packets_;
  std::vector<std::uint64_t> channel_flits_;  // per (router, output port), in the window
  std::vector<std::uint32_t> latencies_;
  double network_latency_sum_ = 0, queueing_latency_sum_ = 0, hops_sum_ = 0;
  deadlock_report deadlock_;
};

}  // namespace netmodel

#endif  // INTERLOCK_EXAMPLES_MODEL_NETWORK_HPP
