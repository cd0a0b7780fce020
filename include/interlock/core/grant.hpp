// SPDX-License-Identifier: BSL-1.0
// interlock/core/grant.hpp: the result of one arbitration, a requester index or none.
//
// Contract
//   interlock::grant is what every arbitrate() returns and every commit()
//   takes. It holds a requester index or "no grant"; it is 4 bytes, trivially
//   copyable and comparable. A default-constructed grant is no grant.
//   Committing no grant is a defined no-op for every policy.
//
//   index() of no grant returns grant::none_index (a value no requester has);
//   the policies treat any index they do not have as no grant.
//
//   no_grant() names no grant; test a grant with `if (g)`, `if (!g)` or
//   g.valid() (there is no member none(): a predicate misspelt as a call
//   does not compile).
//
// Example
//   interlock::round_robin_arbiter<4> arb;
//   std::uint64_t requests = 0b0110;         // requesters 1 and 2
//   std::size_t forwarded = 9, idle_cycles = 0;
//   interlock::grant g = arb.arbitrate(requests);
//   if (g) forwarded = g.index();
//   if (!g) ++idle_cycles;               // no requester was granted
//   arb.commit(g, requests);             // also fine when g is no grant
//   assert(g == interlock::no_grant() || forwarded < 4);
#ifndef INTERLOCK_CORE_GRANT_HPP
#define INTERLOCK_CORE_GRANT_HPP

#include <cstddef>
#include <cstdint>

namespace interlock {

class grant {
 public:
  /// The index no requester has; what index() returns for no grant.
  static constexpr std::size_t none_index = 0xFFFFFFFFu;

  /// No grant.
  constexpr grant() noexcept = default;

  /// A grant to requester `index`; an index >= none_index is no grant.
  constexpr explicit grant(std::size_t index) noexcept
      : index_(index < none_index ? static_cast<std::uint32_t>(index)
                                  : static_cast<std::uint32_t>(none_index)) {}

  constexpr bool valid() const noexcept { return index_ != none_index; }
  constexpr explicit operator bool() const noexcept { return valid(); }

  /// The granted requester; none_index for no grant.
  constexpr std::size_t index() const noexcept { return index_; }

  /// The grant as a one-hot 64-bit vector (0 for no grant or an index >= 64).
  constexpr std::uint64_t vector() const noexcept {
    return index_ < 64 ? std::uint64_t{1} << index_ : 0;
  }

  friend constexpr bool operator==(grant a, grant b) noexcept { return a.index_ == b.index_; }
  friend constexpr bool operator!=(grant a, grant b) noexcept { return a.index_ != b.index_; }

 private:
  std::uint32_t index_ = static_cast<std::uint32_t>(none_index);
};

/// No grant, by name: `return no_grant();`. A free function, not a member,
/// so that a test for no grant cannot be misspelt as a call that compiles
/// (`if (g.none())`): test a grant with `if (!g)` or `g.valid()`.
constexpr grant no_grant() noexcept { return grant(); }

}  // namespace interlock

#endif  // INTERLOCK_CORE_GRANT_HPP
