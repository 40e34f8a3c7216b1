// tril, triu (and their in-place forms), diagonal, diag_embed, diag and diagflat
// (src/ops/ops.yaml, `autograd: composite`): masks made of aranges on the tensor's device and
// `where`, and strided slices, so they record through table ops on every device.
//
// Note [diagonal copies]: torch's diagonal is a view (as_strided); tide has no general strided
// view with its own backward yet, so diagonal moves the two dims last, flattens them and takes
// every (n2 + 1)-th element from the diagonal's start — a view where the reshape can be one (the
// two dims already last and contiguous), a copy otherwise. Reads and gradients are torch's;
// writing through the result reaches self only in the first case.

#include <algorithm>
#include <vector>

#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

/// keep[i][j] for the last two dims (rows, cols) of a tensor on `device`: j - i <= k (lower)
/// or j - i >= k (upper).
Tensor triangle(int64_t rows, int64_t cols, int64_t k, bool lower, Device device) {
  const TensorOptions options = tide::device(device).dtype(kInt64);
  const Tensor diff = arange(cols, options).unsqueeze(0) - arange(rows, options).unsqueeze(1);
  return lower ? diff.le(k) : diff.ge(k);
}

Tensor triangular(const Tensor& self, int64_t k, bool lower, const char* where) {
  check_defined(self, where, "self");
  TIDE_CHECK(self.dim() >= 2, "[", where, "] ", where, ": input tensor must have at least 2 "
             "dimensions");
  const Tensor keep = triangle(self.size(-2), self.size(-1), k, lower, self.device());
  return tide::where(keep, self, zeros_like(self));
}

/// The number of elements on the offset-th diagonal of an (n1, n2) matrix.
int64_t diagonal_length(int64_t n1, int64_t n2, int64_t offset) {
  return std::max<int64_t>(offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2), 0);
}

}  // namespace

Tensor plain_tril(const Tensor& self, int64_t diagonal) {
  return triangular(self, diagonal, /*lower=*/true, "tril");
}

Tensor plain_triu(const Tensor& self, int64_t diagonal) {
  return triangular(self, diagonal, /*lower=*/false, "triu");
}

Tensor& plain_tril_(Tensor& self, int64_t diagonal) {
  self.copy_(triangular(self, diagonal, /*lower=*/true, "Tensor::tril_"));
  return self;
}

Tensor& plain_triu_(Tensor& self, int64_t diagonal) {
  self.copy_(triangular(self, diagonal, /*lower=*/false, "Tensor::triu_"));
  return self;
}

Tensor plain_diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  check_defined(self, "diagonal", "self");
  const int64_t d1 = wrap_dim(dim1, self.dim(), "diagonal");
  const int64_t d2 = wrap_dim(dim2, self.dim(), "diagonal");
  TIDE_CHECK(d1 != d2, "[diagonal] diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const Tensor last = self.movedim({d1, d2}, {self.dim() - 2, self.dim() - 1});
  const int64_t n1 = last.size(-2), n2 = last.size(-1);
  const int64_t length = diagonal_length(n1, n2, offset);
  const Tensor flat = last.flatten(-2, -1);
  if (length == 0) return flat.narrow(-1, 0, 0);
  const int64_t start = offset >= 0 ? offset : -offset * n2;
  return flat.slice(-1, start, start + (length - 1) * (n2 + 1) + 1, n2 + 1);
}

Tensor plain_diag_embed(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  check_defined(self, "diag_embed", "self");
  const int64_t rank = self.dim() + 1;
  const int64_t d1 = wrap_dim(dim1, rank, "diag_embed");
  const int64_t d2 = wrap_dim(dim2, rank, "diag_embed");
  TIDE_CHECK(d1 != d2, "[diag_embed] diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t k = offset < 0 ? -offset : offset;
  Tensor v = self.dim() == 0 ? self.reshape({1}) : self;
  if (k > 0) {  // padded to the matrix's side n + |offset|
    std::vector<int64_t> pad = v.sizes();
    pad.back() = k;
    v = tide::cat({v, zeros(pad, tide::device(v.device()).dtype(v.dtype()))}, -1);
  }
  const int64_t n = v.size(-1);
  const TensorOptions options = tide::device(v.device()).dtype(kInt64);
  const Tensor diff = arange(n, options).unsqueeze(0) - arange(n, options).unsqueeze(1);
  // out[i][i + offset] = v[i] (offset >= 0), out[j - offset][j] = v[j] (offset < 0).
  const Tensor spread = offset >= 0 ? v.unsqueeze(-1) : v.unsqueeze(-2);
  const Tensor value = spread.expand([&] {
    std::vector<int64_t> s = v.sizes();
    s.push_back(n);
    return s;
  }());
  const Tensor out = tide::where(diff.eq(offset), value, zeros_like(value));
  return out.movedim({rank - 2, rank - 1}, {d1, d2});
}

Tensor plain_diag(const Tensor& self, int64_t diagonal) {
  check_defined(self, "diag", "self");
  TIDE_CHECK(self.dim() == 1 || self.dim() == 2, "[diag] diag(): Supports 1D or 2D tensors. Got ",
             self.dim(), "D");
  if (self.dim() == 1) return plain_diag_embed(self, diagonal, 0, 1);
  return plain_diagonal(self, diagonal, 0, 1).clone();  // torch's diag copies
}

Tensor plain_diagflat(const Tensor& self, int64_t offset) {
  check_defined(self, "diagflat", "self");
  return plain_diag_embed(self.reshape({-1}), offset, 0, 1);
}

}  // namespace tide::detail
