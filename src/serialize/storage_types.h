#pragma once
// torch's pickled storage classes (torch.FloatStorage, ...) for tide's dtypes: the second item of
// every persistent id in a torch.save pickle names the storage's element type this way.

#include <optional>
#include <string_view>

#include "tide/dtype.h"

namespace tide::serialize {

/// "FloatStorage" for kFloat32, ...: the class name under module `torch`.
const char* storage_type_name(Dtype dtype);
/// The dtype of a class name under `torch` ("HalfStorage"), or nullopt for a storage class tide
/// has no dtype for (CharStorage, ComplexFloatStorage, ...) or any other name.
std::optional<Dtype> dtype_of_storage_type(std::string_view name);

}  // namespace tide::serialize
