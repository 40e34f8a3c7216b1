#pragma once
// Raw CUDA for the bench: a checking macro, move-only owners of streams, events and memory,
// an event timer, and the device's peak memory bandwidth. Shared by every side (each times
// its library's stream with the same EventTimer) and by the raw baselines.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace tide::bench::gpu {

/// Throws std::runtime_error naming the call; the bench has no way to go on after a CUDA error.
inline void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(call) + " failed: " + cudaGetErrorName(status) + ": " +
                             cudaGetErrorString(status));
  }
}
#define BENCH_CUDA_CHECK(expr) ::tide::bench::gpu::check_cuda((expr), #expr)

/// A stream of its own for the raw baselines: non-blocking, so it never waits on the legacy
/// default stream that tide and torch launch on by default.
class RawStream {
 public:
  RawStream() { BENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~RawStream() { if (s_) cudaStreamDestroy(s_); }
  RawStream(const RawStream&) = delete;
  RawStream& operator=(const RawStream&) = delete;
  cudaStream_t get() const { return s_; }
  void synchronize() const { BENCH_CUDA_CHECK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

/// cudaMalloc'd (device) or cudaHostAlloc'd (pinned host) bytes.
class RawBuffer {
 public:
  enum class Kind { kDevice, kPinned };
  RawBuffer(Kind kind, size_t bytes) : kind_(kind) {
    if (kind == Kind::kDevice) {
      BENCH_CUDA_CHECK(cudaMalloc(&p_, bytes));
    } else {
      BENCH_CUDA_CHECK(cudaHostAlloc(&p_, bytes, cudaHostAllocDefault));
    }
  }
  ~RawBuffer() {
    if (!p_) return;
    if (kind_ == Kind::kDevice) cudaFree(p_); else cudaFreeHost(p_);
  }
  RawBuffer(const RawBuffer&) = delete;
  RawBuffer& operator=(const RawBuffer&) = delete;
  template <class T = void>
  T* get() const { return static_cast<T*>(p_); }

 private:
  Kind kind_;
  void* p_ = nullptr;
};

/// Times work enqueued on a stream between start() and stop_seconds(), on the device.
class EventTimer {
 public:
  EventTimer() {
    BENCH_CUDA_CHECK(cudaEventCreate(&start_));
    BENCH_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start(cudaStream_t stream) { BENCH_CUDA_CHECK(cudaEventRecord(start_, stream)); }
  /// Records the stop event, waits for it and returns the seconds between the two.
  double stop_seconds(cudaStream_t stream) {
    BENCH_CUDA_CHECK(cudaEventRecord(stop_, stream));
    BENCH_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    BENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms) * 1e-3;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

/// The device's theoretical memory bandwidth: 2 transfers per memory clock (DDR / HBM) × bus
/// width. CUDA 13 dropped cudaDeviceProp::memoryClockRate, so both come from attributes.
/// An H100 SXM: 2 × 2619 MHz × 5120 bit / 8 = 3.35 TB/s.
struct MemoryPeak {
  int memory_clock_khz = 0;
  int bus_width_bits = 0;
  double bytes_per_second() const {
    return 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8.0);
  }
};
inline MemoryPeak memory_peak(int device) {
  MemoryPeak p;
  BENCH_CUDA_CHECK(cudaDeviceGetAttribute(&p.memory_clock_khz, cudaDevAttrMemoryClockRate, device));
  BENCH_CUDA_CHECK(cudaDeviceGetAttribute(&p.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  return p;
}

}  // namespace tide::bench::gpu
