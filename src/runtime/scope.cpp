#include "tide/scope.h"

#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "runtime/profiler_ranges.h"

namespace tide {
namespace {

thread_local const Scope* t_innermost = nullptr;

// Scope names given as std::string: one copy per distinct text, alive for the process.
const char* intern(const std::string& name) {
  static std::mutex mutex;
  static auto* names = new std::unordered_set<std::string>();
  std::lock_guard<std::mutex> lock(mutex);
  return names->insert(name).first->c_str();
}

}  // namespace

Scope::Scope(const char* name) : name_(name ? name : ""), parent_(t_innermost) {
  t_innermost = this;
  if (runtime::RangePush push = runtime::range_push()) {
    push(name_);
    ranged_ = true;
  }
}

Scope::Scope(const std::string& name) : Scope(intern(name)) {}

Scope::~Scope() {
  t_innermost = parent_;
  if (ranged_) runtime::range_pop();
}

const char* Scope::current() { return t_innermost ? t_innermost->name_ : nullptr; }

std::string Scope::current_path() {
  std::vector<const char*> names;
  for (const Scope* s = t_innermost; s; s = s->parent_) names.push_back(s->name_);
  std::string path;
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    if (!path.empty()) path.push_back('/');
    path.append(*it);
  }
  return path;
}

}  // namespace tide
