// Gradients of issue 25's composite shape, linear-algebra and diagonal ops: each is made of
// table ops that record themselves (src/ops/shape_compose.cpp, linalg_compose.cpp, einsum.cpp,
// diagonals.cpp), and is checked here against central differences on cpu in float64
// (tests/support/gradcheck.h).

#include "support/gradcheck.h"

#include <gtest/gtest.h>

#include "tide/tide.h"

namespace tide {
namespace {

using test::gradcheck;
using test::rnd;
using V = const std::vector<Tensor>&;

TEST(ShapeGradcheck, FlipRollRot90) {
  EXPECT_TRUE(gradcheck([](V x) { return flip(x[0], {0, 2}); }, {rnd({2, 3, 2}, 301)}));
  EXPECT_TRUE(gradcheck([](V x) { return roll(x[0], {1, -2}, {0, 1}); }, {rnd({3, 4}, 302)}));
  EXPECT_TRUE(gradcheck([](V x) { return roll(x[0], {5}); }, {rnd({3, 4}, 303)}));
  for (int64_t k : {1, 2, 3}) {
    EXPECT_TRUE(gradcheck([k](V x) { return rot90(x[0], k); }, {rnd({2, 3}, 304)})) << k;
  }
}

TEST(ShapeGradcheck, RepeatTileAndRepeatInterleaveSumTheCopies) {
  EXPECT_TRUE(gradcheck([](V x) { return x[0].repeat({2, 1, 3}); }, {rnd({2, 3}, 305)}));
  EXPECT_TRUE(gradcheck([](V x) { return tile(x[0], {2}); }, {rnd({2, 3}, 306)}));
  EXPECT_TRUE(gradcheck([](V x) { return repeat_interleave(x[0], 3, 1); }, {rnd({2, 3}, 307)}));
  const Tensor counts = tensor({2, 0, 1});
  EXPECT_TRUE(gradcheck([counts](V x) { return repeat_interleave(x[0], counts, 0); },
                        {rnd({3, 2}, 308)}));
}

TEST(ShapeGradcheck, ViewsAndStacks) {
  EXPECT_TRUE(gradcheck([](V x) { return movedim(x[0], {0, 1}, {2, 0}); }, {rnd({2, 3, 4}, 309)}));
  EXPECT_TRUE(gradcheck([](V x) { return unflatten(x[0], 1, {2, -1}); }, {rnd({3, 4}, 310)}));
  EXPECT_TRUE(gradcheck([](V x) { return unbind(x[0], 1)[2]; }, {rnd({2, 3}, 311)}));
  EXPECT_TRUE(gradcheck([](V x) { return tensor_split(x[0], {1, 3}, 1)[1]; }, {rnd({2, 5}, 312)}));
  EXPECT_TRUE(gradcheck(
      [](V x) {
        const std::vector<Tensor> both = broadcast_tensors({x[0], x[1]});
        return both[0] * both[1];
      },
                        {rnd({3, 1}, 313), rnd({4}, 314)}));
  EXPECT_TRUE(gradcheck([](V x) { return column_stack({x[0], x[1]}); },
                        {rnd({3}, 315), rnd({3, 2}, 316)}));
  EXPECT_TRUE(gradcheck([](V x) { return dstack({x[0], x[1]}); }, {rnd({3}, 317), rnd({1, 3}, 318)}));
}

TEST(ShapeGradcheck, ProductsReachEveryOperand) {
  EXPECT_TRUE(gradcheck([](V x) { return dot(x[0], x[1]); }, {rnd({4}, 319), rnd({4}, 320)}));
  EXPECT_TRUE(gradcheck([](V x) { return mv(x[0], x[1]); }, {rnd({3, 4}, 321), rnd({4}, 322)}));
  EXPECT_TRUE(gradcheck([](V x) { return inner(x[0], x[1]); },
                        {rnd({2, 3}, 323), rnd({4, 3}, 324)}));
  EXPECT_TRUE(gradcheck([](V x) { return addmv(x[0], x[1], x[2], 0.5, 2); },
                        {rnd({3}, 325), rnd({3, 4}, 326), rnd({4}, 327)}));
  EXPECT_TRUE(gradcheck([](V x) { return addr(x[0], x[1], x[2], 1, -1); },
                        {rnd({3, 1}, 328), rnd({3}, 329), rnd({2}, 330)}));
  EXPECT_TRUE(gradcheck([](V x) { return baddbmm(x[0], x[1], x[2], 2, 0.5); },
                        {rnd({2, 3, 2}, 331), rnd({2, 3, 4}, 332), rnd({2, 4, 2}, 333)}));
  EXPECT_TRUE(gradcheck([](V x) { return addbmm(x[0], x[1], x[2]); },
                        {rnd({3, 2}, 334), rnd({2, 3, 4}, 335), rnd({2, 4, 2}, 336)}));
  EXPECT_TRUE(gradcheck([](V x) { return tensordot(x[0], x[1], {0, 2}, {1, 0}); },
                        {rnd({3, 2, 4}, 337), rnd({4, 3}, 338)}));
  EXPECT_TRUE(gradcheck([](V x) { return kron(x[0], x[1]); }, {rnd({2, 3}, 339), rnd({2}, 340)}));
  EXPECT_TRUE(gradcheck([](V x) { return linalg_cross(x[0], x[1], -1); },
                        {rnd({2, 3}, 341), rnd({1, 3}, 342)}));
  EXPECT_TRUE(gradcheck([](V x) { return trace(x[0]); }, {rnd({3, 4}, 343)}));
}

TEST(ShapeGradcheck, EinsumContractionsDiagonalsAndBroadcasts) {
  EXPECT_TRUE(gradcheck([](V x) { return einsum("bn,anm,bm->ba", {x[0], x[1], x[2]}); },
                        {rnd({2, 3}, 344), rnd({4, 3, 2}, 345), rnd({2, 2}, 346)}));
  EXPECT_TRUE(gradcheck([](V x) { return einsum("iij,jk->ik", {x[0], x[1]}); },
                        {rnd({3, 3, 2}, 347), rnd({2, 2}, 348)}));
  EXPECT_TRUE(gradcheck([](V x) { return einsum("...ij,...jk", {x[0], x[1]}); },
                        {rnd({2, 3, 4}, 349), rnd({4, 2}, 350)}));
  EXPECT_TRUE(gradcheck([](V x) { return einsum("ij,ij->ij", {x[0], x[1]}); },
                        {rnd({3, 1}, 351), rnd({3, 4}, 352)}));
}

TEST(ShapeGradcheck, TrianglesAndDiagonals) {
  EXPECT_TRUE(gradcheck([](V x) { return tril(x[0], -1); }, {rnd({3, 4}, 353)}));
  EXPECT_TRUE(gradcheck([](V x) { return triu(x[0], 1); }, {rnd({2, 3, 3}, 354)}));
  EXPECT_TRUE(gradcheck(
      [](V x) {
        Tensor y = x[0] * 1;  // a non-leaf, written in place
        y.tril_(0);
        return y;
      },
      {rnd({3, 3}, 355)}));
  EXPECT_TRUE(gradcheck([](V x) { return diagonal(x[0], 1, 2, 0); }, {rnd({3, 2, 4}, 356)}));
  EXPECT_TRUE(gradcheck([](V x) { return diag_embed(x[0], -1, 0, 2); }, {rnd({2, 3}, 357)}));
  EXPECT_TRUE(gradcheck([](V x) { return diag(x[0], 1); }, {rnd({3}, 358)}));
  EXPECT_TRUE(gradcheck([](V x) { return diagflat(x[0]); }, {rnd({2, 2}, 359)}));
}

}  // namespace
}  // namespace tide
