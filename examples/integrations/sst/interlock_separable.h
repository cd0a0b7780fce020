// SPDX-License-Identifier: BSL-1.0
// examples/integrations/sst/interlock_separable.h: separable input-first allocation over Merlin's
// VC heads, with the arbiter of each stage a template parameter (interlock.xbar_rr,
// interlock.xbar_separable).
//
// Each cycle every free input port offers one VC whose head can go (its
// arbiter in the input stage, over the port's VCs); each output port grants
// one of the input ports offering it (its arbiter in the output stage, over
// input ports). A grant is always used, since an input offers one output
// only, and both arbiters move only then.
//
// A stage holds one interlock arbiter per port and turns a mask of
// requesters into that arbiter's request (requests(port, mask, head), head(i)
// being requester i's packet); granted(packet) runs for each packet that
// crosses (the age stage writes Procedure 2's age into its header there):
//
//   rr_stage                round_robin_arbiter<64> (Anton 2's thermometer order)
//   priority_stage          integer_priority_arbiter<64>: a priority per requester
//   inverse_weighted_stage<N>  inverse_weighted_arbiter<64, N, 8> over shared
//                           tables; with N = 2 a packet's pattern label is its
//                           VN (one labelled pattern per VN), with N = 1 it is 0
//   age_stage               age_epoch_arbiter<64> over the requesters' age fields,
//                           against the router's age clock
//
// Contract: separable_allocation::run allocates nothing; up to 64 ports and
// 64 VCs per port (the callers check the shape).
#ifndef INTERLOCK_SST_INTERLOCK_SEPARABLE_H
#define INTERLOCK_SST_INTERLOCK_SEPARABLE_H

#include <sst/elements/merlin/router.h>

#include "interlock_sst.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/integer_priority.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>
#include <interlock/arbiters/round_robin.hpp>

namespace interlock_sst {

using SST::Merlin::PortInterface;

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

template <std::size_t N>
struct inverse_weighted_stage {
  using arbiter = interlock::inverse_weighted_arbiter<64, N, 8>;
  std::vector<arbiter> arb;
  std::array<std::uint8_t, 64> labels{};  // per requester: its head's label (0 with N = 1)
  explicit inverse_weighted_stage(
      const std::vector<std::shared_ptr<const typename arbiter::table_type>>& w) {
    arb.reserve(w.size());
    for (const auto& table : w) arb.emplace_back(table);
  }
  template <class Head>
  interlock::pattern_requests requests(std::size_t, std::uint64_t mask, Head&& head) {
    if constexpr (N > 1) {
      // interlock.torus admits N patterns only with N VNs: the label is the VN.
      for (std::uint64_t x = mask; x != 0; x &= x - 1) {
        const std::size_t i = interlock::bits::lowest_index(x);
        labels[i] = static_cast<std::uint8_t>(head(i)->getVN());
      }
    }
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
  void granted(topo_event* e) { depart(e, *age); }
};

/// The two stages' bookkeeping, and one cycle's allocation.
class separable_allocation {
 public:
  void set(int ports, int vcs) {
    ports_ = ports;
    vcs_ = vcs;
    offer_.assign(static_cast<std::size_t>(ports), -1);
    offered_to_.assign(static_cast<std::size_t>(ports), 0);
  }

  template <class In, class Out>
  void run(In& in, Out& out, PortInterface** ports, int* in_port_busy, int* out_port_busy,
           int* progress_vc) {
    // Input stage: each free input port offers one VC whose head can go.
    std::uint64_t outputs = 0;  // the outputs offered to
    for (int port = 0; port < ports_; ++port) {
      const std::size_t p = static_cast<std::size_t>(port);
      progress_vc[port] = -1;
      if (in_port_busy[port] > 0) continue;
      const std::uint64_t ready = ready_vcs(ports, port, vcs_, out_port_busy);
      if (ready == 0) continue;
      const auto r =
          in.requests(p, ready, [&](std::size_t vc) { return head_of(ports, port, vc); });
      const interlock::grant g = in.arb[p].arbitrate(r);
      offer_[p] = static_cast<int>(g.index());
      input_request_[p] = ready;
      const std::size_t o =
          static_cast<std::size_t>(head_of(ports, port, g.index())->getNextPort());
      offered_to_[o] |= std::uint64_t{1} << port;
      outputs |= std::uint64_t{1} << o;
    }
    // Output stage: each output offered to grants one of the input ports offering it.
    for (; outputs != 0; outputs &= outputs - 1) {
      const std::size_t o = interlock::bits::lowest_index(outputs);
      const std::uint64_t inputs = offered_to_[o];
      offered_to_[o] = 0;
      const auto r = out.requests(o, inputs, [&](std::size_t input) {
        return head_of(ports, static_cast<int>(input), offer_[input]);
      });
      const interlock::grant g = out.arb[o].grant(r);
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

  int ports() const noexcept { return ports_; }
  int vcs() const noexcept { return vcs_; }

 private:
  static topo_event* head_of(PortInterface** ports, int port, std::size_t vc) {
    return static_cast<topo_event*>(ports[port]->getVCHeads()[vc]);
  }
  static topo_event* head_of(PortInterface** ports, int port, int vc) {
    return head_of(ports, port, static_cast<std::size_t>(vc));
  }

  int ports_ = 0, vcs_ = 0;
  std::vector<int> offer_;                 // per input port: the VC it offers (read when offered)
  std::vector<std::uint64_t> offered_to_;  // per output port: the inputs offering it (0 between
                                           // cycles)
  std::array<std::uint64_t, 64> input_request_{};  // per input port: its ready VCs
};

}  // namespace interlock_sst

#endif  // INTERLOCK_SST_INTERLOCK_SEPARABLE_H
