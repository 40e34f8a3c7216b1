// tide._C's pieces of tide.save / tide.load (python/tide/_serialization.py, which writes the
// pickle and the zip with Python's own pickle and zipfile, as torch does): a storage's identity
// and bytes for saving, and a tensor over a loaded storage, checked as tide::torch_load checks
// it (src/serialize/tensor_rebuild.h), for loading; and the shared memory segments that
// Tensor.share_memory_() and tide.multiprocessing pass between processes (Note [Shared memory
// segments] in src/memory/shared_memory.h).

#include <cstring>
#include <string>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "casters.h"
#include "memory/shared_memory.h"
#include "serialize/tensor_rebuild.h"
#include "tide/factories.h"

namespace nb = nanobind;

namespace tide::python {

void bind_serialization(nb::module_& m) {
  m.def(
      "_storage_key",
      [](const Tensor& t) {
        // Data pointer and device name a storage; an empty one has no pointer, and all empty
        // storages of a device may share one record.
        const Storage& s = t.storage();
        return nb::make_tuple(reinterpret_cast<uintptr_t>(s.data()), s.device().str(), s.nbytes());
      },
      "(address, location, nbytes) of the tensor's storage: equal for views of one storage");
  m.def(
      "_storage_bytes",
      [](const Tensor& t) {
        const Storage& s = t.storage();
        Tensor host;
        {
          nb::gil_scoped_release release;  // a copy from a device waits for it
          host = Tensor(s, kUInt8, {static_cast<int64_t>(s.nbytes())}, {1}, 0).cpu();
        }
        return nb::bytes(static_cast<const char*>(host.raw_data()), host.nbytes());
      },
      "the whole storage of the tensor, copied to the host");
  m.def(
      "_storage_from_bytes",
      [](nb::bytes data, Dtype dtype, int64_t numel, const std::string& record) {
        TIDE_CHECK(numel >= 0 && data.size() == static_cast<size_t>(numel) * element_size(dtype),
                   "[tide.load] record ", record, " holds ", data.size(), " bytes; expected ",
                   numel, " ", name(dtype), " elements. The file is truncated or corrupt");
        Tensor t = empty({numel}, TensorOptions().dtype(dtype).device(Device(kCPU)));
        if (data.size() > 0) std::memcpy(t.raw_data(), data.c_str(), data.size());
        serialize::check_bool_storage(t, record, "tide.load");
        return t;
      },
      "a 1-d cpu tensor over a copy of a storage record's bytes");
  m.def(
      "_tensor_over_storage",
      [](const Tensor& storage, const std::vector<int64_t>& size,
         const std::vector<int64_t>& stride, int64_t offset) {
        return serialize::tensor_over_storage(storage, size, stride, offset, "tide.load");
      },
      "a tensor over the storage of `storage` with the given geometry");

  m.def(
      "_share_memory_",
      [](const Tensor& t) { memory::share_storage(t.storage(), "Tensor.share_memory_"); },
      "moves the cpu tensor's storage into a shared memory segment (a no-op when it is in one)");
  m.def(
      "_shared_segment",
      [](const Tensor& t) -> std::optional<std::pair<int, size_t>> {
        auto seg = memory::shared_segment(t.storage());
        if (!seg) return std::nullopt;
        return std::pair<int, size_t>{seg->fd, seg->nbytes};
      },
      "(fd, nbytes) of the tensor's shared memory segment, None when it is not in one");
  m.def(
      "_map_shared_segment",
      [](int fd, size_t nbytes, Dtype dtype) {
        Storage s = memory::map_shared_segment(fd, nbytes, "tide.multiprocessing");
        const auto numel = static_cast<int64_t>(nbytes / element_size(dtype));
        return Tensor(std::move(s), dtype, {numel}, {1}, 0);
      },
      "a 1-d cpu tensor of dtype over the segment fd (which it then owns), as another process "
      "shared it");
}

}  // namespace tide::python
