// torch.linalg.matrix_norm and torch.linalg.norm, for the orders that need no decomposition.
//
// Note [Matrix norms]: 'fro' is the vector 2-norm over the two dims; 1 and -1 are the largest
// and smallest column sum of magnitudes (sum over dim[0], then max/min over dim[1]), inf and
// -inf the largest and smallest row sum (the other way round). 'nuc', 2 and -2 need singular
// values, which tide has no decomposition for yet: they raise saying so. linalg.norm is a
// vector norm over one dim (or the flattened input when ord and dim are both None) and a
// matrix norm over two, as torch's.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "tensor/tensor_internal.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

/// The two dims, wrapped; raises unless A has them and they differ.
std::pair<int64_t, int64_t> matrix_dims(const Tensor& a, const std::vector<int64_t>& dim,
                                        const char* where) {
  TIDE_CHECK(a.dim() >= 2, "[", where, "] ", where, ": The input tensor A must have at least 2 "
             "dimensions; found ", a.dim(), "; pass a matrix or a batch of matrices");
  TIDE_CHECK(dim.size() == 2, "[", where, "] ", where, ": dim must be a 2-tuple. Got ",
             dim.size(), " dims; pass two dims");
  const int64_t d0 = wrap_dim(dim[0], a.dim(), where), d1 = wrap_dim(dim[1], a.dim(), where);
  TIDE_CHECK(d0 != d1, "[", where, "] ", where, ": dims must be different. Got (", dim[0], ", ",
             dim[1], "); pass two different dims");
  return {d0, d1};
}

/// The matrix's entries in `dtype` when one is given.
Tensor in_dtype(const Tensor& a, std::optional<Dtype> dtype) {
  return dtype && *dtype != a.dtype() ? a.to(*dtype) : a;
}

/// Drops the two reduced dims kept for the max/min step, the larger first.
Tensor squeeze_pair(Tensor t, int64_t d0, int64_t d1) {
  return t.squeeze(std::max(d0, d1)).squeeze(std::min(d0, d1));
}

}  // namespace

Tensor plain_linalg_matrix_norm(const Tensor& self, Scalar ord, const std::vector<int64_t>& dim,
                                bool keepdim, std::optional<Dtype> dtype) {
  const char* where = "linalg.matrix_norm";
  check_defined(self, where, "A");
  const auto [d0, d1] = matrix_dims(self, dim, where);
  const double p = ord.to_double();
  TIDE_CHECK(p != 2 && p != -2, "[", where, "] ", where, ": ord=", p, " needs the singular "
             "values, which tide has no decomposition for yet; use 'fro', 1, -1, inf or -inf");
  TIDE_CHECK(std::abs(p) == 1 || std::isinf(p), "[", where, "] ", where, ": Order ", p,
             " not supported; use 'fro', 1, -1, inf or -inf");
  const Tensor a = in_dtype(self, dtype);
  TIDE_CHECK(a.is_floating_point(), "[", where, "] ", where, ": Expected a floating point or "
             "complex tensor as input. Got ", name(a.dtype()), "; convert it with .float()");
  // 1/-1: the sums down each column (over d0), then the max/min over d1; inf/-inf the rows.
  const int64_t summed = std::abs(p) == 1 ? d0 : d1, picked = std::abs(p) == 1 ? d1 : d0;
  const Tensor sums = a.abs().sum({summed}, true);
  Tensor out = p > 0 ? sums.amax({picked}, true) : sums.amin({picked}, true);
  return keepdim ? out : squeeze_pair(out, d0, d1);
}

Tensor plain_linalg_matrix_norm(const Tensor& self, const std::string& ord,
                                const std::vector<int64_t>& dim, bool keepdim,
                                std::optional<Dtype> dtype) {
  const char* where = "linalg.matrix_norm";
  check_defined(self, where, "A");
  const auto [d0, d1] = matrix_dims(self, dim, where);
  TIDE_CHECK(ord != "nuc", "[", where, "] ", where, ": ord='nuc' needs the singular values, "
             "which tide has no decomposition for yet; use 'fro', 1, -1, inf or -inf");
  TIDE_CHECK(ord == "fro", "[", where, "] ", where, ": Order ", ord, " not supported; use "
             "'fro' or 'nuc'");
  return linalg_vector_norm(self, 2, {d0, d1}, keepdim, dtype);
}

Tensor plain_linalg_norm(const Tensor& self, std::optional<Scalar> ord,
                         std::optional<std::vector<int64_t>> dim, bool keepdim,
                         std::optional<Dtype> dtype) {
  const char* where = "linalg.norm";
  check_defined(self, where, "A");
  if (!dim && ord) {
    TIDE_CHECK(self.dim() == 1 || self.dim() == 2, "[", where, "] linalg.norm: If dim is not "
               "specified but ord is, the input must be 1D or 2D. Got ", self.dim(),
               "D; give dim");
    dim.emplace();
    for (int64_t d = 0; d < self.dim(); ++d) dim->push_back(d);
  }
  if (dim && dim->size() == 2) {
    if (!ord) return plain_linalg_matrix_norm(self, "fro", *dim, keepdim, dtype);
    return plain_linalg_matrix_norm(self, *ord, *dim, keepdim, dtype);
  }
  return linalg_vector_norm(self, ord.value_or(Scalar(2)), dim.value_or(std::vector<int64_t>{}),
                            keepdim, dtype);
}

Tensor plain_linalg_norm(const Tensor& self, const std::string& ord,
                         std::optional<std::vector<int64_t>> dim, bool keepdim,
                         std::optional<Dtype> dtype) {
  const char* where = "linalg.norm";
  check_defined(self, where, "A");
  if (!dim) {
    TIDE_CHECK(self.dim() == 2, "[", where, "] linalg.norm: If dim is not specified but ord is, "
               "the input must be 1D or 2D. Got ", self.dim(), "D; give dim");
    dim = std::vector<int64_t>{0, 1};
  }
  TIDE_CHECK(dim->size() == 2, "[", where, "] linalg.norm: ord='", ord, "' is a matrix norm: "
             "dim must have two dims, found ", dim->size(), "; give two dims");
  return plain_linalg_matrix_norm(self, ord, *dim, keepdim, dtype);
}

}  // namespace tide::detail
