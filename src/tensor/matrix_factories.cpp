// eye, tril_indices/triu_indices and logspace (tide/matrix_factories.h): aranges and
// elementwise ops on the requested device; the triangle indices are counted on the host, as
// their length is known there.

#include "tide/matrix_factories.h"

#include <vector>

#include "tensor/tensor_internal.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide {
namespace {

Tensor finish(Tensor t, const TensorOptions& options) {
  return options.requires_grad() ? t.requires_grad_() : t;
}

Tensor triangle_indices(int64_t row, int64_t col, int64_t offset, bool lower,
                        const TensorOptions& options, const char* where) {
  TIDE_CHECK(row >= 0 && col >= 0, "[", where, "] row must be non-negative, got", row < 0 ? row : col);
  std::vector<int64_t> coords[2];
  for (int64_t i = 0; i < row; ++i) {
    const int64_t begin = lower ? 0 : std::max<int64_t>(0, i + offset);
    const int64_t end = lower ? std::min(col, i + offset + 1) : col;
    for (int64_t j = begin; j < end; ++j) {
      coords[0].push_back(i);
      coords[1].push_back(j);
    }
  }
  const int64_t n = coords[0].size();
  coords[0].insert(coords[0].end(), coords[1].begin(), coords[1].end());
  const Dtype dtype = options.has_dtype() ? options.dtype() : kInt64;
  Tensor host = from_blob(coords[0].data(), {2, n}, tide::dtype(kInt64)).clone();
  return host.to(detail::resolve_device(options.device(), where)).to(dtype);
}

}  // namespace

Tensor eye(int64_t n, std::optional<int64_t> m, TensorOptions options) {
  const int64_t cols = m.value_or(n);
  TIDE_CHECK(n >= 0 && cols >= 0, "[eye] n must be greater or equal to 0, got ",
             n < 0 ? n : cols);
  const TensorOptions positions = tide::device(options.device()).dtype(kInt64);
  const Tensor diagonal = arange(n, positions).unsqueeze(1).eq(arange(cols, positions).unsqueeze(0));
  return finish(diagonal.to(options.dtype()), options);
}

Tensor tril_indices(int64_t row, int64_t col, int64_t offset, TensorOptions options) {
  return triangle_indices(row, col, offset, /*lower=*/true, options, "tril_indices");
}

Tensor triu_indices(int64_t row, int64_t col, int64_t offset, TensorOptions options) {
  return triangle_indices(row, col, offset, /*lower=*/false, options, "triu_indices");
}

Tensor logspace(double start, double end, int64_t steps, double base, TensorOptions options) {
  const Tensor exponents = linspace(start, end, steps,
                                    tide::device(options.device()).dtype(kFloat64));
  // pow in float64 and then the conversion, as torch: an integral dtype truncates.
  return finish(tide::pow(Scalar(base), exponents).to(options.dtype()), options);
}

}  // namespace tide
