// tide._C._refuse_other_arguments: the last overload of a Tensor method or a module function
// bound here directly, which turns nanobind's "incompatible function arguments" into torch's
// one-line TypeError (Note [Argument type errors] in python/tide/_arg_errors.py; the package
// adds it to each at import, before anything holds one of them).
//
// Note [A refusal overload]: nanobind has no hook for its overload error, but it tries a
// function's overloads twice: first without implicit conversions (pass 0), then with them (pass
// 1), each time in definition order. The refusal overload takes any object, but only in pass 1
// (AnyInSecondPass below), so it runs only after every real overload refused the arguments in
// both passes, and it can never take a call that a conversion would have served. Its parameters
// are positional-or-keyword, named after the real overloads' parameters, at most seven after
// self and none of them *args or **kwargs: nanobind picks a function's dispatcher from its
// most complex overload, and this one leaves every function on a positional fast path (nanobind's
// "medium" one at worst; measured no slower, bench/RESULTS.md; a keyword call already takes the
// general one). A call with a keyword no overload knows, or with more
// positional arguments than the refusal takes, still gets nanobind's own message.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

// Any Python object, but only in nanobind's converting pass (never as a method's self).
struct AnyInSecondPass {
  nb::handle object;
};

}  // namespace
}  // namespace tide::python

namespace nanobind::detail {

template <>
struct type_caster<tide::python::AnyInSecondPass> {
  NB_TYPE_CASTER(tide::python::AnyInSecondPass, const_name("object"))

  bool from_python(handle src, uint8_t flags, cleanup_list*) noexcept {
    if ((flags & static_cast<uint8_t>(cast_flags::convert)) == 0) return false;
    value.object = src;
    return true;
  }

  static handle from_cpp(const tide::python::AnyInSecondPass& v, rv_policy,
                         cleanup_list*) noexcept {
    return v.object.inc_ref();
  }
};

}  // namespace nanobind::detail

namespace tide::python {
namespace {

constexpr std::size_t kMaxParameters = 7;  // (+ self): nanobind's simple/medium dispatch limit

template <std::size_t I>
using Any = AnyInSecondPass;

// Defines the refusal overload of scope.<name> (a method of class `scope`, or a function of
// module `scope`) with the given parameter names; `missing` is the default of each, so the
// Python side tells "not given" from None.
template <std::size_t... I>
void define_refusal(nb::handle scope, bool method, const std::string& name, const std::string& key,
                    const std::vector<std::string>& params, nb::handle missing,
                    std::index_sequence<I...>) {
  auto raise = [key](nb::handle self, nb::tuple args) {
    // Looked up here, on the error path: the module is still importing when this is defined.
    nb::module_::import_("tide._arg_errors").attr("refused")(key, self, args);
    throw nb::type_error(("argument error of " + key + " not raised").c_str());
  };
  if (method) {
    // self is a plain handle: nanobind never converts a method's self, so the pass-1-only gate
    // is on the other parameters (there is at least one).
    auto refuse = [raise](nb::handle self, Any<I>... given) {
      raise(self, nb::make_tuple(nb::borrow(given.object)...));
    };
    nb::cpp_function_def(std::move(refuse), nb::scope(scope), nb::name(name.c_str()),
                         nb::is_method(),
                         (nb::arg(params[I].c_str()).none() = nb::borrow(missing))...);
  } else {
    auto refuse = [raise](Any<I>... given) {
      raise(nb::none(), nb::make_tuple(nb::borrow(given.object)...));
    };
    nb::cpp_function_def(std::move(refuse), nb::scope(scope), nb::name(name.c_str()),
                         (nb::arg(params[I].c_str()).none() = nb::borrow(missing))...);
  }
}

template <std::size_t... N>
void define_refusal_of_arity(nb::handle scope, bool method, const std::string& name,
                             const std::string& key, const std::vector<std::string>& params,
                             nb::handle missing, std::index_sequence<N...>) {
  // One instantiation per arity 1..kMaxParameters; the call picks the one that fits.
  ((params.size() == N + 1
        ? define_refusal(scope, method, name, key, params, missing,
                         std::make_index_sequence<N + 1>{})
        : void()),
   ...);
}

}  // namespace

void bind_argument_errors(nb::module_& m) {
  m.def(
      "_refuse_other_arguments",
      [](nb::handle scope, const std::string& name, const std::string& key,
         const std::vector<std::string>& params, nb::handle missing, bool method) {
        if (params.empty() || params.size() > kMaxParameters) {
          throw nb::value_error(("_refuse_other_arguments: " + name + " has " +
                                 std::to_string(params.size()) + " parameters, 1 to " +
                                 std::to_string(kMaxParameters) + " can be refused")
                                    .c_str());
        }
        define_refusal_of_arity(scope, method, name, key, params, missing,
                                std::make_index_sequence<kMaxParameters>{});
      },
      nb::arg("scope"), nb::arg("name"), nb::arg("key"), nb::arg("params"), nb::arg("missing"),
      nb::arg("method"),
      "Adds Note [A refusal overload] to scope.<name>, a method of class `scope` (method=True) "
      "or a function of module `scope`; it calls tide._arg_errors.refused(key, ...), which "
      "installs it.");
}

}  // namespace tide::python
