#pragma once
// The cuBLAS functions tide calls, from a libcublas loaded at the first product on a GPU.

#include <cublas_v2.h>

#include <string>

namespace tide::backends::cuda {

/// Note [cuBLAS loaded at first use]: libtide does not link cuBLAS. Loading it (with the
/// cuBLASLt it needs) runs cuBLASLt's static initializers, about 80 ms of page faults on a
/// 2-core machine, in every process that loads libtide: each of CI's 7,700 test processes and
/// every `import tide`, GPU or not. So cuBLAS is opened with dlopen on the first product a GPU
/// launches, and its functions are called through this table. Found as the soname
/// (LD_LIBRARY_PATH, libtide's RUNPATH, the loader's cache), else in the toolkit's library
/// folder of the build. Never closed: handles die with their threads, possibly at exit.
struct CublasLibrary {
  // cublas_api.h overloads these two in C++ (a legacy cudaDataType compute type); these are the
  // exported C functions' types (cublas_library.cpp checks them against the header).
  using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                    int, int, const void*, const void*, cudaDataType, int,
                                    const void*, cudaDataType, int, const void*, void*,
                                    cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
  using GemmStridedBatchedEx = cublasStatus_t (*)(
      cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
      const void*, cudaDataType, int, long long, const void*, cudaDataType, int, long long,
      const void*, void*, cudaDataType, int, long long, int, cublasComputeType_t,
      cublasGemmAlgo_t);

  std::string path;  // where it was loaded from
  decltype(&cublasCreate) create = nullptr;
  decltype(&cublasDestroy) destroy = nullptr;
  decltype(&cublasSetStream) set_stream = nullptr;
  decltype(&cublasGetStatusName) status_name = nullptr;
  decltype(&cublasGetStatusString) status_string = nullptr;
  GemmEx gemm_ex = nullptr;
  GemmStridedBatchedEx gemm_strided_batched_ex = nullptr;
};

/// The loaded library; the first call loads it (once per process, thread-safe). Throws
/// tide::Error naming the library and the loader's reason when it cannot be loaded or lacks a
/// function, and the next call tries again.
const CublasLibrary& cublas();

}  // namespace tide::backends::cuda
