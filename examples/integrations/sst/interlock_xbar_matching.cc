// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_xbar_matching.cc: interlock's allocators between ports as
// SST Merlin crossbar arbitration (SST::Merlin::XbarArbitration) for hr_router.
//
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
//   - arbitrate allocates nothing; the allocators' state moves only on their
//     decisions, so skipped cycles change nothing.
//   - Checkpointable: the allocators' and VC arbiters' states go through
//     interlock's save and restore (core/state_io.hpp); a restart continues
//     their decisions as if the run had not stopped.
#include <sst/core/sst_config.h>

#include <sst/core/subcomponent.h>
#include <sst/elements/merlin/router.h>

#include "interlock_sst.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <interlock/allocators/islip.hpp>
#include <interlock/allocators/request_matrix.hpp>
#include <interlock/allocators/wavefront.hpp>
#include <interlock/arbiters/round_robin.hpp>

namespace interlock_sst {

using SST::ComponentId_t;
using SST::Params;
using SST::Merlin::internal_router_event;
using SST::Merlin::PortInterface;
using SST::Merlin::XbarArbitration;

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

}  // namespace interlock_sst
