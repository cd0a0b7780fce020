// SPDX-License-Identifier: BSL-1.0
// The one Catch2 main shared by every test binary. RapidCheck reads RC_PARAMS
// when the first property runs; a user's RC_PARAMS wins, otherwise the
// project's fixed default (INTERLOCK_RC_PARAMS, set by CMake) keeps runs
// reproducible.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#ifndef INTERLOCK_RC_PARAMS
#define INTERLOCK_RC_PARAMS "seed=20261121 max_success=100"
#endif

int main(int argc, char* argv[]) {
#if defined(_WIN32)
  if (std::getenv("RC_PARAMS") == nullptr) _putenv_s("RC_PARAMS", INTERLOCK_RC_PARAMS);
#else
  setenv("RC_PARAMS", INTERLOCK_RC_PARAMS, /*overwrite=*/0);
#endif
  return Catch::Session().run(argc, argv);
}
