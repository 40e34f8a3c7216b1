#pragma once
// The pickle of a torch.save archive (data.pkl) back into an IValue, running no code from it.
//
// Note [Pickle allow list]
// A pickle is a program: its GLOBAL and REDUCE opcodes call any Python function by name. This
// reader executes none. It knows exactly the opcodes Python's pickler writes for torch's files
// (protocol 2, and the few of protocols 3-4 that torch.save(pickle_protocol=4) adds) and the
// globals such a file names: collections.OrderedDict, torch._utils._rebuild_tensor_v2,
// torch._utils._rebuild_parameter and torch.<Type>Storage for tide's dtypes. Each is rebuilt by
// C++ code here; any other opcode or global raises tide::Error naming it, so a file that would
// construct a module object, or run os.system, is refused before anything happens. Containers
// may not be changed after they were put in another one (what Python's pickler never does),
// which rules out cycles, and nesting is bounded, so malicious input cannot exhaust the stack.

#include <functional>
#include <string>
#include <string_view>

#include "tide/ivalue.h"

namespace tide::serialize {

/// The storage named by a persistent id ('storage', torch.<Type>Storage, key, location, numel):
/// a contiguous 1-D tensor of `dtype` and `numel` elements over the whole storage, on the device
/// it should land on. Called once per tensor; return the same tensor for the same key so that
/// views keep sharing.
using StorageLoader = std::function<Tensor(const std::string& key, Dtype dtype,
                                           const std::string& location, int64_t numel)>;

/// Reads `pickle`. Errors start with "[caller]".
IValue unpickle(std::string_view pickle, const StorageLoader& load_storage, const char* caller);

}  // namespace tide::serialize
