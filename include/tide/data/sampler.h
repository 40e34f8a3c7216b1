#pragma once
// Sampler: the dataset indices one epoch of a DataLoader visits (torch.utils.data.Sampler).

#include <cstddef>
#include <vector>

namespace tide::data {

/// The order of one epoch, as torch's Sampler: indices() is torch's iter(sampler) and size()
/// its len(). A DataLoader built with DataLoaderOptions().sampler(s) calls s->indices() once
/// at every begin() (on the calling thread) and batches the indices in that order, so a
/// sampler that changes between epochs (DistributedSampler::set_epoch, a fresh random draw)
/// takes effect at the next begin(). indices() may return any indices below the dataset's
/// size, repeats included, but always size() of them.
class Sampler {
 public:
  virtual ~Sampler() = default;

  /// The dataset indices of the next epoch, in the order they are to be visited.
  virtual std::vector<size_t> indices() = 0;
  /// How many indices one epoch yields.
  virtual size_t size() const = 0;
};

}  // namespace tide::data
