// libFuzzer's entry point for tide::fuzz::device_string (device_string_target.cpp).

#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tide::fuzz::device_string(data, size);
  return 0;
}
