// main() of device test binaries: applies --set-env=NAME=VALUE and --unset-env=NAME before
// any test runs, so ctest can run one binary per device configuration (tests/CMakeLists.txt).

#include <gtest/gtest.h>

#include "support/env_args.h"

int main(int argc, char** argv) {
  bool ok = true;
  std::vector<char*> rest = tide::test::apply_env_args(argc, argv, ok);
  if (!ok) return 2;
  int n = static_cast<int>(rest.size());
  rest.push_back(nullptr);  // argv[argc] is null, and gtest moves it when it removes its flags
  ::testing::InitGoogleTest(&n, rest.data());
  return RUN_ALL_TESTS();
}
