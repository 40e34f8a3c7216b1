#include "ops/type_promotion.h"

#include "ops/torch_names.h"

namespace tide::detail {
namespace {

Dtype promote_skip_undefined(std::optional<Dtype> a, Dtype b) {
  return a ? promote_types(*a, b) : b;
}

// torch's combine_categories: `lower` only matters when its category is higher.
std::optional<Dtype> combine_categories(std::optional<Dtype> higher, std::optional<Dtype> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_floating_point(*higher)) return higher;
  if (*higher == kBool || is_floating_point(*lower)) return promote_types(*higher, *lower);
  return higher;
}

}  // namespace

void update_result_type(ResultTypeState& state, const Tensor& t) {
  if (!t.defined()) return;
  Dtype d = t.dtype();
  if (t.dim() > 0) {
    state.dim_result = promote_skip_undefined(state.dim_result, d);
  } else {
    state.zero_dim_result = promote_skip_undefined(state.zero_dim_result, d);
  }
}

void update_result_type(ResultTypeState& state, const Scalar& s) {
  // A floating Scalar counts as the default dtype (Note [Default dtype]).
  Dtype d = s.is_bool() ? kBool : s.is_integral() ? kInt64 : get_default_dtype();
  state.wrapped_result = promote_skip_undefined(state.wrapped_result, d);
}

Dtype result_type(const ResultTypeState& state) {
  std::optional<Dtype> r = combine_categories(
      state.dim_result, combine_categories(state.zero_dim_result, state.wrapped_result));
  return r ? *r : get_default_dtype();
}

Dtype result_type(std::initializer_list<const Tensor*> tensors, std::initializer_list<Scalar> scalars) {
  ResultTypeState state;
  for (const Tensor* t : tensors) update_result_type(state, *t);
  for (const Scalar& s : scalars) update_result_type(state, s);
  return result_type(state);
}

Dtype result_type(const Tensor& a, const Tensor& b) {
  if (a.dtype() == b.dtype()) return a.dtype();
  ResultTypeState state;
  update_result_type(state, a);
  update_result_type(state, b);
  return result_type(state);
}

Dtype result_type(const Tensor& a, const Scalar& b) {
  // A Scalar never changes a tensor of its own or a higher category.
  const Dtype d = a.dtype();
  if (is_floating_point(d)) return d;
  if (b.is_integral() && d != kBool) return d;
  if (b.is_bool()) return d;
  ResultTypeState state;
  update_result_type(state, a);
  update_result_type(state, b);
  return result_type(state);
}

bool can_cast(Dtype from, Dtype to) {
  if (is_floating_point(from) && is_integral(to, /*include_bool=*/true)) return false;
  if (from != kBool && to == kBool) return false;
  return true;
}

void check_can_cast_to_output(Dtype result, Dtype out, const char* where) {
  TIDE_CHECK(can_cast(result, out), "[", where, "] result type ", torch_type_name(result),
             " can't be cast to the desired output type ", torch_type_name(out),
             "; write into a tensor of dtype ", name(result), " or convert an operand first");
}

}  // namespace tide::detail
