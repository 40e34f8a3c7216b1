#pragma once
// Small MNIST-style IDX files that the tests write themselves (plain or gzip), well-formed or
// broken in one chosen way, in a fresh directory per test.

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace tide::test {

/// The bytes of an IDX file of unsigned bytes: magic 0x0000 08 <dims>, big-endian sizes, values.
inline std::vector<uint8_t> idx_bytes(const std::vector<uint32_t>& dims,
                                      const std::vector<uint8_t>& values) {
  std::vector<uint8_t> out = {0, 0, 0x08, static_cast<uint8_t>(dims.size())};
  for (uint32_t d : dims) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(d >> shift));
  }
  out.insert(out.end(), values.begin(), values.end());
  return out;
}

/// Pixel j of image i: distinct enough that a misplaced pixel shows.
inline uint8_t pixel(size_t i, size_t j) { return static_cast<uint8_t>((i * 31 + j * 7) % 256); }

/// n 28x28 images as IDX bytes.
inline std::vector<uint8_t> image_file(uint32_t n, uint32_t rows = 28, uint32_t cols = 28) {
  std::vector<uint8_t> values(static_cast<size_t>(n) * rows * cols);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < static_cast<size_t>(rows) * cols; ++j) values[i * rows * cols + j] = pixel(i, j);
  }
  return idx_bytes({n, rows, cols}, values);
}

/// n labels (i % 10) as IDX bytes.
inline std::vector<uint8_t> label_file(uint32_t n) {
  std::vector<uint8_t> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = static_cast<uint8_t>(i % 10);
  return idx_bytes({n}, values);
}

inline void write_plain(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(f.good()) << "cannot write " << path;
}

inline void write_gzip(const std::string& path, const std::vector<uint8_t>& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << "cannot write " << path;
  ASSERT_EQ(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())),
            static_cast<int>(bytes.size()));
  ASSERT_EQ(gzclose(f), Z_OK);
}

inline std::vector<uint8_t> read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

/// A fresh empty directory named after the running test, removed at destruction.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::path(::testing::TempDir()) /
            ("tide_data_" + std::to_string(getpid()) + "_" + info->test_suite_name() + "_" +
             info->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string str() const { return path_.string(); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace tide::test
