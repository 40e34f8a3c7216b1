#pragma once
#include <string>
namespace tide {
/// "0.1.0".
std::string version();
/// Build options as "key=value" lines: cuda, openmp, blas, build type.
std::string build_info();
}  // namespace tide
