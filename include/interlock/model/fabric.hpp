// SPDX-License-Identifier: BSL-1.0
// interlock/model/fabric.hpp: the routers and channels a network of the model moves packets over.
//
// Contract
//   A fabric is the graph the model's network runs on: routers() routers,
//   each with network_ports() ports (then the endpoints' local ports, which
//   the network adds), and for every router output the channel it drives:
//   downstream(r, o) is the (router, input port) at the other end (router
//   no_node: unconnected), upstream(r, q) its inverse. A channel carries
//   bandwidth(r, o) flits per cycle (0 < b <= 1) and takes extra_latency(r,
//   o) cycles beyond the run's config::channel_latency. Channels between
//   nodes carry their torus direction (out_direction, in_direction); others
//   are on-chip. Routers belong to nodes of torus(): router r is in node
//   node_of(r) = r / routers_per_node(); hosts(r) says whether r has
//   endpoints (cores that send and receive), kind(r) = r % routers_per_node()
//   its place in the node.
//   - fabric(t): one router per node of a torus or mesh, ports numbered by
//     the topology (port_of(d, sign, slice)); input port q receives what
//     travels in q's direction, from the neighbor behind, whose output is q.
//   - fabric(t, routers_per_node, network_ports) and connect(): any node
//     shape (model/anton2_node.hpp builds Anton 2's).
//   connect() checks its arguments (config_error naming the argument);
//   validate() that every output has one channel into one input.
//   describe(r, q) names an input port for reports: "node (1,2) input +X
//   (travelling +X)", or with a node shape "node (1,2,0) R(0,2) input U+".
//
// Example
//   interlock::torus_topology t({4, 4}, {true, true});
//   interlock::model::fabric f(t);
//   // f.downstream(0, t.port_of(0, +1)).router == t.neighbor(0, 0, +1)
#ifndef INTERLOCK_MODEL_FABRIC_HPP
#define INTERLOCK_MODEL_FABRIC_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "interlock/core/config_error.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

/// One end of a channel: a router's port.
struct port_end {
  node_id router = no_node;
  std::uint8_t port = 0;
};

/// The torus direction a channel between nodes travels, or none (on-chip).
struct channel_direction {
  std::int8_t dimension = -1;  // -1: a channel inside a node
  std::int8_t sign = 0;
  std::uint8_t slice = 0;
  bool between_nodes() const noexcept { return dimension >= 0; }
};

class fabric {
 public:
  /// One router per node of t, each with t's network ports.
  explicit fabric(const torus_topology& t) : fabric(t, 1, t.local_port()) {
    for (node_id r = 0; r < t.node_count(); ++r)
      for (std::size_t o = 0; o < t.local_port(); ++o) {
        const auto p = t.port_info(o);
        const node_id next = t.neighbor(r, p.dimension, p.sign);
        const channel_direction dir{static_cast<std::int8_t>(p.dimension),
                                    static_cast<std::int8_t>(p.sign),
                                    static_cast<std::uint8_t>(p.slice)};
        if (next != no_node) connect(r, o, next, o, dir);
      }
  }

  /// `routers_per_node` routers in every node of t, `network_ports` ports
  /// each, none connected yet; every router hosts endpoints until told not to.
  fabric(const torus_topology& t, std::size_t routers_per_node, std::size_t network_ports)
      : torus_(t), per_node_(routers_per_node), ports_(network_ports) {
    if (routers_per_node < 1 || routers_per_node > 4096)
      throw config_error("interlock::model::fabric", "routers_per_node",
                         std::to_string(routers_per_node), "1..4096");
    if (network_ports > 255)
      throw config_error("interlock::model::fabric", "network_ports", std::to_string(network_ports),
                         "0..255");
    routers_ = static_cast<node_id>(t.node_count() * routers_per_node);
    const std::size_t n = static_cast<std::size_t>(routers_) * ports_;
    down_.assign(n, port_end{});
    up_.assign(n, port_end{});
    out_dir_.assign(n, channel_direction{});
    in_dir_.assign(n, channel_direction{});
    bandwidth_.assign(n, 1.0);
    latency_.assign(n, 0);
    hosts_.assign(per_node_, 1);
    names_.assign(per_node_, std::string{});
  }

  /// Output `out` of router `from` drives a channel into input `in` of
  /// router `to`, travelling `dir`, at `bandwidth` flits per cycle, taking
  /// `extra_latency` cycles more than the run's channel latency.
  void connect(node_id from, std::size_t out, node_id to, std::size_t in,
               channel_direction dir = {}, double bandwidth = 1, unsigned extra_latency = 0) {
    const char* who = "interlock::model::fabric::connect";
    if (from >= routers_)
      throw config_error(who, "from", std::to_string(from), "a router < " + count());
    if (to >= routers_) throw config_error(who, "to", std::to_string(to), "a router < " + count());
    if (out >= ports_) throw config_error(who, "out", std::to_string(out), "a port < " + ports());
    if (in >= ports_) throw config_error(who, "in", std::to_string(in), "a port < " + ports());
    if (!(bandwidth > 0) || !(bandwidth <= 1) || !(bandwidth * 1024 >= 1))
      throw config_error(who, "bandwidth", std::to_string(bandwidth), "1/1024..1 flits per cycle");
    if (extra_latency > 1000)
      throw config_error(who, "extra_latency", std::to_string(extra_latency), "0..1000");
    if (down_[index(from, out)].router != no_node)
      throw config_error(who, "out", std::to_string(out),
                         "an output of router " + std::to_string(from) + " not yet connected");
    if (up_[index(to, in)].router != no_node)
      throw config_error(who, "in", std::to_string(in),
                         "an input of router " + std::to_string(to) + " not yet connected");
    down_[index(from, out)] = port_end{to, static_cast<std::uint8_t>(in)};
    up_[index(to, in)] = port_end{from, static_cast<std::uint8_t>(out)};
    out_dir_[index(from, out)] = dir;
    in_dir_[index(to, in)] = dir;
    bandwidth_[index(from, out)] = bandwidth;
    latency_[index(from, out)] = extra_latency;
    if (bandwidth < 1) uniform_bandwidth_ = false;
    if (extra_latency > max_extra_latency_) max_extra_latency_ = extra_latency;
  }
  /// Routers of kind k (their place in a node) have no endpoints.
  void set_host(std::size_t kind, bool hosts) { hosts_.at(kind) = hosts ? 1 : 0; }
  /// Routers of kind k are called `name` in reports ("R(0,2)").
  void set_name(std::size_t kind, std::string name) { names_.at(kind) = std::move(name); }
  /// Port p is called `name` in reports (default: its torus direction, or "port p").
  void set_port_name(std::size_t kind, std::size_t p, std::string name) {
    if (port_names_.empty())
      port_names_.assign(per_node_, std::vector<std::string>(ports_, std::string{}));
    port_names_.at(kind).at(p) = std::move(name);
  }

  node_id routers() const noexcept { return routers_; }
  std::size_t network_ports() const noexcept { return ports_; }
  std::size_t routers_per_node() const noexcept { return per_node_; }
  const torus_topology& torus() const noexcept { return torus_; }
  node_id node_of(node_id r) const noexcept { return static_cast<node_id>(r / per_node_); }
  std::size_t kind(node_id r) const noexcept { return r % per_node_; }
  bool hosts(node_id r) const noexcept { return hosts_[kind(r)] != 0; }
  node_id host_count() const noexcept {
    std::size_t n = 0;
    for (const auto h : hosts_) n += h;
    return static_cast<node_id>(n * torus_.node_count());
  }

  port_end downstream(node_id r, std::size_t o) const noexcept { return down_[index(r, o)]; }
  port_end upstream(node_id r, std::size_t q) const noexcept { return up_[index(r, q)]; }
  channel_direction out_direction(node_id r, std::size_t o) const noexcept {
    return out_dir_[index(r, o)];
  }
  channel_direction in_direction(node_id r, std::size_t q) const noexcept {
    return in_dir_[index(r, q)];
  }
  double bandwidth(node_id r, std::size_t o) const noexcept { return bandwidth_[index(r, o)]; }
  unsigned extra_latency(node_id r, std::size_t o) const noexcept { return latency_[index(r, o)]; }
  /// Whether every channel carries a flit per cycle.
  bool uniform_bandwidth() const noexcept { return uniform_bandwidth_; }
  unsigned max_extra_latency() const noexcept { return max_extra_latency_; }

  /// "node (1,2) input +X (travelling +X)"; with a node shape, the router's
  /// name and the port's follow the node.
  std::string describe(node_id r, std::size_t q, std::size_t local, std::size_t endpoints) const {
    std::string text = "node (";
    const auto c = torus_.coordinates_of(node_of(r));
    for (std::size_t d = 0; d < torus_.dimensions(); ++d)
      text += (d ? "," : "") + std::to_string(c[d]);
    text += ")";
    if (!names_[kind(r)].empty()) text += " " + names_[kind(r)];
    text += " input ";
    if (q >= local) {
      text += "local";
      if (endpoints > 1) text += " " + std::to_string(q - local);
      return text;
    }
    if (!port_names_.empty() && !port_names_[kind(r)][q].empty())
      return text + port_names_[kind(r)][q];
    const channel_direction dir = in_direction(r, q);
    if (!dir.between_nodes()) return text + "port " + std::to_string(q);
    const std::string name = std::string(dir.sign > 0 ? "+" : "-") +
                             dimension_name(static_cast<std::size_t>(dir.dimension));
    text += name + " (travelling " + name + ")";
    if (torus_.slices() > 1) text += " slice " + std::to_string(dir.slice);
    return text;
  }

  static char dimension_name(std::size_t d) {
    return static_cast<char>(d < 3 ? 'X' + static_cast<int>(d) : '0' + static_cast<int>(d));
  }

 private:
  std::size_t index(node_id r, std::size_t p) const noexcept {
    return static_cast<std::size_t>(r) * ports_ + p;
  }
  std::string count() const { return std::to_string(routers_); }
  std::string ports() const { return std::to_string(ports_); }

  torus_topology torus_;
  std::size_t per_node_ = 1, ports_ = 0;
  node_id routers_ = 0;
  std::vector<port_end> down_, up_;
  std::vector<channel_direction> out_dir_, in_dir_;
  std::vector<double> bandwidth_;
  std::vector<unsigned> latency_;
  std::vector<std::uint8_t> hosts_;
  std::vector<std::string> names_;
  std::vector<std::vector<std::string>> port_names_;
  bool uniform_bandwidth_ = true;
  unsigned max_extra_latency_ = 0;
};

/// The fabric a torus scheme's network runs on: one router per node.
inline fabric make_fabric(const torus_topology& t) { return fabric(t); }

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_FABRIC_HPP
