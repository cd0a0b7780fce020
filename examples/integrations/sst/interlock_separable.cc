// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_separable.cc: separable input-first allocation with the
// arbiter of each stage chosen by parameter, as SST Merlin crossbar arbitration
// ("interlock.xbar_separable").
//
// Each cycle every free input port offers one VC whose head can go (its VC
// arbiter, the input stage); each output port grants one of the input ports
// offering it (its port arbiter, the output stage); a grant is always used
// (an input offers one output only), and both arbiters move only then. With
// round robin in both stages this is interlock.xbar_rr, decision for
// decision (examples/integrations/sst/sst-element --check compares them).
//
// hr_router gives crossbar arbitration no parameters, so the stages come
// from interlock.torus, the router's topology (router_context in
// interlock_sst.h):
//
//   xbar_input     round_robin (default: Anton 2's thermometer order),
//                  priority (integer_priority_arbiter: the VC with the
//                  highest vc_priority, ties round robin) or
//                  inverse_weighted (each VC weighted by its load into the
//                  port under iw_pattern)
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
// The input stage's inverse weights (xbar_input=inverse_weighted) weigh a
// port's VCs by the load each carries into that port under iw_pattern
// (router_input_loads, as netsim's --input-arbiter inverse_weighted does for
// the model): a VC whose flows carry more gets its turns in proportion.
// With two patterns in iw_pattern (one per VN) both stages are
// inverse_weighted_arbiter<64, 2, 8>, Anton 2's labelled patterns: a packet
// is labelled with its VN, and label n's weights are pattern n's loads
// ([Towles14] Eq. 3-5: any blend of the two is served in proportion to its
// loads without the arbiter knowing the blend).
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
//   - Checkpointable: a restart takes the stages from interlock.torus again
//     (restored first) and every arbiter's state from the checkpoint
//     (interlock's save and restore, core/state_io.hpp).
#include <sst/core/sst_config.h>

#include <sst/core/output.h>
#include <sst/core/subcomponent.h>
#include <sst/elements/merlin/router.h>

#include "interlock_separable.h"
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

class xbar_separable : public XbarArbitration {
 public:
  SST_ELI_REGISTER_SUBCOMPONENT(xbar_separable, "interlock", "xbar_separable",
                                SST_ELI_ELEMENT_VERSION(0, 1, 0),
                                "Separable input-first allocation, each stage's arbiter chosen by "
                                "interlock.torus's xbar_input (round_robin, priority) and "
                                "xbar_output (round_robin, priority, inverse_weighted, age)",
                                SST::Merlin::XbarArbitration)
  SST_ELI_IS_CHECKPOINTABLE()
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
    // interlock.torus validated the configuration for this router's ports and VCs.
    if (c.input == separable_config::stage::priority) {
      input_.emplace<priority_stage>(ports, c.vc_priority);
    } else if (c.input == separable_config::stage::inverse_weighted) {
      if (c.labelled_input_weights.empty())
        input_.emplace<inverse_weighted_stage<1>>(c.input_weights);
      else
        input_.emplace<inverse_weighted_stage<2>>(c.labelled_input_weights);
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
        if (c.labelled_weights.empty())
          output_.emplace<inverse_weighted_stage<1>>(c.weights);
        else
          output_.emplace<inverse_weighted_stage<2>>(c.labelled_weights);
        break;
      case separable_config::stage::age:
        context_->age->claimed = true;
        output_.emplace<age_stage>(ports, context_->age);
        break;
    }
    allocation_.set(num_ports, num_vcs);
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
          if constexpr (std::is_same<std::decay_t<decltype(out)>, age_stage>::value)
            stats_.tick(*out.age, getCurrentSimCycle());
          allocation_.run(in, out, ports, in_port_busy, out_port_busy, progress_vc);
        },
        input_, output_);
  }

  void serialize_order(SST::Core::Serialization::serializer& ser) override {
    XbarArbitration::serialize_order(ser);
    int ports = allocation_.ports(), vcs = allocation_.vcs();
    SST_SER(ports);
    SST_SER(vcs);
    stats_.serialize(ser);
    if (ser.mode() == SST::Core::Serialization::serializer::UNPACK) {
      context_ = find_router(SST::COMPONENT_ID_MASK(getId()));
      setPorts(ports, vcs);
    }
    const auto stage = [&](auto& s) {
      for (auto& a : s.arb) serialize_state(ser, a, "interlock.xbar_separable");
    };
    std::visit(stage, input_);
    std::visit(stage, output_);
  }

  void dumpState(std::ostream& stream) override {
    stream << "interlock.xbar_separable: input stage " << input_.index() << ", output stage "
           << output_.index() << ", " << allocation_.ports() << " ports, " << allocation_.vcs()
           << " VCs" << std::endl;
  }

 private:
  std::shared_ptr<router_context> context_;
  age_statistics stats_;
  std::variant<rr_stage, priority_stage, inverse_weighted_stage<1>, inverse_weighted_stage<2>>
      input_{std::in_place_type<rr_stage>, 0};
  std::variant<rr_stage, priority_stage, inverse_weighted_stage<1>, inverse_weighted_stage<2>,
               age_stage>
      output_{std::in_place_type<rr_stage>, 0};
  separable_allocation allocation_;

 public:
  ImplementSerializable(interlock_sst::xbar_separable)
};

}  // namespace interlock_sst
