#pragma once
// IValue: one value of what torch.save writes — None, bool, int, float, str, Tensor, list,
// tuple, dict and OrderedDict, nested — as libtorch's c10::IValue is for torch::pickle_save.
// Lists and dicts are shared by reference (copying an IValue shares the container), as
// Python's are: a pickle may name one list twice, and both names see one list.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tide/tensor.h"

namespace tide {

class IValue;

/// A dict's entries in insertion order (Python dicts keep it; OrderedDict names it).
struct IValueDict {
  std::vector<std::pair<IValue, IValue>> items;
  bool ordered = false;  // pickled as collections.OrderedDict (torch's state_dict type)
};

class IValue {
 public:
  enum class Kind { None, Bool, Int, Double, String, Tensor, List, Tuple, Dict };
  using List = std::vector<IValue>;

  IValue() = default;  // None
  IValue(bool v) : v_(v) {}
  IValue(int v) : v_(static_cast<int64_t>(v)) {}
  IValue(int64_t v) : v_(v) {}
  IValue(double v) : v_(v) {}
  IValue(std::string v) : v_(std::move(v)) {}
  IValue(const char* v) : v_(std::string(v)) {}
  IValue(Tensor v) : v_(std::move(v)) {}
  IValue(List v) : v_(std::make_shared<List>(std::move(v))) {}
  IValue(IValueDict v) : v_(std::make_shared<IValueDict>(std::move(v))) {}
  /// A state_dict as torch writes it: an OrderedDict from name to tensor.
  IValue(const std::map<std::string, Tensor>& state_dict);

  static IValue tuple(List items);
  /// A plain dict (`ordered` false) or an OrderedDict, keys in the given order.
  static IValue dict(std::vector<std::pair<IValue, IValue>> items, bool ordered = false);

  Kind kind() const;
  bool is_none() const { return kind() == Kind::None; }
  bool is_bool() const { return kind() == Kind::Bool; }
  bool is_int() const { return kind() == Kind::Int; }
  bool is_double() const { return kind() == Kind::Double; }
  bool is_string() const { return kind() == Kind::String; }
  bool is_tensor() const { return kind() == Kind::Tensor; }
  bool is_list() const { return kind() == Kind::List; }
  bool is_tuple() const { return kind() == Kind::Tuple; }
  bool is_dict() const { return kind() == Kind::Dict; }

  /// Each accessor raises tide::Error naming the kind found when the value is another kind.
  bool to_bool() const;
  int64_t to_int() const;
  double to_double() const;
  const std::string& to_string() const;
  const Tensor& to_tensor() const;
  /// The items of a list or a tuple (a list's are shared and may be changed).
  List& to_list() const;
  IValueDict& to_dict() const;
  /// A dict's value for a string or int key; raises tide::Error when it has none.
  const IValue& at(const IValue& key) const;
  /// A dict of string keys and tensor values (a state_dict) as a map.
  std::map<std::string, Tensor> to_state_dict() const;

  /// Same kind and value; tensors compare by identity (the same TensorImpl), containers by
  /// their items.
  friend bool operator==(const IValue& a, const IValue& b);

 private:
  struct Tuple {
    List items;
  };
  std::variant<std::monostate, bool, int64_t, double, std::string, Tensor, std::shared_ptr<List>,
               std::shared_ptr<Tuple>, std::shared_ptr<IValueDict>>
      v_;
};

/// "None", "bool", "int", "float", "str", "Tensor", "list", "tuple", "dict": Python's names.
const char* kind_name(IValue::Kind kind);

}  // namespace tide
