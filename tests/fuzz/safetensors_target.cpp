// tide::load on arbitrary bytes: a safetensors file loads, or tide::Error says what is wrong
// with it. A file that loads holds exactly what tide::save writes back: saving the tensors
// and the metadata again and loading that file gives the same names, dtypes, shapes and bytes.

#include <cstring>
#include <map>

#include "fuzz_target.h"
#include "tide/serialize.h"

namespace tide::fuzz {
namespace {

bool same_tensors(const std::map<std::string, Tensor>& a, const std::map<std::string, Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
    const Tensor& x = ia->second;
    const Tensor& y = ib->second;
    if (ia->first != ib->first || x.dtype() != y.dtype() || x.sizes() != y.sizes()) return false;
    if (!x.is_contiguous() || !y.is_contiguous() || !x.is_cpu() || !y.is_cpu()) return false;
    if (x.nbytes() > 0 && std::memcmp(x.raw_data(), y.raw_data(), x.nbytes()) != 0) return false;
  }
  return true;
}

}  // namespace

void safetensors(const uint8_t* data, size_t size) {
  const std::string path = write_temp_file("input.safetensors",
                                           std::string_view(reinterpret_cast<const char*>(data), size));
  std::map<std::string, Tensor> tensors;
  if (!accepted([&] { tensors = load(path); })) return;
  std::map<std::string, std::string> metadata;
  if (!accepted([&] { metadata = load_metadata(path); }))
    fail("load() read the file but load_metadata() refuses it");
  const std::string again = temp_dir() + "/again.safetensors";
  if (!accepted([&] { save(tensors, again, metadata); }))
    fail("load() read ", tensors.size(), " tensors that save() refuses to write");
  std::map<std::string, Tensor> reloaded;
  if (!accepted([&] { reloaded = load(again); })) fail("a file written by save() does not load");
  if (!same_tensors(tensors, reloaded)) fail("the tensors differ after save() and load()");
  if (load_metadata(again) != metadata) fail("the metadata differs after save() and load()");
}

}  // namespace tide::fuzz
