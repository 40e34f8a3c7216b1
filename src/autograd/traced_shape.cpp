// Derivatives of cat, index_select and the copies (clone, to).

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "tensor/tensor_internal.h"
#include "tide/factories.h"

namespace tide::autograd::traced {

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
  Tensor r = untraced([&] { return tide::cat(tensors, dim); });
  // torch skips legacy empty (0,) inputs; they get no gradient.
  std::vector<const Tensor*> inputs;
  std::vector<int64_t> offsets, lengths;
  int64_t offset = 0;
  const int64_t d = r.dim() > 0 ? detail::wrap_dim(dim, r.dim(), "cat") : 0;
  for (const Tensor& t : tensors) {
    inputs.push_back(&t);
    const bool legacy_empty = t.dim() == 1 && t.numel() == 0 && r.dim() != 1;
    offsets.push_back(legacy_empty ? -1 : offset);
    const int64_t len = legacy_empty ? 0 : t.size(d);
    lengths.push_back(len);
    offset += len;
  }
  auto node =
      make_node("CatBackward0", inputs, [d, offsets, lengths](const Tensor& g, const Saved& s) {
        std::vector<Tensor> out(offsets.size());
        for (size_t i = 0; i < offsets.size(); ++i) {
          if (s.needs(i) && offsets[i] >= 0) out[i] = g.narrow(d, offsets[i], lengths[i]);
        }
        return out;
      });
  set_history(r, node);
  return r;
}

// Note [index_select backward]: the gradient is index_add(zeros, dim, index, g), a kernel of its
// own (kernels/cpu/backward_kernels.h; atomics on real GPUs). It accumulates in float32 or
// float64 only — half-precision gradients are summed in float32 and cast back by the engine, as
// repeated indices would otherwise lose precision at every addition.
Tensor index_select(const Tensor& a, int64_t dim, const Tensor& index) {
  Tensor r = untraced([&] { return tide::index_select(a, dim, index); });
  const int64_t d = a.dim() > 0 ? detail::wrap_dim(dim, a.dim(), "index_select") : 0;
  auto node = make_node(
      "IndexSelectBackward0", {&a}, [d, shape = a.sizes()](const Tensor& g, const Saved& s) {
        if (shape.empty()) return grads(g.reshape({}));
        if (g.requires_grad()) {
          // create_graph: the recorded index_add (through put_), differentiable in g (Note
          // [create_graph] in autograd/engine.h).
          return grads(zeros(shape, tide::device(g.device()).dtype(g.dtype()))
                           .index_add(d, s[0].reshape({-1}), g));
        }
        const Dtype acc = g.dtype() == kFloat64 ? kFloat64 : kFloat32;
        const Tensor src = g.to(acc).contiguous();
        const Tensor idx = s[0].reshape({-1}).contiguous();
        const Tensor out = zeros(shape, tide::device(g.device()).dtype(acc));
        detail::run_kernel(g.device(), "index_add", kernels::index_add_stub, out, src, idx, d);
        return grads(out);
      });
  if (node) node->save(index);
  set_history(r, node);
  return r;
}

Tensor clone(const Tensor& a, std::optional<MemoryFormat> memory_format) {
  Tensor r = untraced([&] { return a.clone(memory_format); });
  set_history(
      r, make_node("CloneBackward0", {&a}, [](const Tensor& g, const Saved&) { return grads(g); }));
  return r;
}

Tensor to(const Tensor& a, const TensorOptions& options, bool non_blocking, bool copy) {
  Tensor r = untraced([&] { return a.to(options, non_blocking, copy); });
  if (r.is_same(a)) return a;  // no copy, no node (torch returns self)
  const Device device = a.device();
  const Dtype dtype = a.dtype();
  set_history(r, make_node("ToCopyBackward0", {&a}, [device, dtype](const Tensor& g, const Saved&) {
                return grads(g.to(device, dtype));
              }));
  return r;
}

}  // namespace tide::autograd::traced
