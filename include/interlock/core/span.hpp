// SPDX-License-Identifier: BSL-1.0
// interlock/core/span.hpp: a pointer and a length, for per-requester data.
//
// Contract
//   interlock::span<T> is the C++17 stand-in for std::span<T>: a non-owning
//   view of `size()` contiguous T. Policies take per-requester data (ages,
//   packet sizes, labels) as a span, never as a copy. at(i) of an index
//   outside the span returns `fallback` instead of reading out of bounds, so
//   a decision path given too short a span stays defined behaviour.
//
// Example
//   std::array<std::uint8_t, 8> ages{};
//   interlock::span<const std::uint8_t> view(ages);
//   assert(view.size() == 8 && view.at(9, 0) == 0);
#ifndef INTERLOCK_CORE_SPAN_HPP
#define INTERLOCK_CORE_SPAN_HPP

#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace interlock {

template <class T>
class span {
 public:
  constexpr span() noexcept = default;
  constexpr span(T* data, std::size_t size) noexcept
      : data_(data), size_(data == nullptr ? 0 : size) {}
  template <std::size_t N>
  constexpr span(std::array<std::remove_const_t<T>, N>& a) noexcept : span(a.data(), N) {}
  template <std::size_t N, class U = T, class = std::enable_if_t<std::is_const_v<U>>>
  constexpr span(const std::array<std::remove_const_t<T>, N>& a) noexcept : span(a.data(), N) {}
  template <std::size_t N>
  constexpr span(T (&a)[N]) noexcept : span(a, N) {}
  span(std::vector<std::remove_const_t<T>>& v) noexcept : span(v.data(), v.size()) {}
  template <class U = T, class = std::enable_if_t<std::is_const_v<U>>>
  span(const std::vector<std::remove_const_t<T>>& v) noexcept : span(v.data(), v.size()) {}

  constexpr T* data() const noexcept { return data_; }
  constexpr std::size_t size() const noexcept { return size_; }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr T* begin() const noexcept { return data_; }
  constexpr T* end() const noexcept { return data_ + size_; }
  /// Element i; the caller guarantees i < size().
  constexpr T& operator[](std::size_t i) const noexcept { return data_[i]; }
  /// Element i, or `fallback` when i >= size().
  constexpr std::remove_const_t<T> at(std::size_t i,
                                      std::remove_const_t<T> fallback) const noexcept {
    return i < size_ ? data_[i] : fallback;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace interlock

#endif  // INTERLOCK_CORE_SPAN_HPP
