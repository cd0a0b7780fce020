// SPDX-License-Identifier: BSL-1.0
// interlock/verify/rtl_ports.hpp: the RTL port convention, read and written from C++.
//
// The ports of an RTL arbiter, as members of its C++ model (Verilator makes
// one member per port: an integer up to 64 bits, an array of 32-bit words
// above; either may be a reference), mapped to interlock's request types,
// configuration and state. verify/rtl_cosim.hpp lists the convention and
// uses this; a user's harness can too.
//
// Contract
//   - read(port, lsb, width) and write(port, lsb, width, value) access bits
//     [lsb, lsb + width) of a port, width <= 64, of either representation.
//   - has_<port><Model> tells whether the model has an optional port.
//   - field_values(policy): how many values the per-requester field takes
//     for the policy (P levels, N patterns, 256 ages, or 1: no field).
//   - request<Policy>(stimulus, n) builds the policy's request; a
//     pattern_requests refers to the stimulus's fields, so it lives as long
//     as the stimulus.
//   - drive sets the inputs but clk, rst and commit; configure sets the
//     configuration ports from the policy; state_matches compares every
//     state port the model has and names the first that differs.
//
// Example
//   struct wide_model { std::uint32_t req_age[4] = {}; } m;   // a 128-bit port
//   interlock::verify::rtl_ports::write(m.req_age, 60, 8, 0xAB);
//   assert(m.req_age[1] == 0xB0000000u && m.req_age[2] == 0xAu);
//   assert(interlock::verify::rtl_ports::read(m.req_age, 60, 8) == 0xAB);
#ifndef INTERLOCK_VERIFY_RTL_PORTS_HPP
#define INTERLOCK_VERIFY_RTL_PORTS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "interlock/arbiters/age_epoch.hpp"
#include "interlock/arbiters/age_heads.hpp"
#include "interlock/arbiters/inverse_weighted.hpp"
#include "interlock/arbiters/priority.hpp"
#include "interlock/core/bits.hpp"
#include "interlock/core/priority_requests.hpp"
#include "interlock/core/span.hpp"
#include "interlock/verify/rtl_stimulus.hpp"

namespace interlock::verify::rtl_ports {

template <class Port>
using bare = std::remove_cv_t<std::remove_reference_t<Port>>;

template <class Port>
std::uint64_t read(const Port& port, std::size_t lsb, std::size_t width) {
  const std::uint64_t mask = bits::low_mask(width);
  if constexpr (std::is_integral_v<bare<Port>>) {
    return lsb >= 64 ? 0 : (static_cast<std::uint64_t>(port) >> lsb) & mask;
  } else {
    std::uint64_t v = 0;
    for (std::size_t done = 0; done < width;) {
      const std::size_t bit = lsb + done, off = bit % 32, take = std::min(32 - off, width - done);
      const std::uint64_t word = static_cast<std::uint32_t>(port[bit / 32]);
      v |= ((word >> off) & ((std::uint64_t{1} << take) - 1)) << done;
      done += take;
    }
    return v & mask;
  }
}

template <class Port>
void write(Port& port, std::size_t lsb, std::size_t width, std::uint64_t value) {
  if constexpr (std::is_integral_v<bare<Port>>) {
    if (lsb >= 64) return;
    const std::uint64_t mask = bits::low_mask(width) << lsb;
    const std::uint64_t v = (static_cast<std::uint64_t>(port) & ~mask) | ((value << lsb) & mask);
    port = static_cast<bare<Port>>(v);
  } else {
    for (std::size_t done = 0; done < width;) {
      const std::size_t bit = lsb + done, off = bit % 32, take = std::min(32 - off, width - done);
      const std::uint32_t ones = take == 32 ? ~0u : (1u << take) - 1;
      const std::uint32_t mask = ones << off;
      const std::uint32_t part = static_cast<std::uint32_t>(value >> done) & ones;
      auto& word = port[bit / 32];
      word = static_cast<bare<decltype(word)>>((word & ~mask) | (part << off));
      done += take;
    }
  }
}

#define INTERLOCK_RTL_PORT(name)          \
  template <class M, class = void>        \
  struct has_##name : std::false_type {}; \
  template <class M>                      \
  struct has_##name<M, std::void_t<decltype(std::declval<M&>().name)>> : std::true_type {};
INTERLOCK_RTL_PORT(req_level)
INTERLOCK_RTL_PORT(req_label)
INTERLOCK_RTL_PORT(req_age)
INTERLOCK_RTL_PORT(age_suspended)
INTERLOCK_RTL_PORT(cfg_weights)
INTERLOCK_RTL_PORT(cfg_age_rr_select)
INTERLOCK_RTL_PORT(state_rr_therm)
INTERLOCK_RTL_PORT(state_age_therm)
INTERLOCK_RTL_PORT(state_counter)
INTERLOCK_RTL_PORT(state_acc)
#undef INTERLOCK_RTL_PORT

/// What a policy's per-requester field is.
template <class Policy>
struct shape {
  static constexpr unsigned levels = 1, patterns = 1, weight_bits = 0;
  static constexpr bool ages = false;
};
template <std::size_t N, std::size_t P, rr_order O>
struct shape<priority_arbiter<N, P, O>> : shape<void> {
  static constexpr unsigned levels = static_cast<unsigned>(P);
};
template <std::size_t K, std::size_t N, unsigned M>
struct shape<inverse_weighted_arbiter<K, N, M>> : shape<void> {
  static constexpr unsigned patterns = static_cast<unsigned>(N), weight_bits = M;
};
template <std::size_t N>
struct shape<age_epoch_arbiter<N>> : shape<void> {
  static constexpr bool ages = true;
};

constexpr std::size_t field_bits(unsigned values) noexcept {
  std::size_t b = 1;
  while ((std::uint64_t{1} << b) < values) ++b;
  return b;
}

template <class Policy>
constexpr unsigned field_values(const Policy&) noexcept {
  using s = shape<Policy>;
  return s::ages ? 256u : s::levels > 1 ? s::levels : s::patterns;
}

template <class Policy>
typename Policy::request_type request(const rtl_stimulus& s, std::size_t n) {
  using R = typename Policy::request_type;
  if constexpr (std::is_same_v<R, std::uint64_t>) {
    return s.requests;
  } else if constexpr (std::is_same_v<R, pattern_requests>) {
    return pattern_requests{s.requests, span<const std::uint8_t>(s.field.data(), n)};
  } else if constexpr (std::is_same_v<R, age_requests>) {
    const span<const std::uint8_t> ages(s.field.data(), n);
    return age_requests{s.requests, oldest_by_age(s.requests, ages), s.age_suspended};
  } else {
    R r;
    constexpr unsigned p = shape<Policy>::levels;
    for (std::size_t i = 0; i < n; ++i)
      if (((s.requests >> i) & 1u) != 0) r.set(i, s.field[i] % p);
    return r;
  }
}

template <class Model, class Policy>
void drive(Model& rtl, const Policy& policy, const rtl_stimulus& s) {
  const std::size_t n = policy.size();
  write(rtl.req, 0, n, s.requests);
  auto fields = [&](auto& port, std::size_t bits) {
    for (std::size_t i = 0; i < n; ++i) write(port, i * bits, bits, s.field[i]);
  };
  if constexpr (has_req_level<Model>::value)
    fields(rtl.req_level, field_bits(shape<Policy>::levels));
  if constexpr (has_req_label<Model>::value)
    fields(rtl.req_label, field_bits(shape<Policy>::patterns));
  if constexpr (has_req_age<Model>::value) fields(rtl.req_age, 8);
  if constexpr (has_age_suspended<Model>::value) rtl.age_suspended = s.age_suspended;
}

template <class Model, class Policy>
void configure(Model& rtl, const Policy& policy) {
  using s = shape<Policy>;
  if constexpr (has_cfg_weights<Model>::value && s::weight_bits > 0) {
    for (std::size_t i = 0; i < policy.size(); ++i)
      for (std::size_t n = 0; n < s::patterns; ++n)
        write(rtl.cfg_weights, (i * s::patterns + n) * s::weight_bits, s::weight_bits,
              policy.weight(i, n));
  }
  if constexpr (has_cfg_age_rr_select<Model>::value && s::ages)
    write(rtl.cfg_age_rr_select, 0, 64, policy.age_rr_select());
}

namespace detail {
template <class P, class = void>
struct has_mask : std::false_type {};
template <class P>
struct has_mask<P, std::void_t<decltype(std::declval<const P&>().thermometer().mask())>>
    : std::true_type {};
}  // namespace detail

/// The policy's round-robin (tie-breaking) thermometer; false if it has none.
template <class Policy>
bool round_robin_state(const Policy& policy, std::uint64_t& therm) {
  if constexpr (shape<Policy>::weight_bits > 0) {
    therm = policy.tie_breaker().thermometer().mask();
    return true;
  } else if constexpr (shape<Policy>::ages) {
    therm = policy.round_robin_pointer().thermometer().mask();
    return true;
  } else if constexpr (detail::has_mask<Policy>::value) {
    therm = policy.thermometer().mask();
    return true;
  } else {
    return false;
  }
}

template <class Model, class Policy>
bool state_matches(const Model& rtl, const Policy& policy, std::string& signal, std::uint64_t& got,
                   std::uint64_t& want) {
  const std::size_t n = policy.size();
  auto differs = [&](const char* name, std::uint64_t rtl_value, std::uint64_t model_value) {
    if (rtl_value == model_value) return false;
    signal = name;
    got = rtl_value;
    want = model_value;
    return true;
  };
  if constexpr (has_state_rr_therm<Model>::value) {
    std::uint64_t therm = 0;
    if (round_robin_state(policy, therm) &&
        differs("state_rr_therm", read(rtl.state_rr_therm, 0, n), therm))
      return false;
  }
  if constexpr (has_state_age_therm<Model>::value && shape<Policy>::ages) {
    if (differs("state_age_therm", read(rtl.state_age_therm, 0, n),
                policy.age_pointer().thermometer().mask()))
      return false;
  }
  if constexpr (has_state_counter<Model>::value && shape<Policy>::ages) {
    if (differs("state_counter", read(rtl.state_counter, 0, 6), policy.grant_counter()))
      return false;
  }
  if constexpr (has_state_acc<Model>::value && shape<Policy>::weight_bits > 0) {
    constexpr std::size_t w = shape<Policy>::weight_bits + 1;
    for (std::size_t i = 0; i < n; ++i) {
      if (differs("state_acc", read(rtl.state_acc, i * w, w), policy.accumulator(i))) {
        signal = "state_acc[" + std::to_string(i) + "]";
        return false;
      }
    }
  }
  return true;
}

inline std::string describe_fields(const rtl_stimulus& s, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += (i == 0 ? "" : ",") + std::to_string(s.field[i]);
  return out;
}

}  // namespace interlock::verify::rtl_ports

#endif  // INTERLOCK_VERIFY_RTL_PORTS_HPP
