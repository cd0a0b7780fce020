// SPDX-License-Identifier: BSL-1.0
// interlock/allocators/islip.hpp: the iSLIP allocator.
//
// Models McKeown, "The iSLIP Scheduling Algorithm for Input-Queued
// Switches" (IEEE/ACM ToN 7(2), 1999). Each iteration has three steps over
// the inputs and outputs still unmatched:
//   request  every unmatched input requests every output it has a packet for;
//   grant    every unmatched output grants one requesting input, round robin
//            from its grant pointer;
//   accept   every input accepts one of its grants, round robin from its
//            accept pointer.
// The pointers move only for grants accepted in the first iteration: an
// output's to one beyond the input that accepted it, the input's to one
// beyond the output it accepted. That rule is what desynchronizes the
// pointers and gives iSLIP 100% throughput under uniform traffic; grants made
// in later iterations only fill the matching.
//
// The pointers are interlock's round-robin arbiters (round_robin_arbiter,
// Anton 2's thermometer order: after serving g, g-1 is first, so "one beyond"
// means the next one down, cyclically). Every iteration of a decision reads
// the pointers as they were at its start, as a hardware iSLIP computes its
// iterations within one cycle.
//
// Contract
//   - islip_allocator<I, O>(iterations): 1..64 iterations (config_error
//     otherwise; default 1, the iSLIP of most routers); decisions stop early
//     once an iteration adds no pair.
//   - arbitrate(r) const, commit(used, r), allocate(r) as in
//     request_matrix.hpp; commit moves the pointers of the first-iteration
//     pairs that are in `used`, and nothing else.
//   - Invariants: matching_requested; with min(I, O) iterations the matching
//     is maximal (each iteration adds a pair or ends: the tests check
//     maximal_matching); no pointer moves without a first-iteration accept.
//   - Save and restore: state(ar) (core/state_io.hpp): every grant
//     and accept pointer; the outputs and iterations are checked.
//   Complexity: per iteration one arbitration per unmatched output with
//   requests and per input with grants; no allocation.
//
// Example
//   interlock::islip_allocator<8, 8> islip(2);        // 2 iterations
//   interlock::request_matrix<8, 8> requests;
//   requests.set(0, 5).set(1, 5).set(1, 6).set(7, 0);
//   auto m = islip.allocate(requests);                 // 3 pairs: 0 or 1 gets 5
//   assert(m.size() == 3);
#ifndef INTERLOCK_ALLOCATORS_ISLIP_HPP
#define INTERLOCK_ALLOCATORS_ISLIP_HPP

#include <array>
#include <cstddef>
#include <cstdint>

#include "interlock/allocators/request_matrix.hpp"
#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/state_io.hpp"

namespace interlock {

template <std::size_t I, std::size_t O>
class islip_allocator {
 public:
  using request_type = request_matrix<I, O>;
  static constexpr std::size_t inputs = I;
  static constexpr std::size_t outputs = O;

  explicit islip_allocator(std::size_t iterations = 1) : iterations_(iterations) {
    detail::require_in_range("islip_allocator", "iterations", iterations, 1, 64);
  }

  std::size_t iterations() const noexcept { return iterations_; }
  /// Output o's grant pointer and input i's accept pointer.
  const round_robin_arbiter<I>& grant_pointer(std::size_t o) const { return grant_.at(o); }
  const round_robin_arbiter<O>& accept_pointer(std::size_t i) const { return accept_.at(i); }

  matching<I, O> arbitrate(const request_matrix<I, O>& r) const { return decide(r).result; }

  /// Moves the pointers of the first-iteration pairs that `used` keeps.
  void commit(const matching<I, O>& used, const request_matrix<I, O>& r) { apply(decide(r), used); }

  /// arbitrate and commit of the whole matching, with one decision.
  matching<I, O> allocate(const request_matrix<I, O>& r) {
    const decision d = decide(r);
    apply(d, d.result);
    return d.result;
  }

  /// Save and restore (core/state_io.hpp): every output's grant pointer,
  /// then every input's accept pointer. The outputs and the iterations are
  /// the constructor's, and are checked.
  template <class Archive>
  void state(Archive& ar) {
    ar.object("ISLP", "islip_allocator", I);
    std::size_t outputs_here = O, iterations_here = iterations_;
    ar.u8("outputs", outputs_here, state_range{O, O});
    ar.u8("iterations", iterations_here, state_range{iterations_, iterations_});
    for (auto& g : grant_) g.state(ar);
    for (auto& a : accept_) a.state(ar);
  }

  friend bool operator==(const islip_allocator& a, const islip_allocator& b) noexcept {
    return a.iterations_ == b.iterations_ && a.grant_ == b.grant_ && a.accept_ == b.accept_;
  }
  friend bool operator!=(const islip_allocator& a, const islip_allocator& b) noexcept {
    return !(a == b);
  }

 private:
  struct decision {
    matching<I, O> result;
    matching<I, O> first;  // the pairs of the first iteration
  };

  void apply(const decision& d, const matching<I, O>& used) {
    used.for_each([&](std::size_t i, std::size_t o) {
      INTERLOCK_ASSERT(d.result.contains(i, o), "commit of a pair the allocator did not decide");
      if (!d.first.contains(i, o)) return;
      grant_[o].commit(interlock::grant(i));
      accept_[i].commit(interlock::grant(o));
    });
  }

  decision decide(const request_matrix<I, O>& r) const {
    decision d;
    const std::array<std::uint64_t, O> columns = r.columns();
    for (std::size_t it = 0; it < iterations_; ++it) {
      const std::uint64_t free_inputs = bits::low_mask(I) & ~d.result.matched_inputs();
      const std::uint64_t free_outputs = bits::low_mask(O) & ~d.result.matched_outputs();
      // Grant: every free output with a free requester grants one; no branch
      // on the requests (the arbiter returns no grant for none).
      std::array<std::uint64_t, I> grants{};  // per input: the outputs granting it
      std::uint64_t granted_inputs = 0;
      for (std::size_t o = 0; o < O; ++o) {
        const std::uint64_t req = (free_outputs >> o & 1u) != 0 ? columns[o] & free_inputs : 0;
        const interlock::grant g = grant_[o].arbitrate(req);
        const std::uint64_t hit = g ? bits::bit(o) : 0;
        grants[g ? g.index() % I : 0] |= hit;
        granted_inputs |= g ? bits::bit(g.index()) : 0;
      }
      if (granted_inputs == 0) break;
      // Accept: every input granted accepts one.
      for (std::uint64_t x = granted_inputs; x != 0; x &= x - 1) {
        const std::size_t i = bits::lowest_index(x);
        const std::size_t o = accept_[i].arbitrate(grants[i]).index();
        d.result.add(i, o);
        if (it == 0) d.first.add(i, o);
      }
    }
    return d;
  }

  std::size_t iterations_;
  std::array<round_robin_arbiter<I>, O> grant_{};
  std::array<round_robin_arbiter<O>, I> accept_{};
};

}  // namespace interlock

#endif  // INTERLOCK_ALLOCATORS_ISLIP_HPP
