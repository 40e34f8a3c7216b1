#include "fuzz_target.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace tide::fuzz {

int64_t Input::small_or_edge() {
  static constexpr int64_t kEdges[] = {INT64_MIN, INT64_MIN + 1, -(int64_t{1} << 32), -1000, 1000,
                                       int64_t{1} << 31, int64_t{1} << 32, int64_t{1} << 62,
                                       INT64_MAX - 1, INT64_MAX};
  const uint8_t b = byte();
  if (b < 224) return static_cast<int64_t>(b % 16) - 4;
  if (b < 240) return kEdges[b % std::size(kEdges)];
  return static_cast<int64_t>(u64());
}

namespace {

// The folder is made on first use and removed when the process exits.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() / ("tide-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

const std::filesystem::path& temp_path() {
  static TempDir dir;
  return dir.path;
}

}  // namespace

std::string temp_dir() { return temp_path().string(); }

std::string write_temp_file(const std::string& name, std::string_view bytes) {
  const std::filesystem::path path = temp_path() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error("fuzz: cannot write " + path.string());
  return path.string();
}

}  // namespace tide::fuzz
