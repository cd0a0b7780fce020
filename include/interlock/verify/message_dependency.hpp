// SPDX-License-Identifier: BSL-1.0
// interlock/verify/message_dependency.hpp: message-dependent deadlock, a request and its reply
// as one chain of held resources.
//
// A routing scheme whose channel dependency graph is acyclic can still
// deadlock through its endpoints: a node that must send a reply before it
// can take in the next request holds the request's last channel while it
// waits for the reply's first one. Requests and replies that share a
// virtual network then close cycles the routes alone do not have (Song and
// Pinkston; Hansson, Goossens and Radulescu call it message-dependent
// deadlock); a separate virtual network for replies breaks them, because no
// reply ever waits for a request's resource.
//
// request_reply_chain<Scheme> presents that dependency to the channel
// dependency graph checker (verify/channel_dependency_graph.hpp): each of
// its routes is a request from s to d under the scheme, and at d, without
// releasing the request's last hop, the scheme's reply from d back to s.
// The checker then adds the edge from the request's last hop to the reply's
// first, and its verdict and witness cover the protocol as well as the
// routes.
//
// Contract
//   - request_reply_chain(scheme, replies): replies == message_networks::shared
//     routes replies in the request class (the same VCs); separate routes
//     them in the response class (the scheme's VCs for responses). Every pair of
//     a request start and a reply start the scheme enumerates is a route.
//   - A routing function (routing/route.hpp): vcs_per_class() is twice the
//     scheme's, so the request class of the chain spans both of the scheme's
//     classes; only the request class has routes. Check it with the request
//     class alone (cdg_options::classes = {traffic_class::request}).
//   - The state is the scheme's two states, the destination and the phase;
//     it is remembered byte for byte when the scheme's state is.
//
// Example
//   interlock::torus_topology mesh({3, 3}, {false, false});
//   interlock::dimension_order_routing xy(mesh);
//   interlock::verify::cdg_options request;
//   request.classes = {interlock::traffic_class::request};
//   using interlock::verify::message_networks;
//   interlock::verify::request_reply_chain shared(xy, message_networks::shared);
//   interlock::verify::request_reply_chain split(xy, message_networks::separate);
//   assert(!interlock::verify::check_deadlock_freedom(shared, request).deadlock_free());
//   assert(interlock::verify::check_deadlock_freedom(split, request).deadlock_free());
#ifndef INTERLOCK_VERIFY_MESSAGE_DEPENDENCY_HPP
#define INTERLOCK_VERIFY_MESSAGE_DEPENDENCY_HPP

#include <cstdint>
#include <utility>

#include "interlock/routing/route.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock::verify {

enum class message_networks : std::uint8_t { shared, separate };

template <class Scheme>
class request_reply_chain {
 public:
  struct state {
    typename Scheme::state request;
    typename Scheme::state reply;
    node_id destination;
    std::uint32_t replying;  // 0 while the request travels, 1 once the reply does
  };

  request_reply_chain(Scheme scheme, message_networks replies)
      : scheme_(std::move(scheme)), replies_(replies) {}

  decltype(auto) topology() const { return scheme_.topology(); }
  unsigned vcs_per_class() const { return 2 * scheme_.vcs_per_class(); }

  template <class F>
  void for_each_start(node_id source, node_id destination, traffic_class c, F&& f) const {
    if (c != traffic_class::request) return;
    const traffic_class reply_class =
        replies_ == message_networks::shared ? traffic_class::request : traffic_class::response;
    scheme_.for_each_start(source, destination, traffic_class::request,
                           [&](const typename Scheme::state& request, double w) {
                             scheme_.for_each_start(
                                 destination, source, reply_class,
                                 [&](const typename Scheme::state& reply, double v) {
                                   f(state{request, reply, destination, 0}, w * v);
                                 });
                           });
  }

  bool arrived(node_id at, const state& s) const {
    return s.replying != 0 && scheme_.arrived(at, s.reply);
  }

  hop next(node_id at, state& s) const {
    if (s.replying == 0 && at == s.destination && scheme_.arrived(at, s.request)) s.replying = 1;
    return s.replying != 0 ? scheme_.next(at, s.reply) : scheme_.next(at, s.request);
  }

 private:
  Scheme scheme_;
  message_networks replies_;
};

}  // namespace interlock::verify

#endif  // INTERLOCK_VERIFY_MESSAGE_DEPENDENCY_HPP
