#pragma once
// The kernel stubs of convolution and pooling (Note [Kernel stubs]); what each computes:
// kernels/cpu/conv_kernels.h and kernels/cpu/pool_kernels.h. Kept apart from kernels/stubs.h
// so that these ops' geometry types reach only the files that use them.

#include "kernels/conv_geometry.h"
#include "kernels/kernel_stub.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// conv2d(out, input, weight, bias or undefined, geometry)
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                       const ConvGeometry&)>
    conv2d_stub;
/// conv2d_backward_input(grad_input, grad_out, weight, geometry)
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const ConvGeometry&)>
    conv2d_backward_input_stub;
/// conv2d_backward_weight(grad_weight, grad_bias or undefined, input, grad_out, geometry)
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                       const ConvGeometry&)>
    conv2d_backward_weight_stub;

/// max_pool2d(out, indices, input, geometry)
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const PoolGeometry&)>
    max_pool2d_stub;
/// max_pool2d_backward(grad_input, grad_out, indices, geometry)
extern KernelStub<void(const Tensor&, const Tensor&, const Tensor&, const PoolGeometry&)>
    max_pool2d_backward_stub;
/// avg_pool2d and adaptive_avg_pool2d (out, input, geometry), and their backward
/// (grad_input, grad_out, geometry).
extern KernelStub<void(const Tensor&, const Tensor&, const PoolGeometry&)> avg_pool2d_stub;
extern KernelStub<void(const Tensor&, const Tensor&, const PoolGeometry&)>
    avg_pool2d_backward_stub;
extern KernelStub<void(const Tensor&, const Tensor&, const PoolGeometry&)>
    adaptive_avg_pool2d_stub;
extern KernelStub<void(const Tensor&, const Tensor&, const PoolGeometry&)>
    adaptive_avg_pool2d_backward_stub;

}  // namespace tide::kernels

// Their GPU launchers: kernels/cuda/pool_kernels.cu (always with nvcc) and
// kernels/cuda/cudnn_conv.cpp (when the build has cuDNN; all_stubs() lists the convolution
// stubs only then).
