// Advanced indexing and the masked ops against torch 1.13 (tests/fixtures/indexing_goldens.json,
// written by scripts/gen_indexing_goldens.py, whose docstring says how each golden's "op" and
// "args" are read) on the cpu and on every GPU of the configuration: the same values, dtypes
// and shapes, and the same calls rejected — synchronously on the cpu (an IndexingError where
// torch raises IndexError), at the next synchronizing call for errors found on a stream.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "device_helpers.h"
#include "support/golden_json.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"
#include "tide/testing/sim_hooks.h"

namespace tide {
namespace {

using nlohmann::json;
using Inputs = std::vector<Tensor>;
using Outputs = std::vector<Tensor>;
using Runner = std::function<Outputs(const Inputs&, const json&)>;

/// searchsorted's side: null is None.
std::optional<std::string> side_of(const json& args) {
  const json& side = args.at("side");
  return side.is_null() ? std::nullopt : std::optional<std::string>(side.get<std::string>());
}

/// index's and index_put's indices: "t" takes the next input from `next`, null is None.
std::vector<Tensor> indices_of(const json& args, const Inputs& in, size_t& next) {
  std::vector<Tensor> out;
  for (const json& e : args.at("indices")) out.push_back(e.is_null() ? Tensor() : in.at(next++));
  return out;
}

Scalar scalar_of(const json& v) {
  if (v.is_number_integer()) return Scalar(v.get<int64_t>());
  return Scalar(v.get<double>());
}

const std::map<std::string, Runner>& runners() {
  static const std::map<std::string, Runner> r{
      {"index",
       [](const Inputs& in, const json& a) {
         size_t next = 1;
         return Outputs{index(in[0], indices_of(a, in, next))};
       }},
      {"index_put",
       [](const Inputs& in, const json& a) {
         size_t next = 1;
         std::vector<Tensor> idx = indices_of(a, in, next);
         return Outputs{in[0].index_put(idx, in.at(next), a.at("accumulate").get<bool>())};
       }},
      {"nonzero", [](const Inputs& in, const json&) { return Outputs{nonzero(in[0])}; }},
      {"where_cond", [](const Inputs& in, const json&) { return where(in[0]); }},
      {"take", [](const Inputs& in, const json&) { return Outputs{take(in[0], in[1])}; }},
      {"put",
       [](const Inputs& in, const json& a) {
         return Outputs{put(in[0], in[1], in[2], a.at("accumulate").get<bool>())};
       }},
      {"masked_select",
       [](const Inputs& in, const json&) { return Outputs{masked_select(in[0], in[1])}; }},
      {"masked_fill",
       [](const Inputs& in, const json& a) {
         return Outputs{masked_fill(in[0], in[1], scalar_of(a.at("value")))};
       }},
      {"masked_fill_tensor",
       [](const Inputs& in, const json&) { return Outputs{in[0].masked_fill(in[1], in[2])}; }},
      {"masked_scatter",
       [](const Inputs& in, const json&) { return Outputs{masked_scatter(in[0], in[1], in[2])}; }},
      {"gather",
       [](const Inputs& in, const json& a) {
         return Outputs{gather(in[0], a.at("dim").get<int64_t>(), in[1])};
       }},
      {"scatter",
       [](const Inputs& in, const json& a) {
         return Outputs{scatter(in[0], a.at("dim").get<int64_t>(), in[1], in[2])};
       }},
      {"scatter_value",
       [](const Inputs& in, const json& a) {
         return Outputs{in[0].scatter(a.at("dim").get<int64_t>(), in[1], scalar_of(a.at("value")))};
       }},
      {"scatter_add",
       [](const Inputs& in, const json& a) {
         return Outputs{scatter_add(in[0], a.at("dim").get<int64_t>(), in[1], in[2])};
       }},
      {"scatter_reduce",
       [](const Inputs& in, const json& a) {
         return Outputs{scatter_reduce(in[0], a.at("dim").get<int64_t>(), in[1], in[2],
                                       a.at("reduce").get<std::string>(),
                                       a.at("include_self").get<bool>())};
       }},
      {"index_add",
       [](const Inputs& in, const json& a) {
         return Outputs{index_add(in[0], a.at("dim").get<int64_t>(), in[1], in[2],
                                  scalar_of(a.at("alpha")))};
       }},
      {"index_copy",
       [](const Inputs& in, const json& a) {
         return Outputs{in[0].index_copy(a.at("dim").get<int64_t>(), in[1], in[2])};
       }},
      {"index_fill",
       [](const Inputs& in, const json& a) {
         return Outputs{index_fill(in[0], a.at("dim").get<int64_t>(), in[1],
                                   scalar_of(a.at("value")))};
       }},
      {"searchsorted",
       [](const Inputs& in, const json& a) {
         return Outputs{searchsorted(in[0], in[1], a.at("out_int32").get<bool>(),
                                     a.at("right").get<bool>(), side_of(a),
                                     in.size() > 2 ? in[2] : Tensor())};
       }},
      {"searchsorted_scalar",
       [](const Inputs& in, const json& a) {
         return Outputs{searchsorted(in[0], scalar_of(a.at("value")),
                                     a.at("out_int32").get<bool>(), a.at("right").get<bool>(),
                                     side_of(a), in.size() > 1 ? in[1] : Tensor())};
       }},
      {"bucketize",
       [](const Inputs& in, const json& a) {
         return Outputs{bucketize(in[0], in[1], a.at("out_int32").get<bool>(),
                                  a.at("right").get<bool>())};
       }},
      {"bucketize_scalar",
       [](const Inputs& in, const json& a) {
         return Outputs{bucketize(scalar_of(a.at("value")), in[0], a.at("out_int32").get<bool>(),
                                  a.at("right").get<bool>())};
       }},
  };
  return r;
}

std::vector<test::Golden> cxx_goldens() {
  std::vector<test::Golden> out;
  for (test::Golden& g : test::load_goldens("indexing_goldens.json")) {
    if (runners().count(g.spec.at("op").get<std::string>())) out.push_back(std::move(g));
  }
  return out;
}

using test::devices;  // every golden runs on the cpu and each GPU of the configuration

::testing::AssertionResult equals_golden(const Tensor& actual, const json& expected) {
  const Tensor want = test::tensor_from_json(expected);
  if (actual.dtype() != want.dtype() || actual.sizes() != want.sizes()) {
    return ::testing::AssertionFailure() << "got " << actual.str() << ", torch gives "
                                         << want.str();
  }
  // The ops move values and add multiples of 1/8: every result is exact.
  const std::vector<double> a = actual.cpu().to(kFloat64).contiguous().tolist<double>();
  const std::vector<double> w = want.to(kFloat64).tolist<double>();
  for (size_t i = 0; i < w.size(); ++i) {
    if (!(a[i] == w[i] || (std::isnan(a[i]) && std::isnan(w[i])))) {
      return ::testing::AssertionFailure() << "element " << i << " is " << a[i] << ", torch gives "
                                           << w[i] << "\n  actual " << actual.cpu().str();
    }
  }
  return ::testing::AssertionSuccess();
}

class IndexingMatchesTorch : public ::testing::TestWithParam<test::Golden> {};

TEST_P(IndexingMatchesTorch, OnEveryDevice) {
  const json& spec = GetParam().spec;
  const Runner& run = runners().at(spec.at("op").get<std::string>());
  for (const Device& device : devices()) {
    SCOPED_TRACE("on " + device.str());
    Inputs inputs;
    for (const json& t : spec.at("inputs")) inputs.push_back(test::tensor_from_json(t).to(device));
    if (spec.contains("raises")) {
      SCOPED_TRACE("torch says: " + spec.at("raises").get<std::string>());
      const bool index_error = spec.value("error_type", "") == "IndexError";
      try {
        Outputs out = run(inputs, spec.at("args"));
        for (const Tensor& t : out) (void)t.cpu();  // stream errors surface when waited for
        if (!device.is_cpu()) cuda::synchronize(device.index());
        ADD_FAILURE() << "expected tide::Error, as torch rejects this call";
      } catch (const IndexingError&) {
        EXPECT_TRUE(index_error) << "an IndexingError where torch raises RuntimeError";
      } catch (const KernelError& e) {
        EXPECT_FALSE(device.is_cpu()) << "a kernel error on the cpu: " << e.what();
      } catch (const Error& e) {
        EXPECT_FALSE(index_error && device.is_cpu())
            << "torch raises IndexError; tide raised Error: " << e.what();
      }
      continue;
    }
    Outputs out = run(inputs, spec.at("args"));
    const json& expected = spec.at("outputs");
    ASSERT_EQ(out.size(), expected.size());
    for (size_t i = 0; i < out.size(); ++i) {
      EXPECT_EQ(out[i].device(), device);
      EXPECT_TRUE(equals_golden(out[i], expected[i])) << "output " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Torch113, IndexingMatchesTorch, ::testing::ValuesIn(cxx_goldens()),
                         [](const ::testing::TestParamInfo<test::Golden>& info) {
                           return info.param.name;
                         });

TEST(IndexingGoldens, FileIsPresentAndCoversEveryOp) {
  const std::vector<test::Golden> goldens = cxx_goldens();
  ASSERT_GE(goldens.size(), 40u) << "missing " << TIDE_TEST_DATA_DIR
                                 << "/indexing_goldens.json; run scripts/gen_indexing_goldens.py";
  std::map<std::string, int> per_op;
  for (const test::Golden& g : goldens) ++per_op[g.spec.at("op").get<std::string>()];
  for (const auto& [op, runner] : runners()) EXPECT_GT(per_op[op], 0) << op;
}

// ---- writes through views and strides, on every device

TEST(Indexing, IndexPutWritesThroughATransposedViewOnEveryDevice) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    Tensor base = arange(12, tide::device(device).dtype(kFloat32)).reshape({3, 4});
    Tensor view = base.t();  // (4, 3), not contiguous
    view.index_put_({tensor({0, 3}).to(device)}, full({}, -1.f, tide::device(device)));
    EXPECT_EQ(base.cpu().tolist<float>(),
              (std::vector<float>{-1, 1, 2, -1, -1, 5, 6, -1, -1, 9, 10, -1}));
  }
}

TEST(Indexing, AccumulatingPutAddsRepeatedIndicesOnEveryDevice) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    Tensor x = zeros({4}, tide::device(device).dtype(kInt64));
    x.put_(tensor({1, 1, -1, 1}).to(device), tensor({1, 2, 3, 4}).to(device), true);
    EXPECT_EQ(x.cpu().tolist<int64_t>(), (std::vector<int64_t>{0, 7, 0, 3}));
  }
}

TEST(Indexing, MaskedFillInPlaceKeepsSelfsDtypeOnEveryDevice) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    Tensor x = arange(6, tide::device(device).dtype(kInt64));
    Tensor& same = x.masked_fill_(x.gt(3), Scalar(2.75));
    EXPECT_TRUE(same.is_same(x));
    EXPECT_EQ(x.dtype(), kInt64);
    EXPECT_EQ(x.cpu().tolist<int64_t>(), (std::vector<int64_t>{0, 1, 2, 3, 2, 2}));
  }
}

// Note [A mask and one value]: x[mask] = 0.0 is a masked_fill_, which needs no count of the
// mask's ones. With the device's stream held, a write that waited for the device would never
// return: it runs on another thread, and the test gives it a minute (it needs microseconds)
// before releasing the stream.
TEST(Indexing, AMaskAndOneCpuValueWriteWithoutWaitingForTheDevice) {
  TIDE_REQUIRE_DEVICES(1);
  TIDE_REQUIRE_HOLDABLE_STREAMS();
  const Device device("cuda:0");
  Tensor x = arange(6, tide::device(device).dtype(kFloat32)).reshape({2, 3});
  const Tensor mask = x.gt(2.5f);
  cuda::synchronize();
  bool returned = false;
  {
    tide::testing::StreamHold hold(cuda::default_stream(0));
    auto write = std::async(std::launch::async, [&] { x.index_put_({mask}, tensor(-1.f)); });
    returned = write.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
    hold.release();
    write.get();
  }
  EXPECT_TRUE(returned) << "x[mask] = value waited for the device";
  EXPECT_EQ(x.cpu().tolist<float>(), (std::vector<float>{0, 1, 2, -1, -1, -1}));
  // The same through a slice before the mask (x[:, m] = v), and the general path's result
  // for a value on the device (x[m] = v with v on cuda:0) agrees.
  Tensor y = arange(6, tide::device(device).dtype(kFloat32)).reshape({2, 3});
  y.index_put_({Tensor(), tensor({true, false, true}).to(device)}, tensor(7.f));
  Tensor z = arange(6, tide::device(device).dtype(kFloat32)).reshape({2, 3});
  z.index_put_({Tensor(), tensor({true, false, true}).to(device)}, tensor(7.f).to(device));
  EXPECT_EQ(y.cpu().tolist<float>(), (std::vector<float>{7, 1, 7, 7, 4, 7}));
  EXPECT_EQ(z.cpu().tolist<float>(), y.cpu().tolist<float>());
}

TEST(Indexing, NonzeroAfterQueuedWorkSeesItsResult) {
  // Note [Data-dependent shapes]: the count is read after the work queued before it.
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    Tensor x = zeros({1000}, tide::device(device));
    for (int i = 0; i < 5; ++i) x = x + 1;
    x.masked_fill_(arange(1000, tide::device(device)).lt(990), Scalar(0));
    const Tensor nz = x.nonzero();
    EXPECT_EQ(nz.sizes(), (std::vector<int64_t>{10, 1}));
    EXPECT_EQ(nz.cpu().reshape({-1}).tolist<int64_t>()[0], 990);
  }
}

// ---- one kernel where nothing records (Note [A gather of its own], Note [Masked fill in
// place]): the same results as the composite path that autograd records through

TEST(Indexing, GatherOfItsOwnMatchesTheRecordedPathOnStridedOperandsOnEveryDevice) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    const Tensor base = arange(24, tide::device(device).dtype(kFloat32)).reshape({4, 6});
    const Tensor self = base.t();                              // (6, 4), not contiguous
    const Tensor index = tensor({3, 0, 2, 1, 1, 3, 0, 0})      // (2, 4) read as its transpose
                             .reshape({4, 2}).to(device).t();  // strided too
    for (int64_t dim : {0, 1, -1}) {
      SCOPED_TRACE("dim " + std::to_string(dim));
      const Tensor plain = gather(self, dim, index);
      const Tensor recorded = gather(self.detach().requires_grad_(), dim, index);
      EXPECT_TRUE(recorded.requires_grad());  // the composite path ran
      EXPECT_TRUE(test::same_bits(recorded.detach(), plain));
      EXPECT_EQ(plain.device(), device);
    }
  }
}

TEST(Indexing, GatherNamesTheFirstBadIndexAsTorchDoesOnEveryDevice) {
  const std::string torch_says = "index 5 is out of bounds for dimension 1 with size 4";
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    const Tensor a = zeros({3, 4}, tide::device(device));
    const Tensor index = tensor({0, 1, 5, 0, 0, 9}).reshape({3, 2}).to(device);
    if (device.is_cpu()) {
      try {
        (void)gather(a, 1, index);
        ADD_FAILURE() << "expected tide::Error";
      } catch (const IndexingError& e) {
        ADD_FAILURE() << "torch raises RuntimeError here, not IndexError: " << e.what();
      } catch (const Error& e) {
        EXPECT_THAT(e.what(), ::testing::HasSubstr(torch_says));
      }
      continue;
    }
    try {
      // On a stream: reported at the next wait (at the op itself with blocking launches).
      (void)gather(a, 1, index);
      cuda::synchronize(device.index());
      ADD_FAILURE() << "expected the kernel's report at the synchronization";
    } catch (const KernelError& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr(torch_says));
    }
  }
}

TEST(Indexing, MaskedFillInPlaceMatchesTheRecordedPathOnEveryDevice) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    const auto opts = tide::device(device).dtype(kFloat32);
    const Tensor row_mask = tensor({true, false, false, true}).to(device);
    // A mask of self's shape, one broadcast along rows, a 0-dim one; then a transposed self,
    // which the composite path fills.
    for (const Tensor& mask : {arange(12, opts).reshape({3, 4}).gt(6.5), row_mask,
                               tensor(true).to(device)}) {
      Tensor plain = arange(12, opts).reshape({3, 4});
      const uint32_t version = plain.storage().version();
      plain.masked_fill_(mask, Scalar(-2.5));
      EXPECT_EQ(plain.storage().version(), version + 1u);
      Tensor leaf = arange(12, opts).reshape({3, 4}).requires_grad_();
      Tensor recorded = leaf * 1;
      recorded.masked_fill_(mask, Scalar(-2.5));
      EXPECT_TRUE(test::same_bits(recorded.detach(), plain));
    }
    Tensor strided = arange(12, opts).reshape({4, 3}).t();
    strided.masked_fill_(row_mask, Scalar(9));
    EXPECT_EQ(strided.cpu().contiguous().tolist<float>(),
              (std::vector<float>{9, 3, 6, 9, 9, 4, 7, 9, 9, 5, 8, 9}));
    // A mask that would grow self is refused with the composite path's message.
    Tensor small = zeros({3, 4}, opts);
    EXPECT_THAT([&] { small.masked_fill_(zeros({2, 3, 4}, opts).gt(0), Scalar(1)); },
                ::testing::ThrowsMessage<Error>(::testing::HasSubstr("does not broadcast")));
  }
}

}  // namespace
}  // namespace tide
