// SPDX-License-Identifier: BSL-1.0
// interlock/model/config.hpp: what a run of the reference network model is given.
//
// Contract
//   interlock::model::config holds every number a run of
//   interlock::model::network needs besides its routing scheme, its arbiters
//   and its traffic pattern: the router's buffers, VCs and delays, the
//   packets' lengths and classes, the offered load or batch, and the phases
//   of the run (warm-up, measured window, drain). check() validates every
//   field once, where a network is built; a bad value throws
//   interlock::config_error whose field() is the member's name here
//   ("buffer_flits", "lengths", "measure", ...), so a driver can map it to
//   its own flag or file key.
//
// Example
//   interlock::model::config c;
//   c.load = 0.3;                 // flits per node per cycle
//   c.lengths = {{4, 1.0}};       // 4-flit packets
//   c.buffer_flits = 8;           // per input (port, VC)
//   c.check();                    // what network's constructor does
#ifndef INTERLOCK_MODEL_CONFIG_HPP
#define INTERLOCK_MODEL_CONFIG_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/core/config_error.hpp"

namespace interlock {
namespace model {

/// Whether the network asks the cache ahead for the routers' state a cycle
/// will touch (hints only: the results are the same either way). automatic
/// does so where the routers' input buffers take more than 1 MiB (a network
/// whose state outgrows the cache); always and never override that, to
/// measure what the hints save on a given machine. The hints for each
/// event's own packet, buffer and credits are given in every mode.
enum class prefetch_mode : unsigned char { automatic, always, never };

/// One packet length and its share of the packets.
struct length_share {
  unsigned flits = 1;
  double share = 1;
};

struct config {
  // Router.
  unsigned vcs = 0;            // physical VCs per channel; 0: exactly what the scheme needs
  unsigned buffer_flits = 16;  // per network input (port, VC)
  // Per VC of the local (injection) input port; 0: buffer_flits.
  unsigned injection_buffer_flits = 0;
  // Per VC of the network inputs of routers that host no endpoints (Anton
  // 2's channel adapters, both sides: from their router and from the torus
  // link); 0: buffer_flits. buffer_flits is then the mesh routers' ports.
  unsigned adapter_buffer_flits = 0;
  // Output staging buffers (the SeaStar's shape): per output port, a FIFO of
  // this many flits for each (input port, VC); 0: none, the output
  // arbitrates among the input ports' chosen heads.
  unsigned staging_flits = 0;
  unsigned channel_latency = 1;
  // Flits per cycle of each node's injection and ejection port (the
  // SeaStar's processor port is slower than a link): 0 < F <= 1.
  double endpoint_bandwidth = 1;
  // Endpoints per node (Anton 2 injects from many cores): each has its own
  // injection and ejection port at the node's router, local ports local_port()
  // .. local_port() + endpoints - 1. The node's source queue feeds whichever
  // endpoint's injection channel is free; a packet leaves through an
  // endpoint of its destination drawn uniformly.
  unsigned endpoints = 1;
  unsigned router_delay = 1;  // cycles from a head's arrival to its first allocation
  // Cycles every packet spends at the head of its input buffer before it may
  // compete for the switch (route computation and VC allocation as stages
  // that each new head passes, as BookSim2's input-queued router does): a
  // packet queued behind another competes head_cycles after the other's tail
  // has left. 0: none, only router_delay's latency.
  unsigned head_cycles = 0;
  // Switch allocation in 1 stage (both arbitrations in one cycle) or 2
  // ([Towles14] Figure 12's SA1, input arbitration, then SA2, output
  // arbitration, in the next cycle, with separable_input_first): an input
  // port's pick waits a cycle in a register for its output; a pick that
  // loses, or whose head can no longer go, is dropped and the input picks
  // again. With head_cycles = 2 (RC and VA) a head passes Figure 12's four
  // stages.
  unsigned switch_stages = 1;
  // How a VC's packets overlap in the router's pipeline ([Towles14] Section
  // 2.2 names the stages and leaves this open). false: a packet starts
  // head_cycles (RC and VA) only once the packet before it has left its
  // buffer, and with two switch stages its SA1 follows that one's SA2. true
  // (lookahead: the head pipeline's stages each hold one packet of the VC):
  // it passes head_cycles from its arrival, the packet before it a stage
  // ahead, and with two switch stages an input port does SA1 for the next
  // cycle's SA2, over the heads that could go then, as its crossbar input
  // frees: 1-flit packets through one VC leave one a cycle.
  bool pipelined_heads = false;
  // With separable input-first allocation: an input port whose offered head
  // lost at output arbitration offers the same head the next cycle, while it
  // can still go, instead of its input policy picking again (persistent SA1
  // requests); false: it picks again.
  bool persistent_picks = false;
  // Traffic.
  std::vector<length_share> lengths = std::vector<length_share>(1);  // lengths in flits (1)
  double load = 0.1;          // offered flits per node per cycle (Bernoulli)
  std::size_t batch = 0;      // > 0: every source sends this many packets, as fast as it can
  double response_share = 0;  // share of packets in the response class
  // Phases.
  std::uint64_t warmup = 1000;
  std::uint64_t measure = 10000;
  std::uint64_t drain = 50000;  // at most this many cycles waiting for measured packets
  std::uint64_t seed = 1;
  // > 0: the torus links' utilization over the run, in bins of this many
  // cycles (results::link_utilization; link_timeline.hpp).
  std::uint64_t utilization_bin = 0;
  // Count, over the measured window, the cycles each output arbiter
  // arbitrates and each input port requests it (results::request_share).
  bool count_requests = false;
  // Progress: a network holding packets in which nothing moves for this many
  // cycles is deadlocked (0: derived from the delays and packet lengths).
  std::uint64_t stall_limit = 0;
  // A router none of whose heads can move sleeps until a port it waits for
  // frees or a credit or packet reaches it; true evaluates every router
  // holding packets every cycle instead (the same run, slower: for tests).
  bool evaluate_every_cycle = false;
  prefetch_mode prefetch = prefetch_mode::automatic;
  // Threads stepping the routers and injecting at their endpoints, each a
  // block of them (lanes.hpp): the same run as one thread, bit for bit; the
  // destination function is then called on several threads at once. One
  // thread while a link timeline is kept (utilization_bin) or
  // network::on_send is set.
  std::size_t threads = 1;

  unsigned injection_flits() const {
    return injection_buffer_flits == 0 ? buffer_flits : injection_buffer_flits;
  }
  unsigned adapter_flits() const {
    return adapter_buffer_flits == 0 ? buffer_flits : adapter_buffer_flits;
  }
  unsigned max_flits() const {
    unsigned m = 0;
    for (const auto& l : lengths) m = l.flits > m ? l.flits : m;
    return m;
  }
  unsigned min_flits() const {
    unsigned m = lengths.empty() ? 1 : lengths[0].flits;
    for (const auto& l : lengths) m = l.flits < m ? l.flits : m;
    return m;
  }
  double mean_flits() const {
    double total = 0, weighted = 0;
    for (const auto& l : lengths) {
      total += l.share;
      weighted += l.share * l.flits;
    }
    return weighted / total;
  }

  /// Throws config_error naming the first field out of range.
  void check() const {
    const char* who = "interlock::model::config";
    if (vcs > 64) throw config_error(who, "vcs", std::to_string(vcs), "0..64");
    if (buffer_flits < 1 || buffer_flits > 65535)
      throw config_error(who, "buffer_flits", std::to_string(buffer_flits), "1..65535");
    if (injection_buffer_flits > 65535)
      throw config_error(who, "injection_buffer_flits", std::to_string(injection_buffer_flits),
                         "0 (as buffer_flits) or 1..65535");
    if (adapter_buffer_flits > 65535)
      throw config_error(who, "adapter_buffer_flits", std::to_string(adapter_buffer_flits),
                         "0 (as buffer_flits) or 1..65535");
    if (staging_flits > 65535)
      throw config_error(who, "staging_flits", std::to_string(staging_flits),
                         "0 (no staging buffers) or 1..65535");
    if (staging_flits != 0 && max_flits() > staging_flits)
      throw config_error(who, "staging_flits", std::to_string(staging_flits),
                         "0, or at least the longest packet (" + std::to_string(max_flits()) +
                             " flits): a staging buffer stores whole packets");
    if (channel_latency < 1 || channel_latency > 1000)
      throw config_error(who, "channel_latency", std::to_string(channel_latency), "1..1000");
    if (!(endpoint_bandwidth > 0) || !(endpoint_bandwidth <= 1) ||
        !(endpoint_bandwidth * 1024 >= 1))
      throw config_error(who, "endpoint_bandwidth", std::to_string(endpoint_bandwidth),
                         "1/1024..1 flits per cycle");
    if (endpoints < 1 || endpoints > 8)
      throw config_error(who, "endpoints", std::to_string(endpoints), "1..8");
    if (router_delay > 1000)
      throw config_error(who, "router_delay", std::to_string(router_delay), "0..1000");
    if (head_cycles > 1000)
      throw config_error(who, "head_cycles", std::to_string(head_cycles), "0..1000");
    if (switch_stages < 1 || switch_stages > 2)
      throw config_error(who, "switch_stages", std::to_string(switch_stages),
                         "1 (SA in one cycle) or 2 (SA1, then SA2)");
    if (lengths.empty() || lengths.size() > 16)
      throw config_error(who, "lengths", std::to_string(lengths.size()) + " lengths",
                         "1..16 lengths");
    for (const auto& l : lengths) {
      if (l.flits < 1 || l.flits > 1024)
        throw config_error(who, "lengths", std::to_string(l.flits), "1..1024 flits");
      if (!(l.share > 0) || !std::isfinite(l.share))
        throw config_error(who, "lengths", "share " + std::to_string(l.share), "a share > 0");
    }
    // The shares are normalized by their sum, and the mean length weights
    // them: both sums must be finite (shares near the largest double are not).
    double total = 0, weighted = 0;
    for (const auto& l : lengths) {
      total += l.share;
      weighted += l.share * l.flits;
    }
    if (!std::isfinite(total) || !std::isfinite(weighted))
      throw config_error(who, "lengths", "shares summing past the largest double",
                         "shares whose sum, weighted by the lengths, is finite");
    if (max_flits() > buffer_flits)
      throw config_error(who, "buffer_flits", std::to_string(buffer_flits),
                         "at least the longest packet (" + std::to_string(max_flits()) +
                             " flits): virtual cut-through stores whole packets");
    if (injection_buffer_flits != 0 && max_flits() > injection_buffer_flits)
      throw config_error(who, "injection_buffer_flits", std::to_string(injection_buffer_flits),
                         "at least the longest packet (" + std::to_string(max_flits()) +
                             " flits): virtual cut-through stores whole packets");
    if (adapter_buffer_flits != 0 && max_flits() > adapter_buffer_flits)
      throw config_error(who, "adapter_buffer_flits", std::to_string(adapter_buffer_flits),
                         "at least the longest packet (" + std::to_string(max_flits()) +
                             " flits): virtual cut-through stores whole packets");
    if (!(load >= 0) || !(load <= 1))
      throw config_error(who, "load", std::to_string(load), "0..1 flits per node per cycle");
    if (batch > 100000000)
      throw config_error(who, "batch", std::to_string(batch), "0..100000000 packets");
    if (!(response_share >= 0) || !(response_share <= 1))
      throw config_error(who, "response_share", std::to_string(response_share), "0..1");
    if (measure < 1 || measure > (std::uint64_t{1} << 40))
      throw config_error(who, "measure", std::to_string(measure), "1..2^40");
    if (warmup > (std::uint64_t{1} << 40))
      throw config_error(who, "warmup", std::to_string(warmup), "0..2^40");
    if (drain > (std::uint64_t{1} << 40))
      throw config_error(who, "drain", std::to_string(drain), "0..2^40");
    if (utilization_bin > (std::uint64_t{1} << 40))
      throw config_error(who, "utilization_bin", std::to_string(utilization_bin), "0..2^40");
    if (stall_limit > (std::uint64_t{1} << 40))
      throw config_error(who, "stall_limit", std::to_string(stall_limit), "0..2^40");
    if (prefetch != prefetch_mode::automatic && prefetch != prefetch_mode::always &&
        prefetch != prefetch_mode::never)
      throw config_error(who, "prefetch", std::to_string(static_cast<unsigned>(prefetch)),
                         "automatic, always or never");
    if (threads < 1 || threads > 64)
      throw config_error(who, "threads", std::to_string(threads), "1..64");
  }
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_CONFIG_HPP
