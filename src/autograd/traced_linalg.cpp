// Derivatives of the matrix products. matmul is recorded as the products and views it is made of
// (as torch's matmul, a composite op), so its backward is theirs.

#include "autograd/hooks.h"
#include "autograd/recording.h"

namespace tide::autograd::traced {

namespace {

// Note [A transposed mat2's gradient]: nn::Linear computes x.mm(w.t()), so mat2 is a column-major
// view of the weight. Its gradient mat1.t().mm(g) is row-major; the t() view's backward then hands
// the weight a transposed gradient, and AccumulateGrad copies it into the leaf's layout every
// step (10% of a batch-64 MLP step). As torch's mm_mat2_backward, compute it as
// g.t().mm(mat1).t() instead: the same products, already in the weight's layout. The layout is
// read when the op is recorded, since mat2 itself is saved only when mat1 needs a gradient.
bool column_major(const Tensor& m) {
  return m.dim() == 2 && m.size(0) > 1 && m.size(1) > 1 && m.stride(0) == 1 &&
         m.stride(1) == m.size(0);
}

Tensor mat2_grad(const Tensor& mat1, const Tensor& g, bool mat2_column_major) {
  return mat2_column_major ? g.t().mm(mat1).t() : mat1.t().mm(g);
}

}  // namespace

Tensor mm(const Tensor& a, const Tensor& b) {
  Tensor r = untraced([&] { return tide::mm(a, b); });
  auto node = make_node("MmBackward0", {&a, &b},
                        [b_column_major = column_major(b)](const Tensor& g, const Saved& s) {
                          return grads(s.needs(0) ? g.mm(s[1].t()) : Tensor(),
                                       s.needs(1) ? mat2_grad(s[0], g, b_column_major) : Tensor());
                        });
  if (node) {
    node->save(b.requires_grad() ? a : Tensor());
    node->save(a.requires_grad() ? b : Tensor());
  }
  set_history(r, node);
  return r;
}

Tensor bmm(const Tensor& a, const Tensor& b) {
  Tensor r = untraced([&] { return tide::bmm(a, b); });
  auto node = make_node("BmmBackward0", {&a, &b}, [](const Tensor& g, const Saved& s) {
    return grads(s.needs(0) ? g.bmm(s[1].transpose(1, 2)) : Tensor(),
                 s.needs(1) ? s[0].transpose(1, 2).bmm(g) : Tensor());
  });
  if (node) {
    node->save(b.requires_grad() ? a : Tensor());
    node->save(a.requires_grad() ? b : Tensor());
  }
  set_history(r, node);
  return r;
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, Scalar beta,
             Scalar alpha) {
  Tensor r = untraced([&] { return tide::addmm(self, mat1, mat2, beta, alpha); });
  auto node = make_node("AddmmBackward0", {&self, &mat1, &mat2},
                        [beta, alpha, mat2_column_major = column_major(mat2)](
                            const Tensor& g, const Saved& s) {
                          const bool unit = alpha.to_double() == 1.0;
                          Tensor g_self, g1, g2;
                          if (s.needs(0)) g_self = beta.to_double() == 1.0 ? g : g * beta;
                          if (s.needs(1)) g1 = unit ? g.mm(s[1].t()) : g.mm(s[1].t()) * alpha;
                          if (s.needs(2)) {
                            g2 = mat2_grad(s[0], g, mat2_column_major);
                            if (!unit) g2 = g2 * alpha;
                          }
                          return grads(g_self, g1, g2);
                        });
  if (node) {
    node->save(mat2.requires_grad() ? mat1 : Tensor());
    node->save(mat1.requires_grad() ? mat2 : Tensor());
  }
  set_history(r, node);
  return r;
}

// Note [Recorded matmul]: the same cases as the untraced matmul (Note [matmul cases] in
// ops/linalg.cpp), spelled with recorded ops. Each case runs the same gemm kernel on the same
// operands as the untraced path, so the forward values are the same.
Tensor matmul(const Tensor& a, const Tensor& b) {
  const int64_t da = a.dim(), db = b.dim();
  TIDE_CHECK(da >= 1 && db >= 1,
             "[matmul] both arguments to matmul need to be at least 1D, but they "
             "are ",
             da, "D and ", db, "D");
  if (da == 1 && db == 1) return a.unsqueeze(0).mm(b.unsqueeze(1)).view({});
  if (da == 2 && db == 1) return a.mm(b.unsqueeze(1)).view({a.size(0)});
  if (da == 1 && db == 2) return a.unsqueeze(0).mm(b).squeeze(0);
  if (da == 2 && db == 2) return a.mm(b);
  if (da >= 3 && db <= 2) {
    std::vector<int64_t> out_shape = a.sizes();
    out_shape.pop_back();
    if (db == 2) out_shape.push_back(b.size(1));
    const Tensor b2 = db == 1 ? b.unsqueeze(1) : b;
    return a.reshape({-1, a.size(-1)}).mm(b2).view(out_shape);
  }
  // batched: broadcast the batch dims, fold them into one, bmm, unfold
  const Tensor a3 = da == 1 ? a.unsqueeze(0) : a;
  const Tensor b3 = db == 1 ? b.unsqueeze(1) : b;
  std::vector<int64_t> ba = a3.sizes(), bb = b3.sizes();
  ba.resize(ba.size() - 2);
  bb.resize(bb.size() - 2);
  std::vector<int64_t> batch;
  {
    const size_t n = std::max(ba.size(), bb.size());
    for (size_t i = 0; i < n; ++i) {
      const int64_t x = i + ba.size() >= n ? ba[i + ba.size() - n] : 1;
      const int64_t y = i + bb.size() >= n ? bb[i + bb.size() - n] : 1;
      TIDE_CHECK(x == y || x == 1 || y == 1, "[matmul] The size of tensor a (", x,
                 ") must match the size of tensor b (", y, ") at non-singleton dimension ", i);
      batch.push_back(x == 1 ? y : x);
    }
  }
  int64_t batch_numel = 1;
  for (int64_t s : batch) batch_numel *= s;
  const int64_t n = a3.size(-2), m = a3.size(-1), m2 = b3.size(-2), p = b3.size(-1);
  auto with = [&](int64_t r, int64_t c) {
    std::vector<int64_t> s = batch;
    s.push_back(r);
    s.push_back(c);
    return s;
  };
  const Tensor af = a3.expand(with(n, m)).reshape({batch_numel, n, m});
  const Tensor bf = b3.expand(with(m2, p)).reshape({batch_numel, m2, p});
  std::vector<int64_t> result_shape = batch;
  if (da > 1) result_shape.push_back(n);
  if (db > 1) result_shape.push_back(p);
  return af.bmm(bf).view(result_shape);
}

}  // namespace tide::autograd::traced
