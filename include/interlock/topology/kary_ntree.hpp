// SPDX-License-Identifier: BSL-1.0
// interlock/topology/kary_ntree.hpp: the k-ary n-tree, a fat tree of 2k-port switches.
//
// The topology [QoSThesis] Section 5.5.2 evaluates (a 4-ary 3-tree: 64 NICs,
// 48 switches of 8 ports), as Petrini and Vanneschi define it: k^n NICs and
// n levels of k^(n-1) switches. Switch <w, l> (w: n-1 digits base k, level l
// = 0 at the leaves) and switch <w', l+1> are joined when w and w' differ
// at most in digit l. A level-l switch reaches, going down, the NICs whose
// leaf switch agrees with w in digits l..n-2.
//
// Port numbering (our choice; the thesis gives none): ports 0..k-1 go down,
// k..2k-1 go up. Leaf down port j holds NIC w * k + j. Up port k + j of <w, l>
// joins <w with digit l = j, l+1> at its down port (digit l of w). The root
// level's up ports are unused.
//
// Routing, up*/down*: a switch whose subtree holds the destination sends the
// packet down (port: digit l-1 of the destination's leaf switch, or the
// NIC's port at a leaf); any other switch sends it up, on any of its k up
// ports: the thesis routes with Valiant's algorithm, spreading packets over
// the paths up; we pick an up port at random per packet at every switch on
// the way up, which reaches a random ancestor at the lowest level whose
// subtree holds both ends (the least common ancestors), not a random root.
//
// Contract
//   kary_ntree(k, n): k 2..16, n 1..8, k^n <= 2^20 NICs (config_error).
//   switch_id(w, l), level(s), digits; leaf(nic), nic_port(nic); up_peer(s,
//   j) and down_peer(s, j) (the switch and its port at the other end);
//   in_subtree(s, nic); down_port(s, nic) for a switch whose subtree holds
//   the NIC. All O(n).
//
// Example
//   interlock::kary_ntree tree(4, 3);     // 64 NICs, 48 switches of 8 ports
//   assert(tree.switches() == 48 && tree.ports() == 8);
#ifndef INTERLOCK_TOPOLOGY_KARY_NTREE_HPP
#define INTERLOCK_TOPOLOGY_KARY_NTREE_HPP

#include <cstddef>
#include <cstdint>
#include <utility>

#include "interlock/core/config_error.hpp"

namespace interlock {

class kary_ntree {
 public:
  kary_ntree(std::size_t k, std::size_t n) : k_(k), n_(n) {
    detail::require_in_range("kary_ntree", "k", k, 2, 16);
    detail::require_in_range("kary_ntree", "n", n, 1, 8);
    per_level_ = 1;
    for (std::size_t i = 0; i + 1 < n; ++i) per_level_ *= k;
    detail::require_in_range("kary_ntree", "NICs (k^n)", per_level_ * k, 2, std::size_t{1} << 20);
  }

  std::size_t k() const noexcept { return k_; }
  std::size_t n() const noexcept { return n_; }
  std::size_t nics() const noexcept { return per_level_ * k_; }
  std::size_t switches_per_level() const noexcept { return per_level_; }
  std::size_t switches() const noexcept { return per_level_ * n_; }
  std::size_t ports() const noexcept { return 2 * k_; }

  /// Switch <w, l>: w the digits as a number (digit i weighs k^i).
  std::size_t switch_id(std::size_t w, std::size_t level) const noexcept {
    return level * per_level_ + w;
  }
  std::size_t level(std::size_t s) const noexcept { return s / per_level_; }
  std::size_t word(std::size_t s) const noexcept { return s % per_level_; }
  std::size_t digit(std::size_t w, std::size_t i) const noexcept {
    for (std::size_t j = 0; j < i; ++j) w /= k_;
    return w % k_;
  }

  /// The leaf switch a NIC hangs on, and its port there.
  std::size_t leaf(std::size_t nic) const noexcept { return switch_id(nic / k_, 0); }
  std::size_t nic_port(std::size_t nic) const noexcept { return nic % k_; }

  /// What up port k + j of s joins: (switch, its down port); s not a root.
  std::pair<std::size_t, std::size_t> up_peer(std::size_t s, std::size_t j) const noexcept {
    const std::size_t l = level(s), w = word(s);
    const std::size_t weight = power(l);
    const std::size_t mine = digit(w, l);
    const std::size_t w2 = w - mine * weight + j * weight;
    return {switch_id(w2, l + 1), mine};
  }
  /// What down port j of s (level >= 1) joins: (switch, its up port).
  std::pair<std::size_t, std::size_t> down_peer(std::size_t s, std::size_t j) const noexcept {
    const std::size_t l = level(s), w = word(s);
    const std::size_t weight = power(l - 1);
    const std::size_t theirs = digit(w, l - 1);
    const std::size_t w2 = w - theirs * weight + j * weight;
    return {switch_id(w2, l - 1), k_ + theirs};
  }

  /// Whether the NIC is below s.
  bool in_subtree(std::size_t s, std::size_t nic) const noexcept {
    const std::size_t l = level(s);
    std::size_t a = word(s), b = nic / k_;
    for (std::size_t i = 0; i < l; ++i) {
      a /= k_;
      b /= k_;
    }
    return a == b;
  }
  /// The down port toward a NIC below s.
  std::size_t down_port(std::size_t s, std::size_t nic) const noexcept {
    const std::size_t l = level(s);
    return l == 0 ? nic_port(nic) : digit(nic / k_, l - 1);
  }

 private:
  std::size_t power(std::size_t i) const noexcept {
    std::size_t p = 1;
    for (std::size_t j = 0; j < i; ++j) p *= k_;
    return p;
  }

  std::size_t k_, n_, per_level_ = 1;
};

}  // namespace interlock

#endif  // INTERLOCK_TOPOLOGY_KARY_NTREE_HPP
