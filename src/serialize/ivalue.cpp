// tide::IValue: the values of torch's pickles (include/tide/ivalue.h).

#include "tide/ivalue.h"

#include "tide/error.h"

namespace tide {

namespace {

void expect_kind(const IValue& v, IValue::Kind want) {
  TIDE_CHECK(v.kind() == want, "[IValue] expected a ", kind_name(want), ", found a ",
             kind_name(v.kind()), "; check the value's kind() before reading it");
}

}  // namespace

IValue::IValue(const std::map<std::string, Tensor>& state_dict) {
  auto d = std::make_shared<IValueDict>();
  d->ordered = true;
  for (const auto& [name, tensor] : state_dict) d->items.emplace_back(IValue(name), IValue(tensor));
  v_ = std::move(d);
}

IValue IValue::tuple(List items) {
  IValue out;
  out.v_ = std::make_shared<Tuple>(Tuple{std::move(items)});
  return out;
}

IValue IValue::dict(std::vector<std::pair<IValue, IValue>> items, bool ordered) {
  return IValue(IValueDict{std::move(items), ordered});
}

IValue::Kind IValue::kind() const {
  switch (v_.index()) {
    case 0: return Kind::None;
    case 1: return Kind::Bool;
    case 2: return Kind::Int;
    case 3: return Kind::Double;
    case 4: return Kind::String;
    case 5: return Kind::Tensor;
    case 6: return Kind::List;
    case 7: return Kind::Tuple;
    default: return Kind::Dict;
  }
}

bool IValue::to_bool() const {
  expect_kind(*this, Kind::Bool);
  return std::get<bool>(v_);
}

int64_t IValue::to_int() const {
  expect_kind(*this, Kind::Int);
  return std::get<int64_t>(v_);
}

double IValue::to_double() const {
  expect_kind(*this, Kind::Double);
  return std::get<double>(v_);
}

const std::string& IValue::to_string() const {
  expect_kind(*this, Kind::String);
  return std::get<std::string>(v_);
}

const Tensor& IValue::to_tensor() const {
  expect_kind(*this, Kind::Tensor);
  return std::get<Tensor>(v_);
}

IValue::List& IValue::to_list() const {
  if (is_tuple()) return std::get<std::shared_ptr<Tuple>>(v_)->items;
  expect_kind(*this, Kind::List);
  return *std::get<std::shared_ptr<List>>(v_);
}

IValueDict& IValue::to_dict() const {
  expect_kind(*this, Kind::Dict);
  return *std::get<std::shared_ptr<IValueDict>>(v_);
}

const IValue& IValue::at(const IValue& key) const {
  for (const auto& [k, v] : to_dict().items) {
    if (k == key) return v;
  }
  throw Error(detail::concat("[IValue::at] expected a key the dict holds, found none equal to the ",
                             kind_name(key.kind()), " given; list its keys with to_dict().items"));
}

std::map<std::string, Tensor> IValue::to_state_dict() const {
  std::map<std::string, Tensor> out;
  for (const auto& [k, v] : to_dict().items) {
    TIDE_CHECK(k.is_string() && v.is_tensor(),
               "[IValue::to_state_dict] expected str keys and Tensor values, found a ",
               kind_name(k.kind()), " key with a ", kind_name(v.kind()),
               " value; read other dicts with to_dict()");
    out.emplace(k.to_string(), v.to_tensor());
  }
  return out;
}

bool operator==(const IValue& a, const IValue& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case IValue::Kind::None: return true;
    case IValue::Kind::Bool: return a.to_bool() == b.to_bool();
    case IValue::Kind::Int: return a.to_int() == b.to_int();
    case IValue::Kind::Double: return a.to_double() == b.to_double();
    case IValue::Kind::String: return a.to_string() == b.to_string();
    case IValue::Kind::Tensor: return a.to_tensor().is_same(b.to_tensor());
    case IValue::Kind::List:
    case IValue::Kind::Tuple: return a.to_list() == b.to_list();
    case IValue::Kind::Dict:
      return a.to_dict().items == b.to_dict().items && a.to_dict().ordered == b.to_dict().ordered;
  }
  return false;
}

const char* kind_name(IValue::Kind kind) {
  switch (kind) {
    case IValue::Kind::None: return "None";
    case IValue::Kind::Bool: return "bool";
    case IValue::Kind::Int: return "int";
    case IValue::Kind::Double: return "float";
    case IValue::Kind::String: return "str";
    case IValue::Kind::Tensor: return "Tensor";
    case IValue::Kind::List: return "list";
    case IValue::Kind::Tuple: return "tuple";
    case IValue::Kind::Dict: return "dict";
  }
  return "?";
}

}  // namespace tide
