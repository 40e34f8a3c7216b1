# Third-party libraries, all from Debian packages (see scripts/install-deps).
find_package(Threads REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
# zlib reads gzip-compressed IDX files (tide::data::MNIST).
find_package(ZLIB REQUIRED)
# libzip reads and writes torch.save's zip archives (tide::torch_save, src/serialize/torch_zip.h).
# Found by path, not by its CMake package: Debian 12's libzip-config.cmake names /usr/bin/zipcmp,
# which libzip-dev does not install, and fails. zip.h includes the generated zipconf.h beside it.
find_path(TIDE_LIBZIP_INCLUDE zip.h REQUIRED)
find_library(TIDE_LIBZIP_LIBRARY NAMES zip REQUIRED)
add_library(tide_libzip INTERFACE)
target_link_libraries(tide_libzip INTERFACE ${TIDE_LIBZIP_LIBRARY})
target_include_directories(tide_libzip SYSTEM INTERFACE ${TIDE_LIBZIP_INCLUDE})

# oneDNN (Debian's libdnnl-dev, what torch uses on the cpu) computes float32 convolutions
# (src/kernels/cpu/onednn/). Found by path, as libzip: Debian's dnnl-config.cmake also requires
# OpenCL's CMake files, which the library needs only at run time (libOpenCL.so.1). Off in the
# tsan preset: its OpenMP threads are uninstrumented (false reports), as OpenBLAS's are.
if(TIDE_ONEDNN)
  find_path(TIDE_DNNL_INCLUDE oneapi/dnnl/dnnl.hpp REQUIRED)
  find_library(TIDE_DNNL_LIBRARY NAMES dnnl REQUIRED)
  add_library(tide_onednn INTERFACE)
  target_link_libraries(tide_onednn INTERFACE ${TIDE_DNNL_LIBRARY})
  target_include_directories(tide_onednn SYSTEM INTERFACE ${TIDE_DNNL_INCLUDE})
endif()

# OpenBLAS: the serial build for tsan (see DESIGN.md), the OpenMP/pthreads one otherwise. The
# serial build is not reentrant, so tide runs its calls one at a time (Note [Serial OpenBLAS is
# not reentrant] in src/kernels/cpu/blas_call.h).
if(TIDE_SERIAL_BLAS)
  find_library(TIDE_BLAS_LIBRARY NAMES openblas
               PATHS /usr/lib/x86_64-linux-gnu/openblas-serial NO_DEFAULT_PATH REQUIRED)
else()
  find_library(TIDE_BLAS_LIBRARY NAMES openblas
               PATHS /usr/lib/x86_64-linux-gnu/openblas-pthread /usr/lib/x86_64-linux-gnu REQUIRED)
endif()
find_path(TIDE_CBLAS_INCLUDE cblas.h PATHS /usr/include/x86_64-linux-gnu/openblas-pthread
          /usr/include/x86_64-linux-gnu /usr/include/openblas REQUIRED)
add_library(tide_blas INTERFACE)
target_link_libraries(tide_blas INTERFACE ${TIDE_BLAS_LIBRARY})
target_include_directories(tide_blas SYSTEM INTERFACE ${TIDE_CBLAS_INCLUDE})

# libdw (elfutils) symbolizes the backtraces of TIDE_ASYNC_BACKTRACE=1 (src/runtime/backtrace.h).
find_path(TIDE_LIBDW_INCLUDE elfutils/libdwfl.h REQUIRED)
find_library(TIDE_LIBDW_LIBRARY NAMES dw REQUIRED)
find_library(TIDE_LIBELF_LIBRARY NAMES elf REQUIRED)
add_library(tide_libdw INTERFACE)
target_link_libraries(tide_libdw INTERFACE ${TIDE_LIBDW_LIBRARY} ${TIDE_LIBELF_LIBRARY})
target_include_directories(tide_libdw SYSTEM INTERFACE ${TIDE_LIBDW_INCLUDE})

if(TIDE_OPENMP)
  find_package(OpenMP REQUIRED COMPONENTS CXX)
endif()

# Open MPI (libopenmpi-dev) carries tide::distributed's "mpi" backend: collectives between
# processes for cpu tensors and simulated GPUs. Without it the backend raises when asked for.
# The C API through the CXX component (no C language needed), without the removed C++ bindings.
set(MPI_CXX_SKIP_MPICXX ON)
find_package(MPI COMPONENTS CXX)
set(TIDE_HAVE_MPI ${MPI_CXX_FOUND})
if(TIDE_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(TIDE_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
if(TIDE_BUILD_TOOLS)
  find_package(CLI11 CONFIG REQUIRED)
endif()
