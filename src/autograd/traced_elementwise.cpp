// Derivatives of the elementwise ops (torch's derivatives.yaml entries of the same names).
// Each traced op runs the untraced front end, then records its node (Note [Autograd hooks]).
// Broadcast operands get the full-shape gradient here; the engine sums it back to each
// operand's shape and casts it to the operand's dtype (autograd/engine.cpp, validate).

#include <cmath>

#include "autograd/hooks.h"
#include "autograd/recording.h"
#include "autograd/view_history.h"
#include "ops/elementwise.h"
#include "tide/factories.h"

namespace tide::autograd::traced {
namespace {

bool is_one(const Scalar& s) { return s.to_double() == 1.0; }

/// g * alpha without a kernel when alpha is 1.
Tensor scaled(const Tensor& g, const Scalar& alpha) { return is_one(alpha) ? g : g * alpha; }

/// Records `node` (when not null) as the history of `out`, saving out when asked.
Tensor finish(Tensor out, const std::shared_ptr<FunctionNode>& node, bool save_out = false) {
  if (node) {
    set_history(out, node);
    if (save_out) node->save_output(out);
  }
  return out;
}

}  // namespace

Tensor add(const Tensor& a, const Tensor& b, Scalar alpha) {
  Tensor r = untraced([&] { return tide::add(a, b, alpha); });
  return finish(r, make_node("AddBackward0", {&a, &b}, [alpha](const Tensor& g, const Saved& s) {
                  return grads(g, s.needs(1) ? scaled(g, alpha) : Tensor());
                }));
}

Tensor add(const Tensor& a, Scalar b, Scalar alpha) {
  Tensor r = untraced([&] { return tide::add(a, b, alpha); });
  return finish(
      r, make_node("AddBackward1", {&a}, [](const Tensor& g, const Saved&) { return grads(g); }));
}

Tensor sub(const Tensor& a, const Tensor& b, Scalar alpha) {
  Tensor r = untraced([&] { return tide::sub(a, b, alpha); });
  return finish(r, make_node("SubBackward0", {&a, &b}, [alpha](const Tensor& g, const Saved& s) {
                  return grads(g, s.needs(1) ? -scaled(g, alpha) : Tensor());
                }));
}

Tensor sub(const Tensor& a, Scalar b, Scalar alpha) {
  Tensor r = untraced([&] { return tide::sub(a, b, alpha); });
  return finish(
      r, make_node("SubBackward1", {&a}, [](const Tensor& g, const Saved&) { return grads(g); }));
}

Tensor rsub(const Tensor& self, Scalar other, Scalar alpha) {
  Tensor r = untraced([&] { return tide::rsub(self, other, alpha); });
  return finish(r, make_node("RsubBackward1", {&self}, [alpha](const Tensor& g, const Saved&) {
                  return grads(-scaled(g, alpha));
                }));
}

Tensor mul(const Tensor& a, const Tensor& b) {
  Tensor r = untraced([&] { return tide::mul(a, b); });
  auto node = make_node("MulBackward0", {&a, &b}, [](const Tensor& g, const Saved& s) {
    return grads(s.needs(0) ? g * s[1] : Tensor(), s.needs(1) ? g * s[0] : Tensor());
  });
  if (node) {
    node->save(a);
    node->save(b);
  }
  return finish(r, node);
}

Tensor mul(const Tensor& a, Scalar b) {
  Tensor r = untraced([&] { return tide::mul(a, b); });
  return finish(r, make_node("MulBackward1", {&a},
                             [b](const Tensor& g, const Saved&) { return grads(g * b); }));
}

Tensor div(const Tensor& a, const Tensor& b) {
  Tensor r = untraced([&] { return tide::div(a, b); });
  auto node = make_node("DivBackward0", {&a, &b}, [](const Tensor& g, const Saved& s) {
    const Tensor other = s[1];
    return grads(s.needs(0) ? g / other : Tensor(),
                 s.needs(1) ? -g * s[0] / (other * other) : Tensor());
  });
  if (node) {
    node->save(a);
    node->save(b);
  }
  return finish(r, node);
}

Tensor div(const Tensor& a, Scalar b) {
  Tensor r = untraced([&] { return tide::div(a, b); });
  return finish(r, make_node("DivBackward1", {&a},
                             [b](const Tensor& g, const Saved&) { return grads(g / b); }));
}

Tensor rdiv(const Tensor& self, Scalar other) {
  Tensor r = untraced([&] { return detail::rdiv(self, other); });
  auto node = make_node("DivBackward0", {&self}, [other](const Tensor& g, const Saved& s) {
    const Tensor x = s[0];
    return grads(-g * other / (x * x));
  });
  if (node) node->save(self);
  return finish(r, node);
}

Tensor pow(const Tensor& a, const Tensor& exponent) {
  Tensor r = untraced([&] { return tide::pow(a, exponent); });
  auto node = make_node("PowBackward1", {&a, &exponent}, [](const Tensor& g, const Saved& s) {
    const Tensor base = s[0], e = s[1], result = s[2];
    Tensor g_base, g_exp;
    if (s.needs(0)) g_base = tide::where(eq(e, 0), 0, g * e * tide::pow(base, e - 1));
    if (s.needs(1)) {
      // torch: d/de base^e = base^e tide::log(base), taken as 0 where base == 0 and e >= 0.
      const Tensor d = g * result * tide::log(base);
      g_exp = tide::where(eq(base, 0), tide::where(ge(e, 0), 0, d), d);
    }
    return grads(g_base, g_exp);
  });
  if (node) {
    node->save(a);
    node->save(exponent);
  }
  r = finish(r, node);
  if (node) node->save_output(r);
  return r;
}

Tensor pow(const Tensor& a, Scalar exponent) {
  Tensor r = untraced([&] { return tide::pow(a, exponent); });
  auto node = make_node("PowBackward0", {&a}, [exponent](const Tensor& g, const Saved& s) {
    const double e = exponent.to_double();
    if (e == 0.0) return grads(zeros_like(g));
    return grads(g * exponent * tide::pow(s[0], Scalar(e - 1.0)));
  });
  if (node) node->save(a);
  return finish(r, node);
}

Tensor pow(Scalar a, const Tensor& exponent) {
  Tensor r = untraced([&] { return tide::pow(a, exponent); });
  auto node = make_node("PowBackward2", {&exponent}, [a](const Tensor& g, const Saved& s) {
    const double base = a.to_double();
    const Tensor e = s[0], result = s[1];
    if (base == 0.0) return grads(tide::where(ge(e, 0), 0, g * result * std::log(base)));
    return grads(g * result * std::log(base));
  });
  if (node) node->save(exponent);
  return finish(r, node, /*save_out=*/true);
}

namespace {
/// maximum/minimum: the gradient goes to the chosen operand, split evenly on ties (torch).
Tensor extremum(const Tensor& a, const Tensor& b, bool is_max) {
  Tensor r = untraced([&] { return is_max ? tide::maximum(a, b) : tide::minimum(a, b); });
  auto node =
      make_node(is_max ? "MaximumBackward0" : "MinimumBackward0", {&a, &b},
                [is_max](const Tensor& g, const Saved& s) {
                  const Tensor x = s[0], y = s[1];
                  const Tensor tie = eq(x, y), half = g / 2;
                  Tensor ga, gb;
                  if (s.needs(0))
                    ga = tide::where(tie, half, tide::where(is_max ? gt(x, y) : lt(x, y), g, 0));
                  if (s.needs(1))
                    gb = tide::where(tie, half, tide::where(is_max ? lt(x, y) : gt(x, y), g, 0));
                  return grads(ga, gb);
                });
  if (node) {
    node->save(a);
    node->save(b);
  }
  return finish(r, node);
}
}  // namespace

Tensor maximum(const Tensor& a, const Tensor& b) { return extremum(a, b, true); }
Tensor minimum(const Tensor& a, const Tensor& b) { return extremum(a, b, false); }

Tensor where(const Tensor& condition, const Tensor& a, const Tensor& b) {
  Tensor r = untraced([&] { return tide::where(condition, a, b); });
  auto node = make_node("WhereBackward0", {&a, &b}, [](const Tensor& g, const Saved& s) {
    const Tensor c = s[0];
    return grads(s.needs(0) ? tide::where(c, g, 0) : Tensor(),
                 s.needs(1) ? tide::where(c, 0, g) : Tensor());
  });
  if (node) node->save(condition);
  return finish(r, node);
}

Tensor where(const Tensor& condition, const Tensor& a, Scalar b) {
  Tensor r = untraced([&] { return tide::where(condition, a, b); });
  auto node = make_node("WhereBackward0", {&a}, [](const Tensor& g, const Saved& s) {
    return grads(tide::where(s[0], g, 0));
  });
  if (node) node->save(condition);
  return finish(r, node);
}

Tensor where(const Tensor& condition, Scalar a, const Tensor& b) {
  Tensor r = untraced([&] { return tide::where(condition, a, b); });
  auto node = make_node("WhereBackward0", {&b}, [](const Tensor& g, const Saved& s) {
    return grads(tide::where(s[0], 0, g));
  });
  if (node) node->save(condition);
  return finish(r, node);
}

namespace {
/// clamp's node, for clamp and clamp_: the gradient passes where min <= x <= max, boundaries
/// included (torch); x is the input before the op.
std::shared_ptr<FunctionNode> clamp_node(const Tensor& a, std::optional<Scalar> min,
                                         std::optional<Scalar> max) {
  return make_node("ClampBackward1", {&a}, [min, max](const Tensor& g, const Saved& s) {
    const Tensor x = s[0];
    Tensor out = g;
    if (min) out = tide::where(ge(x, *min), out, 0);
    if (max) out = tide::where(le(x, *max), out, 0);
    return grads(out);
  });
}
}  // namespace

Tensor clamp(const Tensor& a, std::optional<Scalar> min, std::optional<Scalar> max) {
  Tensor r = untraced([&] { return tide::clamp(a, min, max); });
  auto node = clamp_node(a, min, max);
  if (node) node->save(a);
  return finish(r, node);
}

Tensor& clamp_(Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max) {
  check_inplace(self, false, "Tensor::clamp_");
  auto node = clamp_node(self, min, max);
  if (node) node->save(original_self(self));  // self before the write
  untraced([&] { return &detail::clamp_(self, min, max); });
  rebase_history(self, node);
  return self;
}

}  // namespace tide::autograd::traced
