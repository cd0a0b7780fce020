// SPDX-License-Identifier: BSL-1.0
// tests/booksim2/fake/globals.hpp: BookSim2's k-ary n-cube globals, for interlock's tests.
#ifndef INTERLOCK_TESTS_BOOKSIM2_FAKE_GLOBALS_HPP
#define INTERLOCK_TESTS_BOOKSIM2_FAKE_GLOBALS_HPP

extern int gK;
extern int gN;

#endif  // INTERLOCK_TESTS_BOOKSIM2_FAKE_GLOBALS_HPP
