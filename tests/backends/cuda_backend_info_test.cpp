// What the CUDA backend directory contributed to this build, and the kernel stubs it fills
// (Note [Kernel stubs]).

#include "backends/cuda_backend_info.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "kernels/stubs.h"
#include "tide/detail/build_config.h"

using namespace tide;

namespace {

bool mapped(const std::string& library) {
  std::ifstream maps("/proc/self/maps");
  const std::string text((std::istreambuf_iterator<char>(maps)), std::istreambuf_iterator<char>());
  return text.find("/" + library + ".so") != std::string::npos;
}

}  // namespace

TEST(CudaBackendInfo, IsCompiledExactlyWhenTheBuildHasNvcc) {
  EXPECT_EQ(backends::cuda_backend_compiled(), TIDE_BUILT_WITH_CUDA == 1);
}

TEST(CudaBackendInfo, EveryOpHasAGpuLauncherOnceRegisteredInBuildsWithNvcc) {
  // Registration only fills function pointers (no driver call), so it can run without a GPU;
  // ops still take the simulated or cpu path because no real backend started.
  backends::register_cuda_kernels();
  const std::vector<kernels::StubInfo> stubs = kernels::all_stubs();
  EXPECT_GE(stubs.size(), 20u);
  for (const kernels::StubInfo& s : stubs) {
    EXPECT_EQ(s.has_cuda, backends::cuda_backend_compiled()) << s.name;
  }
}

TEST(CudaBackendInfo, CublasIsMappedOnlyOnceLoadedAndThenResolvesEveryFunction) {
  // Note [cuBLAS loaded at first use]: starting libtide maps no cuBLAS; a GPU product, or
  // load_cublas, does. (Not checked for cuBLASLt, which cuDNN may open on its own.)
  EXPECT_EQ(mapped("libcublas"), backends::cublas_loaded());
  if (!backends::cuda_backend_compiled()) {
    EXPECT_EQ(backends::load_cublas(), "");
    EXPECT_FALSE(backends::cublas_loaded());
    return;
  }
  // Throws, naming the function, if the library lacks one the products call.
  EXPECT_THAT(backends::load_cublas(), testing::HasSubstr("libcublas.so."));
  EXPECT_TRUE(backends::cublas_loaded());
  EXPECT_TRUE(mapped("libcublas"));
  EXPECT_TRUE(mapped("libcublasLt"));
}
