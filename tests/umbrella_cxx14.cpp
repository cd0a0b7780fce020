// SPDX-License-Identifier: BSL-1.0
// Compiled with -std=c++14 by the header checks: the umbrella header must
// stop with its one clear error.
#include <interlock/interlock.hpp>
