// SPDX-License-Identifier: BSL-1.0
// A grid of independent runs (a sweep's loads, an experiment's cells) on
// --jobs threads. run_grid(cells, jobs, run, emit): run(k, alone) computes
// cell k on any thread (`alone`: it is the only run in progress, so it may
// draw its own progress bar); emit(k, result) is called on the calling
// thread in the order of the cells, each once every cell before it has been
// emitted, so what a program prints and writes equals --jobs 1's. An
// exception from run(k) is rethrown when cell k's turn comes, after the
// threads have stopped taking new cells. With more than one job, a label
// and stderr a terminal, "LABEL: N of M done" is shown there.
#ifndef INTERLOCK_EXAMPLES_CLI_GRID_HPP
#define INTERLOCK_EXAMPLES_CLI_GRID_HPP

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace cli {

/// --jobs's default: the machine's cores (1 where unknown).
inline std::size_t default_jobs() {
  return std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

template <class Run, class Emit>
void run_grid(std::size_t cells, std::size_t jobs, Run&& run, Emit&& emit,
              const char* label = "grid") {
  using result = std::decay_t<decltype(run(std::size_t{0}, true))>;
  jobs = std::min(jobs, cells);
  if (jobs <= 1) {
    for (std::size_t k = 0; k < cells; ++k) {
      result r = run(k, true);
      emit(k, r);
    }
    return;
  }
  struct cell {
    result r{};
    std::exception_ptr error;
    bool done = false;
  };
  std::vector<cell> out(cells);
  std::mutex mutex;
  std::condition_variable ready;
  std::size_t next = 0, finished = 0;
  const bool tty = label != nullptr && isatty(2) != 0;
  std::vector<std::thread> threads;
  // Stops the threads taking cells and joins them, however the loop below ends.
  struct joiner {
    std::vector<std::thread>& threads;
    std::mutex& mutex;
    std::size_t& next;
    std::size_t cells;
    ~joiner() {
      {
        std::lock_guard<std::mutex> lock(mutex);
        next = cells;
      }
      for (std::thread& t : threads) t.join();
    }
  } join{threads, mutex, next, cells};
  for (std::size_t j = 0; j < jobs; ++j)
    threads.emplace_back([&] {
      for (;;) {
        std::size_t k = 0;
        {
          std::lock_guard<std::mutex> lock(mutex);
          if (next >= cells) return;
          k = next++;
        }
        result r{};
        std::exception_ptr error;
        try {
          r = run(k, false);
        } catch (...) {
          error = std::current_exception();
        }
        {
          std::lock_guard<std::mutex> lock(mutex);
          out[k].r = std::move(r);
          out[k].error = error;
          out[k].done = true;
          ++finished;
          if (tty) std::fprintf(stderr, "\r%s: %zu of %zu done", label, finished, cells);
        }
        ready.notify_all();
      }
    });
  for (std::size_t k = 0; k < cells; ++k) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      ready.wait(lock, [&] { return out[k].done; });
    }
    if (out[k].error) {
      if (tty) std::fprintf(stderr, "\r%60s\r", "");
      std::rethrow_exception(out[k].error);
    }
    if (tty) {
      std::lock_guard<std::mutex> lock(mutex);
      std::fprintf(stderr, "\r%60s\r", "");
    }
    emit(k, out[k].r);
    out[k].r = result{};  // emitted: not kept
    if (tty && k + 1 < cells) {
      std::lock_guard<std::mutex> lock(mutex);
      std::fprintf(stderr, "\r%s: %zu of %zu done", label, finished, cells);
    }
  }
  if (tty) std::fprintf(stderr, "\r%60s\r", "");
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_GRID_HPP
