#pragma once
// The default floating dtype (torch.set_default_dtype / torch.get_default_dtype).

#include "tide/dtype.h"

namespace tide {

// Note [Default dtype]: as torch, the default dtype is the floating dtype a tensor gets when
// nothing else decides it: factories called without a dtype (empty, zeros, ones, rand, randn,
// linspace, from_blob), floating values inferred by tide::tensor, full, scalar_tensor and
// arange, a floating Scalar in type promotion (int64 tensor + 2.5), true division of integers
// and float ops on integer tensors (exp, log, ...). Printing omits "dtype=" for it. `*_like`
// and `new_*` keep their source's dtype.
//
// It is process-wide, as torch's (a plain global in c10): a value set on one thread is seen by
// every thread, e.g. DataLoader workers. It is stored atomically, so reading it while another
// thread sets it is defined (torch leaves that a data race); set it before starting work.
// Accepted: the floating dtypes, as today's torch (float16, bfloat16, float32, float64);
// anything else raises tide::Error with torch's "only floating-point types are supported as
// the default type".

/// Makes `dtype` (a floating dtype) the default for new floating tensors, in every thread.
void set_default_dtype(Dtype dtype);
/// The default floating dtype; float32 until set_default_dtype changes it.
Dtype get_default_dtype();

}  // namespace tide
