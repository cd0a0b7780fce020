// SPDX-License-Identifier: BSL-1.0
// interlock/allocators/separable.hpp: separable input-first and output-first allocators.
//
// A separable allocator (Dally & Towles, Principles and Practices of
// Interconnection Networks, Section 19.3) makes a matching in two stages of
// independent arbiters, as a router's VC and switch allocators do:
//   input-first   each input's arbiter picks one of the outputs it requests;
//                 each output's arbiter picks one of the inputs that picked it;
//   output-first  each output's arbiter picks one of the inputs requesting
//                 it; each input's arbiter picks one of the outputs that
//                 picked it.
// The arbiters are any interlock arbiters: InputArbiter arbitrates among
// the O outputs, OutputArbiter among the I inputs. An arbiter whose
// request_type is a std::uint64_t mask (the round robins) takes the masks
// as they are; for any other (priority, age-epoch, inverse-weighted) the
// caller passes a request maker, make(stage, index, mask) -> that arbiter's
// request_type, for the arbiter of input or output `index` given the mask
// of what it may grant (built, for instance, with a request_builder from
// the router's candidate view).
//
// Contract
//   - arbitrate(r[, make]) const: the matching; no state changes.
//   - commit(used, r[, make]): commits, for each pair of `used` that the
//     allocator decided, that pair's grant in both of its arbiters; the
//     arbiters of unused or unmatched pairs do not move (a separable
//     allocator updates only accepted grants, so round robin stays fair).
//     A pair it did not decide is a contract violation, ignored.
//   - allocate(r[, make]) = arbitrate then commit of everything, with one
//     decision.
//   - Invariants: matching_requested; each input and output at most once;
//     with round-robin arbiters, every input with a persistent request is
//     served within I * O allocations.
//   - Save and restore: state(ar) (core/state_io.hpp): every input
//     and output arbiter's state.
//   Complexity: one arbitration per requesting input and per requested
//   output per stage, all on masks; commit recomputes the decision (so
//   committing costs about one more arbitrate).
//
// Example
//   interlock::separable_input_first<4, 4> sa;        // round robin in both stages
//   interlock::request_matrix<4, 4> r;
//   r.set(0, 1).set(1, 1).set(2, 3);
//   auto m = sa.arbitrate(r);                          // 1 or 0 gets output 1; 2 gets 3
//   sa.commit(m, r);
#ifndef INTERLOCK_ALLOCATORS_SEPARABLE_HPP
#define INTERLOCK_ALLOCATORS_SEPARABLE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "interlock/allocators/request_matrix.hpp"
#include "interlock/arbiters/round_robin.hpp"
#include "interlock/core/arbiter_traits.hpp"
#include "interlock/core/assert.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/grant.hpp"
#include "interlock/core/state_io.hpp"

namespace interlock {

/// Which stage's arbiter a request maker is asked for.
enum class allocator_stage { input, output };

/// The default request maker: the mask itself, for arbiters that take a mask.
struct mask_requests {
  template <class Mask>
  std::uint64_t operator()(allocator_stage, std::size_t, Mask mask) const noexcept {
    return mask;
  }
};

namespace detail {
template <class Arbiter, class Make>
void check_maker() {
  static_assert(require_arbiter<Arbiter>());
  static_assert(
      std::is_convertible_v<decltype(std::declval<Make&>()(allocator_stage::input, std::size_t{},
                                                           std::uint64_t{})),
                            typename Arbiter::request_type>,
      "interlock allocator: the request maker must return the arbiter's request_type (pass "
      "make(stage, index, mask) for arbiters that do not take a std::uint64_t mask)");
}

/// The two stages and their arbiters, and the protocol over Derived's
/// decide(r, make) and apply(decision, used, r, make); Derived says which
/// side goes first.
template <class Derived, std::size_t I, std::size_t O, class InputArbiter, class OutputArbiter>
class separable_base {
 public:
  using request_type = request_matrix<I, O>;
  static constexpr std::size_t inputs = I;
  static constexpr std::size_t outputs = O;

  separable_base() = default;
  separable_base(const std::array<InputArbiter, I>& in, const std::array<OutputArbiter, O>& out)
      : in_(in), out_(out) {}

  template <class Make = mask_requests>
  matching<I, O> arbitrate(const request_matrix<I, O>& r, Make&& make = {}) const {
    check_maker<InputArbiter, Make>();
    check_maker<OutputArbiter, Make>();
    return self().decide(r, make).result;
  }

  template <class Make = mask_requests>
  void commit(const matching<I, O>& used, const request_matrix<I, O>& r, Make&& make = {}) {
    check_maker<InputArbiter, Make>();
    check_maker<OutputArbiter, Make>();
    self().apply(self().decide(r, make), used, r, make);
  }

  /// arbitrate and commit of the whole matching, with one decision.
  template <class Make = mask_requests>
  matching<I, O> allocate(const request_matrix<I, O>& r, Make&& make = {}) {
    check_maker<InputArbiter, Make>();
    check_maker<OutputArbiter, Make>();
    const auto d = self().decide(r, make);
    self().apply(d, d.result, r, make);
    return d.result;
  }

  const InputArbiter& input_arbiter(std::size_t i) const { return in_.at(i); }
  const OutputArbiter& output_arbiter(std::size_t o) const { return out_.at(o); }

  /// Save and restore (core/state_io.hpp): every input arbiter's state,
  /// then every output arbiter's. The outputs are checked.
  template <class Archive>
  void state(Archive& ar) {
    ar.object("SEPA", "separable_allocator", I);
    std::size_t outputs_here = O;
    ar.u8("outputs", outputs_here, state_range{O, O});
    for (auto& a : in_) a.state(ar);
    for (auto& a : out_) a.state(ar);
  }

  friend bool operator==(const separable_base& a, const separable_base& b) noexcept {
    return a.in_ == b.in_ && a.out_ == b.out_;
  }

 protected:
  std::array<InputArbiter, I> in_{};
  std::array<OutputArbiter, O> out_{};

 private:
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }
  Derived& self() noexcept { return static_cast<Derived&>(*this); }
};
}  // namespace detail

/// Inputs pick first, then outputs.
template <std::size_t I, std::size_t O, class InputArbiter = round_robin_arbiter<O>,
          class OutputArbiter = round_robin_arbiter<I>>
class separable_input_first
    : public detail::separable_base<separable_input_first<I, O, InputArbiter, OutputArbiter>, I, O,
                                    InputArbiter, OutputArbiter> {
  using base = detail::separable_base<separable_input_first, I, O, InputArbiter, OutputArbiter>;
  friend base;

 public:
  using base::base;

 private:
  struct decision {
    matching<I, O> result;
    std::array<std::uint64_t, O> proposals{};  // per output: the inputs that picked it
  };
  template <class Make>
  void apply(const decision& d, const matching<I, O>& used, const request_matrix<I, O>& r,
             Make& make) {
    used.for_each([&](std::size_t i, std::size_t o) {
      INTERLOCK_ASSERT(d.result.contains(i, o), "commit of a pair the allocator did not decide");
      if (!d.result.contains(i, o)) return;
      this->in_[i].commit(interlock::grant(o), make(allocator_stage::input, i, r.row(i)));
      this->out_[o].commit(interlock::grant(i), make(allocator_stage::output, o, d.proposals[o]));
    });
  }
  template <class Make>
  decision decide(const request_matrix<I, O>& r, Make& make) const {
    decision d;
    for (std::size_t i = 0; i < I; ++i) {
      const std::uint64_t row = r.row(i);
      if (row == 0) continue;
      const interlock::grant g = this->in_[i].arbitrate(make(allocator_stage::input, i, row));
      if (g && g.index() < O) d.proposals[g.index()] |= bits::bit(i);
    }
    for (std::size_t o = 0; o < O; ++o) {
      if (d.proposals[o] == 0) continue;
      const interlock::grant g =
          this->out_[o].arbitrate(make(allocator_stage::output, o, d.proposals[o]));
      if (g && g.index() < I) d.result.add(g.index(), o);
    }
    return d;
  }
};

/// Outputs pick first, then inputs.
template <std::size_t I, std::size_t O, class InputArbiter = round_robin_arbiter<O>,
          class OutputArbiter = round_robin_arbiter<I>>
class separable_output_first
    : public detail::separable_base<separable_output_first<I, O, InputArbiter, OutputArbiter>, I, O,
                                    InputArbiter, OutputArbiter> {
  using base = detail::separable_base<separable_output_first, I, O, InputArbiter, OutputArbiter>;
  friend base;

 public:
  using base::base;

 private:
  struct decision {
    matching<I, O> result;
    std::array<std::uint64_t, O> columns{};  // per output: its requesters
    std::array<std::uint64_t, I> offers{};   // per input: the outputs that picked it
  };
  template <class Make>
  void apply(const decision& d, const matching<I, O>& used, const request_matrix<I, O>&,
             Make& make) {
    used.for_each([&](std::size_t i, std::size_t o) {
      INTERLOCK_ASSERT(d.result.contains(i, o), "commit of a pair the allocator did not decide");
      if (!d.result.contains(i, o)) return;
      this->out_[o].commit(interlock::grant(i), make(allocator_stage::output, o, d.columns[o]));
      this->in_[i].commit(interlock::grant(o), make(allocator_stage::input, i, d.offers[i]));
    });
  }
  template <class Make>
  decision decide(const request_matrix<I, O>& r, Make& make) const {
    decision d;
    d.columns = r.columns();
    for (std::size_t o = 0; o < O; ++o) {
      if (d.columns[o] == 0) continue;
      const interlock::grant g =
          this->out_[o].arbitrate(make(allocator_stage::output, o, d.columns[o]));
      if (g && g.index() < I) d.offers[g.index()] |= bits::bit(o);
    }
    for (std::size_t i = 0; i < I; ++i) {
      if (d.offers[i] == 0) continue;
      const interlock::grant g =
          this->in_[i].arbitrate(make(allocator_stage::input, i, d.offers[i]));
      if (g && g.index() < O) d.result.add(i, g.index());
    }
    return d;
  }
};

}  // namespace interlock

#endif  // INTERLOCK_ALLOCATORS_SEPARABLE_HPP
