#pragma once
// Reducer: DistributedDataParallel's gradient buckets and the hooks that fill and all-reduce
// them during backward (Note [DistributedDataParallel] in tide/nn/distributed_data_parallel.h;
// torch's name and role).

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "tide/cuda/stream.h"
#include "tide/distributed/process_group.h"
#include "tide/removable_handle.h"
#include "tide/tensor.h"

namespace tide::nn::detail {

class Reducer {
 public:
  /// `params`: the module's parameters that require grad, with their names (torch's parameter
  /// indices in errors are positions in this list). All on one device. Registers a
  /// post-accumulate-grad hook on each.
  Reducer(std::vector<std::pair<std::string, Tensor>> params, size_t bucket_cap_bytes,
          bool find_unused_parameters);
  /// Removes the hooks.
  ~Reducer();
  Reducer(const Reducer&) = delete;
  Reducer& operator=(const Reducer&) = delete;

  /// Before a synced forward: raises torch's error when the previous synced backward left a
  /// bucket unreduced (a parameter got no gradient), then arms the hooks for the next backward.
  void prepare_for_forward();
  /// After a synced forward: with find_unused_parameters, the parameters the graphs of
  /// `outputs` (every tensor the forward returned) cannot reach, which the first hook of the
  /// backward marks ready with zeros.
  void prepare_for_backward(const std::vector<Tensor>& outputs);

  size_t bucket_count() const { return buckets_.size(); }
  /// Buckets whose all-reduce the current backward has started (tests watch the overlap).
  size_t buckets_launched() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return next_bucket_;
  }

 private:
  struct Param {
    std::string name;
    Tensor tensor;
    size_t bucket = 0;
    int64_t offset = 0;  // in the bucket's flat tensor
    RemovableHandle hook;
  };
  struct Bucket {
    Tensor flat;                  // every parameter's gradient, end to end, on the device
    std::vector<size_t> params;   // indices into params_
    size_t pending = 0;           // slots not yet filled in this backward
    std::shared_ptr<distributed::Work> work;
    std::vector<cuda::Stream> copy_streams;  // where slots were filled (GPU only)
  };

  /// The hook: `index`'s gradient is accumulated.
  void on_grad_accumulated(size_t index);
  /// Copies `index`'s grad() (or zeros) into its slot; all-reduces the buckets now complete.
  void mark_ready(size_t index);
  void launch_ready_buckets();
  /// The engine's final callback: waits for every bucket, writes the averages into grad().
  void finalize();
  void reset_pass();
  Tensor slot(size_t index) const;
  std::string unfinished_reduction_message() const;

  const bool find_unused_;
  std::vector<Param> params_;
  std::vector<Bucket> buckets_;

  mutable std::mutex mutex_;         // hooks run on the backward's thread, forward on the user's
  bool expect_hooks_ = false;        // a synced forward armed the next backward
  bool pass_started_ = false;        // one of its hooks fired; finalize has not completed
  std::vector<bool> ready_;          // per parameter, in this backward
  size_t next_bucket_ = 0;           // buckets below it are launched (in order)
  std::vector<size_t> unused_;       // find_unused: not reachable from the last output
  std::vector<int32_t> used_;        // find_unused: got a gradient since the last reduction
  Tensor used_map_;                  // used_, all-reduced (SUM) after the last bucket
  std::shared_ptr<distributed::Work> used_work_;
};

}  // namespace tide::nn::detail
