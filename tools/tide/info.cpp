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
      out << "  cuda: not available (the real CUDA backend is compiled in, but found no GPU)\n";
    } else {
      out << "  cuda: not available (no CUDA backend in this build)\n";
    }
    out << "    why: " << cuda.no_device_reason << "\n";
    return;
  }
  out << "  cuda: " << cuda.device_count << " device" << (cuda.device_count == 1 ? "" : "s")
      << "\n";
  for (int i = 0; i < cuda.device_count; ++i) {
    const cuda::DeviceProperties p = cuda::get_device_properties(i);
    out << "    cuda:" << i << ":\n"
        << "      name: " << p.name << "\n"
        << "      total memory: " << (p.total_memory >> 20) << " MiB\n"
        << "      compute capability: " << p.major << "." << p.minor << "\n"
        << "      streaming multiprocessors: " << p.multi_processor_count << "\n"
        << "      simulated: "
        << (p.simulated ? "yes (host memory and a worker thread per stream, no GPU hardware; "
                          "TIDE_SIM_DEVICES)"
                        : "no")
        << "\n"
        << "      " << p << "\n";
  }
  if (!cuda.tensors) out << "    tensors on cuda: not yet: " << cuda.no_tensor_reason << "\n";
}

}  // namespace tide::cli
