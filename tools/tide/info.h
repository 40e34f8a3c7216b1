#pragma once
// `tide info`: version, build options and the devices present.

#include <ostream>

namespace tide::cli {

/// Prints the version, tide::build_info(), the cpu and every cuda device with its properties
/// (name, total memory, compute capability, SM count, whether it is simulated).
void print_info(std::ostream& out);

}  // namespace tide::cli
