// Every committed fuzz input — the seed corpus and the regressions (inputs that once broke
// a property, Note [Fuzz properties]) — replayed through its target, in every build: a fixed
// crash stays fixed without clang, and the targets themselves stay compiled and working.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz_target.h"

namespace tide::fuzz {
namespace {

using Target = void (*)(const uint8_t*, size_t);

struct Fuzzer {
  const char* name;
  Target target;
};

// gtest prints a parameter with this (the test names use the fuzzer's name too).
void PrintTo(const Fuzzer& fuzzer, std::ostream* os) { *os << fuzzer.name; }

const Fuzzer kFuzzers[] = {{"device_string", device_string}, {"alloc_conf", alloc_conf},
                           {"views", views},                 {"safetensors", safetensors},
                           {"idx", idx},                     {"allocator", allocator}};

std::vector<std::filesystem::path> inputs_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void replay(const Fuzzer& fuzzer, const std::filesystem::path& file) {
  SCOPED_TRACE(file.string());
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    fuzzer.target(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  } catch (const std::exception& e) {
    ADD_FAILURE() << fuzzer.name << " on " << file.filename() << ": " << e.what();
  }
}

class FuzzInputs : public ::testing::TestWithParam<Fuzzer> {};

TEST_P(FuzzInputs, EverySeedOfTheCorpusKeepsTheProperty) {
  const auto files = inputs_in(std::filesystem::path(TIDE_FUZZ_DIR) / "corpus" / GetParam().name);
  EXPECT_FALSE(files.empty()) << "tests/fuzz/corpus/" << GetParam().name << " has no seed inputs";
  for (const auto& file : files) replay(GetParam(), file);
}

TEST_P(FuzzInputs, EveryRegressionInputKeepsTheProperty) {
  for (const auto& file : inputs_in(std::filesystem::path(TIDE_FUZZ_DIR) / "regressions" / GetParam().name)) {
    replay(GetParam(), file);
  }
}

INSTANTIATE_TEST_SUITE_P(Fuzzers, FuzzInputs, ::testing::ValuesIn(kFuzzers),
                         [](const ::testing::TestParamInfo<Fuzzer>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace tide::fuzz
