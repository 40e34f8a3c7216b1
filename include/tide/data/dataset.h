#pragma once
// Dataset: random access to samples by index, the source of a DataLoader.

#include <cstddef>
#include <span>

#include "tide/data/example.h"

namespace tide::data {

/// Samples 0 .. size()-1 by index (torch.utils.data.Dataset, a map-style dataset). A
/// DataLoader with worker threads calls get() and get_batch() from several threads at once,
/// so both must be safe to call concurrently (the const methods of an immutable dataset are).
class Dataset {
 public:
  virtual ~Dataset() = default;

  /// The sample at `index` (0 <= index < size()).
  virtual Example get(size_t index) const = 0;
  /// How many samples there are.
  virtual size_t size() const = 0;

  /// The samples at `indices` stacked along a new dim 0, each in pinned memory when `pinned`
  /// (DataLoaderOptions::pin_memory). The default gets every sample and stacks them (torch's
  /// default_collate); an exception from get() is rethrown as a tide::Error naming the sample.
  /// Datasets that hold every sample in one tensor override it to gather rows at once
  /// (TensorDataset, MNIST).
  virtual Example get_batch(std::span<const size_t> indices, bool pinned = false) const;
};

}  // namespace tide::data
