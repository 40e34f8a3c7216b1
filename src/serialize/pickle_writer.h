#pragma once
// An IValue as the pickle torch.save writes for it (protocol 2, Python's C pickler's opcodes),
// with the storages its tensors use set aside as records, exactly as torch's persistent ids do.

#include <string>
#include <vector>

#include "tide/ivalue.h"

namespace tide::serialize {

/// One storage's bytes, for the archive's <top>/data/<key> record.
struct StorageRecord {
  std::string key;  // "0", "1", ... in first-use order
  Tensor bytes;     // the whole storage as a contiguous cpu uint8 tensor
};

struct Pickled {
  std::string pickle;  // data.pkl
  std::vector<StorageRecord> storages;
};

/// Pickles `value`. Tensors on any device are written with their storage's location ("cpu",
/// "cuda:1") and their storage copied to cpu; views of one storage share one record (Note
/// [Storage records] in pickle_writer.cpp).
Pickled pickle_value(const IValue& value, const char* caller);

}  // namespace tide::serialize
