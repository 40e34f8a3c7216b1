// tide's exceptions as Python exceptions with the same messages: tide._C.Error is a
// RuntimeError (what torch raises for misuse), and each named C++ subclass has a Python
// subclass of it, so `except RuntimeError` and `except tide.cuda.OutOfMemoryError` both work.

#include <exception>

#include "bindings.h"
#include "tide/distributed/process_group.h"
#include "tide/error.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

struct ErrorTypes {
  PyObject* error = nullptr;
  PyObject* out_of_memory = nullptr;
  PyObject* kernel = nullptr;
  PyObject* stream_race = nullptr;
  PyObject* internal = nullptr;
  PyObject* indexing = nullptr;
  PyObject* dist_backend = nullptr;
};

// Owned by the module (added as attributes below); the translator only borrows them.
ErrorTypes types;

PyObject* new_type(nb::module_& m, const char* name, PyObject* base, const char* doc) {
  std::string qualified = std::string("tide._C.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (type == nullptr) throw nb::python_error();
  m.attr(name) = nb::handle(type);  // the module holds a reference
  Py_DECREF(type);
  return type;
}

// The most derived C++ type decides the Python type; the message is tide's, unchanged.
void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const OutOfMemoryError& e) {
    PyErr_SetString(types.out_of_memory, e.what());
  } catch (const KernelError& e) {
    PyErr_SetString(types.kernel, e.what());
  } catch (const StreamRaceError& e) {
    PyErr_SetString(types.stream_race, e.what());
  } catch (const IndexingError& e) {
    PyErr_SetString(types.indexing, e.what());
  } catch (const InternalError& e) {
    PyErr_SetString(types.internal, e.what());
  } catch (const distributed::DistBackendError& e) {
    PyErr_SetString(types.dist_backend, e.what());
  } catch (const Error& e) {
    PyErr_SetString(types.error, e.what());
  }
}

}  // namespace

void bind_errors(nb::module_& m) {
  types.error = new_type(m, "Error", PyExc_RuntimeError,
                         "Raised by tide for misuse; the message says what was expected, what "
                         "was found and what to do.");
  types.out_of_memory = new_type(m, "OutOfMemoryError", types.error,
                                 "A device or pinned allocation failed even after freeing the "
                                 "cache (torch.cuda.OutOfMemoryError).");
  types.kernel = new_type(m, "KernelError", types.error,
                          "An enqueued operation failed; raised at the next synchronizing call, "
                          "naming the operation.");
  types.stream_race = new_type(m, "StreamRaceError", types.error,
                               "Two streams touch the same memory without ordering (the stream "
                               "sanitizer, TIDE_CUDA_SANITIZER=1).");
  types.internal = new_type(m, "InternalError", types.error,
                            "An invariant of tide itself broke: a bug in tide.");
  types.dist_backend = new_type(m, "DistBackendError", types.error,
                                "A collective failed in its backend (torch.distributed."
                                "DistBackendError).");
  // Both Python's IndexError (what torch raises for a bad index) and tide's Error.
  PyObject* indexing_bases = PyTuple_Pack(2, PyExc_IndexError, types.error);
  if (indexing_bases == nullptr) throw nb::python_error();
  types.indexing = new_type(m, "IndexingError", indexing_bases,
                            "An index outside the dim it indexes (an IndexError, as torch's).");
  Py_DECREF(indexing_bases);
  nb::register_exception_translator(translate);
}

}  // namespace tide::python
