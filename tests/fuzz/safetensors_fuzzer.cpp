// libFuzzer's entry point for tide::fuzz::safetensors (safetensors_target.cpp).

#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tide::fuzz::safetensors(data, size);
  return 0;
}
