// SPDX-License-Identifier: BSL-1.0
// interlock/model/injection_unit.hpp: how packets enter a network: each
// endpoint takes its node's oldest queued packet into a local input port.
//
// Contract
//   injection_unit is the part of model::network (network.hpp) that holds,
//   per endpoint, the packet waiting to enter and when its injection
//   channel frees. inject(n, t) visits the nodes of network n with packets
//   to send (sources.hpp); each endpoint whose injection channel is free at
//   t takes the next packet of its node's source queue: its destination
//   drawn at that moment (a source with nothing to send drops it,
//   uncounted), its length, class and, with several endpoints, the endpoint
//   it leaves through at the destination; the packet waits at the endpoint
//   until a VC of its first hop's set at the local input port has credits
//   for all of it, then enters, at config::endpoint_bandwidth flits per
//   cycle, its head arriving config::channel_latency + config::router_delay
//   cycles after it leaves (a slow channel: late enough that forwarding it
//   at one flit per cycle never overtakes its tail). It allocates only when
//   the packet pool grows.
//   On lanes (lanes.hpp, router_sweep.hpp): lanes(blocks) once; then each
//   cycle begin_lanes(n) on the calling thread, inject_lane(n, via, k, t)
//   on lane k for the nodes of its block (in the order inject visits them,
//   its events and packet counts through `via`, lane<Net>), and
//   end_lanes(n) after the lanes' events are merged. The result is
//   inject(n, t)'s, bit for bit: a lane draws from its own nodes'
//   generators and source queues only, takes packet ids from a stash of its
//   own (as many as its endpoints, topped up before each pass: ids carry no
//   meaning), and end_lanes numbers the packets created in inject's order
//   (packet::sequence) and adds the lanes' counts. The destination function
//   is then called on several threads at once, for different sources: it
//   must not write state it shares (the library's traffic patterns do not).
//
// Example
//   // network<...>::step calls inject(*this, t) once per cycle, before the
//   // routers move.
#ifndef INTERLOCK_MODEL_INJECTION_UNIT_HPP
#define INTERLOCK_MODEL_INJECTION_UNIT_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "interlock/core/random.hpp"
#include "interlock/model/channel_unit.hpp"
#include "interlock/model/config.hpp"
#include "interlock/model/event_wheel.hpp"
#include "interlock/model/lanes.hpp"
#include "interlock/model/packet.hpp"
#include "interlock/model/sources.hpp"
#include "interlock/routing/route.hpp"

namespace interlock {
namespace model {

class injection_unit {
 public:
  /// `endpoints`: the network's endpoints (routers x config::endpoints).
  explicit injection_unit(std::size_t endpoints)
      : pending_(endpoints, no_packet),
        pending_set_(endpoints, 0),
        pending_flits_(endpoints, 0),
        free_at_(endpoints, 0),
        busy_(endpoints, 0.0) {}

  // Each endpoint of a node whose injection channel is free takes the next
  // packet of the node's source queue.
  template <class Net>
  void inject(Net& n, std::uint64_t t) {
    to_network<Net> out{n};
    n.src_.for_each_injecting([&](node_id x) { return inject_at(n, out, x, t); });
  }

  /// Lanes of routers blocks[k] .. blocks[k + 1] - 1.
  void lanes(const std::vector<std::size_t>& blocks) {
    lane_.resize(blocks.size() - 1);
    for (std::size_t k = 0; k + 1 < blocks.size(); ++k) {
      lane_[k].from = blocks[k];
      lane_[k].to = blocks[k + 1];
    }
  }
  template <class Net>
  void begin_lanes(Net& n) {
    for (lane_tally& l : lane_) {
      const std::size_t most = (l.to - l.from) * n.cfg_.endpoints;
      while (l.stash.size() < most) l.stash.push_back(n.pool_.acquire());
    }
    keep_.resize(n.src_.injecting().size());
  }
  template <class Net, class Via>
  void inject_lane(Net& n, Via& via, std::size_t k, std::uint64_t t) {
    to_lane<Net, Via> out{n, via, lane_[k], 0};
    const std::vector<node_id>& list = n.src_.injecting();
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i] < out.tally.from || list[i] >= out.tally.to) continue;
      out.position = i;
      keep_[i] = inject_at(n, out, list[i], t) ? 1 : 0;
    }
  }
  template <class Net>
  void end_lanes(Net& n) {
    // The packets created, numbered in the order of the one-thread pass:
    // each lane's are in list order, so they merge by list position.
    std::vector<std::size_t>& at = merged_;
    at.assign(lane_.size(), 0);
    for (;;) {
      std::size_t best = lane_.size();
      for (std::size_t k = 0; k < lane_.size(); ++k)
        if (at[k] < lane_[k].made.size() &&
            (best == lane_.size() || lane_[k].made[at[k]].first < lane_[best].made[at[best]].first))
          best = k;
      if (best == lane_.size()) break;
      n.pool_[lane_[best].made[at[best]++].second].sequence = n.sequence_++;
    }
    for (lane_tally& l : lane_) {
      l.made.clear();
      n.created_ += l.created;
      n.dropped_ += l.dropped;
      n.injected_ += l.injected;
      n.m_.uncount_created(l.uncounted);
      n.m_.count_injected(l.measured);
      l.created = l.dropped = l.injected = l.uncounted = l.measured = 0;
    }
    n.src_.keep_injecting(keep_);
  }

 private:
  // What a lane's pass keeps apart until end_lanes: its routers, its stash
  // of packet ids, the packets it created (list position, id) and its counts.
  struct lane_tally {
    std::size_t from = 0, to = 0;
    std::vector<std::uint32_t> stash;
    std::vector<std::pair<std::size_t, std::uint32_t>> made;
    std::uint64_t created = 0, dropped = 0, injected = 0, uncounted = 0, measured = 0;
  };

  // Where a pass puts what it creates and counts: the network itself (one
  // thread), or a lane's tally and events.
  template <class Net>
  struct to_network {
    Net& n;
    std::uint32_t acquire() { return n.pool_.acquire(); }
    void number(std::uint32_t id) { n.pool_[id].sequence = n.sequence_++; }
    void created() { ++n.created_; }
    void dropped(bool measured) {
      ++n.dropped_;
      if (measured) n.m_.uncount_created();
    }
    void injected(bool measured, std::uint64_t t) {
      if (measured) n.m_.count_injected();
      if (n.in_network_ == 0) n.last_progress_ = t;  // an empty network has not stalled
      ++n.injected_;
      ++n.in_network_;
    }
    void schedule(std::uint64_t at, const event& e) { n.wheel_.schedule(at, e); }
  };
  template <class Net, class Via>
  struct to_lane {
    Net& n;
    Via& via;
    lane_tally& tally;
    std::size_t position;  // the node's in the list of nodes injecting
    std::uint32_t acquire() {
      const std::uint32_t id = tally.stash.back();
      tally.stash.pop_back();
      return id;
    }
    void number(std::uint32_t id) { tally.made.emplace_back(position, id); }
    void created() { ++tally.created; }
    void dropped(bool measured) {
      ++tally.dropped;
      if (measured) ++tally.uncounted;
    }
    void injected(bool measured, std::uint64_t t) {
      if (measured) ++tally.measured;
      if (n.in_network_ == 0) via.last_progress_ = t;
      ++tally.injected;
      ++via.in_network_;
    }
    void schedule(std::uint64_t at, const event& e) { via.wheel_.schedule(at, e); }
  };

  // Node x's endpoints whose injection channel is free try to inject;
  // whether x still has a packet to send.
  template <class Net, class Out>
  bool inject_at(Net& n, Out& out, node_id x, std::uint64_t t) {
    const std::size_t endpoints = n.cfg_.endpoints;
    bool pending = false;
    for (std::size_t e = 0; e < endpoints; ++e) {
      const std::size_t k = x * endpoints + e;
      if (free_at_[k] <= t) try_inject(n, out, x, e, t);
      pending = pending || pending_[k] != no_packet;
    }
    return pending || !n.src_.queue(x).empty();
  }

  // Packet `id` waits at endpoint k of node x: its destination endpoint, and
  // the local input VC set of its first hop (any VC of the class for a
  // packet to its own node).
  template <class Net, class Out>
  void prepare(Net& n, Out& out, node_id x, std::size_t k, std::uint32_t id) {
    auto& p = n.pool_[id];
    if (n.cfg_.endpoints > 1)  // (no draw with one endpoint: the same runs as before)
      p.endpoint = static_cast<std::uint16_t>(uniform_below(n.src_.rng(x), n.cfg_.endpoints) & 7u);
    pending_[k] = id;
    unsigned scheme_vc = p.cls * n.scheme_.vcs_per_class();
    if (!n.scheme_.arrived(x, p.route)) {
      hop options[max_route_candidates];
      n.scheme_.candidates(x, p.route, options);
      scheme_vc = options[0].vc;
    }
    pending_set_[k] = static_cast<std::uint8_t>(n.sets_.first(scheme_vc));
    pending_flits_[k] = p.flits;
    out.created();
  }

  template <class Net, class Out>
  void try_inject(Net& n, Out& out, node_id x, std::size_t e, std::uint64_t t) {
    splitmix64& rng = n.src_.rng(x);
    const config& cfg = n.cfg_;
    const std::size_t k = x * cfg.endpoints + e;
    while (pending_[k] == no_packet) {
      time_queue& queue = n.src_.queue(x);
      if (queue.empty()) return;
      const std::uint64_t born = queue.front();
      queue.pop();
      if (n.src_.external()) {
        const offered_packet o = n.src_.offered_front(x);
        n.src_.pop_offered(x);
        const std::uint32_t id = out.acquire();
        auto& p = n.pool_[id];
        p.created = born;
        p.source = x;
        p.flits = o.flits & 0x7FFu;
        p.cls = o.cls & 1u;
        p.route = n.scheme_.start(x, o.destination, static_cast<traffic_class>(p.cls), rng);
        p.sequence = o.tag;  // handed back at delivery
        p.measured = 1;
        prepare(n, out, x, k, id);
        continue;
      }
      const labelled_destination drawn = n.destination_(x, rng);
      const node_id d = drawn.node;
      if (d == no_node) {  // this source has nothing to send
        out.dropped(cfg.batch > 0 || n.m_.in_window(born));
        continue;
      }
      const std::uint32_t id = out.acquire();
      auto& p = n.pool_[id];
      p.created = born;
      p.source = x;
      p.flits = n.src_.draw_length(x) & 0x7FFu;  // 1..1024
      p.pattern = drawn.pattern;
      const bool response = cfg.response_share >= 1 ||
                            (cfg.response_share > 0 && uniform_unit(rng) < cfg.response_share);
      p.cls = response ? 1 : 0;
      p.route = n.scheme_.start(x, d, static_cast<traffic_class>(p.cls), rng);
      out.number(id);
      p.measured = (cfg.batch > 0 || n.m_.in_window(born)) ? 1 : 0;
      prepare(n, out, x, k, id);
    }
    router_state& s = n.s_;
    const std::size_t port = s.local + e;
    const std::size_t local_buffers = s.buffer(x, port, 0);
    const std::uint32_t flits = pending_flits_[k];
    const int pick = n.sets_.pick(&s.credits[local_buffers + pending_set_[k]], flits);
    if (pick < 0) return;
    const std::size_t v = pending_set_[k] + static_cast<std::size_t>(pick);
    s.credits[local_buffers + v] -= static_cast<std::int32_t>(flits);
    auto& p = n.pool_[pending_[k]];
    p.queued = static_cast<std::uint32_t>(std::min<std::uint64_t>(t - p.created, 0xFFFFFFFFu));
    // The injection channel carries config::endpoint_bandwidth flits per
    // cycle; the head reaches the router so that forwarding it at one flit
    // per cycle never overtakes its tail.
    std::uint64_t head_leaves = t;
    if (cfg.endpoint_bandwidth >= 1) {
      free_at_[k] = t + flits;
    } else {
      busy_[k] =
          detail::continued(busy_[k], t) + static_cast<double>(flits) / cfg.endpoint_bandwidth;
      free_at_[k] = static_cast<std::uint64_t>(std::ceil(busy_[k]));
      head_leaves = std::max(t, free_at_[k] - flits);
    }
    out.injected(p.measured != 0, t);
    out.schedule(head_leaves + cfg.channel_latency + cfg.router_delay,
                 event{event_kind::arrival, static_cast<std::uint8_t>(port),
                       static_cast<std::uint8_t>(v), x, pending_[k]});
    pending_[k] = no_packet;
  }

  // Per endpoint: the packet waiting to enter the local input port, its VC
  // set there and length, when the injection channel frees and, with
  // endpoint_bandwidth below 1, how far into a cycle it is busy.
  std::vector<std::uint32_t> pending_;
  std::vector<std::uint8_t> pending_set_;
  std::vector<std::uint16_t> pending_flits_;
  std::vector<std::uint64_t> free_at_;
  std::vector<double> busy_;
  // On lanes: each lane's tally, and whether each node injecting keeps a
  // packet to send (by its position in the list).
  std::vector<lane_tally> lane_;
  std::vector<std::uint8_t> keep_;
  std::vector<std::size_t> merged_;  // end_lanes: each lane's packets numbered so far
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_INJECTION_UNIT_HPP
