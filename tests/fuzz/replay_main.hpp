// SPDX-License-Identifier: BSL-1.0
// The regression form of a fuzz harness: replays every file named on the
// command line through LLVMFuzzerTestOneInput. Included by each harness when
// it is not built as a libFuzzer target (INTERLOCK_LIBFUZZER undefined).
#ifndef INTERLOCK_TESTS_FUZZ_REPLAY_MAIN_HPP
#define INTERLOCK_TESTS_FUZZ_REPLAY_MAIN_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE...\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; ++i) {
    std::ifstream file(argv[i], std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "%s: %s: cannot open\n", argv[0], argv[i]);
      return 2;
    }
    const std::string bytes((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%d inputs replayed\n", argc - 1);
  return 0;
}

#endif  // INTERLOCK_TESTS_FUZZ_REPLAY_MAIN_HPP
