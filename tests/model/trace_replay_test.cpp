// SPDX-License-Identifier: BSL-1.0
// Tests of interlock/model/trace_replay.hpp: Netrace traces the tests write,
// replayed closed-loop through the network model.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <interlock/arbiters/round_robin.hpp>
#include <interlock/model/network.hpp>
#include <interlock/model/trace_replay.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/traffic/netrace.hpp>
#include <interlock/traffic/netrace_writer.hpp>

#include "support/interlock_test.hpp"

namespace nt = interlock::netrace;
using interlock::node_id;
using rr_arb = interlock::round_robin_arbiter<64>;
using replay_type = interlock::model::trace_replay<nt::memory_source>;
using net_type = interlock::model::network<interlock::dimension_order_routing, rr_arb>;

namespace {

interlock::model::config trace_config() {
  interlock::model::config c;
  c.load = 0;
  c.measure = 1000000;  // the cycle limit of a trace run
  c.drain = 0;
  c.channel_latency = 2;
  return c;
}

interlock::model::traffic_source no_destination() {
  return [](node_id, interlock::splitmix64&) { return interlock::no_node; };
}

// The replay, and when each trace packet was released and delivered.
class observed : public interlock::model::external_traffic {
 public:
  explicit observed(replay_type& r) : r_(r) {}
  void release(
      std::uint64_t t,
      const std::function<void(node_id, const interlock::model::offered_packet&)>& offer) override {
    r_.release(t, [&](node_id n, const interlock::model::offered_packet& p) {
      const std::uint64_t k = r_.trace_index(p.tag);
      released[k] = t;
      source[k] = n;
      tag_index[p.tag] = k;
      flits += p.flits;
      offer(n, p);
    });
  }
  void delivered(std::uint64_t tag, std::uint64_t t) override {
    delivered_at[tag_index.at(tag)] = t;
    r_.delivered(tag, t);
  }
  std::uint64_t next_ready() const override { return r_.next_ready(); }
  bool done() const override { return r_.done(); }

  std::map<std::uint64_t, std::uint64_t> released, delivered_at, tag_index;
  std::map<std::uint64_t, node_id> source;
  std::uint64_t flits = 0;

 private:
  replay_type& r_;
};

// A random trace of `count` packets on 16 nodes: cycles rising, each packet
// depending downward on up to three of the next twenty.
std::vector<nt::written_packet> random_trace(std::uint64_t seed, std::uint32_t count) {
  interlock_test::splitmix rng(seed);
  const std::uint8_t types[] = {1, 2, 5, 6, 13, 14, 27, 28};
  std::vector<nt::written_packet> v;
  std::uint64_t cycle = 0;
  for (std::uint32_t id = 0; id < count; ++id) {
    cycle += rng.below(4);
    nt::written_packet p;
    p.cycle = cycle;
    p.id = id;
    p.type = types[rng.below(8)];
    p.source = static_cast<std::uint8_t>(rng.below(16));
    p.destination = static_cast<std::uint8_t>(rng.below(16));
    for (std::uint64_t k = rng.below(4); k > 0; --k) {
      const std::uint32_t d = id + 1 + static_cast<std::uint32_t>(rng.below(20));
      if (d < count &&
          std::find(p.dependencies.begin(), p.dependencies.end(), d) == p.dependencies.end())
        p.dependencies.push_back(d);
    }
    v.push_back(p);
  }
  return v;
}

std::vector<std::uint8_t> bytes_of(const std::vector<nt::written_packet>& packets) {
  nt::written_header h;
  h.benchmark = "random";
  h.nodes = 16;
  h.cycles = packets.empty() ? 0 : packets.back().cycle;
  return nt::write_trace(h, packets);
}

struct run_result {
  interlock::model::results results;
  std::map<std::uint64_t, std::uint64_t> released, delivered;
  std::map<std::uint64_t, node_id> source;
  std::uint64_t completion = 0, held = 0, late = 0, flits = 0;
};

run_result replay(const std::vector<std::uint8_t>& bytes, interlock::model::trace_options o,
                  interlock::model::config c = trace_config(),
                  const std::function<void(net_type&)>& setup = {}) {
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  nt::reader<nt::memory_source> reader(nt::memory_source(bytes), "test.tra");
  replay_type r(reader, 16, std::move(o));
  observed watch(r);
  net_type net(dor, c, no_destination(), [](node_id, std::size_t) { return rr_arb{}; });
  if (setup) setup(net);
  net.drive(watch);
  run_result out;
  out.results = net.run();
  INFO(net.check_invariants());
  CHECK(net.check_invariants().empty());
  CHECK(r.done());
  CHECK(r.delivered_packets() == r.packets());
  out.released = watch.released;
  out.delivered = watch.delivered_at;
  out.source = watch.source;
  out.completion = r.completion();
  out.held = r.held();
  out.late = r.late_dependencies();
  out.flits = watch.flits;
  return out;
}

}  // namespace

TEST_CASE("trace replay: a packet enters at its cycle or once its dependencies are delivered",
          "[model][trace]") {
  rc::prop("release = max(cycle, last dependency's delivery + delay), exactly",
           [](std::uint64_t seed, bool delayed) {
             const std::vector<nt::written_packet> trace = random_trace(seed, 300);
             interlock::model::trace_options o;
             o.dependency_delay = delayed ? 8 : 0;
             const run_result run = replay(bytes_of(trace), o);
             RC_ASSERT(run.released.size() == trace.size());
             RC_ASSERT(run.delivered.size() == trace.size());
             std::vector<std::uint64_t> ready(trace.size());
             for (std::size_t k = 0; k < trace.size(); ++k) ready[k] = trace[k].cycle;
             for (std::size_t k = 0; k < trace.size(); ++k)
               for (const std::uint32_t d : trace[k].dependencies)
                 ready[d] = std::max(ready[d], run.delivered.at(k) + o.dependency_delay);
             std::uint64_t last = 0, held = 0;
             for (std::size_t k = 0; k < trace.size(); ++k) {
               RC_ASSERT(run.released.at(k) == ready[k]);
               RC_ASSERT(run.delivered.at(k) > run.released.at(k));
               RC_ASSERT(run.source.at(k) == trace[k].source);
               last = std::max(last, run.delivered.at(k));
               held += ready[k] > trace[k].cycle ? 1u : 0u;
             }
             RC_ASSERT(run.completion == last);
             RC_ASSERT(run.held == held);
             RC_ASSERT(run.results.measured_delivered == trace.size());
           });
}

TEST_CASE("trace replay: without dependencies every packet enters at its cycle", "[model][trace]") {
  const std::vector<nt::written_packet> trace = random_trace(7, 300);
  interlock::model::trace_options o;
  o.dependencies = false;
  const run_result run = replay(bytes_of(trace), o);
  for (std::size_t k = 0; k < trace.size(); ++k) CHECK(run.released.at(k) == trace[k].cycle);
  CHECK(run.held == 0);
  const run_result closed = replay(bytes_of(trace), {});
  CHECK(closed.held > 0);
  CHECK(closed.completion > run.completion);
}

TEST_CASE("trace replay: a chain of dependencies throttles itself to the network's speed",
          "[model][trace]") {
  // Twenty packets at cycle 0 between opposite corners, each waiting for the last.
  std::vector<nt::written_packet> chain;
  for (std::uint32_t id = 0; id < 20; ++id) {
    nt::written_packet p;
    p.id = id;
    p.type = id % 2 == 0 ? 1 : 2;
    p.source = id % 2 == 0 ? 0 : 10;
    p.destination = id % 2 == 0 ? 10 : 0;
    if (id + 1 < 20) p.dependencies = {id + 1};
    chain.push_back(p);
  }
  const run_result fast = replay(bytes_of(chain), {});
  interlock::model::config slow_config = trace_config();
  slow_config.channel_latency = 6;
  const run_result slow = replay(bytes_of(chain), {}, slow_config);
  for (std::uint64_t k = 1; k < 20; ++k) CHECK(fast.released.at(k) == fast.delivered.at(k - 1));
  CHECK(fast.held == 19);
  // Four hops each way; four more cycles per hop, twenty packets.
  CHECK(slow.completion >= fast.completion + 20 * 4 * 4);
  // Open loop, all twenty would be in flight at once.
  interlock::model::trace_options open;
  open.dependencies = false;
  CHECK(replay(bytes_of(chain), open).completion < fast.completion / 4);
}

TEST_CASE("trace replay: sizes, classes and node maps", "[model][trace]") {
  const std::vector<nt::written_packet> trace = random_trace(11, 200);
  SECTION("16-byte flits: 8 bytes are one flit, 72 bytes five; 8-byte flits: one and nine") {
    std::uint64_t flits16 = 0, flits8 = 0;
    for (const auto& p : trace) {
      flits16 += nt::bytes_of(p.type) == 8 ? 1u : 5u;
      flits8 += nt::bytes_of(p.type) == 8 ? 1u : 9u;
    }
    const run_result a = replay(bytes_of(trace), {});
    interlock::model::trace_options o;
    o.flit_bytes = 8;
    const run_result b = replay(bytes_of(trace), o);
    CHECK(a.flits == flits16);
    CHECK(b.flits == flits8);
  }
  SECTION("responses travel in class 1 when asked") {
    interlock::model::config c = trace_config();
    c.response_share = 0.5;  // both classes' VCs
    interlock::model::trace_options o;
    o.classes = true;
    std::map<unsigned, std::uint64_t> by_class;
    replay(bytes_of(trace), o, c, [&](net_type& net) {
      net.on_delivery = [&](node_id, node_id, unsigned cls, std::uint64_t, std::uint64_t) {
        ++by_class[cls];
      };
    });
    std::uint64_t responses = 0;
    for (const auto& p : trace) responses += nt::is_response(p.type) ? 1u : 0u;
    CHECK(by_class[1] == responses);
    CHECK(by_class[0] == trace.size() - responses);
  }
  SECTION("a node map sends trace node i from network node 15 - i") {
    interlock::model::trace_options o;
    for (node_id n = 0; n < 16; ++n) o.node_map.push_back(15 - n);
    std::multiset<std::pair<node_id, node_id>> seen, expected;
    replay(bytes_of(trace), o, trace_config(), [&](net_type& net) {
      net.on_delivery = [&](node_id s, node_id d, unsigned, std::uint64_t, std::uint64_t) {
        seen.insert({s, d});
      };
    });
    for (const auto& p : trace)
      expected.insert(
          {static_cast<node_id>(15 - p.source), static_cast<node_id>(15 - p.destination)});
    CHECK(seen == expected);
  }
}

TEST_CASE("trace replay: a dependency on a packet already read is counted, not waited for",
          "[model][trace]") {
  std::vector<nt::written_packet> trace = random_trace(3, 50);
  for (auto& p : trace) p.dependencies.clear();
  trace[10].dependencies = {4};  // upward, against every published trace's order
  const run_result run = replay(bytes_of(trace), {});
  CHECK(run.late == 1);
  CHECK(run.released.at(4) == trace[4].cycle);
}

TEST_CASE("trace replay: options that do not fit the trace or the network are refused",
          "[model][trace]") {
  const std::vector<std::uint8_t> bytes = bytes_of(random_trace(5, 10));
  const auto build = [&](interlock::model::trace_options o, node_id nodes = 16) {
    nt::reader<nt::memory_source> reader(nt::memory_source(bytes), "test.tra");
    try {
      replay_type r(reader, nodes, std::move(o));
    } catch (const interlock::config_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  interlock::model::trace_options o;
  CHECK(build(o) == "accepted");
  o.flit_bytes = 0;
  CHECK(build(o) == "trace replay: flit bytes = 0; allowed: 1..72");
  o.flit_bytes = 73;
  CHECK(build(o) == "trace replay: flit bytes = 73; allowed: 1..72");
  o = {};
  o.dependency_delay = (1u << 20) + 1;
  CHECK(build(o) == "trace replay: dependency delay = 1048577; allowed: 0..1048576");
  CHECK(build({}, 64) ==
        "trace replay: nodes = a trace of 16 nodes on a network of 64; allowed: as many network "
        "nodes as trace nodes, or a node map");
  o = {};
  o.node_map.assign(15, 0);
  CHECK(build(o) == "trace replay: node map = 15 entries; allowed: 16 (one per trace node)");
  o.node_map.assign(16, 0);
  o.node_map[3] = 16;
  CHECK(build(o) == "trace replay: node map[3] = 16; allowed: 0..15 (the network's nodes)");
}

TEST_CASE("trace replay: packets ready in the same cycle leave in trace order", "[model][trace]") {
  // Three packets of node 0 to node 5, all at cycle 5, the last two also
  // released by the first's delivery: each leaves after the one before it.
  std::vector<nt::written_packet> trace;
  for (std::uint32_t id = 0; id < 3; ++id) trace.push_back({5, id, 0, 2, 0, 5, 0x20, {}});
  const run_result run = replay(bytes_of(trace), {});
  CHECK(run.delivered.at(0) < run.delivered.at(1));
  CHECK(run.delivered.at(1) < run.delivered.at(2));
}

TEST_CASE("trace replay: the sources are the nodes that sent, and a trace offers no load",
          "[model][trace]") {
  // Nodes 3 and 9 send, to 12 and 0; the other 14 send nothing.
  std::vector<nt::written_packet> v;
  for (std::uint32_t id = 0; id < 6; ++id) {
    nt::written_packet p;
    p.cycle = id * 3;
    p.id = id;
    p.type = 1;
    p.source = id % 2 == 0 ? 3 : 9;
    p.destination = id % 2 == 0 ? 12 : 0;
    v.push_back(p);
  }
  const run_result out = replay(bytes_of(v), {});
  const interlock::model::results& r = out.results;
  CHECK(r.sources == std::vector<node_id>{3, 9});
  CHECK(r.accepted_per_source.size() == 2);
  CHECK(r.offered != r.offered);  // none
  CHECK(r.jain == Approx(1.0));   // both sent alike; no idle node counted
  CHECK(r.max_min_ratio == Approx(1.0));
  // The row's offered cell is empty.
  CHECK(interlock::model::csv_row(r).rfind(",", 0) == 0);
}

TEST_CASE("trace replay: cut off, completion is over the sources that delivered",
          "[model][trace]") {
  // Node 3 sends early, node 9 only at cycle 500: cut off at 100 cycles,
  // node 9 has sent nothing, node 3 has delivered.
  std::vector<nt::written_packet> v;
  for (std::uint32_t id = 0; id < 4; ++id) {
    nt::written_packet p;
    p.cycle = id < 3 ? id : 500;
    p.id = id;
    p.type = 1;
    p.source = id < 3 ? 3 : 9;
    p.destination = 12;
    v.push_back(p);
  }
  const std::vector<std::uint8_t> bytes = bytes_of(v);
  const interlock::torus_topology t({4, 4}, {true, true});
  const interlock::dimension_order_routing dor(t);
  nt::reader<nt::memory_source> reader(nt::memory_source(bytes), "test.tra");
  replay_type r(reader, 16, {});
  interlock::model::config c = trace_config();
  c.measure = 100;
  net_type net(dor, c, no_destination(), [](node_id, std::size_t) { return rr_arb{}; });
  net.drive(r);
  const interlock::model::results res = net.run();
  CHECK_FALSE(r.done());
  CHECK(res.sources == std::vector<node_id>{3});
  CHECK(res.completion_min > 0);
  CHECK(res.completion_min == res.completion_max);
}
