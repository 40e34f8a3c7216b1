// Sharing memory with NumPy, torch and every other DLPack library, without copies: the
// compiled half of python/tide/_dlpack.py (tide.from_dlpack, Tensor.__dlpack__,
// Tensor.numpy, tide.from_numpy). nanobind's ndarray does the DLPack plumbing (capsules,
// versions, the buffer protocol for NumPy); this file maps tide's tensors onto it.
//
// Note [DLPack lifetimes]: an exported array keeps a tide::Tensor (sharing the storage) in
// its owner capsule, so the memory outlives the tide tensor it came from. A tensor made from a
// foreign array keeps the nanobind ndarray (and through it the producer's DLPack deleter) in
// its storage's deleter. That deleter runs wherever the last tensor dies, possibly a stream
// worker or a DataLoader thread, so it takes the GIL before dropping the Python side; after
// interpreter shutdown it leaks instead (Python can no longer free anything).
//
// Note [DLPack on simulated GPUs]: a simulated GPU's memory is host memory that only tide
// knows to be "device" memory; handing it to torch as kDLCUDA would make torch dereference it
// as device memory. So simulated tensors are neither exported nor imported as cuda: both
// directions raise BufferError (the DLPack protocol's error) saying to go through the cpu.
// Real GPUs export kDLCUDA with the device index. Real-GPU sharing compiles everywhere but can
// only be exercised on a machine with CUDA.
//
// Note [DLPack streams]: the consumer names the stream it will read on, as an int (the
// protocol's CUDA values): None means the legacy default stream (the protocol: "assume the
// legacy default stream"), 1 the legacy and 2 the per-thread default stream, -1 "do not
// synchronize", any other positive value its cudaStream_t. 0 is ambiguous in the protocol;
// torch reads it as CUDA does (the null stream, the legacy one here) and so do we. Before the
// capsule is handed over, the consumer's stream is made to wait for tide's current stream on
// the tensor's device (an event recorded there, cudaStreamWaitEvent on the consumer's), as
// torch does, so neither the host nor tide's other streams wait. That needs CUDA calls, which
// live in the CUDA backend (Backend::external_stream_wait): this file includes no CUDA header.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>

#include "bindings.h"
#include "casters.h"
#include "runtime/registry.h"
#include "tide/cuda.h"
#include "tide/factories.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

constexpr int kDLCPU = 1;
constexpr int kDLCUDA = 2;
constexpr int kDLCUDAHost = 3;

nb::dlpack::dtype dl_dtype(Dtype d) {
  using code = nb::dlpack::dtype_code;
  auto make = [](code c, int bits) {
    return nb::dlpack::dtype{static_cast<uint8_t>(c), static_cast<uint8_t>(bits), 1};
  };
  switch (d) {
    case kBool: return make(code::Bool, 8);
    case kUInt8: return make(code::UInt, 8);
    case kInt32: return make(code::Int, 32);
    case kInt64: return make(code::Int, 64);
    case kFloat16: return make(code::Float, 16);
    case kBFloat16: return make(code::Bfloat, 16);
    case kFloat32: return make(code::Float, 32);
    case kFloat64: return make(code::Float, 64);
  }
  TIDE_INTERNAL_ASSERT(false);
  return {};
}

Dtype tide_dtype(nb::dlpack::dtype d) {
  using code = nb::dlpack::dtype_code;
  for (Dtype t : {kBool, kUInt8, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64}) {
    if (dl_dtype(t) == d) return t;
  }
  // torch < 2 and some producers spell bool as an 8-bit unsigned int; that is uint8 here.
  TIDE_CHECK(false, "[tide.from_dlpack] the array's DLPack dtype (code ", int(d.code), ", ",
             int(d.bits), " bits, ", int(d.lanes), " lanes) has no tide dtype; tide has bool, "
             "uint8, int32, int64, float16, bfloat16, float32 and float64: convert the array to "
             "one of them first", d.code == static_cast<uint8_t>(code::Complex)
                                      ? " (tide has no complex dtypes)" : "");
  return kFloat32;
}

template <class... Args>
[[noreturn]] void raise_as(PyObject* type, const char* format, Args... args) {
  PyErr_Format(type, format, args...);
  throw nb::python_error();
}

bool simulated(const Device& d) {
  return d.is_cuda() && cuda::get_device_properties(d.index()).simulated;
}

[[noreturn]] void raise_simulated(const char* fn, const Device& d) {
  raise_as(PyExc_BufferError,
                 "[%s] %s is a simulated GPU: its memory is host memory that only tide treats as "
                 "device memory, so it cannot be shared through DLPack as CUDA memory (Note "
                 "[DLPack on simulated GPUs]); copy it to the cpu first (t.cpu()) and share that",
                 fn, d.str().c_str());
}

// The tide tensor, kept alive by the exported array (Note [DLPack lifetimes]).
nb::capsule owner_of(const Tensor& t) {
  return nb::capsule(new Tensor(t), [](void* p) noexcept { delete static_cast<Tensor*>(p); });
}

template <class Framework>
nb::ndarray<Framework> as_ndarray(const Tensor& t) {
  std::vector<size_t> shape(t.shape().begin(), t.shape().end());
  std::vector<int64_t> strides = t.strides();
  const int device_type = t.is_cuda() ? kDLCUDA : kDLCPU;
  const int device_id = t.is_cuda() ? t.get_device() : 0;
  return nb::ndarray<Framework>(t.raw_data(), shape.size(), shape.data(), owner_of(t),
                                strides.data(), dl_dtype(t.dtype()), device_type, device_id);
}

std::pair<int, int> dlpack_device(const Tensor& t) {
  if (simulated(t.device())) raise_simulated("Tensor.__dlpack_device__", t.device());
  if (t.is_cuda()) return {kDLCUDA, t.get_device()};
  return {kDLCPU, 0};
}

// The consumer's stream that __dlpack__(stream=...) names, or nothing for -1 (Note [DLPack
// streams]). Checked on every device, as torch does, though only cuda tensors use it.
std::optional<uintptr_t> consumer_stream(nb::handle stream) {
  constexpr uintptr_t kLegacyDefault = 1;
  if (stream.is_none()) return kLegacyDefault;
  // bool is an int to Python, but no stream.
  if (!nb::isinstance<nb::int_>(stream) || nb::isinstance<nb::bool_>(stream)) {
    raise_as(PyExc_TypeError, "stream must be ``int`` or ``none``");
  }
  int64_t value = 0;
  if (!nb::try_cast(stream, value) || value < -1) {
    const nb::str text = nb::repr(stream);
    raise_as(PyExc_ValueError,
             "[Tensor.__dlpack__] expected stream None, -1 (no synchronization), 1 (the legacy "
             "default stream), 2 (the per-thread default stream) or a cudaStream_t, found %s; "
             "pass the consumer's stream as DLPack defines it",
             text.c_str());
  }
  if (value == -1) return std::nullopt;
  return static_cast<uintptr_t>(value);
}

// The array behind Tensor.__dlpack__: nanobind's nb_ndarray, whose own __dlpack__ makes the
// capsule (versioned or not, as the consumer asks).
nb::object to_dlpack(const Tensor& t, nb::handle stream) {
  TIDE_CHECK(!t.requires_grad(), "[Tensor.__dlpack__] Can't export tensors that require "
             "gradient, use tensor.detach()");
  if (simulated(t.device())) raise_simulated("Tensor.__dlpack__", t.device());
  const std::optional<uintptr_t> consumer = consumer_stream(stream);
  if (t.is_cuda() && consumer) {
    nb::gil_scoped_release release;
    const cuda::Stream producer = cuda::current_stream(t.get_device());
    runtime::backend(kCUDA)->external_stream_wait(*consumer, producer.native_handle());
  }
  return nb::cast(as_ndarray<nb::array_api>(t));
}

Tensor from_dlpack(nb::handle source) {
  nb::ndarray<> array;
  if (!nb::try_cast(source, array)) {
    raise_as(PyExc_TypeError,
                   "[tide.from_dlpack] expected an object with __dlpack__ and __dlpack_device__ "
                   "(a NumPy array, a torch tensor, ...) or an unused DLPack capsule, found %s "
                   "(a capsule can be consumed only once; a read-only array cannot be shared "
                   "writable: copy it first)",
                   Py_TYPE(source.ptr())->tp_name);
  }
  const Dtype dtype = tide_dtype(array.dtype());
  Device device(kCPU);
  if (array.device_type() == kDLCUDA) {
    device = Device(kCUDA, array.device_id());
    if (simulated(device)) raise_simulated("tide.from_dlpack", device);
  } else {
    TIDE_CHECK(array.device_type() == kDLCPU || array.device_type() == kDLCUDAHost,
               "[tide.from_dlpack] the array lives on DLPack device type ",
               array.device_type(), "; tide shares cpu (1), cuda (2) and cuda host (3) memory; "
               "copy the array to the cpu first");
  }
  std::vector<int64_t> sizes(array.ndim()), strides(array.ndim());
  int64_t numel = 1;
  for (size_t i = 0; i < array.ndim(); ++i) {
    sizes[i] = static_cast<int64_t>(array.shape(i));
    strides[i] = array.stride(i);
    numel *= sizes[i];
  }
  const TensorOptions options = TensorOptions().dtype(dtype).device(device);
  if (numel == 0) return empty(sizes, options);  // nothing to share; the data may be null
  for (size_t i = 0; i < array.ndim(); ++i) {
    TIDE_CHECK(strides[i] >= 0, "[tide.from_dlpack] dimension ", i, " has the negative stride ",
               strides[i], "; tide tensors have non-negative strides: copy the array first "
               "(numpy: arr.copy())");
  }
  auto* keep = new nb::ndarray<>(std::move(array));
  void* data = keep->data();
  return from_blob(data, sizes, strides, options, [keep](void*) {
    if (!Py_IsInitialized()) return;  // Note [DLPack lifetimes]: leak after shutdown
    nb::gil_scoped_acquire gil;
    delete keep;
  });
}

nb::object to_numpy(const Tensor& t) {
  TIDE_CHECK(!t.requires_grad(), "[Tensor.numpy] Can't call numpy() on Tensor that requires "
             "grad. Use tensor.detach().numpy() instead.");
  if (!t.is_cpu()) {
    raise_as(PyExc_TypeError, "can't convert %s device type tensor to numpy. Use "
                   "Tensor.cpu() to copy the tensor to host memory first.",
                   t.device().str().c_str());
  }
  if (t.dtype() == kBFloat16) {
    raise_as(PyExc_TypeError, "[Tensor.numpy] Got unsupported ScalarType BFloat16: NumPy "
                   "has no bfloat16; use t.float().numpy(), or share it through DLPack "
                   "(torch.from_dlpack(t)) with a library that has bfloat16");
  }
  return nb::cast(as_ndarray<nb::numpy>(t));
}

}  // namespace

void bind_dlpack(nb::module_& m) {
  m.def("_to_dlpack", &to_dlpack, nb::arg("tensor"), nb::arg("stream").none() = nb::none());
  m.def("_dlpack_device", &dlpack_device, nb::arg("tensor"));
  m.def("_from_dlpack", &from_dlpack, nb::arg("source"));
  m.def("_numpy", &to_numpy, nb::arg("tensor"));
}

}  // namespace tide::python
