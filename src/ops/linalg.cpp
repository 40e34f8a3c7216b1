// Matrix products: matmul, mm, bmm, addmm (torch's semantics and error wording). Each front
// end checks its operands, allocates a contiguous result and calls kernels::gemm once.

#include <string>

#include "kernels/stubs.h"
#include "kernels/cpu/gemm.h"
#include "ops/dispatch.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "ops/torch_names.h"
#include "tide/ops.h"

namespace tide {
namespace {

// The names torch's matmul errors use for dtypes (c10's TypeMeta names).
const char* type_meta_name(Dtype d) {
  switch (d) {
    case kBool: return "bool";
    case kUInt8: return "unsigned char";
    case kInt32: return "int";
    case kInt64: return "long int";
    case kFloat16: return "c10::Half";
    case kBFloat16: return "c10::BFloat16";
    case kFloat32: return "float";
    case kFloat64: return "double";
  }
  return "?";
}

std::string dims_str(const Tensor& t) {
  std::string s;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (d) s += "x";
    s += std::to_string(t.size(d));
  }
  return s;
}

/// Checks shared by every product; returns the device the result lives on.
Device check_operands(const Tensor& a, const Tensor& b, const char* where) {
  detail::check_defined(a, where, "the first operand");
  detail::check_defined(b, where, "the second operand");
  return detail::same_device({{"self", &a}, {"mat2", &b}}, where);
}

void check_same_dtype(const Tensor& a, const Tensor& b, const char* where) {
  TIDE_CHECK(a.dtype() == b.dtype(), "[", where, "] expected m1 and m2 to have the same dtype, but got: ",
             type_meta_name(a.dtype()), " != ", type_meta_name(b.dtype()));
}

void check_not_bool(Dtype d, const char* where) {
  TIDE_CHECK(d != kBool, "[", where, "] \"addmm_impl_cpu_\" not implemented for 'Bool'; convert the "
             "operands to an integer or floating dtype first");
}

/// The operand as BLAS can take it: itself when its matrices already have a unit stride
/// (transposed ones included), else a contiguous copy. float32/float64 go to BLAS directly; on
/// GPUs float16/bfloat16 do too (cuBLAS), so they are made ready there as well.
Tensor blas_ready(const Tensor& t) {
  const bool reduced = t.dtype() == kFloat16 || t.dtype() == kBFloat16;
  const bool blas = t.dtype() == kFloat32 || t.dtype() == kFloat64 || (reduced && t.is_cuda());
  if (!blas) return t;
  return kernels::gemm_operand_ready(t) ? t : t.contiguous();
}

/// A new (..., m, n) result = a @ b; a and b are (..., m, k) and (..., k, n) with equal batch sizes.
Tensor product(const Tensor& a, const Tensor& b, const DimVector& out_shape, Device device) {
  Tensor out = detail::make_empty(out_shape, a.dtype(), device);
  detail::run_kernel(device, "matmul", kernels::gemm_stub, out, a, b, Scalar(0), Scalar(1));
  return out;
}

void check_mm_shapes(const Tensor& a, const Tensor& b, const char* where) {
  TIDE_CHECK(a.size(1) == b.size(0), "[", where, "] mat1 and mat2 shapes cannot be multiplied (",
             a.size(0), "x", a.size(1), " and ", b.size(0), "x", b.size(1), ")");
}

/// mm on checked 2-D operands.
Tensor mm_checked(const Tensor& a, const Tensor& b, Device device, const char* where) {
  check_mm_shapes(a, b, where);
  check_same_dtype(a, b, where);
  check_not_bool(a.dtype(), where);
  return product(blas_ready(a), blas_ready(b), DimVector{a.size(0), b.size(1)}, device);
}

Tensor dot(const Tensor& a, const Tensor& b, Device device) {
  TIDE_CHECK(a.size(0) == b.size(0), "[matmul] inconsistent tensor size, expected tensor [",
             a.size(0), "] and src [", b.size(0), "] to have the same number of elements, but got ",
             a.size(0), " and ", b.size(0), " elements respectively");
  TIDE_CHECK(a.dtype() == b.dtype(), "[matmul] dot : expected both vectors to have same dtype, but "
             "found ", detail::torch_type_name(a.dtype()), " and ", detail::torch_type_name(b.dtype()));
  check_not_bool(a.dtype(), "matmul");
  return product(blas_ready(a.unsqueeze(0)), blas_ready(b.unsqueeze(1)), DimVector{1, 1}, device)
      .view({});
}

Tensor mv(const Tensor& a, const Tensor& b, Device device) {
  TIDE_CHECK(a.size(1) == b.size(0), "[matmul] size mismatch, got input (", a.size(0), "), mat (",
             dims_str(a), "), vec (", b.size(0), ")");
  check_same_dtype(a, b, "matmul");
  check_not_bool(a.dtype(), "matmul");
  return product(blas_ready(a), blas_ready(b.unsqueeze(1)), DimVector{a.size(0), 1}, device)
      .view({a.size(0)});
}

DimVector leading(const Tensor& t, int64_t drop) {
  DimVector s;
  for (int64_t d = 0; d + drop < t.dim(); ++d) s.push_back(t.size(d));
  return s;
}

}  // namespace

namespace detail {

// Note [matmul cases]: as torch.matmul. 1-D @ 1-D is a dot product (0-dim result); 2-D @ 1-D a
// matrix-vector product; 1-D @ 2-D prepends a 1 to the vector and removes it after; 2-D @ 2-D
// is mm. When the first operand has 3+ dims and the second 1 or 2, the batch folds into the rows
// of one big mm. Otherwise the batch dims (all but the last two; a 1-D operand has none)
// broadcast, every operand is expanded (no copy) to them, and the kernel loops over the batch.
Tensor plain_matmul(const Tensor& a, const Tensor& b) {
  const Device device = check_operands(a, b, "matmul");
  const int64_t da = a.dim(), db = b.dim();
  TIDE_CHECK(da >= 1 && db >= 1, "[matmul] both arguments to matmul need to be at least 1D, but they "
             "are ", da, "D and ", db, "D");
  if (da == 1 && db == 1) return dot(a, b, device);
  if (da == 2 && db == 1) return mv(a, b, device);
  if (da == 1 && db == 2) return mm_checked(a.unsqueeze(0), b, device, "matmul").squeeze(0);
  if (da == 2 && db == 2) return mm_checked(a, b, device, "matmul");

  if (da >= 3 && db <= 2) {
    DimVector out_shape = leading(a, 1);
    if (db == 2) out_shape.push_back(b.size(1));
    Tensor a2 = a.reshape({-1, a.size(-1)});
    Tensor b2 = db == 1 ? b.unsqueeze(1) : b;
    return mm_checked(a2, b2, device, "matmul").view(out_shape.vec());
  }

  const int64_t n = da > 1 ? a.size(-2) : 1, m1 = a.size(-1);
  const int64_t m2 = db > 1 ? b.size(-2) : b.size(0), p = db > 1 ? b.size(-1) : 1;
  const DimVector batch = detail::broadcast_shapes(leading(a, 2), leading(b, 2), "matmul");
  int64_t batch_numel = 1;
  for (int64_t s : batch) batch_numel *= s;
  TIDE_CHECK(m1 == m2, "[matmul] Expected size for first two dimensions of batch2 tensor to be: [",
             batch_numel, ", ", m1, "] but got: [", batch_numel, ", ", m2, "].");
  check_same_dtype(a, b, "matmul");
  check_not_bool(a.dtype(), "matmul");

  DimVector a_shape = batch, b_shape = batch, out_shape = batch, result_shape = batch;
  a_shape.push_back(n);
  a_shape.push_back(m1);
  b_shape.push_back(m2);
  b_shape.push_back(p);
  out_shape.push_back(n);
  out_shape.push_back(p);
  if (da > 1) result_shape.push_back(n);
  if (db > 1) result_shape.push_back(p);
  Tensor a3 = blas_ready(da == 1 ? a.unsqueeze(0) : a).expand(a_shape.vec());
  Tensor b3 = blas_ready(db == 1 ? b.unsqueeze(1) : b).expand(b_shape.vec());
  return product(a3, b3, out_shape, device).view(result_shape.vec());
}

Tensor plain_mm(const Tensor& a, const Tensor& b) {
  const Device device = check_operands(a, b, "mm");
  TIDE_CHECK(a.dim() == 2, "[mm] self must be a matrix, but got a ", a.dim(), "-D tensor");
  TIDE_CHECK(b.dim() == 2, "[mm] mat2 must be a matrix, but got a ", b.dim(), "-D tensor");
  return mm_checked(a, b, device, "mm");
}

Tensor plain_bmm(const Tensor& a, const Tensor& b) {
  const Device device = check_operands(a, b, "bmm");
  TIDE_CHECK(a.dim() == 3, "[bmm] batch1 must be a 3D tensor, but got a ", a.dim(), "-D tensor");
  TIDE_CHECK(b.dim() == 3, "[bmm] batch2 must be a 3D tensor, but got a ", b.dim(), "-D tensor");
  TIDE_CHECK(b.size(0) == a.size(0) && b.size(1) == a.size(2),
             "[bmm] Expected size for first two dimensions of batch2 tensor to be: [", a.size(0),
             ", ", a.size(2), "] but got: [", b.size(0), ", ", b.size(1), "].");
  check_same_dtype(a, b, "bmm");
  check_not_bool(a.dtype(), "bmm");
  return product(blas_ready(a), blas_ready(b), DimVector{a.size(0), a.size(1), b.size(2)}, device);
}

Tensor plain_addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, Scalar beta,
                   Scalar alpha) {
  detail::check_defined(self, "addmm", "self");
  detail::check_defined(mat1, "addmm", "the first operand");
  detail::check_defined(mat2, "addmm", "the second operand");
  const Device device =
      detail::same_device({{"self", &self}, {"mat1", &mat1}, {"mat2", &mat2}}, "addmm");
  TIDE_CHECK(mat1.dim() == 2, "[addmm] mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  TIDE_CHECK(mat2.dim() == 2, "[addmm] mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  check_mm_shapes(mat1, mat2, "addmm");
  check_same_dtype(mat1, mat2, "addmm");
  TIDE_CHECK(self.dtype() == mat2.dtype(), "[addmm] self and mat2 must have the same dtype, but got ",
             type_meta_name(self.dtype()), " and ", type_meta_name(mat2.dtype()));
  check_not_bool(mat1.dtype(), "addmm");

  const DimVector out_shape{mat1.size(0), mat2.size(1)};
  TIDE_CHECK(self.dim() <= 2, "[addmm] self must broadcast to the result's shape ",
             detail::shape_str(out_shape), " but has ", self.dim(), " dims");
  for (int64_t i = 0; i < self.dim(); ++i) {
    const int64_t have = self.size(i), want = out_shape[2 - self.dim() + i];
    TIDE_CHECK(have == want || have == 1, "[addmm] The expanded size of the tensor (", want,
               ") must match the existing size (", have, ") at non-singleton dimension ",
               2 - self.dim() + i, ".  Target sizes: ", detail::shape_str(out_shape),
               ".  Tensor sizes: ", detail::shape_str(self.shape()));
  }
  Tensor out = detail::make_empty(out_shape, mat1.dtype(), device);
  // beta == 0 ignores self entirely (NaN and inf in it do not propagate), as torch documents.
  const bool uses_self = beta.to_double() != 0.0;
  if (uses_self) out.copy_(self);
  detail::run_kernel(device, "addmm", kernels::gemm_stub, out, blas_ready(mat1), blas_ready(mat2),
                     uses_self ? beta : Scalar(0), alpha);
  return out;
}

}  // namespace detail

}  // namespace tide
