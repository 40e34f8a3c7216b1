// tide::save and tide::load: interop with the safetensors package both ways (a committed file
// it wrote, byte-identical output, and the package reading tide's file when installed), any
// device in and out, and every way a file can be broken or lie.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/device_test_util.h"
#include "support/error_of.h"
#include "support/test_paths.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::AllOf;
using ::testing::HasSubstr;

const std::string kFixture =
    test::path_from_env("TIDE_TEST_DATA_DIR", TIDE_TEST_DATA_DIR) + "/safetensors/fixture.safetensors";

// A path of its own per test and process: ctest runs this binary in several configurations at once.
std::string temp_path(const std::string& stem) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "tide_serialize_" + std::to_string(getpid()) + "_" + info->name() +
         "_" + stem + ".safetensors";
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A safetensors file's bytes: the header's length, the header, the data.
std::string file_bytes(const std::string& header, const std::string& data = "",
                       uint64_t length = UINT64_MAX) {
  if (length == UINT64_MAX) length = header.size();
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(length >> (8 * i));
  return out + header + data;
}

// The message load raises for a file with this header and data.
std::string load_error(const std::string& header, const std::string& data) {
  const std::string path = temp_path("lie");
  write_bytes(path, file_bytes(header, data));
  return error_of([&] { load(path); });
}

template <class T>
Tensor from_values(std::vector<int64_t> shape, const std::vector<T>& values) {
  Tensor t = empty(std::move(shape), TensorOptions().device(Device(kCPU)).dtype(dtype_v<T>));
  EXPECT_EQ(static_cast<size_t>(t.numel()), values.size());
  T* out = t.data_ptr<T>();
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];  // vector<bool> has no data()
  return t;
}

// The tensors of scripts/gen_safetensors_fixture.py, built independently of the file.
std::map<std::string, Tensor> fixture_tensors() {
  std::vector<float> layer;
  for (int i = 0; i < 24; ++i) layer.push_back(static_cast<float>(i) / 8 - 1);
  using BF = BFloat16;
  const auto bf = [](uint16_t bits) { return BF(bits, BF::from_bits_t{}); };
  return {
      {"mask", from_values<bool>({2, 3}, {true, false, true, false, false, true})},
      {"bytes", from_values<uint8_t>({4}, {0, 1, 127, 255})},
      {"i32.matrix", from_values<int32_t>({2, 2}, {std::numeric_limits<int32_t>::min(), -1, 0,
                                                   std::numeric_limits<int32_t>::max()})},
      {"i64.scalar", from_values<int64_t>({}, {-9007199254740993})},
      {"i64.vector", from_values<int64_t>({3}, {std::numeric_limits<int64_t>::min(), 0,
                                                std::numeric_limits<int64_t>::max()})},
      {"f16", from_values<Half>({5}, {Half(1.0f), Half(-2.5f), Half(65504.0f),
                                      Half(std::numeric_limits<float>::infinity()), Half(-0.0f)})},
      {"bf16", from_values<BF>({2, 2}, {bf(0x3F80), bf(0xC000), bf(0x3F00), bf(0x4049)})},
      {"layer.0.weight", from_values<float>({2, 3, 4}, layer)},
      {"f32.empty", from_values<float>({0, 4}, {})},
      {"f64.scalar", from_values<double>({}, {3.141592653589793})},
      {"f64.empty", from_values<double>({0}, {})},
      {"na\xc3\xafve", from_values<double>({2}, {0.1, -1e300})},
  };
}

// Same dtype, shape and bytes (NaN payloads and signed zeros included); `actual` on any device.
::testing::AssertionResult same_bits(const Tensor& expected, const Tensor& actual) {
  if (expected.dtype() != actual.dtype() || expected.sizes() != actual.sizes()) {
    return ::testing::AssertionFailure()
           << "found " << name(actual.dtype()) << " " << actual.str() << ", expected "
           << name(expected.dtype()) << " " << expected.str();
  }
  const Tensor a = actual.cpu().contiguous(), e = expected.cpu().contiguous();
  if (std::memcmp(a.raw_data(), e.raw_data(), e.nbytes()) != 0) {
    return ::testing::AssertionFailure()
           << "values differ: " << actual.str() << " vs " << expected.str();
  }
  return ::testing::AssertionSuccess();
}

void expect_same_tensors(const std::map<std::string, Tensor>& expected,
                         const std::map<std::string, Tensor>& actual) {
  ASSERT_EQ(actual.size(), expected.size());
  for (const auto& [key, tensor] : expected) {
    ASSERT_EQ(actual.count(key), 1u) << "missing " << key;
    EXPECT_TRUE(same_bits(tensor, actual.at(key))) << key;
  }
}

// ---- interop with the safetensors package

TEST(Safetensors, LoadsEveryDtypeFromAFileThePythonPackageWrote) {
  const auto loaded = load(kFixture);
  expect_same_tensors(fixture_tensors(), loaded);
  for (const auto& [key, tensor] : loaded) EXPECT_TRUE(tensor.is_cpu()) << key;
  EXPECT_EQ(loaded.at("i64.scalar").dim(), 0);
  EXPECT_EQ(loaded.at("i64.scalar").item<int64_t>(), -9007199254740993);
  EXPECT_EQ(loaded.at("f32.empty").sizes(), (std::vector<int64_t>{0, 4}));
  EXPECT_FLOAT_EQ(loaded.at("bf16").to(kFloat32).tolist<float>()[3], 3.140625f);
  EXPECT_EQ(loaded.at("mask").tolist<bool>(),
            (std::vector<bool>{true, false, true, false, false, true}));
  EXPECT_EQ(load_metadata(kFixture), (std::map<std::string, std::string>{{"format", "pt"}}));
}

TEST(Safetensors, SavesTheSameBytesAsThePythonPackage) {
  const std::string path = temp_path("tide");
  save(fixture_tensors(), path, {{"format", "pt"}});
  const std::string ours = read_bytes(path), theirs = read_bytes(kFixture);
  ASSERT_FALSE(theirs.empty()) << kFixture;
  uint64_t header = 0;
  std::memcpy(&header, ours.data(), 8);
  EXPECT_EQ(header % 8, 0u) << "the header is padded to a multiple of 8 bytes";
  EXPECT_EQ(ours, theirs) << "tide's header: " << ours.substr(8, theirs.size() > 8 ? 600 : 0);
}

TEST(Safetensors, ThePythonPackageReadsWhatTideSaved) {
#ifndef TIDE_TEST_PYTHON3
  GTEST_SKIP() << "CMake found no python3 to run tests/serialize/read_with_safetensors.py; "
                  "SavesTheSameBytesAsThePythonPackage checks the bytes instead";
#else
  const std::string path = temp_path("tide");
  save(fixture_tensors(), path, {{"format", "pt"}});
  // Appended piece by piece: g++ 12 misreads `"'" + std::string` as an overlapping memcpy.
  std::string command = "'";
  command += test::path_from_env("TIDE_TEST_PYTHON3", TIDE_TEST_PYTHON3);
  command += "' -B '";
  command += test::path_from_env("TIDE_TEST_SOURCE_DIR", TIDE_TEST_SOURCE_DIR);
  command += "/serialize/read_with_safetensors.py' '" + path + "' '" + kFixture + "' 2>&1";
  std::FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr) << command;
  std::string output;
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  ASSERT_TRUE(WIFEXITED(status)) << command << "\n" << output;
  if (WEXITSTATUS(status) == 77) {
    GTEST_SKIP() << output << "(pip install safetensors to run this check; "
                 << "SavesTheSameBytesAsThePythonPackage checks the bytes meanwhile)";
  }
  EXPECT_EQ(WEXITSTATUS(status), 0) << command << "\n" << output;
#endif
}

// ---- saving and loading

TEST(Safetensors, NonContiguousTensorsAndViewsAreSavedDenselyAndAsCopies) {
  const Tensor base = arange(12, TensorOptions().dtype(kFloat32)).reshape({3, 4});
  const Tensor transposed = base.t();    // non-contiguous
  const Tensor row = base.select(0, 1);  // a view of 4 elements of 12
  const std::string path = temp_path("views");
  save({{"t", transposed}, {"row", row}, {"base", base}}, path);
  // 12 + 12 + 4 floats: each tensor owns its elements (Note [Shared storage]).
  const std::string bytes = read_bytes(path);
  uint64_t header = 0;
  std::memcpy(&header, bytes.data(), 8);
  EXPECT_EQ(bytes.size() - 8 - header, 28 * sizeof(float));

  auto loaded = load(path);
  EXPECT_TRUE(loaded.at("t").is_contiguous());
  EXPECT_TRUE(same_bits(transposed.contiguous(), loaded.at("t")));
  EXPECT_TRUE(same_bits(row.contiguous(), loaded.at("row")));
  loaded.at("base").fill_(0);  // independent copies: the others keep their values
  EXPECT_EQ(loaded.at("row").tolist<float>(), (std::vector<float>{4, 5, 6, 7}));
}

TEST(Safetensors, AnEmptyMapRoundTripsAsThePackageWritesIt) {
  const std::string path = temp_path("empty");
  save({}, path);
  EXPECT_EQ(read_bytes(path), file_bytes("{}      "));
  EXPECT_TRUE(load(path).empty());
  EXPECT_TRUE(load_metadata(path).empty());
}

TEST(Safetensors, SavesFromAGpuAndLoadsOntoTheMapLocation) {
  TIDE_REQUIRE_DEVICES(1);
  const int last = cuda::device_count() - 1;
  const Device gpu(kCUDA, last);
  std::map<std::string, Tensor> on_gpu;
  for (const auto& [key, tensor] : fixture_tensors()) on_gpu.emplace(key, tensor.to(gpu));
  on_gpu["layer.0.weight"] =
      on_gpu.at("layer.0.weight").transpose(0, 2);  // non-contiguous on the GPU
  const std::string path = temp_path("gpu");
  save(on_gpu, path);

  const auto on_cpu = load(path);
  expect_same_tensors(on_gpu, on_cpu);
  for (const auto& [key, tensor] : on_cpu) EXPECT_TRUE(tensor.is_cpu()) << key;

  const auto mapped = load(path, Device(kCUDA, last));
  expect_same_tensors(on_gpu, mapped);
  for (const auto& [key, tensor] : mapped) EXPECT_EQ(tensor.device(), gpu) << key;

  const auto from_fixture = load(kFixture, std::string("cuda:") + std::to_string(last));
  expect_same_tensors(fixture_tensors(), from_fixture);
  EXPECT_EQ(from_fixture.at("bf16").device(), gpu);
  EXPECT_TRUE(load(kFixture, Device(kCPU)).at("f16").is_cpu());
}

TEST(Safetensors, LoadingOntoADeviceThatDoesNotExistRaises) {
  EXPECT_THAT(error_of([] { load(kFixture, Device(kCUDA, 7)); }), HasSubstr("cuda:7"));
}

// ---- saving: what a caller can get wrong

TEST(Safetensors, SaveRefusesAnUndefinedTensorAReservedNameAndNonUtf8Names) {
  const std::string path = temp_path("bad");
  const Tensor ok = zeros({2});
  EXPECT_THAT(error_of([&] {
                save({{"w", ok}, {"missing", Tensor()}}, path);
              }),
              AllOf(HasSubstr("[tide::save]"), HasSubstr("'missing' is undefined (a default-constructed Tensor)")));
  EXPECT_THAT(error_of([&] {
                save({{"__metadata__", ok}}, path);
              }),
              AllOf(HasSubstr("[tide::save]"), HasSubstr("reserves for metadata")));
  EXPECT_THAT(error_of([&] {
                save({{"bad\xff", ok}}, path);
              }),
              AllOf(HasSubstr("[tide::save]"), HasSubstr("not valid UTF-8")));
  EXPECT_THAT(error_of([&] {
                save({{"w", ok}}, path, {{"k", "\xc3"}});
              }),
              AllOf(HasSubstr("[tide::save]"), HasSubstr("metadata key 'k'")));
  EXPECT_THAT(error_of([&] {
                save({{"w", ok}}, ::testing::TempDir() + "no/such/dir/x.safetensors");
              }),
              AllOf(HasSubstr("[tide::save] cannot open"), HasSubstr("for writing")));
}

// ---- loading: broken files and lying headers

TEST(Safetensors, LoadNamesAMissingFileAndADirectory) {
  EXPECT_THAT(
      error_of([] { load("/nonexistent/model.safetensors"); }),
      AllOf(HasSubstr("[tide::load] cannot read '/nonexistent/model.safetensors': no such file"),
            HasSubstr("no such file; expected the path of a safetensors file")));
  EXPECT_THAT(error_of([] { load(::testing::TempDir()); }), HasSubstr("not a regular file"));
}

TEST(Safetensors, EveryTruncationOfAValidFileRaisesAnError) {
  const std::string whole = read_bytes(kFixture);
  const std::string path = temp_path("cut");
  // Every length within the first and last 64 bytes, every 5th between: a cut anywhere.
  for (size_t n = 0; n < whole.size(); n += (n < 64 || n + 64 >= whole.size()) ? 1 : 5) {
    write_bytes(path, whole.substr(0, n));
    EXPECT_THAT(error_of([&] { load(path); }), HasSubstr("[tide::load]")) << n << " bytes";
  }
  EXPECT_THAT(error_of([&] {
                write_bytes(path, whole.substr(0, 5));
                load(path);
              }),
              HasSubstr("shorter than the 8-byte header length"));
  EXPECT_THAT(error_of([&] {
                write_bytes(path, whole.substr(0, 100));
                load(path);
              }),
              AllOf(HasSubstr("the header length says"), HasSubstr("truncated")));
  EXPECT_THAT(error_of([&] {
                write_bytes(path, whole.substr(0, whole.size() - 1));
                load(path);
              }),
              AllOf(HasSubstr("tensor 'mask' has data_offsets"), HasSubstr("truncated")));
}

TEST(Safetensors, CorruptedBytesLoadOrRaiseATideErrorAndNothingElse) {
  // Random byte changes anywhere in a valid file: each load either succeeds (a changed value)
  // or raises tide::Error; any other exception fails the test, and ASan catches bad reads.
  const std::string whole = read_bytes(kFixture);
  const std::string path = temp_path("flip");
  std::mt19937 rng(12345);
  int raised = 0;
  for (int round = 0; round < 300; ++round) {
    std::string bytes = whole;
    for (int k = 0; k < 1 + round % 3; ++k) {
      bytes[rng() % bytes.size()] = static_cast<char>(rng() % 256);
    }
    write_bytes(path, bytes);
    const std::string message = error_of([&] { load(path); });
    if (message != "<no error>") {
      EXPECT_THAT(message, HasSubstr("[tide::load] '")) << round;
      ++raised;
    }
  }
  EXPECT_GT(raised, 0);
}

TEST(Safetensors, LoadMetadataNamesItselfInItsErrors) {
  EXPECT_THAT(error_of([] { load_metadata("/nonexistent/x.safetensors"); }),
              HasSubstr("[tide::load_metadata] cannot read"));
}

TEST(Safetensors, AHeaderLengthBeyondTheLimitRaises) {
  const std::string path = temp_path("huge");
  write_bytes(path, file_bytes("{}", "", uint64_t{1} << 62));
  EXPECT_THAT(error_of([&] { load(path); }), HasSubstr("more than safetensors' limit"));
  write_bytes(path, file_bytes("{}", "", UINT64_MAX - 1));
  EXPECT_THAT(error_of([&] { load(path); }), HasSubstr("more than safetensors' limit"));
}

TEST(Safetensors, AHeaderThatIsNotJsonOrNotAnObjectRaises) {
  EXPECT_THAT(load_error("{\"a\": {\"dtype\": ", ""), HasSubstr("the header is not valid JSON"));
  EXPECT_THAT(load_error("\xff\xfe garbage", ""), HasSubstr("the header is not valid JSON"));
  EXPECT_THAT(load_error("{\"\xc3\": 1}", ""), HasSubstr("not valid JSON"));  // not UTF-8
  EXPECT_THAT(load_error("[1, 2]  ", ""), HasSubstr("expected a JSON object of tensors"));
  EXPECT_THAT(load_error("", ""), HasSubstr("not valid JSON"));
  EXPECT_THAT(load_error("{\"a\": [[[[1]]]]}", ""), HasSubstr("nests deeper"));
  EXPECT_THAT(load_error("{\"a\": 5}", ""),
              HasSubstr("tensor 'a' is described by 5, expected an object"));
  EXPECT_THAT(load_error("{\"a\": {\"dtype\": \"F32\", \"shape\": [1]}}", "abcd"),
              HasSubstr("tensor 'a' has no \"data_offsets\""));
  EXPECT_THAT(load_error("{\"__metadata__\": {\"k\": 1}}", ""),
              HasSubstr("__metadata__ entry 'k' is 1, expected a string"));
  EXPECT_THAT(load_error("{\"__metadata__\": [\"k\"]}", ""),
              HasSubstr("expected an object of strings"));
}

TEST(Safetensors, AnUnknownDtypeRaisesNamingIt) {
  const auto with_dtype = [](const std::string& code) {
    return load_error(
        "{\"a\": {\"dtype\": \"" + code + "\", \"shape\": [1], \"data_offsets\": [0, 1]}}", "x");
  };
  EXPECT_THAT(with_dtype("F8_E4M3"), AllOf(HasSubstr("tensor 'a' has dtype F8_E4M3"),
                                           HasSubstr("tide has no dtype for"), HasSubstr("BF16")));
  EXPECT_THAT(with_dtype("C64"), HasSubstr("tide has no dtype for"));
  EXPECT_THAT(with_dtype("F33"), HasSubstr("not a safetensors dtype"));
  EXPECT_THAT(
      load_error("{\"a\": {\"dtype\": 32, \"shape\": [1], \"data_offsets\": [0, 4]}}", "abcd"),
      HasSubstr("has dtype 32, expected one of the strings"));
}

TEST(Safetensors, AHeaderThatLiesAboutShapesRaises) {
  const auto entry = [](const std::string& shape, const std::string& offsets) {
    return "{\"a\": {\"dtype\": \"F32\", \"shape\": " + shape + ", \"data_offsets\": " + offsets +
           "}}";
  };
  EXPECT_THAT(load_error(entry("[-1]", "[0, 4]"), "abcd"),
              HasSubstr("size 0 of tensor 'a' is negative"));
  EXPECT_THAT(load_error(entry("[1.5]", "[0, 4]"), "abcd"),
              HasSubstr("expected a non-negative integer"));
  EXPECT_THAT(load_error(entry("\"2\"", "[0, 4]"), "abcd"),
              HasSubstr("expected an array of sizes"));
  EXPECT_THAT(load_error(entry("[9223372036854775808]", "[0, 4]"), "abcd"),
              HasSubstr("more than the largest"));
  EXPECT_THAT(load_error(entry("[4294967296, 4294967296]", "[0, 4]"), "abcd"),
              HasSubstr("overflows 64 bits"));
  EXPECT_THAT(load_error(entry("[2, 3]", "[0, 4]"), "abcd"),
              AllOf(HasSubstr("shape [2, 3] needs 24 bytes but its data_offsets [0, 4] span 4")));
  // A zero size makes the tensor empty whatever the other sizes say.
  const std::string path = temp_path("zero");
  write_bytes(path, file_bytes(entry("[0, 9223372036854775807]", "[0, 0]")));
  EXPECT_EQ(load(path).at("a").numel(), 0);
}

TEST(Safetensors, AHeaderThatLiesAboutOffsetsRaises) {
  const auto two = [](const std::string& a, const std::string& b) {
    return "{\"a\": {\"dtype\": \"U8\", \"shape\": [2], \"data_offsets\": " + a +
           "}, \"b\": {\"dtype\": \"U8\", \"shape\": [2], \"data_offsets\": " + b + "}}";
  };
  EXPECT_THAT(load_error(two("[0, 2]", "[1, 3]"), "abc"),
              AllOf(HasSubstr("tensor 'b'"), HasSubstr("overlaps tensor 'a'")));
  EXPECT_THAT(load_error(two("[0, 2]", "[0, 2]"), "ab"), HasSubstr("overlaps"));
  EXPECT_THAT(load_error(two("[0, 2]", "[3, 5]"), "abcde"),
              HasSubstr("bytes [2, 3) of the data belong to no tensor"));
  EXPECT_THAT(load_error(two("[0, 2]", "[2, 4]"), "abcdef"), HasSubstr("trailing bytes"));
  EXPECT_THAT(load_error(two("[0, 2]", "[2, 4]"), "abc"), HasSubstr("truncated"));
  EXPECT_THAT(load_error(two("[0, 2]", "[4, 2]"), "abcd"), HasSubstr("end before they begin"));
  EXPECT_THAT(load_error(two("[0, 2]", "[-2, 0]"), "ab"),
              HasSubstr("data_offsets[0] of tensor 'b' is negative"));
  EXPECT_THAT(load_error(two("[0, 2]", "[2]"), "abcd"), HasSubstr("expected [begin, end]"));
  EXPECT_THAT(load_error(two("[0, 2]", "[18446744073709551615, 18446744073709551617]"), "abcd"),
              HasSubstr("expected a non-negative integer"));  // past uint64: parsed as a float
  EXPECT_THAT(load_error(two("[0, 2]", "[2, 18446744073709551615]"), "abcd"),
              HasSubstr("truncated"));
}

TEST(Safetensors, DuplicateNamesAndKeysRaise) {
  EXPECT_THAT(load_error("{\"a\": {\"dtype\": \"U8\", \"shape\": [1], \"data_offsets\": [0, 1]},"
                         " \"a\": {\"dtype\": \"U8\", \"shape\": [1], \"data_offsets\": [1, 2]}}",
                         "xy"),
              HasSubstr("names tensor 'a' twice"));
  EXPECT_THAT(load_error("{\"a\": {\"dtype\": \"U8\", \"dtype\": \"F32\", \"shape\": [1], "
                         "\"data_offsets\": [0, 1]}}",
                         "x"),
              HasSubstr("repeats the key 'dtype'"));
}

TEST(Safetensors, ABoolTensorHoldingOtherBytesThanZeroOrOneRaises) {
  EXPECT_THAT(load_error("{\"m\": {\"dtype\": \"BOOL\", \"shape\": [3], \"data_offsets\": [0, 3]}}",
                         std::string("\x01\x00\x02", 3)),
              AllOf(HasSubstr("BOOL tensor 'm' holds the byte 2 at element 2")));
}

TEST(Safetensors, HeadersThePackageAcceptsAreAccepted) {
  // Any order, extra whitespace, null metadata and unknown per-tensor keys (for newer writers).
  const std::string path = temp_path("lenient");
  write_bytes(path,
              file_bytes(" { \"__metadata__\": null, \"b\": {\"shape\": [1], \"dtype\": \"U8\", "
                         "\"data_offsets\": [1, 2], \"note\": 1}, \"a\": {\"dtype\": \"U8\", "
                         "\"shape\": [], \"data_offsets\": [0, 1]} }   ",
                         "\x07\x09"));
  const auto loaded = load(path);
  EXPECT_EQ(loaded.at("a").item<uint8_t>(), 7);
  EXPECT_EQ(loaded.at("b").tolist<uint8_t>(), (std::vector<uint8_t>{9}));
}

}  // namespace
}  // namespace tide
