#pragma once
// torch.save's own file format, so a checkpoint moves between tide and PyTorch: a zip archive
// (stored, not compressed) holding <top>/data.pkl (a pickle of the value, protocol 2),
// <top>/data/<key> (one record per storage, raw little-endian bytes), <top>/byteorder and
// <top>/version. These are libtorch's torch::pickle_save/pickle_load: what they write, Python's
// torch.load reads, and what torch.save writes, they read. tide::save/tide::load stay
// safetensors (include/tide/serialize.h).
//
// Only tensors and plain values are read back: the reader rebuilds tensors, lists, tuples,
// dicts and OrderedDicts and refuses every other Python global (Note [Pickle allow list] in
// src/serialize/pickle_reader.h), so loading a file runs no code from it.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tide/device.h"
#include "tide/ivalue.h"

namespace tide {

/// Where a loaded storage goes, given the location it was saved from ("cpu", "cuda:1"):
/// torch.load's map_location. A string, a Device and a dict of locations are spelled with
/// map_location_to and map_location_from below.
using MapLocation = std::function<Device(const std::string& saved_location)>;

/// Every storage onto `device`, whatever its saved location (map_location="cuda:0").
MapLocation map_location_to(Device device);
/// Saved locations renamed by `renames` ({"cuda:1": "cpu"}), others kept.
MapLocation map_location_from(std::vector<std::pair<std::string, std::string>> renames);

/// The archive's bytes, as torch.save writes into a buffer (top folder "archive").
std::vector<char> pickle_save(const IValue& value);
/// Reads what pickle_save or torch.save wrote. Storages land where they were saved (the
/// location's device must exist) unless `map_location` says otherwise. Views of one storage
/// stay views of one storage. A corrupt archive or pickle raises tide::Error.
IValue pickle_load(std::string_view bytes, const MapLocation& map_location = {});
IValue pickle_load(std::string_view bytes, std::optional<Device> map_location);

/// Writes `value` to `path` in torch.save's format; the top folder is named after the file's
/// stem ("model/" for "model.pth"), as torch names it.
void torch_save(const IValue& value, const std::string& path);
/// Reads a file written by torch_save or torch.save (torch >= 1.6), any top folder name.
IValue torch_load(const std::string& path, const MapLocation& map_location = {});
IValue torch_load(const std::string& path, std::optional<Device> map_location);

}  // namespace tide
