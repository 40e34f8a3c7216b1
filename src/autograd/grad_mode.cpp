// Grad mode: one bit of the thread's op mode word (Note [Op entry] in ops/op_entry.h), read by
// the ops only when an operand has autograd metadata.

#include "ops/op_entry.h"
#include "tide/autograd.h"

namespace tide {

bool GradMode::is_enabled() { return (detail::op_mode_word & detail::kGradRecordingMode) != 0; }
void GradMode::set_enabled(bool enabled) {
  detail::set_op_mode(detail::kGradRecordingMode, enabled);
}

}  // namespace tide
