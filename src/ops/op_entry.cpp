// The mode word of Note [Op entry].

#include "ops/op_entry.h"

namespace tide::detail {

constinit thread_local uint32_t op_mode_word __attribute__((tls_model("initial-exec"))) =
    kGradRecordingMode;

}  // namespace tide::detail
