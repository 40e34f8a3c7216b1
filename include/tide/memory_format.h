#pragma once
// MemoryFormat: the order in which a tensor's elements lie in memory (torch's
// at::MemoryFormat; Python's torch.contiguous_format, torch.channels_last, ...). Note [Memory
// formats] in src/tensor/memory_format.cpp says where tide decides an output's layout.

#include <cstdint>
#include <ostream>

namespace tide {

enum class MemoryFormat : int8_t {
  /// Row-major (NCHW for images): the last dim varies fastest.
  Contiguous,
  /// "Like the input": a dense input's strides are kept, any other input gets a dense layout
  /// in the same dim order. Only for ops that make a tensor from another (clone, to, *_like).
  Preserve,
  /// NHWC for a 4-d NCHW tensor: the channels vary fastest.
  ChannelsLast,
  /// NDHWC for a 5-d NCDHW tensor.
  ChannelsLast3d,
};

/// torch's C++ names: Contiguous, Preserve, ChannelsLast, ChannelsLast3d.
std::ostream& operator<<(std::ostream& os, MemoryFormat format);

}  // namespace tide
