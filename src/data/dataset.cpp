#include "tide/data/dataset.h"

#include <exception>
#include <vector>

#include "tide/ops.h"

namespace tide::data {
namespace {

/// The samples' tensors (data or target) stacked, or undefined when every sample has none.
Tensor stack_field(const std::vector<Tensor>& parts, std::span<const size_t> indices,
                   const char* field, bool pinned) {
  size_t defined = 0;
  for (const Tensor& t : parts) defined += t.defined() ? 1 : 0;
  if (defined == 0) return Tensor();
  for (size_t j = 0; j < parts.size(); ++j) {
    TIDE_CHECK(parts[j].defined(), "[Dataset::get_batch] sample ", indices[j], " has no ", field,
               " tensor but other samples of the batch have one; get() must return the same "
               "fields for every sample");
  }
  Tensor out;
  try {
    out = stack(parts);
  } catch (const Error& e) {
    throw Error(tide::detail::concat("[Dataset::get_batch] the ", field, " tensors of samples ",
                                     indices[0], "..", indices.back(),
                                     " (in batch order) cannot be stacked: ", e.what()));
  }
  return pinned ? out.pin_memory() : out;
}

}  // namespace

Example Dataset::get_batch(std::span<const size_t> indices, bool pinned) const {
  TIDE_CHECK(!indices.empty(), "[Dataset::get_batch] expected at least one sample index");
  std::vector<Tensor> data, target;
  data.reserve(indices.size());
  target.reserve(indices.size());
  for (size_t index : indices) {
    Example sample;
    try {
      sample = get(index);
    } catch (const std::exception& e) {
      throw Error(tide::detail::concat("[Dataset::get_batch] get(", index, ") failed for sample ",
                                       index, ": ", e.what()));
    } catch (...) {
      throw Error(tide::detail::concat("[Dataset::get_batch] get(", index, ") failed for sample ",
                                       index, " with an exception that is not a std::exception"));
    }
    data.push_back(std::move(sample.data));
    target.push_back(std::move(sample.target));
  }
  return Example{stack_field(data, indices, "data", pinned),
                 stack_field(target, indices, "target", pinned)};
}

}  // namespace tide::data
