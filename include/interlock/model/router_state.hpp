// SPDX-License-Identifier: BSL-1.0
// interlock/model/router_state.hpp: the state every router of the model keeps, in one place.
//
// Contract
//   router_state holds, for every router of a network, what its allocation
//   reads and writes. Each router has the ports it uses (ports_of(r)): a
//   router hosting endpoints every network port and one local port per
//   endpoint; one hosting none (Anton 2's channel adapters) its network
//   ports up to the last one connected. Ports are numbered 0 ..
//   ports_of(r) - 1 at every router and laid out router after router
//   (port_index(r, p)), buffers port after port (buffer(r, p, v)), so that
//   one router's state is contiguous in each array and no router carries
//   state for ports it does not have. What is read together is kept
//   together, apart from what is read at other times:
//     per input buffer (router, port, VC), 32 bytes in buf: head (the head
//       packet's id, length, ways on, ejection endpoint and, with a head
//       pipeline, the cycle it may first compete: read each cycle it
//       competes), queue (its ring of packet ids: read when packets arrive
//       and leave) and fields (the header fields a policy reads: age,
//       pattern, priority); apart, cand_info (its candidate hops' ports and
//       VC sets);
//     per output (router, port, VC): credits for the downstream buffer (at
//       the local port, the injection side's credits for the local input
//       buffer);
//     per (router, port): port (when the crossbar input and the output
//       channel free, the input VCs holding packets, heads waiting only for
//       credits) and link (the routers and ports at the other end, from the
//       fabric, fabric.hpp, the channels' latencies, and the inputs waiting
//       on this output for credits);
//     per router: the input ports holding packets, the cycle it may sleep
//       until, and a bitmap of routers holding packets.
//   Buffer sizes: config::buffer_flits per VC at the network inputs of a
//   router that hosts endpoints, adapter_flits at those of one that hosts
//   none, injection_flits at the local ports; each ring holds as many
//   packets as its buffer can (size / the shortest packet), so deep buffers
//   cost memory only where they are. It allocates only when built.
//   buffer_flits(r, p) is a buffer's size; router_of(port index) the router
//   a port belongs to.
//
// Example
//   interlock::torus_topology t({4, 4}, {true, true});
//   interlock::model::router_state s(interlock::model::fabric(t), /*vcs=*/2,
//                                    {/*network=*/8, /*injection=*/8, /*adapter=*/8},
//                                    /*shortest packet=*/1, /*max_candidates=*/5);
//   // s.credits[s.buffer(0, 1, 0)] == 8, s.ports_of(0) == 5
#ifndef INTERLOCK_MODEL_ROUTER_STATE_HPP
#define INTERLOCK_MODEL_ROUTER_STATE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interlock/core/bits.hpp"
#include "interlock/model/fabric.hpp"
#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

/// What the allocation reads of one candidate hop of a head, packed.
struct candidate_info {
  std::uint8_t port, first_vc, adaptive, unused;
};

/// What the allocation reads of an input buffer's head every cycle it
/// competes, and its packet's id for when it leaves, packed (16 bytes).
struct head_state {
  // With a head pipeline (config::head_cycles > 0): the cycle the head may
  // first compete (while the buffer is empty: the cycle the last tail left).
  std::uint64_t ready_at = 0;
  std::uint32_t id = 0;       // the head packet
  std::uint16_t flits = 0;    // its length
  std::uint8_t ncand = 0;     // its ways on (0: it ejects here; 1: it took it at route time)
  std::uint8_t endpoint = 0;  // the endpoint it leaves through when it ejects here
};

/// An input buffer's ring of packet ids.
struct queue_state {
  std::uint32_t base = 0;             // its ring's first slot in router_state::ring
  std::uint16_t slots = 0;            // the ring's size: the packets it can hold
  std::uint16_t head = 0, count = 0;  // the ring
};

/// The head's header fields a policy may read (age, pattern, priority).
struct head_fields {
  std::uint16_t age = 0;
  std::uint8_t pattern = 0, priority = 0;
};

/// One input buffer (router, port, VC): its head, its ring and its head's
/// header fields in 32 bytes, aligned so that a buffer is one cache line
/// (two per line): a head that competes, arrives or leaves is one read.
struct alignas(32) buffer_state {
  head_state head;
  queue_state queue;
  head_fields fields;
};
static_assert(sizeof(buffer_state) == 32, "an input buffer's state is half a cache line");

/// One output staging buffer (router, output, input port, VC): a ring of
/// packet ids, its free space, and its head's cached fields.
struct staging_state {
  std::uint16_t head = 0, count = 0;
  std::int32_t free = 0;    // flits: the space not yet taken
  std::uint16_t flits = 0;  // the head packet's length
  std::uint16_t age = 0;    // its header fields a policy may read
  std::uint8_t pattern = 0, priority = 0;
  std::uint8_t first_vc = 0;  // the first physical VC of its downstream VC set
  std::uint8_t eject = 0;     // it leaves the network here
};

/// One (router, port), as an input and as an output: what every cycle reads.
struct port_state {
  std::uint64_t in_free_at = 0, out_free_at = 0;  // the crossbar input, the channel out
  std::uint64_t vcs = 0;                          // input VCs holding packets
  std::uint64_t blocked = 0;  // VCs whose head waits for credits and nothing else
};

/// One (router, port)'s channels: what a departure or a credit reads.
struct link_state {
  // Input ports with a head waiting only for credits on this output; a
  // credit at the output makes them look again.
  std::uint64_t waiters = 0;
  // The router at the other end (no_node off a mesh edge): where this
  // input's packets come from, where this output goes, and the port there
  // (the upstream router's output, the downstream router's input).
  node_id upstream = no_node, downstream = no_node;
  std::uint8_t upstream_port = 0, downstream_port = 0;
  // Cycles on the output's channel, and on the channel into this input
  // (which its credits take back).
  std::uint16_t out_latency = 1, in_latency = 1;
  // The output's channel is slower than a flit per cycle (fabric::bandwidth).
  std::uint8_t slow = 0;
};

/// Input buffer sizes per VC, in flits, by kind of input.
struct buffer_sizes {
  unsigned network = 16;    // network inputs of routers hosting endpoints
  unsigned injection = 16;  // local (injection) inputs
  unsigned adapter = 16;    // network inputs of routers hosting none (channel adapters)
};

struct router_state {
  router_state() = default;
  /// Buffers of `sizes` per input (port, VC), each holding at most its size
  /// over `shortest_packet` packets, for the routers of fabric f, whose
  /// channels take `channel_latency` cycles (plus the fabric's extra).
  router_state(const fabric& f, std::size_t vcs_per_port, const buffer_sizes& sizes,
               unsigned shortest_packet, std::size_t max_candidates,
               std::size_t endpoints_per_node = 1, unsigned channel_latency = 1)
      : nodes(f.routers()),
        ports(f.network_ports() + endpoints_per_node),
        local(f.network_ports()),
        endpoints(endpoints_per_node),
        vcs(vcs_per_port),
        max_cand(max_candidates),
        injection_flits(sizes.injection) {
    lay_out(f);
    const std::size_t buffers = total_ports * vcs;
    buf.assign(buffers, buffer_state{});
    cand_info.assign(buffers * max_cand, candidate_info{});
    credits.assign(buffers, 0);
    input_flits.assign(nodes, sizes.network);
    for (node_id r = 0; r < nodes; ++r)
      if (!f.hosts(r)) input_flits[r] = sizes.adapter;
    std::size_t slots = 0;
    for (node_id r = 0; r < nodes; ++r)
      for (std::size_t q = 0; q < ports_of(r); ++q) {
        // An output's credits are for the buffer at the other end of its
        // channel (a local port's: the injection side's, for its own input).
        const port_end down =
            q >= local ? port_end{r, static_cast<std::uint8_t>(q)} : f.downstream(r, q);
        for (std::size_t v = 0; v < vcs; ++v) {
          const std::size_t b = buffer(r, q, v);
          credits[b] = static_cast<std::int32_t>(
              down.router != no_node ? buffer_flits(down.router, down.port) : buffer_flits(r, q));
          buf[b].queue.base = static_cast<std::uint32_t>(slots);
          buf[b].queue.slots = static_cast<std::uint16_t>(buffer_flits(r, q) / shortest_packet);
          slots += buf[b].queue.slots;
        }
      }
    ring.assign(slots, 0);
    port.assign(total_ports, port_state{});
    link.assign(total_ports, link_state{});
    for (node_id r = 0; r < nodes; ++r)
      for (std::size_t q = 0; q < ports_of(r); ++q) {
        link_state& ps = link[port_index(r, q)];
        if (q >= local) {  // an endpoint's injection and ejection port
          ps.upstream = r;
          ps.downstream = r;
          ps.upstream_port = static_cast<std::uint8_t>(q);
          ps.downstream_port = static_cast<std::uint8_t>(q);
          ps.out_latency = ps.in_latency = static_cast<std::uint16_t>(channel_latency);
          continue;
        }
        const port_end up = f.upstream(r, q), down = f.downstream(r, q);
        ps.upstream = up.router;
        ps.upstream_port = up.port;
        ps.downstream = down.router;
        ps.downstream_port = down.port;
        ps.out_latency = static_cast<std::uint16_t>(channel_latency + f.extra_latency(r, q));
        ps.slow = f.bandwidth(r, q) < 1 ? 1 : 0;
        ps.in_latency = static_cast<std::uint16_t>(
            channel_latency + (up.router == no_node ? 0 : f.extra_latency(up.router, up.port)));
      }
    port_mask.assign(nodes, 0);
    active.assign((nodes + 63) / 64, 0);
    sleep_until.assign(nodes, 0);
  }

  /// Router r's ports: 0 .. ports_of(r) - 1 (a router hosting endpoints has
  /// every port, local ones included; one hosting none, its network ports
  /// up to the last one connected).
  std::size_t ports_of(node_id r) const noexcept { return first_port[r + 1] - first_port[r]; }
  std::size_t port_index(node_id r, std::size_t p) const noexcept { return first_port[r] + p; }
  std::size_t buffer(node_id r, std::size_t p, std::size_t v) const noexcept {
    return port_index(r, p) * vcs + v;
  }
  /// The router a port index belongs to.
  node_id router_of(std::size_t pi) const noexcept {
    const auto it = std::upper_bound(first_port.begin(), first_port.end(), pi);
    return static_cast<node_id>(it - first_port.begin() - 1);
  }
  /// The size in flits of each VC's buffer at router r's input port p.
  unsigned buffer_flits(node_id r, std::size_t p) const noexcept {
    return p >= local ? injection_flits : input_flits[r];
  }
  /// The packet id in slot k (0: the head) of buffer b.
  std::uint32_t packet_at(std::size_t b, std::size_t k) const noexcept {
    const queue_state& x = buf[b].queue;
    std::size_t slot = x.head + k;
    if (slot >= x.slots) slot -= x.slots;
    return ring[x.base + slot];
  }
  void mark_active(node_id r) noexcept { active[r / 64] |= bits::bit(r % 64); }
  void wake(node_id r) noexcept { sleep_until[r] = 0; }

  node_id nodes = 0;
  // Router ports: the topology's network ports, then one local port per
  // endpoint (local .. local + endpoints - 1); `ports` is the most a router
  // has.
  std::size_t ports = 0, local = 0, endpoints = 1, vcs = 0, max_cand = 1;
  std::size_t total_ports = 0;
  unsigned injection_flits = 0;
  std::vector<std::uint32_t> first_port;   // per router (and one past the last): its first port
  std::vector<unsigned> input_flits;       // per router: its network inputs' buffer size
  std::vector<std::uint32_t> ring;         // every buffer's ring, one after another
  std::vector<buffer_state> buf;           // per buffer
  std::vector<candidate_info> cand_info;   // per buffer, max_cand each
  std::vector<std::int32_t> credits;       // per buffer: its output's credits downstream
  std::vector<port_state> port;            // per port
  std::vector<link_state> link;            // per port
  std::vector<std::uint64_t> port_mask;    // per router: input ports holding packets
  std::vector<std::uint64_t> sleep_until;  // per router: not evaluated before this cycle
  std::vector<std::uint64_t> active;       // bit r: router r holds packets

  // The head pipeline (config::head_cycles > 0): each head's ready_at.
  void add_head_pipeline(unsigned cycles) { head_cycles = cycles; }
  unsigned head_cycles = 0;

  // Pipelined heads (config::pipelined_heads; after add_head_pipeline and
  // add_switch_stages): with a head pipeline, the cycle each queued packet
  // arrived, slot by slot beside the rings. With two switch stages the head
  // pipeline takes SA1 in too, a head's ready_at being the first cycle it
  // may leave (SA2).
  void add_pipelined_heads() {
    pipelined_ = true;
    if (split_) ++head_cycles;
    if (head_cycles != 0) arrived.assign(ring.size(), 0);
  }
  bool pipelined_heads() const noexcept { return pipelined_; }
  std::vector<std::uint64_t> arrived;
  /// The cycle the packet in slot k of buffer b arrived (pipelined heads
  /// with a head pipeline).
  std::uint64_t arrived_at(std::size_t b, std::size_t k) const noexcept {
    const queue_state& x = buf[b].queue;
    std::size_t slot = x.head + k;
    if (slot >= x.slots) slot -= x.slots;
    return arrived[x.base + slot];
  }

  // Switch allocation in two stages (config::switch_stages = 2) or with
  // persistent picks (config::persistent_picks): per (router, port), the VC
  // its input stage picked last cycle (no_pick: none) and the VCs it picked
  // among.
  static constexpr std::uint8_t no_pick = 0xFF;
  void add_switch_stages() {
    split_ = true;
    add_held_picks();
  }
  void add_persistent_picks() {
    persistent_ = true;
    add_held_picks();
  }
  bool split_switch() const noexcept { return split_; }
  bool persistent_picks() const noexcept { return persistent_; }
  bool holds_picks() const noexcept { return !held_pick.empty(); }
  std::vector<std::uint8_t> held_pick;
  std::vector<std::uint64_t> held_among;

  // Output staging buffers (staging_flits > 0), per (router, output, input
  // port, VC); a staging buffer's index at its output is input x vcs + VC.
  void add_staging(unsigned staging_flits, std::size_t packets_per_staging) {
    staging_flits_ = staging_flits;
    staging_capacity = packets_per_staging;
    const std::size_t n = total_ports * ports * vcs;
    staging_ring.assign(n * staging_capacity, 0);
    staging.assign(n, staging_state{});
    for (auto& st : staging) st.free = static_cast<std::int32_t>(staging_flits);
    staged_mask.assign(total_ports, 0);
    staged_outputs.assign(nodes, 0);
  }
  bool staged() const noexcept { return staging_flits_ != 0; }
  unsigned staging_flits() const noexcept { return staging_flits_; }
  std::size_t staging_index(node_id r, std::size_t o, std::size_t x) const noexcept {
    return port_index(r, o) * ports * vcs + x;
  }
  std::uint32_t staged_at(std::size_t i, std::size_t k) const noexcept {
    std::size_t slot = staging[i].head + k;
    if (slot >= staging_capacity) slot -= staging_capacity;
    return staging_ring[i * staging_capacity + slot];
  }
  bool holds_packets(node_id r) const noexcept {
    return port_mask[r] != 0 || (staged() && staged_outputs[r] != 0);
  }

  std::size_t staging_capacity = 0;
  std::vector<std::uint32_t> staging_ring;
  std::vector<staging_state> staging;
  std::vector<std::uint64_t> staged_mask;  // per (router, output): staging buffers holding packets
  std::vector<std::uint64_t> staged_outputs;  // per router: outputs with staged packets

 private:
  void lay_out(const fabric& f) {
    first_port.assign(static_cast<std::size_t>(nodes) + 1, 0);
    for (node_id r = 0; r < nodes; ++r) {
      std::size_t n = ports;
      if (!f.hosts(r)) {
        n = 0;
        for (std::size_t q = 0; q < local; ++q)
          if (f.downstream(r, q).router != no_node || f.upstream(r, q).router != no_node) n = q + 1;
      }
      first_port[r + 1] = static_cast<std::uint32_t>(first_port[r] + n);
    }
    total_ports = first_port[nodes];
  }

  void add_held_picks() {
    held_pick.assign(total_ports, no_pick);
    held_among.assign(total_ports, 0);
  }

  unsigned staging_flits_ = 0;
  bool split_ = false, persistent_ = false, pipelined_ = false;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_ROUTER_STATE_HPP
