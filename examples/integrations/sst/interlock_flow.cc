// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_flow.cc: an endpoint that sends to one destination as fast as
// the network takes packets and, at the destination, counts what each source delivers
// ("interlock.flow_endpoint"): the parking lot's measurement ([Abts07] Section 2).
//
// Every endpoint but the destination keeps its network interface's output
// buffer full of packets for `destination` (a new one whenever there is
// room). The destination receives everything; a packet delivered inside the
// window [warmup, warmup + measure) counts for its source: the statistic
// `packets` (subId: the source's id) and `latency` (the time from the
// source's send, in ns; subId likewise). At the end the destination prints
// each source's packets, share of all delivered in the window, and mean
// latency, one line per source, for a script to read.
//
// Latency runs from the send call, so it includes the time a packet waits in
// the source's network interface (a one-packet output buffer keeps that
// short); it is not the network latency of the reference model.
//
// Contract
//   - Parameters: id (0..num_peers-1), num_peers, destination
//     (0..num_peers-1), packet_size, warmup, measure; a bad value stops the
//     simulation naming it. The destination ends the simulation when its
//     window closes (it is the only primary component; senders never
//     finish).
//   - The packet's payload carries its send time, serialized across ranks.
#include <sst/core/sst_config.h>

#include <sst/core/component.h>
#include <sst/core/event.h>
#include <sst/core/interfaces/simpleNetwork.h>
#include <sst/core/output.h>
#include <sst/core/params.h>
#include <sst/core/unitAlgebra.h>

#include "interlock_payload.h"

#include <cinttypes>
#include <cstdint>
#include <string>
#include <vector>

namespace interlock_sst {

using SST::ComponentId_t;
using SST::Params;
using SST::SimTime_t;
using SST::UnitAlgebra;
using SST::Interfaces::SimpleNetwork;

class flow_endpoint : public SST::Component {
 public:
  SST_ELI_REGISTER_COMPONENT(flow_endpoint, "interlock", "flow_endpoint",
                             SST_ELI_ELEMENT_VERSION(0, 1, 0),
                             "Sends to one destination as fast as the network takes packets; the "
                             "destination counts each source's packets in a window (the parking "
                             "lot's measurement)",
                             COMPONENT_CATEGORY_NETWORK)
  SST_ELI_DOCUMENT_PARAMS({"id", "This endpoint's id, 0..num_peers-1", ""},
                          {"num_peers", "Endpoints in the network", ""},
                          {"destination", "The endpoint every other endpoint sends to", "0"},
                          {"packet_size", "Packet size, in B or b", "64B"},
                          {"warmup", "When the destination's window opens", "5us"},
                          {"measure", "How long the window stays open", "20us"})
  SST_ELI_DOCUMENT_STATISTICS(
      {"packets", "Packets delivered in the window, per source (subId: the source's id)", "packets",
       1},
      {"latency", "Time from send to delivery of the window's packets, per source (subId)", "ns",
       1})
  SST_ELI_DOCUMENT_SUBCOMPONENT_SLOTS({"networkIF", "Network interface",
                                       "SST::Interfaces::SimpleNetwork"})

  flow_endpoint(ComponentId_t cid, Params& params) : SST::Component(cid) {
    SST::Output& out = getSimulationOutput();
    peers_ = params.find<int>("num_peers", -1);
    id_ = params.find<int>("id", -1);
    destination_ = params.find<int>("destination", 0);
    if (peers_ < 2)
      out.fatal(CALL_INFO, -1, "interlock.flow_endpoint: num_peers is %d, allowed 2 or more\n",
                peers_);
    if (id_ < 0 || id_ >= peers_)
      out.fatal(CALL_INFO, -1, "interlock.flow_endpoint: id is %d, allowed 0..%d\n", id_,
                peers_ - 1);
    if (destination_ < 0 || destination_ >= peers_)
      out.fatal(CALL_INFO, -1, "interlock.flow_endpoint: destination is %d, allowed 0..%d\n",
                destination_, peers_ - 1);
    UnitAlgebra size = params.find<UnitAlgebra>("packet_size", UnitAlgebra("64B"));
    if (size.hasUnits("B")) size *= UnitAlgebra("8b/B");
    if (!size.hasUnits("b") || size.getRoundedValue() <= 0)
      out.fatal(CALL_INFO, -1,
                "interlock.flow_endpoint: packet_size is %s, allowed a size in B or b\n",
                size.toString().c_str());
    bits_ = size.getRoundedValue();
    warmup_ns_ = nanoseconds(params, "warmup", "5us");
    measure_ns_ = nanoseconds(params, "measure", "20us");
    link_ = loadUserSubComponent<SimpleNetwork>("networkIF", SST::ComponentInfo::SHARE_NONE, 1);
    if (!link_) out.fatal(CALL_INFO, -1, "interlock.flow_endpoint: no networkIF subcomponent\n");
    if (id_ == destination_) {
      for (int s = 0; s < peers_; ++s) {
        if (s == id_) {
          packets_.push_back(nullptr);
          latency_.push_back(nullptr);
          continue;
        }
        packets_.push_back(registerStatistic<std::uint64_t>("packets", std::to_string(s)));
        latency_.push_back(registerStatistic<std::uint64_t>("latency", std::to_string(s)));
      }
      count_.assign(static_cast<std::size_t>(peers_), 0);
      latency_sum_.assign(static_cast<std::size_t>(peers_), 0);
      // The simulation ends when the window closes (senders never finish).
      registerAsPrimaryComponent();
      primaryComponentDoNotEndSim();
      window_end_ = configureSelfLink(
          "window_end", "1ns", new SST::Event::Handler<flow_endpoint, &flow_endpoint::close>(this));
    }
  }
  flow_endpoint() = default;

  void init(unsigned int phase) override { link_->init(phase); }

  void setup() override {
    link_->setup();
    if (id_ == destination_) {
      window_end_->send(warmup_ns_ + measure_ns_, nullptr);
      link_->setNotifyOnReceive(
          new SimpleNetwork::Handler<flow_endpoint, &flow_endpoint::receive>(this));
    } else {
      link_->setNotifyOnSend(new SimpleNetwork::Handler<flow_endpoint, &flow_endpoint::send>(this));
      send(0);
    }
  }

  void finish() override {
    link_->finish();
    if (id_ != destination_) return;
    std::uint64_t total = 0;
    for (std::uint64_t c : count_) total += c;
    SST::Output& out = getSimulationOutput();
    for (int s = 0; s < peers_; ++s) {
      if (s == id_) continue;
      const std::size_t i = static_cast<std::size_t>(s);
      out.output(
          "flow_endpoint %d: source %d packets %" PRIu64 " share %.4f latency_ns %.1f\n", id_, s,
          count_[i], total ? static_cast<double>(count_[i]) / static_cast<double>(total) : 0.0,
          count_[i] ? static_cast<double>(latency_sum_[i]) / static_cast<double>(count_[i]) : 0.0);
    }
  }

 private:
  SimTime_t nanoseconds(Params& params, const char* name, const char* fallback) {
    UnitAlgebra t = params.find<UnitAlgebra>(name, UnitAlgebra(fallback));
    if (!t.hasUnits("s"))
      getSimulationOutput().fatal(CALL_INFO, -1,
                                  "interlock.flow_endpoint: %s is %s, allowed a time (as 5us)\n",
                                  name, t.toString().c_str());
    return static_cast<SimTime_t>((t / UnitAlgebra("1ns")).getRoundedValue());
  }

  // Fill the output buffer; called again whenever there is room.
  bool send(int) {
    while (link_->spaceToSend(0, bits_)) {
      auto* request = new SimpleNetwork::Request();
      request->dest = destination_;
      request->src = id_;
      request->vn = 0;
      request->size_in_bits = bits_;
      request->givePayload(new timed_payload(getCurrentSimTimeNano()));
      link_->send(request, 0);
    }
    return true;
  }

  void close(SST::Event* ev) {
    delete ev;
    primaryComponentOKToEndSim();
  }

  bool receive(int) {
    const SimTime_t now = getCurrentSimTimeNano();
    const bool in_window = now >= warmup_ns_ && now < warmup_ns_ + measure_ns_;
    while (SimpleNetwork::Request* request = link_->recv(0)) {
      auto* payload = dynamic_cast<timed_payload*>(request->takePayload());
      const int s = static_cast<int>(request->src);
      if (in_window && payload && s >= 0 && s < peers_ && s != id_) {
        const std::size_t i = static_cast<std::size_t>(s);
        ++count_[i];
        latency_sum_[i] += now - payload->made;
        packets_[i]->addData(1);
        latency_[i]->addData(now - payload->made);
      }
      delete payload;
      delete request;
    }
    return true;
  }

  int peers_ = 0, id_ = -1, destination_ = 0;
  std::int64_t bits_ = 512;
  SimTime_t warmup_ns_ = 0, measure_ns_ = 0;
  SimpleNetwork* link_ = nullptr;
  SST::Link* window_end_ = nullptr;
  std::vector<SST::Statistics::Statistic<std::uint64_t>*> packets_, latency_;
  std::vector<std::uint64_t> count_, latency_sum_;

 public:
  ImplementSerializable(interlock_sst::flow_endpoint)
};

}  // namespace interlock_sst
