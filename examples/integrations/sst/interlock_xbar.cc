// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_xbar.cc: interlock's arbiters as SST Merlin crossbar
// arbitration (SST::Merlin::XbarArbitration) for hr_router, in the element library "interlock".
//
// hr_router loads its crossbar arbitration as an anonymous subcomponent with
// no parameters (xbar_arb = "interlock.xbar_..."), so each configuration is a
// registered name of its own:
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
//   interlock.xbar_islip      iSLIP (allocators/islip.hpp, McKeown's three
//   interlock.xbar_islip4     steps, pointers moved by first-iteration
//                             accepts) between input and output ports, 1 or
//                             4 iterations; a matched input then picks, by
//                             its own round robin, one of its VCs whose head
//                             goes to the matched output. The allocator is
//                             islip_allocator<64, 64>, which decides for
//                             fewer ports exactly as a narrower one (its
//                             pointers are round_robin_arbiter<64>).
//   interlock.xbar_wavefront  the wavefront allocator (allocators/wavefront.hpp)
//                             between ports, then the matched input's VC
//                             round robin as for iSLIP. A wavefront sweeps as
//                             many diagonals as the larger side, so a router
//                             of P ports gets wavefront_allocator<P, P>
//                             exactly: sizes 1..24 are compiled in, and
//                             setPorts refuses more.
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
//   interlock.xbar_age        the SeaStar's output arbitration ([Abts07]
//                             Section 2): an age_epoch_arbiter<64> per output
//                             port over every (input port, VC) head bound for
//                             it, oldest first by Procedure 2 against the
//                             router's age clock, AGE_RR_SELECT mixing in its
//                             round robin; outputs take turns in an order
//                             rotating each cycle, an input port sends one
//                             packet at a time. Needs interlock.torus with
//                             age_period as the router's topology, which keeps
//                             the ages in the packets and the clock
//                             (interlock_sst.h). A granted packet leaves with
//                             Procedure 2's age in its header. The clock ticks
//                             at every router cycle; an idle router (no
//                             packet in either epoch) may stop its clock and
//                             the skipped cycles are caught up from the time.
//   - Checkpoints: xbar_rr_merlin, xbar_rr, xbar_islip, xbar_islip4 and
//     xbar_wavefront declare themselves checkpointable; their arbiters'
//     and allocators' states go through interlock's save and restore
//     (core/state_io.hpp), and a restart continues their decisions as if the
//     run had not stopped. xbar_age too: its age arbiters' states, and the
//     age clock through interlock.torus, which a restart rebuilds first.
#include <sst/core/sst_config.h>

#include <sst/core/output.h>
#include <sst/core/subcomponent.h>
#include <sst/elements/merlin/router.h>

#include "interlock_separable.h"
#include "interlock_sst.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <interlock/allocators/islip.hpp>
#include <interlock/allocators/request_matrix.hpp>
#include <interlock/allocators/wavefront.hpp>
#include <interlock/arbiters/age_epoch.hpp>
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

/// An allocator between ports (iSLIP, wavefront), then a VC round robin at
/// each matched input among its VCs whose head goes to the matched output.
struct port_allocation {
  int ports = 0, vcs = 0;
  std::vector<interlock::round_robin_arbiter<64>> vc_arb;
  std::vector<std::uint64_t> ready;  // per input port: its VCs whose head can go

  void set(int num_ports, int num_vcs) {
    ports = num_ports;
    vcs = num_vcs;
    vc_arb.assign(static_cast<std::size_t>(num_ports), interlock::round_robin_arbiter<64>());
    ready.assign(static_cast<std::size_t>(num_ports), 0);
  }

  /// The shape and every VC arbiter's state (a restart sets the shape first).
  void serialize(SST::Core::Serialization::serializer& ser, const std::string& owner) {
    SST_SER(ports);
    SST_SER(vcs);
    if (ser.mode() == SST::Core::Serialization::serializer::UNPACK) set(ports, vcs);
    for (auto& a : vc_arb) serialize_state(ser, a, owner);
  }

  template <class Allocator>
  void run(Allocator& alloc, PortInterface** port, int* in_port_busy, int* out_port_busy,
           int* progress_vc) {
    typename Allocator::request_type requests;
    for (int p = 0; p < ports; ++p) {
      const std::size_t i = static_cast<std::size_t>(p);
      progress_vc[p] = -1;
      ready[i] = 0;
      if (in_port_busy[p] > 0) continue;
      internal_router_event** heads = port[p]->getVCHeads();
      ready[i] = ready_vcs(port, p, vcs, out_port_busy);
      for (std::uint64_t x = ready[i]; x != 0; x &= x - 1)
        requests.set(
            i, static_cast<std::size_t>(heads[interlock::bits::lowest_index(x)]->getNextPort()));
    }
    const auto m = alloc.allocate(requests);
    m.for_each([&](std::size_t in, std::size_t out) {
      internal_router_event** heads = port[in]->getVCHeads();
      std::uint64_t to_out = 0;
      for (std::uint64_t x = ready[in]; x != 0; x &= x - 1) {
        const std::size_t vc = interlock::bits::lowest_index(x);
        if (static_cast<std::size_t>(heads[vc]->getNextPort()) == out)
          to_out |= std::uint64_t{1} << vc;
      }
      const interlock::grant g = vc_arb[in].grant(to_out);
      internal_router_event* head = heads[g.index()];
      progress_vc[in] = static_cast<int>(g.index());
      in_port_busy[in] = head->getFlitCount();
      out_port_busy[out] = head->getFlitCount();
    });
  }
};

/// iSLIP between ports, then a VC round robin at each matched input.
class xbar_islip_base : public XbarArbitration {
 public:
  /// For a restart: the iterations and name, the rest from the checkpoint.
  xbar_islip_base(std::size_t iterations, const char* name) : alloc_(iterations), name_(name) {}
  xbar_islip_base(ComponentId_t id, std::size_t iterations, const char* name)
      : XbarArbitration(id), alloc_(iterations), name_(name) {}

  void setPorts(int num_ports, int num_vcs) override {
    check_shape(name_, num_ports, num_vcs);
    ports_.set(num_ports, num_vcs);
  }

  void arbitrate(PortInterface** ports, int* in_port_busy, int* out_port_busy,
                 int* progress_vc) override {
    ports_.run(alloc_, ports, in_port_busy, out_port_busy, progress_vc);
  }

  void dumpState(std::ostream& stream) override {
    stream << name_ << ": " << alloc_.iterations() << " iteration(s), " << ports_.ports
           << " ports, " << ports_.vcs << " VCs" << std::endl;
  }

  void serialize_order(SST::Core::Serialization::serializer& ser) override {
    XbarArbitration::serialize_order(ser);
    ports_.serialize(ser, name_);
    serialize_state(ser, alloc_, name_);
  }

 private:
  interlock::islip_allocator<64, 64> alloc_;
  const char* name_ = "interlock.xbar_islip";
  port_allocation ports_;
};

class xbar_islip : public xbar_islip_base {
 public:
  SST_ELI_REGISTER_SUBCOMPONENT(xbar_islip, "interlock", "xbar_islip",
                                SST_ELI_ELEMENT_VERSION(0, 1, 0),
                                "iSLIP between ports (1 iteration), then a VC round robin at each "
                                "matched input",
                                SST::Merlin::XbarArbitration)
  SST_ELI_IS_CHECKPOINTABLE()
  xbar_islip() : xbar_islip_base(1, "interlock.xbar_islip") {}
  xbar_islip(ComponentId_t id, Params&) : xbar_islip_base(id, 1, "interlock.xbar_islip") {}
  ImplementSerializable(interlock_sst::xbar_islip)
};

class xbar_islip4 : public xbar_islip_base {
 public:
  SST_ELI_REGISTER_SUBCOMPONENT(xbar_islip4, "interlock", "xbar_islip4",
                                SST_ELI_ELEMENT_VERSION(0, 1, 0),
                                "iSLIP between ports (4 iterations), then a VC round robin at each "
                                "matched input",
                                SST::Merlin::XbarArbitration)
  SST_ELI_IS_CHECKPOINTABLE()
  xbar_islip4() : xbar_islip_base(4, "interlock.xbar_islip4") {}
  xbar_islip4(ComponentId_t id, Params&) : xbar_islip_base(id, 4, "interlock.xbar_islip4") {}
  ImplementSerializable(interlock_sst::xbar_islip4)
};

/// Wavefront allocators of every size up to 24 ports: a wavefront sweeps
/// max(I, O) diagonals, so a router of P ports needs wavefront_allocator<P, P>
/// exactly (a wider one would rotate its priority through diagonals no
/// request lies on).
template <class Sizes>
struct wavefront_sizes;
template <std::size_t... K>
struct wavefront_sizes<std::index_sequence<K...>> {
  using type = std::variant<std::monostate, interlock::wavefront_allocator<K + 1, K + 1>...>;
  static void emplace(type& v, std::size_t ports) {
    static_cast<void>(((ports == K + 1 ? (v.template emplace<K + 1>(), true) : false) || ...));
  }
};
constexpr std::size_t max_wavefront_ports = 24;
using any_wavefront = wavefront_sizes<std::make_index_sequence<max_wavefront_ports>>;

/// The wavefront allocator between ports, then a VC round robin at each matched input.
class xbar_wavefront : public XbarArbitration {
 public:
  SST_ELI_REGISTER_SUBCOMPONENT(xbar_wavefront, "interlock", "xbar_wavefront",
                                SST_ELI_ELEMENT_VERSION(0, 1, 0),
                                "The wavefront allocator (a wavefront_allocator<P, P> for a router "
                                "of P <= 24 ports) between ports, then a VC round robin at each "
                                "matched input",
                                SST::Merlin::XbarArbitration)
  SST_ELI_IS_CHECKPOINTABLE()
  xbar_wavefront() = default;
  xbar_wavefront(ComponentId_t id, Params&) : XbarArbitration(id) {}

  void setPorts(int num_ports, int num_vcs) override {
    check_shape("interlock.xbar_wavefront", num_ports, num_vcs);
    if (num_ports > static_cast<int>(max_wavefront_ports))
      refuse("interlock.xbar_wavefront: " + std::to_string(num_ports) +
             " ports; allowed 1..24 (a wavefront allocator of each size is compiled in)");
    any_wavefront::emplace(alloc_, static_cast<std::size_t>(num_ports));
    ports_.set(num_ports, num_vcs);
  }

  void arbitrate(PortInterface** ports, int* in_port_busy, int* out_port_busy,
                 int* progress_vc) override {
    std::visit(
        [&](auto& alloc) {
          if constexpr (!std::is_same<std::decay_t<decltype(alloc)>, std::monostate>::value)
            ports_.run(alloc, ports, in_port_busy, out_port_busy, progress_vc);
        },
        alloc_);
  }

  void dumpState(std::ostream& stream) override {
    stream << "interlock.xbar_wavefront: " << ports_.ports << " ports, " << ports_.vcs << " VCs"
           << std::endl;
  }

  void serialize_order(SST::Core::Serialization::serializer& ser) override {
    XbarArbitration::serialize_order(ser);
    ports_.serialize(ser, "interlock.xbar_wavefront");
    if (ser.mode() == SST::Core::Serialization::serializer::UNPACK)
      any_wavefront::emplace(alloc_, static_cast<std::size_t>(ports_.ports));
    std::visit(
        [&](auto& alloc) {
          if constexpr (!std::is_same<std::decay_t<decltype(alloc)>, std::monostate>::value)
            serialize_state(ser, alloc, "interlock.xbar_wavefront");
        },
        alloc_);
  }

 private:
  any_wavefront::type alloc_;
  port_allocation ports_;

 public:
  ImplementSerializable(interlock_sst::xbar_wavefront)
};

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
