#pragma once
// Random draws on the cpu (Note [Random transforms]): each fills a contiguous tensor from the
// Philox blocks reserved at `start`, in parallel, with the same numbers on every thread count.

#include <cstdint>

#include "tensor/generator.h"
#include "tide/tensor.h"

namespace tide::kernels {

/// Philox blocks a draw of n elements reserves: one per 4 elements, or per 2 for randint
/// ranges wider than 2^32 (64 bits per element).
int64_t uniform_blocks(int64_t n);
int64_t randint_blocks(int64_t n, uint64_t range);

void uniform_kernel(const Tensor& t, detail::PhiloxStart start, double from, double to);
void normal_kernel(const Tensor& t, detail::PhiloxStart start, double mean, double std);
void randint_kernel(const Tensor& t, detail::PhiloxStart start, int64_t low, uint64_t range);

}  // namespace tide::kernels
