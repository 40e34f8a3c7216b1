// torch's storage class names for tide's dtypes (storage_types.h).

#include "serialize/storage_types.h"

#include <array>
#include <utility>

namespace tide::serialize {
namespace {

constexpr std::array<std::pair<Dtype, const char*>, kNumDtypes> kStorageTypes{{
    {kBool, "BoolStorage"},
    {kUInt8, "ByteStorage"},
    {kInt32, "IntStorage"},
    {kInt64, "LongStorage"},
    {kFloat16, "HalfStorage"},
    {kBFloat16, "BFloat16Storage"},
    {kFloat32, "FloatStorage"},
    {kFloat64, "DoubleStorage"},
}};

}  // namespace

const char* storage_type_name(Dtype dtype) {
  for (const auto& [d, name] : kStorageTypes) {
    if (d == dtype) return name;
  }
  return "UnknownStorage";
}

std::optional<Dtype> dtype_of_storage_type(std::string_view name) {
  for (const auto& [d, n] : kStorageTypes) {
    if (name == n) return d;
  }
  return std::nullopt;
}

}  // namespace tide::serialize
