// SPDX-License-Identifier: BSL-1.0
// interlock/model/lanes.hpp: a network's cycle split over threads, each lane a block
// of routers whose events and counts are kept apart and merged in router order.
//
// Contract
//   lane_pool(threads) keeps threads - 1 workers; run(f) calls f(k) for
//   every lane k = 0 .. threads - 1 (lane 0 on the calling thread) and
//   returns when all have returned. Workers wait spinning a while, then
//   asleep; they are joined when the pool goes.
//   lane_blocks(routers, lanes) gives the lanes' first routers (and one
//   past the last), each block a whole number of 64-router words of the
//   router state's bitmaps, so no two lanes write one word; fewer lanes
//   than asked where there are fewer words.
//   lane<Net> is what a router's step and its channels see of network Net
//   on one lane: the network's state, its own queue of the events it
//   schedules (in the order scheduled), its own count of packets leaving
//   the network (leaving or, at injection, entering) and whether anything
//   moved. merge(net) schedules the lane's events on the network's wheel
//   and adds its counts. Merging the lanes in order gives the wheel, the
//   counts and so the run of one thread, bit for bit, because within a
//   phase a router reads and writes only its own state and the packets in
//   its buffers, and an endpoint its own (injection_unit.hpp says what it
//   keeps apart besides); the network steps on one thread what does not:
//   deliveries, the link timeline, on_send.
//
// Example
//   interlock::model::lane_pool pool(2);
//   std::vector<int> done(2, 0);
//   pool.run([&](std::size_t k) { done[k] = 1; });  // done == {1, 1}
#ifndef INTERLOCK_MODEL_LANES_HPP
#define INTERLOCK_MODEL_LANES_HPP

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "interlock/model/event_wheel.hpp"
#include "interlock/topology/torus.hpp"

namespace interlock {
namespace model {

class lane_pool {
 public:
  explicit lane_pool(std::size_t threads) : lanes_(threads == 0 ? 1 : threads) {
    for (std::size_t k = 1; k < lanes_; ++k) workers_.emplace_back([this, k] { work(k); });
  }
  lane_pool(const lane_pool&) = delete;
  lane_pool& operator=(const lane_pool&) = delete;
  ~lane_pool() {
    stop_.store(true, std::memory_order_relaxed);
    next_generation();
    for (std::thread& w : workers_) w.join();
  }

  std::size_t lanes() const noexcept { return lanes_; }

  /// Calls f(k) for every lane k, lane 0 here; returns when all are done.
  template <class F>
  void run(F&& f) {
    if (lanes_ == 1) {
      f(std::size_t{0});
      return;
    }
    job_ = &invoke<std::remove_reference_t<F>>;
    context_ = &f;
    done_.store(0, std::memory_order_relaxed);
    next_generation();
    f(std::size_t{0});
    for (unsigned spins = 0; done_.load(std::memory_order_acquire) != lanes_ - 1; ++spins)
      if (spins >= 1024) std::this_thread::yield();
  }

 private:
  template <class F>
  static void invoke(void* f, std::size_t k) {
    (*static_cast<F*>(f))(k);
  }

  // The workers' next job is ready (a sleeping worker is woken).
  void next_generation() {
    {
      std::lock_guard<std::mutex> hold(mutex_);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
  }

  void work(std::size_t k) {
    std::uint64_t seen = 0;
    for (;;) {
      const auto moved = [&] { return generation_.load(std::memory_order_acquire) != seen; };
      unsigned spins = 0;
      while (!moved() && spins < (1u << 14)) {
        if (++spins >= 1024) std::this_thread::yield();
      }
      if (!moved()) {
        std::unique_lock<std::mutex> hold(mutex_);
        wake_.wait(hold, moved);
      }
      seen = generation_.load(std::memory_order_acquire);
      if (stop_.load(std::memory_order_relaxed)) return;
      job_(context_, k);
      done_.fetch_add(1, std::memory_order_acq_rel);
    }
  }

  std::size_t lanes_;
  std::vector<std::thread> workers_;
  void (*job_)(void*, std::size_t) = nullptr;
  void* context_ = nullptr;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<std::size_t> done_{0};
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
};

/// The first router of each of at most `lanes` blocks of whole 64-router
/// words, and one past the last router.
inline std::vector<std::size_t> lane_blocks(std::size_t routers, std::size_t lanes) {
  const std::size_t words = (routers + 63) / 64;
  if (lanes > words) lanes = words == 0 ? 1 : words;
  std::vector<std::size_t> first(lanes + 1);
  for (std::size_t k = 0; k <= lanes; ++k) {
    const std::size_t r = (words * k / lanes) * 64;
    first[k] = r < routers ? r : routers;
  }
  return first;
}

/// A lane's events, in the order scheduled.
class lane_events {
 public:
  void schedule(std::uint64_t at, const event& e) { queued_.emplace_back(at, e); }
  template <class Wheel>
  void move_to(Wheel& w) {
    for (const auto& q : queued_) w.schedule(q.first, q.second);
    queued_.clear();
  }

 private:
  std::vector<std::pair<std::uint64_t, event>> queued_;
};

/// What a router hook sees on a lane: nothing (no on_send while stepping on lanes).
struct no_hook {
  explicit operator bool() const noexcept { return false; }
  template <class... Args>
  void operator()(Args&&...) const noexcept {}
};

template <class Net>
struct lane {
  static constexpr bool ages = Net::ages;
  explicit lane(Net& n)
      : net(n),
        s_(n.s_),
        cfg_(n.cfg_),
        f_(n.f_),
        pool_(n.pool_),
        router_(n.router_),
        age_(n.age_),
        age_cfg_(n.age_cfg_),
        m_(n.m_),
        timeline_(n.timeline_) {}

  /// Before a phase: the cycle, and the network's last progress.
  void begin(std::uint64_t t) {
    now_ = t;
    last_progress_ = net.last_progress_;
    in_network_ = 0;
  }
  /// After the lanes before it: the lane's events onto the wheel, its counts added.
  void merge() {
    wheel_.move_to(net.wheel_);
    net.in_network_ += in_network_;  // (modulo 2^64: a router lane's count only falls)
    if (last_progress_ > net.last_progress_) net.last_progress_ = last_progress_;
  }

  // A router's departures, carried by the network's channel unit.
  template <class Choice>
  std::uint64_t carry(node_id r, std::size_t in, const Choice& c, std::size_t o, std::uint32_t id,
                      std::uint32_t flits, std::uint64_t t) {
    return net.channels_.carry(*this, r, in, c, o, id, flits, t);
  }
  void release(node_id r, std::size_t in, std::size_t vc, std::uint32_t flits, std::uint64_t t) {
    net.channels_.release(*this, r, in, vc, flits, t);
  }
  std::uint64_t carry_staged(node_id r, std::size_t o, std::size_t x, std::size_t out_vc,
                             std::uint32_t id, std::uint32_t flits, bool eject, std::uint64_t t) {
    return net.channels_.carry_staged(*this, r, o, x, out_vc, id, flits, eject, t);
  }

  Net& net;
  decltype(Net::s_)& s_;
  const decltype(Net::cfg_)& cfg_;
  const decltype(Net::f_)& f_;
  decltype(Net::pool_)& pool_;
  decltype(Net::router_)& router_;
  decltype(Net::age_)& age_;
  const decltype(Net::age_cfg_)& age_cfg_;
  decltype(Net::m_)& m_;
  decltype(Net::timeline_)& timeline_;
  lane_events wheel_;
  no_hook on_send;
  std::uint64_t now_ = 0, last_progress_ = 0, in_network_ = 0;
};

}  // namespace model
}  // namespace interlock

#endif  // INTERLOCK_MODEL_LANES_HPP
