#pragma once
// Reading a param group's hyperparameters (Note [Optimizer state_dict] in
// tide/optim/optimizer.h): each entry found, of the kind torch writes, or a tide::Error naming
// it.

#include <string>
#include <utility>

#include "tide/ivalue.h"

namespace tide::optim::detail {

class GroupReader {
 public:
  GroupReader(const IValue& group, const char* where) : group_(group), where_(where) {}
  /// A number (int or float).
  double number(const char* key) const;
  bool flag(const char* key) const;
  /// A pair of numbers (Adam's betas).
  std::pair<double, double> pair(const char* key) const;
  /// Raises unless `key` is absent or holds False: torch's switches tide does not implement.
  void unsupported_switch(const char* key) const;

 private:
  const IValue* find(const char* key) const;
  const IValue& get(const char* key) const;
  const IValue& group_;
  const char* where_;
};

}  // namespace tide::optim::detail
