// SPDX-License-Identifier: BSL-1.0
// interlock/verify/rtl_stimulus.hpp: what drives an arbiter for one cycle, and random streams of
// it.
//
// A co-simulation (verify/rtl_cosim.hpp) drives an RTL arbiter and one of
// interlock's policies with the same stimulus every cycle. The stimulus is
// the port convention's inputs (examples/integrations/rtl/README.md): the
// request vector, one small field per requester (its priority level, its
// packet's traffic-pattern label or its packet's age, whichever the arbiter
// reads), the age clock's inhibit wire, commit and reset.
//
// rtl_stimulus_stream makes long random streams from a seed, in phases of
// 1 to 256 cycles, each drawn from:
//   random      requests at a density drawn per phase (sparse to dense);
//   idle        no requests;
//   saturation  every requester asks;
//   one         a single requester asks (the others idle);
// with, in every phase, commit withheld in about one cycle of eight (the
// grant is not used: no state may move), fields drawn below `field_values`
// (ages from a narrow range in half of the phases, so that ties are common),
// the inhibit wire raised in one phase of four, and a reset pulse between
// phases about once in sixteen.
//
// Contract
//   - rtl_stimulus_stream(n, field_values, seed): 1 <= n <= 64 requesters,
//     1 <= field_values <= 256 (config_error otherwise). next() returns the
//     next cycle's stimulus; the same seed gives the same stream.
//   - Requests use bits [0, n) only; field[i] < field_values for every i.
//
// Example
//   interlock::verify::rtl_stimulus_stream stream(8, 2, 42);
//   const interlock::verify::rtl_stimulus s = stream.next();
//   assert((s.requests >> 8) == 0 && s.field[3] < 2);
#ifndef INTERLOCK_VERIFY_RTL_STIMULUS_HPP
#define INTERLOCK_VERIFY_RTL_STIMULUS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "interlock/core/bits.hpp"
#include "interlock/core/config_error.hpp"
#include "interlock/core/random.hpp"

namespace interlock::verify {

/// One cycle's inputs, shared by the RTL and the policy.
struct rtl_stimulus {
  bool reset = false;                    // a synchronous reset at this cycle's clock edge
  bool commit = true;                    // the grant is used: the state advances at the edge
  std::uint64_t requests = 0;            // the request vector
  std::array<std::uint8_t, 64> field{};  // requester i's level, pattern label or age
  bool age_suspended = false;            // the age clock's inhibit wire
};

class rtl_stimulus_stream {
 public:
  rtl_stimulus_stream(std::size_t n, unsigned field_values, std::uint64_t seed)
      : n_(n), field_values_(field_values), rng_(seed) {
    interlock::detail::require_in_range("rtl_stimulus_stream", "requesters", n, 1, 64);
    interlock::detail::require_in_range("rtl_stimulus_stream", "field_values", field_values, 1,
                                        256);
    mask_ = bits::low_mask(n);
  }

  rtl_stimulus next() {
    rtl_stimulus s;
    if (left_ == 0) s.reset = start_phase();
    --left_;
    switch (kind_) {
      case phase::random: {
        const std::uint64_t a = rng_(), b = rng_();
        s.requests = density_ == 0 ? a & b : density_ == 1 ? a : a | b;
        break;
      }
      case phase::idle:
        s.requests = 0;
        break;
      case phase::saturation:
        s.requests = ~std::uint64_t{0};
        break;
      case phase::one:
        s.requests = std::uint64_t{1} << only_;
        break;
    }
    s.requests &= mask_;
    s.commit = (rng_() & 7u) != 0;
    s.age_suspended = suspended_;
    const unsigned range = narrow_fields_ && field_values_ > 4 ? 4 : field_values_;
    const unsigned base = narrow_fields_ && field_values_ > 4 ? narrow_base_ : 0;
    for (std::size_t i = 0; i < n_; ++i)
      s.field[i] = static_cast<std::uint8_t>(base + uniform_below(rng_, range));
    return s;
  }

 private:
  enum class phase { random, idle, saturation, one };

  // Draws the next phase; true when a reset pulse comes before it.
  bool start_phase() {
    left_ = 1 + uniform_below(rng_, 256);
    const std::uint64_t k = uniform_below(rng_, 8);
    kind_ = k < 5 ? phase::random : k == 5 ? phase::idle : k == 6 ? phase::saturation : phase::one;
    density_ = static_cast<int>(uniform_below(rng_, 3));
    only_ = static_cast<unsigned>(uniform_below(rng_, n_));
    suspended_ = uniform_below(rng_, 4) == 0;
    narrow_fields_ = (rng_() & 1u) != 0;
    narrow_base_ =
        field_values_ > 4 ? static_cast<unsigned>(uniform_below(rng_, field_values_ - 3)) : 0;
    return uniform_below(rng_, 16) == 0;
  }

  std::size_t n_;
  unsigned field_values_;
  splitmix64 rng_;
  std::uint64_t mask_ = 0;
  std::uint64_t left_ = 0;
  phase kind_ = phase::random;
  int density_ = 1;
  unsigned only_ = 0;
  bool suspended_ = false;
  bool narrow_fields_ = false;
  unsigned narrow_base_ = 0;
};

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_RTL_STIMULUS_HPP
