// linalg_matrix_norm, linalg_norm (Note [Matrix norms] in ops/matrix_norms.cpp) and meshgrid
// on the cpu and every GPU of the configuration; the expected values are torch 1.13's for the
// same calls (noted beside each).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "device_helpers.h"
#include "tide/cuda.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide {
namespace {

using test::devices;

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(MatrixNorm, OrdersThatNeedNoDecompositionMatchTorch) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    const Tensor a = arange(6, tide::device(device).dtype(kFloat32)).reshape({2, 3});
    // torch.linalg.matrix_norm(a, 1) = 7 (largest column sum), inf = 12 (largest row sum).
    EXPECT_FLOAT_EQ(linalg_matrix_norm(a, 1).item<float>(), 7.0f);
    EXPECT_FLOAT_EQ(linalg_matrix_norm(a, -1).item<float>(), 3.0f);
    EXPECT_FLOAT_EQ(linalg_matrix_norm(a, kInf).item<float>(), 12.0f);
    EXPECT_FLOAT_EQ(linalg_matrix_norm(a, -kInf).item<float>(), 3.0f);
    EXPECT_FLOAT_EQ(linalg_matrix_norm(a).item<float>(), std::sqrt(55.0f));  // 'fro'
    // Over a batch, keeping the dims: one norm per matrix.
    const Tensor batch = a.unsqueeze(0).expand({4, 2, 3});
    const Tensor kept = linalg_matrix_norm(batch, 1, {-2, -1}, true);
    EXPECT_EQ(kept.sizes(), (std::vector<int64_t>{4, 1, 1}));
    EXPECT_EQ(kept.reshape({-1}).cpu().tolist<float>(), std::vector<float>(4, 7.0f));
    // dtype= computes in float64.
    EXPECT_EQ(linalg_matrix_norm(a, 1, {-2, -1}, false, kFloat64).dtype(), kFloat64);
  }
}

TEST(MatrixNorm, LinalgNormPicksTheVectorOrMatrixNormAsTorch) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    const Tensor a = arange(6, tide::device(device).dtype(kFloat32)).reshape({2, 3});
    EXPECT_NEAR(linalg_norm(a).item<float>(), 7.4162f, 1e-4);              // every element
    EXPECT_FLOAT_EQ(linalg_norm(a, Scalar(1), std::vector<int64_t>{0, 1}).item<float>(), 7.0f);
    EXPECT_FLOAT_EQ(linalg_norm(a, Scalar(kInf)).item<float>(), 12.0f);   // 2-D: matrix norm
    const std::vector<float> rows = linalg_norm(a, std::nullopt, std::vector<int64_t>{1})
                                        .cpu().tolist<float>();
    EXPECT_NEAR(rows[0], 2.2361f, 1e-4);
    EXPECT_NEAR(rows[1], 7.0711f, 1e-4);
    const Tensor cube = arange(8, tide::device(device).dtype(kFloat32)).reshape({2, 2, 2});
    EXPECT_NEAR(linalg_norm(cube).item<float>(), 11.8322f, 1e-4);  // flattened
    EXPECT_FLOAT_EQ(linalg_norm(a, "fro").item<float>(), std::sqrt(55.0f));
  }
}

TEST(MatrixNorm, RefusesWhatItCannotComputeSayingWhy) {
  const Tensor a = ones({2, 2});
  EXPECT_THROW(
      {
        try {
          linalg_matrix_norm(a, 2);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("singular values"), std::string::npos);
          throw;
        }
      },
      Error);
  EXPECT_THROW(linalg_matrix_norm(a, "nuc"), Error);
  EXPECT_THROW(linalg_matrix_norm(a, 3), Error);             // torch: Order 3 not supported
  EXPECT_THROW(linalg_matrix_norm(ones({3}), 1), Error);      // needs two dims
  EXPECT_THROW(linalg_matrix_norm(a, 1, {0, 0}), Error);     // dims must differ
  EXPECT_THROW(linalg_norm(ones({2, 2, 2}), Scalar(1)), Error);  // ord without dim: 1-D or 2-D
}

TEST(Meshgrid, GridsAreExpandedViewsInIjAndXyIndexing) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.str());
    const Tensor x = tensor({1, 2, 3}).to(device);
    const Tensor y = tensor({4, 5}).to(device);
    std::vector<Tensor> ij = meshgrid({x, y});
    ASSERT_EQ(ij.size(), 2u);
    EXPECT_EQ(ij[0].sizes(), (std::vector<int64_t>{3, 2}));
    EXPECT_EQ(ij[0].strides(), (std::vector<int64_t>{1, 0}));  // torch's strides: a view, no copy
    EXPECT_EQ(ij[0].cpu().tolist<int64_t>(), (std::vector<int64_t>{1, 1, 2, 2, 3, 3}));
    EXPECT_EQ(ij[1].cpu().tolist<int64_t>(), (std::vector<int64_t>{4, 5, 4, 5, 4, 5}));
    std::vector<Tensor> xy = meshgrid({x, y}, "xy");
    EXPECT_EQ(xy[0].sizes(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(xy[0].cpu().tolist<int64_t>(), (std::vector<int64_t>{1, 2, 3, 1, 2, 3}));
    EXPECT_EQ(xy[1].cpu().tolist<int64_t>(), (std::vector<int64_t>{4, 4, 4, 5, 5, 5}));
    // A 0-D tensor counts as one coordinate.
    EXPECT_EQ(meshgrid({full({}, 7, tide::device(device).dtype(kInt64)), x})[0].sizes(),
              (std::vector<int64_t>{1, 3}));
  }
}

TEST(Meshgrid, RefusesWhatTorchRefuses) {
  const Tensor x = ones({3});
  EXPECT_THROW(meshgrid({}), Error);
  EXPECT_THROW(meshgrid({x, x}, "yx"), Error);
  EXPECT_THROW(meshgrid({x, ones({2, 2})}), Error);                 // 2-D
  EXPECT_THROW(meshgrid({x, ones({2}, TensorOptions(kInt64))}), Error);  // two dtypes
}

}  // namespace
}  // namespace tide
