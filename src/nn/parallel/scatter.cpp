#include "nn/parallel/scatter.h"

#include "tide/error.h"

namespace tide::nn::parallel {

std::vector<Tensor> scatter(const Tensor& input, const std::vector<int>& device_ids, int64_t dim) {
  TIDE_CHECK(input.defined(), "[DataParallel] expected a defined input tensor to scatter");
  TIDE_CHECK(input.dim() > 0 && dim >= -input.dim() && dim < input.dim(),
             "[DataParallel] can't scatter the input along dim ", dim, ": it has ", input.dim(),
             " dimension(s); construct the DataParallel with a dim in [", -input.dim(), ", ",
             input.dim(), ") (the batch dimension)");
  std::vector<Tensor> pieces = input.chunk(static_cast<int64_t>(device_ids.size()), dim);
  for (size_t i = 0; i < pieces.size(); ++i) {
    pieces[i] = pieces[i].to(Device(kCUDA, device_ids[i]), /*non_blocking=*/true);
  }
  return pieces;
}

}  // namespace tide::nn::parallel
