// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_torus.cc: interlock's torus routing as an SST Merlin topology
// (SST::Merlin::Topology, "interlock.torus"), deadlock-checked when the network is built.
//
// Routes are interlock's: dimension_order_routing (one dimension at a time,
// minimally, a tie at exactly k/2 by the topology's rule: + from an even
// ordinate; the SeaStar's dateline, the second VC from the wrap link on, or
// BookSim2's), vc_promotion_routing (Anton 2: n + 1 VCs, any dimension
// orders) or direction_order_routing (the Cray T3E: +X +Y +Z -X -Y -Z with
// VC tables, time-of-crossing or optimized, and optionally its initial and
// final hops and long-way routes). `orders = all` draws each packet's
// dimension order from every permutation, and T3E routes with choices draw
// their route tag, from a generator of the injecting router's own (seeded by
// `seed` and the router id), so results do not depend on how routers are
// spread over ranks or threads. A dimension may be a line (wrap 0: Merlin's
// mesh wiring, merlin's topoMesh in Python).
//
// Parameters (documented to sst-info through the ELI):
//   shape          the torus, "4x4x4" (1 to 8 dimensions, each 2..65535)
//   wrap           per dimension 1 (a ring, default) or 0 (a line), as 1x0x1 or one value
//   local_ports    endpoints per router: 1 (the only value supported)
//   width          links per dimension: "1x1x1" or absent (the only value supported)
//   routing        dimension_order (default), vc_promotion or direction_order
//   dateline       dimension_order's: seastar (default), booksim2, or none
//                  (one VC per VN: refused, with the cycle, on rings of five
//                  or more routers)
//   orders         xyz (default: dimension 0 first) or all
//   vc_tables      direction_order's: toc (time of crossing, default) or optimized
//   t3e_routes     direction_order's: minimal (default) or a comma list of
//                  other_way, initial_hops, final_hop
//   seed           the routers' generators (default 1)
//   age_period     AGE_CLK_PERIOD: gives every router an age clock for
//                  interlock.xbar_age or an age output stage (interlock_sst.h);
//                  with age_bias (one value 0..7 or one per port) and
//                  age_rr_select (age, rr, half or 0x...). age_period=auto
//                  takes [Abts07] Section 3.2's period and per-dimension
//                  biases (age_tuning.hpp) for this network and the router's
//                  buffers, age_buffers=INPUT,STAGING,PACKET in flits
//   xbar_input, xbar_output, vc_priority, port_priority, iw_pattern
//                  interlock.xbar_separable's stages (interlock_separable.cc);
//                  iw_pattern is the traffic whose loads give the inverse
//                  weights (interlock_weights.h): a pattern of
//                  interlock_patterns.h, or two, one per VN, for labelled
//                  patterns (Anton 2's N = 2: a packet labelled with its VN)
//
// Where things live. A packet enters at its router's host port
// (process_input): the route starts there, and the routing state rides in
// the packet's internal_router_event (topo_event, interlock_sst.h), which
// Merlin moves from router to router and serializes across ranks.
// route_packet runs once at each buffer head, takes the scheme's next hop and
// sets the next port and the VC the packet takes on the next link: VN v uses
// VCs v * V .. v * V + V - 1, V the scheme's VCs per class (Merlin's VNs are
// not interlock's traffic classes: every VN routes as the request class on VCs
// of its own); the last hop, to the endpoint, leaves on VC = VN, the index at
// which Merlin's host port counts credits. With an age clock it first runs
// Procedure 1 for a packet this router has not seen. Ports are interlock's
// numbering, which for width 1 is Merlin's: +d on port 2d, -d on port 2d + 1,
// the endpoint on 2n; a line's end has its outward port unconnected.
//
// Shared per process. The routers of one configuration share one topology
// and routing scheme (and the loads behind inverse weights): the network of
// interlock_network.h, built and deadlock-checked by the first router of
// each process; a cycle stops the simulation, printing the witness. The age
// parameters are read by interlock_age_params.h, the inverse weights
// computed by interlock_weights.h.
//
// Contract
//   - Bad parameters stop the simulation with a message naming the
//     parameter, its value and what is allowed.
//   - route_packet allocates nothing and is idempotent at a router (called
//     again, it gives the same hop).
//   - Checkpointable: a checkpoint keeps the parameters and the state that
//     moves (the route choices' generator, the age clock with its tick log);
//     a restart rebuilds the router from the parameters and restores it.
#include <sst/core/sst_config.h>

#include <sst/core/output.h>
#include <sst/core/subcomponent.h>
#include <sst/elements/merlin/router.h>

#include "interlock_age_params.h"
#include "interlock_network.h"
#include "interlock_patterns.h"
#include "interlock_sst.h"
#include "interlock_weights.h"

#include <cinttypes>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/age_tuning.hpp>
#include <interlock/core/random.hpp>
#include <interlock/topology/torus.hpp>

namespace interlock_sst {

using SST::ComponentId_t;
using SST::Params;
using SST::Merlin::internal_router_event;
using SST::Merlin::RtrEvent;
using SST::Merlin::Topology;

class torus : public Topology {
 public:
  SST_ELI_REGISTER_SUBCOMPONENT(torus, "interlock", "torus", SST_ELI_ELEMENT_VERSION(0, 2, 0),
                                "A torus (or mesh) routed by interlock's dimension-order, "
                                "VC-promotion or T3E direction-order routing, deadlock-checked "
                                "when the network is built",
                                SST::Merlin::Topology)
  SST_ELI_IS_CHECKPOINTABLE()
  SST_ELI_DOCUMENT_PARAMS(
      {"shape", "Routers per dimension, as 4x4x4", ""},
      {"wrap",
       "Per dimension 1 (a ring) or 0 (a line, Merlin's mesh wiring), as 1x0x1 or one value", "1"},
      {"local_ports", "Endpoints per router (only 1 is supported)", "1"},
      {"width", "Links per dimension (only 1x1x... is supported)", ""},
      {"routing",
       "dimension_order (two VCs per VN, datelines by `dateline`), vc_promotion "
       "(Anton 2: n + 1 VCs, any orders) or direction_order (the Cray T3E: two VCs per VN from "
       "its VC tables)",
       "dimension_order"},
      {"dateline",
       "dimension_order's: seastar (the second VC from the wrap link on), booksim2, or none "
       "(refused: a cycle on rings of five or more)",
       "seastar"},
      {"orders", "xyz (dimension 0 first) or all (each packet draws one of every order)", "xyz"},
      {"vc_tables", "direction_order's VC tables: toc (time of crossing) or optimized", "toc"},
      {"t3e_routes",
       "direction_order's routes: minimal, or a comma list of other_way, initial_hops, final_hop "
       "(each packet draws its route tag)",
       "minimal"},
      {"seed", "Seed of the routers' generators (each router draws from its own)", "1"},
      {"age_period",
       "AGE_CLK_PERIOD of every router's age clock, for interlock.xbar_age or an age output "
       "stage, or auto ([Abts07] Section 3.2's methodology, with age_buffers; absent: no age "
       "clock)",
       ""},
      {"age_bias",
       "The age bias of every input port, 0..7, or one per port as 1,1,2,... (default 1, or with "
       "age_period=auto Section 3.2's bias of each port's dimension)",
       ""},
      {"age_buffers",
       "age_period=auto's router: per-VC input buffer, staging buffer and largest packet, in "
       "flits, as 128,128,8",
       ""},
      {"age_rr_select", "AGE_RR_SELECT: age, rr, half or a hex mask 0x...", "age"},
      {"xbar_input",
       "interlock.xbar_separable's VC arbiters: round_robin, priority or inverse_weighted "
       "(each input port's VCs weighted by their loads under iw_pattern)",
       "round_robin"},
      {"xbar_output",
       "interlock.xbar_separable's port arbiters: round_robin, priority, inverse_weighted or age",
       "round_robin"},
      {"vc_priority", "xbar_input=priority: one integer, or one per VC of a port, as 0,1", "0"},
      {"port_priority", "xbar_output=priority: one integer, or one per port, as 0,0,0,0,0,0,1",
       "0"},
      {"iw_pattern",
       "inverse_weighted stages: the traffic whose loads give the weights: uniform, tornado, "
       "reverse_tornado, bit_complement, transpose or all_to_one:N; or two of them, one per VN "
       "(routers of 2 VNs: a packet's pattern label is its VN), as tornado,reverse_tornado",
       "uniform"})

  torus(ComponentId_t cid, Params& params, int num_ports, int rtr_id, int num_vns)
      : Topology(cid), router_(rtr_id), vns_(num_vns), params_(params) {
    build(params, num_ports);
  }
  torus() = default;

  // A checkpoint keeps the parameters, and a restart builds the router from
  // them as the first run did; then the state that moved: the random
  // generator of route choices and the age clock with its tick log.
  void serialize_order(SST::Core::Serialization::serializer& ser) override {
    Topology::serialize_order(ser);
    SST_SER(router_);
    SST_SER(vns_);
    SST_SER(ports_);
    SST_SER(params_);
    std::uint64_t rng_state = rng_.state();
    SST_SER(rng_state);
    if (ser.mode() == SST::Core::Serialization::serializer::UNPACK) {
      build(params_, ports_);
      rng_ = interlock::splitmix64(rng_state);
    }
    if (age_) age_->serialize(ser, "interlock.torus");
  }

 private:
  // The router from its parameters (the constructor's, and a restart's).
  void build(Params& params, int num_ports) {
    try {
      net_ = network_from(params);
    } catch (const bad_parameter& e) {
      bad(e.name, e.value, e.allowed);
    } catch (const deadlock_found& e) {
      output.fatal(CALL_INFO, -1,
                   "interlock.torus: the routes of %s can deadlock; a cycle of channel "
                   "dependencies:\n%s",
                   e.key.c_str(), e.witness.c_str());
    }
    topology_ = net_->topology.get();
    scheme_ = net_->scheme.get();
    vcs_per_vn_ =
        std::visit([](const auto& s) { return static_cast<int>(s.vcs_per_class()); }, *scheme_);
    if (num_ports < static_cast<int>(topology_->ports()))
      bad("num_ports", std::to_string(num_ports),
          "at least " + std::to_string(topology_->ports()) + " for shape " +
              params.find<std::string>("shape", ""));
    if (router_ < 0 || static_cast<interlock::node_id>(router_) >= topology_->node_count())
      bad("id", std::to_string(router_), "0.." + std::to_string(topology_->node_count() - 1));
    ports_ = num_ports;
    const std::uint64_t seed = params.find<std::uint64_t>("seed", 1);
    rng_ =
        interlock::splitmix64(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(router_));
    context_ = std::make_shared<router_context>();
    if (params.contains("age_period")) configure_age(params);
    configure_xbar(params);
    register_router(SST::COMPONENT_ID_MASK(getId()), context_);
  }

 public:
  void route_packet(int port, int, internal_router_event* ev) override {
    topo_event* e = static_cast<topo_event*>(ev);
    if (age_ && e->age_at != router_) {
      if (!age_->claimed) {
        output.fatal(CALL_INFO, -1,
                     "interlock.torus: age_period is set but the router's xbar_arb is neither "
                     "interlock.xbar_age nor interlock.xbar_separable with xbar_output=age "
                     "(nothing would release the age clock's packets)\n");
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
    // A broadcast spreads from its origin along a spanning tree: it goes on
    // in the dimension and direction it travels, and branches into every
    // later dimension (+ on a ring, stopping before the origin's ordinate;
    // both ways on a line, stopping at the ends).
    topo_event* e = static_cast<topo_event*>(ev);
    const interlock::node_id me = static_cast<interlock::node_id>(router_);
    const interlock::node_id origin = static_cast<interlock::node_id>(e->origin);
    std::size_t from = 0;
    int travel = 0;  // 0: from the endpoint
    for (std::size_t d = 0; d < topology_->dimensions(); ++d) {
      if (port == static_cast<int>(topology_->port_of(d, -1))) from = d, travel = +1;
      if (port == static_cast<int>(topology_->port_of(d, +1))) from = d, travel = -1;
    }
    for (std::size_t d = from; d < topology_->dimensions(); ++d) {
      const std::size_t x = topology_->ordinate(me, d), k = topology_->radix(d);
      for (int sign : {+1, -1}) {
        if (travel != 0 && d == from && sign != travel) continue;
        if (topology_->wraps(d) ? sign < 0 || (x + 1) % k == topology_->ordinate(origin, d)
                                : (sign > 0 ? x + 1 == k : x == 0))
          continue;
        out.push_back(static_cast<int>(topology_->port_of(d, sign)));
      }
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
    if (port == host) return R2N;
    if (port > host || port < 0) return UNCONNECTED;
    const interlock::port_ref p = topology_->port_info(static_cast<std::size_t>(port));
    const bool line_end =
        !topology_->wraps(p.dimension) &&
        topology_->is_wrap_hop(static_cast<interlock::node_id>(router_), p.dimension, p.sign);
    return line_end ? UNCONNECTED : R2R;
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

  std::vector<std::int64_t> integers(Params& params, const std::string& name,
                                     const std::string& allowed) {
    const std::string text = params.find<std::string>(name, "0");
    std::vector<std::int64_t> values;
    for (const std::string& v : split_list(text, ',')) {
      char* end = nullptr;
      const long long x = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0') bad(name, text, allowed);
      values.push_back(x);
    }
    return values;
  }

  // The router's age clock (interlock_age_params.h); router 0 prints
  // age_period=auto's recommendation once.
  void configure_age(Params& params) {
    interlock::age_tuning::age_clock_recommendation r{};
    try {
      age_ = router_age_from(params, *topology_, static_cast<unsigned>(vcs_per_vn()), &r);
    } catch (const bad_parameter& e) {
      bad(e.name, e.value, e.allowed);
    }
    if (router_ == 0 && params.find<std::string>("age_period", "") == "auto")
      output.output("interlock.torus: age_period=auto: AGE_CLK_PERIOD %" PRIu32
                    " ([Abts07] Section 3.2: %u hops, %u age ticks and %u cycles of "
                    "queueing per hop)\n",
                    r.age_clk_period, r.hops, r.whole_age_ticks_per_hop, r.queueing_cycles_per_hop);
    context_->age = age_;
  }

  // interlock.xbar_separable's stages (interlock_separable.cc).
  void configure_xbar(Params& params) {
    using stage = separable_config::stage;
    separable_config& x = context_->xbar;
    const std::string input = params.find<std::string>("xbar_input", "round_robin");
    if (input == "priority") {
      x.input = stage::priority;
      x.vc_priority = integers(params, "vc_priority", "integers, one or one per VC, as 0,1");
      const std::size_t vcs = static_cast<std::size_t>(vns_ * vcs_per_vn_);
      if (x.vc_priority.size() != 1 && x.vc_priority.size() != vcs)
        bad("vc_priority", params.find<std::string>("vc_priority", ""),
            "one value or " + std::to_string(vcs) + " (one per VC of a port)");
    } else if (input == "inverse_weighted") {
      x.input = stage::inverse_weighted;
    } else if (input != "round_robin") {
      bad("xbar_input", input, "round_robin, priority or inverse_weighted");
    }
    const std::string output_stage = params.find<std::string>("xbar_output", "round_robin");
    if (output_stage == "priority") {
      x.output = stage::priority;
      x.port_priority = integers(params, "port_priority", "integers, one or one per port");
      if (x.port_priority.size() != 1 && x.port_priority.size() != static_cast<std::size_t>(ports_))
        bad("port_priority", params.find<std::string>("port_priority", ""),
            "one value or " + std::to_string(ports_) + " (one per port)");
    } else if (output_stage == "inverse_weighted") {
      x.output = stage::inverse_weighted;
    } else if (output_stage == "age") {
      if (!age_) bad("xbar_output", output_stage, "age only with age_period (the age clock)");
      x.output = stage::age;
    } else if (output_stage != "round_robin") {
      bad("xbar_output", output_stage, "round_robin, priority, inverse_weighted or age");
    }
    if (x.input != stage::inverse_weighted && x.output != stage::inverse_weighted) return;
    const std::string iw = params.find<std::string>("iw_pattern", "uniform");
    const weight_router r{*topology_,
                          *scheme_,
                          static_cast<interlock::node_id>(router_),
                          static_cast<std::size_t>(ports_),
                          static_cast<std::size_t>(vns_),
                          static_cast<std::size_t>(vcs_per_vn_)};
    try {
      program_weights(x, iw_patterns(iw, r), r, net_->weights);
    } catch (const std::invalid_argument& e) {
      bad("iw_pattern", iw, e.what());
    }
  }

  int vcs_per_vn() const { return vcs_per_vn_; }

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
      // Merlin's port to an endpoint checks a packet's credits by its VN and
      // subtracts them by its VC (and the endpoint returns them by VN): the
      // packet leaves on VC = VN, the index all three use.
      e->setVC(e->getVN());
      return;
    }
    const interlock::hop h = scheme.next(me, s);
    std::memcpy(e->after.data(), &s, sizeof s);
    e->at = router_;
    e->setNextPort(static_cast<int>(topology_->port_of(h)));
    e->setVC(e->getVN() * vcs_per_vn() + static_cast<int>(h.vc));
  }

  int router_ = -1, vns_ = 0, ports_ = 0, vcs_per_vn_ = 0;
  Params params_;  // what build() reads, kept for a restart
  std::shared_ptr<network> net_;
  const interlock::torus_topology* topology_ = nullptr;
  const scheme_variant* scheme_ = nullptr;
  interlock::splitmix64 rng_{1};
  std::shared_ptr<router_context> context_;
  std::shared_ptr<router_age> age_;  // with age_period only

 public:
  ImplementSerializable(interlock_sst::torus)
};

}  // namespace interlock_sst
