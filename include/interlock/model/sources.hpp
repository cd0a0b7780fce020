// SPDX-License-Identifier: BSL-1.0
// interlock/model/sources.hpp: the traffic sources of the model's nodes.
//
// Contract
//   Each node has an unbounded source queue of creation times, fed by a
//   Bernoulli process of config::load / mean length packets per cycle (drawn
//   as geometric gaps, kept in one heap by time, so an idle node costs
//   nothing) or, in a batch run, by config::batch packets at cycle 0. Each
//   node draws its gaps, lengths, classes, destinations and route choices
//   from its own splitmix64 seeded from (seed, node), so a run depends only
//   on its configuration. A packet's destination is drawn when it leaves the
//   queue, by a traffic_source (a destination_function, or a function
//   returning a labelled_destination whose label the packet carries;
//   no_node: the source sends nothing, and the packet is dropped). The nodes with packets to inject
//   are kept in a list, so injection visits only them.
//   Traffic from outside the model (a trace, model/trace_replay.hpp) is an
//   external_traffic: the network asks it each cycle for the packets ready
//   (offer(): a destination, a length, a class and a tag each, queued in
//   order), tells it of each delivery by tag, and ends the run when it is
//   done and the network is empty.
//
// Example
//   interlock::model::config c;
//   interlock::model::sources src(16, c);
//   src.start();                       // the first creation of every node
//   src.create_due(0);                 // creations of cycle 0 enter their queues
#ifndef INTERLOCK_MODEL_SOURCES_HPP
#define INTERLOCK_MODEL_SOURCES_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <type_traits>
#include <utility>
#include <vector>

#include "interlock/core/random.hpp"
#include "interlock/model/config.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

/// A packet's destination at creation: f(source, rng), no_node to send nothing.
using destination_function = std::function<node_id(node_id, splitmix64&)>;

/// A destination and the label of the traffic pattern that chose it (the
/// label an inverse-weighted arbiter reads; Anton 2's N patterns).
struct labelled_destination {
  node_id node = no_node;
  std::uint8_t pattern = 0;
};

/// What a network's sources draw a packet's destination from: a function
/// returning a node (every packet labelled 0), or a labelled_destination.
class traffic_source {
 public:
  template <class F, class R = decltype(std::declval<F&>()(node_id{}, std::declval<splitmix64&>()))>
  traffic_source(F f) {  // NOLINT: implicit, so a plain destination function converts
    if constexpr (std::is_convertible<R, labelled_destination>::value) {
      draw_ = std::move(f);
    } else {
      static_assert(std::is_convertible<R, node_id>::value,
                    "a traffic source returns a node_id or a labelled_destination");
      draw_ = [g = std::move(f)](node_id s, splitmix64& rng) mutable {
        return labelled_destination{static_cast<node_id>(g(s, rng)), 0};
      };
    }
  }
  labelled_destination operator()(node_id source, splitmix64& rng) const {
    return draw_(source, rng);
  }

 private:
  std::function<labelled_destination(node_id, splitmix64&)> draw_;
};

/// A packet from outside the model: where it goes, its length (1..1024
/// flits), its class, and a tag the network hands back when it is delivered.
struct offered_packet {
  node_id destination = 0;
  std::uint16_t flits = 1;
  std::uint8_t cls = 0;
  std::uint64_t tag = 0;
};

/// Traffic the model does not draw (a trace): the network calls release(t)
/// once per cycle it runs, delivered() for each of its packets, and skips
/// idle cycles up to next_ready().
class external_traffic {
 public:
  virtual ~external_traffic() = default;
  /// Calls offer(node, packet) for every packet ready at or before cycle t.
  virtual void release(std::uint64_t t,
                       const std::function<void(node_id, const offered_packet&)>& offer) = 0;
  /// The packet tagged `tag` was delivered at cycle t.
  virtual void delivered(std::uint64_t tag, std::uint64_t t) = 0;
  /// The first cycle after the last release with a packet ready, counting
  /// only what is known now (never: none until a delivery).
  virtual std::uint64_t next_ready() const = 0;
  /// Every packet released (and so, once the network is empty, delivered).
  virtual bool done() const = 0;
};

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
  /// The i-th creation time from the front.
  std::uint64_t at(std::size_t i) const noexcept { return items_[head_ + i]; }

 private:
  std::vector<std::uint64_t> items_;
  std::size_t head_ = 0;
};

class sources {
 public:
  static constexpr std::uint64_t never = ~std::uint64_t{0};

  sources() = default;
  /// `hosts[n]` (empty: every node) tells whether node n sends.
  sources(node_id nodes, const config& c, std::vector<std::uint8_t> hosts = {})
      : cfg_(c), nodes_(nodes), hosts_(std::move(hosts)) {
    rng_.reserve(nodes);
    for (node_id n = 0; n < nodes; ++n)
      rng_.emplace_back(splitmix64(c.seed * 0x9E3779B97F4A7C15ull + n)());
    queue_.resize(nodes);
    in_list_.assign(nodes, 0);
    double share_total = 0;
    for (const auto& l : c.lengths) share_total += l.share;
    double cumulative = 0;
    for (const auto& l : c.lengths) {
      cumulative += l.share / share_total;
      length_cdf_.push_back(cumulative);
    }
    length_cdf_.back() = 1.0;
  }

  /// The first creations of a Bernoulli run, or every packet of a batch.
  void start() {
    if (cfg_.batch > 0) {
      for (node_id n = 0; n < nodes_; ++n)
        if (sends(n))
          for (std::size_t k = 0; k < cfg_.batch; ++k) create(n, 0, [](node_id, std::uint64_t) {});
      return;
    }
    if (cfg_.load <= 0) return;
    for (node_id n = 0; n < nodes_; ++n)
      if (sends(n)) schedule(n, 0, true);
  }

  /// Puts the creations due by cycle t into their source queues, calling
  /// on_create(node, t) for each.
  template <class OnCreate>
  void create_due(std::uint64_t t, OnCreate&& on_create) {
    while (!creations_.empty() && creations_.top().first <= t) {
      const node_id n = creations_.top().second;
      creations_.pop();
      create(n, t, on_create);
      schedule(n, t);
    }
  }
  void create_due(std::uint64_t t) {
    create_due(t, [](node_id, std::uint64_t) {});
  }
  /// The cycle of the next creation (never: none is scheduled).
  std::uint64_t next_creation() const {
    return creations_.empty() ? never : creations_.top().first;
  }

  splitmix64& rng(node_id n) noexcept { return rng_[n]; }
  time_queue& queue(node_id n) noexcept { return queue_[n]; }
  const time_queue& queue(node_id n) const noexcept { return queue_[n]; }
  /// Whether node n has a source (every node, unless hosts were given).
  bool sends(node_id n) const noexcept { return hosts_.empty() || hosts_[n] != 0; }
  /// Packets put into source queues so far.
  std::uint64_t enqueued() const noexcept { return enqueued_; }

  unsigned draw_length(node_id n) {
    if (length_cdf_.size() == 1) return cfg_.lengths[0].flits;
    const double u = uniform_unit(rng_[n]);
    for (std::size_t i = 0; i < length_cdf_.size(); ++i)
      if (u < length_cdf_[i]) return cfg_.lengths[i].flits;
    return cfg_.lengths.back().flits;
  }

  /// Queues an external packet at node n, created at cycle t.
  void offer(node_id n, std::uint64_t t, const offered_packet& p) {
    if (offered_.empty()) offered_.resize(nodes_);
    offered_[n].push_back(p);
    create(n, t, [](node_id, std::uint64_t) {});
  }
  /// Whether packets come from outside (offer()) rather than the Bernoulli process.
  bool external() const noexcept { return !offered_.empty(); }
  /// Node n's next external packet (its queue holds its creation time), and
  /// taking it.
  const offered_packet& offered_front(node_id n) const { return offered_[n].front(); }
  void pop_offered(node_id n) { offered_[n].pop_front(); }

  /// Whether any node has a packet in its source queue or waiting to enter.
  bool any_injecting() const noexcept { return !injecting_.empty(); }

  /// Visits the nodes with packets to inject, in the order they got some;
  /// `visit(n)` returns whether n still has a packet to inject.
  template <class Visit>
  void for_each_injecting(Visit&& visit) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < injecting_.size(); ++i) {
      const node_id n = injecting_[i];
      if (visit(n)) {
        injecting_[kept++] = n;
      } else {
        in_list_[n] = 0;
      }
    }
    injecting_.resize(kept);
  }
  /// The nodes for_each_injecting visits, in its order; keep_injecting(keep)
  /// then drops those whose flag in `keep` (one per node, in that order) is 0.
  const std::vector<node_id>& injecting() const noexcept { return injecting_; }
  void keep_injecting(const std::vector<std::uint8_t>& keep) {
    std::size_t i = 0;
    for_each_injecting([&keep, &i](node_id) { return keep[i++] != 0; });
  }

 private:
  template <class OnCreate>
  void create(node_id n, std::uint64_t t, OnCreate&& on_create) {
    on_create(n, t);
    ++enqueued_;
    queue_[n].push(t);
    if (!in_list_[n]) {
      in_list_[n] = 1;
      injecting_.push_back(n);
    }
  }

  // The next creation at a node: a geometric gap (the Bernoulli process).
  void schedule(node_id n, std::uint64_t t, bool first = false) {
    if (cfg_.batch > 0 || cfg_.load <= 0) return;
    const double p = cfg_.load / cfg_.mean_flits();
    std::uint64_t gap = 1;
    if (p < 1) {
      const double u = 1.0 - uniform_unit(rng_[n]);  // (0, 1]
      const double g = std::floor(std::log(u) / std::log1p(-p));
      gap = g > 1e15 ? std::uint64_t{1} << 50 : static_cast<std::uint64_t>(g) + 1;
    }
    creations_.push({first ? gap - 1 : t + gap, n});
  }

  config cfg_;
  node_id nodes_ = 0;
  std::vector<std::uint8_t> hosts_;
  std::vector<splitmix64> rng_;
  std::vector<time_queue> queue_;
  std::vector<std::uint8_t> in_list_;
  std::vector<node_id> injecting_;
  std::priority_queue<std::pair<std::uint64_t, node_id>,
                      std::vector<std::pair<std::uint64_t, node_id>>, std::greater<>>
      creations_;
  std::vector<double> length_cdf_;
  std::vector<std::deque<offered_packet>> offered_;
  std::uint64_t enqueued_ = 0;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_SOURCES_HPP
