// libFuzzer's entry point for tide::fuzz::alloc_conf (alloc_conf_target.cpp).

#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tide::fuzz::alloc_conf(data, size);
  return 0;
}
