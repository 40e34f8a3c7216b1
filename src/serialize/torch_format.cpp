// tide::torch_save / torch_load / pickle_save / pickle_load (include/tide/torch_format.h): the
// pickle (pickle_writer.h, pickle_reader.h) and its storages in torch's zip (torch_zip.h).

#include "tide/torch_format.h"

#include <filesystem>
#include <map>

#include "serialize/pickle_reader.h"
#include "serialize/pickle_writer.h"
#include "serialize/tensor_rebuild.h"
#include "serialize/torch_zip.h"
#include "tide/factories.h"

namespace tide {
namespace {

// torch 1.13 writes version 3; its readers accept 1 to 10 (kMaxSupportedFileFormatVersion).
constexpr const char* kVersion = "3\n";

std::vector<char> save_archive(const IValue& value, const std::string& top, const std::string& path,
                               const char* caller) {
  const serialize::Pickled p = serialize::pickle_value(value, caller);
  static const std::string kByteorder = "little";
  std::vector<serialize::ZipRecord> records;
  records.push_back({top + "/data.pkl", p.pickle.data(), p.pickle.size()});
  records.push_back({top + "/byteorder", kByteorder.data(), kByteorder.size()});
  for (const serialize::StorageRecord& s : p.storages) {
    records.push_back({top + "/data/" + s.key, s.bytes.raw_data(), s.bytes.nbytes()});
  }
  records.push_back({top + "/version", kVersion, 2});
  return serialize::write_zip(records, path, caller);
}

// The top folder: the one holding data.pkl, whatever its name (torch names it after the file).
std::string find_top(const serialize::ZipReader& zip, const char* caller) {
  for (const std::string& name : zip.names()) {
    const size_t slash = name.find('/');
    if (slash != std::string::npos && name.substr(slash) == "/data.pkl") return name.substr(0, slash);
  }
  TIDE_CHECK(false, "[", caller, "] the archive has no <folder>/data.pkl record; expected a zip "
             "written by torch.save or tide::torch_save");
  return {};
}

IValue load_archive(const serialize::ZipReader& zip, const MapLocation& map_location,
                    const char* caller) {
  const std::string top = find_top(zip, caller);
  for (const std::string& name : zip.names()) {
    if (name != top + "/byteorder") continue;  // torch < 2.1 writes none: little-endian
    const std::string order = zip.read(name);
    TIDE_CHECK(order == "little", "[", caller, "] the archive's storages are ", order,
               "-endian; expected little-endian (tide runs on little-endian hosts only). Save it "
               "again on a little-endian machine");
  }
  std::map<std::string, Tensor> storages;  // by key: views keep sharing one storage
  auto load_storage = [&](const std::string& key, Dtype dtype, const std::string& location,
                          int64_t numel) -> Tensor {
    if (auto it = storages.find(key); it != storages.end()) {
      TIDE_CHECK(it->second.dtype() == dtype && it->second.numel() == numel, "[", caller,
                 "] storage ", key, " is named with two dtypes or sizes; the archive is corrupt");
      return it->second;
    }
    const std::string record = top + "/data/" + key;
    const uint64_t bytes = zip.size(record);
    TIDE_CHECK(bytes == static_cast<uint64_t>(numel) * element_size(dtype), "[", caller,
               "] record ", record, " holds ", bytes, " bytes; expected ", numel, " ", name(dtype),
               " elements (", static_cast<uint64_t>(numel) * element_size(dtype),
               " bytes). The archive is truncated or corrupt");
    Tensor t = empty({numel}, TensorOptions().dtype(dtype).device(Device(kCPU)));
    zip.read(record, t.raw_data(), bytes);
    serialize::check_bool_storage(t, record, caller);
    Device device = map_location ? map_location(location) : Device(location);
    if (device != t.device()) t = t.to(device);
    storages.emplace(key, t);
    return t;
  };
  return serialize::unpickle(zip.read(top + "/data.pkl"), load_storage, caller);
}

MapLocation optional_to_map(std::optional<Device> device) {
  if (!device) return {};
  return map_location_to(*device);
}

}  // namespace

MapLocation map_location_to(Device device) {
  return [device](const std::string&) { return device; };
}

MapLocation map_location_from(std::vector<std::pair<std::string, std::string>> renames) {
  return [renames = std::move(renames)](const std::string& location) {
    for (const auto& [from, to] : renames) {
      if (from == location) return Device(to);
    }
    return Device(location);
  };
}

std::vector<char> pickle_save(const IValue& value) {
  return save_archive(value, "archive", "", "tide::pickle_save");
}

IValue pickle_load(std::string_view bytes, const MapLocation& map_location) {
  constexpr const char* kCaller = "tide::pickle_load";
  return load_archive(serialize::ZipReader::open_bytes(bytes, kCaller), map_location, kCaller);
}

IValue pickle_load(std::string_view bytes, std::optional<Device> map_location) {
  return pickle_load(bytes, optional_to_map(map_location));
}

void torch_save(const IValue& value, const std::string& path) {
  std::string top = std::filesystem::path(path).stem().string();
  if (top.empty()) top = "archive";
  save_archive(value, top, path, "tide::torch_save");
}

IValue torch_load(const std::string& path, const MapLocation& map_location) {
  constexpr const char* kCaller = "tide::torch_load";
  TIDE_CHECK(std::filesystem::is_regular_file(path), "[", kCaller, "] cannot read '", path,
             "': no such file; expected the path of a file written by torch.save or "
             "tide::torch_save");
  return load_archive(serialize::ZipReader::open_file(path, kCaller), map_location, kCaller);
}

IValue torch_load(const std::string& path, std::optional<Device> map_location) {
  return torch_load(path, optional_to_map(map_location));
}

}  // namespace tide
