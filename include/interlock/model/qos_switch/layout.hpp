// SPDX-License-Identifier: BSL-1.0
// interlock/model/qos_switch/layout.hpp: how switches, their ports and NICs are wired, and routed.
//
// Contract
//   layout(switches, ports, nics) starts with nothing wired.
//   attach_nic(nic, s, p) puts a NIC on port p of switch s (one NIC per NIC
//   id, one peer per port); connect(s1, p1, s2, p2) joins two switch ports
//   in both directions; set_route(s, nic, p, count, cls) says switch s sends
//   packets for `nic` out of one of ports p..p+count-1 (a group: a fat
//   tree's up ports, a torus's trunk link; the switch picks one per packet
//   at random), on the SC of class `cls` (service_levels: 0, or 1 beyond a
//   torus dateline). A dense table: one lookup per packet per switch, no
//   dispatch. check() names the first thing that is missing or wrong: a NIC
//   not attached, a route not set, a route out of a port with no peer or
//   into the port of a NIC that is not the destination.
//   single_switch(ports) is one switch with NIC i on port i.
//   Complexity: route() and peer() O(1); check() O(switches x nics).
//
// Example
//   auto layout = interlock::model::qos_switch::single_switch(48);
//   assert(layout.route(0, 5) == 5);
#ifndef INTERLOCK_MODEL_QOS_SWITCH_LAYOUT_HPP
#define INTERLOCK_MODEL_QOS_SWITCH_LAYOUT_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "interlock/core/config_error.hpp"

namespace interlock {
namespace model {
namespace qos_switch {

/// What is at the other end of a switch port.
struct port_peer {
  enum class kind : std::uint8_t { none, nic, switch_port };
  kind what = kind::none;
  std::uint32_t id = 0;    // the NIC, or the switch
  std::uint32_t port = 0;  // the switch's port (switch_port only)
};

/// A route table entry: ports first..first+count-1, class cls.
struct route_group {
  std::uint16_t first = 0xFFFF;
  std::uint8_t count = 1;
  std::uint8_t cls = 0;
};

/// Where a NIC hangs.
struct nic_attachment {
  std::uint32_t sw = 0;
  std::uint32_t port = 0;
  bool attached = false;
};

class layout {
 public:
  static constexpr std::uint16_t no_route = 0xFFFF;

  layout(std::size_t switches, std::size_t ports, std::size_t nics)
      : switches_(switches), ports_(ports), nics_(nics) {
    interlock::detail::require_in_range("layout", "switches", switches, 1, 1u << 16);
    interlock::detail::require_in_range("layout", "ports", ports, 2, 256);
    interlock::detail::require_in_range("layout", "NICs", nics, 2, 1u << 20);
    peers_.resize(switches * ports);
    nic_.resize(nics);
    route_.assign(switches * nics, route_group{});
  }

  void attach_nic(std::size_t nic, std::size_t s, std::size_t p) {
    check_port(s, p, "attach_nic");
    interlock::detail::require_in_range("layout", "NIC", nic, 0, nics_ - 1);
    if (nic_[nic].attached) {
      throw config_error("layout", "NIC " + std::to_string(nic), "attached twice",
                         "one port per NIC");
    }
    nic_[nic] = {static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(p), true};
    peers_[s * ports_ + p] = {port_peer::kind::nic, static_cast<std::uint32_t>(nic), 0};
  }
  void connect(std::size_t s1, std::size_t p1, std::size_t s2, std::size_t p2) {
    check_port(s1, p1, "connect");
    check_port(s2, p2, "connect");
    peers_[s1 * ports_ + p1] = {port_peer::kind::switch_port, static_cast<std::uint32_t>(s2),
                                static_cast<std::uint32_t>(p2)};
    peers_[s2 * ports_ + p2] = {port_peer::kind::switch_port, static_cast<std::uint32_t>(s1),
                                static_cast<std::uint32_t>(p1)};
  }
  void set_route(std::size_t s, std::size_t nic, std::size_t p, std::size_t count = 1,
                 std::size_t cls = 0) {
    check_port(s, p, "set_route");
    interlock::detail::require_in_range("layout", "NIC", nic, 0, nics_ - 1);
    interlock::detail::require_in_range("layout", "port group size", count, 1,
                                        std::min<std::size_t>(255, ports_ - p));
    interlock::detail::require_in_range("layout", "route class", cls, 0, 1);
    route_[s * nics_ + nic] = {static_cast<std::uint16_t>(p), static_cast<std::uint8_t>(count),
                               static_cast<std::uint8_t>(cls)};
  }

  std::size_t switches() const noexcept { return switches_; }
  std::size_t ports() const noexcept { return ports_; }
  std::size_t nics() const noexcept { return nics_; }
  const port_peer& peer(std::size_t s, std::size_t p) const noexcept {
    return peers_[s * ports_ + p];
  }
  const nic_attachment& nic(std::size_t n) const noexcept { return nic_[n]; }
  /// The first port of switch s's route to `nic`.
  std::size_t route(std::size_t s, std::size_t nic) const noexcept {
    return route_[s * nics_ + nic].first;
  }
  const route_group& route_entry(std::size_t s, std::size_t nic) const noexcept {
    return route_[s * nics_ + nic];
  }
  /// The largest route class any entry uses.
  std::size_t max_class() const noexcept {
    std::size_t m = 0;
    for (const route_group& r : route_) m = r.cls > m ? r.cls : m;
    return m;
  }

  void check() const {
    for (std::size_t n = 0; n < nics_; ++n) {
      if (!nic_[n].attached) {
        throw config_error("layout", "NIC " + std::to_string(n), "not attached",
                           "every NIC on a switch port");
      }
    }
    for (std::size_t s = 0; s < switches_; ++s) {
      for (std::size_t n = 0; n < nics_; ++n) {
        const std::size_t p = route(s, n);
        const std::string where =
            "route at switch " + std::to_string(s) + " to NIC " + std::to_string(n);
        if (p == no_route) throw config_error("layout", where, "unset", "a port");
        const port_peer& q = peer(s, p);
        if (q.what == port_peer::kind::none) {
          throw config_error("layout", where, "port " + std::to_string(p), "a port with a peer");
        }
        if (q.what == port_peer::kind::nic && q.id != n) {
          throw config_error("layout", where, "port " + std::to_string(p),
                             "the destination's port or a switch link (port " + std::to_string(p) +
                                 " holds NIC " + std::to_string(q.id) + ")");
        }
      }
    }
  }

 private:
  void check_port(std::size_t s, std::size_t p, const char* what) const {
    interlock::detail::require_in_range(std::string("layout ") + what, "switch", s, 0,
                                        switches_ - 1);
    interlock::detail::require_in_range(std::string("layout ") + what, "port", p, 0, ports_ - 1);
  }

  std::size_t switches_, ports_, nics_;
  std::vector<port_peer> peers_;
  std::vector<nic_attachment> nic_;
  std::vector<route_group> route_;
};

/// One switch of `ports` ports, NIC i on port i.
inline layout single_switch(std::size_t ports) {
  layout layout(1, ports, ports);
  for (std::size_t i = 0; i < ports; ++i) {
    layout.attach_nic(i, 0, i);
    layout.set_route(0, i, i);
  }
  return layout;
}

}  // namespace qos_switch
}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_QOS_SWITCH_LAYOUT_HPP
