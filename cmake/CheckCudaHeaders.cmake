# ctest Layers.CudaHeadersOnlyInCudaDirs (STYLE.md habit 2): only src/backends/cuda (the device
# runtime) and src/kernels/cuda (GPU kernels and launchers) include CUDA headers or hold CUDA
# sources; everything else compiles with g++ alone. Run as: cmake -DROOT=<repo> -P this-file.
file(GLOB_RECURSE sources RELATIVE ${ROOT}
     ${ROOT}/src/*.h ${ROOT}/src/*.cpp ${ROOT}/src/*.cu ${ROOT}/src/*.cuh
     ${ROOT}/include/*.h ${ROOT}/tools/*.h ${ROOT}/tools/*.cpp)
set(allowed "^src/(backends|kernels)/cuda/")
set(problems "")
foreach(path IN LISTS sources)
  if(path MATCHES "${allowed}")
    continue()
  endif()
  if(path MATCHES "\\.(cu|cuh)$")
    string(APPEND problems "  ${path}: a CUDA source outside src/backends/cuda and src/kernels/cuda\n")
    continue()
  endif()
  file(STRINGS ${ROOT}/${path} lines REGEX "^[ \t]*#[ \t]*include[ \t]*<(cuda|cublas|curand|cufft|cusparse|cusolver|cudnn|nccl|nvtx3?/|nvrtc|cooperative_groups|cub/|thrust/)")
  foreach(line IN LISTS lines)
    string(APPEND problems "  ${path}: ${line}\n")
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "CUDA headers outside src/backends/cuda and src/kernels/cuda (STYLE.md "
                      "habit 2); move the code there or add an interface:\n${problems}")
endif()
list(LENGTH sources count)
message(STATUS "checked ${count} files: CUDA headers only in src/backends/cuda and src/kernels/cuda")
