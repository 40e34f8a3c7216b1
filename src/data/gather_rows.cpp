#include "data/gather_rows.h"

#include <cstring>
#include <vector>

#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::data::detail {
namespace {

void check_index(size_t index, int64_t rows, const char* where) {
  TIDE_CHECK(index < static_cast<size_t>(rows), "[", where, "] sample index ", index,
             " is out of range for a dataset of ", rows, " samples");
}

/// The batch's shape: the number of indices, then the source's sample shape.
std::vector<int64_t> batch_sizes(const Tensor& source, size_t n) {
  std::vector<int64_t> sizes = source.sizes();
  sizes[0] = static_cast<int64_t>(n);
  return sizes;
}

}  // namespace

Tensor gather_rows(const Tensor& source, std::span<const size_t> indices, bool pinned,
                   const char* where) {
  const int64_t rows = source.size(0);
  for (size_t index : indices) check_index(index, rows, where);
  if (!source.is_cpu()) {
    // A dataset that lives on a GPU: gather there (pinning applies to host memory only, and
    // pin_memory() says so).
    Tensor index = empty({static_cast<int64_t>(indices.size())},
                         TensorOptions().dtype(kInt64).device(Device(kCPU)));
    int64_t* p = index.data_ptr<int64_t>();
    for (size_t j = 0; j < indices.size(); ++j) p[j] = static_cast<int64_t>(indices[j]);
    Tensor out = source.index_select(0, index.to(source.device()));
    return pinned ? out.pin_memory() : out;
  }
  const TensorOptions options =
      TensorOptions().dtype(source.dtype()).device(Device(kCPU)).pinned_memory(pinned);
  Tensor out = empty(batch_sizes(source, indices.size()), options);
  if (!source.is_contiguous()) {
    for (size_t j = 0; j < indices.size(); ++j) {
      out.select(0, static_cast<int64_t>(j)).copy_(source.select(0, static_cast<int64_t>(indices[j])));
    }
    return out;
  }
  const size_t row_bytes = rows == 0 ? 0 : source.nbytes() / static_cast<size_t>(rows);
  const char* src = static_cast<const char*>(source.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  for (size_t j = 0; j < indices.size();) {
    size_t run = 1;  // consecutive sample indices are one memcpy
    while (j + run < indices.size() && indices[j + run] == indices[j] + run) ++run;
    std::memcpy(dst + j * row_bytes, src + indices[j] * row_bytes, run * row_bytes);
    j += run;
  }
  return out;
}

}  // namespace tide::data::detail
