// GPU launchers of copy (broadcast, dtype conversion, any strides) and fill, as the cpu's
// kernels/cpu/copy_kernels.cpp.

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/cuda/elementwise.cuh"
#include "kernels/cuda/elementwise_kernels.h"
#include "kernels/convert.h"

namespace tide::kernels::cuda {
namespace {

template <class Out, class In>
struct ConvertTo {
  TIDE_HOST_DEVICE Out operator()(In v) const { return kernels::convert<Out>(v); }
};

template <class T>
struct FillValue {
  T value;
  TIDE_HOST_DEVICE T operator()() const { return value; }
};

/// The unsigned integer type of N bytes. A same-dtype copy or a fill moves bits, so it runs on
/// that type: 4 kernel instantiations serve the 8 dtypes.
template <size_t N> struct bits_of_size;
template <> struct bits_of_size<1> { using type = uint8_t; };
template <> struct bits_of_size<2> { using type = uint16_t; };
template <> struct bits_of_size<4> { using type = uint32_t; };
template <> struct bits_of_size<8> { using type = uint64_t; };
template <class T> using bits_t = typename bits_of_size<sizeof(T)>::type;

}  // namespace

void copy_kernel(const Tensor& dst, const Tensor& src) {
  // Expanded before the empty check, so a shape that does not broadcast raises as on the cpu.
  const Tensor s =
      src.dim() == dst.dim() && src.shape() == dst.shape() ? src : src.expand(dst.sizes());
  if (dst.numel() == 0) return;
  if (dst.dtype() == s.dtype() && dst.is_contiguous() && s.is_contiguous()) {
    if (dst.raw_data() != s.raw_data()) {
      TIDE_CUDA_CHECK(cudaMemcpyAsync(dst.raw_data(), s.raw_data(), dst.nbytes(),
                                      cudaMemcpyDeviceToDevice,
                                      static_cast<cudaStream_t>(current_launch().stream)));
    }
    return;
  }
  if (dst.dtype() == s.dtype()) {
    dispatch_dtype(dst.dtype(), [&](auto tag) {
      using U = bits_t<typename decltype(tag)::type>;
      launch_elementwise(TypeList<U, U>{}, ConvertTo<U, U>{}, dst, s);
    });
    return;
  }
  dispatch_dtype(dst.dtype(), [&](auto out_tag) {
    using Out = typename decltype(out_tag)::type;
    dispatch_dtype(s.dtype(), [&](auto in_tag) {
      using In = typename decltype(in_tag)::type;
      if constexpr (!std::is_same_v<Out, In>) {  // same dtypes moved bits above
        launch_elementwise(TypeList<Out, In>{}, ConvertTo<Out, In>{}, dst, s);
      }
    });
  });
}

void fill_kernel(const Tensor& t, const Scalar& value) {
  if (t.numel() == 0) return;
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using U = bits_t<T>;
    const T v = value.to<T>();
    U bits;
    std::memcpy(&bits, &v, sizeof(U));
    launch_elementwise(TypeList<U>{}, FillValue<U>{bits}, t);
  });
}

}  // namespace tide::kernels::cuda
