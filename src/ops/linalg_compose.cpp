// The linalg family's composite ops (src/ops/ops.yaml, `autograd: composite`): dot, vdot, mv,
// outer/ger, inner, the add* forms, tensordot, kron, cross and trace. Products go through
// matmul/mm/bmm (and so the same BLAS or GPU kernels, and their derivatives); the rest is
// elementwise table ops and views. einsum has its own file (ops/einsum.cpp).

#include <vector>

#include "ops/index_numbers.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

bool is_one(const Scalar& s) { return s.to_double() == 1.0; }
bool is_zero(const Scalar& s) { return s.to_double() == 0.0; }

/// beta * self + alpha * product, in product's shape (self broadcasts to it, never the other
/// way); with beta == 0 self is not read, so its NaNs do not reach the result (torch's rule).
Tensor scaled_sum(const Tensor& self, const Tensor& product, const Scalar& beta,
                  const Scalar& alpha, const char* where) {
  check_defined(self, where, "self");
  TIDE_CHECK(broadcast_shapes(self.shape(), product.shape(), where) == product.shape(), "[", where,
             "] self of shape ", shape_list(self.shape()), " does not broadcast to the product's "
             "shape ", shape_list(product.shape()));
  const Tensor p = is_one(alpha) ? product : product.mul(alpha);
  if (is_zero(beta)) return p;
  return (is_one(beta) ? self : self.mul(beta)) + p;
}

void check_vector(const Tensor& t, const char* where, const char* what) {
  check_defined(t, where, what);
  TIDE_CHECK(t.dim() == 1, "[", where, "] ", where, ": Expected 1-D argument ", what,
             ", but got ", t.dim(), "-D");
}

}  // namespace

Tensor plain_dot(const Tensor& self, const Tensor& tensor) {
  check_defined(self, "dot", "self");
  check_defined(tensor, "dot", "tensor");
  TIDE_CHECK(self.dim() == 1 && tensor.dim() == 1, "[dot] 1D tensors expected, but got ",
             self.dim(), "D and ", tensor.dim(), "D tensors");
  TIDE_CHECK(self.dtype() == tensor.dtype(), "[dot] dot : expected both vectors to have same "
             "dtype, but found ", name(self.dtype()), " and ", name(tensor.dtype()));
  TIDE_CHECK(self.numel() == tensor.numel(), "[dot] inconsistent tensor size, expected tensor [",
             self.numel(), "] and src [", tensor.numel(), "] to have the same number of "
             "elements, but got ", self.numel(), " and ", tensor.numel(), " elements respectively");
  return tide::matmul(self, tensor);
}

Tensor plain_vdot(const Tensor& self, const Tensor& other) {
  return plain_dot(self, other);  // real dtypes only: conj is the identity
}

Tensor plain_mv(const Tensor& self, const Tensor& vec) {
  check_defined(self, "mv", "self");
  check_defined(vec, "mv", "vec");
  TIDE_CHECK(self.dim() == 2 && vec.dim() == 1, "[mv] vector + matrix @ vector expected, got 1, ",
             self.dim(), ", ", vec.dim());
  return tide::matmul(self, vec);
}

Tensor plain_outer(const Tensor& self, const Tensor& vec2) {
  check_vector(self, "outer", "self");
  check_vector(vec2, "outer", "vec2");
  return self.reshape({-1, 1}) * vec2;  // torch's own definition, with its promotion
}

Tensor plain_ger(const Tensor& self, const Tensor& vec2) { return plain_outer(self, vec2); }

Tensor plain_inner(const Tensor& self, const Tensor& other) {
  check_defined(self, "inner", "self");
  check_defined(other, "inner", "other");
  if (self.dim() == 0 || other.dim() == 0) return self * other;
  TIDE_CHECK(self.size(-1) == other.size(-1), "[inner] inner() the last dimension must match on "
             "both input tensors but got shapes ", shape_list(self.shape()), " and ",
             shape_list(other.shape()));
  return tide::tensordot(self, other, {-1}, {-1});
}

Tensor plain_addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, Scalar beta,
                   Scalar alpha) {
  return scaled_sum(self, plain_mv(mat, vec), beta, alpha, "addmv");
}

Tensor plain_addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, Scalar beta,
                  Scalar alpha) {
  check_vector(vec1, "addr", "vec1");
  check_vector(vec2, "addr", "vec2");
  return scaled_sum(self, plain_outer(vec1, vec2), beta, alpha, "addr");
}

Tensor plain_baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, Scalar beta,
                     Scalar alpha) {
  return scaled_sum(self, tide::bmm(batch1, batch2), beta, alpha, "baddbmm");
}

Tensor plain_addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, Scalar beta,
                    Scalar alpha) {
  return scaled_sum(self, tide::bmm(batch1, batch2).sum(0), beta, alpha, "addbmm");
}

Tensor plain_tensordot(const Tensor& self, const Tensor& other, const std::vector<int64_t>& dims_a,
                       const std::vector<int64_t>& dims_b) {
  check_defined(self, "tensordot", "self");
  check_defined(other, "tensordot", "other");
  TIDE_CHECK(dims_a.size() == dims_b.size(), "[tensordot] both dimension lists should have same "
             "length, found ", dims_a.size(), " and ", dims_b.size());
  // self as (free_a, contracted), other as (contracted, free_b): one mm.
  std::vector<bool> summed_a(self.dim(), false), summed_b(other.dim(), false);
  std::vector<int64_t> perm_a, perm_b, shape;
  int64_t k = 1;
  for (size_t i = 0; i < dims_a.size(); ++i) {
    const int64_t a = wrap_dim(dims_a[i], self.dim(), "tensordot");
    const int64_t b = wrap_dim(dims_b[i], other.dim(), "tensordot");
    TIDE_CHECK(self.size(a) == other.size(b), "[tensordot] contracted dimensions need to match, "
               "but first has size ", self.size(a), " in dim ", a, " and second has size ",
               other.size(b), " in dim ", b);
    TIDE_CHECK(!summed_a[a] && !summed_b[b], "[tensordot] dim ", summed_a[a] ? a : b,
               " appears multiple times in the list of dims");
    summed_a[a] = summed_b[b] = true;
    k *= self.size(a);
  }
  int64_t rows = 1, cols = 1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (summed_a[d]) continue;
    perm_a.push_back(d);
    shape.push_back(self.size(d));
    rows *= self.size(d);
  }
  for (size_t i = 0; i < dims_a.size(); ++i) {
    perm_a.push_back(wrap_dim(dims_a[i], self.dim(), "tensordot"));
    perm_b.push_back(wrap_dim(dims_b[i], other.dim(), "tensordot"));
  }
  for (int64_t d = 0; d < other.dim(); ++d) {
    if (summed_b[d]) continue;
    perm_b.push_back(d);
    shape.push_back(other.size(d));
    cols *= other.size(d);
  }
  const Tensor a = self.permute(perm_a).reshape({rows, k});
  const Tensor b = other.permute(perm_b).reshape({k, cols});
  return tide::mm(a, b).view(shape);
}

Tensor plain_kron(const Tensor& self, const Tensor& other) {
  check_defined(self, "kron", "self");
  check_defined(other, "kron", "other");
  // Both at the larger rank; self as (a0, 1, a1, 1, ...) times other as (1, b0, 1, b1, ...),
  // reshaped to (a0 b0, a1 b1, ...).
  const int64_t n = std::max(self.dim(), other.dim());
  std::vector<int64_t> a(n - self.dim(), 1), b(n - other.dim(), 1);
  for (int64_t s : self.sizes()) a.push_back(s);
  for (int64_t s : other.sizes()) b.push_back(s);
  std::vector<int64_t> va, vb, result;
  for (int64_t i = 0; i < n; ++i) {
    va.insert(va.end(), {a[i], 1});
    vb.insert(vb.end(), {1, b[i]});
    result.push_back(a[i] * b[i]);
  }
  return (self.reshape(va) * other.reshape(vb)).reshape(result);
}

Tensor plain_linalg_cross(const Tensor& self, const Tensor& other, int64_t dim) {
  check_defined(self, "linalg_cross", "self");
  check_defined(other, "linalg_cross", "other");
  TIDE_CHECK(self.dim() == other.dim(), "[linalg_cross] linalg.cross: inputs must have the same "
             "number of dimensions, found ", self.dim(), " and ", other.dim());
  const std::vector<Tensor> ab = tide::broadcast_tensors({self, other});
  const int64_t d = wrap_dim(dim, ab[0].dim(), "linalg_cross");
  TIDE_CHECK(self.size(d) == 3 && other.size(d) == 3, "[linalg_cross] linalg.cross: inputs "
             "dimension ", dim, " must have length 3. Got ", self.size(d), " and ", other.size(d));
  // (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0): a rolled back once times b rolled on once,
  // less the other way round.
  const Tensor& a = ab[0];
  const Tensor& b = ab[1];
  return tide::roll(a, {-1}, {d}) * tide::roll(b, {1}, {d}) -
         tide::roll(a, {1}, {d}) * tide::roll(b, {-1}, {d});
}

Tensor plain_cross(const Tensor& self, const Tensor& other, std::optional<int64_t> dim) {
  check_defined(self, "cross", "self");
  if (dim) return plain_linalg_cross(self, other, *dim);
  // torch's deprecated default: the first dim of size 3.
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.size(d) == 3) return plain_linalg_cross(self, other, d);
  }
  TIDE_CHECK(false, "[cross] no dimension of size 3 in input; pass dim=");
  return {};
}

Tensor plain_trace(const Tensor& self) {
  check_defined(self, "trace", "self");
  TIDE_CHECK(self.dim() == 2, "[trace] trace: expected a matrix, but got tensor with dim ",
             self.dim());
  return self.diagonal().sum();
}

}  // namespace tide::detail
