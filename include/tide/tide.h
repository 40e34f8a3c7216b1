#pragma once
// The umbrella header: everything public in tide.

#include "tide/allocator.h"
#include "tide/cuda.h"
#include "tide/device.h"
#include "tide/dtype.h"
#include "tide/error.h"
#include "tide/factories.h"
#include "tide/half.h"
#include "tide/ops.h"
#include "tide/random.h"
#include "tide/scalar.h"
#include "tide/scope.h"
#include "tide/serialize.h"
#include "tide/storage.h"
#include "tide/tensor.h"
#include "tide/tensor_options.h"
#include "tide/version.h"
