#include "tide/error.h"

namespace tide::detail {

void throw_internal_assert(const char* cond, const char* file, int line, const std::string& extra) {
  throw InternalError(concat("[tide internal] assertion `", cond, "` failed at ", file, ":", line,
                             extra.empty() ? "" : ": ", extra,
                             ". This is a bug in tide; please report it with this message."));
}

}  // namespace tide::detail
