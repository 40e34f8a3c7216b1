#pragma once
// Loss loops on the cpu.

#include <cstdint>

#include "kernels/index_error.h"
#include "tide/tensor.h"

namespace tide::kernels {

enum class LossReduction { None, Mean, Sum };

/// nll_loss of log-probabilities `input` (N, C) against class indices `target` (N), with an
/// optional per-class `weight` (C) (undefined: every class weighs 1). Targets equal to
/// `ignore_index` contribute nothing, not even weight. None writes N losses into `out`; Sum
/// writes their sum and Mean divides it by the total weight of the counted targets (NaN when
/// that is 0), both into a one-element `out`. Every tensor is contiguous; input, weight and
/// out share a floating dtype; target is int64 or uint8.
/// The first target outside [0, C) is reported, and then nothing is written
/// (Note [Index errors in kernels]).
IndexError nll_loss_kernel(const Tensor& out, const Tensor& input, const Tensor& target,
                           const Tensor& weight, LossReduction reduction, int64_t ignore_index);

}  // namespace tide::kernels
