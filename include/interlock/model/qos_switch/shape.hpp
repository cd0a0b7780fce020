// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/shape.hpp: what a hierarchical QoS switch and its traffic are made of.
//
// Models [QoSThesis] Sections 2.2 and 4.2.2 (Figures 2.1, 2.2 and 4.2): a
// switch of `ports` ports grouped into MPorts of `mport_ports`; each MPort's
// crossbar (mport_ports : mport_ports + central_links) moves packets from
// its input buffers to its own output buffers or, over `central_links` links
// of `mport_speedup` flits per cycle, into central buffers; the central
// crossbar (MPorts x central_links : ports) moves them from a central buffer
// to any output buffer at `central_speedup` flits per cycle. Links carry one
// flit per cycle. The 48-port OPA switch is 12 MPorts of 4 ports, 2 central
// links of x3 each and a x4 central crossbar (24:48).
//
// Latencies (Section 2.2.2): a header pays INJ on the NIC's link, SB + RT at
// an input buffer, AT + X through a crossbar (plus SB when it lands in an
// output buffer; central buffers are "perfect", no SB), and FLY on a link,
// so a header crossing the central crossbar without contention takes INJ +
// RT + 2 SB + 2 AT + 2 X + FLY. The thesis gives 160 cycles and "32 cycles
// for routing, 50 cycles for storing in input/output buffers, 16 cycles for
// arbitration, 2 cycles for Mport/Central Xbar and 8 cycles for
// transmission", which add up to 108. We read 50 as per store (2 SB = 100)
// and 16 as both arbitrations (AT = 8): INJ = 2, RT = 32, SB = 50, AT = 8,
// X = 1, FLY = 8 give exactly 160 (opa_latencies()).
//
// Contract
//   - shape: ports 2..256, mport_ports dividing ports, central_links
//     1..8, speed-ups 1..16 flits per speedup_cycles 1..16, buffers in flits (input and output per
//     port, central per central link: the thesis's per-MPort central capacity is split between its
//     links), per-VL minimum and maximum of the dynamic VL space (vl_buffer.hpp), bytes per flit
//     and per flow-control credit. mport_ports + MPorts x central_links must be at most 64 (an
//     output arbiter's requesters); whole_packet_crossing makes a packet wait at its input buffer
//     for its tail (cut-through otherwise); share_cycles lets packets under a crossbar link's
//     speed-up share its cycles; va chooses what the virtual allocation offers (va_rule); routing
//     whether an input buffer routes its headers one at a time (routing_unit), storing whether an
//     input or output buffer stores its packets one at a time (storing_unit); sc_queues gives
//     output buffers and NICs a FIFO per SC inside each VL. check() names the field, value and
//     range.
//   - service_levels: per SL its SC (SL2SC), per SC its VL (SC2VL), as
//     qos::opa_service_maps checks them; vls() VLs in use.
//   - sl_traffic: per SL its share of the injected flits (summing to 1) and
//     its message size in flits, each message one packet or cut into
//     packets of at most packet_limit flits; check() names the SL.
//   - opa_48_port() is Chapter 2's switch: 256-flit buffers, 8-byte flits,
//     16-flit packets (128 bytes, Section 4.3.3.1).
//
// Example
//   auto shape = interlock::model::qos_switch::opa_48_port();
//   shape.ports = 8;                       // Chapter 5's fat-tree switch: 2 MPorts of 4
//   shape.check();
#ifndef INTERLOCK_MODEL_QOS_SWITCH_SHAPE_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_SHAPE_HPP

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/core/config_error.hpp"
#include "interlock/qos/service_maps.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

struct latencies {
  std::uint32_t inj = 2;  // the NIC's link
  std::uint32_t rt = 32;  // routing, at an input buffer
  std::uint32_t sb = 50;  // storing in an input or output buffer
  std::uint32_t at = 8;   // one allocation (VA-SA)
  std::uint32_t x = 1;    // one crossbar
  std::uint32_t fly = 8;  // a switch's link
  /// A header's cycles from NIC to NIC through one switch, through the
  /// central crossbar, without contention.
  std::uint32_t central_path() const noexcept { return inj + rt + 2 * sb + 2 * at + 2 * x + fly; }
};

/// Which VLs an input (or central) buffer's arbiter offers in the virtual
/// allocation. [QoSThesis] Section 2.2.1: "Each input arbiter, with at least
/// one VA-SA-ready header flit on it, chooses a VL that will be allowed to
/// deliver a packet" (VA-SA-ready: routed).
///   can_go: only VLs whose head is routed and has room where it goes (a
///     blocked VL never holds its input); the arbiter's pointer moves when a
///     packet leaves.
///   routed: every VL whose head is routed, room or not, as the sentence
///     reads; the pointer moves at each pick, so a pick whose head has no
///     room costs the input that cycle and the next cycle picks on.
enum class va_rule : unsigned char { can_go, routed };

/// How an input buffer's routing unit serves the headers that arrive in it.
/// [QoSThesis] Section 2.2.1: "There is one routing unit per input buffer",
/// and routing takes RT (32) cycles; the text does not say whether a unit
/// routes one header at a time.
///   pipelined: every header is routed RT cycles after it is stored;
///   per_port: the input buffer's unit routes one header at a time, each
///     for RT cycles, in arrival order;
///   per_vl: one such unit per VL of the input buffer.
enum class routing_unit : unsigned char { pipelined, per_port, per_vl };

/// How a buffer's write stage serves the packets that arrive in it.
/// [QoSThesis] Section 2.2.2 gives "50 cycles for storing in input/output
/// buffers" (SB) and does not say whether a buffer stores one packet at a
/// time.
///   pipelined: every packet is stored SB cycles after its header arrives;
///   per_port: an input or output buffer stores one packet at a time, each
///     for SB cycles, in arrival order (a packet waiting for the store is
///     delayed whole: its tail by as much as its header);
///   per_vl: one such store per VL of the buffer.
/// Central buffers pay no SB ("perfect") and are never serialized.
using storing_unit = routing_unit;

struct shape {
  std::size_t ports = 48;
  std::size_t mport_ports = 4;
  std::size_t central_links = 2;
  std::uint32_t mport_speedup = 3;    // flits per speedup_cycles through an MPort crossbar
  std::uint32_t central_speedup = 4;  // flits per speedup_cycles through the central crossbar
  /// The speed-ups are flits per this many cycles (2: x1.5 is 3 per 2),
  /// moved evenly: a link of s flits per c cycles has moved floor(t s / c)
  /// flits by cycle t.
  std::uint32_t speedup_cycles = 1;
  std::uint32_t input_flits = 256;
  std::uint32_t output_flits = 256;
  std::uint32_t central_flits = 256;  // per central link's buffer
  std::uint32_t vl_min_flits = 16;    // guaranteed per VL in every buffer
  std::uint32_t vl_max_flits = 256;   // at most per VL (clipped to each buffer's capacity)
  std::uint32_t flit_bytes = 8;
  std::uint32_t credit_bytes = 64;
  latencies latency{};
  /// False (the thesis's virtual cut-through): a header is allocated the
  /// crossbar once routed, and a packet still arriving holds its crossbar
  /// link at the link's rate. True: a packet crosses only once wholly in
  /// its input buffer, at the crossbar's full speed-up.
  bool whole_packet_crossing = false;
  /// False: a packet takes whole cycles of its crossbar link, ceil(flits /
  /// speed-up), the last cycle's spare flits unused. True: packets smaller
  /// than a link's speed-up share its cycles, so an x3 link moves three
  /// one-flit packets a cycle ([QoSThesis] Section 5.2.2: "an x3 port means
  /// that it may deliver 3 flits/cycle", with Section 5.5.2's one-flit
  /// packets): a source sends, and a destination takes, packets in a cycle
  /// while their flits fit the speed-up. A packet that needs more than a
  /// cycle still starts on a fresh one.
  bool share_cycles = true;
  va_rule va = va_rule::routed;
  routing_unit routing = routing_unit::pipelined;
  storing_unit storing = storing_unit::pipelined;
  /// True (the text's reading: SCs avoid "head of line blocking between
  /// different traffic classes", Section 2.3, and "the packet scheduling
  /// is performed with SLs and flow control via VCs", Section 4.4.1):
  /// output buffers and NIC queues keep one FIFO per SC inside each VL
  /// (the space, credits and flow control still the VL's), so a port's
  /// scheduler can serve an SC whose packets wait behind another SC's in
  /// the same VL. False: every buffer keeps one FIFO per VL. With each SC
  /// on a VL of its own the two are the same switch.
  bool sc_queues = true;

  std::size_t mports() const noexcept { return ports / mport_ports; }
  std::size_t mport_of(std::size_t port) const noexcept { return port / mport_ports; }
  std::size_t central_buffers() const noexcept { return mports() * central_links; }

  void check() const {
    constexpr const char* c = "shape";
    interlock::detail::require_in_range(c, "ports", ports, 2, 256);
    interlock::detail::require_in_range(c, "mport_ports", mport_ports, 1, ports);
    if (ports % mport_ports != 0) {
      throw config_error(c, "mport_ports", std::to_string(mport_ports),
                         "a divisor of ports (" + std::to_string(ports) + ")");
    }
    interlock::detail::require_in_range(c, "central_links", central_links, 1, 8);
    if (mport_ports + central_buffers() > 64) {
      throw config_error(c, "ports", std::to_string(ports),
                         "at most 64 requesters per output arbiter: mport_ports + MPorts x "
                         "central_links <= 64");
    }
    interlock::detail::require_in_range(c, "mport_speedup", mport_speedup, 1, 16);
    interlock::detail::require_in_range(c, "central_speedup", central_speedup, 1, 16);
    interlock::detail::require_in_range(c, "speedup_cycles", speedup_cycles, 1, 16);
    interlock::detail::require_in_range(c, "input_flits", input_flits, 1, 1u << 20);
    interlock::detail::require_in_range(c, "output_flits", output_flits, 1, 1u << 20);
    interlock::detail::require_in_range(c, "central_flits", central_flits, 1, 1u << 20);
    interlock::detail::require_in_range(c, "vl_max_flits", vl_max_flits, 1, 1u << 20);
    interlock::detail::require_in_range(c, "vl_min_flits", vl_min_flits, 0, vl_max_flits);
    interlock::detail::require_in_range(c, "flit_bytes", flit_bytes, 1, 4096);
    interlock::detail::require_in_range(c, "credit_bytes", credit_bytes, 1, 1u << 16);
    for (const std::uint32_t l :
         {latency.inj, latency.rt, latency.sb, latency.at, latency.x, latency.fly}) {
      interlock::detail::require_in_range(c, "latency", l, 0, 100000);
    }
    interlock::detail::require_in_range(c, "latency.inj", latency.inj, 1, 100000);
    interlock::detail::require_in_range(c, "latency.fly", latency.fly, 1, 100000);
  }
};

/// Section 2.2.2's stage latencies, adding up to its 160 cycles (see above).
inline latencies opa_latencies() { return latencies{}; }

/// Chapter 2's 48-port OPA switch.
inline shape opa_48_port() { return shape{}; }

/// SL2SC and SC2VL, the Omni-Path maps a packet's VL comes from, for one
/// or two SC classes: a route table may move a packet to its SL's class-1
/// SC on the far side of a torus dateline (as OPA's per-hop SC2SC tables
/// may), so each SL has an SC per class.
class service_levels {
 public:
  service_levels() : service_levels({0}, {0}) {}
  /// sl2sc[sl] is SL sl's SC; sc2vl[sc] is SC sc's VL; sl2sc_class1, when
  /// given, each SL's SC in class 1. Every SC belongs to one SL.
  service_levels(const std::vector<std::uint8_t>& sl2sc, const std::vector<std::uint8_t>& sc2vl,
                 const std::vector<std::uint8_t>& sl2sc_class1 = {})
      : sl2sc_{sl2sc, sl2sc_class1.empty() ? sl2sc : sl2sc_class1},
        classes_(sl2sc_class1.empty() ? 1 : 2) {
    constexpr const char* c = "service_levels";
    interlock::detail::require_in_range(c, "SLs (sl2sc entries)", sl2sc.size(), 1,
                                        qos::opa_sl_count);
    interlock::detail::require_in_range(c, "SCs (sc2vl entries)", sc2vl.size(), 1,
                                        qos::opa_sc_count);
    if (classes_ == 2 && sl2sc_class1.size() != sl2sc.size()) {
      throw config_error(c, "class-1 SL2SC entries", std::to_string(sl2sc_class1.size()),
                         "one per SL (" + std::to_string(sl2sc.size()) + ")");
    }
    std::array<std::uint8_t, qos::opa_sc_count> sc2sl{}, vl{};
    sc2sl.fill(qos::opa_service_maps::unused);
    for (std::size_t cls = 0; cls < classes_; ++cls) {
      const std::string map = cls == 0 ? "sl2sc" : "class-1 sl2sc";
      for (std::size_t sl = 0; sl < sl2sc.size(); ++sl) {
        const std::size_t sc = sl2sc_[cls][sl];
        if (sc >= sc2vl.size()) {
          throw config_error(c, map + "[" + std::to_string(sl) + "]", std::to_string(sc),
                             "an SC that sc2vl maps (0.." + std::to_string(sc2vl.size() - 1) + ")");
        }
        if (sc2sl[sc] != qos::opa_service_maps::unused && (cls == 0 || sc2sl[sc] != sl)) {
          throw config_error(c, map + "[" + std::to_string(sl) + "]", std::to_string(sc),
                             "an SC of no other SL (SL" + std::to_string(sc2sl[sc]) + " uses SC" +
                                 std::to_string(sc) + ")");
        }
        sc2sl[sc] = static_cast<std::uint8_t>(sl);
      }
    }
    std::size_t vls = 0;
    for (std::size_t sc = 0; sc < sc2vl.size(); ++sc) {
      vl[sc] = sc2vl[sc];
      interlock::detail::require_in_range(c, "sc2vl[" + std::to_string(sc) + "]", sc2vl[sc], 0,
                                          qos::opa_vl_count - 1);
      if (sc2sl[sc] != qos::opa_service_maps::unused && sc2vl[sc] + std::size_t{1} > vls)
        vls = sc2vl[sc] + std::size_t{1};
    }
    const qos::opa_service_maps maps(sc2sl, vl, vls);  // checks SC15 and the VL range
    sc_sls_ = maps.sc_queue_sls();
    sc2vl_ = vl;
    vls_ = vls;
  }

  std::size_t sls() const noexcept { return sl2sc_[0].size(); }
  /// SC classes: 1, or 2 when class-1 SCs were given.
  std::size_t classes() const noexcept { return classes_; }
  std::size_t sc(std::size_t sl, std::size_t cls = 0) const noexcept {
    return sl2sc_[cls < classes_ ? cls : 0][sl];
  }
  std::size_t vl_of_sc(std::size_t sc) const noexcept { return sc2vl_[sc]; }
  std::size_t vl(std::size_t sl, std::size_t cls = 0) const noexcept { return sc2vl_[sc(sl, cls)]; }
  /// VLs in use: one past the highest VL an SL reaches.
  std::size_t vls() const noexcept { return vls_; }
  /// Each SC's SL (SC2SL), as schedulers over SC queues take it.
  const qos::queue_sls& sc_queue_sls() const noexcept { return sc_sls_; }

 private:
  std::array<std::vector<std::uint8_t>, 2> sl2sc_;
  std::size_t classes_ = 1;
  std::array<std::uint8_t, qos::opa_sc_count> sc2vl_{};
  qos::queue_sls sc_sls_;
  std::size_t vls_ = 1;
};

/// How an SL's packets are created at a NIC ([QoSThesis] Table 5.2):
/// bernoulli: a packet per cycle with probability rate / flits, to the
///   run's pattern (Chapter 2's generation, Table 5.2's random uniform);
/// cbr_connection: constant bit rate (a packet every flits / rate cycles,
///   from a random phase) on one connection per NIC, the connections a
///   random permutation drawn once per run, so every NIC ends one of them
///   (VO and VI; the thesis says only that connections are chosen at the
///   start and last the whole run);
/// cbr: constant bit rate, each packet to the run's pattern (CL: "the
///   destination distribution is uniform" for all but VI and VO);
/// bursts: bursts of `burst` packets created at once for one destination of
///   the run's pattern, a burst per cycle with probability rate / (burst x
///   flits) (Bursts4 for EE, BE and BK).
enum class sl_source : std::uint8_t { bernoulli, cbr_connection, cbr, bursts };

/// What each SL injects: its share of a NIC's flits, its packet size and
/// how its packets are created (all Bernoulli unless `source` says).
struct sl_traffic {
  std::vector<double> share;                // per SL, summing to 1
  std::vector<std::uint32_t> packet_flits;  // per SL: each message's flits
  std::vector<sl_source> source = {};       // per SL, or empty: all Bernoulli
  std::uint32_t burst = 4;                  // messages per burst (sl_source::bursts)
  /// 0: each message is one packet. Otherwise a message is cut into packets
  /// of at most packet_limit flits ([QoSThesis] Section 5.5.2: "the packet
  /// size in 1 flit"), which cross the network each on its own, and its
  /// latency runs to its last packet's delivery.
  std::uint32_t packet_limit = 0;

  sl_source source_of(std::size_t sl) const noexcept {
    return sl < source.size() ? source[sl] : sl_source::bernoulli;
  }

  void check(std::size_t sls, std::uint32_t max_packet) const {
    constexpr const char* c = "sl_traffic";
    if (share.size() != sls) {
      throw config_error(c, "generation shares", std::to_string(share.size()),
                         "one per SL (" + std::to_string(sls) + ")");
    }
    if (packet_flits.size() != sls) {
      throw config_error(c, "packet sizes", std::to_string(packet_flits.size()),
                         "one per SL (" + std::to_string(sls) + ")");
    }
    double total = 0;
    for (std::size_t sl = 0; sl < sls; ++sl) {
      if (!(share[sl] >= 0 && share[sl] <= 1)) {
        throw config_error(c, "generation[" + std::to_string(sl) + "]", std::to_string(share[sl]),
                           "0..1");
      }
      total += share[sl];
      interlock::detail::require_in_range(c, "packet flits of SL" + std::to_string(sl),
                                          packet_flits[sl], 1, max_packet);
    }
    if (std::fabs(total - 1) > 1e-6) {
      throw config_error(c, "generation shares (sum)", std::to_string(total), "1");
    }
    if (!source.empty() && source.size() != sls) {
      throw config_error(c, "sources", std::to_string(source.size()),
                         "none (all Bernoulli) or one per SL (" + std::to_string(sls) + ")");
    }
    interlock::detail::require_in_range(c, "burst", burst, 1, 1024);
    interlock::detail::require_in_range(c, "packet limit", packet_limit, 0, max_packet);
  }
};

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_SHAPE_HPP
