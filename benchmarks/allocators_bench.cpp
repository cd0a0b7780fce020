// SPDX-License-Identifier: BSL-1.0
// Allocation latency (arbitrate + commit of one whole matching) of the
// allocators, as a ratio to floor/<I>/<density%>: one decision of a minimal
// bit-mask round robin over I requesters, measured in the same run. Shapes:
// a 2-D torus router (5 x 5), a 3-D one (7 x 7), the SeaStar's switch
// (28 inputs, 7 ports x 4 VCs, to 7 outputs: shown as N = 28) and a 64-port
// switch (64 x 64). Each allocation's request matrix is random: every
// (input, output) pair requests with the given density (10%, 50%).
//   separable_if/<I>/<d>   separable input-first, round robin in both stages
//   separable_of/<I>/<d>   separable output-first, round robin in both stages
//   islip1/<I>/<d>         iSLIP, 1 iteration
//   islip_log/<I>/<d>      iSLIP, ceil(log2 I) iterations
//   wavefront/<I>/<d>      wavefront (maximal)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include <interlock/allocators/islip.hpp>
#include <interlock/allocators/separable.hpp>
#include <interlock/allocators/wavefront.hpp>

#include "support/floor.hpp"
#include "support/streams.hpp"

namespace {

using namespace interlock_bench;

constexpr double densities[] = {0.1, 0.5};

template <std::size_t I, std::size_t O>
std::vector<interlock::request_matrix<I, O>> matrix_stream(double density) {
  const std::size_t count = stream_length(I);
  const std::vector<std::uint64_t> words =
      request_words(O, density, count * I, 7000 + I + static_cast<std::uint64_t>(density * 100));
  std::vector<interlock::request_matrix<I, O>> out(count);
  for (std::size_t k = 0; k < count; ++k)
    for (std::size_t i = 0; i < I; ++i) out[k].rows[i] = words[k * I + i];
  return out;
}

template <std::size_t I, std::size_t O, class Allocator>
void register_allocator(const char* policy, Allocator prototype) {
  for (double density : densities) {
    benchmark::RegisterBenchmark(name(policy, I, density).c_str(), [=](benchmark::State& state) {
      const auto stream = matrix_stream<I, O>(density);
      Allocator a = prototype;
      time_decisions(state, stream.size(),
                     [&](std::size_t k) { return a.allocate(stream[k]).matched_inputs(); });
    });
  }
}

constexpr std::size_t log2_ceil(std::size_t n) {
  std::size_t b = 0;
  while ((std::size_t{1} << b) < n) ++b;
  return b;
}

template <std::size_t I, std::size_t O>
void register_shape() {
  for (double density : densities) {
    benchmark::RegisterBenchmark(name("floor", I, density).c_str(),
                                 [=](benchmark::State& state) { time_floor(state, I, density); });
  }
  register_allocator<I, O>("separable_if", interlock::separable_input_first<I, O>());
  register_allocator<I, O>("separable_of", interlock::separable_output_first<I, O>());
  register_allocator<I, O>("islip1", interlock::islip_allocator<I, O>(1));
  register_allocator<I, O>("islip_log", interlock::islip_allocator<I, O>(log2_ceil(I)));
  register_allocator<I, O>("wavefront", interlock::wavefront_allocator<I, O>());
}

void register_all() {
  register_shape<5, 5>();
  register_shape<7, 7>();
  register_shape<28, 7>();
  register_shape<64, 64>();
}

const bool registered = (register_all(), true);

}  // namespace
