#pragma once
// The Python definitions behind the free functions bound in C++ (Note [Free functions bound
// directly]), and torch's named tuples (tide.return_types) made from C++.

#include <nanobind/nanobind.h>

#include "tide/tensor.h"

namespace tide::python {

/// Note [Free functions bound directly]: torch's free functions are Python functions in
/// python/tide/_ops.py that call the tensor method (tide.gather(a, 0, i) is a.gather(0, i)),
/// and the methods that return torch's named tuples wrap a binding in Python too: a Python
/// frame or more and the *args/**kwargs packing per call, as much as the op itself costs on a
/// 1-element tensor. The hot ones are bound in C++ under their own name as two overloads: the
/// common call, with exactly the C++ parameter types of the binding the Python definition
/// calls, and a catch-all (*args, **kwargs) that calls the Python definition
/// (`_ops._PYTHON_FORMS[name]`). nanobind tries every overload without implicit conversions
/// before any with them, so a call the first overload takes runs the C++ the Python definition
/// would have run, and every other one (out=, a numpy integer, a wrong type and its torch-style
/// TypeError) reaches the Python definition as before: only the common call's cost changes.
void def_python_fallback(nanobind::module_& m, const char* name);
/// The same for a Tensor method: the catch-all calls `_ops._PYTHON_FORMS["Tensor." + name]`.
void def_python_fallback(nanobind::class_<Tensor>& cls, const char* name);

/// tide.return_types.<type_name>(first, second), made as namedtuple's own _make makes it
/// (tuple.__new__), without a Python frame.
nanobind::object named_pair(const char* type_name, Tensor first, Tensor second);

}  // namespace tide::python
