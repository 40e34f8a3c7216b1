// Grad mode: one thread_local flag, read only when an operand has autograd metadata.

#include "tide/autograd.h"

namespace tide {
namespace {
thread_local bool grad_mode_enabled = true;
}  // namespace

bool GradMode::is_enabled() { return grad_mode_enabled; }
void GradMode::set_enabled(bool enabled) { grad_mode_enabled = enabled; }

}  // namespace tide
