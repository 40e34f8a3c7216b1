// The shape family's composite ops (src/ops/ops.yaml, `autograd: composite`): flip, roll,
// rot90, repeat and tile, repeat_interleave, movedim, unflatten, unbind, tensor_split,
// broadcasting and the stacks. Each is made of table ops (index_select, cat, views, expand,
// reshape) that record themselves, so every one has autograd on every device without a
// derivative or kernel of its own. flip and roll copy, as torch's do; the others return views
// where torch does.

#include <algorithm>
#include <vector>

#include "ops/index_numbers.h"
#include "ops/op_common.h"
#include "ops/plain_front_ends.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace tide::detail {
namespace {

/// dims wrapped into [0, ndim), each at most once (torch's dim_list_to_bitset).
std::vector<int64_t> distinct_dims(const std::vector<int64_t>& dims, int64_t ndim,
                                   const char* where) {
  std::vector<int64_t> out;
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, ndim, where);
    TIDE_CHECK(std::find(out.begin(), out.end(), w) == out.end(), "[", where, "] dim ", w,
               " appears multiple times in the list of dims; name each dim once");
    out.push_back(w);
  }
  return out;
}

/// n-1, n-2, ..., 0 on t's device: the index that reverses a dim of size n.
Tensor reversed_positions(const Tensor& t, int64_t n) {
  return arange(Scalar(n - 1), Scalar(int64_t{-1}), Scalar(int64_t{-1}),
                tide::device(t.device()).dtype(kInt64));
}

/// The shape of tensors after atleast_{1,2,3}d, as the stacks use them.
std::vector<Tensor> each(const std::vector<Tensor>& tensors, Tensor (*f)(const Tensor&),
                         const char* where) {
  TIDE_CHECK(!tensors.empty(), "[", where, "] ", where, " expects a non-empty TensorList");
  std::vector<Tensor> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.push_back(f(t));
  return out;
}

}  // namespace

Tensor plain_flip(const Tensor& self, const std::vector<int64_t>& dims) {
  check_defined(self, "flip", "self");
  const std::vector<int64_t> ds = distinct_dims(dims, self.dim(), "flip");
  if (ds.empty()) return self.clone();  // flip copies even with no dims, as torch's
  Tensor out = self;
  for (int64_t d : ds) out = out.index_select(d, reversed_positions(self, self.size(d)));
  return out;
}

Tensor plain_fliplr(const Tensor& self) {
  TIDE_CHECK(self.dim() >= 2, "[fliplr] Input must be >= 2-d, found a ", self.dim(),
             "-d tensor; use flip(dims=[0]) for 1-d tensors");
  return plain_flip(self, {1});
}

Tensor plain_flipud(const Tensor& self) {
  TIDE_CHECK(self.dim() >= 1, "[flipud] Input must be >= 1-d, found a 0-d tensor");
  return plain_flip(self, {0});
}

Tensor plain_roll(const Tensor& self, const std::vector<int64_t>& shifts,
                  const std::vector<int64_t>& dims) {
  check_defined(self, "roll", "self");
  TIDE_CHECK(!shifts.empty(), "[roll] `shifts` required; give one shift per dim");
  if (dims.empty()) {
    TIDE_CHECK(shifts.size() == 1, "[roll] shifts and dimensions must align. shifts: ",
               shifts.size(), ", dims: 0; give one shift, or one dim per shift");
    return plain_roll(self.flatten(), shifts, {0}).view(self.sizes());
  }
  TIDE_CHECK(shifts.size() == dims.size(), "[roll] shifts and dimensions must align. shifts: ",
             shifts.size(), ", dims: ", dims.size(), "; give one shift per dim");
  Tensor out = self;
  bool moved = false;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = wrap_dim(dims[i], self.dim(), "roll");
    const int64_t n = self.size(d);
    if (n == 0) continue;
    const int64_t s = ((shifts[i] % n) + n) % n;
    if (s == 0) continue;
    out = tide::cat({out.narrow(d, n - s, s), out.narrow(d, 0, n - s)}, d);
    moved = true;
  }
  return moved ? out : self.clone();  // roll copies even when nothing moves, as torch's
}

Tensor plain_rot90(const Tensor& self, int64_t k, const std::vector<int64_t>& dims) {
  check_defined(self, "rot90", "self");
  TIDE_CHECK(dims.size() == 2, "[rot90] expected total rotation dims == 2, but got dims = ",
             dims.size());
  TIDE_CHECK(self.dim() >= 2, "[rot90] expected total dims >= 2, but got total dims = ",
             self.dim());
  const int64_t d0 = wrap_dim(dims[0], self.dim(), "rot90");
  const int64_t d1 = wrap_dim(dims[1], self.dim(), "rot90");
  TIDE_CHECK(d0 != d1, "[rot90] expected rotation dims to be different, but got dim0 = ", d0,
             " and dim1 = ", d1);
  switch (((k % 4) + 4) % 4) {  // torch's own cases, so the results are alike element for element
    case 1:
      return plain_flip(self, {d1}).transpose(d0, d1);
    case 2:
      return plain_flip(self, {d0, d1});
    case 3:
      return plain_flip(self, {d0}).transpose(d0, d1);
    default:
      return self.clone();
  }
}

Tensor plain_repeat(const Tensor& self, const std::vector<int64_t>& repeats) {
  check_defined(self, "Tensor::repeat", "self");
  const int64_t n = repeats.size();
  TIDE_CHECK(n >= self.dim(), "[Tensor::repeat] Number of dimensions of repeat dims can not be "
             "smaller than number of dimensions of tensor (", n, " and ", self.dim(), ")");
  for (int64_t r : repeats) {
    TIDE_CHECK(r >= 0, "[Tensor::repeat] Trying to create tensor with negative dimension ", r,
               ": ", shape_list(DimVector(repeats)));
  }
  // (s0, s1, ...) viewed as (1, s0, 1, s1, ...), expanded to (r0, s0, r1, s1, ...) and
  // reshaped to (r0 s0, r1 s1, ...): the copies follow each other along every dim.
  std::vector<int64_t> padded(n - self.dim(), 1);
  for (int64_t s : self.sizes()) padded.push_back(s);
  std::vector<int64_t> pairs, expanded, result;
  for (int64_t i = 0; i < n; ++i) {
    pairs.insert(pairs.end(), {1, padded[i]});
    expanded.insert(expanded.end(), {repeats[i], padded[i]});
    result.push_back(repeats[i] * padded[i]);
  }
  return self.reshape(pairs).expand(expanded).contiguous().view(result);
}

Tensor plain_tile(const Tensor& self, const std::vector<int64_t>& dims) {
  std::vector<int64_t> repeats = dims;
  if (static_cast<int64_t>(repeats.size()) < self.dim()) {
    repeats.insert(repeats.begin(), self.dim() - repeats.size(), 1);
  }
  return plain_repeat(self, repeats);
}

Tensor plain_repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim,
                               std::optional<int64_t> output_size) {
  check_defined(self, "repeat_interleave", "self");
  TIDE_CHECK(repeats >= 0, "[repeat_interleave] repeats can not be negative, found ", repeats);
  const Tensor input = dim ? self : self.flatten();
  const int64_t d = dim ? wrap_dim(*dim, input.dim(), "repeat_interleave") : 0;
  TIDE_CHECK(!output_size || *output_size == input.size(d) * repeats, "[repeat_interleave] "
             "output_size ", output_size.value_or(0), " does not match the ", input.size(d) * repeats,
             " elements the repeats give; leave output_size out or correct it");
  std::vector<int64_t> expanded = input.sizes();
  expanded.insert(expanded.begin() + d + 1, repeats);
  return input.unsqueeze(d + 1).expand(expanded).flatten(d, d + 1);
}

Tensor plain_repeat_interleave(const Tensor& self, const Tensor& repeats,
                               std::optional<int64_t> dim, std::optional<int64_t> output_size) {
  check_defined(self, "repeat_interleave", "self");
  check_defined(repeats, "repeat_interleave", "repeats");
  const Tensor input = dim ? self : self.flatten();
  const int64_t d = dim ? wrap_dim(*dim, input.dim(), "repeat_interleave") : 0;
  TIDE_CHECK(repeats.dim() <= 1, "[repeat_interleave] repeats must be 0-dim or 1-dim tensor, "
             "found ", repeats.dim(), " dims");
  if (repeats.numel() == 1) {
    const int64_t r = repeats.to(kCPU).to(kInt64).item().to<int64_t>();
    return plain_repeat_interleave(self, r, dim, output_size);
  }
  TIDE_CHECK(repeats.size(0) == input.size(d), "[repeat_interleave] repeats must have the same "
             "size as input along dim, but got repeats.size(0) = ", repeats.size(0),
             " and input.size(", d, ") = ", input.size(d));
  return input.index_select(d, plain_repeat_interleave(repeats.to(input.device()), output_size));
}

Tensor plain_repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size) {
  check_defined(repeats, "repeat_interleave", "repeats");
  TIDE_CHECK(repeats.dim() == 1, "[repeat_interleave] repeats must be 1-dim, found ",
             repeats.dim(), " dims");
  TIDE_CHECK(repeats.dtype() == kInt64 || repeats.dtype() == kInt32, "[repeat_interleave] "
             "repeats has to be Long or Int tensor, found ", name(repeats.dtype()));
  // The result's length is data: read repeats on the host (torch waits for the device too,
  // unless output_size is given).
  const std::vector<int64_t> counts = repeats.to(kCPU).to(kInt64).tolist<int64_t>();
  std::vector<int64_t> index;
  for (size_t i = 0; i < counts.size(); ++i) {
    TIDE_CHECK(counts[i] >= 0, "[repeat_interleave] repeats can not be negative, found ",
               counts[i], " at position ", i);
    index.insert(index.end(), counts[i], static_cast<int64_t>(i));
  }
  TIDE_CHECK(!output_size || *output_size == static_cast<int64_t>(index.size()),
             "[repeat_interleave] output_size ", output_size.value_or(0), " does not match the ",
             index.size(), " elements the repeats give; leave output_size out or correct it");
  return from_blob(index.data(), {static_cast<int64_t>(index.size())}, dtype(kInt64))
      .clone()
      .to(repeats.device());
}

Tensor plain_movedim(const Tensor& self, const std::vector<int64_t>& source,
                     const std::vector<int64_t>& destination) {
  check_defined(self, "movedim", "self");
  TIDE_CHECK(source.size() == destination.size(), "[movedim] Invalid source or destination dims: "
             "source ", shape_list(DimVector(source)), " dims has ", source.size(),
             " entries while destination ", shape_list(DimVector(destination)), " dims has ",
             destination.size(), " entries");
  const int64_t n = self.dim();
  const std::vector<int64_t> src = distinct_dims(source, n, "movedim");
  const std::vector<int64_t> dst = distinct_dims(destination, n, "movedim");
  std::vector<int64_t> perm(n, -1);
  std::vector<bool> moved(n, false);
  for (size_t i = 0; i < src.size(); ++i) {
    perm[dst[i]] = src[i];
    moved[src[i]] = true;
  }
  int64_t next = 0;  // the dims not moved keep their order in the free places
  for (int64_t& p : perm) {
    if (p != -1) continue;
    while (moved[next]) ++next;
    p = next++;
  }
  return self.permute(perm);
}

Tensor plain_movedim(const Tensor& self, int64_t source, int64_t destination) {
  return plain_movedim(self, std::vector<int64_t>{source}, std::vector<int64_t>{destination});
}

Tensor plain_moveaxis(const Tensor& self, const std::vector<int64_t>& source,
                      const std::vector<int64_t>& destination) {
  return plain_movedim(self, source, destination);
}

Tensor plain_moveaxis(const Tensor& self, int64_t source, int64_t destination) {
  return plain_movedim(self, source, destination);
}

Tensor plain_swapaxes(const Tensor& self, int64_t axis0, int64_t axis1) {
  return self.transpose(axis0, axis1);
}

Tensor plain_swapdims(const Tensor& self, int64_t dim0, int64_t dim1) {
  return self.transpose(dim0, dim1);
}

Tensor plain_unflatten(const Tensor& self, int64_t dim, const std::vector<int64_t>& sizes) {
  check_defined(self, "unflatten", "self");
  const int64_t d = wrap_dim(dim, self.dim(), "unflatten");
  TIDE_CHECK(!sizes.empty(), "[unflatten] sizes must be non-empty");
  int64_t product = 1;
  bool inferred = false;
  for (int64_t s : sizes) {
    if (s == -1) inferred = true;
    else product *= s;
  }
  TIDE_CHECK(inferred || product == self.size(d), "[unflatten] Provided sizes ",
             shape_list(DimVector(sizes)), " don't multiply up to the size of dim ", dim, " (",
             self.size(d), ") in the input tensor");
  std::vector<int64_t> shape = self.sizes();
  shape.erase(shape.begin() + d);
  shape.insert(shape.begin() + d, sizes.begin(), sizes.end());
  return self.view(shape);
}

std::vector<Tensor> plain_unbind(const Tensor& self, int64_t dim) {
  check_defined(self, "unbind", "self");
  TIDE_CHECK(self.dim() > 0, "[unbind] Dimension specified as ", dim,
             " but tensor has no dimensions");
  const int64_t d = wrap_dim(dim, self.dim(), "unbind");
  std::vector<Tensor> out;
  out.reserve(self.size(d));
  for (int64_t i = 0; i < self.size(d); ++i) out.push_back(self.select(d, i));
  return out;
}

std::vector<Tensor> plain_tensor_split(const Tensor& self, int64_t sections, int64_t dim) {
  check_defined(self, "tensor_split", "self");
  TIDE_CHECK(self.dim() > 0, "[tensor_split] tensor_split expected at least a 1-dimensional "
             "tensor, but got a tensor with 0 dims");
  TIDE_CHECK(sections > 0, "[tensor_split] number of sections must be larger than 0, got ",
             sections);
  const int64_t d = wrap_dim(dim, self.dim(), "tensor_split");
  const int64_t n = self.size(d);
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {  // the first n % sections pieces one longer
    const int64_t length = n / sections + (i < n % sections ? 1 : 0);
    out.push_back(self.narrow(d, start, length));
    start += length;
  }
  return out;
}

std::vector<Tensor> plain_tensor_split(const Tensor& self, const std::vector<int64_t>& indices,
                                       int64_t dim) {
  check_defined(self, "tensor_split", "self");
  TIDE_CHECK(self.dim() > 0, "[tensor_split] tensor_split expected at least a 1-dimensional "
             "tensor, but got a tensor with 0 dims");
  const int64_t d = wrap_dim(dim, self.dim(), "tensor_split");
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t end : indices) {  // as Python's slices: clamped, and empty when end < start
    out.push_back(self.slice(d, start, end));
    start = end;
  }
  out.push_back(self.slice(d, start, std::nullopt));
  return out;
}

std::vector<Tensor> plain_split_with_sizes(const Tensor& self,
                                           const std::vector<int64_t>& split_sizes, int64_t dim) {
  return self.split(split_sizes, dim);
}

Tensor plain_broadcast_to(const Tensor& self, const std::vector<int64_t>& size) {
  return self.expand(size);
}

std::vector<Tensor> plain_broadcast_tensors(const std::vector<Tensor>& tensors) {
  if (tensors.empty()) return {};
  DimVector shape = tensors[0].shape();
  for (const Tensor& t : tensors) shape = broadcast_shapes(shape, t.shape(), "broadcast_tensors");
  std::vector<Tensor> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.push_back(t.expand(shape.vec()));
  return out;
}

Tensor plain_ravel(const Tensor& self) { return self.reshape({-1}); }

Tensor plain_atleast_1d(const Tensor& self) {
  return self.dim() == 0 ? self.reshape({1}) : self;
}

Tensor plain_atleast_2d(const Tensor& self) {
  if (self.dim() == 0) return self.reshape({1, 1});
  return self.dim() == 1 ? self.unsqueeze(0) : self;
}

Tensor plain_atleast_3d(const Tensor& self) {
  switch (self.dim()) {
    case 0:
      return self.reshape({1, 1, 1});
    case 1:
      return self.unsqueeze(0).unsqueeze(-1);
    case 2:
      return self.unsqueeze(-1);
    default:
      return self;
  }
}

Tensor plain_hstack(const std::vector<Tensor>& tensors) {
  const std::vector<Tensor> parts = each(tensors, tide::atleast_1d, "hstack");
  return tide::cat(parts, parts[0].dim() == 1 ? 0 : 1);
}

Tensor plain_vstack(const std::vector<Tensor>& tensors) {
  return tide::cat(each(tensors, tide::atleast_2d, "vstack"), 0);
}

Tensor plain_row_stack(const std::vector<Tensor>& tensors) { return plain_vstack(tensors); }

Tensor plain_dstack(const std::vector<Tensor>& tensors) {
  return tide::cat(each(tensors, tide::atleast_3d, "dstack"), 2);
}

Tensor plain_column_stack(const std::vector<Tensor>& tensors) {
  const auto column = [](const Tensor& t) { return t.dim() <= 1 ? t.reshape({t.numel(), 1}) : t; };
  TIDE_CHECK(!tensors.empty(), "[column_stack] column_stack expects a non-empty TensorList");
  std::vector<Tensor> parts;
  for (const Tensor& t : tensors) parts.push_back(column(t));
  return tide::cat(parts, 1);
}

}  // namespace tide::detail
