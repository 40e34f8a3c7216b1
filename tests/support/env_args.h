#pragma once
// --set-env=NAME=VALUE and --unset-env=NAME arguments for test mains: ctest runs one binary
// per configuration (CMake 3.25's gtest_discover_tests cannot pass a list-valued ENVIRONMENT).

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace tide::test {

/// Applies the environment arguments and returns the others (argv[0] included, then a null
/// entry, as gtest expects); false in `ok` for a malformed one.
inline std::vector<char*> apply_env_args(int argc, char** argv, bool& ok) {
  std::vector<char*> rest;
  ok = true;
  for (int i = 0; i < argc; ++i) {
    const char* arg = argv[i];
    if (std::strncmp(arg, "--set-env=", 10) == 0) {
      const std::string kv(arg + 10);
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "bad %s: expected --set-env=NAME=VALUE\n", arg);
        ok = false;
        continue;
      }
      setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
    } else if (std::strncmp(arg, "--unset-env=", 12) == 0) {
      unsetenv(arg + 12);
    } else {
      rest.push_back(argv[i]);
    }
  }
  return rest;
}

}  // namespace tide::test
