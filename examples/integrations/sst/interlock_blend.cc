// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_blend.cc: an endpoint that offers a blend of labelled
// traffic patterns, pattern n on VN n ("interlock.blend_endpoint"): the traffic of Anton 2's
// labelled patterns ([Towles14] Section 4.2, Figure 10) for interlock.torus with two
// iw_pattern patterns.
//
// Every packet time (packet_size at link_bw) the endpoint makes a packet
// with probability `load` (Bernoulli injection, as the reference model's
// sources), draws its pattern by share, and its destination from that
// pattern (interlock_patterns.h, on the torus `shape`); the packet travels
// on VN n, n its pattern's index, which interlock.torus takes as its label.
// Packets wait in one source queue, in the order made, and enter the
// network as its interface takes them. A pattern that gives this endpoint
// nothing to send (all_to_one's destination, transpose's diagonal) makes no
// packet.
//
// Statistics, per pattern (subId: its index n), counting the window
// [warmup, warmup + measure):
//   offered    packets this endpoint made
//   sent       packets that left its source queue into the network (a
//              source's accepted throughput)
//   delivered  packets delivered here
//   latency    time from making to delivery of those, in ns (source
//              queueing included)
// Every endpoint ends the simulation's part of it when its window closes.
//
// Contract
//   - Parameters: id (0..num_peers-1), num_peers, shape (as 4x4x4, its
//     nodes num_peers), patterns (one pattern, or two as
//     tornado:0.5,reverse_tornado:0.5: NAME or NAME:SHARE, shares >= 0 and
//     not all 0, taken relative to their sum), load (0 < load <= 1),
//     link_bw, packet_size, warmup, measure, seed. A bad value stops the
//     simulation naming the parameter, its value and what is allowed.
//   - The interface is loaded with one VN per pattern: the routers need as
//     many (num_vns).
//   - Results do not depend on ranks or threads: each endpoint draws from a
//     generator of its own (seed and id). Checkpointable: the generator,
//     the source queue and the counts are saved and restored.
#include <sst/core/sst_config.h>

#include <sst/core/component.h>
#include <sst/core/interfaces/simpleNetwork.h>
#include <sst/core/output.h>
#include <sst/core/params.h>
#include <sst/core/unitAlgebra.h>

#include "interlock_patterns.h"
#include "interlock_payload.h"

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <interlock/core/random.hpp>
#include <interlock/topology/torus.hpp>
#include <interlock/traffic/patterns.hpp>

namespace interlock_sst {

using SST::ComponentId_t;
using SST::Params;
using SST::SimTime_t;
using SST::UnitAlgebra;
using SST::Interfaces::SimpleNetwork;

using any_pattern =
    std::variant<interlock::traffic::uniform_random, interlock::traffic::tornado,
                 interlock::traffic::reverse_tornado, interlock::traffic::bit_complement,
                 interlock::traffic::transpose, interlock::traffic::all_to_one>;

class blend_endpoint : public SST::Component {
 public:
  SST_ELI_REGISTER_COMPONENT(blend_endpoint, "interlock", "blend_endpoint",
                             SST_ELI_ELEMENT_VERSION(0, 1, 0),
                             "Offers a blend of labelled traffic patterns at a load, pattern n on "
                             "VN n (Anton 2's labelled patterns); counts each pattern's packets "
                             "in a window",
                             COMPONENT_CATEGORY_NETWORK)
  SST_ELI_IS_CHECKPOINTABLE()
  SST_ELI_DOCUMENT_PARAMS(
      {"id", "This endpoint's id, 0..num_peers-1", ""},
      {"num_peers", "Endpoints in the network", ""},
      {"shape", "The torus the patterns are drawn on, as 4x4x4 (num_peers nodes)", ""},
      {"patterns",
       "One pattern, or two with shares as tornado:0.5,reverse_tornado:0.5 (pattern n on VN n): "
       "uniform, tornado, reverse_tornado, bit_complement, transpose or all_to_one:N",
       "uniform"},
      {"load", "Offered load: the probability of a packet every packet time, 0 < load <= 1", ""},
      {"link_bw", "The injection link's bandwidth, as 4GB/s", "4GB/s"},
      {"packet_size", "Packet size, in B or b", "64B"}, {"warmup", "When the window opens", "5us"},
      {"measure", "How long the window stays open", "20us"},
      {"seed", "Seed of the endpoints' generators (each draws from its own)", "1"})
  SST_ELI_DOCUMENT_STATISTICS(
      {"offered", "Packets made in the window, per pattern (subId: its index)", "packets", 1},
      {"sent", "Packets that entered the network in the window, per pattern", "packets", 1},
      {"delivered", "Packets delivered here in the window, per pattern", "packets", 1},
      {"latency", "Time from making to delivery of the window's packets, per pattern", "ns", 1})
  SST_ELI_DOCUMENT_SUBCOMPONENT_SLOTS({"networkIF", "Network interface",
                                       "SST::Interfaces::SimpleNetwork"})

  blend_endpoint(ComponentId_t cid, Params& params) : SST::Component(cid) {
    peers_ = params.find<int>("num_peers", -1);
    id_ = params.find<int>("id", -1);
    if (peers_ < 2) bad("num_peers", std::to_string(peers_), "2 or more");
    if (id_ < 0 || id_ >= peers_) bad("id", std::to_string(id_), range(peers_));
    shape_ = params.find<std::string>("shape", "");
    topology();
    parse_patterns(params.find<std::string>("patterns", "uniform"));
    const std::string load_text = params.find<std::string>("load", "");
    char* end = nullptr;
    load_ = std::strtod(load_text.c_str(), &end);
    if (load_text.empty() || *end != '\0' || !(load_ > 0 && load_ <= 1))
      bad("load", load_text, "a number, 0 < load <= 1");
    UnitAlgebra size = params.find<UnitAlgebra>("packet_size", UnitAlgebra("64B"));
    if (size.hasUnits("B")) size *= UnitAlgebra("8b/B");
    if (!size.hasUnits("b") || size.getRoundedValue() <= 0)
      bad("packet_size", size.toString(), "a size in B or b");
    bits_ = size.getRoundedValue();
    UnitAlgebra bw = params.find<UnitAlgebra>("link_bw", UnitAlgebra("4GB/s"));
    if (bw.hasUnits("B/s")) bw *= UnitAlgebra("8b/B");
    if (!bw.hasUnits("b/s") || bw.getRoundedValue() <= 0)
      bad("link_bw", bw.toString(), "a bandwidth in B/s or b/s");
    packet_ps_ = static_cast<SimTime_t>(((size / bw) / UnitAlgebra("1ps")).getRoundedValue());
    if (packet_ps_ == 0) bad("packet_size", size.toString(), "at least 1 ps at link_bw");
    warmup_ns_ = nanoseconds(params, "warmup", "5us");
    measure_ns_ = nanoseconds(params, "measure", "20us");
    const std::uint64_t seed = params.find<std::uint64_t>("seed", 1);
    rng_ = interlock::splitmix64(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(id_));

    const int vns = static_cast<int>(patterns_.size());
    link_ = loadUserSubComponent<SimpleNetwork>("networkIF", SST::ComponentInfo::SHARE_NONE, vns);
    if (!link_) bad("networkIF", "absent", "a SimpleNetwork subcomponent (merlin.linkcontrol)");
    for (int n = 0; n < vns; ++n) {
      const std::string sub = std::to_string(n);
      offered_.push_back(registerStatistic<std::uint64_t>("offered", sub));
      sent_.push_back(registerStatistic<std::uint64_t>("sent", sub));
      delivered_.push_back(registerStatistic<std::uint64_t>("delivered", sub));
      latency_.push_back(registerStatistic<std::uint64_t>("latency", sub));
    }
    registerAsPrimaryComponent();
    primaryComponentDoNotEndSim();
    tick_ = configureSelfLink("tick", "1ps",
                              new SST::Event::Handler<blend_endpoint, &blend_endpoint::tick>(this));
    window_end_ = configureSelfLink(
        "window_end", "1ns", new SST::Event::Handler<blend_endpoint, &blend_endpoint::close>(this));
  }
  blend_endpoint() = default;

  void init(unsigned int phase) override { link_->init(phase); }

  void setup() override {
    link_->setup();
    link_->setNotifyOnReceive(
        new SimpleNetwork::Handler<blend_endpoint, &blend_endpoint::receive>(this));
    link_->setNotifyOnSend(new SimpleNetwork::Handler<blend_endpoint, &blend_endpoint::room>(this));
    tick_->send(0, nullptr);
    window_end_->send(warmup_ns_ + measure_ns_, nullptr);
  }

  void finish() override { link_->finish(); }

  void serialize_order(SST::Core::Serialization::serializer& ser) override {
    SST::Component::serialize_order(ser);
    SST_SER(peers_);
    SST_SER(id_);
    SST_SER(shape_);
    SST_SER(pattern_text_);
    SST_SER(load_);
    SST_SER(bits_);
    SST_SER(packet_ps_);
    SST_SER(warmup_ns_);
    SST_SER(measure_ns_);
    std::uint64_t rng_state = rng_.state();
    SST_SER(rng_state);
    std::vector<std::int64_t> queue;  // (destination, VN, made) per waiting packet
    if (ser.mode() != SST::Core::Serialization::serializer::UNPACK)
      for (const waiting& w : queue_)
        queue.insert(queue.end(), {w.to, w.vn, static_cast<std::int64_t>(w.made)});
    SST_SER(queue);
    SST_SER(link_);
    SST_SER(tick_);
    SST_SER(window_end_);
    SST_SER(offered_);
    SST_SER(sent_);
    SST_SER(delivered_);
    SST_SER(latency_);
    if (ser.mode() == SST::Core::Serialization::serializer::UNPACK) {
      rng_ = interlock::splitmix64(rng_state);
      topology();
      parse_patterns(pattern_text_);
      queue_.clear();
      for (std::size_t i = 0; i + 2 < queue.size(); i += 3)
        queue_.push_back({static_cast<int>(queue[i]), static_cast<int>(queue[i + 1]),
                          static_cast<SimTime_t>(queue[i + 2])});
    }
  }

 private:
  struct waiting {
    int to = 0, vn = 0;
    SimTime_t made = 0;  // ns
  };

  [[noreturn]] void bad(const std::string& name, const std::string& value,
                        const std::string& allowed) {
    getSimulationOutput().fatal(CALL_INFO, -1,
                                "interlock.blend_endpoint: parameter %s is \"%s\", allowed %s\n",
                                name.c_str(), value.c_str(), allowed.c_str());
    std::abort();
  }
  static std::string range(int n) { return "0.." + std::to_string(n - 1); }

  // The torus of `shape`, num_peers nodes.
  void topology() {
    std::vector<std::size_t> radix;
    try {
      radix = shape_radix(shape_);
    } catch (const std::invalid_argument& e) {
      bad("shape", shape_, e.what());
    }
    std::size_t nodes = 1;
    for (const std::size_t k : radix) nodes *= k;
    if (nodes != static_cast<std::size_t>(peers_))
      bad("shape", shape_, "a torus of num_peers (" + std::to_string(peers_) + ") nodes");
    torus_ = std::make_unique<interlock::torus_topology>(radix);
  }

  // patterns: NAME or NAME:SHARE, one or two; each pattern's share of the packets.
  void parse_patterns(const std::string& text) {
    pattern_text_ = text;
    patterns_.clear();
    std::vector<double> shares;
    const std::vector<std::string> items = split_list(text, ',');
    if (items.size() > 2) bad("patterns", text, "one pattern or two (the arbiters label up to 2)");
    for (const std::string& item : items) {
      std::string name = item;
      double share = 1;
      const auto as_pattern = [&](const std::string& n) {
        return with_pattern(n, *torus_, [](const auto& p) { return any_pattern(p); });
      };
      try {
        patterns_.push_back(as_pattern(name));
      } catch (const std::invalid_argument& whole) {
        const std::string::size_type colon = item.rfind(':');
        if (colon == std::string::npos) bad("patterns", text, whole.what());
        name = item.substr(0, colon);
        const std::string number = item.substr(colon + 1);
        char* end = nullptr;
        share = std::strtod(number.c_str(), &end);
        if (number.empty() || *end != '\0' || !(share >= 0 && share <= 1e9))
          bad("patterns", text, "NAME or NAME:SHARE, each share a number >= 0");
        try {
          patterns_.push_back(as_pattern(name));
        } catch (const std::invalid_argument& e) {
          bad("patterns", text, e.what());
        }
      }
      shares.push_back(share);
    }
    const double total = shares.size() == 2 ? shares[0] + shares[1] : shares[0];
    if (!(total > 0)) bad("patterns", text, "shares not all 0");
    second_share_ = shares.size() == 2 ? shares[1] / total : 0;
  }

  SimTime_t nanoseconds(Params& params, const char* name, const char* fallback) {
    UnitAlgebra t = params.find<UnitAlgebra>(name, UnitAlgebra(fallback));
    if (!t.hasUnits("s")) bad(name, t.toString(), "a time, as 5us");
    return static_cast<SimTime_t>((t / UnitAlgebra("1ns")).getRoundedValue());
  }

  bool in_window(SimTime_t ns) const { return ns >= warmup_ns_ && ns < warmup_ns_ + measure_ns_; }

  // One packet time: perhaps a packet, then whatever the interface takes.
  void tick(SST::Event* ev) {
    delete ev;
    const SimTime_t now = getCurrentSimTimeNano();
    if (interlock::uniform_unit(rng_) < load_) {
      // (two patterns draw their choice whatever the shares: a share of 0 or
      // 1 leaves the sequence of draws as it is under any other)
      const int vn = patterns_.size() == 2 && interlock::uniform_unit(rng_) < second_share_ ? 1 : 0;
      const interlock::node_id to = std::visit(
          [&](const auto& p) {
            return p.destination(*torus_, static_cast<interlock::node_id>(id_), rng_);
          },
          patterns_[static_cast<std::size_t>(vn)]);
      if (to != interlock::no_node) {
        queue_.push_back({static_cast<int>(to), vn, now});
        if (in_window(now)) offered_[static_cast<std::size_t>(vn)]->addData(1);
      }
    }
    room(0);
    tick_->send(packet_ps_, nullptr);
  }

  // Sends from the source queue while the interface has room.
  bool room(int) {
    while (!queue_.empty() && link_->spaceToSend(queue_.front().vn, bits_)) {
      const waiting w = queue_.front();
      queue_.pop_front();
      auto* request = new SimpleNetwork::Request();
      request->dest = w.to;
      request->src = id_;
      request->vn = w.vn;
      request->size_in_bits = bits_;
      request->givePayload(new timed_payload(w.made));
      link_->send(request, w.vn);
      if (in_window(getCurrentSimTimeNano())) sent_[static_cast<std::size_t>(w.vn)]->addData(1);
    }
    return true;
  }

  void close(SST::Event* ev) {
    delete ev;
    primaryComponentOKToEndSim();
  }

  bool receive(int vn) {
    const SimTime_t now = getCurrentSimTimeNano();
    while (SimpleNetwork::Request* request = link_->recv(vn)) {
      auto* payload = dynamic_cast<timed_payload*>(request->takePayload());
      const std::size_t n = static_cast<std::size_t>(request->vn);
      if (in_window(now) && payload && n < delivered_.size()) {
        delivered_[n]->addData(1);
        latency_[n]->addData(now - payload->made);
      }
      delete payload;
      delete request;
    }
    return true;
  }

  int peers_ = 0, id_ = -1;
  std::string shape_, pattern_text_;
  double load_ = 0, second_share_ = 0;
  std::int64_t bits_ = 512;
  SimTime_t packet_ps_ = 0, warmup_ns_ = 0, measure_ns_ = 0;
  interlock::splitmix64 rng_{1};
  std::unique_ptr<interlock::torus_topology> torus_;
  std::vector<any_pattern> patterns_;
  std::deque<waiting> queue_;
  SimpleNetwork* link_ = nullptr;
  SST::Link* tick_ = nullptr;
  SST::Link* window_end_ = nullptr;
  std::vector<SST::Statistics::Statistic<std::uint64_t>*> offered_, sent_, delivered_, latency_;

 public:
  ImplementSerializable(interlock_sst::blend_endpoint)
};

}  // namespace interlock_sst
