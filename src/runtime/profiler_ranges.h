#pragma once
// Profiler ranges (NVTX on real GPUs) for code outside the CUDA backend: tide::Scope.

namespace tide::runtime {

using RangePush = void (*)(const char* name);
using RangePop = void (*)();

/// Installed once by the real CUDA backend when it starts; without it scopes open no range.
void set_range_hooks(RangePush push, RangePop pop);
/// The installed push hook, or nullptr. A caller that pushed must pop with range_pop().
RangePush range_push();
void range_pop();

}  // namespace tide::runtime
