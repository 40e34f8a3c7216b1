// torch.meshgrid: the coordinate grids of 0-D and 1-D tensors, as expanded views (so a grid
// costs no memory and writes through it reach the input, as torch's).

#include <string>
#include <vector>

#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "tide/ops.h"

namespace tide::detail {

std::vector<Tensor> plain_meshgrid(const std::vector<Tensor>& tensors,
                                   const std::string& indexing) {
  const char* where = "meshgrid";
  TIDE_CHECK(!tensors.empty(), "[", where, "] torch.meshgrid: Expected at least one tensor; "
             "pass the coordinate vectors");
  TIDE_CHECK(indexing == "ij" || indexing == "xy", "[", where, "] torch.meshgrid: indexing must "
             "be one of \"xy\" or \"ij\", but received: ", indexing, "; pass \"ij\" (matrix "
             "indexing) or \"xy\" (Cartesian)");
  for (size_t i = 0; i < tensors.size(); ++i) {
    check_defined(tensors[i], where, "tensors");
    TIDE_CHECK(tensors[i].dim() <= 1, "[", where, "] torch.meshgrid: Expected 0D or 1D tensor in "
               "the tensor list but got: ", tensors[i].dim(), "D (tensor ", i, "); flatten it");
    TIDE_CHECK(tensors[i].dtype() == tensors[0].dtype(), "[", where, "] torch.meshgrid: Expected "
               "all tensors in the tensor list to have the same dtype, found ",
               name(tensors[0].dtype()), " and ", name(tensors[i].dtype()),
               "; convert them to one dtype");
    TIDE_CHECK(tensors[i].device() == tensors[0].device(), "[", where, "] torch.meshgrid: "
               "Expected all tensors in the tensor list to have the same device, found ",
               tensors[0].device(), " and ", tensors[i].device(), "; move them to one device");
  }
  // 'xy' swaps the first two grids' roles: the grid is built for (y, x, ...) and the first
  // two results swapped back, as torch.
  std::vector<Tensor> ts;
  for (const Tensor& t : tensors) ts.push_back(t.reshape({-1}));
  const bool swap = indexing == "xy" && ts.size() >= 2;
  if (swap) std::swap(ts[0], ts[1]);
  std::vector<int64_t> shape;
  for (const Tensor& t : ts) shape.push_back(t.numel());
  std::vector<Tensor> out;
  for (size_t i = 0; i < ts.size(); ++i) {
    std::vector<int64_t> view(ts.size(), 1);
    view[i] = -1;
    out.push_back(ts[i].reshape(view).expand(shape));
  }
  if (swap) std::swap(out[0], out[1]);
  return out;
}

}  // namespace tide::detail
