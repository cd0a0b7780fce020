// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_xbar.cc: interlock's round robin as SST Merlin crossbar
// arbitration (SST::Merlin::XbarArbitration) for hr_router, in the element library "interlock".
//
// hr_router loads its crossbar arbitration as an anonymous subcomponent with
// no parameters (xbar_arb = "interlock.xbar_..."), so each configuration is a
// registered name of its own; the allocators are in interlock_xbar_matching.cc,
// the SeaStar's age arbitration in interlock_xbar_age.cc, and the separable
// allocation with chosen stages in interlock_separable.cc:
//
//   interlock.xbar_rr_merlin  Merlin's xbar_arb_rr schedule with interlock's
//                             ascending round robin (rr_pointer<64>) making
//                             every pick: the input ports take turns in an
//                             order that rotates by one each cycle, and each
//                             port picks the first VC at or after its own
//                             pointer whose head can go (its output port
//                             free, credits for the whole packet); that
//                             pointer moves by one every cycle the port is
//                             not busy, granted or not. Merlin's statistics
//                             for xbar_arb_rr come out identical (the check
//                             in docs/integrations.md).
//   interlock.xbar_rr         separable input-first allocation of interlock's
//                             round robin (Anton 2's thermometer order): each
//                             free input port offers one VC whose head can go
//                             (its VC arbiter), each output port grants one of
//                             the inputs offering it (its port arbiter), and
//                             both arbiters move only on a grant that is used.
//                             Work-conserving in the sense of
//                             allocators/separable.hpp; a different algorithm
//                             from Merlin's time-driven rotation.
//
// Contract
//   - Up to 64 ports and 64 VCs per port (the round-robin state is one 64-bit
//     word); setPorts stops the simulation with an error naming the count
//     otherwise.
//   - A head can go when its output port is not being written
//     (out_port_busy), its input port is not being read (in_port_busy), and
//     the output port has credits for the packet's flits (Merlin moves whole
//     packets across its crossbar, counting credits in flits).
//   - arbitrate allocates nothing. reportSkippedCycles advances the rotating
//     port order by the skipped cycles (xbar_rr_merlin), as Merlin's does;
//     xbar_rr's state moves only on grants, so skipped cycles change nothing.
//   - Checkpointable: the pointers, and xbar_rr's arbiters through
//     interlock's save and restore (core/state_io.hpp); a restart continues
//     their decisions as if the run had not stopped.
#include <sst/core/sst_config.h>

#include <sst/core/subcomponent.h>
#include <sst/elements/merlin/router.h>

#include "interlock_separable.h"
#include "interlock_sst.h"

#include <cstdint>
#include <vector>

#include <interlock/arbiters/round_robin.hpp>
#include <interlock/arbiters/rr_pointer.hpp>

namespace interlock_sst {

using SST::ComponentId_t;
using SST::Params;
using SST::Merlin::internal_router_event;
using SST::Merlin::PortInterface;
using SST::Merlin::XbarArbitration;

/// Merlin's round-robin schedule, each pick made by interlock's ascending round robin.
class xbar_rr_merlin : public XbarArbitration {
 public:
  SST_ELI_REGISTER_SUBCOMPONENT(xbar_rr_merlin, "interlock", "xbar_rr_merlin",
                                SST_ELI_ELEMENT_VERSION(0, 1, 0),
                                "Merlin's xbar_arb_rr schedule (input ports in an order rotating "
                                "each cycle, a VC pointer per port moving each free cycle) with "
                                "interlock's ascending round robin making every pick",
                                SST::Merlin::XbarArbitration)
  SST_ELI_IS_CHECKPOINTABLE()

  xbar_rr_merlin() = default;
  xbar_rr_merlin(ComponentId_t id, Params&) : XbarArbitration(id) {}

  void setPorts(int num_ports, int num_vcs) override {
    check_shape("interlock.xbar_rr_merlin", num_ports, num_vcs);
    ports_ = num_ports;
    vcs_ = num_vcs;
    vc_pointer_.assign(static_cast<std::size_t>(num_ports), 0);
    port_pointer_ = 0;
  }

  void arbitrate(PortInterface** ports, int* in_port_busy, int* out_port_busy,
                 int* progress_vc) override {
    for (int n = 0, port = port_pointer_; n < ports_;
         ++n, port = port + 1 == ports_ ? 0 : port + 1) {
      progress_vc[port] = -1;
      if (in_port_busy[port] > 0) continue;
      internal_router_event** heads = ports[port]->getVCHeads();
      // The VCs whose head can go, as this port's turn finds the outputs.
      const std::uint64_t ready = ready_vcs(ports, port, vcs_, out_port_busy);
      int& pointer = vc_pointer_[static_cast<std::size_t>(port)];
      const interlock::grant g =
          interlock::rr_pointer<64>::with_highest_priority(static_cast<std::size_t>(pointer))
              .pick(ready);
      if (g) {
        internal_router_event* head = heads[g.index()];
        progress_vc[port] = static_cast<int>(g.index());
        in_port_busy[port] = head->getFlitCount();
        out_port_busy[head->getNextPort()] = head->getFlitCount();
      }
      pointer = pointer + 1 == vcs_ ? 0 : pointer + 1;
    }
    port_pointer_ = port_pointer_ + 1 == ports_ ? 0 : port_pointer_ + 1;
  }

  void reportSkippedCycles(SST::Cycle_t cycles) override {
    port_pointer_ = static_cast<int>((static_cast<SST::Cycle_t>(port_pointer_) + cycles) %
                                     static_cast<SST::Cycle_t>(ports_));
  }

  void dumpState(std::ostream& stream) override {
    stream << "interlock.xbar_rr_merlin: first port " << port_pointer_ << ", VC pointers";
    for (int p : vc_pointer_) stream << ' ' << p;
    stream << std::endl;
  }

  void serialize_order(SST::Core::Serialization::serializer& ser) override {
    XbarArbitration::serialize_order(ser);
    SST_SER(ports_);
    SST_SER(vcs_);
    SST_SER(port_pointer_);
    SST_SER(vc_pointer_);
  }

 private:
  int ports_ = 0, vcs_ = 0, port_pointer_ = 0;
  std::vector<int> vc_pointer_;

 public:
  ImplementSerializable(interlock_sst::xbar_rr_merlin)
};

/// Separable input-first allocation of interlock's thermometer round robin.
class xbar_rr : public XbarArbitration {
 public:
  SST_ELI_REGISTER_SUBCOMPONENT(xbar_rr, "interlock", "xbar_rr", SST_ELI_ELEMENT_VERSION(0, 1, 0),
                                "Separable input-first allocation with interlock's round robin "
                                "(Anton 2's thermometer order): a VC arbiter per input port, a "
                                "port arbiter per output port, each moving only on a used grant",
                                SST::Merlin::XbarArbitration)
  SST_ELI_IS_CHECKPOINTABLE()

  xbar_rr() = default;
  xbar_rr(ComponentId_t id, Params&) : XbarArbitration(id) {}

  void setPorts(int num_ports, int num_vcs) override {
    check_shape("interlock.xbar_rr", num_ports, num_vcs);
    vc_arb_ = rr_stage(static_cast<std::size_t>(num_ports));
    port_arb_ = rr_stage(static_cast<std::size_t>(num_ports));
    allocation_.set(num_ports, num_vcs);
  }

  void arbitrate(PortInterface** ports, int* in_port_busy, int* out_port_busy,
                 int* progress_vc) override {
    allocation_.run(vc_arb_, port_arb_, ports, in_port_busy, out_port_busy, progress_vc);
  }

  void dumpState(std::ostream& stream) override {
    stream << "interlock.xbar_rr: separable input-first, " << allocation_.ports() << " ports, "
           << allocation_.vcs() << " VCs" << std::endl;
  }

  void serialize_order(SST::Core::Serialization::serializer& ser) override {
    XbarArbitration::serialize_order(ser);
    int ports = allocation_.ports(), vcs = allocation_.vcs();
    SST_SER(ports);
    SST_SER(vcs);
    if (ser.mode() == SST::Core::Serialization::serializer::UNPACK) setPorts(ports, vcs);
    for (auto& a : vc_arb_.arb) serialize_state(ser, a, "interlock.xbar_rr");
    for (auto& a : port_arb_.arb) serialize_state(ser, a, "interlock.xbar_rr");
  }

 private:
  rr_stage vc_arb_{0}, port_arb_{0};
  separable_allocation allocation_;

 public:
  ImplementSerializable(interlock_sst::xbar_rr)
};

}  // namespace interlock_sst
