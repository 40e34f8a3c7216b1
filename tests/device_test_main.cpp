// main() of device test binaries: applies --set-env=NAME=VALUE and --unset-env=NAME before
// any test runs, so ctest can run one binary per device configuration (tests/CMakeLists.txt;
// CMake 3.25's gtest_discover_tests cannot pass a list-valued ENVIRONMENT property).

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    const char* arg = argv[i];
    if (std::strncmp(arg, "--set-env=", 10) == 0) {
      const std::string kv(arg + 10);
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "bad %s: expected --set-env=NAME=VALUE\n", arg);
        return 2;
      }
      setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
    } else if (std::strncmp(arg, "--unset-env=", 12) == 0) {
      unsetenv(arg + 12);
    } else {
      rest.push_back(argv[i]);
    }
  }
  int n = static_cast<int>(rest.size());
  rest.push_back(nullptr);  // argv[argc] is null, and gtest moves it when it removes its flags
  ::testing::InitGoogleTest(&n, rest.data());
  return RUN_ALL_TESTS();
}
