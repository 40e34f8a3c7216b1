#pragma once
// The order in which an epoch visits a dataset's samples (Note [Shuffle order] in
// tide/data/data_loader.h).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tide::data::detail {

/// 0, 1, ..., n-1.
std::vector<size_t> sequential_order(size_t n);

/// A permutation of 0 .. n-1 that depends only on (seed, epoch): a Fisher-Yates shuffle whose
/// draws are Philox4x32-10 blocks keyed by the seed, with the epoch in the counter's high words.
std::vector<size_t> shuffled_order(size_t n, uint64_t seed, uint64_t epoch);

/// One 64-bit draw from tide's default cpu generator (the seed of an epoch without a seed
/// option); advances it as any draw does, so manual_seed fixes it.
uint64_t draw_seed();

}  // namespace tide::data::detail
