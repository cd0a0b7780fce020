// SPDX-License-Identifier: BSL-1.0
// interlock/verify/rtl_cosim.hpp: an RTL arbiter co-simulated cycle by cycle against an
// interlock policy, its golden model.
//
// rtl_cosim<Model, Policy> drives a C++ model of an RTL arbiter (a class
// Verilator generates, or any class with the same members) and one of
// interlock's policies with the same stimulus (verify/rtl_stimulus.hpp)
// every cycle, and compares, bit for bit, the grant vector before the clock
// edge and every state register the RTL exposes after it. The RTL's grants
// also go through an arbiter_oracle (verify/arbiter_oracle.hpp), so a
// co-simulation checks the properties as well as the equality.
//
// The port convention (examples/integrations/rtl/README.md); a port the
// Model lacks is not driven or checked, except the four every arbiter has:
//   inputs   clk, rst (synchronous, active high), req [N], commit;
//            req_level [N*LW]  priority_requests<P>: level of i (LW = ceil log2 P, >= 1)
//            req_label [N*LB]  pattern_requests: pattern of i (LB = ceil log2 patterns, >= 1)
//            req_age [N*8]     age_requests: Procedure 2 age of i (oldest = largest)
//            age_suspended     age_requests' inhibit flag
//            cfg_weights [N*patterns*M]  m[i][n] in bits [(i*patterns + n)*M +: M]
//            cfg_age_rr_select [64]      AGE_RR_SELECT
//   outputs  gnt [N] (one-hot or zero), gnt_valid (= |gnt);
//            state_rr_therm [N]   the round-robin (or tie-breaking) thermometer
//            state_age_therm [N], state_counter [6]   the age arbiter's pointer and counter
//            state_acc [N*(M+1)]  the inverse-weighted arbiter's accumulators
// A port wider than 64 bits is an array of 32-bit words, as Verilator makes it.
//
// One cycle: with the clock low, the inputs are set and the model evaluated;
// gnt is compared with the policy's arbitrate(). The clock rises and the
// model is evaluated again; the policy commits the grant when commit is set
// (or returns to its state at construction when rst is set), and the state
// ports are compared.
//
// Contract
//   - The constructor programs the configuration ports from the policy and
//     applies one reset cycle; the policy given is the state a reset
//     restores. Policies: round_robin_arbiter, priority_arbiter,
//     inverse_weighted_arbiter, age_epoch_arbiter (descending order: the
//     thermometer state), or any arbiter whose request_type is a
//     std::uint64_t mask (grants only, and state if it has thermometer()).
//   - cycle(s) returns false from the first mismatch or oracle violation on;
//     failure() then names the cycle, the signal, both values and the
//     stimulus. field values must be valid for the policy (levels < P,
//     labels < patterns): rtl_stimulus_stream(n, field_values(policy), seed).
//   - The oracle observes the committed cycles outside reset: those are the
//     decisions.
//
// Example
//   // A model of the convention written in C++, standing for an RTL arbiter.
//   struct fixed_priority {
//     std::uint8_t clk = 0, rst = 0, req = 0, commit = 0, gnt = 0, gnt_valid = 0;
//     void eval() {  // the highest requester wins, always
//       gnt = 0;
//       for (int i = 7; i >= 0 && gnt == 0; --i)
//         if ((req >> i) & 1) gnt = static_cast<std::uint8_t>(1u << i);
//       gnt_valid = gnt != 0;
//     }
//   } rtl;
//   interlock::verify::rtl_cosim<fixed_priority, interlock::round_robin_arbiter<8>> sim(
//       rtl, interlock::round_robin_arbiter<8>{});
//   interlock::verify::rtl_stimulus s;
//   s.requests = 0b1001;
//   assert(sim.cycle(s));    // both grant 3
//   assert(!sim.cycle(s));   // round robin grants 0 next; fixed priority 3 again
#ifndef INTERLOCK_VERIFY_RTL_COSIM_HPP
#define INTERLOCK_VERIFY_RTL_COSIM_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "interlock/core/grant.hpp"
#include "interlock/verify/arbiter_oracle.hpp"
#include "interlock/verify/rtl_ports.hpp"
#include "interlock/verify/rtl_stimulus.hpp"

namespace interlock::verify {

template <class Model, class Policy>
class rtl_cosim {
 public:
  using request_type = typename Policy::request_type;

  rtl_cosim(Model& rtl, Policy policy, arbiter_properties properties = {})
      : rtl_(rtl),
        reset_state_(policy),
        policy_(std::move(policy)),
        oracle_(policy_.size(), properties) {
    rtl_ports::configure(rtl_, policy_);
    // Power-on: the RTL's registers are unknown until the first reset, so
    // only the state after it is compared.
    rtl_.clk = 0;
    rtl_.rst = 1;
    rtl_.commit = 0;
    rtl_ports::drive(rtl_, policy_, rtl_stimulus{});
    rtl_.eval();
    rtl_.clk = 1;
    rtl_.eval();
    std::string signal;
    std::uint64_t got = 0, want = 0;
    if (!rtl_ports::state_matches(rtl_, policy_, signal, got, want))
      fail(signal.c_str(), got, want, rtl_stimulus{});
  }

  /// One clock cycle; false from the first failure on.
  bool cycle(const rtl_stimulus& s) {
    if (!failure_.empty()) return false;
    const request_type request = rtl_ports::request<Policy>(s, policy_.size());
    rtl_.clk = 0;
    rtl_.rst = s.reset;
    rtl_.commit = s.commit;
    rtl_ports::drive(rtl_, policy_, s);
    rtl_.eval();
    const interlock::grant expected = policy_.arbitrate(request);
    const std::uint64_t gnt = rtl_ports::read(rtl_.gnt, 0, policy_.size());
    if (gnt != grant_vector(expected)) return fail("gnt", gnt, grant_vector(expected), s);
    if ((rtl_.gnt_valid != 0) != (gnt != 0))
      return fail("gnt_valid", rtl_.gnt_valid != 0, gnt != 0, s);
    if (!s.reset && s.commit && !oracle_.observe(request, expected)) {
      failure_ = "cycle " + std::to_string(cycles_) + ": " + oracle_.violation()->what();
      return false;
    }
    rtl_.clk = 1;
    rtl_.eval();
    if (s.reset) {
      policy_ = reset_state_;
      oracle_.reset();
    } else if (s.commit) {
      policy_.commit(expected, request);
    }
    std::string signal;
    std::uint64_t got = 0, want = 0;
    if (!rtl_ports::state_matches(rtl_, policy_, signal, got, want))
      return fail(signal.c_str(), got, want, s);
    ++cycles_;
    return true;
  }

  /// Runs `cycles` cycles of `stream`; false at the first failure.
  template <class Stream>
  bool run(Stream& stream, std::uint64_t cycles) {
    for (std::uint64_t t = 0; t < cycles; ++t)
      if (!cycle(stream.next())) return false;
    return true;
  }

  bool passed() const noexcept { return failure_.empty(); }
  const std::string& failure() const noexcept { return failure_; }
  std::uint64_t cycles() const noexcept { return cycles_; }
  const arbiter_oracle& oracle() const noexcept { return oracle_; }
  const Policy& policy() const noexcept { return policy_; }

 private:
  bool fail(const char* signal, std::uint64_t rtl, std::uint64_t model, const rtl_stimulus& s) {
    failure_ = "cycle " + std::to_string(cycles_) + ": " + signal + " differs: RTL " +
               interlock::detail::to_hex(rtl) + ", interlock " + interlock::detail::to_hex(model) +
               " (req " + interlock::detail::to_hex(s.requests) + (s.reset ? ", reset" : "") +
               (s.commit ? ", commit" : ", no commit") +
               (s.age_suspended ? ", age suspended" : "") + ", fields " +
               rtl_ports::describe_fields(s, policy_.size()) + ")";
    return false;
  }

  Model& rtl_;
  Policy reset_state_;
  Policy policy_;
  arbiter_oracle oracle_;
  std::uint64_t cycles_ = 0;
  std::string failure_;
};

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_RTL_COSIM_HPP
