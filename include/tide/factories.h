#pragma once
// Factories: make new tensors. A cuda device without an index means the current device; the
// result lives there regardless of any later change of the current device.

#include <cstdint>
#include <functional>
#include <vector>

#include "tide/generator.h"
#include "tide/nested_list.h"
#include "tide/tensor.h"

namespace tide {

/// Contiguous unless options give a memory_format (ChannelsLast: 4 sizes, ChannelsLast3d: 5).
Tensor empty(std::vector<int64_t> sizes, TensorOptions options = {});
Tensor empty_strided(std::vector<int64_t> sizes, std::vector<int64_t> strides,
                     TensorOptions options = {});
Tensor zeros(std::vector<int64_t> sizes, TensorOptions options = {});
Tensor ones(std::vector<int64_t> sizes, TensorOptions options = {});
/// The dtype is options' if set, else inferred from value as torch.full does.
Tensor full(std::vector<int64_t> sizes, Scalar value, TensorOptions options = {});
/// int64 when every argument is integral, float32 otherwise (unless options set a dtype).
Tensor arange(Scalar end, TensorOptions options = {});
Tensor arange(Scalar start, Scalar end, Scalar step = 1, TensorOptions options = {});
Tensor linspace(double start, double end, int64_t steps, TensorOptions options = {});
// The random factories draw from `generator`, or from the default generator of the result's
// device without one (Note [Generators] in tide/generator.h).
Tensor rand(std::vector<int64_t> sizes, TensorOptions options = {});
Tensor rand(std::vector<int64_t> sizes, std::optional<Generator> generator,
            TensorOptions options = {});
Tensor randn(std::vector<int64_t> sizes, TensorOptions options = {});
Tensor randn(std::vector<int64_t> sizes, std::optional<Generator> generator,
             TensorOptions options = {});
Tensor randint(int64_t low, int64_t high, std::vector<int64_t> sizes, TensorOptions options = {});
Tensor randint(int64_t low, int64_t high, std::vector<int64_t> sizes,
               std::optional<Generator> generator, TensorOptions options = {});
/// tide::tensor({1., 2.}) is float32, tide::tensor({{1, 2, 3}}) int64, tide::tensor({true}) bool.
Tensor tensor(const NestedList& data, TensorOptions options = {});
Tensor scalar_tensor(Scalar value, TensorOptions options = {});
/// Wraps memory the caller owns; `deleter` runs when the last tensor using it is gone.
Tensor from_blob(void* data, std::vector<int64_t> sizes, TensorOptions options = {},
                 std::function<void(void*)> deleter = {});
Tensor from_blob(void* data, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                 TensorOptions options = {}, std::function<void(void*)> deleter = {});

/// Same sizes, and the device and dtype of `like` unless options override them; like's layout
/// (a dense like's strides) unless options give a memory_format (torch's preserve_format).
Tensor empty_like(const Tensor& like, std::optional<TensorOptions> options = std::nullopt);
Tensor zeros_like(const Tensor& like, std::optional<TensorOptions> options = std::nullopt);
Tensor ones_like(const Tensor& like, std::optional<TensorOptions> options = std::nullopt);
Tensor full_like(const Tensor& like, Scalar value, std::optional<TensorOptions> options = std::nullopt);
Tensor rand_like(const Tensor& like, std::optional<TensorOptions> options = std::nullopt);
Tensor randn_like(const Tensor& like, std::optional<TensorOptions> options = std::nullopt);
Tensor rand_like(const Tensor& like, std::optional<Generator> generator,
                 std::optional<TensorOptions> options = std::nullopt);
Tensor randn_like(const Tensor& like, std::optional<Generator> generator,
                  std::optional<TensorOptions> options = std::nullopt);

}  // namespace tide
