#pragma once
// Scope: a cheap RAII name for a region of user code, nested per thread.

#include <string>

namespace tide {

/// `{ tide::Scope s("forward"); ... }` names the work enqueued inside the block: async
/// kernel errors (and later memory snapshots and profiler ranges) report the innermost name.
///
/// Note [Scope cost]: a Scope is two pointers on the stack linked into a thread-local list,
/// so opening one costs a few stores. A name given as `const char*` must outlive every
/// operation enqueued under it (a string literal always does); a `std::string` name is
/// interned once per distinct text in a process-wide table (one lock) and lives forever.
/// On real GPUs a scope is also an NVTX range, so profilers show ops inside their scopes.
class Scope {
 public:
  explicit Scope(const char* name);
  explicit Scope(const std::string& name);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

  const char* name() const { return name_; }
  /// The innermost open scope's name on this thread, or nullptr outside every scope.
  static const char* current();
  /// Every open scope on this thread from outermost to innermost, joined by "/".
  static std::string current_path();

 private:
  const char* name_;
  const Scope* parent_;
  bool ranged_ = false;  // opened a profiler range (NVTX on real GPUs) that the end closes
};

}  // namespace tide
