// Note [Python indexing]: a key is read left to right as torch does. An int selects (the dim
// goes away), a slice narrows, None inserts a dim of size 1, Ellipsis skips the dims that the
// rest of the key does not name, and a 1-D integer tensor gathers with index_select. An int out
// of range or of a type that cannot index raises IndexError (what Python's protocols expect and
// torch raises); everything else that is wrong
// raises tide's Error from the view op that refuses it.

#include "tensor_index.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "tide/error.h"
#include "casters.h"
#include "py_int.h"
#include "tide/ops.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

// How many dims of the tensor the entry consumes.
int64_t dims_consumed(nb::handle entry) {
  if (entry.is_none() || entry.ptr() == Py_Ellipsis || PyBool_Check(entry.ptr())) return 0;
  return 1;
}

std::vector<nb::handle> entries_of(nb::handle key) {
  std::vector<nb::handle> entries;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle h : nb::borrow<nb::tuple>(key)) entries.push_back(h);
  } else {
    entries.push_back(key);
  }
  return entries;
}

// An int index; one too large for int64 is out of bounds like any other (IndexError).
int64_t index_value(nb::handle e, int64_t size, int64_t source_dim) {
  int overflow = 0;
  long long i = PyLong_AsLongLongAndOverflow(e.ptr(), &overflow);
  if (overflow != 0) {
    throw nb::index_error(("index " + std::string(nb::str(e).c_str()) +
                           " is out of bounds for dimension " + std::to_string(source_dim) +
                           " with size " + std::to_string(size)).c_str());
  }
  return i;
}

// `source_dim` is the dim of the indexed tensor that the entry names: torch's message counts
// dims there, not in the partly indexed result.
Tensor apply_int(const Tensor& t, int64_t dim, int64_t i, int64_t source_dim) {
  int64_t size = t.size(dim);
  if (i < -size || i >= size) {
    throw nb::index_error(("index " + std::to_string(i) + " is out of bounds for dimension " +
                           std::to_string(source_dim) + " with size " + std::to_string(size))
                              .c_str());
  }
  return t.select(dim, i);
}

// Python's slice rules: bounds of any size clamp to the dim (PySlice_AdjustIndices), so
// x[:2**70] is all of x, as in Python and torch.
Tensor apply_slice(const Tensor& t, int64_t dim, nb::handle entry) {
  Py_ssize_t start, stop, step;
  if (PySlice_Unpack(entry.ptr(), &start, &stop, &step) < 0) throw nb::python_error();
  TIDE_CHECK(step > 0, "[Tensor.__getitem__] step must be greater than zero, found ", step,
             " (negative steps are not supported, as in torch)");
  PySlice_AdjustIndices(static_cast<Py_ssize_t>(t.size(dim)), &start, &stop, step);
  return t.slice(dim, start, std::max(start, stop), step);
}


}  // namespace

Tensor index(const Tensor& self, nb::handle key) {
  std::vector<nb::handle> entries = entries_of(key);
  int64_t named = 0;
  int ellipses = 0;
  for (nb::handle e : entries) {
    named += dims_consumed(e);
    ellipses += e.ptr() == Py_Ellipsis;
  }
  TIDE_CHECK(ellipses <= 1, "[Tensor.__getitem__] an index can only have a single ellipsis "
             "('...'), found ", ellipses);
  TIDE_CHECK(named <= self.dim(), "[Tensor.__getitem__] too many indices for tensor of "
             "dimension ", self.dim(), " (", named, " given)");
  Tensor t = self;
  int64_t dim = 0;
  int64_t source_dim = 0;  // the dim of self that e names
  for (nb::handle e : entries) {
    if (is_int(e)) {
      t = apply_int(t, dim, index_value(e, t.size(dim), source_dim), source_dim);
    } else if (PySlice_Check(e.ptr())) {
      t = apply_slice(t, dim, e);
      ++dim;
    } else if (e.is_none() || PyBool_Check(e.ptr())) {
      // x[None] adds a dim; x[True] too (and x[False] would make it empty: not supported).
      TIDE_CHECK(!PyBool_Check(e.ptr()) || e.ptr() == Py_True,
                 "[Tensor.__getitem__] indexing with False is not supported");
      t = t.unsqueeze(dim);
      ++dim;
    } else if (e.ptr() == Py_Ellipsis) {
      dim += self.dim() - named;
      source_dim += self.dim() - named;
    } else if (nb::isinstance<Tensor>(e)) {
      const Tensor& idx = nb::cast<const Tensor&>(e);
      TIDE_CHECK(idx.dtype() == kInt64 || idx.dtype() == kInt32,
                 "[Tensor.__getitem__] tensors used as indices must be int64 or int32, found ",
                 name(idx.dtype()), " (boolean masks are not supported yet: use tide.where)");
      if (idx.dim() == 0) {
        t = apply_int(t, dim, idx.item().to_int64(), source_dim);
      } else {
        TIDE_CHECK(idx.dim() == 1, "[Tensor.__getitem__] an index tensor must have one "
                   "dimension, found ", idx.dim(), "; flatten it or index one dim at a time");
        t = t.index_select(dim, idx);
        ++dim;
      }
    } else if (PyIndex_Check(e.ptr())) {  // numpy integers and other __index__ types
      t = apply_int(t, dim, nb::cast<int64_t>(nb::int_(e)), source_dim);
    } else {
      // IndexError, as torch: a key of the wrong type is an indexing error in Python.
      throw nb::index_error((std::string("[Tensor.__getitem__] only integers, slices (`:`), "
                                         "ellipsis (`...`), None and integer tensors are valid "
                                         "indices, found ") +
                             nb::type_name(e.type()).c_str()).c_str());
    }
    source_dim += dims_consumed(e);
  }
  return t;
}

void index_assign(const Tensor& self, nb::handle key, nb::handle value) {
  for (nb::handle e : entries_of(key)) {
    TIDE_CHECK(!nb::isinstance<Tensor>(e) || nb::cast<const Tensor&>(e).dim() == 0,
               "[Tensor.__setitem__] assigning through an index tensor is not supported yet; "
               "index with ints and slices, or use index_select and tide.where");
  }
  Tensor view = index(self, key);
  if (nb::isinstance<Tensor>(value)) {
    const Tensor& src = nb::cast<const Tensor&>(value);
    view.copy_(src.shape() == view.shape() ? src : src.expand(view.sizes()));
  } else if (Scalar number; nb::try_cast(value, number)) {
    view.fill_(number);
  } else {
    throw nb::type_error((std::string("can't assign a ") + nb::type_name(value.type()).c_str() +
                          " to a tide tensor: assign a tensor or a number").c_str());
  }
}

}  // namespace tide::python
