// The process's print options (torch's PRINT_OPTS). A mutex rather than thread-local state:
// torch's setting is global, and a print from a DataLoader worker or a device's thread follows
// the same options as one from the thread that set them.

#include "tide/print_options.h"

#include <mutex>

#include "tide/error.h"

namespace tide {
namespace {

std::mutex& options_mutex() {
  static std::mutex mutex;
  return mutex;
}

PrintOptions& options() {
  static PrintOptions current;
  return current;
}

}  // namespace

void set_printoptions(const PrintOptions& o) {
  // 100 keeps every rendering of a double inside Tensor::str's buffer.
  TIDE_CHECK(o.precision >= 0 && o.precision <= 100,
             "[set_printoptions] expected a precision from 0 to 100 digits, found ", o.precision);
  TIDE_CHECK(o.edgeitems >= 0, "[set_printoptions] expected edgeitems >= 0, found ",
             o.edgeitems);
  TIDE_CHECK(o.linewidth >= 0, "[set_printoptions] expected linewidth >= 0, found ",
             o.linewidth);
  std::lock_guard<std::mutex> lock(options_mutex());
  options() = o;
}

PrintOptions get_printoptions() {
  std::lock_guard<std::mutex> lock(options_mutex());
  return options();
}

}  // namespace tide
