// SPDX-License-Identifier: BSL-1.0
// examples/integrations/booksim2/interlock_arb.hpp: interlock's arbiters as BookSim2 Arbiters.
//
// Copy interlock_arb.hpp, interlock_arb_detail.hpp, interlock_arb.cpp,
// interlock_age.cpp and interlock_inverse.cpp into BookSim2's src/arbiters/,
// register them in Arbiter::NewArbiter (one line, below), and build BookSim2
// with interlock's include directory and C++17 (docs/integrations.md walks
// through it). This adapter is interlock's own code; it includes BookSim2's
// arbiter.hpp, module.hpp, flit.hpp, globals.hpp and config_utils.hpp,
// which a BookSim2 checkout has.
//
//   if (Arbiter* a = interlock_booksim2::NewArbiter(parent, name, arb_type, size)) return a;
//
// Names an arbiter type string (arb_type, or the parameter of
// separable_input_first(...) / separable_output_first(...)) may take:
//
//   interlock_round_robin           BookSim2's round_robin, decision for decision:
//   interlock_round_robin(descending)  the highest pri first, ties by
//                                   round robin (integer_priority_arbiter<64,
//                                   rr_order::ascending>: the smallest
//                                   (input - pointer) mod size, pointer =
//                                   winner + 1). (descending): Anton 2's
//                                   thermometer order instead.
//   interlock_age[(PERIOD[,BIAS[,SELECT]])]
//                                   the SeaStar's age-epoch arbiter
//                                   ([Abts07] Section 2): AGE_CLK_PERIOD
//                                   (default 0x1000, the hardware's reset
//                                   value), every input port's age bias
//                                   (default 1), AGE_RR_SELECT as age, rr,
//                                   half or a 64-bit hex mask (default age:
//                                   all 1s).
//   interlock_inverse_weighted[(PATTERN[,mesh])]
//                                   Anton 2's inverse-weighted arbiter
//                                   ([Towles14] Section 3, Figure 6, M = 8
//                                   bits), weights from interlock's loads of
//                                   BookSim2's k-ary n-cube (gK, gN) under
//                                   dimension-order routing and PATTERN
//                                   (uniform, the default, or tornado, even
//                                   k), through the port numbering below.
//
// BookSim2's priorities. Every adapter grants among the requests of the
// highest class first, as BookSim2's arbiters do: interlock_round_robin and
// interlock_inverse_weighted among the highest pri; interlock_age reads pri
// as the packet's age field (below), so there the class is its sign (a
// speculative switch request, pri + INT_MIN, goes after every
// non-speculative one).
//
// Where the age field and the clock live. The SeaStar's 11-bit age field
// ([Abts07] Table 1) rides in the head flit's pri (every flit of the packet
// carries it, so a VC reports it whatever flit is at its front). Each
// router has its own age clock (Procedure 3) and packet counts, kept here by
// router and found by the arbiters through their module names. The router
// calls three hooks, one line each in iq_router.cpp:
//   AgeTick(this)              once per cycle (IQRouter::ReadInputs);
//   AgeArrive(this, input, f)  before a flit is buffered (IQRouter::_InputQueuing,
//                              before cur_buf->AddFlit): Procedure 1 for a
//                              head flit (a packet that has made no hop
//                              starts at age 0), the stored field for the rest;
//   AgeDepart(this, f)         as a flit leaves on its channel
//                              (IQRouter::_SendFlits, before Send): Procedure
//                              2's new age into the head's field.
// BookSim2 must pass pri through to the arbiters: `priority = class` (any
// setting but none, local_age, queue_length and hop_count), no
// vc_priority_donation, and every allocator that reads pri (separable ones,
// wavefront, select) must read it with interlock_age. An interlock_age
// arbiter checks this in the run's Configuration when it is built and
// stops the run naming the key and its value; one in a router that has not
// called the hooks stops the run at its first decision, naming them.
//
// Port numbering (interlock_inverse_weighted). BookSim2's KNCube router has
// 2n + 1 ports: output 2d sends +d, 2d + 1 sends -d, input 2d receives the
// packets that travel -d (from the + neighbour), 2d + 1 those that travel +d,
// and 2n is injection and ejection. interlock's torus_topology numbers
// outputs the same way and inputs by the direction travelled, so BookSim2's
// input q is interlock's input torus_topology::peer_port(q) (q ^ 1 for q < 2n). Routers are named
// router_<x_{n-1}>_..._<x_0> (most significant ordinate first) and the
// separable allocators name their arbiters arb_o<output> and arb_i<input>:
// an output arbiter weighs its inputs by the load each brings to that
// output; an input arbiter weighs the outputs its VCs request by the load of
// that input-to-output flow. Loads come from traffic/loads.hpp's
// router_arbiter_loads on interlock's dimension-order routing, which breaks
// a tie at exactly k/2 by the topology's rule (+ from an even ordinate)
// where BookSim2 draws it at random: with even k the weights of a router
// whose flows have such ties differ from BookSim2's expected loads.
//
// Contract
//   - interlock_inverse_weighted fits the switch allocator only; in
//     vc_allocator it stops the run saying so. An arbiter with no load at
//     all gets the library's equal weights (inverse_weight_tables: 2^M - 1).
//   - Up to 64 requesters per arbiter; a bigger arbiter stops the run with an
//     error naming the type and size. A type string that does not parse stops
//     it naming the parameter and what is allowed. Names that do not start
//     with interlock_ are not interlock's: NewArbiter returns nullptr.
//   - Arbitrate does not allocate; UpdateState commits the last grant, and
//     moves nothing when there was none (BookSim2 calls it only for grants
//     it keeps).
#ifndef INTERLOCK_BOOKSIM2_INTERLOCK_ARB_HPP
#define INTERLOCK_BOOKSIM2_INTERLOCK_ARB_HPP

#include <cstdint>
#include <memory>
#include <string>

#include <interlock/arbiters/age_epoch.hpp>
#include <interlock/arbiters/integer_priority.hpp>
#include <interlock/arbiters/inverse_weighted.hpp>

#include "arbiter.hpp"

class Flit;

namespace interlock_booksim2 {

/// One of interlock's arbiters for arb_type, or nullptr when arb_type is not
/// one of the names above.
Arbiter* NewArbiter(Module* parent, const std::string& name, const std::string& arb_type, int size);

/// The age hooks a router calls (see the header comment).
void AgeTick(const Module* router);
void AgeArrive(const Module* router, int input, Flit* f);
void AgeDepart(const Module* router, Flit* f);

/// What the three adapters share: BookSim2's request bookkeeping (the base
/// Arbiter keeps each input's id and pri) and the report of a decision.
class AdapterArbiter : public Arbiter {
 public:
  AdapterArbiter(Module* parent, const std::string& name, int size) : Arbiter(parent, name, size) {}

 protected:
  /// Records g as the winner and reports it as BookSim2 does (-1: none).
  int Decided(interlock::grant g, int* id, int* pri) {
    _selected = g ? static_cast<int>(g.index()) : -1;
    return Arbiter::Arbitrate(id, pri);
  }
  /// The last winner as interlock's grant.
  interlock::grant Winner() const {
    return _selected >= 0 ? interlock::grant(static_cast<std::size_t>(_selected))
                          : interlock::no_grant();
  }
};

/// BookSim2's round_robin (or Anton 2's order) on integer_priority_arbiter.
template <interlock::rr_order Order>
class RoundRobinArbiter : public AdapterArbiter {
 public:
  RoundRobinArbiter(Module* parent, const std::string& name, int size);
  void PrintState() const override;
  void AddRequest(int input, int id, int pri) override;
  int Arbitrate(int* id = 0, int* pri = 0) override;
  void UpdateState() override;
  void Clear() override;

 private:
  interlock::integer_priority_arbiter<64, Order, int> arb_;
  interlock::integer_requests<64, int> requests_;
};

struct RouterAge;
struct AgeParameters {
  std::uint32_t period = 0x1000;
  unsigned bias = 1;
  std::uint64_t select = ~std::uint64_t{0};
};

/// The SeaStar's output arbiter over the ages the hooks keep in pri.
class AgeArbiter : public AdapterArbiter {
 public:
  AgeArbiter(Module* parent, const std::string& name, int size, std::uint64_t select);
  void PrintState() const override;
  void AddRequest(int input, int id, int pri) override;
  int Arbitrate(int* id = 0, int* pri = 0) override;
  void UpdateState() override;
  void Clear() override;

 private:
  interlock::age_epoch_arbiter<64> arb_;
  interlock::age_heads<64> heads_;
  interlock::age_requests last_;
  std::uint64_t requests_ = 0, firm_ = 0;  // all requests; the non-speculative ones
  RouterAge* router_ = nullptr;            // found at the first decision
};

/// Anton 2's inverse-weighted arbiter, M = 8, one traffic pattern.
class InverseWeightedArbiter : public AdapterArbiter {
 public:
  using policy = interlock::inverse_weighted_arbiter<64, 1, 8>;
  InverseWeightedArbiter(Module* parent, const std::string& name, int size,
                         std::shared_ptr<const policy::table_type> weights);
  void PrintState() const override;
  void AddRequest(int input, int id, int pri) override;
  int Arbitrate(int* id = 0, int* pri = 0) override;
  void UpdateState() override;
  void Clear() override;

 private:
  policy arb_;
  interlock::integer_requests<64, int> requests_;
  interlock::pattern_requests last_;
  std::uint8_t labels_[64] = {};  // one pattern: every label 0
};

}  // namespace interlock_booksim2

#endif  // INTERLOCK_BOOKSIM2_INTERLOCK_ARB_HPP
