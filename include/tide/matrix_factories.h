#pragma once
// Factories of structured matrices and sequences: eye, tril_indices/triu_indices and logspace
// (torch's names and arguments). Made of tide ops on the requested device.

#include <cstdint>
#include <optional>

#include "tide/tensor.h"

namespace tide {

/// The (n, m) identity (m defaults to n): ones on the main diagonal.
Tensor eye(int64_t n, std::optional<int64_t> m = std::nullopt, TensorOptions options = {});

/// The (2, N) row and column numbers of the elements on and below the offset-th diagonal of a
/// (row, col) matrix, row by row (int64 unless options say otherwise).
Tensor tril_indices(int64_t row, int64_t col, int64_t offset = 0, TensorOptions options = {});

/// The same for the elements on and above the offset-th diagonal.
Tensor triu_indices(int64_t row, int64_t col, int64_t offset = 0, TensorOptions options = {});

/// base ** linspace(start, end, steps), computed in float64 and converted.
Tensor logspace(double start, double end, int64_t steps, double base = 10.0,
                TensorOptions options = {});

}  // namespace tide
