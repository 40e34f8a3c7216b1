#pragma once
// The parts of the extension module tide._C, each bound by its own file.

#include <cstdint>
#include <string>

#include <nanobind/nanobind.h>

#include "tide/tensor.h"

namespace tide::python {

void bind_errors(nanobind::module_& m);
/// tide._C._refuse_other_arguments: Note [A refusal overload] (bind_argument_errors.cpp).
void bind_argument_errors(nanobind::module_& m);
void bind_dtype(nanobind::module_& m);
void bind_device(nanobind::module_& m);
/// tide.Generator and tide.default_generator (bind_generator.cpp).
void bind_generator(nanobind::module_& m);
/// A manual_seed argument in torch's range: any int in [-2^63, 2^64), negative ones taken
/// modulo 2^64 (bind_generator.cpp).
uint64_t seed_of(nanobind::handle seed);
/// tide.memory_format: an enum whose values print as torch's (tide.channels_last).
void bind_memory_format(nanobind::module_& m);
/// "channels_last" for MemoryFormat::ChannelsLast: torch's Python name.
std::string python_name(MemoryFormat format);
void bind_tensor(nanobind::module_& m);
/// Called by bind_tensor with the class it made.
void bind_tensor_ops(nanobind::module_& m, nanobind::class_<Tensor>& cls);
/// Called by bind_tensor_ops: advanced indexing and the masked ops (bind_indexing.cpp).
void bind_indexing(nanobind::module_& m, nanobind::class_<Tensor>& cls);
/// Called by bind_tensor after bind_tensor_ops: issue 25's reductions and scans.
void bind_reductions(nanobind::module_& m, nanobind::class_<Tensor>& cls);
/// Called by bind_tensor_ops: the shape and linear-algebra ops of issue 25 (bind_shapes.cpp).
void bind_shapes(nanobind::module_& m, nanobind::class_<Tensor>& cls);
/// Called by bind_tensor: tide._C._autograd and the Tensor methods register_hook, retain_grad.
void bind_autograd(nanobind::module_& m, nanobind::class_<Tensor>& cls);
void bind_factories(nanobind::module_& m);
void bind_cuda(nanobind::module_& m);
void bind_nn(nanobind::module_& m);
void bind_optim(nanobind::module_& m);
void bind_data(nanobind::module_& m);
void bind_distributed(nanobind::module_& m);
/// Adds DistributedDataParallel's engine to the tide._C._distributed that bind_distributed made.
void bind_ddp(nanobind::module_& m);
void bind_dlpack(nanobind::module_& m);
void bind_serialization(nanobind::module_& m);
/// tide._C._testing: deterministic controls of simulated GPUs, for tests only.
void bind_testing(nanobind::module_& m);

}  // namespace tide::python
