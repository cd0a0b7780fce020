// SPDX-License-Identifier: BSL-1.0
// interlock/core/version.hpp: the library version, defined once.
//
// CMake reads these three macros to version the package, so this header is the
// single source of the version number.
#ifndef INTERLOCK_CORE_VERSION_HPP
#define INTERLOCK_CORE_VERSION_HPP

#define INTERLOCK_VERSION_MAJOR 0
#define INTERLOCK_VERSION_MINOR 1
#define INTERLOCK_VERSION_PATCH 0

/// The version as one integer, MAJOR * 10000 + MINOR * 100 + PATCH.
#define INTERLOCK_VERSION \
  (INTERLOCK_VERSION_MAJOR * 10000 + INTERLOCK_VERSION_MINOR * 100 + INTERLOCK_VERSION_PATCH)

#endif  // INTERLOCK_CORE_VERSION_HPP
