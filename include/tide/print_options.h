#pragma once
// How tensors print: torch.set_printoptions. One setting for the process, as torch's
// PRINT_OPTS; Tensor::str reads it once per call.

#include <cstdint>
#include <optional>

namespace tide {

/// torch's print options with torch's defaults (its "default" profile).
struct PrintOptions {
  /// Digits after the decimal point of floating-point elements.
  int precision = 4;
  /// Above this many elements a tensor is summarized (torch's threshold; "full": infinity).
  double threshold = 1000;
  /// Elements shown at each end of a summarized dimension.
  int64_t edgeitems = 3;
  /// Characters per line before elements wrap.
  int64_t linewidth = 80;
  /// Scientific notation always (true), never (false), or when torch's rule picks it.
  std::optional<bool> sci_mode;
};

/// Replaces the print options; a precision outside [0, 100] or negative edgeitems/linewidth
/// raise tide::Error and change nothing.
void set_printoptions(const PrintOptions& options);

/// The print options in force.
PrintOptions get_printoptions();

}  // namespace tide
