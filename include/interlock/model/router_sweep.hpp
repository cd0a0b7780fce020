// SPDX-License-Identifier: BSL-1.0
// interlock/model/router_sweep.hpp: what a network's cycle visits of its routers, in what
// order and on how many threads: the cycle's events at their routers, then every router due.
//
// Contract
//   router_sweep<Net> is the part of model::network (network.hpp) that
//   walks its routers. spread(n, threads) splits them into lanes of whole
//   64-router words (lanes.hpp; one lane where there are fewer words, or
//   threads is 1). Each cycle:
//   - handle(n, due): the cycle's events, each lane those at its routers
//     (arrivals, credits, staging space), in the order due; then the
//     deliveries, in the order due, on the calling thread; each event's
//     state asked of the cache a fixed number of events before it is
//     handled (channel_unit::handle_prefetched), so that a cycle with more
//     events than the cache holds lines still finds each one's lines in;
//   - inject(n, t): the endpoints' injection, each lane its routers'
//     endpoints (injection_unit.hpp);
//   - step(n, t): the routers holding packets and not asleep (or every one
//     holding packets, config::evaluate_every_cycle), in index order, each
//     lane its block; the lanes' events and counts merged in lane order.
//   The run is the same on any number of threads, bit for bit (lanes.hpp
//   says why); with network::on_send set or a link timeline kept, one
//   thread steps them all. The cache is asked for a router's ports and
//   channels two due routers before its step and for its heads one before.
//
// Example
//   // network<...>::step: sweep_.handle(*this, wheel_.due(t)); ...
//   // injection ...; sweep_.step(*this, t);
#ifndef INTERLOCK_MODEL_ROUTER_SWEEP_HPP
#define INTERLOCK_MODEL_ROUTER_SWEEP_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "interlock/core/bits.hpp"
#include "interlock/model/channel_unit.hpp"
#include "interlock/model/event_wheel.hpp"
#include "interlock/model/injection_unit.hpp"
#include "interlock/model/lanes.hpp"
#include "interlock/model/router_state.hpp"

namespace interlock {
namespace model {

template <class Net>
class router_sweep {
 public:
  /// Lanes for `threads` threads over n's routers.
  void spread(Net& n, std::size_t threads) {
    if (threads <= 1) return;
    blocks_ = lane_blocks(n.s_.nodes, threads);
    const std::size_t lanes = blocks_.size() - 1;
    if (lanes <= 1) return;
    pool_ = std::make_unique<lane_pool>(lanes);
    lane_.reserve(lanes);
    for (std::size_t k = 0; k < lanes; ++k) lane_.emplace_back(n);
    n.injection_.lanes(blocks_);
  }

  /// The cycle's events `due`.
  void handle(Net& n, const std::vector<event>& due) {
    if (!on_lanes(n)) {
      channel_unit::handle_prefetched(
          n, due, [](const event&) { return true; },
          [&n](const event& e) { n.channels_.handle(n, e); });
      return;
    }
    pool_->run([this, &n, &due](std::size_t k) {
      lane<Net>& l = lane_[k];
      l.begin(n.now_);
      const std::size_t from = blocks_[k], to = blocks_[k + 1];
      channel_unit::handle_prefetched(
          n, due,
          [from, to](const event& e) {
            return e.kind != event_kind::delivery && e.router >= from && e.router < to;
          },
          [&n, &l](const event& e) { n.channels_.handle_at_router(l, e); });
    });
    channel_unit::handle_prefetched(
        n, due, [](const event& e) { return e.kind == event_kind::delivery; },
        [&n](const event& e) { n.channels_.handle(n, e); });
  }

  /// The endpoints' injection at cycle t (injection_unit.hpp), each lane its
  /// routers' endpoints; their arrivals merged in lane order.
  void inject(Net& n, std::uint64_t t) {
    if (!on_lanes(n)) {
      n.injection_.inject(n, t);
      return;
    }
    n.injection_.begin_lanes(n);
    pool_->run([this, &n, t](std::size_t k) {
      lane_[k].begin(t);
      n.injection_.inject_lane(n, lane_[k], k, t);
    });
    for (lane<Net>& l : lane_) l.merge();
    n.injection_.end_lanes(n);
  }

  /// Every router due at cycle t.
  void step(Net& n, std::uint64_t t) {
    if (!on_lanes(n)) {
      step_block(n, n, 0, n.s_.nodes, t);
      return;
    }
    pool_->run([this, &n, t](std::size_t k) {
      lane_[k].begin(t);
      step_block(n, lane_[k], blocks_[k], blocks_[k + 1], t);
    });
    for (lane<Net>& l : lane_) l.merge();
  }

 private:
  bool on_lanes(const Net& n) const noexcept {
    return pool_ != nullptr && !n.on_send && !n.timeline_.enabled();
  }

  // Routers from..to - 1 due at cycle t, in index order (their state is
  // laid out so), their departures carried through `via` (the network or a
  // lane). A step changes no other router's state until the next cycle, so
  // the routers due are known ahead.
  template <class Via>
  static void step_block(Net& n, Via& via, std::size_t from, std::size_t to, std::uint64_t t) {
    router_state& s = n.s_;
    const bool every = n.cfg_.evaluate_every_cycle;
    const auto due_from = [&s, t, to, every](std::size_t x) {
      std::size_t r = next_active(s, x);
      while (r < to && !(s.sleep_until[r] <= t || every)) r = next_active(s, r + 1);
      return r < to ? r : to;
    };
    const bool deep = n.router_.prefetching();
    std::size_t r = due_from(from), after = r < to ? due_from(r + 1) : to;
    const auto ask_ports = [&n, &via, deep](std::size_t x) {
      n.router_.prefetch_ports(static_cast<node_id>(x));
      if (deep) n.channels_.prefetch(via, static_cast<node_id>(x));
    };
    if (after < to) ask_ports(after);
    while (r < to) {
      const std::size_t third = after < to ? due_from(after + 1) : to;
      if (third < to) ask_ports(third);
      if (after < to) n.router_.prefetch_heads(static_cast<node_id>(after));
      n.router_.step(static_cast<node_id>(r), t, via);
      // (a router not due holds what it held when it fell asleep)
      if (!s.holds_packets(static_cast<node_id>(r))) s.active[r / 64] &= ~bits::bit(r % 64);
      r = after;
      after = third;
    }
  }

  // The first router from index `from` on that holds packets (nodes: none).
  static std::size_t next_active(const router_state& s, std::size_t from) noexcept {
    std::size_t w = from / 64;
    if (w >= s.active.size()) return s.nodes;
    std::uint64_t x = s.active[w] & (~std::uint64_t{0} << (from % 64));
    while (x == 0) {
      if (++w == s.active.size()) return s.nodes;
      x = s.active[w];
    }
    return w * 64 + bits::lowest_index(x);
  }

  std::unique_ptr<lane_pool> pool_;
  std::vector<std::size_t> blocks_;  // each lane's first router, and one past the last
  std::vector<lane<Net>> lane_;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_ROUTER_SWEEP_HPP
