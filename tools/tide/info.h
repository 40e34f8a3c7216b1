#pragma once
// `tide info`: version, build options and the devices present.

#include <ostream>

namespace tide::cli {

/// Prints the version, tide::build_info() and one line per device type.
void print_info(std::ostream& out);

}  // namespace tide::cli
