#pragma once
// Tensors on disk in the safetensors format (https://huggingface.co/docs/safetensors), so
// torch users open tide's files with safetensors.torch.load_file and tide opens theirs.

#include <map>
#include <optional>
#include <string>

#include "tide/device.h"
#include "tide/tensor.h"

namespace tide {

/// Writes `tensors` to `path` as safetensors, byte for byte as the safetensors package would
/// (Note [safetensors layout] in src/serialize/safetensors_header.h). Tensors may live on any
/// device and be non-contiguous: each is copied to cpu and written densely. Views that share
/// storage are written as independent copies (Note [Shared storage] in
/// src/serialize/serialize.cpp). `metadata` becomes the header's "__metadata__" (omitted when
/// empty).
void save(const std::map<std::string, Tensor>& tensors, const std::string& path,
          const std::map<std::string, std::string>& metadata = {});

/// Reads a safetensors file written by tide::save or the safetensors package. Tensors land on
/// cpu, or on `map_location` when given (e.g. "cuda:1"). A missing, truncated or corrupt file,
/// a header that lies about sizes or offsets, or a dtype tide lacks raises tide::Error.
std::map<std::string, Tensor> load(const std::string& path,
                                   std::optional<Device> map_location = {});

/// The "__metadata__" of a safetensors file (empty when it has none); reads the header only.
std::map<std::string, std::string> load_metadata(const std::string& path);

}  // namespace tide
