// Gradients of the indexing ops (Note [Advanced indexing]): take and put_ have derivatives of
// their own; index, index_put_ and the masked ops record through them, expand and where. Each
// is checked against central differences on cpu in float64 (tests/support/gradcheck.h).

#include "support/gradcheck.h"

#include <gtest/gtest.h>

#include "tide/tide.h"

namespace tide {
namespace {

using test::gradcheck;
using test::rnd;
using V = const std::vector<Tensor>&;

TEST(IndexingGradcheck, TakeWithRepeatedAndNegativeIndices) {
  const Tensor idx = tensor({{0, 5}, {-1, 0}});
  EXPECT_TRUE(gradcheck([idx](V x) { return take(x[0], idx); }, {rnd({2, 3}, 201)}));
  EXPECT_TRUE(gradcheck([idx](V x) { return x[0].t().take(idx); }, {rnd({3, 2}, 202)}));
}

TEST(IndexingGradcheck, PutReachesSelfAndSource) {
  const Tensor idx = tensor({4, 0, 2});
  EXPECT_TRUE(gradcheck([idx](V x) { return x[0].put(idx, x[1]); },
                        {rnd({2, 3}, 203), rnd({3}, 204)}));
  const Tensor dup = tensor({1, 1, 5});
  EXPECT_TRUE(gradcheck([dup](V x) { return x[0].put(dup, x[1], true); },
                        {rnd({2, 3}, 205), rnd({3}, 206)}));
  EXPECT_TRUE(gradcheck(
      [idx](V x) {
        Tensor y = x[0] * 1;  // a non-leaf, written in place
        y.put_(idx, x[1] * 2);
        return y;
      },
      {rnd({6}, 207), rnd({3}, 208)}));
}

TEST(IndexingGradcheck, AdvancedIndexReadWithSeparatedAndMaskIndices) {
  const Tensor i = tensor({2, 0, 2});
  const Tensor j = tensor({1, 3, 0});
  EXPECT_TRUE(gradcheck([i, j](V x) { return index(x[0], {i, Tensor(), j}); },
                        {rnd({3, 2, 4}, 209)}));
  EXPECT_TRUE(gradcheck([j](V x) { return index(x[0], {Tensor(), j}); }, {rnd({2, 4, 2}, 210)}));
  const Tensor m = tensor({true, false, true});
  EXPECT_TRUE(gradcheck([m](V x) { return index(x[0], {m}); }, {rnd({3, 2}, 211)}));
}

TEST(IndexingGradcheck, IndexPutReachesSelfAndValues) {
  const Tensor i = tensor({0, 2, 0});
  EXPECT_TRUE(gradcheck([i](V x) { return x[0].index_put({i}, x[1], true); },
                        {rnd({3, 2}, 212), rnd({3, 2}, 213)}));
  const Tensor rows = tensor({2, 0});
  EXPECT_TRUE(gradcheck([rows](V x) { return x[0].index_put({rows}, x[1]); },
                        {rnd({3, 2}, 214), rnd({2}, 215)}));  // values broadcast over rows
}

TEST(IndexingGradcheck, MaskedOps) {
  const Tensor m = tensor({{true, false, true}, {false, false, true}});
  EXPECT_TRUE(gradcheck([m](V x) { return masked_select(x[0], m); }, {rnd({2, 3}, 216)}));
  EXPECT_TRUE(gradcheck([m](V x) { return masked_select(x[0], m); }, {rnd({3}, 217)}));
  EXPECT_TRUE(gradcheck([m](V x) { return x[0].masked_fill(m, 0.5); }, {rnd({2, 3}, 218)}));
  EXPECT_TRUE(gradcheck([m](V x) { return x[0].masked_fill(m, x[1]); },
                        {rnd({2, 3}, 219), rnd({}, 220)}));
  EXPECT_TRUE(gradcheck([m](V x) { return x[0].masked_scatter(m, x[1]); },
                        {rnd({2, 3}, 221), rnd({5}, 222)}));
  EXPECT_TRUE(gradcheck(
      [m](V x) {
        Tensor y = x[0] + 0;
        y.masked_fill_(m, 2.0);
        return y;
      },
      {rnd({2, 3}, 223)}));
}

TEST(IndexingGradcheck, GatherScatterAndTheIndexOpsAlongADim) {
  const Tensor g = tensor({{0, 2}, {1, 1}, {2, 0}});
  EXPECT_TRUE(gradcheck([g](V x) { return gather(x[0], 1, g); }, {rnd({3, 4}, 224)}));
  // Distinct targets: with repeats the last write wins, which central differences see and the
  // gradient (torch's too: grad.gather) does not.
  const Tensor distinct = tensor({{0, 2}, {1, 3}, {2, 0}});
  EXPECT_TRUE(gradcheck([distinct](V x) { return x[0].scatter(1, distinct, x[1]); },
                        {rnd({3, 4}, 225), rnd({3, 3}, 226)}));
  EXPECT_TRUE(gradcheck([g](V x) { return scatter_add(x[0], 1, g, x[1]); },
                        {rnd({3, 4}, 227), rnd({3, 2}, 228)}));
  // scatter_reduce: sum and mean record through put_ and div_ (Note [scatter_reduce]), prod,
  // amax and amin as one node (Note [scatter_reduce gradients]); self's gradient is zero where
  // include_self=false replaces it. Random values: no ties for amax and amin, no zeros for prod.
  const Tensor r = tensor({{0, 2, 0}, {3, 3, 1}});
  for (const char* reduce : {"sum", "mean", "prod", "amax", "amin"}) {
    for (bool include_self : {true, false}) {
      EXPECT_TRUE(gradcheck(
          [r, reduce, include_self](V x) {
            return scatter_reduce(x[0], 1, r, x[1], reduce, include_self);
          },
          {rnd({2, 4}, 234), rnd({2, 3}, 235)}))
          << reduce << " include_self=" << include_self;
    }
  }
  const Tensor rows = tensor({2, 0, 2});
  EXPECT_TRUE(gradcheck([rows](V x) { return x[0].index_add(0, rows, x[1], 0.5); },
                        {rnd({3, 2}, 229), rnd({3, 2}, 230)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].index_copy(1, tensor({1, 0}), x[1]); },
                        {rnd({2, 3}, 231), rnd({2, 2}, 232)}));
  EXPECT_TRUE(gradcheck([](V x) { return x[0].index_fill(1, tensor({-1}), 3.0); },
                        {rnd({2, 3}, 233)}));
}

}  // namespace
}  // namespace tide
