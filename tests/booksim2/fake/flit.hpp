// SPDX-License-Identifier: BSL-1.0
// tests/booksim2/fake/flit.hpp: the fields of BookSim2's Flit that
// examples/integrations/booksim2 reads, written for interlock's tests (no BookSim2 code).
#ifndef INTERLOCK_TESTS_BOOKSIM2_FAKE_FLIT_HPP
#define INTERLOCK_TESTS_BOOKSIM2_FAKE_FLIT_HPP

class Flit {
 public:
  int vc = 0;
  bool head = true;
  bool tail = true;
  int pri = 0;
  int hops = 0;
};

#endif  // INTERLOCK_TESTS_BOOKSIM2_FAKE_FLIT_HPP
