#include "info.h"

#include <sstream>
#include <string>
#include <thread>

#include "backends/cuda_backend_info.h"
#include "devices.h"
#include "tide/cuda/device.h"
#include "tide/version.h"

namespace tide::cli {

void print_info(std::ostream& out) {
  out << "tide " << version() << "\n";

  out << "build:\n";
  std::istringstream lines(build_info());
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) out << "  " << line << "\n";
  }

  out << "devices:\n";
  unsigned threads = std::thread::hardware_concurrency();
  out << "  cpu: available (" << threads << " hardware thread" << (threads == 1 ? "" : "s")
      << ")\n";

  CudaAvailability cuda = cuda_availability();
  if (cuda.device_count == 0) {
    if (backends::cuda_backend_compiled()) {
      out << "  cuda: not available (the CUDA backend is compiled: "
          << backends::cuda_functor_instantiations() << " functor kernels built by nvcc)\n";
    } else {
      out << "  cuda: not available (no CUDA backend in this build)\n";
    }
    out << "    why: " << cuda.no_device_reason << "\n";
    return;
  }
  out << "  cuda: " << cuda.device_count << " device" << (cuda.device_count == 1 ? "" : "s")
      << "\n";
  for (int i = 0; i < cuda.device_count; ++i) {
    out << "    cuda:" << i << ": " << cuda::get_device_properties(i) << "\n";
  }
  if (!cuda.tensors) out << "    tensors on cuda: not yet: " << cuda.no_tensor_reason << "\n";
}

}  // namespace tide::cli
