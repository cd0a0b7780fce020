// SPDX-License-Identifier: BSL-1.0
// interlock/model/trace_replay.hpp: a Netrace trace replayed closed-loop through the model's
// network.
//
// A trace packet enters its node's source queue at its trace cycle or, when
// packets it depends on are still in flight, once the last of them has been
// delivered (plus an optional processing delay), whichever is later. So a
// slower network delays the packets that wait for its deliveries, and those
// delay theirs: the trace throttles itself, and its completion cycle shows
// an arbiter's effect on the program's run, not only on each packet.
//
// Netrace's dependencies are downward (traffic/netrace.hpp): packet P lists
// the later packets that wait for it. The replay counts, per packet id, the
// packets in flight it still waits for, and releases it when the count
// reaches zero and its cycle has come.
//
// Contract
//   - trace_replay<Source>(reader, model_nodes, options) reads the trace
//     lazily, by cycle (a region: reader.seek_region first, cycles counted
//     from the region's start); network::drive(replay) runs it, and
//     network::run() ends when every packet is delivered.
//   - trace_options: flit_bytes (1..72; a packet's flits are its bytes, 8 or
//     72, divided by it and rounded up; 16 gives 1 and 5), dependency_delay
//     (cycles from a dependency's delivery to the packet's readiness, 0..2^20;
//     Netrace's example simulator uses 8), dependencies (false: every packet
//     at its cycle, open loop), node_map (trace node -> network node; empty:
//     the identity, which needs as many network nodes as trace nodes),
//     classes (responses in traffic class 1, requests in 0; the network
//     needs both classes' VCs). config_error names the option otherwise.
//   - Packets are released in order of readiness, ties in trace order, into
//   their nodes' source queues; a packet's tag is its slot among the packets
//   read and not yet delivered.
//   - A dependency on a packet already read (ids increase through every
//     published trace, so this means a trace that breaks that order) cannot
//     hold it back: it is ignored and counted (late_dependencies()).
//   - completion(): the cycle of the last delivery; trace_cycles(): the last
//     packet's trace cycle (what the traced system took); held(): packets a
//     dependency made wait past their cycle, and held_cycles() their total.
//   Complexity: O(dependencies) per packet, memory for the packets read and
//   not yet delivered.
//
// Example
//   // a 4x4x4 torus of 64 nodes under dimension order, a 64-node trace:
//   // interlock::netrace::reader<interlock::netrace::trace_source> r(...);
//   // interlock::model::trace_replay<interlock::netrace::trace_source> replay(r, 64, {});
//   // network<...> net(scheme, cfg, no_destination, make_policy);
//   // net.drive(replay);
//   // const results res = net.run();   // replay.completion(), res.latency_mean ...
#ifndef INTERLOCK_MODEL_TRACE_REPLAY_HPP
#define INTERLOCK_MODEL_TRACE_REPLAY_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "interlock/core/config_error.hpp"
#include "interlock/model/sources.hpp"
#include "interlock/topology/torus.hpp"
#include "interlock/traffic/netrace.hpp"

namespace interlock {
namespace model {

struct trace_options {
  unsigned flit_bytes = 16;
  std::uint64_t dependency_delay = 0;
  bool dependencies = true;
  std::vector<node_id> node_map;
  bool classes = false;
};

template <class Source>
class trace_replay : public external_traffic {
 public:
  /// Replays `reader` (which must outlive the replay) on a network of
  /// `nodes` nodes; throws config_error for options that do not fit.
  trace_replay(netrace::reader<Source>& reader, node_id nodes, trace_options options)
      : reader_(reader), o_(std::move(options)) {
    interlock::detail::require_in_range("trace replay", "flit bytes", o_.flit_bytes, 1, 72);
    interlock::detail::require_in_range("trace replay", "dependency delay", o_.dependency_delay, 0,
                                        1u << 20);
    const unsigned trace_nodes = reader.info().nodes;
    if (o_.node_map.empty()) {
      if (trace_nodes != nodes)
        throw config_error("trace replay", "nodes",
                           "a trace of " + std::to_string(trace_nodes) + " nodes on a network of " +
                               std::to_string(nodes),
                           "as many network nodes as trace nodes, or a node map");
      for (node_id n = 0; n < nodes; ++n) o_.node_map.push_back(n);
    }
    if (o_.node_map.size() != trace_nodes)
      throw config_error("trace replay", "node map",
                         std::to_string(o_.node_map.size()) + " entries",
                         std::to_string(trace_nodes) + " (one per trace node)");
    for (std::size_t i = 0; i < o_.node_map.size(); ++i)
      if (o_.node_map[i] >= nodes)
        throw config_error("trace replay", "node map[" + std::to_string(i) + "]",
                           std::to_string(o_.node_map[i]),
                           "0.." + std::to_string(nodes - 1) + " (the network's nodes)");
    start_ = reader.region_start();
    read_next();
  }

  void release(std::uint64_t t,
               const std::function<void(node_id, const offered_packet&)>& offer) override {
    while (has_next_ && next_.cycle - start_ <= t) {
      admit();
      read_next();
    }
    while (!ready_.empty() && ready_.top().at <= t) {
      const std::uint32_t slot = ready_.top().slot;
      ready_.pop();
      const record& r = live_[slot];
      offer(o_.node_map[r.source],
            offered_packet{o_.node_map[r.destination], r.flits, r.cls, slot});
      ++released_;
    }
  }

  void delivered(std::uint64_t tag, std::uint64_t t) override {
    const auto slot = static_cast<std::uint32_t>(tag);
    record& r = live_[slot];
    completion_ = std::max(completion_, t);
    ++delivered_;
    if (o_.dependencies) {
      for (const std::uint32_t d : r.dependencies) {
        const auto it = waits_.find(d);
        if (it == waits_.end()) continue;  // (counted late when it was read)
        wait& w = it->second;
        --w.count;
        w.cleared = std::max(w.cleared, t + o_.dependency_delay);
        if (w.count == 0 && w.slot != no_slot) {  // (read, so its cycle has come)
          schedule(w.slot, w.cleared);
          waits_.erase(it);
        }
      }
    }
    r.dependencies.clear();
    free_.push_back(slot);
  }

  std::uint64_t next_ready() const override {
    std::uint64_t t = sources::never;
    if (!ready_.empty()) t = ready_.top().at;
    if (has_next_) t = std::min(t, next_.cycle - start_);
    return t;
  }

  bool done() const override { return !has_next_ && released_ == read_; }

  std::uint64_t packets() const noexcept { return read_; }
  std::uint64_t released() const noexcept { return released_; }
  std::uint64_t delivered_packets() const noexcept { return delivered_; }
  std::uint64_t completion() const noexcept { return completion_; }
  std::uint64_t trace_cycles() const noexcept { return last_cycle_; }
  std::uint64_t held() const noexcept { return held_; }
  std::uint64_t held_cycles() const noexcept { return held_cycles_; }
  std::uint64_t late_dependencies() const noexcept { return late_; }
  const trace_options& options() const noexcept { return o_; }
  /// The place in the trace of the packet tagged `tag` (while in flight).
  std::uint64_t trace_index(std::uint64_t tag) const { return live_.at(tag).order; }

 private:
  static constexpr std::uint32_t no_slot = ~std::uint32_t{0};
  struct record {
    std::uint64_t cycle = 0;  // from the start of the replay
    std::uint64_t order = 0;  // its place in the trace
    std::uint8_t source = 0, destination = 0, cls = 0;
    std::uint16_t flits = 1;
    std::vector<std::uint32_t> dependencies;
  };
  struct wait {
    std::uint32_t count = 0;       // packets in flight it still waits for
    std::uint64_t cleared = 0;     // when the last of them cleared (with the delay)
    std::uint32_t slot = no_slot;  // its record once read
  };

  // (next_.dependencies stay valid until the next read: admit() reads them first)
  void read_next() { has_next_ = reader_.next(next_); }

  // The packet read ahead enters: its record, its waits, its readiness.
  void admit() {
    std::uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<std::uint32_t>(live_.size());
      live_.emplace_back();
    }
    record& r = live_[slot];
    r.cycle = next_.cycle - start_;
    r.source = next_.source;
    r.destination = next_.destination;
    r.cls = o_.classes && netrace::is_response(next_.type) ? 1 : 0;
    r.flits = static_cast<std::uint16_t>((next_.bytes() + o_.flit_bytes - 1) / o_.flit_bytes);
    r.dependencies.clear();
    r.order = read_++;
    last_cycle_ = r.cycle;
    if (o_.dependencies) {
      for (const std::uint32_t d : next_.dependencies) {
        if (read_any_ && d <= max_id_) {
          ++late_;
          continue;
        }
        ++waits_[d].count;
        r.dependencies.push_back(d);
      }
    }
    max_id_ = read_any_ ? std::max(max_id_, next_.id) : next_.id;
    read_any_ = true;
    const auto it = o_.dependencies ? waits_.find(next_.id) : waits_.end();
    if (it == waits_.end()) {
      schedule(slot, r.cycle);
    } else if (it->second.count == 0) {
      schedule(slot, std::max(r.cycle, it->second.cleared));
      waits_.erase(it);
    } else {
      it->second.slot = slot;
    }
  }

  void schedule(std::uint32_t slot, std::uint64_t at) {
    const std::uint64_t cycle = live_[slot].cycle;
    if (at > cycle) {
      ++held_;
      held_cycles_ += at - cycle;
    }
    ready_.push(ready_entry{at, live_[slot].order, slot});
  }

  netrace::reader<Source>& reader_;
  trace_options o_;
  std::uint64_t start_ = 0;
  netrace::packet next_;
  bool has_next_ = false;
  std::vector<record> live_;
  std::vector<std::uint32_t> free_;
  std::unordered_map<std::uint32_t, wait> waits_;
  // Packets ready to release: earliest first, ties in trace order.
  struct ready_entry {
    std::uint64_t at, order;
    std::uint32_t slot;
    bool operator>(const ready_entry& o) const noexcept {
      return at != o.at ? at > o.at : order > o.order;
    }
  };
  std::priority_queue<ready_entry, std::vector<ready_entry>, std::greater<>> ready_;
  std::uint64_t read_ = 0, released_ = 0, delivered_ = 0;
  std::uint64_t completion_ = 0, last_cycle_ = 0, held_ = 0, held_cycles_ = 0, late_ = 0;
  std::uint32_t max_id_ = 0;
  bool read_any_ = false;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_TRACE_REPLAY_HPP
