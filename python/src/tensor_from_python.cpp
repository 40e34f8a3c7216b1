// Note [Tensors from nested lists]: the data is walked once to find the shape (every list at
// one depth must have the same length, as torch requires) and the dtype torch would infer
// (any float: the default dtype; else any int: int64; else bool), collecting the leaves as
// doubles and int64s; then one cpu tensor of that shape is filled and moved to its device in
// one copy. int64 leaves are kept exact (a double cannot hold every int64).

#include "tensor_from_python.h"

#include "py_int.h"

#include <string>

#include "tide/default_device.h"
#include "tide/default_dtype.h"
#include "tide/error.h"
#include "tide/factories.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

enum class Kind { Bool = 0, Int = 1, Float = 2 };

struct Leaves {
  std::vector<int64_t> shape;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  Kind kind = Kind::Bool;
  bool saw_leaf = false;
};

std::string py_type_name(nb::handle h) { return nb::type_name(h.type()).c_str(); }

void add_number(Leaves& out, nb::handle item) {
  PyObject* o = item.ptr();
  Kind kind;
  double d;
  int64_t i;
  if (PyBool_Check(o)) {
    kind = Kind::Bool;
    i = o == Py_True;
    d = static_cast<double>(i);
  } else if (PyLong_Check(o)) {
    kind = Kind::Int;
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    TIDE_CHECK(overflow == 0, "[tide.tensor] expected integers that fit in int64, found ",
               nb::str(item).c_str(), "; pass a float or a smaller value");
    i = v;
    d = static_cast<double>(v);
  } else if (PyFloat_Check(o)) {
    kind = Kind::Float;
    d = PyFloat_AS_DOUBLE(o);
    i = static_cast<int64_t>(d);
  } else if (nb::isinstance<Tensor>(item)) {
    const Tensor& t = nb::cast<const Tensor&>(item);
    TIDE_CHECK(t.numel() == 1,
               "[tide.tensor] only one-element tensors can be elements of a list, found one of ",
               t.numel(), " elements; use tide.stack to combine tensors");
    Scalar s = t.item();
    kind = s.is_bool() ? Kind::Bool : s.is_integral() ? Kind::Int : Kind::Float;
    d = s.to_double();
    i = s.to_int64();
  } else {
    throw Error("[tide.tensor] expected numbers, bools or (nested) lists and tuples of them, "
                "found an element of type " + py_type_name(item) +
                "; convert it to a number or a list first");
  }
  if (kind > out.kind) out.kind = kind;
  out.floats.push_back(d);
  out.ints.push_back(i);
}

bool is_sequence(nb::handle h) { return PyList_Check(h.ptr()) || PyTuple_Check(h.ptr()); }

void walk(Leaves& out, nb::handle item, size_t depth) {
  if (!is_sequence(item)) {
    TIDE_CHECK(depth == out.shape.size(),
               "[tide.tensor] expected a sequence at depth ", depth,
               " (the data is ragged), found ", py_type_name(item),
               "; every list at one depth must have the same length");
    out.saw_leaf = true;
    add_number(out, item);
    return;
  }
  auto n = static_cast<int64_t>(PySequence_Fast_GET_SIZE(item.ptr()));
  if (depth == out.shape.size()) {
    TIDE_CHECK(!out.saw_leaf, "[tide.tensor] expected a number at depth ", depth,
               " (the data is ragged), found a sequence; every list at one depth must have "
               "the same length");
    out.shape.resize(depth + 1);
    out.shape[depth] = n;
  } else {
    TIDE_CHECK(out.shape[depth] == n, "[tide.tensor] expected sequence of length ",
               out.shape[depth], " at dim ", depth, " (got ", n, ")");
  }
  PyObject** items = PySequence_Fast_ITEMS(item.ptr());
  for (int64_t k = 0; k < n; ++k) walk(out, nb::handle(items[k]), depth + 1);
}

}  // namespace

Tensor tensor_from_python(nb::handle data, std::optional<Dtype> dtype,
                          std::optional<Device> device) {
  if (nb::isinstance<Tensor>(data)) {
    // torch.tensor(t) copies (with a warning), keeping t's device unless given one.
    const Tensor& t = nb::cast<const Tensor&>(data);
    return t.to(device ? *device : t.device(), dtype ? *dtype : t.dtype(), false, /*copy=*/true)
        .detach();
  }
  Device target = device ? *device : detail::thread_default_device();
  Leaves leaves;
  walk(leaves, data, 0);
  // A list with an empty innermost dim has no leaves; torch makes it float.
  Dtype inferred = leaves.kind == Kind::Float || leaves.floats.empty()
                       ? get_default_dtype()
                       : leaves.kind == Kind::Int ? kInt64 : kBool;
  Dtype result_dtype = dtype ? *dtype : inferred;
  Tensor out = empty(leaves.shape, TensorOptions().device(kCPU).dtype(result_dtype));
  dispatch_dtype(result_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(out.raw_data());
    for (size_t k = 0; k < leaves.floats.size(); ++k) {
      if constexpr (std::is_same_v<T, bool>) {
        p[k] = leaves.kind == Kind::Float ? leaves.floats[k] != 0 : leaves.ints[k] != 0;
      } else if constexpr (std::is_integral_v<T>) {
        p[k] = leaves.kind == Kind::Float ? static_cast<T>(leaves.floats[k])
                                          : static_cast<T>(leaves.ints[k]);
      } else if constexpr (std::is_same_v<T, double>) {
        p[k] = leaves.floats[k];
      } else {
        p[k] = T(static_cast<float>(leaves.floats[k]));
      }
    }
  });
  return target.is_cpu() ? out : out.to(target);
}

std::vector<int64_t> sizes_from_sequence(nb::handle seq, const char* what) {
  if (!is_sequence(seq)) {
    throw nb::type_error((std::string(what) + "(): expected a sequence of ints for the size, "
                          "found " + py_type_name(seq)).c_str());
  }
  auto n = PySequence_Fast_GET_SIZE(seq.ptr());
  PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
  std::vector<int64_t> sizes(static_cast<size_t>(n));
  for (Py_ssize_t k = 0; k < n; ++k) {
    nb::handle item(items[k]);
    if (!is_int(item)) {
      throw nb::type_error((std::string(what) + "(): expected ints for the size, found " +
                            py_type_name(item) + " at position " + std::to_string(k)).c_str());
    }
    sizes[k] = to_int64(item, what);
  }
  return sizes;
}

std::vector<int64_t> sizes_from_args(const nb::args& args, const char* what) {
  if (args.size() == 1 && is_sequence(args[0])) return sizes_from_sequence(args[0], what);
  return sizes_from_sequence(args, what);
}

}  // namespace tide::python
