// View and reshape ops with fuzzed arguments. The input builds a small base tensor whose
// elements are their own row-major positions (contiguous, through empty_strided with fuzzed
// strides, or a float leaf that requires grad, so autograd's traced views run too), then
// applies a sequence of ops with fuzzed dims, sizes, starts and steps. A dense model — a
// shape and the row-major list of element ids, transformed by each op's definition in torch
// terms, with no strides — decides independently whether each op is valid. Every op must
// either raise tide::Error where the model says the arguments are invalid, or give a tensor
// of the model's shape whose elements, read through its strides and through contiguous(),
// are the model's. view() may also refuse a valid shape its strides cannot express, but
// never on a contiguous tensor.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <optional>
#include <vector>

#include "fuzz_target.h"
#include "tide/autograd.h"
#include "tide/factories.h"
#include "tide/tensor.h"

namespace tide::fuzz {
namespace {

using Shape = std::vector<int64_t>;
// Exact arithmetic on sizes and strides that may overflow int64.
__extension__ typedef __int128 Wide;

// Elements the model materializes; an expand past this is checked for shape and bounds only.
constexpr int64_t kMaxModelNumel = int64_t{1} << 14;

// The product of `shape`, or nullopt if it overflows int64 (a zero size makes it 0).
std::optional<int64_t> numel_of(const Shape& shape) {
  Wide n = 1;
  bool zero = false;
  for (int64_t s : shape) {
    zero |= s == 0;
    if (!zero) n *= s;
    if (n > INT64_MAX) n = Wide{INT64_MAX} + 1;  // saturate: it stays too big
  }
  if (zero) return 0;
  if (n > INT64_MAX) return std::nullopt;
  return static_cast<int64_t>(n);
}

std::string str(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// torch's dim wrapping: a 0-dim tensor accepts dims -1 and 0.
std::optional<int64_t> wrap(int64_t dim, int64_t ndim) {
  const int64_t n = std::max<int64_t>(ndim, 1);
  if (dim < -n || dim >= n) return std::nullopt;
  return dim < 0 ? dim + n : dim;
}

struct Model {
  Shape shape;
  std::vector<int64_t> values;  // row-major; empty when the numel is above kMaxModelNumel
  bool materialized = true;
};

// A model of `shape` whose element at each index is the old model's element at
// old_index(index) (a multi-index of the old shape).
template <class F>
Model gather(const Model& m, Shape shape, F old_index) {
  Model out;
  out.shape = std::move(shape);
  const int64_t n = *numel_of(out.shape);
  if (n > kMaxModelNumel || !m.materialized) {
    out.materialized = false;
    return out;
  }
  out.values.resize(static_cast<size_t>(n));
  Shape index(out.shape.size(), 0);
  for (int64_t flat = 0; flat < n; ++flat) {
    const Shape old = old_index(index);
    int64_t old_flat = 0;
    for (size_t d = 0; d < old.size(); ++d) old_flat = old_flat * m.shape[d] + old[d];
    out.values[static_cast<size_t>(flat)] = m.values[static_cast<size_t>(old_flat)];
    for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < out.shape[static_cast<size_t>(d)]) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
  return out;
}

// Same elements in the same row-major order, another shape (view, reshape, flatten, squeeze).
Model reshaped(const Model& m, Shape shape) {
  Model out = m;
  out.shape = std::move(shape);
  return out;
}

// What torch's infer_size makes of `shape` for `numel` elements, or nullopt if invalid.
std::optional<Shape> infer_shape(Shape shape, int64_t numel) {
  std::optional<size_t> infer;
  Shape known_sizes;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer) return std::nullopt;
      infer = i;
    } else if (shape[i] < 0) {
      return std::nullopt;
    } else {
      known_sizes.push_back(shape[i]);
    }
  }
  const std::optional<int64_t> known = numel_of(known_sizes);
  if (!known) return std::nullopt;
  if (infer) {
    if (*known == 0 || numel % *known != 0) return std::nullopt;
    shape[*infer] = numel / *known;
  } else if (*known != numel) {
    return std::nullopt;
  }
  return shape;
}

// Fails unless every element of `t` (sizes, strides and offset) lies inside its storage.
void check_bounds(const Tensor& t, const std::string& what) {
  if (t.numel() == 0) return;
  const int64_t storage_numel = static_cast<int64_t>(t.storage().nbytes() / t.element_size());
  Wide lo = t.storage_offset(), hi = t.storage_offset();
  for (int64_t d = 0; d < t.dim(); ++d) {
    const Wide reach = static_cast<Wide>(t.size(d) - 1) * t.stride(d);
    (reach < 0 ? lo : hi) += reach;
  }
  if (lo < 0 || hi >= storage_numel)
    fail(what, " reaches storage elements outside its storage of ", storage_numel, " (sizes ",
         str(t.sizes()), ", strides ", str(t.strides()), ", offset ", t.storage_offset(), ")");
}

// The elements of `t` in row-major order, read through its own sizes,
// strides and offset, after checking that they all lie inside its storage.
template <class T>
std::vector<int64_t> read_through_strides(const Tensor& t, const std::string& what) {
  const int64_t n = t.numel();
  std::vector<int64_t> out;
  if (n == 0) return out;
  check_bounds(t, what);
  const T* base = static_cast<const T*>(t.storage().data());
  Shape index(static_cast<size_t>(t.dim()), 0);
  out.reserve(static_cast<size_t>(n));
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t pos = t.storage_offset();
    for (int64_t d = 0; d < t.dim(); ++d) pos += index[static_cast<size_t>(d)] * t.stride(d);
    out.push_back(static_cast<int64_t>(base[pos]));
    for (int64_t d = t.dim() - 1; d >= 0; --d) {
      if (++index[static_cast<size_t>(d)] < t.size(d)) break;
      index[static_cast<size_t>(d)] = 0;
    }
  }
  return out;
}

template <class T>
std::vector<int64_t> read_contiguous(const Tensor& t) {
  const Tensor c = t.contiguous();
  const T* p = c.data_ptr<T>();
  return std::vector<int64_t>(p, p + c.numel());
}

// Whether the tensor agrees with the model; for a model too large to hold, shape and bounds.
void check(const Tensor& t, const Model& m, const std::string& what) {
  if (t.sizes() != m.shape) fail(what, " has sizes ", str(t.sizes()), ", expected ", str(m.shape));
  if (t.numel() != *numel_of(m.shape)) fail(what, " has numel ", t.numel());
  const bool is_float = t.dtype() == kFloat32;
  if (!m.materialized) {
    check_bounds(t, what);  // reading 2^14+ elements of an expanded tensor would take too long
    return;
  }
  const std::vector<int64_t> strided =
      is_float ? read_through_strides<float>(t, what) : read_through_strides<int64_t>(t, what);
  if (strided != m.values) fail(what, " reads other elements through its strides than the model");
  const std::vector<int64_t> dense = is_float ? read_contiguous<float>(t) : read_contiguous<int64_t>(t);
  if (dense != m.values) fail(what, " reads other elements through contiguous() than the model");
}

// Sizes or dims from the input: up to 5 values, mostly small.
Shape int_list(Input& in) {
  Shape out(in.byte() % 6);
  for (int64_t& v : out) v = in.small_or_edge();
  return out;
}

// Strides that never make two elements share memory (torch's copy_ refuses such targets).
bool non_overlapping(const Shape& sizes, const Shape& strides) {
  std::vector<size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return strides[a] < strides[b]; });
  Wide reach = 1;
  for (size_t d : order) {
    if (sizes[d] <= 1) continue;
    if (strides[d] < reach) return false;
    reach = static_cast<Wide>(strides[d]) * sizes[d];
  }
  return true;
}

enum class Base { Contiguous, Strided, RequiresGrad };

// The base tensor and its model; nullopt when the input's strides are refused (checked).
std::optional<std::pair<Tensor, Model>> make_base(Input& in) {
  const uint8_t mode = in.byte();
  const Base kind = mode % 3 == 0 ? Base::Contiguous : mode % 3 == 1 ? Base::Strided : Base::RequiresGrad;
  Shape sizes(mode / 3 % 5);
  for (int64_t& s : sizes) s = in.byte() % 6;
  const int64_t n = *numel_of(sizes);
  Model model;
  model.shape = sizes;
  model.values.resize(static_cast<size_t>(n));
  std::iota(model.values.begin(), model.values.end(), 0);
  const Dtype dtype = kind == Base::RequiresGrad ? kFloat32 : kInt64;
  const Tensor ids = arange(n, TensorOptions().dtype(dtype)).reshape(sizes);
  if (kind == Base::Contiguous) return std::pair{ids, model};
  if (kind == Base::RequiresGrad) return std::pair{ids.clone().requires_grad_(), model};

  Shape strides(sizes.size());
  for (int64_t& s : strides) s = in.small_or_edge();
  bool valid = std::all_of(strides.begin(), strides.end(), [](int64_t s) { return s >= 0; });
  Wide extent = 0;  // elements: 1 + sum((size - 1) * stride), 0 without elements
  if (valid && n > 0) {
    extent = 1;
    for (size_t d = 0; d < sizes.size(); ++d) extent += static_cast<Wide>(sizes[d] - 1) * strides[d];
    valid = extent * 8 <= INT64_MAX;  // its bytes fit in int64
  }
  // A valid extent past 2^20 elements would really be allocated: not this target's business.
  if (valid && extent > (1 << 20)) return std::nullopt;
  Tensor t;
  const bool made = accepted([&] { t = empty_strided(sizes, strides, TensorOptions().dtype(kInt64)); });
  if (made != valid)
    fail("empty_strided(", str(sizes), ", ", str(strides), ") ", made ? "was accepted" : "was refused");
  if (!made) return std::nullopt;
  if (t.sizes() != sizes || t.strides() != strides)
    fail("empty_strided(", str(sizes), ", ", str(strides), ") has sizes ", str(t.sizes()),
         " and strides ", str(t.strides()));
  if (!non_overlapping(sizes, strides)) {
    check_bounds(t, "empty_strided");
    return std::nullopt;
  }
  t.copy_(ids);
  return std::pair{t, model};
}

// One op on (t, m). Returns false once the sequence should stop (the model can no longer
// follow: the op was refused, or the result is too large to materialize).
bool apply_op(Input& in, Tensor& t, Model& m) {
  const int64_t nd = static_cast<int64_t>(m.shape.size());
  const auto size_at = [&](int64_t d) { return m.shape[static_cast<size_t>(d)]; };
  std::optional<Model> next;  // the model's result; nullopt: the arguments are invalid
  std::function<Tensor()> op;
  std::string what;
  bool may_refuse = false;  // view(): a valid shape its strides cannot express

  switch (in.byte() % 15) {
    case 0:
    case 1: {
      const bool is_view = in.byte() % 2 == 0;
      Shape shape = int_list(in);
      what = (is_view ? "view(" : "reshape(") + str(shape) + ")";
      if (auto s = infer_shape(shape, *numel_of(m.shape))) next = reshaped(m, *s);
      op = [&t, shape, is_view] { return is_view ? t.view(shape) : t.reshape(shape); };
      may_refuse = is_view && !t.is_contiguous();
      break;
    }
    case 2: {
      const int64_t dim = in.small_or_edge(), start = in.small_or_edge(), length = in.small_or_edge();
      what = "narrow(" + std::to_string(dim) + ", " + std::to_string(start) + ", " + std::to_string(length) + ")";
      if (auto d = wrap(dim, nd); d && nd > 0) {
        const int64_t n = size_at(*d);
        if (start >= -n && start <= n) {
          const int64_t b = start < 0 ? start + n : start;
          if (length >= 0 && length <= n - b) {
            Shape shape = m.shape;
            shape[*d] = length;
            next = gather(m, shape, [&](Shape i) { i[*d] += b; return i; });
          }
        }
      }
      op = [&t, dim, start, length] { return t.narrow(dim, start, length); };
      break;
    }
    case 3: {
      const int64_t dim = in.small_or_edge(), index = in.small_or_edge();
      what = "select(" + std::to_string(dim) + ", " + std::to_string(index) + ")";
      if (auto d = wrap(dim, nd); d && nd > 0) {
        const int64_t n = size_at(*d);
        if (index >= -n && index < n) {
          const int64_t i0 = index < 0 ? index + n : index;
          Shape shape = m.shape;
          shape.erase(shape.begin() + *d);
          next = gather(m, shape, [&](Shape i) { i.insert(i.begin() + *d, i0); return i; });
        }
      }
      op = [&t, dim, index] { return t.select(dim, index); };
      break;
    }
    case 4: {
      const int64_t a = in.small_or_edge(), b = in.small_or_edge();
      what = "transpose(" + std::to_string(a) + ", " + std::to_string(b) + ")";
      const auto da = wrap(a, nd), db = wrap(b, nd);
      if (da && db) {
        if (nd == 0) {
          next = m;
        } else {
          Shape shape = m.shape;
          std::swap(shape[*da], shape[*db]);
          next = gather(m, shape, [&](Shape i) { std::swap(i[*da], i[*db]); return i; });
        }
      }
      op = [&t, a, b] { return t.transpose(a, b); };
      break;
    }
    case 5: {
      const int64_t dim = in.small_or_edge();
      what = "unsqueeze(" + std::to_string(dim) + ")";
      if (auto d = wrap(dim, nd + 1)) {
        Shape shape = m.shape;
        shape.insert(shape.begin() + *d, 1);
        next = reshaped(m, shape);
      }
      op = [&t, dim] { return t.unsqueeze(dim); };
      break;
    }
    case 6: {
      what = "squeeze()";
      Shape shape;
      for (int64_t s : m.shape) {
        if (s != 1) shape.push_back(s);
      }
      next = reshaped(m, shape);
      op = [&t] { return t.squeeze(); };
      break;
    }
    case 7: {
      const int64_t dim = in.small_or_edge();
      what = "squeeze(" + std::to_string(dim) + ")";
      if (auto d = wrap(dim, nd)) {
        Shape shape = m.shape;
        if (nd > 0 && shape[*d] == 1) shape.erase(shape.begin() + *d);
        next = reshaped(m, shape);
      }
      op = [&t, dim] { return t.squeeze(dim); };
      break;
    }
    case 8: {
      const Shape target = int_list(in);
      what = "expand(" + str(target) + ")";
      const int64_t lead = static_cast<int64_t>(target.size()) - nd;
      bool valid = lead >= 0;
      Shape shape = target;
      for (int64_t i = 0; valid && i < static_cast<int64_t>(target.size()); ++i) {
        if (i < lead) {
          valid = target[i] >= 0;
          continue;
        }
        const int64_t have = size_at(i - lead);
        if (shape[i] == -1) shape[i] = have;
        valid = shape[i] >= 0 && (shape[i] == have || have == 1);
      }
      if (valid && numel_of(shape)) {
        next = gather(m, shape, [&](const Shape& i) {
          Shape old(static_cast<size_t>(nd));
          for (int64_t d = 0; d < nd; ++d) old[d] = size_at(d) == 1 ? 0 : i[d + lead];
          return old;
        });
      }
      op = [&t, target] { return t.expand(target); };
      break;
    }
    case 9: {
      const Shape dims = int_list(in);
      what = "permute(" + str(dims) + ")";
      bool valid = static_cast<int64_t>(dims.size()) == nd;
      Shape wrapped;
      for (int64_t d : dims) {
        const auto w = wrap(d, nd);
        valid = valid && w && std::find(wrapped.begin(), wrapped.end(), *w) == wrapped.end();
        if (w) wrapped.push_back(*w);
      }
      if (valid) {
        Shape shape(static_cast<size_t>(nd));
        for (int64_t i = 0; i < nd; ++i) shape[i] = size_at(wrapped[i]);
        next = gather(m, shape, [&](const Shape& i) {
          Shape old(static_cast<size_t>(nd));
          for (int64_t k = 0; k < nd; ++k) old[wrapped[k]] = i[k];
          return old;
        });
      }
      op = [&t, dims] { return t.permute(dims); };
      break;
    }
    case 10: {
      const uint8_t present = in.byte();
      const int64_t dim = in.small_or_edge();
      const std::optional<int64_t> start = present & 1 ? std::optional(in.small_or_edge()) : std::nullopt;
      const std::optional<int64_t> stop = present & 2 ? std::optional(in.small_or_edge()) : std::nullopt;
      const int64_t step = present & 4 ? in.small_or_edge() : 1;
      what = "slice(" + std::to_string(dim) + ", " + (start ? std::to_string(*start) : "None") + ", " +
             (stop ? std::to_string(*stop) : "None") + ", " + std::to_string(step) + ")";
      if (auto d = wrap(dim, nd); d && nd > 0 && step > 0) {
        const int64_t n = size_at(*d);
        const auto clamp = [n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); };
        const int64_t b = start ? clamp(*start) : 0;
        const int64_t e = std::max(b, stop ? clamp(*stop) : n);
        Shape shape = m.shape;
        shape[*d] = e == b ? 0 : 1 + (e - b - 1) / step;
        next = gather(m, shape, [&](Shape i) { i[*d] = b + i[*d] * step; return i; });
      }
      op = [&t, dim, start, stop, step] { return t.slice(dim, start, stop, step); };
      break;
    }
    case 11: {
      const int64_t s = in.small_or_edge(), e = in.small_or_edge();
      what = "flatten(" + std::to_string(s) + ", " + std::to_string(e) + ")";
      const auto ws = wrap(s, nd), we = wrap(e, nd);
      if (ws && we && *ws <= *we) {
        // The flattened size must fit in int64 (only an empty tensor's dims can overflow).
        const auto flat = nd == 0 ? std::optional<int64_t>(1)
                                  : numel_of(Shape(m.shape.begin() + *ws, m.shape.begin() + *we + 1));
        if (flat && nd == 0) {
          next = reshaped(m, {1});
        } else if (flat) {
          Shape shape(m.shape.begin(), m.shape.begin() + *ws);
          shape.push_back(*flat);
          shape.insert(shape.end(), m.shape.begin() + *we + 1, m.shape.end());
          next = reshaped(m, shape);
        }
      }
      op = [&t, s, e] { return t.flatten(s, e); };
      break;
    }
    case 12: {
      const int64_t split_size = in.small_or_edge(), dim = in.small_or_edge();
      const uint8_t pick = in.byte();
      what = "split(" + std::to_string(split_size) + ", " + std::to_string(dim) + ")[" + std::to_string(pick) + " % pieces]";
      if (auto d = wrap(dim, nd); d && nd > 0) {
        const int64_t n = size_at(*d);
        if (split_size > 0 || (split_size == 0 && n == 0)) {
          const int64_t pieces = n == 0 ? 1 : 1 + (n - 1) / split_size;
          // One tensor per piece, as torch: a dim of an empty tensor can be too long for that.
          if (pieces > kMaxModelNumel) return false;
          const int64_t k = pick % pieces;
          const int64_t b = n == 0 ? 0 : k * split_size;
          Shape shape = m.shape;
          shape[*d] = n == 0 ? 0 : std::min(split_size, n - b);
          next = gather(m, shape, [&](Shape i) { i[*d] += b; return i; });
        }
      }
      op = [&t, split_size, dim, pick] {
        const std::vector<Tensor> pieces = t.split(split_size, dim);
        return pieces.at(pick % pieces.size());
      };
      break;
    }
    case 13: {
      const Shape split_sizes = int_list(in);
      const int64_t dim = in.small_or_edge();
      const uint8_t pick = in.byte();
      what = "split(" + str(split_sizes) + ", " + std::to_string(dim) + ")[" + std::to_string(pick) + " % pieces]";
      if (split_sizes.empty()) {  // no pieces: valid only for a dim of size 0
        const auto d = wrap(dim, nd);
        const bool valid = d && nd > 0 && size_at(*d) == 0;
        std::vector<Tensor> pieces;
        const bool made = accepted([&] { pieces = t.split(split_sizes, dim); });
        if (made != valid || !pieces.empty()) fail(what, made ? " was accepted" : " was refused");
        return true;
      }
      Wide total = 0;
      bool valid = true;
      for (int64_t len : split_sizes) {
        valid = valid && len >= 0;
        total += len;
      }
      if (auto d = wrap(dim, nd); d && nd > 0 && valid && total == size_at(*d)) {
        const size_t k = pick % split_sizes.size();
        int64_t b = 0;
        for (size_t i = 0; i < k; ++i) b += split_sizes[i];
        Shape shape = m.shape;
        shape[*d] = split_sizes[k];
        next = gather(m, shape, [&](Shape i) { i[*d] += b; return i; });
      }
      op = [&t, split_sizes, dim, pick] {
        const std::vector<Tensor> pieces = t.split(split_sizes, dim);
        return pieces.at(pick % pieces.size());
      };
      break;
    }
    default: {
      const int64_t chunks = in.small_or_edge(), dim = in.small_or_edge();
      const uint8_t pick = in.byte();
      what = "chunk(" + std::to_string(chunks) + ", " + std::to_string(dim) + ")[" + std::to_string(pick) + " % pieces]";
      const auto d = wrap(dim, nd);
      if (d && nd > 0 && chunks > 0 && size_at(*d) == 0 && chunks > kMaxModelNumel) {
        return false;  // `chunks` empty tensors, as torch: as many as asked, too many to make
      }
      if (d && nd > 0 && chunks > 0) {
        const int64_t n = size_at(*d);
        const int64_t split_size = n == 0 ? 0 : 1 + (n - 1) / chunks;  // ceil(n / chunks)
        const int64_t pieces = n == 0 ? chunks : 1 + (n - 1) / split_size;
        if (pieces > kMaxModelNumel) return false;  // a long dim of an empty tensor, as in split
        const int64_t k = pick % pieces;
        const int64_t b = k * split_size;
        Shape shape = m.shape;
        shape[*d] = n == 0 ? 0 : std::min(split_size, n - b);
        next = gather(m, shape, [&](Shape i) { i[*d] += b; return i; });
      }
      op = [&t, chunks, dim, pick] {
        const std::vector<Tensor> pieces = t.chunk(chunks, dim);
        return pieces.at(pick % pieces.size());
      };
      break;
    }
  }

  what = "Tensor of sizes " + str(t.sizes()) + " and strides " + str(t.strides()) + ", ." + what;
  static const bool trace = std::getenv("TIDE_FUZZ_TRACE") != nullptr;  // to read a crash input
  if (trace) std::fprintf(stderr, "views: %s\n", what.c_str());
  Tensor result;
  const bool made = accepted([&] { result = op(); });
  if (made && !next) fail(what, " was accepted; torch refuses it");
  if (!made && next && !may_refuse) fail(what, " was refused; torch accepts it");
  if (!made) return false;
  check(result, *next, what);
  t = result;
  m = std::move(*next);
  return m.materialized;
}

}  // namespace

void views(const uint8_t* data, size_t size) {
  Input in(data, size);
  auto base = make_base(in);
  if (!base) return;
  auto& [t, m] = *base;
  check(t, m, "the base tensor");
  for (int ops = 0; ops < 16 && !in.empty(); ++ops) {
    if (!apply_op(in, t, m)) return;
  }
}

}  // namespace tide::fuzz
