// SPDX-License-Identifier: BSL-1.0
// interlock/model/router_allocators.hpp: the switch allocators a model router takes, and how
// it builds its policies' requests.
//
// Contract
//   A router's switch allocation matches input ports to output ports each
//   cycle; an input port requests every output one of its heads can go to
//   now. The Allocator parameter of interlock::model::router (router.hpp) is
//   one of the tags below: the two separable allocators, decided by the
//   router's own policies, or either chosen at run time
//   (separable_allocator), or allocators/'s iSLIP and wavefront allocators
//   over the ports (detail::matrix_allocator makes one per router).
//   detail::make_builder builds a policy's request_builder from the age
//   clock, from the policy, or by default; detail::takes_mask_v tells which
//   policies take the requests mask itself, so that no candidate field is
//   gathered for them.
//
// Example
//   interlock::model::islip<8> a{2};   // iSLIP, 2 iterations, up to 8 ports
//   interlock::model::separable_allocator b{true, 4};  // output first, 4 rounds
#ifndef INTERLOCK_MODEL_ROUTER_ALLOCATORS_HPP
#define INTERLOCK_MODEL_ROUTER_ALLOCATORS_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "interlock/allocators/islip.hpp"
#include "interlock/allocators/wavefront.hpp"
#include "interlock/arbiters/age_clock.hpp"
#include "interlock/core/candidates.hpp"
#include "interlock/model/age_support.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

// The router's switch allocation matches input ports to output ports each
// cycle. An input port requests every output one of its heads can go to now.

/// Separable, input first (the default): each input port's InputPolicy picks
/// one of its VCs whose head can go; each output's Policy grants one of the
/// input ports that picked it.
struct separable_input_first {};
/// Separable, output first: each output's Policy grants one of the input
/// ports with a head for it (the head the port's InputPolicy would offer
/// there); each input port's InputPolicy accepts one of its grants.
/// Declined grants are not committed.
struct separable_output_first {};
/// Separable allocation chosen when the network is built, one router type
/// for every choice: input first (output_first false), as
/// separable_input_first, with two switch stages and persistent picks when
/// the configuration asks; or output first in `iterations` rounds (1..16):
/// the first as separable_output_first, later ones iSLIP's iterations over
/// the ports' own policies (unmatched outputs grant among unmatched input
/// ports, committing nothing: iSLIP moves its pointers only in the first).
struct separable_allocator {
  bool output_first = false;
  std::size_t iterations = 1;
};
/// iSLIP (McKeown, ToN'99) over the input and output ports, `iterations`
/// per cycle, with its own round-robin grant and accept pointers:
/// interlock::islip_allocator<Ports, Ports>. The output Policy is not
/// consulted, so it must be round robin; the matched input port's
/// InputPolicy picks the VC among its heads for the output.
template <std::size_t Ports = 16>
struct islip {
  std::size_t iterations = 1;
};
/// The wavefront allocator (Tamir & Chi, TPDS'93) over the ports, with its
/// rotating priority diagonal: interlock::wavefront_allocator<Ports, Ports>.
/// As iSLIP, the output Policy must be round robin.
template <std::size_t Ports = 16>
struct wavefront {};

namespace detail {
struct no_matrix_allocator {};
template <class A>
struct matrix_allocator : std::false_type {
  using type = no_matrix_allocator;
  static constexpr std::size_t ports = 64;
};
template <std::size_t P>
struct matrix_allocator<islip<P>> : std::true_type {
  using type = islip_allocator<P, P>;
  static constexpr std::size_t ports = P;
  static type make(const islip<P>& a) { return type(a.iterations); }
};
template <std::size_t P>
struct matrix_allocator<wavefront<P>> : std::true_type {
  using type = wavefront_allocator<P, P>;
  static constexpr std::size_t ports = P;
  static type make(const wavefront<P>&) { return type(); }
};

template <class P, class = void>
struct has_size : std::false_type {};
template <class P>
struct has_size<P, std::void_t<decltype(std::declval<const P&>().size())>> : std::true_type {};

/// Policy's builder at router r: from the age clock, from the policy (the
/// QoS schedulers' sizes), or default.
template <class P>
request_builder<P> make_builder(const P& p, age_state& age, node_id r, saturation_rule rule) {
  if constexpr (reads_age_v<P>) {
    return request_builder<P>(age.clock(r), rule);
  } else if constexpr (std::is_constructible<request_builder<P>, const P&>::value) {
    (void)age, (void)r, (void)rule;
    return request_builder<P>(p);
  } else {
    (void)p, (void)age, (void)r, (void)rule;
    return request_builder<P>{};
  }
}

/// Whether a policy takes the requests mask itself (round robins): then no
/// candidate field is gathered for it.
template <class P>
inline constexpr bool takes_mask_v = std::is_same<typename P::request_type, std::uint64_t>::value;
}  // namespace detail

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_ROUTER_ALLOCATORS_HPP
