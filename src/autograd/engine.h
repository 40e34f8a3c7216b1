#pragma once
// The engine: runs a graph's backward functions in dependency order, on their forward streams.
//
// Note [Backward streams]: as torch (its "stream semantics of backward passes"), each node runs
// under a StreamGuard on the stream its forward op ran on (recorded by set_history; leaves'
// accumulators on the stream current when they joined the graph). A gradient produced on one
// stream and consumed on another is made safe by the consumer stream waiting for the producer
// (an event record and wait, Stream::wait_stream), before it is summed with other gradients
// (on the consumer's stream) or used; a gradient that arrives from the host or another device
// came through a copy ordered on the consumer device's current stream, which the consumer
// waits for instead. The root gradient counts as produced on the caller's
// current stream. When the pass ends, the caller's current stream of each device waits for
// every stream the pass used: those of the nodes that ran, and (autograd::grad) those of the
// captured nodes whose gradients it returns, which need not run but whose incoming gradients
// were summed on their stream (torch's leaf streams). So work the caller enqueues afterwards
// (reading grad() or the returned gradients, an optimizer step) is ordered after the backward
// kernels, without blocking the host.
//
// Note [create_graph]: as torch (GradMode is set to create_graph for the whole pass), the engine
// runs every backward function, every gradient sum and every check of a gradient's shape or
// dtype with grad mode on when create_graph, off otherwise. Derivative formulas are written with
// the public ops (autograd/traced_*.cpp), so they record themselves like any forward code, and
// the saved tensors they read keep their history (Note [Saved outputs and double backward] in
// autograd/saved_variable.h). A node whose backward runs a kernel that records nothing is
// marked once-differentiable (FunctionNode::set_once_differentiable): its gradients then lead
// to a node that raises if a second backward reaches it, instead of being silently constant.
// AccumulateGrad keeps the graph too: grad() becomes the recorded sum, never an in-place add.
// The engine runs on the calling thread: nodes enqueue asynchronously on their streams, so one
// thread suffices to keep several devices busy.

#include <functional>
#include <vector>

#include "tide/tensor.h"

namespace tide::autograd {

struct BackwardOptions {
  bool retain_graph = false;
  /// Run the backward functions with grad mode on, so the gradients carry a graph of their own
  /// (double backward; Note [create_graph]).
  bool create_graph = false;
  /// An input the outputs do not depend on gets an undefined gradient instead of an error.
  bool allow_unused = false;
  /// backward(inputs=): accumulate into the inputs' grad() and return nothing.
  bool accumulate_into_inputs = false;
};

/// Backpropagates `grad_outputs` (one per output; undefined: ones for one-element outputs)
/// from `outputs`. Without `inputs`, accumulates into the leaves' grad() and returns nothing;
/// with them, returns the gradients w.r.t. `inputs` and touches no grad() (or, with
/// accumulate_into_inputs, accumulates into theirs only).
std::vector<Tensor> run_backward(const std::vector<Tensor>& outputs,
                                 const std::vector<Tensor>& grad_outputs,
                                 const BackwardOptions& options, const std::vector<Tensor>* inputs,
                                 const char* where);

/// Runs `callback` on this thread once the backward pass now running on it has finished every
/// node and its caller's streams wait for the pass's streams (torch's
/// Variable._execution_engine.queue_callback): DistributedDataParallel finishes its gradient
/// reduction there. Callbacks run in the order queued and may queue more; they do not run
/// when the pass raises. Raises when no backward is running on this thread (call it from a
/// hook).
void queue_callback(std::function<void()> callback);

}  // namespace tide::autograd
