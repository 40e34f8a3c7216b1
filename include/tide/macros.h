#pragma once
// Portability macros shared by host and device code.

#if defined(__CUDACC__)
#define TIDE_HOST_DEVICE __host__ __device__
#define TIDE_DEVICE __device__
#else
#define TIDE_HOST_DEVICE
#define TIDE_DEVICE
#endif

#define TIDE_FORCE_INLINE inline __attribute__((always_inline))
#define TIDE_LIKELY(x) __builtin_expect(!!(x), 1)
#define TIDE_UNLIKELY(x) __builtin_expect(!!(x), 0)
