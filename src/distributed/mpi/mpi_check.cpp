#include "distributed/mpi/mpi_check.h"

#include <string>

#include "tide/distributed/process_group.h"
#include "tide/error.h"

namespace tide::distributed::detail {

void check_mpi(int code, const char* call, const char* collective) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw DistBackendError(::tide::detail::concat("[", collective, "] ", call, " failed: ",
                                                std::string(text, length)));
}

}  // namespace tide::distributed::detail
