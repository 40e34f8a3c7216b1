// libFuzzer's entry point for tide::fuzz::views (views_target.cpp).

#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tide::fuzz::views(data, size);
  return 0;
}
