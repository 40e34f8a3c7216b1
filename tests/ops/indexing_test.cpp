// The indexing ops' behaviour beyond torch's goldens (tests/device/indexing_test.cpp): the
// messages, where results come from and where the indexed dims go.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autograd/node.h"
#include "support/error_of.h"
#include "tide/tide.h"

namespace tide {
namespace {

using ::testing::HasSubstr;
using test::error_of;

Tensor iota(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return arange(n, dtype(kFloat32)).reshape(std::move(shape));
}

/// Whether a node named `name` is in the graph that produced y.
bool graph_has(const Tensor& y, const std::string& name) {
  std::vector<std::shared_ptr<autograd::Node>> todo{y.grad_fn()};
  while (!todo.empty()) {
    const std::shared_ptr<autograd::Node> n = todo.back();
    todo.pop_back();
    if (!n) continue;
    if (name == n->name()) return true;
    for (const autograd::Edge& e : n->next_edges) todo.push_back(e.node);
  }
  return false;
}

TEST(Indexing, OutOfRangeIndicesRaiseTorchsWordsAsIndexingError) {
  const Tensor x = iota({3, 4});
  EXPECT_THROW((void)index(x, {tensor({0, 3})}), IndexingError);
  EXPECT_THAT(error_of([&] { (void)index(x, {Tensor(), tensor({-5})}); }),
              HasSubstr("[index] index -5 is out of bounds for dimension 1 with size 4"));
  EXPECT_THAT(error_of([&] { (void)take(x, tensor({12})); }),
              HasSubstr("[take] out of range: tried to access index 12 on a tensor of 12 "
                        "elements"));
  EXPECT_THAT(error_of([&] { (void)take(empty({0}), tensor({0})); }),
              HasSubstr("tried to take from an empty tensor"));
}

TEST(Indexing, MisuseNamesTheOpAndTheProblem) {
  const Tensor x = iota({3, 4});
  EXPECT_THAT(error_of([&] { (void)index(x, {Tensor(), Tensor()}); }),
              HasSubstr("[index] expected at least one index tensor"));
  EXPECT_THAT(error_of([&] { (void)index(x, {tensor({0}), tensor({0}), tensor({0})}); }),
              HasSubstr("too many indices for tensor of dimension 2"));
  EXPECT_THAT(error_of([&] { (void)index(x, {tensor({true, false})}); }),
              HasSubstr("The shape of the mask [2] at index 0 does not match"));
  EXPECT_THAT(error_of([&] { (void)masked_select(x, x.gt(2).to(kFloat32)); }),
              HasSubstr("[masked_select] expected BoolTensor for mask"));
  Tensor row = iota({4});
  EXPECT_THAT(error_of([&] { row.masked_fill_(tensor({{true}, {false}}), Scalar(1)); }),
              HasSubstr("an in-place op cannot grow self"));
  EXPECT_THAT(error_of([&] { (void)x.masked_fill(x.gt(2), tensor({1.f, 2.f})); }),
              HasSubstr("only supports a 0-dimensional value tensor"));
}

TEST(Indexing, SeparatedIndexedDimsGoFirstAdjacentOnesStayInPlace) {
  const Tensor x = iota({2, 3, 4, 5});
  const Tensor i = tensor({0, 1});
  EXPECT_EQ(index(x, {Tensor(), i, i}).sizes(), (std::vector<int64_t>{2, 2, 5}));
  EXPECT_EQ(index(x, {Tensor(), i, Tensor(), i}).sizes(), (std::vector<int64_t>{2, 2, 4}));
  EXPECT_EQ(index(x, {i, Tensor(), i}).sizes(), (std::vector<int64_t>{2, 3, 5}));
  EXPECT_EQ(index(x, {Tensor(), tensor({{0, 1, 2}})}).sizes(),
            (std::vector<int64_t>{2, 1, 3, 4, 5}));
  // x[:, i, :, i][k, a, b] == x[a, i[k], b, i[k]]
  const Tensor r = index(x, {Tensor(), i, Tensor(), i});
  EXPECT_EQ(r.select(0, 1).select(0, 1).select(0, 2).item<float>(),
            x.index({1, 1, 2, 1}).item<float>());
}

TEST(Indexing, WhereOfAConditionIsNonzeroByColumns) {
  const Tensor c = tensor({{0, 2}, {3, 0}});
  const std::vector<Tensor> rc = where(c);
  ASSERT_EQ(rc.size(), 2u);
  EXPECT_EQ(rc[0].tolist<int64_t>(), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(rc[1].tolist<int64_t>(), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(where(tensor(true)).at(0).tolist<int64_t>(), (std::vector<int64_t>{0}));
  EXPECT_EQ(nonzero(tensor(0.f)).sizes(), (std::vector<int64_t>{0, 0}));
}

TEST(Indexing, OnlyTakeAndPutRecordNodesOfTheirOwn) {
  Tensor x = iota({3, 2}).requires_grad_();
  EXPECT_STREQ(index(x, {tensor({2, 0})}).grad_fn()->name(), "TakeBackward0");
  Tensor y = x * 1;
  y.index_put_({tensor({1})}, tensor(0.f));
  EXPECT_STREQ(y.grad_fn()->name(), "PutBackward0");
  EXPECT_STREQ(x.masked_fill(x.gt(2), 0.f).grad_fn()->name(), "WhereBackward0");
}

TEST(Indexing, ScatterReduceRefusesWhatTorchRefusesAndNamesTheFix) {
  const Tensor x = iota({2, 3});
  const Tensor i = tensor({{0, 0, 2}, {1, 1, 1}});
  const Tensor s = iota({2, 3});
  EXPECT_THAT(error_of([&] { (void)scatter_reduce(x, 1, i, s, "max"); }),
              HasSubstr("[Tensor::scatter_reduce_] reduce argument must be either sum, prod, "
                        "mean, amax or amin, found \"max\""));
  EXPECT_THAT(error_of([&] { (void)scatter_reduce(x, 1, i, s.to(kFloat64), "sum"); }),
              HasSubstr("scatter(): Expected self.dtype to be equal to src.dtype (float32 and "
                        "float64)"));
  EXPECT_THAT(error_of([&] { (void)scatter_reduce(x, 1, i.add(2), s, "amax"); }),
              HasSubstr("index 4 is out of bounds for dimension 1 with size 3"));
  const Tensor b = x.gt(2);
  EXPECT_THAT(error_of([&] { (void)scatter_reduce(b, 1, i, b, "mean"); }),
              HasSubstr("reduce=\"mean\" expected a number dtype, found bool"));
}

TEST(Indexing, ScatterReduceRecordsWhereItsKernelCannot) {
  const Tensor i = tensor({{0, 0, 2}, {1, 1, 1}});
  const Tensor w = iota({2, 3}).requires_grad_();
  // prod, amax and amin: one node of torch's name; sum and mean: put_ and div_ record.
  for (const char* reduce : {"prod", "amax", "amin"}) {
    const Tensor y = scatter_reduce(w, 1, i, iota({2, 3}), reduce);
    EXPECT_TRUE(graph_has(y, "ScatterReduceBackward0")) << reduce;
  }
  EXPECT_FALSE(graph_has(scatter_reduce(w, 1, i, iota({2, 3}), "sum"), "ScatterReduceBackward0"));
  // amax's ties share the gradient, self's value counted: row 0's place 0 is 1 three times
  // (self's and two of src's), row 1's place 1 is src's 5 twice.
  const Tensor s = tensor({{1.f, 1.f, 0.f}, {4.f, 5.f, 5.f}}).requires_grad_();
  const Tensor x = tensor({{1.f, 0.f, 2.f}, {3.f, 4.f, 5.f}});
  scatter_reduce(x, 1, i, s, "amax").sum().backward();
  EXPECT_TRUE(s.grad().allclose(tensor({{1.f / 3, 1.f / 3, 0.f}, {0.f, 0.5f, 0.5f}})));
  NoGradGuard no_grad;
  EXPECT_EQ(scatter_reduce(w, 1, i, iota({2, 3}), "amax").grad_fn(), nullptr);
}

TEST(Indexing, ScatterReduceInPlaceCountsAsAModification) {
  // prod, amax and amin write through the kernel, not put_: the version must still move, so a
  // backward that saved self sees the change.
  Tensor x = iota({4});
  const uint32_t before = x._version();
  x.scatter_reduce_(0, tensor({1, 1}), tensor({5.f, -1.f}), "amax", false);
  EXPECT_GT(x._version(), before);
  EXPECT_EQ(x[1].item<float>(), 5.f);
  // A strided self (a matrix's column) is written where it lies.
  Tensor v = iota({2, 2});
  v.select(1, 0).scatter_reduce_(0, tensor({1, 1}), tensor({3.f, 4.f}), "prod");
  EXPECT_EQ(v[1][0].item<float>(), 2.f * 3.f * 4.f);
  EXPECT_EQ(v[0][0].item<float>(), 0.f);
}

}  // namespace
}  // namespace tide
