// The pickle reader of torch_load (Note [Pickle allow list] in pickle_reader.h).

#include "serialize/pickle_reader.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "serialize/storage_types.h"
#include "serialize/tensor_rebuild.h"
#include "tide/error.h"

namespace tide::serialize {
namespace {

constexpr int kMaxDepth = 1000;  // containers nested deeper than Python's recursion limit

// What the stack holds: values, marks, the globals the allow list admits, and the tuples that
// hold a global (only a persistent id does).
struct Item {
  enum class Kind { Value, Mark, Global, RawTuple };
  Kind kind = Kind::Value;
  IValue value;
  std::string global;       // "module.name" for Kind::Global
  std::vector<Item> items;  // Kind::RawTuple
};

bool allowed_global(const std::string& name) {
  if (name == "collections.OrderedDict" || name == "torch._utils._rebuild_tensor_v2" ||
      name == "torch._utils._rebuild_parameter") {
    return true;
  }
  return name.starts_with("torch.") && name.ends_with("Storage") &&
         name.find('.', 6) == std::string::npos;
}

class Reader {
 public:
  Reader(std::string_view data, const StorageLoader& load_storage, const char* caller)
      : data_(data), load_storage_(load_storage), caller_(caller) {}

  IValue run() {
    while (true) {
      const size_t at = pos_;
      const auto op = static_cast<unsigned char>(take(1)[0]);
      if (op == '.') break;
      step(op, at);
    }
    check(stack_.size() == 1 && stack_[0].kind == Item::Kind::Value,
          "expected one value on the stack at STOP, found ", stack_.size(), " items");
    return stack_[0].value;
  }

 private:
  template <class... Args>
  void check(bool cond, const Args&... args) const {
    TIDE_CHECK(cond, "[", caller_, "] the archive's data.pkl is not a pickle that torch.save writes: ",
               args..., " (at byte ", pos_,
               "). The file is corrupt or was not written by torch.save/tide.save");
  }

  std::string_view take(size_t n) {
    check(n <= data_.size() - pos_, "expected ", n, " more bytes, found ", data_.size() - pos_,
          " (truncated)");
    std::string_view out = data_.substr(pos_, n);
    pos_ += n;
    return out;
  }

  uint64_t take_le(size_t n) {
    std::string_view b = take(n);
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;) v = v << 8 | static_cast<unsigned char>(b[i]);
    return v;
  }

  std::string take_line() {
    const size_t end = data_.find('\n', pos_);
    check(end != std::string_view::npos, "expected a newline-terminated name, found none");
    std::string out(data_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return out;
  }

  Item pop() {
    check(!stack_.empty(), "expected a value on the stack, found it empty");
    Item out = std::move(stack_.back());
    stack_.pop_back();
    return out;
  }

  IValue pop_value() {
    Item item = pop();
    check(item.kind == Item::Kind::Value, "expected a value, found a mark or a class");
    return std::move(item.value);
  }

  std::vector<Item> pop_mark() {
    size_t mark = stack_.size();
    while (mark > 0 && stack_[mark - 1].kind != Item::Kind::Mark) --mark;
    check(mark > 0, "expected a MARK before the items, found none");
    std::vector<Item> out(std::make_move_iterator(stack_.begin() + mark),
                          std::make_move_iterator(stack_.end()));
    stack_.resize(mark - 1);
    return out;
  }

  void push(IValue v) { stack_.push_back(Item{Item::Kind::Value, std::move(v), {}, {}}); }

  // Nesting depth of a value (0 for scalars and tensors).
  int depth(const IValue& v) const {
    if (!(v.is_list() || v.is_tuple() || v.is_dict())) return 0;
    auto it = depth_.find(container_id(v));
    return it == depth_.end() ? 1 : it->second;
  }

  static const void* container_id(const IValue& v) {
    if (v.is_dict()) return &v.to_dict();
    return &v.to_list();
  }

  // `child` goes into `parent`: no cycles (Note [Pickle allow list]) and bounded depth.
  void adopt(const IValue& parent, const IValue& child) {
    check(!placed_.contains(container_id(parent)) &&
              !((child.is_list() || child.is_dict()) && container_id(child) == container_id(parent)),
          "expected a container to be complete before it is put in another, found one put in "
          "itself or changed afterwards");
    if (child.is_list() || child.is_dict() || child.is_tuple()) placed_[container_id(child)] = true;
    int& d = depth_[container_id(parent)];
    d = std::max({d, 1, depth(child) + 1});
    check(d <= kMaxDepth, "expected containers nested at most ", kMaxDepth, " deep, found more");
  }

  IValue make_tuple(std::vector<Item> items) {
    IValue::List values;
    for (Item& item : items) values.push_back(std::move(item.value));
    IValue t = IValue::tuple(std::move(values));
    for (const IValue& v : t.to_list()) adopt(t, v);
    return t;
  }

  void push_tuple(std::vector<Item> items) {
    bool plain = true;
    for (const Item& item : items) {
      check(item.kind != Item::Kind::Mark, "expected tuple items, found a MARK");
      plain = plain && item.kind == Item::Kind::Value;
    }
    if (plain) return push(make_tuple(std::move(items)));
    stack_.push_back(Item{Item::Kind::RawTuple, {}, {}, std::move(items)});
  }

  void append(const IValue& list, std::vector<Item> items) {
    check(list.is_list(), "expected a list to append to, found a ", kind_name(list.kind()));
    for (Item& item : items) {
      check(item.kind == Item::Kind::Value, "expected list items, found a mark or a class");
      adopt(list, item.value);
      list.to_list().push_back(std::move(item.value));
    }
  }

  void set_items(const IValue& dict, std::vector<Item> items) {
    check(dict.is_dict(), "expected a dict to set items in, found a ", kind_name(dict.kind()));
    check(items.size() % 2 == 0, "expected key-value pairs, found an odd count");
    for (size_t i = 0; i < items.size(); i += 2) {
      check(items[i].kind == Item::Kind::Value && items[i + 1].kind == Item::Kind::Value,
            "expected dict keys and values, found a mark or a class");
      adopt(dict, items[i + 1].value);
      auto& entries = dict.to_dict().items;
      bool replaced = false;
      for (auto& [k, v] : entries) {
        if (k == items[i].value) {
          v = items[i + 1].value;
          replaced = true;
        }
      }
      if (!replaced) entries.emplace_back(items[i].value, items[i + 1].value);
    }
  }

  Item& memo_get(uint64_t slot) {
    auto it = memo_.find(slot);
    check(it != memo_.end(), "expected a memo slot written before, found slot ", slot, " empty");
    return it->second;
  }

  void memo_put(uint64_t slot) {
    check(!stack_.empty() && stack_.back().kind != Item::Kind::Mark,
          "expected a value to memoize, found none");
    memo_[slot] = stack_.back();
  }

  std::vector<int64_t> int_tuple(const IValue& v, const char* what) {
    check(v.is_tuple(), "expected the tensor's ", what, " as a tuple, found a ", kind_name(v.kind()));
    std::vector<int64_t> out;
    for (const IValue& x : v.to_list()) {
      check(x.is_int(), "expected the tensor's ", what, " as ints");
      out.push_back(x.to_int());
    }
    return out;
  }

  IValue rebuild_tensor(const IValue& args) {
    check(args.is_tuple() && args.to_list().size() >= 5,
          "expected _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks)");
    const IValue::List& a = args.to_list();
    check(a[0].is_tensor(), "expected a storage as _rebuild_tensor_v2's first argument, found a ",
          kind_name(a[0].kind()));
    check(a[1].is_int(), "expected the storage offset as an int");
    check(a[4].is_bool(), "expected requires_grad as a bool, found a ", kind_name(a[4].kind()));
    Tensor t = tensor_over_storage(a[0].to_tensor(), int_tuple(a[2], "size"),
                                   int_tuple(a[3], "stride"), a[1].to_int(), caller_);
    if (a[4].to_bool()) {
      check(is_floating_point(t.dtype()), "expected requires_grad only on floating-point tensors");
      t.requires_grad_(true);
    }
    return IValue(t);
  }

  void reduce() {
    IValue args = pop_value();
    Item callable = pop();
    check(callable.kind == Item::Kind::Global, "expected a class or function to call, found a value");
    const std::string& name = callable.global;
    if (name == "collections.OrderedDict") {
      check(args.is_tuple() && args.to_list().empty(), "expected OrderedDict() without arguments");
      return push(IValue::dict({}, true));
    }
    if (name == "torch._utils._rebuild_tensor_v2") return push(rebuild_tensor(args));
    if (name == "torch._utils._rebuild_parameter") {
      check(args.is_tuple() && args.to_list().size() >= 2 && args.to_list()[0].is_tensor() &&
                args.to_list()[1].is_bool(),
            "expected _rebuild_parameter(tensor, requires_grad, hooks)");
      Tensor t = args.to_list()[0].to_tensor();
      if (args.to_list()[1].to_bool() && !t.requires_grad()) t.requires_grad_(true);
      return push(IValue(t));
    }
    check(false, "expected a call of OrderedDict or a tensor rebuild, found a call of ", name);
  }

  void persistent_load() {
    Item pid = pop();
    check(pid.kind == Item::Kind::RawTuple && pid.items.size() == 5,
          "expected a persistent id ('storage', type, key, location, numel)");
    std::vector<Item>& p = pid.items;
    check(p[0].kind == Item::Kind::Value && p[0].value.is_string() &&
              p[0].value.to_string() == "storage",
          "expected a persistent id starting with 'storage'");
    check(p[1].kind == Item::Kind::Global && p[1].global.starts_with("torch.") &&
              p[1].global.ends_with("Storage"),
          "expected a storage class (torch.<Type>Storage) in the persistent id");
    for (int i = 2; i < 4; ++i) {
      check(p[i].kind == Item::Kind::Value && p[i].value.is_string(),
            "expected the storage's key and location as strings");
    }
    check(p[4].kind == Item::Kind::Value && p[4].value.is_int() && p[4].value.to_int() >= 0,
          "expected the storage's element count as a non-negative int");
    const std::optional<Dtype> dtype = dtype_of_storage_type(p[1].global.substr(6));
    TIDE_CHECK(dtype.has_value(), "[", caller_, "] the archive holds a ", p[1].global,
               ", a dtype tide does not have; expected one of tide's dtypes (bool, uint8, int32, "
               "int64, float16, bfloat16, float32, float64): convert the tensor in torch first");
    push(IValue(load_storage_(p[2].value.to_string(), *dtype, p[3].value.to_string(),
                              p[4].value.to_int())));
  }

  void build() {
    pop_value();  // the state: an OrderedDict's attributes (a state_dict's _metadata)
    check(!stack_.empty() && stack_.back().kind == Item::Kind::Value && stack_.back().value.is_dict(),
          "expected BUILD only on an OrderedDict (its _metadata), found it on another value");
  }

  void step(unsigned char op, size_t at) {
    switch (op) {
      case 0x80: {  // PROTO
        const auto version = static_cast<unsigned char>(take(1)[0]);
        check(version >= 2 && version <= 5, "expected pickle protocol 2 to 5, found ", int(version));
        return;
      }
      case 0x95: take(8); return;  // FRAME: a length prefix only
      case '(': stack_.push_back(Item{Item::Kind::Mark, {}, {}, {}}); return;
      case 'N': return push(IValue());
      case 0x88: return push(IValue(true));
      case 0x89: return push(IValue(false));
      case 'J': return push(IValue(static_cast<int64_t>(static_cast<int32_t>(take_le(4)))));
      case 'K': return push(IValue(static_cast<int64_t>(take_le(1))));
      case 'M': return push(IValue(static_cast<int64_t>(take_le(2))));
      case 0x8a: {  // LONG1
        const auto n = static_cast<size_t>(take_le(1));
        check(n <= 8, "expected an integer of at most 8 bytes, found ", n, " bytes");
        uint64_t v = n ? take_le(n) : 0;
        if (n > 0 && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t{0} << (8 * n);  // sign
        return push(IValue(static_cast<int64_t>(v)));
      }
      case 'G': {  // BINFLOAT, big-endian
        std::string_view b = take(8);
        uint64_t bits = 0;
        for (char c : b) bits = bits << 8 | static_cast<unsigned char>(c);
        return push(IValue(std::bit_cast<double>(bits)));
      }
      case 'X':  // BINUNICODE
      case 0x8c: {  // SHORT_BINUNICODE
        const size_t n = take_le(op == 'X' ? 4 : 1);
        return push(IValue(std::string(take(n))));
      }
      case 'c': {  // GLOBAL
        std::string module = take_line();
        std::string name = module + "." + take_line();
        TIDE_CHECK(allowed_global(name), "[", caller_, "] the pickle names the Python global ",
                   name, ", which tide does not rebuild; expected only tensors, numbers, strings, "
                   "lists, tuples, dicts and OrderedDicts (tide runs no code from a file). Save a "
                   "state_dict (model.state_dict()) instead of the object");
        stack_.push_back(Item{Item::Kind::Global, {}, std::move(name), {}});
        return;
      }
      case 'q': return memo_put(take_le(1));
      case 'r': return memo_put(take_le(4));
      case 0x94: return memo_put(memo_.size());  // MEMOIZE
      case 'h': stack_.push_back(memo_get(take_le(1))); return;
      case 'j': stack_.push_back(memo_get(take_le(4))); return;
      case ']': return push(IValue(IValue::List{}));
      case ')': return push(IValue::tuple({}));
      case '}': return push(IValue::dict({}));
      case 'a': {  // APPEND
        Item item = pop();
        check(!stack_.empty(), "expected a list under the item");
        return append(stack_.back().value, {std::move(item)});
      }
      case 'e': {  // APPENDS
        std::vector<Item> items = pop_mark();
        check(!stack_.empty(), "expected a list under the MARK");
        return append(stack_.back().value, std::move(items));
      }
      case 's': {  // SETITEM
        Item v = pop();
        Item k = pop();
        check(!stack_.empty(), "expected a dict under the item");
        std::vector<Item> kv;
        kv.push_back(std::move(k));
        kv.push_back(std::move(v));
        return set_items(stack_.back().value, std::move(kv));
      }
      case 'u': {  // SETITEMS
        std::vector<Item> items = pop_mark();
        check(!stack_.empty(), "expected a dict under the MARK");
        return set_items(stack_.back().value, std::move(items));
      }
      case 't': return push_tuple(pop_mark());
      case 0x85:
      case 0x86:
      case 0x87: {  // TUPLE1..3
        const size_t n = op - 0x84;
        check(stack_.size() >= n, "expected ", n, " items for a tuple");
        std::vector<Item> items(std::make_move_iterator(stack_.end() - n),
                                std::make_move_iterator(stack_.end()));
        stack_.resize(stack_.size() - n);
        return push_tuple(std::move(items));
      }
      case 'R': return reduce();
      case 'Q': return persistent_load();
      case 'b': return build();
      default: break;
    }
    pos_ = at;
    TIDE_CHECK(false, "[", caller_, "] the archive's data.pkl holds the pickle opcode 0x", std::hex,
               static_cast<int>(op), std::dec, " at byte ", at,
               ", which torch.save does not write; expected only the opcodes of torch's "
               "checkpoints (Note [Pickle allow list]). The file is corrupt or not a torch.save "
               "archive");
  }

  std::string_view data_;
  size_t pos_ = 0;
  const StorageLoader& load_storage_;
  const char* caller_;
  std::vector<Item> stack_;
  std::unordered_map<uint64_t, Item> memo_;
  std::unordered_map<const void*, int> depth_;
  std::unordered_map<const void*, bool> placed_;
};

}  // namespace

IValue unpickle(std::string_view pickle, const StorageLoader& load_storage, const char* caller) {
  return Reader(pickle, load_storage, caller).run();
}

}  // namespace tide::serialize
