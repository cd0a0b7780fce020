// SPDX-License-Identifier: BSL-1.0
// interlock/core/candidates.hpp: the uniform view of what an output sees, and request builders.
//
// Contract
//   A router written once drives any arbiter or output scheduler of
//   interlock through two steps at each output and decision:
//
//     candidate_view view{requests, age, pattern, flits, priority};
//     auto r = builder(view);          // the policy's request_type
//     interlock::grant g = policy.arbitrate(r);
//     ...                              // use g, or not
//     policy.commit(g, r);
//
//   candidate_view describes up to 64 candidates of one output (a router's
//   input ports, or its input (port, VC) pairs, or an output's queues) as a
//   requests mask and, per candidate, the fields of its head packet that
//   some policy reads, each a span indexed by candidate (an empty span when
//   no policy in use reads it):
//     requests  bit i: candidate i has a packet that may go now
//     age       the 11-bit header age field of SeaStar Table 1 (age_field::bits())
//     pattern   the traffic-pattern label (Anton 2, inverse-weighted arbiters)
//     flits     the head packet's size in flits
//     priority  a priority level (0 lowest)
//   A field read past its span reads as 0 (the span's fallback).
//
//   request_builder<Policy> makes Policy's request_type from a view. Every
//   policy header specializes it for its policies; a builder is constructed
//   with whatever the policy needs besides the view (the age clock of the
//   age-epoch arbiter; the bytes or credits per flit of a QoS scheduler),
//   holds any scratch the request points into (so the request lives as long
//   as the builder and the view's spans), allocates nothing per call and
//   reads only requesting candidates. has_request_builder_v<P> tells
//   whether P has one.
//
//   size_unit names the unit a policy reads packet sizes in: the QoS
//   schedulers declare theirs as head_size_unit (credits for the DTable,
//   bytes for InfiniBand VL arbitration), and their builders convert from
//   the view's flits.
//
// Example
//   interlock::round_robin_arbiter<7> arb;
//   interlock::request_builder<interlock::round_robin_arbiter<7>> build;
//   interlock::candidate_view view;
//   view.requests = 0b0100101;
//   interlock::grant g = arb.grant(build(view));      // 6 (Anton 2's order)
#ifndef INTERLOCK_CORE_CANDIDATES_HPP
#define INTERLOCK_CORE_CANDIDATES_HPP

#include <cstdint>
#include <type_traits>

#include "interlock/core/span.hpp"

namespace interlock {

/// The unit a packet size is given in.
enum class size_unit : std::uint8_t { packets, flits, credits, bytes };

/// What an output sees of its candidates (see the contract above).
struct candidate_view {
  std::uint64_t requests = 0;
  span<const std::uint16_t> age;
  span<const std::uint8_t> pattern;
  span<const std::uint32_t> flits;
  span<const std::uint8_t> priority;
};

/// Makes Policy's request_type from a candidate_view; each policy header
/// specializes it.
template <class Policy, class = void>
class request_builder;

namespace detail {
template <class T, class = void>
struct is_complete_builder : std::false_type {};
template <class T>
struct is_complete_builder<T, std::void_t<decltype(sizeof(T))>> : std::true_type {};
}  // namespace detail

template <class Policy>
inline constexpr bool has_request_builder_v =
    detail::is_complete_builder<request_builder<Policy>>::value;

}  // namespace interlock

#endif  // INTERLOCK_CORE_CANDIDATES_HPP
