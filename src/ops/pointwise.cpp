// The pointwise plan: the front end of the op table's elementwise ops over two or three tensors
// that the binary plan does not serve (lerp; addcmul, addcdiv and clamp with tensor bounds
// next), in their new, in-place and out= forms.
//
// Note [Pointwise plan]: binary_op's steps (Note [Binary front end]) over N tensors, as
// torch's TensorIterator:
//   1. the common device (torch's cross-device error; a 0-dim cpu tensor may join a GPU op)
//      and the compute dtype by the op's rule (PointwiseDtype);
//   2. the broadcast shape of every operand, checked against an in-place/out destination
//      (shape, castable dtype, no internal or partial overlap);
//   3. operands moved to the op's device (only a 0-dim cpu tensor can differ: it is copied,
//      where the binary plan reads it as a number — cheap enough for the ops this plan serves,
//      whose kernels take tensors only), converted to the compute dtype where they differ and
//      viewed with the broadcast shape;
//   4. one kernel: a BinaryOp for two tensors (the op's Scalar as alpha), a TernaryOp for three;
//   5. a destination of another (castable) dtype receives a copy.
// The binary plan stays separate: it is the per-op hot path (Note [Op table]'s cost: the
// 1-element add), and it reads scalars without materialising them.

#include <vector>

#include "kernels/stubs.h"
#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/elementwise_layout.h"
#include "ops/elementwise_plans.h"
#include "ops/op_common.h"
#include "ops/torch_names.h"
#include "ops/type_promotion.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

Dtype same_or_promoted(std::initializer_list<const Tensor*> inputs, PointwiseDtype rule,
                       const char* where) {
  const Tensor& first = **inputs.begin();
  if (rule == PointwiseDtype::Same || rule == PointwiseDtype::SameAll) {
    for (const Tensor* t : inputs) {
      TIDE_CHECK(t->dtype() == first.dtype(), "[", where, "] expected dtype ",
                 name(first.dtype()), " for every tensor operand, found ", name(t->dtype()),
                 "; convert the operands to one dtype first (this op does not promote, as torch)");
    }
    return first.dtype();
  }
  const Dtype promoted = result_type(inputs);
  if (rule == PointwiseDtype::Float && !is_floating_point(promoted)) return get_default_dtype();
  return promoted;
}

bool accepts(PointwiseKernel k, Dtype d) {
  return k.arity == 2 ? kernels::accepts(k.binary, d) : kernels::accepts(k.ternary, d);
}

Dtype compute_dtype(PointwiseKernel kernel, std::initializer_list<const Tensor*> inputs,
                    PointwiseDtype rule, const char* where) {
  const Dtype dtype = same_or_promoted(inputs, rule, where);
  TIDE_CHECK(accepts(kernel, dtype), "[", where, "] \"", where, "\" not implemented for '",
             torch_type_name(dtype), "'; convert the tensors to a dtype the op supports first");
  return dtype;
}

Tensor& pointwise_op(PointwiseKernel kernel, std::initializer_list<const Tensor*> inputs,
                     const Scalar& param, PointwiseDtype rule, Dest dest, Tensor& target,
                     const char* where) {
  TIDE_INTERNAL_ASSERT(static_cast<int>(inputs.size()) == kernel.arity);
  for (const Tensor* t : inputs) check_defined(*t, where, "input");
  if (dest == Dest::Out) check_defined(target, where, "out");

  // 1. device and dtype
  const Device device = common_device(inputs, where);
  if (dest != Dest::New) {
    TIDE_CHECK(target.device() == device, "[", where,
               "] Expected all tensors to be on the same device, but found at least two devices, ",
               device, " and ", target.device(), "!");
  }
  const Dtype compute = compute_dtype(kernel, inputs, rule, where);

  // 2. shape and destination
  DimVector out_shape = (*inputs.begin())->shape();
  for (const Tensor* t : inputs) {
    if (t->shape() != out_shape) out_shape = broadcast_shapes(out_shape, t->shape(), where);
  }
  Tensor result;
  if (dest != Dest::New) {
    check_destination(dest, target, out_shape, compute, where);
    TIDE_CHECK((rule != PointwiseDtype::SameAll && rule != PointwiseDtype::PromoteAll) ||
                   target.dtype() == compute,
               "[", where, "] Expected out tensor to have dtype ", name(compute), ", but got ",
               name(target.dtype()), " instead; this op writes its operands' dtype only");
    for (const Tensor* t : inputs) {
      if (!t->is_same(target)) check_no_partial_overlap(target, *t, where);
    }
    if (target.dtype() == compute) result = target;
  }

  // 3. operands on the device, in the compute dtype, with the broadcast shape
  std::vector<Tensor> operands;
  operands.reserve(inputs.size());
  for (const Tensor* t : inputs) {
    Tensor o = t->device() == device ? *t : t->to(device);
    if (o.dtype() != compute) o = o.to(compute);
    operands.push_back(broadcast_to(o, out_shape));
  }
  if (!result.defined()) {
    // laid out as the inputs are (Note [Memory formats] in tensor/memory_format.cpp)
    const Tensor* const* in = inputs.begin();
    result = inputs.size() == 2
                 ? empty_pointwise(out_shape, compute, device, {in[0], in[1]})
                 : empty_pointwise(out_shape, compute, device, {in[0], in[1], in[2]});
  }

  // 4. one kernel
  if (kernel.arity == 2) {
    run_kernel(device, where, kernels::binary_stub, kernel.binary, result, operands[0],
               operands[1], param);
  } else {
    run_kernel(device, where, kernels::ternary_stub, kernel.ternary, result, operands[0],
               operands[1], operands[2], param);
  }

  return deliver(dest, target, result);  // 5.
}

}  // namespace

Tensor pointwise(PointwiseKernel kernel, std::initializer_list<const Tensor*> inputs,
                 const Scalar& param, PointwiseDtype rule, const char* where) {
  Tensor out;
  pointwise_op(kernel, inputs, param, rule, Dest::New, out, where);
  return out;
}

Tensor& pointwise_inplace(PointwiseKernel kernel, Tensor& self,
                          std::initializer_list<const Tensor*> inputs, const Scalar& param,
                          PointwiseDtype rule, const char* where) {
  return pointwise_op(kernel, inputs, param, rule, Dest::InPlace, self, where);
}

Tensor& pointwise_out(PointwiseKernel kernel, Tensor& out,
                      std::initializer_list<const Tensor*> inputs, const Scalar& param,
                      PointwiseDtype rule, const char* where) {
  return pointwise_op(kernel, inputs, param, rule, Dest::Out, out, where);
}

}  // namespace tide::detail
