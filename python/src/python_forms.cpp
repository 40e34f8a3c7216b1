#include "python_forms.h"

#include <string>

#include "casters.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

nb::object call_python_form(const std::string& key, nb::handle args, nb::handle kwargs) {
  nb::object form = nb::module_::import_("tide._ops").attr("_PYTHON_FORMS")[key.c_str()];
  PyObject* result = PyObject_Call(form.ptr(), args.ptr(), kwargs.ptr());
  if (result == nullptr) throw nb::python_error();
  return nb::steal(result);
}

}  // namespace

void def_python_fallback(nb::module_& m, const char* name) {
  m.def(name, [key = std::string(name)](nb::args args, nb::kwargs kwargs) {
    return call_python_form(key, args, kwargs);
  });
}

void def_python_fallback(nb::class_<Tensor>& cls, const char* name) {
  cls.def(name, [key = "Tensor." + std::string(name)](nb::handle self, nb::args args,
                                                       nb::kwargs kwargs) {
    // The Python definition takes self first, as the method's own call would pass it.
    const Py_ssize_t n = PyTuple_GET_SIZE(args.ptr());
    nb::object all = nb::steal(PyTuple_New(n + 1));
    if (!all.is_valid()) throw nb::python_error();
    PyTuple_SET_ITEM(all.ptr(), 0, self.inc_ref().ptr());
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyTuple_SET_ITEM(all.ptr(), i + 1, nb::handle(PyTuple_GET_ITEM(args.ptr(), i)).inc_ref().ptr());
    }
    return call_python_form(key, all, kwargs);
  });
}

nb::object named_pair(const char* type_name, Tensor first, Tensor second) {
  // Looked up once and kept for the process (a static nb::object would be released after the
  // interpreter has gone).
  static PyObject* module = nb::module_::import_("tide.return_types").release().ptr();
  nb::object type = nb::steal(PyObject_GetAttrString(module, type_name));
  if (!type.is_valid()) throw nb::python_error();
  nb::object pair = nb::make_tuple(nb::cast(std::move(first)), nb::cast(std::move(second)));
  PyObject* made = PyTuple_Type.tp_new(reinterpret_cast<PyTypeObject*>(type.ptr()),
                                       nb::make_tuple(pair).ptr(), nullptr);
  if (made == nullptr) throw nb::python_error();
  return nb::steal(made);
}

}  // namespace tide::python
