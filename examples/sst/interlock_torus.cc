// SPDX-License-Identifier: BSL-1.0
// examples/sst/interlock_torus.cc: interlock's torus routing as an SST Merlin topology
// (SST::Merlin::Topology, "interlock.torus"), deadlock-checked when the network is built.
//
// Routes are interlock's: dimension_order_routing (one dimension at a time,
// minimally, a tie at exactly k/2 by the topology's rule: + from an even
// ordinate; the SeaStar's dateline, the second VC from the wrap link on, or
// BookSim2's) or vc_promotion_routing (Anton 2: n + 1 VCs, any dimension
// orders). `orders = all` draws each packet's dimension order from every
// permutation, from a generator of the injecting router's own (seeded by
// `seed` and the router id), so results do not depend on how routers are
// spread over ranks or threads.
//
// Parameters (documented to sst-info through the ELI):
//   shape          the torus, "4x4x4" (1 to 8 dimensions, each 2..65535)
//   local_ports    endpoints per router: 1 (the only value supported)
//   width          links per dimension: "1x1x1" or absent (the only value supported)
//   routing        dimension_order (default) or vc_promotion
//   dateline       dimension_order's: seastar (default), booksim2, or none
//                  (one VC per VN: refused, with the cycle, on rings of five
//                  or more routers)
//   orders         xyz (default: dimension 0 first) or all
//   seed           the routers' generators (default 1)
//   age_period     AGE_CLK_PERIOD: gives every router an age clock for
//                  interlock.xbar_age (interlock_sst.h); with age_bias (one
//                  value 0..7 or one per port) and age_rr_select (age, rr,
//                  half or 0x...)
//
// Where things live. A packet enters at its router's host port
// (process_input): the route starts there, and the routing state rides in
// the packet's internal_router_event (topo_event, interlock_sst.h), which
// Merlin moves from router to router and serializes across ranks.
// route_packet runs once at each buffer head, takes the scheme's next hop
// and sets the next port and the VC the packet takes on the next link: VN v
// uses VCs v * V .. v * V + V - 1, V the scheme's VCs per class (Merlin's VNs
// are not interlock's traffic classes: every VN routes as the request class
// on VCs of its own). With an age clock it first runs Procedure 1 for a
// packet this router has not seen. Ports are interlock's numbering, which
// for width 1 is Merlin's: +d on port 2d, -d on port 2d + 1, the endpoint on
// 2n.
//
// Deadlock check. The first router of each process builds the channel
// dependency graph of the configured scheme (verify/channel_dependency_graph.hpp)
// and stops the simulation, printing the witness cycle, when it has one.
//
// Contract
//   - Bad parameters stop the simulation with a message naming the
//     parameter, its value and what is allowed.
//   - route_packet allocates nothing and is idempotent at a router (called
//     again, it gives the same hop).
#include <sst/core/sst_config.h>

#include <sst/core/output.h>
#include <sst/core/subcomponent.h>
#include <sst/elements/merlin/router.h>

#include "interlock_sst.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <interlock/core/random.hpp>
#include <interlock/routing/dimension_order.hpp>
#include <interlock/routing/vc_promotion.hpp>
#include <interlock/topology/torus.hpp>
#include <interlock/verify/cdg_report.hpp>
#include <interlock/verify/channel_dependency_graph.hpp>

namespace interlock_sst {

using SST::ComponentId_t;
using SST::Params;
using SST::Merlin::internal_router_event;
using SST::Merlin::RtrEvent;
using SST::Merlin::Topology;

class torus : public Topology {
 public:
  SST_ELI_REGISTER_SUBCOMPONENT(torus, "interlock", "torus", SST_ELI_ELEMENT_VERSION(0, 1, 0),
                                "A torus routed by interlock's dimension-order or VC-promotion "
                                "routing, deadlock-checked when the network is built",
                                SST::Merlin::Topology)
  SST_ELI_DOCUMENT_PARAMS(
      {"shape", "Routers per dimension, as 4x4x4", ""},
      {"local_ports", "Endpoints per router (only 1 is supported)", "1"},
      {"width", "Links per dimension (only 1x1x... is supported)", ""},
      {"dateline",
       "seastar (the second VC from the wrap link on), booksim2, or none "
       "(refused: a cycle on rings of five or more)",
       "seastar"},
      {"routing",
       "dimension_order (two VCs per VN, datelines by `dateline`) or vc_promotion "
       "(Anton 2: n + 1 VCs, any orders)",
       "dimension_order"},
      {"orders", "xyz (dimension 0 first) or all (each packet draws one of every order)", "xyz"},
      {"seed", "Seed of the routers' generators (each router draws from its own)", "1"},
      {"age_period",
       "AGE_CLK_PERIOD of every router's age clock, for interlock.xbar_age "
       "(absent: no age clock)",
       ""},
      {"age_bias", "The age bias of every input port, 0..7, or one per port as 1,1,2,...", "1"},
      {"age_rr_select", "AGE_RR_SELECT: age, rr, half or a hex mask 0x...", "age"})

  torus(ComponentId_t cid, Params& params, int num_ports, int rtr_id, int num_vns)
      : Topology(cid), router_(rtr_id), vns_(num_vns) {
    const std::string shape = params.find<std::string>("shape", "");
    std::vector<std::size_t> radix;
    {
      std::stringstream in(shape);
      for (std::string part; std::getline(in, part, 'x');) {
        char* end = nullptr;
        const unsigned long k = std::strtoul(part.c_str(), &end, 10);
        if (part.empty() || *end != '\0' || k < 2 || k > 65535)
          bad("shape", shape, "as 4x4x4, each 2..65535");
        radix.push_back(k);
      }
    }
    if (radix.empty() || radix.size() > 8) bad("shape", shape, "1 to 8 dimensions, as 4x4x4");
    const int local = params.find<int>("local_ports", 1);
    if (local != 1) bad("local_ports", std::to_string(local), "1");
    const std::string width = params.find<std::string>("width", "");
    if (!width.empty() && width.find_first_not_of("1x") != std::string::npos)
      bad("width", width, "1 in every dimension");
    const std::string dateline = params.find<std::string>("dateline", "seastar");
    interlock::dimension_order_options options;
    if (dateline == "booksim2") {
      options.rule = interlock::dateline_rule::booksim2;
    } else if (dateline == "none") {
      options.datelines = false;
    } else if (dateline != "seastar") {
      bad("dateline", dateline, "seastar, booksim2 or none");
    }
    const std::string orders = params.find<std::string>("orders", "xyz");
    if (orders != "xyz" && orders != "all") bad("orders", orders, "xyz or all");
    const std::uint64_t seed = params.find<std::uint64_t>("seed", 1);

    const std::string routing = params.find<std::string>("routing", "dimension_order");
    topology_ = std::make_unique<interlock::torus_topology>(radix);
    std::vector<interlock::dimension_sequence> sequences;
    if (orders == "all") sequences = interlock::all_dimension_orders(radix.size());
    if (routing == "dimension_order") {
      scheme_ = std::make_unique<std::variant<dor_scheme, promotion_scheme>>(
          std::in_place_type<dor_scheme>, *topology_, sequences, options);
    } else if (routing == "vc_promotion") {
      scheme_ = std::make_unique<std::variant<dor_scheme, promotion_scheme>>(
          std::in_place_type<promotion_scheme>, *topology_, sequences);
    } else {
      bad("routing", routing, "dimension_order or vc_promotion");
    }
    if (num_ports < static_cast<int>(topology_->ports()))
      bad("num_ports", std::to_string(num_ports),
          "at least " + std::to_string(topology_->ports()) + " for shape " + shape);
    if (rtr_id < 0 || static_cast<interlock::node_id>(rtr_id) >= topology_->node_count())
      bad("id", std::to_string(rtr_id), "0.." + std::to_string(topology_->node_count() - 1));
    ports_ = num_ports;
    rng_ = interlock::splitmix64(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(rtr_id));
    check_once(shape + "/" + routing + "/" + dateline + "/" + orders);
    if (params.contains("age_period")) configure_age(params);
  }
  torus() = default;

  // The state is rebuilt from the parameters; no checkpoint support is claimed.
  void serialize_order(SST::Core::Serialization::serializer& ser) override {
    Topology::serialize_order(ser);
  }
  void route_packet(int port, int, internal_router_event* ev) override {
    topo_event* e = static_cast<topo_event*>(ev);
    if (age_ && e->age_at != router_) {
      if (!age_->claimed) {
        output.fatal(CALL_INFO, -1,
                     "interlock.torus: age_period is set but the router's xbar_arb is not "
                     "interlock.xbar_age (nothing would release the age clock's packets)\n");
      }
      // Shown to this router only now, at the head of its input VC: Procedure 1
      // as on arrival (interlock_sst.h).
      e->age = age_->arrive(port, e->age, e->getDeliveryTime(), getCurrentSimCycle());
      e->age_at = router_;
    }
    route(e);
  }

  internal_router_event* process_input(RtrEvent* ev) override {
    topo_event* e = new topo_event(ev);
    start(e);
    if (age_) {  // entering the network: age 0, Procedure 1 now
      e->age = age_->arrive(static_cast<int>(topology_->local_port()), 0, getCurrentSimCycle(),
                            getCurrentSimCycle());
      e->age_at = router_;
    }
    e->setVC(e->getVN() * vcs_per_vn());
    return e;
  }

  void routeUntimedData(int port, internal_router_event* ev, std::vector<int>& out) override {
    if (ev->getDest() != SST::Interfaces::SimpleNetwork::INIT_BROADCAST_ADDR) {
      route(static_cast<topo_event*>(ev));
      out.push_back(ev->getNextPort());
      return;
    }
    // A broadcast spreads in + directions from its origin: along every dimension from the one it
    // arrived in, stopping before it would come back to the origin's ordinate.
    topo_event* e = static_cast<topo_event*>(ev);
    const interlock::node_id me = static_cast<interlock::node_id>(router_);
    std::size_t from = 0;
    for (std::size_t d = 0; d < topology_->dimensions(); ++d)
      if (port == static_cast<int>(topology_->port_of(d, -1))) from = d;
    for (std::size_t d = from; d < topology_->dimensions(); ++d) {
      const std::size_t next = (topology_->ordinate(me, d) + 1) % topology_->radix(d);
      if (next != topology_->ordinate(static_cast<interlock::node_id>(e->origin), d))
        out.push_back(static_cast<int>(topology_->port_of(d, +1)));
    }
    const int host = static_cast<int>(topology_->local_port());
    if (port != host) out.push_back(host);
  }

  internal_router_event* process_UntimedData_input(RtrEvent* ev) override {
    topo_event* e = new topo_event(ev);
    if (e->getDest() == SST::Interfaces::SimpleNetwork::INIT_BROADCAST_ADDR) {
      e->origin = router_;
    } else {
      start(e);
    }
    return e;
  }

  PortState getPortState(int port) const override {
    const int host = static_cast<int>(topology_->local_port());
    return port < host ? R2R : port == host ? R2N : UNCONNECTED;
  }

  void getVCsPerVN(std::vector<int>& vcs) override {
    for (int& v : vcs) v = vcs_per_vn();
  }

  int getEndpointID(int port) override { return isHostPort(port) ? router_ : -1; }

  std::pair<int, int> getDeliveryPortForEndpointID(int ep_id) override {
    return ep_id == router_ ? std::make_pair(static_cast<int>(topology_->local_port()), 0)
                            : std::make_pair(-1, -1);
  }

 private:
  [[noreturn]] void bad(const std::string& name, const std::string& value,
                        const std::string& allowed) {
    output.fatal(CALL_INFO, -1, "interlock.torus: parameter %s is \"%s\", allowed %s\n",
                 name.c_str(), value.c_str(), allowed.c_str());
    std::abort();
  }

  void configure_age(Params& params) {
    const std::uint64_t period = params.find<std::uint64_t>("age_period", 0);
    if (period < 1 || period > 0xFFFFFFFFull)
      bad("age_period", params.find<std::string>("age_period", ""), "1..4294967295");
    auto age = std::make_shared<router_age>(static_cast<std::uint32_t>(period));
    const std::string bias = params.find<std::string>("age_bias", "1");
    std::stringstream in(bias);
    for (std::string b; std::getline(in, b, ',');) {
      char* end = nullptr;
      const unsigned long v = std::strtoul(b.c_str(), &end, 10);
      if (b.empty() || *end != '\0' || v > 7) bad("age_bias", bias, "0..7, or one per port");
      age->bias.push_back(interlock::age_bias{static_cast<unsigned>(v), static_cast<unsigned>(v)});
    }
    if (age->bias.size() != 1 && age->bias.size() != topology_->ports())
      bad("age_bias", bias,
          "one value or " + std::to_string(topology_->ports()) + " (one per port)");
    const std::string select = params.find<std::string>("age_rr_select", "age");
    if (select == "age") {
      age->select = ~std::uint64_t{0};
    } else if (select == "rr") {
      age->select = 0;
    } else if (select == "half") {
      age->select = 0x5555555555555555ull;
    } else {
      char* end = nullptr;
      age->select = std::strtoull(select.c_str(), &end, 16);
      if (select.compare(0, 2, "0x") != 0 || select.size() < 3 || *end != '\0')
        bad("age_rr_select", select, "age, rr, half or a hex mask 0x...");
    }
    age_ = age;
    register_age(SST::COMPONENT_ID_MASK(getId()), age);
  }

  int vcs_per_vn() const {
    return std::visit([](const auto& s) { return static_cast<int>(s.vcs_per_class()); }, *scheme_);
  }

  void start(topo_event* e) {
    std::visit([&](const auto& scheme) { start(scheme, e); }, *scheme_);
  }
  void route(topo_event* e) {
    std::visit([&](const auto& scheme) { route(scheme, e); }, *scheme_);
  }

  template <class Scheme>
  void start(const Scheme& scheme, topo_event* e) {
    const interlock::node_id me = static_cast<interlock::node_id>(router_);
    const interlock::node_id dest = static_cast<interlock::node_id>(e->getDest());
    const typename Scheme::state s =
        scheme.start(me, dest, interlock::traffic_class::request, rng_);
    std::memcpy(e->state.data(), &s, sizeof s);
    e->at = -1;
  }

  template <class Scheme>
  void route(const Scheme& scheme, topo_event* e) {
    const interlock::node_id me = static_cast<interlock::node_id>(router_);
    if (e->at != -1 && e->at != router_) e->state = e->after;  // the hop the last router chose
    typename Scheme::state s;
    std::memcpy(&s, e->state.data(), sizeof s);
    if (scheme.arrived(me, s)) {
      e->setNextPort(static_cast<int>(topology_->local_port()));
      return;
    }
    const interlock::hop h = scheme.next(me, s);
    std::memcpy(e->after.data(), &s, sizeof s);
    e->at = router_;
    e->setNextPort(static_cast<int>(topology_->port_of(h)));
    e->setVC(e->getVN() * vcs_per_vn() + static_cast<int>(h.vc));
  }

  // The channel dependency graph, once per process and configuration.
  void check_once(const std::string& key) {
    static std::mutex mutex;
    static std::vector<std::string> checked;
    std::lock_guard<std::mutex> lock(mutex);
    for (const std::string& k : checked)
      if (k == key) return;
    const auto report = std::visit(
        [](const auto& s) { return interlock::verify::check_deadlock_freedom(s); }, *scheme_);
    if (!report.deadlock_free()) {
      output.fatal(CALL_INFO, -1,
                   "interlock.torus: the routes of %s can deadlock; a cycle of channel "
                   "dependencies:\n%s",
                   key.c_str(), interlock::verify::format_cycle(*topology_, report).c_str());
    }
    checked.push_back(key);
  }

  int router_ = -1, vns_ = 0, ports_ = 0;
  std::unique_ptr<interlock::torus_topology> topology_;
  std::unique_ptr<std::variant<dor_scheme, promotion_scheme>> scheme_;
  interlock::splitmix64 rng_{1};
  std::shared_ptr<router_age> age_;  // with age_period only

 public:
  ImplementSerializable(interlock_sst::torus)
};

}  // namespace interlock_sst
