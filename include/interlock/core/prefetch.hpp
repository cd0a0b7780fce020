// SPDX-License-Identifier: BSL-1.0
// interlock/core/prefetch.hpp: asking the cache for a line ahead of its use.
//
// Contract
//   interlock::prefetch(p) asks the cache for the line holding p, for
//   reading, where the compiler offers it (GCC, Clang); elsewhere it does
//   nothing. prefetch_lines(first, n) asks for every line the n > 0
//   objects from `first` occupy. A hint only: it never faults, even for an
//   address no longer valid, and a program's results are the same with or
//   without it.
//
// Example
//   std::vector<int> v(1 << 20);
//   interlock::prefetch(&v[12345]);  // the later read of v[12345] may hit
#ifndef INTERLOCK_CORE_PREFETCH_HPP
#define INTERLOCK_CORE_PREFETCH_HPP

#include <cstddef>

namespace interlock {

inline void prefetch(const void* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
  // An empty volatile asm on p: without it GCC may find a function whose
  // only effects are prefetches pure and delete the calls to it.
  __asm__ __volatile__("" : : "r"(p));
#else
  (void)p;
#endif
}

template <class T>
void prefetch_lines(const T* first, std::size_t n) noexcept {
  const char* p = reinterpret_cast<const char*>(first);
  const char* const last = reinterpret_cast<const char*>(first + n) - 1;
  for (; p < last; p += 64) prefetch(p);
  prefetch(last);
}

}  // namespace interlock

#endif  // INTERLOCK_CORE_PREFETCH_HPP
