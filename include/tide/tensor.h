#pragma once
// Tensor: a strided view of a Storage on one device. Cheap to copy (a refcounted handle);
// views share storage. Math ops are declared here as methods and in ops.h as free functions.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "tide/device.h"
#include "tide/dim_vector.h"
#include "tide/dtype.h"
#include "tide/error.h"
#include "tide/generator.h"
#include "tide/memory_format.h"
#include "tide/nested_list.h"
#include "tide/removable_handle.h"
#include "tide/scalar.h"
#include "tide/storage.h"
#include "tide/tensor_options.h"

namespace tide {

namespace cuda {
class Stream;
}
namespace autograd {
struct AutogradMeta;
class Node;
/// Frees an AutogradMeta (defined in src/autograd, where the type is complete).
struct AutogradMetaDeleter {
  void operator()(AutogradMeta* meta) const;
};
}  // namespace autograd

/// A Python-style slice for Tensor::index: Slice(start, stop, step); nullopt ends mean "to the edge".
struct Slice {
  std::optional<int64_t> start, stop;
  int64_t step = 1;
  Slice(std::optional<int64_t> b = std::nullopt, std::optional<int64_t> e = std::nullopt,
        int64_t s = 1)
      : start(b), stop(e), step(s) {}
};

/// One entry of Tensor::index: an integer (selects, removes the dim) or a Slice (narrows).
class TensorIndex {
 public:
  TensorIndex(int64_t i) : integer_(i), is_slice_(false) {}
  TensorIndex(int i) : integer_(i), is_slice_(false) {}
  TensorIndex(Slice s) : slice_(s), is_slice_(true) {}
  bool is_slice() const { return is_slice_; }
  int64_t integer() const { return integer_; }
  const Slice& slice() const { return slice_; }

 private:
  int64_t integer_ = 0;
  Slice slice_;
  bool is_slice_;
};

struct TensorImpl {
  Storage storage;
  DimVector sizes;
  DimVector strides;   // in elements
  int64_t offset = 0;  // in elements
  int64_t numel = 0;
  Dtype dtype = kFloat32;
  bool contiguous = true;
  // Note [Views and in-place ops] in src/autograd/view_history.h, for views only:
  /// Whether grad mode was off when the view was made (torch's CreationMeta::NO_GRAD_MODE).
  bool view_made_without_grad = false;
  /// The storage version when the view's grad_fn was last set, or when the view was made.
  uint32_t view_version = 0;
  /// Null for tensors autograd never saw (Note [Autograd metadata] in
  /// src/autograd/autograd_meta.h): ops check only this pointer, and view_base, on their hot path.
  std::unique_ptr<autograd::AutogradMeta, autograd::AutogradMetaDeleter> autograd;
  /// For a view (made by a view op): the tensor whose storage it shows, itself never a view.
  /// Null for every other tensor, detach()es included. The link goes only view -> base.
  std::shared_ptr<TensorImpl> view_base;

  /// Recomputes numel and contiguity after sizes/strides change.
  void refresh();
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}
  /// A tensor over `storage` with the given geometry.
  Tensor(Storage storage, Dtype dtype, DimVector sizes, DimVector strides, int64_t offset);

  // ---- attributes
  bool defined() const { return impl_ != nullptr; }
  Device device() const;
  Dtype dtype() const { return impl_->dtype; }
  std::vector<int64_t> sizes() const { return impl_->sizes.vec(); }
  std::vector<int64_t> strides() const { return impl_->strides.vec(); }
  /// The sizes without copying (internal use and hot paths).
  const DimVector& shape() const { return impl_->sizes; }
  const DimVector& stride_vector() const { return impl_->strides; }
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  int64_t dim() const { return impl_->sizes.size(); }
  int64_t numel() const { return impl_->numel; }
  int64_t storage_offset() const { return impl_->offset; }
  size_t element_size() const { return tide::element_size(impl_->dtype); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * element_size(); }
  bool is_cuda() const { return device().is_cuda(); }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_pinned() const;
  bool is_contiguous() const { return impl_->contiguous; }
  /// Whether the elements lie densely in `memory_format`'s order (torch's
  /// is_contiguous(memory_format=)); Preserve asks the same as Contiguous.
  bool is_contiguous(MemoryFormat memory_format) const;
  /// ChannelsLast for a 4-d tensor whose strides are ordered as NHWC's (ChannelsLast3d: 5-d,
  /// NDHWC), else Contiguous: torch's suggest_memory_format, what layout-aware ops follow.
  MemoryFormat suggest_memory_format() const;
  /// Whether the elements fill their memory without gaps or overlaps, in some dim order.
  bool is_non_overlapping_and_dense() const;
  bool is_floating_point() const { return tide::is_floating_point(dtype()); }
  /// -1 for cpu, the index for cuda.
  int get_device() const;
  TensorOptions options() const { return TensorOptions().device(device()).dtype(dtype()); }
  const Storage& storage() const { return impl_->storage; }
  TensorImpl* impl() const { return impl_.get(); }
  /// The shared implementation itself (views hold their base's, see TensorImpl::view_base).
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }
  /// How many Tensor handles share this tensor (torch's use_count).
  long use_count() const { return impl_.use_count(); }

  /// Pointer to the first element; T must match dtype().
  template <class T>
  T* data_ptr() const {
    TIDE_CHECK(dtype_v<T> == dtype(), "[Tensor::data_ptr] expected the tensor's dtype ",
               name(dtype_v<T>), " but the tensor is ", name(dtype()),
               "; call data_ptr with the matching C++ type or convert with .to(dtype)");
    return static_cast<T*>(raw_data());
  }
  void* raw_data() const {
    // A tensor without elements may have an offset whose byte count overflows (Note [Views
    // of empty tensors] in src/tensor/views.cpp); its data is never read.
    if (TIDE_UNLIKELY(impl_->numel == 0)) return impl_->storage.data();
    return static_cast<char*>(impl_->storage.data()) +
           impl_->offset * static_cast<int64_t>(element_size());
  }

  // ---- moving between devices and dtypes (copy-like: the only cross-device operations)
  Tensor to(Device device, bool non_blocking = false, bool copy = false) const;
  Tensor to(Dtype dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, Dtype dtype, bool non_blocking = false, bool copy = false) const;
  // @generated begin method-declarations copies (scripts/gen_ops.py from src/ops/ops.yaml)
  Tensor to(const TensorOptions& options, bool non_blocking = false, bool copy = false) const;
  Tensor& copy_(const Tensor& src, bool non_blocking = false);
  Tensor pin_memory() const;
  Tensor clone(std::optional<MemoryFormat> memory_format = std::nullopt) const;
  // @generated end method-declarations copies
  // Note [String devices]: x.to("cuda:0") (the seeds' .to('cuda:0')) would be ambiguous
  // without these two overloads: a string literal converts to Device and to TensorOptions (which
  // takes a device string so that tide::empty({2}, "cuda:1") works), one user-defined conversion
  // each, and neither wins. An exact match for const char* and std::string settles it, also with
  // non_blocking and copy; x.to("cuda:0", kFloat64) already picks to(Device, Dtype). Whoever
  // adds a to(...) taking both Device and TensorOptions (nn::Module) needs the same pair.
  Tensor to(const char* device, bool non_blocking = false, bool copy = false) const {
    return to(Device(device), non_blocking, copy);
  }
  Tensor to(const std::string& device, bool non_blocking = false, bool copy = false) const {
    return to(Device(device), non_blocking, copy);
  }
  Tensor cuda(int index = -1, bool non_blocking = false) const;
  Tensor cuda(Device device, bool non_blocking = false) const;
  Tensor cpu() const;
  /// copy_ on a const handle: it writes the storage, not the handle (torch's in-place methods
  /// are all const).
  const Tensor& copy_(const Tensor& src, bool non_blocking = false) const;
  void record_stream(const cuda::Stream& stream) const;

  // ---- same device and dtype as *this
  Tensor new_empty(std::vector<int64_t> sizes) const;
  Tensor new_zeros(std::vector<int64_t> sizes) const;
  Tensor new_ones(std::vector<int64_t> sizes) const;
  Tensor new_full(std::vector<int64_t> sizes, Scalar value) const;
  /// Dtype AND device of *this, as torch.
  Tensor new_tensor(const NestedList& data) const;

  // ---- in place
  // @generated begin method-declarations fills (scripts/gen_ops.py from src/ops/ops.yaml)
  Tensor& fill_(Scalar value);
  Tensor& fill_(const Tensor& value);
  Tensor& zero_();
  Tensor& normal_(double mean = 0, double std = 1);
  Tensor& uniform_(double from = 0, double to = 1);
  // @generated end method-declarations fills
  // Random draws from a generator (Note [Generators] in tide/generator.h); without one, from
  // the default generator of self's device, as the forms above.
  Tensor& normal_(double mean, double std, std::optional<Generator> generator);
  Tensor& uniform_(double from, double to, std::optional<Generator> generator);
  /// Integers in [from, to); to none: up to the dtype's largest integer (2^digits of the
  /// mantissa for floating dtypes), as torch.
  Tensor& random_(int64_t from, std::optional<int64_t> to,
                  std::optional<Generator> generator = std::nullopt);
  /// Integers in [0, to).
  Tensor& random_(int64_t to, std::optional<Generator> generator = std::nullopt);
  /// Integers in [0, the dtype's largest integer] (2^digits for floating dtypes).
  Tensor& random_(std::optional<Generator> generator = std::nullopt);
  /// 1 with probability p (one for every element, or a tensor broadcast to self), else 0.
  Tensor& bernoulli_(double p = 0.5, std::optional<Generator> generator = std::nullopt);
  Tensor& bernoulli_(const Tensor& p, std::optional<Generator> generator = std::nullopt);
  /// tide::bernoulli and tide::multinomial (tide/sampling.h) as methods.
  Tensor bernoulli(std::optional<Generator> generator = std::nullopt) const;
  Tensor bernoulli(double p, std::optional<Generator> generator = std::nullopt) const;
  Tensor multinomial(int64_t num_samples, bool replacement = false,
                     std::optional<Generator> generator = std::nullopt) const;

  // ---- reading back (synchronizes, like torch)
  template <class T>
  T item() const;
  Scalar item() const;
  template <class T>
  std::vector<T> tolist() const;

  // ---- views (share storage)
  /// view({2, 3}) and view({}) (a 0-dim view): a braced list reads as sizes. Without this
  /// overload `{}` would pick view(Dtype), an identity conversion where the vector needs a
  /// constructor; an initializer_list wins over both.
  Tensor view(std::initializer_list<int64_t> sizes) const {
    return view(std::vector<int64_t>(sizes));
  }
  // @generated begin method-declarations views (scripts/gen_ops.py from src/ops/ops.yaml)
  Tensor view(std::vector<int64_t> sizes) const;
  Tensor view(Dtype dtype) const;
  Tensor reshape(std::vector<int64_t> sizes) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;
  Tensor permute(std::vector<int64_t> dims) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor expand(std::vector<int64_t> sizes) const;
  Tensor expand_as(const Tensor& other) const;
  Tensor contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  Tensor slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> stop,
               int64_t step = 1) const;
  // @generated end method-declarations views
  // Python's indexing: selects and slices (each a view op above).
  Tensor operator[](int64_t index) const;
  Tensor index(std::initializer_list<TensorIndex> indices) const;
  Tensor index(const std::vector<TensorIndex>& indices) const;
  // @generated begin method-declarations shape (scripts/gen_ops.py from src/ops/ops.yaml)
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> split(std::vector<int64_t> split_sizes, int64_t dim = 0) const;
  Tensor index_select(int64_t dim, const Tensor& index) const;
  Tensor flip(std::vector<int64_t> dims) const;
  Tensor fliplr() const;
  Tensor flipud() const;
  Tensor roll(std::vector<int64_t> shifts, std::vector<int64_t> dims = {}) const;
  Tensor rot90(int64_t k = 1, std::vector<int64_t> dims = {0, 1}) const;
  Tensor tile(std::vector<int64_t> dims) const;
  Tensor repeat(std::vector<int64_t> repeats) const;
  Tensor repeat_interleave(int64_t repeats, std::optional<int64_t> dim = std::nullopt,
                           std::optional<int64_t> output_size = std::nullopt) const;
  Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> dim = std::nullopt,
                           std::optional<int64_t> output_size = std::nullopt) const;
  Tensor movedim(std::vector<int64_t> source, std::vector<int64_t> destination) const;
  Tensor movedim(int64_t source, int64_t destination) const;
  Tensor moveaxis(std::vector<int64_t> source, std::vector<int64_t> destination) const;
  Tensor moveaxis(int64_t source, int64_t destination) const;
  Tensor swapaxes(int64_t axis0, int64_t axis1) const;
  Tensor swapdims(int64_t dim0, int64_t dim1) const;
  Tensor unflatten(int64_t dim, std::vector<int64_t> sizes) const;
  std::vector<Tensor> unbind(int64_t dim = 0) const;
  std::vector<Tensor> tensor_split(int64_t sections, int64_t dim = 0) const;
  std::vector<Tensor> tensor_split(std::vector<int64_t> indices, int64_t dim = 0) const;
  std::vector<Tensor> split_with_sizes(std::vector<int64_t> split_sizes, int64_t dim = 0) const;
  Tensor broadcast_to(std::vector<int64_t> size) const;
  Tensor ravel() const;
  Tensor tril(int64_t diagonal = 0) const;
  Tensor triu(int64_t diagonal = 0) const;
  Tensor& tril_(int64_t diagonal = 0);
  Tensor& triu_(int64_t diagonal = 0);
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  Tensor diag_embed(int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1) const;
  Tensor diag(int64_t diagonal = 0) const;
  Tensor diagflat(int64_t offset = 0) const;
  // @generated end method-declarations shape

  // Methods between "@generated" lines come from the op table (src/ops/ops.yaml).
  // ---- elementwise math (broadcasting, torch's type promotion)
  // @generated begin method-declarations elementwise (scripts/gen_ops.py from src/ops/ops.yaml)
  Tensor neg() const;
  Tensor& neg_();
  Tensor negative() const;
  Tensor& negative_();
  Tensor abs() const;
  Tensor& abs_();
  Tensor absolute() const;
  Tensor& absolute_();
  Tensor exp() const;
  Tensor& exp_();
  Tensor log() const;
  Tensor& log_();
  Tensor sqrt() const;
  Tensor& sqrt_();
  Tensor relu() const;
  Tensor& relu_();
  Tensor sigmoid() const;
  Tensor& sigmoid_();
  Tensor tanh() const;
  Tensor& tanh_();
  Tensor sin() const;
  Tensor& sin_();
  Tensor add(const Tensor& other, Scalar alpha = 1) const;
  Tensor add(Scalar other, Scalar alpha = 1) const;
  Tensor sub(const Tensor& other, Scalar alpha = 1) const;
  Tensor subtract(const Tensor& other, Scalar alpha = 1) const;
  Tensor sub(Scalar other, Scalar alpha = 1) const;
  Tensor subtract(Scalar other, Scalar alpha = 1) const;
  Tensor mul(const Tensor& other) const;
  Tensor multiply(const Tensor& other) const;
  Tensor mul(Scalar other) const;
  Tensor multiply(Scalar other) const;
  Tensor div(const Tensor& other) const;
  Tensor divide(const Tensor& other) const;
  Tensor true_divide(const Tensor& other) const;
  Tensor div(Scalar other) const;
  Tensor divide(Scalar other) const;
  Tensor true_divide(Scalar other) const;
  Tensor pow(const Tensor& exponent) const;
  Tensor pow(Scalar exponent) const;
  Tensor maximum(const Tensor& other) const;
  Tensor minimum(const Tensor& other) const;
  Tensor atan2(const Tensor& other) const;
  Tensor& atan2_(const Tensor& other);
  Tensor arctan2(const Tensor& other) const;
  Tensor& arctan2_(const Tensor& other);
  Tensor& add_(const Tensor& other, Scalar alpha = 1);
  Tensor& add_(Scalar other, Scalar alpha = 1);
  Tensor& sub_(const Tensor& other, Scalar alpha = 1);
  Tensor& subtract_(const Tensor& other, Scalar alpha = 1);
  Tensor& sub_(Scalar other, Scalar alpha = 1);
  Tensor& subtract_(Scalar other, Scalar alpha = 1);
  Tensor& mul_(const Tensor& other);
  Tensor& multiply_(const Tensor& other);
  Tensor& mul_(Scalar other);
  Tensor& multiply_(Scalar other);
  Tensor& div_(const Tensor& other);
  Tensor& divide_(const Tensor& other);
  Tensor& true_divide_(const Tensor& other);
  Tensor& div_(Scalar other);
  Tensor& divide_(Scalar other);
  Tensor& true_divide_(Scalar other);
  Tensor eq(const Tensor& other) const;
  Tensor& eq_(const Tensor& other);
  Tensor eq(Scalar other) const;
  Tensor& eq_(Scalar other);
  Tensor ne(const Tensor& other) const;
  Tensor& ne_(const Tensor& other);
  Tensor not_equal(const Tensor& other) const;
  Tensor& not_equal_(const Tensor& other);
  Tensor ne(Scalar other) const;
  Tensor& ne_(Scalar other);
  Tensor not_equal(Scalar other) const;
  Tensor& not_equal_(Scalar other);
  Tensor lt(const Tensor& other) const;
  Tensor& lt_(const Tensor& other);
  Tensor less(const Tensor& other) const;
  Tensor& less_(const Tensor& other);
  Tensor lt(Scalar other) const;
  Tensor& lt_(Scalar other);
  Tensor less(Scalar other) const;
  Tensor& less_(Scalar other);
  Tensor le(const Tensor& other) const;
  Tensor& le_(const Tensor& other);
  Tensor less_equal(const Tensor& other) const;
  Tensor& less_equal_(const Tensor& other);
  Tensor le(Scalar other) const;
  Tensor& le_(Scalar other);
  Tensor less_equal(Scalar other) const;
  Tensor& less_equal_(Scalar other);
  Tensor gt(const Tensor& other) const;
  Tensor& gt_(const Tensor& other);
  Tensor greater(const Tensor& other) const;
  Tensor& greater_(const Tensor& other);
  Tensor gt(Scalar other) const;
  Tensor& gt_(Scalar other);
  Tensor greater(Scalar other) const;
  Tensor& greater_(Scalar other);
  Tensor ge(const Tensor& other) const;
  Tensor& ge_(const Tensor& other);
  Tensor greater_equal(const Tensor& other) const;
  Tensor& greater_equal_(const Tensor& other);
  Tensor ge(Scalar other) const;
  Tensor& ge_(Scalar other);
  Tensor greater_equal(Scalar other) const;
  Tensor& greater_equal_(Scalar other);
  Tensor where(const Tensor& condition, const Tensor& other) const;
  Tensor clamp(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt) const;
  Tensor& clamp_(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt);
  Tensor clip(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt) const;
  Tensor& clip_(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt);
  Tensor lerp(const Tensor& end, Scalar weight) const;
  Tensor& lerp_(const Tensor& end, Scalar weight);
  Tensor lerp(const Tensor& end, const Tensor& weight) const;
  Tensor& lerp_(const Tensor& end, const Tensor& weight);
  Tensor cos() const;
  Tensor& cos_();
  Tensor tan() const;
  Tensor& tan_();
  Tensor asin() const;
  Tensor& asin_();
  Tensor arcsin() const;
  Tensor& arcsin_();
  Tensor acos() const;
  Tensor& acos_();
  Tensor arccos() const;
  Tensor& arccos_();
  Tensor atan() const;
  Tensor& atan_();
  Tensor arctan() const;
  Tensor& arctan_();
  Tensor sinh() const;
  Tensor& sinh_();
  Tensor cosh() const;
  Tensor& cosh_();
  Tensor asinh() const;
  Tensor& asinh_();
  Tensor arcsinh() const;
  Tensor& arcsinh_();
  Tensor acosh() const;
  Tensor& acosh_();
  Tensor arccosh() const;
  Tensor& arccosh_();
  Tensor atanh() const;
  Tensor& atanh_();
  Tensor arctanh() const;
  Tensor& arctanh_();
  Tensor exp2() const;
  Tensor& exp2_();
  Tensor expm1() const;
  Tensor& expm1_();
  Tensor log2() const;
  Tensor& log2_();
  Tensor log10() const;
  Tensor& log10_();
  Tensor log1p() const;
  Tensor& log1p_();
  Tensor rsqrt() const;
  Tensor& rsqrt_();
  Tensor reciprocal() const;
  Tensor& reciprocal_();
  Tensor erf() const;
  Tensor& erf_();
  Tensor erfc() const;
  Tensor& erfc_();
  Tensor erfinv() const;
  Tensor& erfinv_();
  Tensor sign() const;
  Tensor& sign_();
  Tensor sgn() const;
  Tensor& sgn_();
  Tensor floor() const;
  Tensor& floor_();
  Tensor ceil() const;
  Tensor& ceil_();
  Tensor round() const;
  Tensor& round_();
  Tensor trunc() const;
  Tensor& trunc_();
  Tensor fix() const;
  Tensor& fix_();
  Tensor frac() const;
  Tensor& frac_();
  Tensor square() const;
  Tensor& square_();
  Tensor bitwise_not() const;
  Tensor& bitwise_not_();
  Tensor fmod(const Tensor& other) const;
  Tensor& fmod_(const Tensor& other);
  Tensor fmod(Scalar other) const;
  Tensor& fmod_(Scalar other);
  Tensor remainder(const Tensor& other) const;
  Tensor& remainder_(const Tensor& other);
  Tensor remainder(Scalar other) const;
  Tensor& remainder_(Scalar other);
  Tensor floor_divide(const Tensor& other) const;
  Tensor& floor_divide_(const Tensor& other);
  Tensor floor_divide(Scalar other) const;
  Tensor& floor_divide_(Scalar other);
  Tensor fmax(const Tensor& other) const;
  Tensor fmin(const Tensor& other) const;
  Tensor hypot(const Tensor& other) const;
  Tensor& hypot_(const Tensor& other);
  Tensor logaddexp(const Tensor& other) const;
  Tensor copysign(const Tensor& other) const;
  Tensor& copysign_(const Tensor& other);
  Tensor copysign(Scalar other) const;
  Tensor& copysign_(Scalar other);
  Tensor bitwise_and(const Tensor& other) const;
  Tensor& bitwise_and_(const Tensor& other);
  Tensor bitwise_and(Scalar other) const;
  Tensor& bitwise_and_(Scalar other);
  Tensor bitwise_or(const Tensor& other) const;
  Tensor& bitwise_or_(const Tensor& other);
  Tensor bitwise_or(Scalar other) const;
  Tensor& bitwise_or_(Scalar other);
  Tensor bitwise_xor(const Tensor& other) const;
  Tensor& bitwise_xor_(const Tensor& other);
  Tensor bitwise_xor(Scalar other) const;
  Tensor& bitwise_xor_(Scalar other);
  Tensor bitwise_left_shift(const Tensor& other) const;
  Tensor& bitwise_left_shift_(const Tensor& other);
  Tensor bitwise_left_shift(Scalar other) const;
  Tensor& bitwise_left_shift_(Scalar other);
  Tensor bitwise_right_shift(const Tensor& other) const;
  Tensor& bitwise_right_shift_(const Tensor& other);
  Tensor bitwise_right_shift(Scalar other) const;
  Tensor& bitwise_right_shift_(Scalar other);
  Tensor logical_and(const Tensor& other) const;
  Tensor& logical_and_(const Tensor& other);
  Tensor logical_or(const Tensor& other) const;
  Tensor& logical_or_(const Tensor& other);
  Tensor logical_xor(const Tensor& other) const;
  Tensor& logical_xor_(const Tensor& other);
  Tensor logical_not() const;
  Tensor& logical_not_();
  Tensor isnan() const;
  Tensor isinf() const;
  Tensor isfinite() const;
  Tensor nan_to_num(std::optional<double> nan = std::nullopt,
                    std::optional<double> posinf = std::nullopt,
                    std::optional<double> neginf = std::nullopt) const;
  Tensor& nan_to_num_(std::optional<double> nan = std::nullopt,
                      std::optional<double> posinf = std::nullopt,
                      std::optional<double> neginf = std::nullopt);
  Tensor clamp(const Tensor& min, const Tensor& max) const;
  Tensor& clamp_(const Tensor& min, const Tensor& max);
  Tensor clip(const Tensor& min, const Tensor& max) const;
  Tensor& clip_(const Tensor& min, const Tensor& max);
  Tensor clamp_min(const Tensor& min) const;
  Tensor& clamp_min_(const Tensor& min);
  Tensor clamp_max(const Tensor& max) const;
  Tensor& clamp_max_(const Tensor& max);
  Tensor addcmul(const Tensor& tensor1, const Tensor& tensor2, Scalar value = 1) const;
  Tensor& addcmul_(const Tensor& tensor1, const Tensor& tensor2, Scalar value = 1);
  Tensor addcdiv(const Tensor& tensor1, const Tensor& tensor2, Scalar value = 1) const;
  Tensor& addcdiv_(const Tensor& tensor1, const Tensor& tensor2, Scalar value = 1);
  Tensor lgamma() const;
  Tensor& lgamma_();
  Tensor digamma() const;
  Tensor& digamma_();
  Tensor sinc() const;
  Tensor& sinc_();
  Tensor round(int64_t decimals) const;
  Tensor& round_(int64_t decimals);
  Tensor logit(std::optional<double> eps = std::nullopt) const;
  Tensor& logit_(std::optional<double> eps = std::nullopt);
  Tensor div(const Tensor& other, std::optional<std::string> rounding_mode) const;
  Tensor& div_(const Tensor& other, std::optional<std::string> rounding_mode);
  Tensor divide(const Tensor& other, std::optional<std::string> rounding_mode) const;
  Tensor& divide_(const Tensor& other, std::optional<std::string> rounding_mode);
  Tensor div(Scalar other, std::optional<std::string> rounding_mode) const;
  Tensor& div_(Scalar other, std::optional<std::string> rounding_mode);
  Tensor divide(Scalar other, std::optional<std::string> rounding_mode) const;
  Tensor& divide_(Scalar other, std::optional<std::string> rounding_mode);
  Tensor deg2rad() const;
  Tensor& deg2rad_();
  Tensor rad2deg() const;
  Tensor& rad2deg_();
  Tensor float_power(const Tensor& exponent) const;
  Tensor& float_power_(const Tensor& exponent);
  Tensor float_power(Scalar exponent) const;
  Tensor& float_power_(Scalar exponent);
  Tensor ldexp(const Tensor& other) const;
  Tensor& ldexp_(const Tensor& other);
  Tensor xlogy(const Tensor& other) const;
  Tensor& xlogy_(const Tensor& other);
  Tensor logaddexp2(const Tensor& other) const;
  Tensor heaviside(const Tensor& values) const;
  Tensor& heaviside_(const Tensor& values);
  Tensor gcd(const Tensor& other) const;
  Tensor& gcd_(const Tensor& other);
  Tensor lcm(const Tensor& other) const;
  Tensor& lcm_(const Tensor& other);
  Tensor nextafter(const Tensor& other) const;
  Tensor& nextafter_(const Tensor& other);
  Tensor signbit() const;
  Tensor isposinf() const;
  Tensor isneginf() const;
  Tensor positive() const;
  Tensor clamp_min(Scalar min) const;
  Tensor& clamp_min_(Scalar min);
  Tensor clamp_max(Scalar max) const;
  Tensor& clamp_max_(Scalar max);
  Tensor& pow_(const Tensor& exponent);
  Tensor& pow_(Scalar exponent);
  // @generated end method-declarations elementwise

  // ---- reductions
  // @generated begin method-declarations reductions (scripts/gen_ops.py from src/ops/ops.yaml)
  Tensor sum(std::optional<Dtype> dtype = std::nullopt) const;
  Tensor sum(int64_t dim, bool keepdim = false, std::optional<Dtype> dtype = std::nullopt) const;
  Tensor sum(std::vector<int64_t> dims, bool keepdim = false,
             std::optional<Dtype> dtype = std::nullopt) const;
  Tensor mean(std::optional<Dtype> dtype = std::nullopt) const;
  Tensor mean(int64_t dim, bool keepdim = false, std::optional<Dtype> dtype = std::nullopt) const;
  Tensor mean(std::vector<int64_t> dims, bool keepdim = false,
              std::optional<Dtype> dtype = std::nullopt) const;
  Tensor max() const;
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const;
  Tensor min() const;
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const;
  Tensor argmax() const;
  Tensor argmax(int64_t dim, bool keepdim = false) const;
  Tensor argmin() const;
  Tensor argmin(int64_t dim, bool keepdim = false) const;
  Tensor prod(std::optional<Dtype> dtype = std::nullopt) const;
  Tensor prod(int64_t dim, bool keepdim = false, std::optional<Dtype> dtype = std::nullopt) const;
  Tensor all() const;
  Tensor all(int64_t dim, bool keepdim = false) const;
  Tensor any() const;
  Tensor any(int64_t dim, bool keepdim = false) const;
  Tensor amax(std::vector<int64_t> dim = {}, bool keepdim = false) const;
  Tensor amin(std::vector<int64_t> dim = {}, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> aminmax(std::optional<int64_t> dim = std::nullopt,
                                     bool keepdim = false) const;
  Tensor var(bool unbiased = true) const;
  Tensor var(std::vector<int64_t> dim, bool unbiased = true, bool keepdim = false) const;
  Tensor var(std::vector<int64_t> dim, std::optional<int64_t> correction,
             bool keepdim = false) const;
  Tensor std(bool unbiased = true) const;
  Tensor std(std::vector<int64_t> dim, bool unbiased = true, bool keepdim = false) const;
  Tensor std(std::vector<int64_t> dim, std::optional<int64_t> correction,
             bool keepdim = false) const;
  Tensor norm(Scalar p = 2) const;
  Tensor norm(std::optional<Scalar> p, std::vector<int64_t> dim, bool keepdim = false) const;
  Tensor logsumexp(std::vector<int64_t> dim, bool keepdim = false) const;
  Tensor count_nonzero(std::vector<int64_t> dim = {}) const;
  Tensor cumsum(int64_t dim, std::optional<Dtype> dtype = std::nullopt) const;
  Tensor cumprod(int64_t dim, std::optional<Dtype> dtype = std::nullopt) const;
  std::tuple<Tensor, Tensor> cummax(int64_t dim) const;
  std::tuple<Tensor, Tensor> cummin(int64_t dim) const;
  std::tuple<Tensor, Tensor> sort(int64_t dim = -1, bool descending = false) const;
  Tensor argsort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true,
                                  bool sorted = true) const;
  std::tuple<Tensor, Tensor> kthvalue(int64_t k, int64_t dim = -1, bool keepdim = false) const;
  Tensor median() const;
  std::tuple<Tensor, Tensor> median(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> mode(int64_t dim = -1, bool keepdim = false) const;
  Tensor isclose(const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
                 bool equal_nan = false) const;
  bool allclose(const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
                bool equal_nan = false) const;
  bool equal(const Tensor& other) const;
  Tensor bincount(const Tensor& weights = {}, int64_t minlength = 0) const;
  Tensor histc(int64_t bins = 100, Scalar min = 0, Scalar max = 0) const;
  // @generated end method-declarations reductions

  // ---- linear algebra and nn
  // @generated begin method-declarations linalg (scripts/gen_ops.py from src/ops/ops.yaml)
  Tensor matmul(const Tensor& other) const;
  Tensor mm(const Tensor& mat2) const;
  Tensor bmm(const Tensor& mat2) const;
  Tensor addmm(const Tensor& mat1, const Tensor& mat2, Scalar beta = 1, Scalar alpha = 1) const;
  Tensor dot(const Tensor& tensor) const;
  Tensor vdot(const Tensor& other) const;
  Tensor mv(const Tensor& vec) const;
  Tensor outer(const Tensor& vec2) const;
  Tensor ger(const Tensor& vec2) const;
  Tensor inner(const Tensor& other) const;
  Tensor addmv(const Tensor& mat, const Tensor& vec, Scalar beta = 1, Scalar alpha = 1) const;
  Tensor addr(const Tensor& vec1, const Tensor& vec2, Scalar beta = 1, Scalar alpha = 1) const;
  Tensor baddbmm(const Tensor& batch1, const Tensor& batch2, Scalar beta = 1,
                 Scalar alpha = 1) const;
  Tensor addbmm(const Tensor& batch1, const Tensor& batch2, Scalar beta = 1,
                Scalar alpha = 1) const;
  Tensor kron(const Tensor& other) const;
  Tensor cross(const Tensor& other, std::optional<int64_t> dim = std::nullopt) const;
  Tensor trace() const;
  // @generated end method-declarations linalg
  // @generated begin method-declarations nn (scripts/gen_ops.py from src/ops/ops.yaml)
  Tensor softmax(int64_t dim) const;
  Tensor log_softmax(int64_t dim) const;
  // @generated end method-declarations nn
  // ---- indexing: advanced indices and masks
  // @generated begin method-declarations indexing (scripts/gen_ops.py from src/ops/ops.yaml)
  Tensor nonzero() const;
  Tensor take(const Tensor& index) const;
  Tensor& put_(const Tensor& index, const Tensor& source, bool accumulate = false);
  Tensor put(const Tensor& index, const Tensor& source, bool accumulate = false) const;
  Tensor& index_put_(const std::vector<Tensor>& indices, const Tensor& values,
                     bool accumulate = false);
  Tensor index_put(const std::vector<Tensor>& indices, const Tensor& values,
                   bool accumulate = false) const;
  Tensor masked_select(const Tensor& mask) const;
  Tensor masked_fill(const Tensor& mask, Scalar value) const;
  Tensor masked_fill(const Tensor& mask, const Tensor& value) const;
  Tensor& masked_fill_(const Tensor& mask, Scalar value);
  Tensor& masked_fill_(const Tensor& mask, const Tensor& value);
  Tensor& masked_scatter_(const Tensor& mask, const Tensor& source);
  Tensor masked_scatter(const Tensor& mask, const Tensor& source) const;
  Tensor gather(int64_t dim, const Tensor& index) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor scatter(int64_t dim, const Tensor& index, Scalar value) const;
  Tensor& scatter_(int64_t dim, const Tensor& index, const Tensor& src);
  Tensor& scatter_(int64_t dim, const Tensor& index, Scalar value);
  Tensor scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor& scatter_add_(int64_t dim, const Tensor& index, const Tensor& src);
  Tensor scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src,
                        const std::string& reduce, bool include_self = true) const;
  Tensor& scatter_reduce_(int64_t dim, const Tensor& index, const Tensor& src,
                          const std::string& reduce, bool include_self = true);
  Tensor index_add(int64_t dim, const Tensor& index, const Tensor& source, Scalar alpha = 1) const;
  Tensor& index_add_(int64_t dim, const Tensor& index, const Tensor& source, Scalar alpha = 1);
  Tensor index_copy(int64_t dim, const Tensor& index, const Tensor& source) const;
  Tensor& index_copy_(int64_t dim, const Tensor& index, const Tensor& source);
  Tensor index_fill(int64_t dim, const Tensor& index, Scalar value) const;
  Tensor& index_fill_(int64_t dim, const Tensor& index, Scalar value);
  // @generated end method-declarations indexing

  // ---- autograd (src/autograd; API.md "Autograd")
  /// Makes a floating-point leaf record the ops that use it, as torch's requires_grad_.
  Tensor& requires_grad_(bool requires_grad = true);
  const Tensor& requires_grad_(bool requires_grad = true) const;
  bool requires_grad() const;
  /// The gradient accumulated by backward; undefined until a backward reaches this leaf.
  Tensor grad() const;
  /// The gradient slot itself (torch's mutable_grad): optimizers and zero_grad assign to it.
  Tensor& mutable_grad() const;
  /// Computes the gradient of this tensor w.r.t. the graph's leaves and accumulates it in them
  /// (only in `inputs` when given). create_graph: the gradients carry a graph (double
  /// backward); retain_graph defaults to create_graph, as torch.
  void backward(const Tensor& gradient = {}, std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false, const std::vector<Tensor>& inputs = {}) const;
  /// Whether the tensor is a leaf of the graph (created by the user, not by a recorded op).
  bool is_leaf() const;
  /// The same data (shared storage and version counter), outside of any graph.
  Tensor detach() const;
  /// torch's `param.data = new_data`: this tensor (and every handle to it) takes new_data's
  /// storage, geometry and dtype, possibly on another device, keeping its autograd state.
  Tensor& set_data(const Tensor& new_data);
  const Tensor& set_data(const Tensor& new_data) const;
  /// The node that computes this tensor's gradient (null for leaves and plain tensors).
  std::shared_ptr<autograd::Node> grad_fn() const;
  /// How many times the tensor's storage was modified in place (torch's _version).
  uint32_t _version() const;
  /// Calls `hook(leaf)` each time a backward has accumulated a gradient into this leaf's
  /// grad() (torch's register_post_accumulate_grad_hook): hooks run in registration order,
  /// on the backward's thread, under the accumulating stream, and may read or change grad().
  /// Raises for a tensor that does not require grad or is not a leaf.
  RemovableHandle register_post_accumulate_grad_hook(std::function<void(Tensor&)> hook) const;

  // ---- printing
  /// Exactly torch's repr, module prefix "tide.".
  std::string str() const;

 private:
  std::shared_ptr<TensorImpl> impl_;
};

std::ostream& operator<<(std::ostream& os, const Tensor& t);

Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, Scalar b);
Tensor operator+(Scalar a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, Scalar b);
Tensor operator-(Scalar a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, Scalar b);
Tensor operator*(Scalar a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, Scalar b);
Tensor operator/(Scalar a, const Tensor& b);
Tensor operator-(const Tensor& a);
Tensor& operator+=(Tensor& a, const Tensor& b);
Tensor& operator+=(Tensor& a, Scalar b);
Tensor& operator-=(Tensor& a, const Tensor& b);
Tensor& operator-=(Tensor& a, Scalar b);
Tensor& operator*=(Tensor& a, const Tensor& b);
Tensor& operator*=(Tensor& a, Scalar b);
Tensor& operator/=(Tensor& a, const Tensor& b);
Tensor& operator/=(Tensor& a, Scalar b);

// Comparisons return bool tensors, as torch (a > b is tide::gt(a, b)). Note [Comparison
// operators and C++20]: C++20 also tries every operator== with its arguments reversed, and
// rewrites a != b as !(a == b); a rewritten candidate that wins must return bool, which a
// Tensor is not. Declaring the scalar-first forms and an explicit operator!= for every pair
// makes each expression (a == 0.5, 0.5 == a, a != b, 2 < a) match a written candidate exactly,
// which beats any rewritten one, so none is ever selected.
Tensor operator==(const Tensor& a, const Tensor& b);
Tensor operator==(const Tensor& a, Scalar b);
Tensor operator==(Scalar a, const Tensor& b);
Tensor operator!=(const Tensor& a, const Tensor& b);
Tensor operator!=(const Tensor& a, Scalar b);
Tensor operator!=(Scalar a, const Tensor& b);
Tensor operator<(const Tensor& a, const Tensor& b);
Tensor operator<(const Tensor& a, Scalar b);
Tensor operator<(Scalar a, const Tensor& b);
Tensor operator<=(const Tensor& a, const Tensor& b);
Tensor operator<=(const Tensor& a, Scalar b);
Tensor operator<=(Scalar a, const Tensor& b);
Tensor operator>(const Tensor& a, const Tensor& b);
Tensor operator>(const Tensor& a, Scalar b);
Tensor operator>(Scalar a, const Tensor& b);
Tensor operator>=(const Tensor& a, const Tensor& b);
Tensor operator>=(const Tensor& a, Scalar b);
Tensor operator>=(Scalar a, const Tensor& b);
/// torch's ~ on a bool tensor: logical not (other dtypes raise; tide has no bitwise_not).
Tensor operator~(const Tensor& a);

}  // namespace tide
