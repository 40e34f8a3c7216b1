#pragma once
// Where a test finds the files it reads. The build's paths (TIDE_TEST_DATA_DIR,
// TIDE_TEST_SOURCE_DIR, TIDE_TEST_PYTHON3) point into the machine and tree it was built on; a
// binary run elsewhere, as the GPU bundle's are (Note [GPU bundle] in
// scripts/gpu_check/bundle_layout.py), is told the copies' places by variables of those names.

#include <cstdlib>
#include <string>

namespace tide::test {

/// The environment variable `name` when set and not empty, else the build's `built` path.
inline std::string path_from_env(const char* name, const char* built) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : built;
}

}  // namespace tide::test
