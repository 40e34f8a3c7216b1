# ctest Layers.MpiHeaderOnlyInDistributedMpi: mpi.h is included by src/distributed/mpi only, so
# no public header (and nothing else in tide) needs MPI's headers or flags; nccl.h is held to
# src/backends/cuda by CheckCudaHeaders.cmake. Run as: cmake -DROOT=<repo> -P this-file.
file(GLOB_RECURSE sources RELATIVE ${ROOT}
     ${ROOT}/src/*.h ${ROOT}/src/*.cpp ${ROOT}/include/*.h ${ROOT}/tools/*.h ${ROOT}/tools/*.cpp)
set(problems "")
foreach(path IN LISTS sources)
  if(path MATCHES "^src/distributed/mpi/")
    continue()
  endif()
  file(STRINGS ${ROOT}/${path} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]mpi\\.h[>\"]")
  foreach(line IN LISTS lines)
    string(APPEND problems "  ${path}: ${line}\n")
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "mpi.h outside src/distributed/mpi; move the code there or add an "
                      "interface:\n${problems}")
endif()
list(LENGTH sources count)
message(STATUS "checked ${count} files: mpi.h only in src/distributed/mpi")
