// The cpu side of the convolution and pooling stubs (kernels/conv_stubs.h).

#include "kernels/conv_stubs.h"

#include "kernels/cpu/conv_kernels.h"
#include "kernels/cpu/pool_kernels.h"

namespace tide::kernels {

decltype(conv2d_stub) conv2d_stub{&conv2d_kernel};
decltype(conv2d_backward_input_stub) conv2d_backward_input_stub{&conv2d_backward_input_kernel};
// (grad_weight, grad_bias, input, grad_out): both gradients are written.
decltype(conv2d_backward_weight_stub) conv2d_backward_weight_stub{&conv2d_backward_weight_kernel,
                                                                  nullptr, 0b11};
// (out, indices, input): values and indices are both outputs.
decltype(max_pool2d_stub) max_pool2d_stub{&max_pool2d_kernel, nullptr, 0b11};
decltype(max_pool2d_backward_stub) max_pool2d_backward_stub{&max_pool2d_backward_kernel};
decltype(avg_pool2d_stub) avg_pool2d_stub{&avg_pool2d_kernel};
decltype(avg_pool2d_backward_stub) avg_pool2d_backward_stub{&avg_pool2d_backward_kernel};
decltype(adaptive_avg_pool2d_stub) adaptive_avg_pool2d_stub{&adaptive_avg_pool2d_kernel};
decltype(adaptive_avg_pool2d_backward_stub) adaptive_avg_pool2d_backward_stub{
    &adaptive_avg_pool2d_backward_kernel};

}  // namespace tide::kernels
