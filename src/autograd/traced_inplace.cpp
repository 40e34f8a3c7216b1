// Derivatives of the in-place ops (Note [In-place ops] in autograd/recording.h): the node is made
// before the op runs, so its first input is self's history up to now, and then becomes self's
// grad_fn — or, for a view, its base's CopySlices (Note [Views and in-place ops]).

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "autograd/view_history.h"
#include "ops/elementwise.h"
#include "tide/factories.h"

namespace tide::autograd::traced {
namespace {

bool is_one(const Scalar& s) { return s.to_double() == 1.0; }
Tensor scaled(const Tensor& g, const Scalar& alpha) { return is_one(alpha) ? g : g * alpha; }

bool operand_requires_grad(const Tensor& t) { return t.defined() && t.requires_grad(); }

}  // namespace

Tensor& add_(Tensor& self, const Tensor& other, Scalar alpha) {
  check_inplace(self, operand_requires_grad(other), "Tensor::add_");
  auto node = make_node("AddBackward0", {&self, &other}, [alpha](const Tensor& g, const Saved& s) {
    return grads(g, s.needs(1) ? scaled(g, alpha) : Tensor());
  });
  untraced([&] { return &detail::add_(self, other, alpha); });
  rebase_history(self, node);
  return self;
}

Tensor& add_(Tensor& self, Scalar other, Scalar alpha) {
  check_inplace(self, false, "Tensor::add_");
  auto node =
      make_node("AddBackward1", {&self}, [](const Tensor& g, const Saved&) { return grads(g); });
  untraced([&] { return &detail::add_(self, other, alpha); });
  rebase_history(self, node);
  return self;
}

Tensor& sub_(Tensor& self, const Tensor& other, Scalar alpha) {
  check_inplace(self, operand_requires_grad(other), "Tensor::sub_");
  auto node = make_node("SubBackward0", {&self, &other}, [alpha](const Tensor& g, const Saved& s) {
    return grads(g, s.needs(1) ? -scaled(g, alpha) : Tensor());
  });
  untraced([&] { return &detail::sub_(self, other, alpha); });
  rebase_history(self, node);
  return self;
}

Tensor& sub_(Tensor& self, Scalar other, Scalar alpha) {
  check_inplace(self, false, "Tensor::sub_");
  auto node =
      make_node("SubBackward1", {&self}, [](const Tensor& g, const Saved&) { return grads(g); });
  untraced([&] { return &detail::sub_(self, other, alpha); });
  rebase_history(self, node);
  return self;
}

Tensor& mul_(Tensor& self, const Tensor& other) {
  check_inplace(self, operand_requires_grad(other), "Tensor::mul_");
  auto node = make_node("MulBackward0", {&self, &other}, [](const Tensor& g, const Saved& s) {
    return grads(s.needs(0) ? g * s[0] : Tensor(), s.needs(1) ? g * s[1] : Tensor());
  });
  if (node) {
    node->save(other);
    // other's gradient needs self's value before the write.
    node->save(operand_requires_grad(other) ? original_self(self) : Tensor());
  }
  untraced([&] { return &detail::mul_(self, other); });
  rebase_history(self, node);
  return self;
}

Tensor& mul_(Tensor& self, Scalar other) {
  check_inplace(self, false, "Tensor::mul_");
  auto node = make_node("MulBackward1", {&self},
                        [other](const Tensor& g, const Saved&) { return grads(g * other); });
  untraced([&] { return &detail::mul_(self, other); });
  rebase_history(self, node);
  return self;
}

Tensor& div_(Tensor& self, const Tensor& other) {
  check_inplace(self, operand_requires_grad(other), "Tensor::div_");
  auto node = make_node("DivBackward0", {&self, &other}, [](const Tensor& g, const Saved& s) {
    const Tensor y = s[0];
    return grads(s.needs(0) ? g / y : Tensor(), s.needs(1) ? -g * s[1] / (y * y) : Tensor());
  });
  if (node) {
    node->save(other);
    // other's gradient needs self's value before the write (torch saves it the same way).
    node->save(operand_requires_grad(other) ? original_self(self) : Tensor());
  }
  untraced([&] { return &detail::div_(self, other); });
  rebase_history(self, node);
  return self;
}

Tensor& div_(Tensor& self, Scalar other) {
  check_inplace(self, false, "Tensor::div_");
  auto node = make_node("DivBackward1", {&self},
                        [other](const Tensor& g, const Saved&) { return grads(g / other); });
  untraced([&] { return &detail::div_(self, other); });
  rebase_history(self, node);
  return self;
}

Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking) {
  check_inplace(self, operand_requires_grad(src), "Tensor::copy_");
  const Device src_device = src.device();
  auto node =
      make_node("CopyBackwards", {&self, &src}, [src_device](const Tensor& g, const Saved& s) {
        return grads(s.needs(0) ? zeros_like(g) : Tensor(),
                     s.needs(1) ? g.to(src_device) : Tensor());
      });
  untraced([&] { return &self.copy_(src, non_blocking); });
  rebase_history(self, node);
  return self;
}

Tensor& fill_(Tensor& self, Scalar value) {
  check_inplace(self, false, "Tensor::fill_");
  auto node = make_node("FillBackward0", {&self},
                        [](const Tensor& g, const Saved&) { return grads(zeros_like(g)); });
  untraced([&] { return &self.fill_(value); });
  rebase_history(self, node);
  return self;
}

Tensor& fill_(Tensor& self, const Tensor& value) {
  check_inplace(self, operand_requires_grad(value), "Tensor::fill_");
  const Device value_device = value.device();
  auto node =
      make_node("FillBackward1", {&self, &value}, [value_device](const Tensor& g, const Saved& s) {
        return grads(s.needs(0) ? zeros_like(g) : Tensor(),
                     s.needs(1) ? g.sum().to(value_device) : Tensor());
      });
  untraced([&] { return &self.fill_(value); });
  rebase_history(self, node);
  return self;
}

namespace {

// normal_ and uniform_: the new values do not depend on self's old ones (a zero gradient).
template <class Fill>
Tensor& random_fill(Tensor& self, const char* op, const char* node_name, Fill fill) {
  check_inplace(self, false, op);
  auto node = make_node(node_name, {&self},
                        [](const Tensor& g, const Saved&) { return grads(zeros_like(g)); });
  untraced(fill);
  rebase_history(self, node);
  return self;
}

}  // namespace

Tensor& normal_(Tensor& self, double mean, double std) {
  return random_fill(self, "Tensor::normal_", "NormalBackward0",
                     [&] { return &self.normal_(mean, std); });
}

Tensor& uniform_(Tensor& self, double from, double to) {
  return random_fill(self, "Tensor::uniform_", "UniformBackward0",
                     [&] { return &self.uniform_(from, to); });
}

void check_out_variant(const char* op) {
  throw Error(detail::concat("[", op, "] ", op,
                             "(): functions with out=... arguments don't support "
                             "automatic differentiation, but one of the arguments requires grad. "
                             "Use the out-of-place op, or run it under tide::NoGradGuard."));
}

}  // namespace tide::autograd::traced
