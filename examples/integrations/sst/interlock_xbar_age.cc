// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_xbar_age.cc: the SeaStar's age arbitration as SST Merlin
// crossbar arbitration (SST::Merlin::XbarArbitration) for hr_router ("interlock.xbar_age").
//
// [Abts07] Section 2: an age_epoch_arbiter<64> per output port over every
// (input port, VC) head bound for it, oldest first by Procedure 2 against
// the router's age clock, AGE_RR_SELECT mixing in its round robin; outputs
// take turns in an order rotating each cycle, an input port sends one packet
// at a time. Needs interlock.torus with age_period as the router's topology,
// which keeps the ages in the packets and the clock (interlock_sst.h). A
// granted packet leaves with Procedure 2's age in its header. The clock
// ticks at every router cycle; an idle router (no packet in either epoch)
// may stop its clock and the skipped cycles are caught up from the time.
//
// Contract
//   - Up to 64 ports and 64 VCs per port (the round-robin state is one 64-bit
//     word); setPorts stops the simulation with an error naming the count
//     otherwise.
//   - A head can go when its output port is not being written
//     (out_port_busy), its input port is not being read (in_port_busy), and
//     the output port has credits for the packet's flits (Merlin moves whole
//     packets across its crossbar, counting credits in flits).
//   - Up to 64 heads per output (ports x VCs); setPorts refuses more, and a
//     router without interlock.torus's age clock.
//   - arbitrate allocates nothing.
//   - Checkpointable: the age arbiters' states through interlock's save and
//     restore (core/state_io.hpp), and the age clock through
//     interlock.torus, which a restart rebuilds first.
#include <sst/core/sst_config.h>

#include <sst/core/output.h>
#include <sst/core/subcomponent.h>
#include <sst/elements/merlin/router.h>

#include "interlock_sst.h"

#include <cstdint>
#include <memory>
#include <vector>

#include <interlock/arbiters/age_epoch.hpp>

namespace interlock_sst {

using SST::ComponentId_t;
using SST::Params;
using SST::Merlin::internal_router_event;
using SST::Merlin::PortInterface;
using SST::Merlin::XbarArbitration;

/// The SeaStar's output arbitration: oldest first, per output port.
class xbar_age : public XbarArbitration {
 public:
  SST_ELI_REGISTER_SUBCOMPONENT(xbar_age, "interlock", "xbar_age", SST_ELI_ELEMENT_VERSION(0, 1, 0),
                                "The SeaStar's age-epoch output arbitration (an age_epoch_arbiter "
                                "per output port over every input VC head); needs interlock.torus "
                                "with age_period",
                                SST::Merlin::XbarArbitration)
  SST_ELI_IS_CHECKPOINTABLE()

  SST_ELI_DOCUMENT_STATISTICS(INTERLOCK_SST_AGE_STATISTICS)

  xbar_age() = default;
  xbar_age(ComponentId_t id, Params&) : XbarArbitration(id) {
    stats_.epoch_switches = registerStatistic<std::uint64_t>("epoch_switches");
    stats_.inhibited_ticks = registerStatistic<std::uint64_t>("inhibited_ticks");
    stats_.late_admissions = registerStatistic<std::uint64_t>("late_admissions");
  }

  void setPorts(int num_ports, int num_vcs) override {
    check_shape("interlock.xbar_age", num_ports, num_vcs);
    if (num_ports * num_vcs > 64) {
      SST::Output out("", 0, 0, SST::Output::STDERR);
      out.fatal(CALL_INFO, -1,
                "interlock.xbar_age: %d ports x %d VCs = %d heads per output; allowed up to 64\n",
                num_ports, num_vcs, num_ports * num_vcs);
    }
    const std::shared_ptr<router_context> context = find_router(SST::COMPONENT_ID_MASK(getId()));
    age_ = context ? context->age : nullptr;
    if (!age_) {
      SST::Output out("", 0, 0, SST::Output::STDERR);
      out.fatal(CALL_INFO, -1,
                "interlock.xbar_age needs interlock.torus with age_period as the router's "
                "topology (it keeps the packets' ages and the age clock)\n");
    }
    age_->claimed = true;
    ports_ = num_ports;
    vcs_ = num_vcs;
    arb_.assign(static_cast<std::size_t>(num_ports),
                interlock::age_epoch_arbiter<64>(age_->select));
    bound_.assign(static_cast<std::size_t>(num_ports), 0);
  }

  // The age clock ticks at every edge of the router's clock: in arbitrate
  // when the router has packets, here when it has none and asks whether it
  // may stop its clock (only with no packet in either epoch). Edges it sleeps
  // through are caught up from the time (router_age::catch_up), so
  // reportSkippedCycles has nothing to do.
  bool isOkayToPauseClock() override {
    tick();
    return age_->may_pause();
  }

  void arbitrate(PortInterface** ports, int* in_port_busy, int* out_port_busy,
                 int* progress_vc) override {
    tick();
    // One pass over the heads: each that can go joins its output's candidates
    // (an output becomes busy only at its own turn below, and credits do not
    // change within the decision).
    std::uint64_t outputs = 0;  // the outputs with candidates
    for (int port = 0; port < ports_; ++port) {
      progress_vc[port] = -1;
      if (in_port_busy[port] > 0) continue;
      internal_router_event** heads = ports[port]->getVCHeads();
      for (std::uint64_t x = ready_vcs(ports, port, vcs_, out_port_busy); x != 0; x &= x - 1) {
        const std::size_t vc = interlock::bits::lowest_index(x);
        const std::size_t i = static_cast<std::size_t>(port * vcs_) + vc;
        const std::size_t out = static_cast<std::size_t>(heads[vc]->getNextPort());
        bound_[out] |= std::uint64_t{1} << i;
        outputs |= std::uint64_t{1} << out;
        heads_.set(i, interlock::age_field::from_bits(static_cast<topo_event*>(heads[vc])->age));
      }
    }
    // The outputs take their turns from first_ up, wrapping.
    const std::uint64_t below = interlock::bits::low_mask(static_cast<std::size_t>(first_));
    const std::uint64_t port_vcs = interlock::bits::low_mask(static_cast<std::size_t>(vcs_));
    std::uint64_t taken = 0;  // the VCs of input ports granted this cycle
    for (std::uint64_t turn : {outputs & ~below, outputs & below}) {
      for (; turn != 0; turn &= turn - 1) {
        const std::size_t out = interlock::bits::lowest_index(turn);
        const std::uint64_t candidates = bound_[out] & ~taken;
        bound_[out] = 0;
        if (candidates == 0) continue;
        const interlock::age_requests r = heads_.requests(candidates, age_->clock);
        const interlock::grant g = arb_[out].grant(r);
        const int port = static_cast<int>(g.index()) / vcs_,
                  vc = static_cast<int>(g.index()) % vcs_;
        topo_event* e = static_cast<topo_event*>(ports[port]->getVCHeads()[vc]);
        depart(e, *age_);
        progress_vc[port] = vc;
        in_port_busy[port] = e->getFlitCount();
        out_port_busy[out] = e->getFlitCount();
        taken |= port_vcs << (port * vcs_);
      }
    }
    first_ = first_ + 1 == ports_ ? 0 : first_ + 1;
  }

  // One router cycle of the age clock, and the statistics it moves.
  void tick() { stats_.tick(*age_, getCurrentSimCycle()); }

  // The router's age clock comes from interlock.torus, which hr_router
  // restores before its crossbar arbitration.
  void serialize_order(SST::Core::Serialization::serializer& ser) override {
    XbarArbitration::serialize_order(ser);
    SST_SER(ports_);
    SST_SER(vcs_);
    SST_SER(first_);
    stats_.serialize(ser);
    if (ser.mode() == SST::Core::Serialization::serializer::UNPACK) {
      const std::shared_ptr<router_context> context = find_router(SST::COMPONENT_ID_MASK(getId()));
      age_ = context ? context->age : nullptr;
      if (!age_) refuse("interlock.xbar_age: restarted without interlock.torus's age clock");
      age_->claimed = true;
      arb_.assign(static_cast<std::size_t>(ports_), interlock::age_epoch_arbiter<64>(age_->select));
      bound_.assign(static_cast<std::size_t>(ports_), 0);
    }
    for (auto& a : arb_) serialize_state(ser, a, "interlock.xbar_age");
  }

  void dumpState(std::ostream& stream) override {
    stream << "interlock.xbar_age: timestamp " << unsigned{age_->clock.timestamp()} << ", epoch "
           << age_->clock.epoch() << ", packets " << age_->clock.packet_count(0) << " + "
           << age_->clock.packet_count(1) << ", late admissions " << age_->late_admissions
           << std::endl;
  }

 private:
  std::shared_ptr<router_age> age_;
  age_statistics stats_;
  int ports_ = 0, vcs_ = 0, first_ = 0;
  std::vector<interlock::age_epoch_arbiter<64>> arb_;
  interlock::age_heads<64> heads_;
  std::vector<std::uint64_t> bound_;  // per output port: the heads bound for it that can go
                                      // (0 between cycles)

 public:
  ImplementSerializable(interlock_sst::xbar_age)
};

}  // namespace interlock_sst
