// SPDX-License-Identifier: BSL-1.0
// interlock/verify/allocator_oracle.hpp: an allocator's matching rules as a monitor of its
// decisions.
//
// The allocators' counterpart of verify/arbiter_oracle.hpp: it watches the
// request matrix an allocator saw and the matching it made, decision by
// decision, and reports the first violation with its decision:
//
//   matching_requested  every matched pair is a request;
//   one_to_one          each output matched to at most one input (each input
//                       has one output by construction of the matching);
//   maximal             no unmatched input requests an unmatched output
//                       (wavefront; iSLIP with min(I, O) iterations);
//   input_wait_bound    an input whose request (input, output) is present in
//                       consecutive decisions is left unmatched in at most
//                       this many (separable allocators with round-robin
//                       arbiters: I x O - 1);
//   request_wait_bound  a request (input, output) present in consecutive
//                       decisions is not granted in at most this many
//                       (wavefront: side - 1, side = max(I, O)).
//
// Contract
//   - allocator_oracle(I, O, properties): 1 <= I, O <= 64 (config_error).
//   - observe(requests, matching) takes interlock's request_matrix and
//     matching (allocators/request_matrix.hpp); observe_rows takes the rows
//     and each input's output (-1: unmatched), as an RTL allocator's ports
//     give them. Both return false once a violation has been seen.
//   - The oracle keeps two wait counters per request: observe is O(I x O).
//
// Example
//   interlock::wavefront_allocator<4, 4> wf;
//   interlock::verify::allocator_properties p;
//   p.maximal = true;
//   p.request_wait_bound = 3;
//   interlock::verify::allocator_oracle oracle(4, 4, p);
//   interlock::request_matrix<4, 4> r;
//   r.set(0, 1).set(1, 1).set(2, 3);
//   for (int t = 0; t < 100; ++t) assert(oracle.observe(r, wf.allocate(r)));
#ifndef INTERLOCK_VERIFY_ALLOCATOR_ORACLE_HPP
#define INTERLOCK_VERIFY_ALLOCATOR_ORACLE_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "interlock/allocators/request_matrix.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/verify/arbiter_oracle.hpp"

namespace interlock::verify {

struct allocator_properties {
  static constexpr std::size_t unbounded = std::numeric_limits<std::size_t>::max();
  bool matching_requested = true;
  bool one_to_one = true;
  bool maximal = false;
  std::size_t input_wait_bound = unbounded;
  std::size_t request_wait_bound = unbounded;
};

class allocator_oracle {
 public:
  allocator_oracle(std::size_t inputs, std::size_t outputs, allocator_properties properties)
      : inputs_(inputs), outputs_(outputs), properties_(properties) {
    interlock::detail::require_in_range("allocator_oracle", "inputs", inputs, 1, 64);
    interlock::detail::require_in_range("allocator_oracle", "outputs", outputs, 1, 64);
  }

  /// One decision: rows[i] the outputs input i requests, output[i] its
  /// matched output or -1.
  bool observe_rows(const std::uint64_t* rows, const int* output) {
    if (violation_) return false;
    const std::uint64_t out_mask = bits::low_mask(outputs_);
    std::uint64_t taken = 0, matched_inputs = 0;
    for (std::size_t i = 0; i < inputs_; ++i) {
      const int o = output[i];
      if (o < 0) continue;
      const std::string pair = std::to_string(i) + "-" + std::to_string(o);
      if (properties_.matching_requested &&
          (static_cast<std::size_t>(o) >= outputs_ || ((rows[i] >> o) & 1u) == 0))
        return fail("matching_requested", "pair " + pair + " is not a request");
      const std::uint64_t bit = std::uint64_t{1} << (static_cast<unsigned>(o) & 63u);
      if (properties_.one_to_one && (taken & bit) != 0)
        return fail("one_to_one", "output " + std::to_string(o) + " matched twice");
      taken |= bit;
      matched_inputs |= std::uint64_t{1} << i;
    }
    if (properties_.maximal) {
      for (std::size_t i = 0; i < inputs_; ++i) {
        const std::uint64_t open = rows[i] & out_mask & ~taken;
        if (((matched_inputs >> i) & 1u) == 0 && open != 0)
          return fail("maximal", "input " + std::to_string(i) + " and output " +
                                     std::to_string(bits::lowest_index(open)) +
                                     " are both unmatched, and the input requests it");
      }
    }
    for (std::size_t i = 0; i < inputs_; ++i) {
      const std::uint64_t row = rows[i] & out_mask;
      const bool unmatched = ((matched_inputs >> i) & 1u) == 0;
      for (std::size_t o = 0; o < outputs_; ++o) {
        const bool asks = ((row >> o) & 1u) != 0;
        std::size_t& left = input_waits_[i][o];
        left = asks && unmatched ? left + 1 : 0;
        max_input_wait_ = std::max(max_input_wait_, left);
        if (left > properties_.input_wait_bound)
          return fail("input_wait_bound", "input " + std::to_string(i) + " requested output " +
                                              std::to_string(o) + " and was left unmatched " +
                                              std::to_string(left) + " decisions in a row (bound " +
                                              std::to_string(properties_.input_wait_bound) + ")");
        std::size_t& w = request_waits_[i][o];
        w = asks && output[i] != static_cast<int>(o) ? w + 1 : 0;
        if (w > properties_.request_wait_bound)
          return fail("request_wait_bound",
                      "request " + std::to_string(i) + "-" + std::to_string(o) + " not granted " +
                          std::to_string(w) + " decisions in a row (bound " +
                          std::to_string(properties_.request_wait_bound) + ")");
      }
    }
    ++decision_;
    return true;
  }

  template <std::size_t I, std::size_t O>
  bool observe(const request_matrix<I, O>& requests, const matching<I, O>& m) {
    std::array<int, I> output{};
    for (std::size_t i = 0; i < I; ++i) {
      const interlock::grant g = m.output_of(i);
      output[i] = g ? static_cast<int>(g.index()) : -1;
    }
    return observe_rows(requests.rows.data(), output.data());
  }

  bool passed() const noexcept { return !violation_; }
  const std::optional<oracle_violation>& violation() const noexcept { return violation_; }
  std::uint64_t decisions() const noexcept { return decision_; }
  std::size_t max_input_wait() const noexcept { return max_input_wait_; }

 private:
  bool fail(const char* property, std::string detail) {
    violation_ = oracle_violation{property, decision_, std::move(detail)};
    return false;
  }

  std::size_t inputs_, outputs_;
  allocator_properties properties_;
  std::array<std::array<std::size_t, 64>, 64> input_waits_{};
  std::array<std::array<std::size_t, 64>, 64> request_waits_{};
  std::size_t max_input_wait_ = 0;
  std::uint64_t decision_ = 0;
  std::optional<oracle_violation> violation_;
};

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_ALLOCATOR_ORACLE_HPP
