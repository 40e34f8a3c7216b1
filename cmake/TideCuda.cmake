# Decides whether the CUDA backend is compiled (TIDE_CUDA=AUTO|ON|OFF) and sets up nvcc.
# Note [CUDA toolchain]: CMake 3.25 silently drops CUDA_STANDARD 20 with nvcc 13, so CUDA
# targets get -std=c++20 through target_compile_options (see src/CMakeLists.txt).
include(CheckLanguage)
set(TIDE_HAVE_CUDA OFF)
set(TIDE_HAVE_NCCL OFF)
if(NOT TIDE_CUDA STREQUAL "OFF")
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "90-real;90-virtual")
    endif()
    enable_language(CUDA)
    # CMake 3.25 does not know nvcc 13's C++20 flag; without these it refuses CUDA targets
    # whose CUDA_STANDARD defaults from CXX_STANDARD (20). The flag is also passed by hand.
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    find_package(CUDAToolkit REQUIRED)
    set(TIDE_HAVE_CUDA ON)
    # NCCL (tide::distributed's nccl backend) ships in the toolkit here, under lib/ rather than
    # lib64/; CMake 3.25's FindCUDAToolkit has no target for it, so it is found by hand.
    find_path(TIDE_NCCL_INCLUDE nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
    find_library(TIDE_NCCL_LIBRARY nccl
                 HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_TARGET_DIR}/lib
                       ${CUDAToolkit_LIBRARY_ROOT}/lib)
    if(TIDE_NCCL_INCLUDE AND TIDE_NCCL_LIBRARY)
      set(TIDE_HAVE_NCCL ON)
    endif()
    # cuDNN 9 (convolutions on real GPUs) also ships in the toolkit folder here. Optional as
    # NCCL is: without it the build still works, real GPUs have no convolution kernel, and
    # `tide info` says so.
    find_path(TIDE_CUDNN_INCLUDE cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
    find_library(TIDE_CUDNN_LIBRARY cudnn
                 HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_TARGET_DIR}/lib
                       ${CUDAToolkit_LIBRARY_ROOT}/lib)
    if(TIDE_CUDNN_INCLUDE AND TIDE_CUDNN_LIBRARY)
      set(TIDE_HAVE_CUDNN ON)
    endif()
  elseif(TIDE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "TIDE_CUDA=ON but no CUDA compiler (nvcc) was found. "
                        "Install the CUDA toolkit, or configure with -DTIDE_CUDA=AUTO or OFF.")
  endif()
endif()
message(STATUS "tide: CUDA backend ${TIDE_HAVE_CUDA} (TIDE_CUDA=${TIDE_CUDA}), NCCL ${TIDE_HAVE_NCCL}, cuDNN ${TIDE_HAVE_CUDNN}")
