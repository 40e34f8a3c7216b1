#pragma once
// DimVector: sizes or strides of a tensor. Inline storage for the common ranks, so making a
// tensor does not allocate for its shape (keeps the per-op path cheap, STYLE.md habit 14).

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace tide {

class DimVector {
 public:
  static constexpr int64_t kInline = 6;

  DimVector() = default;
  explicit DimVector(int64_t n, int64_t value = 0) { assign(n, value); }
  DimVector(std::initializer_list<int64_t> v) { assign(v.begin(), v.end()); }
  DimVector(const std::vector<int64_t>& v) { assign(v.data(), v.data() + v.size()); }
  DimVector(const int64_t* b, const int64_t* e) { assign(b, e); }
  DimVector(const DimVector& o) { assign(o.begin(), o.end()); }
  DimVector(DimVector&& o) noexcept { steal(o); }
  DimVector& operator=(const DimVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  DimVector& operator=(DimVector&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  ~DimVector() { release(); }

  int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int64_t* data() { return heap_ ? heap_ : inline_; }
  const int64_t* data() const { return heap_ ? heap_ : inline_; }
  int64_t* begin() { return data(); }
  int64_t* end() { return data() + size_; }
  const int64_t* begin() const { return data(); }
  const int64_t* end() const { return data() + size_; }
  int64_t& operator[](int64_t i) { return data()[i]; }
  int64_t operator[](int64_t i) const { return data()[i]; }
  int64_t back() const { return data()[size_ - 1]; }

  void resize(int64_t n, int64_t value = 0) {
    reserve(n);
    for (int64_t i = size_; i < n; ++i) data()[i] = value;
    size_ = n;
  }
  void push_back(int64_t v) {
    reserve(size_ + 1);
    data()[size_++] = v;
  }
  void insert(int64_t pos, int64_t v) {
    reserve(size_ + 1);
    int64_t* d = data();
    std::memmove(d + pos + 1, d + pos, static_cast<size_t>(size_ - pos) * sizeof(int64_t));
    d[pos] = v;
    ++size_;
  }
  void erase(int64_t pos) {
    int64_t* d = data();
    std::memmove(d + pos, d + pos + 1, static_cast<size_t>(size_ - pos - 1) * sizeof(int64_t));
    --size_;
  }
  std::vector<int64_t> vec() const { return std::vector<int64_t>(begin(), end()); }

  bool operator==(const DimVector& o) const {
    return size_ == o.size_ && std::equal(begin(), end(), o.begin());
  }
  bool operator!=(const DimVector& o) const { return !(*this == o); }

 private:
  void reserve(int64_t n) {
    if (n <= capacity_) return;
    int64_t cap = std::max<int64_t>(n, capacity_ * 2);
    auto* fresh = new int64_t[static_cast<size_t>(cap)];
    std::memcpy(fresh, data(), static_cast<size_t>(size_) * sizeof(int64_t));
    delete[] heap_;
    heap_ = fresh;
    capacity_ = cap;
  }
  template <class It>
  void assign(It b, It e) {
    size_ = 0;
    reserve(static_cast<int64_t>(e - b));
    std::copy(b, e, data());
    size_ = static_cast<int64_t>(e - b);
  }
  void assign(int64_t n, int64_t value) {
    size_ = 0;
    reserve(n);
    std::fill(data(), data() + n, value);
    size_ = n;
  }
  void steal(DimVector& o) {
    size_ = o.size_;
    capacity_ = o.capacity_;
    heap_ = o.heap_;
    if (!heap_) std::memcpy(inline_, o.inline_, sizeof(inline_));
    o.heap_ = nullptr;
    o.size_ = 0;
    o.capacity_ = kInline;
  }
  void release() {
    delete[] heap_;
    heap_ = nullptr;
    capacity_ = kInline;
  }

  int64_t size_ = 0;
  int64_t capacity_ = kInline;
  int64_t* heap_ = nullptr;
  int64_t inline_[kInline] = {};
};

}  // namespace tide
