#include "distributed/reducer.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "autograd/accumulate_grad.h"
#include "autograd/engine.h"
#include "autograd/node.h"
#include "distributed/bucket_assignment.h"
#include "tide/autograd.h"
#include "tide/factories.h"

namespace tide::nn::detail {

Reducer::Reducer(std::vector<std::pair<std::string, Tensor>> params, size_t bucket_cap_bytes,
                 bool find_unused_parameters)
    : find_unused_(find_unused_parameters) {
  std::vector<Tensor> tensors;
  for (auto& [name, t] : params) {
    tensors.push_back(t);
    params_.push_back(Param{std::move(name), t, 0, 0, {}});
  }
  for (const std::vector<size_t>& members :
       distributed::detail::compute_bucket_assignment(tensors, bucket_cap_bytes)) {
    Bucket bucket;
    int64_t numel = 0;
    for (size_t i : members) {
      params_[i].bucket = buckets_.size();
      params_[i].offset = numel;
      numel += params_[i].tensor.numel();
    }
    const Tensor& first = params_[members.front()].tensor;
    bucket.flat = zeros({numel}, TensorOptions().dtype(first.dtype()).device(first.device()));
    bucket.params = members;
    buckets_.push_back(std::move(bucket));
  }
  ready_.assign(params_.size(), false);
  used_.assign(params_.size(), 0);
  reset_pass();
  for (size_t i = 0; i < params_.size(); ++i) {
    params_[i].hook = params_[i].tensor.register_post_accumulate_grad_hook(
        [this, i](Tensor&) { on_grad_accumulated(i); });
  }
}

Reducer::~Reducer() {
  for (Param& p : params_) p.hook.remove();
}

Tensor Reducer::slot(size_t index) const {
  const Param& p = params_[index];
  return buckets_[p.bucket].flat.narrow(0, p.offset, p.tensor.numel()).view(p.tensor.sizes());
}

void Reducer::reset_pass() {
  std::fill(ready_.begin(), ready_.end(), false);
  for (Bucket& b : buckets_) {
    b.pending = b.params.size();
    b.work.reset();
    b.copy_streams.clear();
  }
  next_bucket_ = 0;
  pass_started_ = false;
}

void Reducer::prepare_for_forward() {
  std::lock_guard<std::mutex> lock(mutex_);
  // torch's ensure_prior_reduction_finished: the state stays as it is, so every later synced
  // forward raises too (the replicas may already disagree).
  TIDE_CHECK(!pass_started_, unfinished_reduction_message());
  reset_pass();
  expect_hooks_ = true;
}

void Reducer::prepare_for_backward(const std::vector<Tensor>& outputs) {
  if (!find_unused_) return;
  // The leaves the outputs' graphs reach (torch's search_unused_parameters).
  std::unordered_set<const TensorImpl*> reachable;
  std::vector<autograd::Node*> stack;
  std::unordered_set<autograd::Node*> seen;
  for (const Tensor& output : outputs) {
    if (!output.defined() || !output.requires_grad()) continue;
    autograd::Edge root = autograd::gradient_edge(output);
    if (root.valid()) stack.push_back(root.node.get());
  }
  while (!stack.empty()) {
    autograd::Node* node = stack.back();
    stack.pop_back();
    if (!seen.insert(node).second) continue;
    if (auto* acc = dynamic_cast<autograd::AccumulateGrad*>(node))
      reachable.insert(acc->variable().impl());
    for (const autograd::Edge& e : node->next_edges)
      if (e.valid()) stack.push_back(e.node.get());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  unused_.clear();
  for (size_t i = 0; i < params_.size(); ++i)
    if (!reachable.count(params_[i].tensor.impl())) unused_.push_back(i);
}

void Reducer::on_grad_accumulated(size_t index) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Counted under no_sync too, so that a parameter used only in accumulation steps is reduced
  // (torch's local_used_map).
  used_[index] = 1;
  if (!expect_hooks_) return;  // under no_sync, or a backward no synced forward armed
  if (!pass_started_) {
    pass_started_ = true;
    autograd::queue_callback([this] { finalize(); });
    for (size_t i : unused_) mark_ready(i);
  }
  mark_ready(index);
}

void Reducer::mark_ready(size_t index) {
  const Param& p = params_[index];
  TIDE_CHECK(!ready_[index], "[DistributedDataParallel] Expected to mark a variable ready only "
             "once. This error is caused by one of the following reasons: 1) Use of a module "
             "parameter outside the `forward` function. 2) Reused parameters in multiple "
             "reentrant backward passes or a backward with retain_graph run twice per forward. "
             "Parameter at index ", index, " (", p.name, ") has been marked as ready twice.");
  ready_[index] = true;
  Bucket& bucket = buckets_[p.bucket];
  Tensor grad = p.tensor.grad();
  Tensor dst = slot(index);
  if (grad.defined()) {
    TIDE_CHECK(grad.device() == dst.device() && grad.dtype() == dst.dtype(),
               "[DistributedDataParallel] expected the gradient of parameter ", p.name, " on ",
               dst.device(), " as ", name(dst.dtype()), " (where its bucket was made), found it on ",
               grad.device(), " as ", name(grad.dtype()),
               "; move or cast the module before wrapping it in DistributedDataParallel");
    dst.copy_(grad);
  } else {
    dst.zero_();  // an unused parameter without a gradient contributes zeros
  }
  if (dst.is_cuda()) {
    const cuda::Stream s = cuda::current_stream(dst.get_device());
    if (std::find(bucket.copy_streams.begin(), bucket.copy_streams.end(), s) ==
        bucket.copy_streams.end())
      bucket.copy_streams.push_back(s);
  }
  if (--bucket.pending == 0) launch_ready_buckets();
}

void Reducer::launch_ready_buckets() {
  // In bucket order only: every rank must issue the same collectives in the same order, and
  // gradients may become ready in a different order on different ranks.
  while (next_bucket_ < buckets_.size() && buckets_[next_bucket_].pending == 0) {
    Bucket& b = buckets_[next_bucket_++];
    if (b.flat.is_cuda()) {
      // The collective follows the current stream; slots filled on other streams join it.
      const cuda::Stream current = cuda::current_stream(b.flat.get_device());
      for (const cuda::Stream& s : b.copy_streams)
        if (s != current) current.wait_stream(s);
    }
    b.work = distributed::all_reduce(b.flat, distributed::ReduceOp::AVG, /*async_op=*/true);
  }
  if (find_unused_ && next_bucket_ == buckets_.size()) {
    Tensor used = empty({static_cast<int64_t>(used_.size())}, TensorOptions().dtype(kInt32));
    std::memcpy(used.data_ptr<int32_t>(), used_.data(), used_.size() * sizeof(int32_t));
    used_map_ = used.to(buckets_.front().flat.device());
    used_work_ = distributed::all_reduce(used_map_, distributed::ReduceOp::SUM, true);
  }
}

void Reducer::finalize() {
  std::lock_guard<std::mutex> lock(mutex_);
  expect_hooks_ = false;
  // A parameter got no gradient: leave pass_started_ set for the next forward to raise, as
  // torch does (its finalizer never runs then).
  if (next_bucket_ < buckets_.size()) return;
  NoGradGuard no_grad;
  for (Bucket& b : buckets_) b.work->wait();
  std::vector<int32_t> used_anywhere;
  if (find_unused_) {
    used_work_->wait();
    used_anywhere = used_map_.cpu().tolist<int32_t>();
    used_work_.reset();
    used_map_ = Tensor();
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    // A parameter no rank used keeps its grad() as it was (torch).
    if (find_unused_ && used_anywhere[i] == 0) continue;
    Tensor& grad = params_[i].tensor.mutable_grad();
    if (grad.defined()) {
      grad.copy_(slot(i));
    } else {
      grad = slot(i).clone();  // used on another rank only
    }
  }
  std::fill(used_.begin(), used_.end(), 0);
  reset_pass();
}

std::string Reducer::unfinished_reduction_message() const {
  std::string indices, names;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (ready_[i]) continue;
    // Appended piecewise: g++ 12 at -O3 misreads `"" + std::string` as an overlapping copy.
    if (!indices.empty()) {
      indices += ' ';
      names += ", ";
    }
    indices += std::to_string(i);
    names += params_[i].name;
  }
  return tide::detail::concat(
      "[DistributedDataParallel] Expected to have finished reduction in the prior iteration "
      "before starting a new one. This error indicates that your module has parameters that "
      "were not used in producing loss. You can enable unused parameter detection by passing "
      "find_unused_parameters(true) in DDPOptions (find_unused_parameters=True in torch), and by "
      "making sure all forward outputs participate in calculating loss. Parameter indices which "
      "did not receive grad for rank ", distributed::get_rank(), ": ", indices,
      ". Parameters which did not receive grad for rank ", distributed::get_rank(), ": ", names);
}

}  // namespace tide::nn::detail
