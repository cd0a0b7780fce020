// SPDX-License-Identifier: BSL-1.0
// interlock/core/arbiter_traits.hpp: the arbiter protocol as detection traits.
//
// Contract
//   An arbiter is a small copyable value that models a hardware arbiter
//   (docs/design.md, "The decision protocol"):
//
//     using request_type = ...;                               // what it arbitrates over
//     interlock::grant arbitrate(const request_type&) const;  // decide, change nothing
//     void commit(interlock::grant, const request_type&);     // update state; no grant: no-op
//     interlock::grant grant(const request_type&);            // arbitrate, then commit
//     std::size_t size() const;                               // number of requesters
//     bool operator==(const T&, const T&);                    // state comparison
//
//   commit receives the request that arbitrate decided on: some state
//   updates read the granted requester's data (its traffic-pattern label, its
//   packet size). Policies whose update needs only the grant also offer
//   commit(interlock::grant).
//
//   arbiter_base<Derived, Request> writes the convenience once: a policy
//   that derives from it gets request_type and grant() (arbitrate, then
//   commit) and supplies arbitrate and commit.
//
//   is_arbiter_v<T> is true when T has all of these. require_arbiter<T>()
//   static_asserts each member on its own, so a type that misses one is told
//   which one (the message starts with "interlock arbiter protocol:").
//
// Example
//   static_assert(interlock::is_arbiter_v<interlock::round_robin_arbiter<8>>);
//   static_assert(!interlock::is_arbiter_v<int>);
//   auto run = [](auto& a) {  // a function that takes any arbiter
//     interlock::require_arbiter<std::decay_t<decltype(a)>>();
//     return a.grant(0b101);
//   };
//   interlock::round_robin_arbiter<8> rr;
//   assert(run(rr).index() == 2);
#ifndef INTERLOCK_CORE_ARBITER_TRAITS_HPP
#define INTERLOCK_CORE_ARBITER_TRAITS_HPP

#include <cstddef>
#include <type_traits>
#include <utility>

#include "interlock/core/grant.hpp"

namespace interlock {
namespace detail {

template <class T, class = void>
struct has_request_type : std::false_type {};
template <class T>
struct has_request_type<T, std::void_t<typename T::request_type>> : std::true_type {};

template <class T, class = void>
struct has_const_arbitrate : std::false_type {};
template <class T>
struct has_const_arbitrate<T, std::void_t<decltype(std::declval<const T&>().arbitrate(
                                  std::declval<const typename T::request_type&>()))>>
    : std::is_same<decltype(std::declval<const T&>().arbitrate(
                       std::declval<const typename T::request_type&>())),
                   interlock::grant> {};

template <class T, class = void>
struct has_commit : std::false_type {};
template <class T>
struct has_commit<
    T, std::void_t<decltype(std::declval<T&>().commit(
           std::declval<interlock::grant>(), std::declval<const typename T::request_type&>()))>>
    : std::true_type {};

template <class T, class = void>
struct has_grant : std::false_type {};
template <class T>
struct has_grant<T, std::void_t<decltype(std::declval<T&>().grant(
                        std::declval<const typename T::request_type&>()))>>
    : std::is_same<decltype(std::declval<T&>().grant(
                       std::declval<const typename T::request_type&>())),
                   interlock::grant> {};

template <class T, class = void>
struct has_size : std::false_type {};
template <class T>
struct has_size<T, std::void_t<decltype(std::declval<const T&>().size())>>
    : std::is_convertible<decltype(std::declval<const T&>().size()), std::size_t> {};

template <class T, class = void>
struct has_equality : std::false_type {};
template <class T>
struct has_equality<T, std::void_t<decltype(std::declval<const T&>() == std::declval<const T&>())>>
    : std::is_convertible<decltype(std::declval<const T&>() == std::declval<const T&>()), bool> {};

}  // namespace detail

/// request_type and grant() for a policy that supplies arbitrate and commit.
template <class Derived, class Request>
class arbiter_base {
 public:
  using request_type = Request;
  /// arbitrate, then commit.
  interlock::grant grant(const Request& requests) {
    Derived& self = static_cast<Derived&>(*this);
    const interlock::grant g = static_cast<const Derived&>(self).arbitrate(requests);
    self.commit(g, requests);
    return g;
  }

 protected:
  arbiter_base() = default;
};

template <class T>
inline constexpr bool is_arbiter_v =
    detail::has_request_type<T>::value&& detail::has_const_arbitrate<T>::value&&
        detail::has_commit<T>::value&& detail::has_grant<T>::value&& detail::has_size<T>::value&&
            detail::has_equality<T>::value&& std::is_copy_constructible_v<T>;

template <class T>
struct is_arbiter : std::bool_constant<is_arbiter_v<T>> {};

/// Fails to compile, naming the missing member, unless T is an arbiter.
template <class T>
constexpr bool require_arbiter() noexcept {
  static_assert(detail::has_request_type<T>::value,
                "interlock arbiter protocol: T must declare `using request_type = ...;` "
                "(the requests its arbitrate() takes)");
  static_assert(detail::has_const_arbitrate<T>::value,
                "interlock arbiter protocol: T needs `interlock::grant arbitrate(const "
                "request_type&) const` (const: deciding changes no state)");
  static_assert(detail::has_commit<T>::value,
                "interlock arbiter protocol: T needs `void commit(interlock::grant, const "
                "request_type&)` (updates the state; committing no grant is a no-op)");
  static_assert(detail::has_grant<T>::value,
                "interlock arbiter protocol: T needs `interlock::grant grant(const "
                "request_type&)` (arbitrate, then commit)");
  static_assert(detail::has_size<T>::value,
                "interlock arbiter protocol: T needs `std::size_t size() const` "
                "(the number of requesters)");
  static_assert(detail::has_equality<T>::value && std::is_copy_constructible_v<T>,
                "interlock arbiter protocol: T must be copyable and equality-comparable "
                "(its state is a value)");
  return true;
}

}  // namespace interlock

#endif  // INTERLOCK_CORE_ARBITER_TRAITS_HPP
