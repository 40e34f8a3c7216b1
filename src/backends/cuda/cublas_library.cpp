#include "backends/cuda/cublas_library.h"

#include <dlfcn.h>

#include <atomic>

#include "backends/cuda_backend_info.h"
#include "tide/error.h"

namespace tide::backends::cuda {
namespace {

// TIDE_CUBLAS_SONAME ("libcublas.so.13") and TIDE_CUDA_LIBRARY_DIR come from src/CMakeLists.txt.
constexpr const char* kSoname = TIDE_CUBLAS_SONAME;

// The types above are the header's: each initializer picks the overload of that type, or fails
// to compile.
[[maybe_unused]] constexpr CublasLibrary::GemmEx kGemmExType = &cublasGemmEx;
[[maybe_unused]] constexpr CublasLibrary::GemmStridedBatchedEx kGemmStridedBatchedExType =
    &cublasGemmStridedBatchedEx;

std::string last_dl_error() {
  const char* e = dlerror();
  return e != nullptr ? e : "no reason given";
}

template <typename F>
void resolve(void* library, const char* name, F& out) {
  void* symbol = dlsym(library, name);
  if (symbol == nullptr) {
    throw Error(detail::concat("[cuda] cuBLAS (", kSoname, ") has no function ", name, ": ",
                               last_dl_error(), ". tide needs the cuBLAS of the CUDA ",
                               "toolkit it was built with; put that one first on ",
                               "LD_LIBRARY_PATH"));
  }
  out = reinterpret_cast<F>(symbol);
}

CublasLibrary load() {
  CublasLibrary lib;
  lib.path = kSoname;
  void* handle = dlopen(kSoname, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const std::string by_soname = last_dl_error();
    lib.path = std::string(TIDE_CUDA_LIBRARY_DIR) + "/" + kSoname;
    handle = dlopen(lib.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      throw Error(detail::concat("[cuda] cannot load cuBLAS for a matrix product on the GPU: ",
                                 by_soname, "; and from the build's toolkit: ", last_dl_error(),
                                 ". Install CUDA's cuBLAS (", kSoname,
                                 ") or add its folder to LD_LIBRARY_PATH"));
    }
  }
  try {
    // The exported names: cublas_v2.h maps cublasCreate to cublasCreate_v2, and so on.
    resolve(handle, "cublasCreate_v2", lib.create);
    resolve(handle, "cublasDestroy_v2", lib.destroy);
    resolve(handle, "cublasSetStream_v2", lib.set_stream);
    resolve(handle, "cublasGetStatusName", lib.status_name);
    resolve(handle, "cublasGetStatusString", lib.status_string);
    resolve(handle, "cublasGemmEx", lib.gemm_ex);
    resolve(handle, "cublasGemmStridedBatchedEx", lib.gemm_strided_batched_ex);
  } catch (...) {
    dlclose(handle);
    throw;
  }
  return lib;
}

std::atomic<bool> g_loaded{false};

}  // namespace

const CublasLibrary& cublas() {
  // A static whose initializer throws is initialized again by the next call. Leaked on
  // purpose, as the library itself: handles are destroyed at thread exit, which can come after
  // static destructors.
  static const CublasLibrary* const library = [] {
    const CublasLibrary* loaded = new CublasLibrary(load());
    g_loaded.store(true, std::memory_order_release);
    return loaded;
  }();
  return *library;
}

}  // namespace tide::backends::cuda

namespace tide::backends {

std::string load_cublas() { return cuda::cublas().path; }

bool cublas_loaded() { return cuda::g_loaded.load(std::memory_order_acquire); }

}  // namespace tide::backends
