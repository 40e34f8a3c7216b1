// tide::torch_save / torch_load / pickle_save / pickle_load: torch.save's zip format both ways
// (a committed file torch 1.13 wrote, and torch reading tide's file where it is installed),
// every dtype, views, containers, devices and map_location, and input that is broken or hostile.

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
#include <string>
#include <vector>

#include "runtime/device_test_util.h"
#include "serialize/torch_zip.h"
#include "support/error_of.h"
#include "support/test_paths.h"
#include "tide/tide.h"

namespace tide {
namespace {

using test::error_of;
using ::testing::AllOf;
using ::testing::HasSubstr;
using namespace std::string_literals;

const std::string kFixture =
    test::path_from_env("TIDE_TEST_DATA_DIR", TIDE_TEST_DATA_DIR) + "/torch_save/fixture.pt";

// A path of its own per test and process: ctest runs this binary in several configurations.
std::string temp_path(const std::string& stem) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string dir = ::testing::TempDir() + "tide_torch_format_" + std::to_string(getpid()) +
                          "_" + info->name();
  std::filesystem::create_directories(dir);
  return dir + "/" + stem + ".pt";
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string as_string(const std::vector<char>& bytes) { return std::string(bytes.begin(), bytes.end()); }

// The elements' bytes in row-major order, from any device and layout.
std::string element_bytes(const Tensor& t) {
  const Tensor c = t.cpu().contiguous();
  return std::string(static_cast<const char*>(c.raw_data()), c.nbytes());
}

::testing::AssertionResult same_tensor(const Tensor& expected, const Tensor& actual) {
  if (expected.dtype() != actual.dtype() || expected.sizes() != actual.sizes() ||
      element_bytes(expected) != element_bytes(actual)) {
    return ::testing::AssertionFailure() << "found " << name(actual.dtype()) << " " << actual.str()
                                         << ", expected " << name(expected.dtype()) << " "
                                         << expected.str();
  }
  return ::testing::AssertionSuccess();
}

// One tensor of each dtype, with values at the edges of its range.
std::vector<Tensor> every_dtype() {
  return {
      tensor({true, false, true}),
      tensor({0, 1, 255}, TensorOptions().dtype(kUInt8)),
      tensor({{std::numeric_limits<int32_t>::min(), -1}, {0, std::numeric_limits<int32_t>::max()}},
             TensorOptions().dtype(kInt32)),
      tensor({std::numeric_limits<int64_t>::min(), int64_t{7}, std::numeric_limits<int64_t>::max()}),
      tensor({0.5, -65504.0, 1e-4}, TensorOptions().dtype(kFloat16)),
      tensor({1.5, -3.0e38}, TensorOptions().dtype(kBFloat16)),
      arange(24, TensorOptions().dtype(kFloat32)).view({2, 3, 4}) / 8 - 1,
      tensor({1.0 / 3, -2.5e300}, TensorOptions().dtype(kFloat64)),
      empty({0, 4}),
      tensor(2.5),  // 0-d
  };
}

// ---- pickles of small programs, for the reader's refusals

std::string op_string(const std::string& s) {
  std::string out = "X";
  for (int i = 0; i < 4; ++i) out += static_cast<char>(s.size() >> (8 * i));
  return out + s;
}

// A pickle that rebuilds one float tensor over storage "0" of `numel` elements.
std::string tensor_pickle(int offset, int size, int stride, int numel = 4) {
  return std::string("\x80\x02") + "ctorch._utils\n_rebuild_tensor_v2\n((" + op_string("storage") +
         "ctorch\nFloatStorage\n" + op_string("0") + op_string("cpu") + "K" +
         static_cast<char>(numel) + "tQK" + static_cast<char>(offset) + "K" +
         static_cast<char>(size) + "\x85K" + static_cast<char>(stride) + "\x85\x89)tR.";
}

// An archive holding `pickle` as archive/data.pkl and `storage0` as archive/data/0.
std::string archive_with(const std::string& pickle, const std::string& storage0 = std::string(16, '\0'),
                         const std::string& top = "archive") {
  std::vector<serialize::ZipRecord> records = {{top + "/data.pkl", pickle.data(), pickle.size()},
                                               {top + "/data/0", storage0.data(), storage0.size()}};
  return as_string(serialize::write_zip(records, "", "test"));
}

std::string load_error(const std::string& pickle) {
  const std::string bytes = archive_with(pickle);
  return error_of([&] { pickle_load(bytes); });
}

// ---- round trips

TEST(TorchFormat, EveryDtypeRoundTripsWithItsValuesAndShape) {
  IValue::List items;
  for (const Tensor& t : every_dtype()) items.emplace_back(t);
  const std::vector<char> bytes = pickle_save(IValue(items));
  const IValue loaded = pickle_load(std::string_view(bytes.data(), bytes.size()));
  ASSERT_TRUE(loaded.is_list());
  ASSERT_EQ(loaded.to_list().size(), items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    EXPECT_TRUE(same_tensor(items[i].to_tensor(), loaded.to_list()[i].to_tensor())) << i;
    EXPECT_TRUE(loaded.to_list()[i].to_tensor().is_cpu());
  }
}

TEST(TorchFormat, ViewsOfOneStorageLoadAsViewsOfOneStorage) {
  const Tensor base = arange(12, TensorOptions().dtype(kFloat32)).view({3, 4});
  const Tensor view = base.slice(0, 1, std::nullopt).slice(1, std::nullopt, std::nullopt, 2);
  const Tensor transposed = base.transpose(0, 1);
  const std::string path = temp_path("views");
  torch_save(IValue::tuple({base, view, transposed, base}), path);
  const IValue loaded = torch_load(path);
  const auto& l = loaded.to_list();
  const Tensor& b = l[0].to_tensor();
  const Tensor& v = l[1].to_tensor();
  const Tensor& t = l[2].to_tensor();
  EXPECT_TRUE(same_tensor(view, v));
  EXPECT_EQ(v.storage_offset(), 4);
  EXPECT_EQ(v.strides(), (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{1, 4}));
  EXPECT_TRUE(v.storage().is_alias_of(b.storage()));
  EXPECT_TRUE(t.storage().is_alias_of(b.storage()));
  Tensor(b).fill_(5);  // a handle on the same tensor
  EXPECT_EQ(v.tolist<float>(), std::vector<float>(4, 5.0f));
  // One record for the one storage.
  const auto zip = serialize::ZipReader::open_file(path, "test");
  EXPECT_THAT(zip.names(), ::testing::UnorderedElementsAre("views/data.pkl", "views/byteorder",
                                                           "views/data/0", "views/version"));
}

TEST(TorchFormat, NestedContainersNumbersAndStringsRoundTrip) {
  IValue::List ints;
  for (int64_t v : {int64_t{0}, int64_t{255}, int64_t{256}, int64_t{65535}, int64_t{65536}, int64_t{-1},
                    int64_t{std::numeric_limits<int32_t>::min()}, int64_t{1} << 31, int64_t{-(int64_t{1} << 40)},
                    int64_t{127} << 32, std::numeric_limits<int64_t>::min(),
                    std::numeric_limits<int64_t>::max()}) {
    ints.emplace_back(v);
  }
  IValue::List many;  // more than 256 memo slots: the four-byte BINPUT/BINGET forms
  for (int i = 0; i < 300; ++i) {
    std::string name = "s";  // appended: g++ 12 misreads "s" + std::string as an overlapping memcpy
    name += std::to_string(i);
    many.emplace_back(IValue::tuple({name, zeros({1})}));
  }
  const IValue state = IValue::dict(
      {{"state", IValue::dict({{0, IValue::dict({{"step", 3}, {"exp_avg", zeros({2})}})}})},
       {"param_groups", IValue::List{IValue::dict({{"lr", 1e-3},
                                                   {"betas", IValue::tuple({0.9, 0.999})},
                                                   {"amsgrad", false},
                                                   {"foreach", IValue()},
                                                   {"params", IValue::List{0, 1}}})}},
       {"ints", ints},
       {"names", IValue::List{"", "na\xc3\xafve", std::string(300, 'x')}},
       {"empties", IValue::tuple({IValue::List{}, IValue::tuple({}), IValue::dict({}),
                                  IValue::dict({}, true)})},
       {"doubles", IValue::List{0.0, -0.0, 1e-310, std::numeric_limits<double>::infinity()}},
       {"many", many}});
  const std::vector<char> bytes = pickle_save(state);
  const IValue loaded = pickle_load(std::string_view(bytes.data(), bytes.size()));
  // Tensors compare by identity: swap the loaded one in after checking it.
  const IValue& exp_avg = loaded.at("state").at(0).at("exp_avg");
  EXPECT_TRUE(same_tensor(zeros({2}), exp_avg.to_tensor()));
  state.at("state").at(0).to_dict().items[1].second = exp_avg;
  for (int i = 0; i < 300; ++i) {
    IValue::List& pair = loaded.at("many").to_list()[i].to_list();
    EXPECT_TRUE(same_tensor(zeros({1}), pair[1].to_tensor()));
    pair[1] = many[i].to_list()[1];
  }
  EXPECT_TRUE(loaded == state);
  EXPECT_FALSE(loaded.at("empties").to_list()[2].to_dict().ordered);
  EXPECT_TRUE(loaded.at("empties").to_list()[3].to_dict().ordered);
  EXPECT_TRUE(std::signbit(loaded.at("doubles").to_list()[1].to_double()));
}

TEST(TorchFormat, AModuleStateDictLoadsIntoAFreshModule) {
  nn::Linear trained(3, 2);
  const std::string path = temp_path("linear");
  torch_save(IValue(trained.state_dict()), path);
  const IValue loaded = torch_load(path);
  EXPECT_TRUE(loaded.to_dict().ordered);  // torch's state_dict type, OrderedDict
  nn::Linear fresh(3, 2);
  fresh.load_state_dict(loaded.to_state_dict());
  EXPECT_TRUE(same_tensor(trained.weight, fresh.weight));
  EXPECT_TRUE(same_tensor(trained.bias, fresh.bias));
}

TEST(TorchFormat, RequiresGradSurvivesTheRoundTrip) {
  const Tensor leaf = ones({2}).requires_grad_();
  const std::vector<char> bytes = pickle_save(leaf);
  const Tensor loaded = pickle_load(std::string_view(bytes.data(), bytes.size())).to_tensor();
  EXPECT_TRUE(loaded.requires_grad());
  EXPECT_TRUE(loaded.is_leaf());
}

// ---- the archive

TEST(TorchFormat, TheTopFolderIsTheFileStemAndRecordsAreStoredAlignedTo64Bytes) {
  const std::string path = temp_path("model");
  torch_save(IValue::List{every_dtype()[0], every_dtype()[6], every_dtype()[7]}, path);
  const std::string bytes = read_bytes(path);
  // Walk the local headers: each record stored (method 0) with its data on a 64-byte boundary.
  size_t offset = 0;
  std::vector<std::string> names;
  auto le = [&](size_t at, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(bytes.at(at + i));
    return v;
  };
  while (bytes.compare(offset, 4, "PK\x03\x04") == 0) {
    const uint64_t name_bytes = le(offset + 26, 2), extra_bytes = le(offset + 28, 2);
    names.push_back(bytes.substr(offset + 30, name_bytes));
    const uint64_t data = offset + 30 + name_bytes + extra_bytes;
    EXPECT_EQ(le(offset + 8, 2), 0u) << names.back() << " is compressed";
    EXPECT_EQ(data % 64, 0u) << names.back();
    offset = data + le(offset + 18, 4);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"model/data.pkl", "model/byteorder", "model/data/0",
                                             "model/data/1", "model/data/2", "model/version"}));
  const std::vector<char> buffer = pickle_save(1);
  EXPECT_EQ(std::string(buffer.data() + 30, 16), "archive/data.pkl");
}

TEST(TorchFormat, AnArchiveLoadsWhateverItsTopFolderIsCalled) {
  const std::string storage = std::string("\0\0\x80\x3f\0\0\0\x40", 8);  // 1.0f, 2.0f
  const std::string bytes = archive_with(tensor_pickle(0, 2, 1, 2), storage, "my checkpoint");
  EXPECT_EQ(pickle_load(bytes).to_tensor().tolist<float>(), (std::vector<float>{1, 2}));
}

// ---- interop with torch

// The values of scripts/gen_torch_save_fixture.py, built independently of the file.
TEST(TorchFormat, LoadsEveryValueOfAFileTorch113Wrote) {
  const IValue f = torch_load(kFixture);
  const std::vector<Tensor> dtypes = every_dtype();
  EXPECT_TRUE(same_tensor(arange(6, TensorOptions().dtype(kFloat32)).view({2, 3}) * 0.5 - 1,
                          f.at("f32").to_tensor()));
  EXPECT_TRUE(same_tensor(dtypes[7], f.at("f64").to_tensor()));
  EXPECT_TRUE(same_tensor(dtypes[4], f.at("f16").to_tensor()));
  EXPECT_TRUE(same_tensor(dtypes[5], f.at("bf16").to_tensor()));
  EXPECT_TRUE(same_tensor(tensor({std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<int64_t>::max(), int64_t{7}}),
                          f.at("i64").to_tensor()));
  EXPECT_TRUE(same_tensor(tensor({{std::numeric_limits<int32_t>::min(), 5}}, TensorOptions().dtype(kInt32)),
                          f.at("i32").to_tensor()));
  EXPECT_TRUE(same_tensor(tensor({0, 200, 255}, TensorOptions().dtype(kUInt8)), f.at("u8").to_tensor()));
  EXPECT_TRUE(same_tensor(dtypes[0], f.at("bool").to_tensor()));
  const Tensor& base = f.at("base").to_tensor();
  const Tensor& view = f.at("view").to_tensor();
  EXPECT_TRUE(view.storage().is_alias_of(base.storage()));
  EXPECT_EQ(view.storage_offset(), 4);
  EXPECT_EQ(view.tolist<float>(), (std::vector<float>{4, 6, 8, 10}));

  const IValue& sd = f.at("state_dict");  // an OrderedDict with _metadata (BUILD)
  EXPECT_TRUE(sd.to_dict().ordered);
  nn::Linear linear(3, 2);
  linear.load_state_dict(sd.to_state_dict());
  // weight - lr * grad with grad = 1 (ones input, sum), lr 0.5: the first step sets momentum = grad.
  EXPECT_TRUE(same_tensor(arange(6, TensorOptions().dtype(kFloat32)).view({2, 3}) / 8 - 0.5,
                          linear.weight));
  EXPECT_EQ(linear.bias.tolist<float>(), (std::vector<float>{-1.5f, 0.5f}));

  const IValue& opt = f.at("optimizer");
  EXPECT_EQ(opt.at("state").at(0).at("momentum_buffer").to_tensor().tolist<float>(),
            std::vector<float>(6, 1.0f));
  const IValue& group = opt.at("param_groups").to_list().at(0);
  EXPECT_EQ(group.at("lr").to_double(), 0.5);
  EXPECT_EQ(group.at("momentum").to_double(), 0.9);
  EXPECT_FALSE(group.at("nesterov").to_bool());
  EXPECT_TRUE(group.at("params") == IValue(IValue::List{0, 1}));

  EXPECT_TRUE(f.at("param").to_tensor().requires_grad());
  EXPECT_EQ(f.at("param").to_tensor().tolist<float>(), (std::vector<float>{2, 4}));
  const IValue& nested = f.at("nested");
  EXPECT_TRUE(nested.to_list()[0] == IValue(1));
  EXPECT_TRUE(nested.to_list()[1] == IValue(-(int64_t{1} << 40)));
  EXPECT_TRUE(nested.to_list()[2] == IValue(3.5));
  EXPECT_TRUE(nested.to_list()[3] == IValue("text"));
  EXPECT_TRUE(nested.to_list()[4] == IValue::tuple({true, IValue()}));
  EXPECT_TRUE(nested.to_list()[5] == IValue::dict({{"k", IValue::List{1, 2}}}, true));
}

// Runs tests/serialize/read_with_torch.py on `paths` (full, weights-only): 0 when torch read it as expected, 77 when
// no interpreter here imports torch.
int read_with_torch(const std::vector<std::string>& paths, std::string& output) {
  std::vector<std::string> pythons = {"/usr/bin/python3"};  // Debian's torch needs Debian's python
#ifdef TIDE_TEST_PYTHON3
  pythons.push_back(test::path_from_env("TIDE_TEST_PYTHON3", TIDE_TEST_PYTHON3));
#endif
  int status = 77;
  for (const std::string& python : pythons) {
    if (!std::filesystem::exists(python)) continue;
    std::string command = "'" + python;
    command += "' -B '";
    command += test::path_from_env("TIDE_TEST_SOURCE_DIR", TIDE_TEST_SOURCE_DIR);
    command += "/serialize/read_with_torch.py' '" + paths[0] + "' '" + paths[1] + "' 2>&1";
    std::FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) continue;
    output.clear();
    char buffer[4096];
    while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
    const int raw = pclose(pipe);
    status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 1;
    if (status != 77) return status;
  }
  return status;
}

TEST(TorchFormat, Torch113ReadsWhatTideSaved) {
  const Tensor base = arange(12, TensorOptions().dtype(kFloat32)).view({3, 4});
  IValue::List dtypes;
  for (const Tensor& t : every_dtype()) dtypes.emplace_back(t);
  nn::Linear linear(3, 2);
  linear.weight.detach().copy_(arange(6, TensorOptions().dtype(kFloat32)).view({2, 3}));
  std::vector<std::pair<IValue, IValue>> items = {
      {"dtypes", dtypes},
      {"base", base},
      {"view", base.slice(0, 1, std::nullopt).slice(1, std::nullopt, std::nullopt, 2)},
      {"state_dict", IValue(linear.state_dict())}};
  // torch 1.13's weights_only unpickler lacks BINFLOAT (torch 2.0 added it): the file it reads
  // holds no Python floats.
  const std::string weights = temp_path("weights_for_torch");
  torch_save(IValue::dict(items), weights);
  items.emplace_back("nested", IValue::List{1, -(int64_t{1} << 40), 3.5, "text",
                                            IValue::tuple({true, IValue()})});
  // Adam's state_dict after two steps whose gradients are all ones (Note [Optimizer
  // state_dict]): torch's Adam over a Linear(3, 2) loads it and steps on.
  nn::Linear trained(3, 2);  // not `linear`, whose saved state_dict holds its own tensors
  optim::Adam adam(trained.parameters(), optim::AdamOptions(0.1).betas({0.8, 0.99}));
  for (int i = 0; i < 2; ++i) {
    adam.zero_grad();
    trained.forward(ones({1, 3})).sum().backward();
    adam.step();
  }
  items.emplace_back("optimizer", adam.state_dict());
  const std::string full = temp_path("for_torch");
  torch_save(IValue::dict(items), full);
  std::string output;
  const int status = read_with_torch({full, weights}, output);
  if (status == 77) GTEST_SKIP() << output << "(no python3 here imports torch)";
  EXPECT_EQ(status, 0) << output;
}

// ---- devices

TEST(TorchFormat, SavesFromAGpuAndLoadsWhereTheMapLocationSays) {
  TIDE_REQUIRE_DEVICES(1);
  const int last = cuda::device_count() - 1;
  const Device gpu(kCUDA, last);
  const Tensor base = arange(12, TensorOptions().dtype(kFloat32).device(gpu)).view({3, 4});
  const IValue value = IValue::tuple({base, base.transpose(0, 1), zeros({2})});
  const std::vector<char> raw = pickle_save(value);
  const std::string_view bytes(raw.data(), raw.size());

  const IValue same = pickle_load(bytes);  // where it was saved
  EXPECT_EQ(same.to_list()[0].to_tensor().device(), gpu);
  EXPECT_TRUE(same.to_list()[1].to_tensor().storage().is_alias_of(same.to_list()[0].to_tensor().storage()));
  EXPECT_TRUE(same.to_list()[2].to_tensor().is_cpu());
  EXPECT_TRUE(same_tensor(base.transpose(0, 1), same.to_list()[1].to_tensor()));

  const IValue on_cpu = pickle_load(bytes, Device(kCPU));
  EXPECT_TRUE(on_cpu.to_list()[0].to_tensor().is_cpu());
  EXPECT_TRUE(on_cpu.to_list()[1].to_tensor().storage().is_alias_of(on_cpu.to_list()[0].to_tensor().storage()));

  const IValue renamed = pickle_load(bytes, map_location_from({{gpu.str(), "cpu"}, {"cpu", "cuda:0"}}));
  EXPECT_TRUE(renamed.to_list()[0].to_tensor().is_cpu());
  EXPECT_EQ(renamed.to_list()[2].to_tensor().device(), Device(kCUDA, 0));

  std::vector<std::string> seen;
  const IValue called = pickle_load(bytes, [&](const std::string& location) {
    seen.push_back(location);
    return Device("cuda:0");
  });
  EXPECT_EQ(seen, (std::vector<std::string>{gpu.str(), "cpu"}));
  EXPECT_EQ(called.to_list()[1].to_tensor().device(), Device(kCUDA, 0));
  EXPECT_TRUE(same_tensor(base.transpose(0, 1), called.to_list()[1].to_tensor()));
}

TEST(TorchFormat, LoadingOntoADeviceThatDoesNotExistRaises) {
  EXPECT_THAT(error_of([] { torch_load(kFixture, Device(kCUDA, 7)); }), HasSubstr("cuda:7"));
}

// ---- what a caller can get wrong

TEST(TorchFormat, TideLoadOnATorchArchiveNamesTorchLoad) {
  EXPECT_THAT(error_of([] { load(kFixture); }),
              AllOf(HasSubstr("[tide::load]"), HasSubstr("tide::torch_load")));
}

TEST(TorchFormat, SavingAnUndefinedTensorOrIntoAMissingFolderRaises) {
  EXPECT_THAT(error_of([] { pickle_save(Tensor()); }),
              AllOf(HasSubstr("[tide::pickle_save]"), HasSubstr("undefined")));
  EXPECT_THAT(error_of([] { torch_save(1, "/nonexistent/folder/x.pt"); }),
              HasSubstr("[tide::torch_save]"));
  EXPECT_THAT(error_of([] { torch_load("/nonexistent/x.pt"); }),
              AllOf(HasSubstr("[tide::torch_load]"), HasSubstr("no such file")));
}

TEST(TorchFormat, ASafetensorsFileOrTheLegacyFormatIsNotAnArchive) {
  const std::string path = temp_path("st");
  save({{"a", zeros({2})}}, path);
  EXPECT_THAT(error_of([&] { torch_load(path); }),
              AllOf(HasSubstr("[tide::torch_load]"), HasSubstr("_use_new_zipfile_serialization")));
}

// ---- broken and hostile input: a tide::Error, never a crash or another exception

TEST(TorchFormat, EveryTruncationOfAnArchiveRaisesATideError) {
  const std::vector<char> raw = pickle_save(IValue::List{arange(5), "x"});
  const std::string bytes(raw.begin(), raw.end());
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_THAT(error_of([&] { pickle_load(std::string_view(bytes.data(), n)); }),
                HasSubstr("[tide::pickle_load]"))
        << n << " bytes";
  }
}

TEST(TorchFormat, CorruptedBytesLoadOrRaiseATideErrorAndNothingElse) {
  const std::vector<char> raw = pickle_save(IValue::dict({{"w", arange(6).view({2, 3})}, {"n", 3}}));
  for (size_t i = 0; i < raw.size(); ++i) {
    std::string bytes(raw.begin(), raw.end());
    bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    try {
      pickle_load(bytes);
    } catch (const Error&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "byte " << i << ": " << e.what();
    }
  }
}

TEST(TorchFormat, AGlobalOutsideTheAllowListIsRefusedNamingIt) {
  EXPECT_THAT(load_error(std::string("\x80\x02") + "cos\nsystem\n" + op_string("echo hi") + "\x85R."),
              AllOf(HasSubstr("[tide::pickle_load]"), HasSubstr("os.system"),
                    HasSubstr("runs no code")));
  EXPECT_THAT(load_error(std::string("\x80\x02") + "ctorch.nn.modules.linear\nLinear\n)\x81."),
              AllOf(HasSubstr("torch.nn.modules.linear.Linear"), HasSubstr("state_dict")));
  // An allowed global called with something it does not take.
  EXPECT_THAT(load_error(std::string("\x80\x02") + "ctorch\nFloatStorage\n)R."),
              HasSubstr("found a call of torch.FloatStorage"));
}

TEST(TorchFormat, AnOpcodeTorchDoesNotWriteIsRefusedNamingIt) {
  EXPECT_THAT(load_error(std::string("\x80\x02") + "S'abc'\n."),
              AllOf(HasSubstr("opcode 0x53"), HasSubstr("at byte 2")));
  EXPECT_THAT(load_error("\x80\x02]q\x00i__builtin__\nobject\n."s),
              HasSubstr("opcode 0x69"));
  EXPECT_THAT(load_error("\x80\x01N."), HasSubstr("protocol 2 to 5"));
  EXPECT_THAT(load_error("\x80\x02NN."), HasSubstr("one value on the stack"));
  EXPECT_THAT(load_error("\x80\x02h\x05."), HasSubstr("slot 5 empty"));
  EXPECT_THAT(load_error("\x80\x02\x8a\x09" + std::string(9, '\1') + "."), HasSubstr("at most 8 bytes"));
}

TEST(TorchFormat, CyclesAndDeepNestingAreRefused) {
  // l = []; l.append(l) as Python pickles it, and a list put into another then changed.
  EXPECT_THAT(load_error("\x80\x02]q\x00h\x00" "a."s), HasSubstr("changed afterwards"));
  // A list put in another, then appended to.
  EXPECT_THAT(load_error("\x80\x02]q\x00]h\x00" "ah\x00K\x01" "a."s), HasSubstr("changed afterwards"));
  std::string deep = "\x80\x02";
  for (int i = 0; i < 2000; ++i) deep += "]";
  for (int i = 0; i < 1999; ++i) deep += "a";
  EXPECT_THAT(load_error(deep + "."), HasSubstr("nested at most 1000 deep"));
}

TEST(TorchFormat, TensorsOutsideTheirStorageAndBadRecordsAreRefused) {
  EXPECT_EQ(pickle_load(archive_with(tensor_pickle(1, 3, 1))).to_tensor().numel(), 3);
  EXPECT_THAT(load_error(tensor_pickle(2, 3, 1)), HasSubstr("inside its storage"));
  EXPECT_THAT(load_error(tensor_pickle(0, 3, 2)), HasSubstr("inside its storage"));
  EXPECT_THAT(load_error(tensor_pickle(0, 2, 1, 5)), HasSubstr("holds 16 bytes; expected 5 float32"));
  // An expanded tensor (stride 0) passed as another tensor's storage: bounded by the bytes.
  const std::string expanded_as_storage =
      "\x80\x02" "ctorch._utils\n_rebuild_tensor_v2\nq\x01" "((" + op_string("storage") +
      "ctorch\nFloatStorage\n" + op_string("0") + op_string("cpu") +
      "K\x04tQK\x00K\x64\x85K\x00\x85\x89)tRq\x02" "h\x01(h\x02K\x32K\x02\x85K\x01\x85\x89)tR\x86."s;
  EXPECT_THAT(load_error(expanded_as_storage), HasSubstr("reaches beyond its storage of 4 elements"));
  const std::string no_storage = tensor_pickle(0, 2, 1);
  std::vector<serialize::ZipRecord> records = {{"archive/data.pkl", no_storage.data(), no_storage.size()}};
  const std::string bytes = as_string(serialize::write_zip(records, "", "test"));
  EXPECT_THAT(error_of([&] { pickle_load(bytes); }), HasSubstr("no record 'archive/data/0'"));
  EXPECT_THAT(error_of([&] { pickle_load(archive_with("", "", "x/y")); }), HasSubstr("no <folder>/data.pkl"));
  std::string chars = tensor_pickle(0, 2, 1);
  chars.replace(chars.find("FloatStorage"), 12, "CharStorage\n");
  chars.erase(chars.find("Storage\n\n") + 8, 1);
  EXPECT_THAT(load_error(chars), AllOf(HasSubstr("torch.CharStorage"), HasSubstr("dtype tide does not have")));
  std::string not_storage = tensor_pickle(0, 2, 1);
  not_storage.replace(not_storage.find("torch\nFloatStorage"), 18, "collections\nOrderedDict");
  EXPECT_THAT(load_error(not_storage), HasSubstr("expected a storage class"));
}

}  // namespace
}  // namespace tide
