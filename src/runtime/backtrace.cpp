#include "runtime/backtrace.h"

#include <cxxabi.h>
#include <elfutils/libdwfl.h>
#include <execinfo.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "runtime/error_channel.h"
#include "runtime/registry.h"
#include "tide/error.h"
#include "tide/testing/sim_hooks.h"

namespace tide::runtime {

std::atomic<bool> g_async_backtrace{false};

namespace {

std::string demangle(const char* name) {
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) return name;
  std::string result(out);
  std::free(out);
  return result;
}

const char* base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

std::string hex(uintptr_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), kDigits[value & 0xf]);
    value >>= 4;
  } while (value != 0);
  return "0x" + s;
}

// One libdw session over this process's loaded modules (/proc/self/maps), read anew for each
// symbolization so modules loaded since the capture are known; errors only, never hot.
class Symbolizer {
 public:
  Symbolizer() {
    dwfl_ = dwfl_begin(&kCallbacks);
    if (dwfl_ == nullptr) return;
    if (dwfl_linux_proc_report(dwfl_, getpid()) != 0 ||
        dwfl_report_end(dwfl_, nullptr, nullptr) != 0) {
      dwfl_end(dwfl_);
      dwfl_ = nullptr;
    }
  }
  ~Symbolizer() {
    if (dwfl_ != nullptr) dwfl_end(dwfl_);
  }
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  bool ok() const { return dwfl_ != nullptr; }

  struct Frame {
    std::string function;  // demangled; empty if unknown
    std::string file;      // empty without line tables
    int line = 0;
    std::string module;    // file name of the binary or shared library; empty if unknown
  };

  Frame resolve(uintptr_t pc) const {
    Frame f;
    if (dwfl_ == nullptr) return f;
    Dwfl_Module* mod = dwfl_addrmodule(dwfl_, pc);
    if (mod == nullptr) return f;
    if (const char* name = dwfl_module_info(mod, nullptr, nullptr, nullptr, nullptr, nullptr,
                                            nullptr, nullptr)) {
      f.module = base_name(name);
    }
    if (const char* sym = dwfl_module_addrname(mod, pc)) f.function = demangle(sym);
    if (Dwfl_Line* line = dwfl_module_getsrc(mod, pc)) {
      int lineno = 0;
      if (const char* file =
              dwfl_lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr)) {
        f.file = file;
        f.line = lineno;
      }
    }
    return f;
  }

 private:
  static char* debuginfo_path_;
  static const Dwfl_Callbacks kCallbacks;
  Dwfl* dwfl_ = nullptr;
};

char* Symbolizer::debuginfo_path_ = nullptr;
const Dwfl_Callbacks Symbolizer::kCallbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = nullptr,
    .debuginfo_path = &Symbolizer::debuginfo_path_,
};

[[gnu::noinline]] bool symbolization_probe() {
  Symbolizer s;
  if (!s.ok()) return false;
  const Symbolizer::Frame f = s.resolve(reinterpret_cast<uintptr_t>(&symbolization_probe));
  return f.function.find("symbolization_probe") != std::string::npos;
}

}  // namespace

void set_async_backtrace_enabled(bool enabled) {
  g_async_backtrace.store(enabled, std::memory_order_relaxed);
}

[[gnu::noinline]] RawBacktrace capture_backtrace(int skip) {
  // Frame 0 is this function; the caller's frames follow.
  skip = std::max(skip, 0) + 1;
  void* buffer[RawBacktrace::kMaxFrames + 8];
  const int wanted = std::min(skip + RawBacktrace::kMaxFrames, static_cast<int>(std::size(buffer)));
  const int n = ::backtrace(buffer, wanted);
  RawBacktrace result;
  for (int i = skip; i < n && result.size < RawBacktrace::kMaxFrames; ++i) {
    result.frames[static_cast<size_t>(result.size++)] = buffer[i];
  }
  return result;
}

[[gnu::noinline]] Task with_enqueue_backtrace(Task task) {
  // Skip this function: the trace starts at runtime::launch, then the op that called it.
  auto backtrace = std::make_shared<const RawBacktrace>(capture_backtrace(1));
  return [backtrace = std::move(backtrace), task = std::move(task)] {
    attach_enqueue_backtrace(backtrace);
    task();
  };
}

std::string symbolize_backtrace(const RawBacktrace& backtrace) {
  const Symbolizer symbolizer;
  std::string out;
  for (int i = 0; i < backtrace.size; ++i) {
    const auto address = reinterpret_cast<uintptr_t>(backtrace.frames[static_cast<size_t>(i)]);
    // A return address points after the call; the call itself is one byte before.
    const Symbolizer::Frame f = symbolizer.resolve(address > 0 ? address - 1 : address);
    if (!out.empty()) out += '\n';
    out += detail::concat("    #", i, " ", f.function.empty() ? hex(address) : f.function);
    if (!f.file.empty()) out += detail::concat(" at ", f.file, ":", f.line);
    if (!f.module.empty()) out += detail::concat(" (", f.module, ")");
    // What lies below main is the C runtime's start-up code.
    if (f.function == "main") break;
  }
  return out;
}

bool backtrace_symbolization_available() {
  static const bool available = symbolization_probe();
  return available;
}

}  // namespace tide::runtime

namespace tide::testing {

void set_async_backtrace_for_testing(bool enabled) {
  runtime::backend(kCUDA);  // start the backends first, so their reading of the variable
                            // cannot overwrite this
  runtime::set_async_backtrace_enabled(enabled);
}

}  // namespace tide::testing
