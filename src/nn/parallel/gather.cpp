#include "nn/parallel/gather.h"

#include "tide/error.h"
#include "tide/ops.h"

namespace tide::nn::parallel {

Tensor gather(const std::vector<Tensor>& outputs, int output_device, int64_t dim) {
  bool all_scalars = true;
  for (size_t i = 0; i < outputs.size(); ++i) {
    TIDE_CHECK(outputs[i].defined(), "[DataParallel] replica ", i,
               " returned an undefined tensor; forward must return the output tensor");
    all_scalars = all_scalars && outputs[i].dim() == 0;
  }
  const Device target(kCUDA, output_device);
  std::vector<Tensor> moved;
  moved.reserve(outputs.size());
  for (const Tensor& out : outputs) {
    moved.push_back((all_scalars ? out.view({1}) : out).to(target, /*non_blocking=*/true));
  }
  return cat(moved, dim);
}

}  // namespace tide::nn::parallel
