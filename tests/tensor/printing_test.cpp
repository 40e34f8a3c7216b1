// Tensor::str against torch's own repr (tests/fixtures/print_goldens.json, written by
// scripts/gen_print_goldens.py from torch 1.13), plus what the goldens cannot express.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/golden_json.h"
#include "tensor/print_format.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/print_options.h"
#include "tide/tensor.h"

namespace tide {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

using PrintGolden = test::Golden;

std::vector<PrintGolden> load_goldens() { return test::load_goldens("print_goldens.json"); }

// Builds the golden's tensor in its own dtype, checking first that its values fill its shape
// (the golden file is under test here), then permutes it where the golden asks for a view.
Tensor build(const json& spec) {
  EXPECT_EQ(static_cast<int64_t>(spec.at("values").size()), test::shape_numel(spec));
  Tensor t = test::tensor_from_json(spec);
  if (spec.contains("permute")) t = t.permute(spec.at("permute").get<std::vector<int64_t>>());
  return t;
}

/// The golden's torch.set_printoptions while it lives, then the defaults again.
class ScopedPrintOptions {
 public:
  explicit ScopedPrintOptions(const json& spec) {
    if (!spec.contains("options")) return;
    PrintOptions o;
    const json& given = spec.at("options");
    if (given.contains("precision")) o.precision = given.at("precision").get<int>();
    if (given.contains("threshold")) {
      const json& th = given.at("threshold");
      o.threshold = th.is_string() ? std::numeric_limits<double>::infinity() : th.get<double>();
    }
    if (given.contains("edgeitems")) o.edgeitems = given.at("edgeitems").get<int64_t>();
    if (given.contains("linewidth")) o.linewidth = given.at("linewidth").get<int64_t>();
    if (given.contains("sci_mode")) o.sci_mode = given.at("sci_mode").get<bool>();
    set_printoptions(o);
  }
  ~ScopedPrintOptions() { set_printoptions(PrintOptions{}); }
  ScopedPrintOptions(const ScopedPrintOptions&) = delete;
  ScopedPrintOptions& operator=(const ScopedPrintOptions&) = delete;
};

class PrintsAsTorch : public ::testing::TestWithParam<PrintGolden> {};

TEST_P(PrintsAsTorch, Golden) {
  const json& spec = GetParam().spec;
  ScopedPrintOptions options(spec);
  Tensor t = build(spec);
  const auto expected = spec.at("expected").get<std::string>();
  if (spec.contains("device")) {
    // No GPU is needed to check the layout of a device tensor: only the suffix depends on it.
    EXPECT_EQ(detail::tensor_repr(t, Device(spec.at("device").get<std::string>())), expected);
  } else {
    EXPECT_EQ(t.str(), expected);
  }
}

INSTANTIATE_TEST_SUITE_P(Torch113, PrintsAsTorch, ::testing::ValuesIn(load_goldens()),
                         [](const ::testing::TestParamInfo<PrintGolden>& info) {
                           return info.param.name;
                         });

TEST(Printing, GoldensFileIsPresentAndCoversEveryDtype) {
  auto goldens = load_goldens();
  ASSERT_GE(goldens.size(), 100u) << "missing " << TIDE_TEST_DATA_DIR
                                  << "/print_goldens.json; run scripts/gen_print_goldens.py";
  std::set<std::string> dtypes;
  for (const auto& g : goldens) dtypes.insert(g.spec.at("dtype").get<std::string>());
  EXPECT_EQ(dtypes.size(), 8u);
}

TEST(Printing, MatchesTheApiExamples) {
  EXPECT_EQ(tensor({{1, 2, 3}}).str(), "tensor([[1, 2, 3]])");
  EXPECT_EQ(tensor({1, 2}, dtype(kInt32)).str(), "tensor([1, 2], dtype=tide.int32)");
  EXPECT_EQ(tensor({true, false}).str(), "tensor([ True, False])");
  EXPECT_EQ(tensor(3.5).str(), "tensor(3.5000)");
  EXPECT_EQ(zeros({2, 0}).str(), "tensor([], size=(2, 0))");
}

TEST(Printing, RefusesPrintOptionsOutOfRangeAndKeepsTheOldOnes) {
  PrintOptions bad;
  bad.precision = 101;
  EXPECT_THROW(
      {
        try {
          set_printoptions(bad);
        } catch (const Error& e) {
          EXPECT_THAT(e.what(), HasSubstr("expected a precision from 0 to 100 digits, found 101"));
          throw;
        }
      },
      Error);
  bad = PrintOptions{};
  bad.edgeitems = -1;
  EXPECT_THROW(set_printoptions(bad), Error);
  EXPECT_EQ(get_printoptions().precision, 4);
  EXPECT_EQ(get_printoptions().edgeitems, 3);
  EXPECT_EQ(tensor(3.5).str(), "tensor(3.5000)");
}

TEST(Printing, StreamsTheSameTextAsStr) {
  Tensor t = tensor({{1.5, 2.0}, {3.0, 4.0}});
  std::ostringstream os;
  os << t;
  EXPECT_EQ(os.str(), t.str());
  EXPECT_EQ(os.str(), "tensor([[1.5000, 2.0000],\n        [3.0000, 4.0000]])");
}

TEST(Printing, UndefinedTensorPrintsAsLibtorch) {
  EXPECT_EQ(Tensor().str(), "[ Tensor (undefined) ]");
  std::ostringstream os;
  os << Tensor();
  EXPECT_EQ(os.str(), "[ Tensor (undefined) ]");
}

TEST(Printing, ViewsPrintOnlyTheirOwnElements) {
  Tensor t = tensor({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  EXPECT_EQ(t.narrow(0, 2, 3).str(), "tensor([2, 3, 4])");
  EXPECT_EQ(t.slice(0, 1, std::nullopt, 3).str(), "tensor([1, 4, 7])");
  EXPECT_EQ(t.view({2, 5}).select(1, 4).str(), "tensor([4, 9])");
  EXPECT_EQ(t.view({2, 5}).select(0, 1).select(0, 2).str(), "tensor(7)");
}

TEST(Printing, ExpandedTensorsRepeatTheirValues) {
  EXPECT_EQ(tensor({1.0, 2.0}).expand({2, 2}).str(), "tensor([[1., 2.],\n        [1., 2.]])");
}

TEST(Printing, SummarizedTensorReadsOnlyTheShownElements) {
  // A billion elements that share one storage slot: printing touches only the 6 shown.
  Tensor huge = tensor({0.5}).expand({1000000000});
  EXPECT_EQ(huge.str(), "tensor([0.5000, 0.5000, 0.5000,  ..., 0.5000, 0.5000, 0.5000])");
}

TEST(Printing, DeviceSuffixNamesTheDeviceAndComesBeforeTheDtype) {
  EXPECT_EQ(detail::tensor_repr(tensor({1.0}, dtype(kFloat64)), Device("cuda:1")),
            "tensor([1.], device='cuda:1', dtype=tide.float64)");
  EXPECT_EQ(detail::tensor_repr(tensor({1.0}), Device("cpu")), "tensor([1.])");
}

TEST(Printing, DeviceTensorIsCopiedToTheHostAndNamesItsDevice) {
  if (!cuda::is_available()) GTEST_SKIP() << "no cuda device; run with TIDE_SIM_DEVICES=1";
  Tensor t = full({3, 2}, -5.0).to(Device("cuda:0"));
  EXPECT_EQ(t.str(), "tensor([[-5., -5.],\n        [-5., -5.],\n        [-5., -5.]], device='cuda:0')");
  EXPECT_EQ(tensor({1, 2}, dtype(kInt32)).to(Device("cuda:0")).str(),
            "tensor([1, 2], device='cuda:0', dtype=tide.int32)");
}

TEST(Printing, NegativeNanPrintsWithoutSign) {
  Tensor t = tensor({1.5, 2.0});
  t.data_ptr<float>()[0] = -std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(t.str(), "tensor([nan, 2.])");
}

}  // namespace
}  // namespace tide
