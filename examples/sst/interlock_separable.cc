// SPDX-License-Identifier: BSL-1.0
// examples/sst/interlock_separable.cc: separable input-first allocation with the arbiter of
// each stage chosen by parameter, as SST Merlin crossbar arbitration ("interlock.xbar_separable").
//
// Each cycle every free input port offers one VC whose head can go (its VC
// arbiter, the input stage); each output port grants one of the input ports
// offering it (its port arbiter, the output stage); a grant is always used
// (an input offers one output only), and both arbiters move only then. With
// round robin in both stages this is interlock.xbar_rr, decision for
// decision (scripts/sst-element --check compares them).
//
// hr_router gives crossbar arbitration no parameters, so the stages come
// from interlock.torus, the router's topology (router_context in
// interlock_sst.h):
//
//   xbar_input     round_robin (default: Anton 2's thermometer order) or
//                  priority (integer_priority_arbiter: the VC with the
//                  highest vc_priority, ties round robin)
//   xbar_output    round_robin (default), priority (the input port with the
//                  highest port_priority, ties round robin),
//                  inverse_weighted ([Towles14]: inverse_weighted_arbiter<64,
//                  1, 8>, each input port weighted by the load interlock's
//                  loads give it at this output for iw_pattern under the
//                  configured routing, through interlock's port numbering,
//                  which is Merlin's), or age (the SeaStar's
//                  age_epoch_arbiter over the offered heads, with
//                  interlock.torus's age clock: give age_period)
//
// The input stage has no inverse-weighted choice: its requesters are a
// port's VCs, whose heads go to a different output packet by packet, while
// [Towles14]'s weights belong to an output's inputs (the load of each flow
// into the output). BookSim2's input arbiters choose between outputs, so the
// BookSim2 adapter offers both (examples/booksim2).
//
// Contract
//   - Up to 64 ports and 64 VCs per port; setPorts stops the simulation
//     with an error naming the count otherwise, and without interlock.torus
//     as the topology (nothing would configure the stages).
//   - arbitrate allocates nothing and dispatches once per call (std::visit
//     over the two stages), not per decision.
//   - An age output stage ticks the router's age clock at every edge, moves
//     the age statistics, writes Procedure 2's age into a granted packet's
//     header, and lets the router stop its clock only when no packet is
//     counted in either epoch (as interlock.xbar_age does).
//   - The state is not checkpointed (no SST_ELI_IS_CHECKPOINTABLE).
#include <sst/core/sst_config.h>

#include <sst/core/output.h>
#include <sst/core/subcomponent.h>
#include <sst/elements/merlin/router.h>

#include "interlock_sst.h"

#include <array>
#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/integer_priority.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/round_robin.hpp>

namespace interlock_sst {

using SST::ComponentId_t;
using SST::Params;
using SST::Merlin::internal_router_event;
using SST::Merlin::PortInterface;
using SST::Merlin::XbarArbitration;

namespace {

// A stage: one arbiter per port, and how a mask of requesters becomes that
// arbiter's request. `head(i)` is requester i's packet.

struct rr_stage {
  std::vector<interlock::round_robin_arbiter<64>> arb;
  explicit rr_stage(std::size_t ports) : arb(ports) {}
  template <class Head>
  std::uint64_t requests(std::size_t, std::uint64_t mask, Head&&) {
    return mask;
  }
  void granted(topo_event*) {}
};

struct priority_stage {
  std::vector<interlock::integer_priority_arbiter<64>> arb;
  std::vector<std::int64_t> priority;  // per requester
  priority_stage(std::size_t ports, std::vector<std::int64_t> p)
      : arb(ports), priority(std::move(p)) {}
  template <class Head>
  interlock::integer_requests<64> requests(std::size_t, std::uint64_t mask, Head&&) const {
    interlock::integer_requests<64> r;
    for (std::uint64_t x = mask; x != 0; x &= x - 1) {
      const std::size_t i = interlock::bits::lowest_index(x);
      r.set(i, priority.size() == 1 ? priority[0] : priority[i]);
    }
    return r;
  }
  void granted(topo_event*) {}
};

struct inverse_weighted_stage {
  using arbiter = interlock::inverse_weighted_arbiter<64, 1, 8>;
  std::vector<arbiter> arb;
  std::array<std::uint8_t, 64> labels{};  // one pattern: every packet's label is 0
  explicit inverse_weighted_stage(
      const std::vector<std::shared_ptr<const arbiter::table_type>>& w) {
    arb.reserve(w.size());
    for (const auto& table : w) arb.emplace_back(table);
  }
  template <class Head>
  interlock::pattern_requests requests(std::size_t, std::uint64_t mask, Head&&) const {
    return interlock::pattern_requests{mask, interlock::span<const std::uint8_t>(labels)};
  }
  void granted(topo_event*) {}
};

struct age_stage {
  std::vector<interlock::age_epoch_arbiter<64>> arb;
  interlock::age_heads<64> heads;
  std::shared_ptr<router_age> age;
  age_stage(std::size_t ports, std::shared_ptr<router_age> a)
      : arb(ports, interlock::age_epoch_arbiter<64>(a->select)), age(std::move(a)) {}
  template <class Head>
  interlock::age_requests requests(std::size_t, std::uint64_t mask, Head&& head) {
    for (std::uint64_t x = mask; x != 0; x &= x - 1) {
      const std::size_t i = interlock::bits::lowest_index(x);
      heads.set(i, interlock::age_field::from_bits(head(i)->age));
    }
    return heads.requests(mask, age->clock);
  }
  // Procedure 2 lines 13-14: the age leaves in the header; the epoch lets it go.
  void granted(topo_event* e) {
    e->age = interlock::send_packet(interlock::age_field::from_bits(e->age), age->clock).bits();
    e->age_at = -1;
  }
};

}  // namespace

class xbar_separable : public XbarArbitration {
 public:
  SST_ELI_REGISTER_SUBCOMPONENT(xbar_separable, "interlock", "xbar_separable",
                                SST_ELI_ELEMENT_VERSION(0, 1, 0),
                                "Separable input-first allocation, each stage's arbiter chosen by "
                                "interlock.torus's xbar_input (round_robin, priority) and "
                                "xbar_output (round_robin, priority, inverse_weighted, age)",
                                SST::Merlin::XbarArbitration)
  SST_ELI_DOCUMENT_STATISTICS(INTERLOCK_SST_AGE_STATISTICS)

  xbar_separable() = default;
  xbar_separable(ComponentId_t id, Params&) : XbarArbitration(id) {
    context_ = find_router(SST::COMPONENT_ID_MASK(id));
    if (context_ && context_->xbar.output == separable_config::stage::age) {
      stats_.epoch_switches = registerStatistic<std::uint64_t>("epoch_switches");
      stats_.inhibited_ticks = registerStatistic<std::uint64_t>("inhibited_ticks");
      stats_.late_admissions = registerStatistic<std::uint64_t>("late_admissions");
    }
  }

  void setPorts(int num_ports, int num_vcs) override {
    check_shape("interlock.xbar_separable", num_ports, num_vcs);
    if (!context_)
      refuse(
          "interlock.xbar_separable needs interlock.torus as the router's topology (its "
          "xbar_input and xbar_output parameters choose the stages)");
    const separable_config& c = context_->xbar;
    const std::size_t ports = static_cast<std::size_t>(num_ports);
    ports_ = num_ports;
    vcs_ = num_vcs;
    if (c.input == separable_config::stage::priority) {
      if (c.vc_priority.size() != 1 && c.vc_priority.size() != static_cast<std::size_t>(num_vcs))
        refuse("interlock.torus: vc_priority has " + std::to_string(c.vc_priority.size()) +
               " values; allowed 1 or " + std::to_string(num_vcs) + " (one per VC of a port)");
      input_.emplace<priority_stage>(ports, c.vc_priority);
    } else {
      input_.emplace<rr_stage>(ports);
    }
    switch (c.output) {
      case separable_config::stage::round_robin:
        output_.emplace<rr_stage>(ports);
        break;
      case separable_config::stage::priority:
        output_.emplace<priority_stage>(ports, c.port_priority);
        break;
      case separable_config::stage::inverse_weighted:
        if (c.weights.size() != ports)
          refuse("interlock.xbar_separable: " + std::to_string(num_ports) +
                 " ports, inverse weights for " + std::to_string(c.weights.size()));
        output_.emplace<inverse_weighted_stage>(c.weights);
        break;
      case separable_config::stage::age:
        context_->age->claimed = true;
        output_.emplace<age_stage>(ports, context_->age);
        break;
    }
    offer_.assign(ports, -1);
    offered_to_.assign(ports, 0);
  }

  bool isOkayToPauseClock() override {
    age_stage* a = std::get_if<age_stage>(&output_);
    if (a == nullptr) return true;
    stats_.tick(*a->age, getCurrentSimCycle());
    return a->age->may_pause();
  }

  void arbitrate(PortInterface** ports, int* in_port_busy, int* out_port_busy,
                 int* progress_vc) override {
    std::visit(
        [&](auto& in, auto& out) {
          allocate(in, out, ports, in_port_busy, out_port_busy, progress_vc);
        },
        input_, output_);
  }

  void dumpState(std::ostream& stream) override {
    stream << "interlock.xbar_separable: input stage " << input_.index() << ", output stage "
           << output_.index() << ", " << ports_ << " ports, " << vcs_ << " VCs" << std::endl;
  }

 private:
  template <class In, class Out>
  void allocate(In& in, Out& out, PortInterface** ports, int* in_port_busy, int* out_port_busy,
                int* progress_vc) {
    if constexpr (std::is_same<Out, age_stage>::value) stats_.tick(*out.age, getCurrentSimCycle());
    for (int port = 0; port < ports_; ++port) {
      const std::size_t p = static_cast<std::size_t>(port);
      progress_vc[port] = -1;
      offer_[p] = -1;
      offered_to_[p] = 0;
    }
    // Input stage: each free input port offers one VC whose head can go.
    for (int port = 0; port < ports_; ++port) {
      const std::size_t p = static_cast<std::size_t>(port);
      if (in_port_busy[port] > 0) continue;
      internal_router_event** heads = ports[port]->getVCHeads();
      std::uint64_t ready = 0;
      for (int vc = 0; vc < vcs_; ++vc)
        if (can_go(ports, heads[vc], out_port_busy)) ready |= std::uint64_t{1} << vc;
      if (ready == 0) continue;
      const auto r =
          in.requests(p, ready, [&](std::size_t vc) { return head_of(ports, port, vc); });
      const interlock::grant g = in.arb[p].arbitrate(r);
      offer_[p] = static_cast<int>(g.index());
      offered_to_[static_cast<std::size_t>(heads[g.index()]->getNextPort())] |= std::uint64_t{1}
                                                                                << port;
      input_request_[p] = ready;
    }
    // Output stage: each output port grants one of the input ports offering it.
    for (int o = 0; o < ports_; ++o) {
      const std::size_t op = static_cast<std::size_t>(o);
      const std::uint64_t inputs = offered_to_[op];
      if (inputs == 0) continue;
      const auto r = out.requests(op, inputs, [&](std::size_t input) {
        return head_of(ports, static_cast<int>(input), offer_[input]);
      });
      const interlock::grant g = out.arb[op].grant(r);
      const std::size_t i = g.index();
      const int vc = offer_[i];
      // The input's grant is used: its arbiter moves, on the request it decided.
      const auto ri = in.requests(i, input_request_[i], [&](std::size_t v) {
        return head_of(ports, static_cast<int>(i), static_cast<int>(v));
      });
      in.arb[i].commit(interlock::grant(static_cast<std::size_t>(vc)), ri);
      topo_event* head = head_of(ports, static_cast<int>(i), vc);
      out.granted(head);
      progress_vc[i] = vc;
      in_port_busy[i] = head->getFlitCount();
      out_port_busy[o] = head->getFlitCount();
    }
  }

  static topo_event* head_of(PortInterface** ports, int port, std::size_t vc) {
    return static_cast<topo_event*>(ports[port]->getVCHeads()[vc]);
  }
  static topo_event* head_of(PortInterface** ports, int port, int vc) {
    return head_of(ports, port, static_cast<std::size_t>(vc));
  }

  std::shared_ptr<router_context> context_;
  age_statistics stats_;
  int ports_ = 0, vcs_ = 0;
  std::variant<rr_stage, priority_stage> input_{std::in_place_type<rr_stage>, 0};
  std::variant<rr_stage, priority_stage, inverse_weighted_stage, age_stage> output_{
      std::in_place_type<rr_stage>, 0};
  std::vector<int> offer_;                         // per input port: the VC it offers, or -1
  std::vector<std::uint64_t> offered_to_;          // per output port: the inputs offering it
  std::array<std::uint64_t, 64> input_request_{};  // per input port: its ready VCs

 public:
  ImplementSerializable(interlock_sst::xbar_separable)
};

}  // namespace interlock_sst
