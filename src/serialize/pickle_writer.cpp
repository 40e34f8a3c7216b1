// The pickle writer of torch_save (pickle_writer.h).
//
// Note [Storage records]
// torch pickles a tensor as torch._utils._rebuild_tensor_v2(storage, storage_offset, size,
// stride, requires_grad, OrderedDict()), where `storage` is a persistent id
// ('storage', torch.<Type>Storage, key, location, numel) that the unpickler resolves to the
// archive's record data/<key>. One record per (storage, dtype): views of one storage name one
// key and load as views of one storage again. tide's storages are untyped; two tensors that see
// one storage through different dtypes get a record each, since torch 1.13's storages are typed
// (the values survive, the aliasing between the two dtypes does not). The whole storage is
// written, not only the elements a view sees, as torch does.

#include "serialize/pickle_writer.h"

#include <bit>
#include <cstring>
#include <map>
#include <tuple>
#include <utility>

#include "serialize/storage_types.h"
#include "tide/error.h"

namespace tide::serialize {
namespace {

static_assert(std::endian::native == std::endian::little,
              "torch's records are little-endian; a big-endian host would need byte swaps");

// Opcodes, as Python's Lib/pickle.py names them.
constexpr char kProto = '\x80', kStop = '.', kMark = '(', kNone = 'N', kNewTrue = '\x88',
               kNewFalse = '\x89', kBinInt = 'J', kBinInt1 = 'K', kBinInt2 = 'M', kLong1 = '\x8a',
               kBinFloat = 'G', kBinUnicode = 'X', kGlobal = 'c', kBinPut = 'q',
               kLongBinPut = 'r', kBinGet = 'h', kLongBinGet = 'j', kEmptyList = ']',
               kEmptyTuple = ')', kEmptyDict = '}', kAppends = 'e', kSetItems = 'u',
               kTuple = 't', kTuple1 = '\x85', kTuple2 = '\x86', kTuple3 = '\x87',
               kReduce = 'R', kBinPersId = 'Q';

class Writer {
 public:
  explicit Writer(const char* caller) : caller_(caller) {}

  Pickled finish(const IValue& value) {
    out_.pickle.push_back(kProto);
    out_.pickle.push_back('\x02');
    write(value);
    out_.pickle.push_back(kStop);
    return std::move(out_);
  }

 private:
  void put(char c) { out_.pickle.push_back(c); }
  void put_le(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) put(static_cast<char>(v >> (8 * i)));
  }

  // A memo slot's opcode: the one-byte form below 256, the four-byte one above.
  void memo_op(char small, char large, uint32_t slot) {
    if (slot < 256) {
      put(small);
      put(static_cast<char>(slot));
    } else {
      put(large);
      put_le(slot, 4);
    }
  }

  // Every container and string gets a memo slot, as Python's pickler gives them.
  void memoize() { memo_op(kBinPut, kLongBinPut, next_memo_++); }
  void get(uint32_t slot) { memo_op(kBinGet, kLongBinGet, slot); }

  // A global is written once and fetched from the memo afterwards.
  void global(const std::string& module, const std::string& name) {
    const std::string key = module + "\n" + name + "\n";
    if (auto it = globals_.find(key); it != globals_.end()) return get(it->second);
    put(kGlobal);
    out_.pickle += key;
    globals_.emplace(key, next_memo_);
    memoize();
  }

  void write_int(int64_t v) {
    if (v >= 0 && v < 256) {
      put(kBinInt1);
      put(static_cast<char>(v));
    } else if (v >= 0 && v < 65536) {
      put(kBinInt2);
      put_le(static_cast<uint64_t>(v), 2);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
      put(kBinInt);
      put_le(static_cast<uint64_t>(v), 4);
    } else {
      // LONG1: the shortest little-endian two's complement, as Python's encode_long.
      int bytes = 8;
      while (bytes > 1) {
        const int64_t top = v >> (8 * (bytes - 1) - 1);  // the bits a shorter form must drop
        if (top != 0 && top != -1) break;
        --bytes;
      }
      put(kLong1);
      put(static_cast<char>(bytes));
      put_le(static_cast<uint64_t>(v), bytes);
    }
  }

  void write_string(const std::string& s) {
    put(kBinUnicode);
    put_le(s.size(), 4);
    out_.pickle += s;
    memoize();
  }

  void write_items(const IValue::List& items, char end) {
    put(kMark);
    for (const IValue& item : items) write(item);
    put(end);
  }

  void write_tuple(const IValue::List& items) {
    static constexpr char kSmall[] = {kEmptyTuple, kTuple1, kTuple2, kTuple3};
    if (items.size() <= 3) {
      for (const IValue& item : items) write(item);
      put(kSmall[items.size()]);
    } else {
      write_items(items, kTuple);
    }
    if (!items.empty()) memoize();
  }

  void write_dict(const IValueDict& d) {
    if (d.ordered) {
      global("collections", "OrderedDict");
      put(kEmptyTuple);
      put(kReduce);
    } else {
      put(kEmptyDict);
    }
    memoize();
    if (d.items.empty()) return;
    put(kMark);
    for (const auto& [k, v] : d.items) {
      write(k);
      write(v);
    }
    put(kSetItems);
  }

  void write_sizes(const std::vector<int64_t>& sizes) {
    IValue::List items;
    for (int64_t s : sizes) items.emplace_back(s);
    write_tuple(items);
  }

  void write_tensor(const Tensor& t) {
    TIDE_CHECK(t.defined(), "[", caller_,
               "] expected defined tensors, found an undefined Tensor (default-constructed); give "
               "it a value or leave it out");
    const Storage& storage = t.storage();
    // A storage is known by its data pointer and device (an empty one has none: all of them
    // share one empty record per device, which loses nothing).
    const StorageKey key_of{storage.data(), storage.device().str(), t.dtype()};
    auto it = storage_keys_.find(key_of);
    if (it == storage_keys_.end()) {
      const std::string key = std::to_string(out_.storages.size());
      const auto nbytes = static_cast<int64_t>(storage.nbytes());
      Tensor whole(storage, kUInt8, {nbytes}, {1}, 0);
      out_.storages.push_back({key, whole.cpu()});
      it = storage_keys_.emplace(key_of, key).first;
    }
    const auto numel = static_cast<int64_t>(storage.nbytes() / t.element_size());
    global("torch._utils", "_rebuild_tensor_v2");
    put(kMark);
    // The persistent id, written as torch's pickler writes its tuple.
    put(kMark);
    write_string("storage");
    global("torch", storage_type_name(t.dtype()));
    write_string(it->second);
    write_string(storage.device().str());
    write_int(numel);
    put(kTuple);
    memoize();
    put(kBinPersId);
    write_int(t.storage_offset());
    write_sizes(t.sizes());
    write_sizes(t.strides());
    put(t.requires_grad() ? kNewTrue : kNewFalse);
    write_dict(IValueDict{{}, true});  // backward hooks: none
    put(kTuple);
    memoize();
    put(kReduce);
    memoize();
  }

  void write(const IValue& v) {
    switch (v.kind()) {
      case IValue::Kind::None: return put(kNone);
      case IValue::Kind::Bool: return put(v.to_bool() ? kNewTrue : kNewFalse);
      case IValue::Kind::Int: return write_int(v.to_int());
      case IValue::Kind::Double: {
        put(kBinFloat);
        const auto bits = std::bit_cast<uint64_t>(v.to_double());
        for (int i = 7; i >= 0; --i) put(static_cast<char>(bits >> (8 * i)));  // big-endian
        return;
      }
      case IValue::Kind::String: return write_string(v.to_string());
      case IValue::Kind::Tensor: return write_tensor(v.to_tensor());
      case IValue::Kind::List:
        put(kEmptyList);
        memoize();
        if (!v.to_list().empty()) write_items(v.to_list(), kAppends);
        return;
      case IValue::Kind::Tuple: return write_tuple(v.to_list());
      case IValue::Kind::Dict: return write_dict(v.to_dict());
    }
  }

  const char* caller_;
  Pickled out_;
  uint32_t next_memo_ = 0;
  std::map<std::string, uint32_t> globals_;
  using StorageKey = std::tuple<const void*, std::string, Dtype>;
  std::map<StorageKey, std::string> storage_keys_;
};

}  // namespace

Pickled pickle_value(const IValue& value, const char* caller) { return Writer(caller).finish(value); }

}  // namespace tide::serialize
