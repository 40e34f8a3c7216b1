// Note [Python indexing]: a key is read left to right as torch does. An int selects (the dim
// goes away), a slice narrows, None inserts a dim of size 1, Ellipsis skips the dims that the
// rest of the key does not name: together a view. Integer tensors (of any shape), bool masks
// (covering as many dims as they have) and lists of them are advanced indices: they are
// collected with the view dim they start at and handed, with None for the dims between, to
// tide::index (a copy; Note [Advanced indexing] in src/ops/indexing.cpp places the indexed dims
// as torch does) or, for an assignment, tide::Tensor::index_put_ on the view, which writes
// through to self. An int out of range or of a type that cannot index raises IndexError (what
// Python's protocols expect and torch raises); everything else that is wrong raises tide's Error
// from the op that refuses it.

#include "tensor_index.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "tide/error.h"
#include "casters.h"
#include "py_int.h"
#include "tide/factories.h"
#include "tide/ops.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

bool is_mask(const Tensor& t) { return t.dtype() == kBool || t.dtype() == kUInt8; }

// How many dims of the tensor the entry consumes (a mask: as many as it has).
int64_t dims_consumed(nb::handle entry) {
  if (entry.is_none() || entry.ptr() == Py_Ellipsis || PyBool_Check(entry.ptr())) return 0;
  if (nb::isinstance<Tensor>(entry)) {
    const Tensor& t = nb::cast<const Tensor&>(entry);
    if (is_mask(t)) return t.dim();
  }
  return 1;
}

// A list or tuple inside the key (x[[0, 2]], x[[True, False]]) indexes as the tensor it makes.
nb::object as_index_tensor(nb::handle e) {
  return nb::module_::import_("tide").attr("tensor")(e);
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


// The view that the basic entries of a key select, and the advanced indices to apply to it:
// one entry per view dim from the first, None (undefined) where no tensor indexes it.
struct ParsedKey {
  Tensor view;
  std::vector<Tensor> indices;  // empty: basic indexing only
};

ParsedKey parse_key(const Tensor& self, nb::handle key) {
  std::vector<nb::handle> entries = entries_of(key);
  std::vector<nb::object> converted;  // keeps tensors made from lists alive
  for (nb::handle& e : entries) {
    if (PyList_Check(e.ptr()) || (PyTuple_Check(e.ptr()) && e.ptr() != key.ptr())) {
      converted.push_back(as_index_tensor(e));
      e = converted.back();
    }
  }
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
  std::vector<std::pair<int64_t, Tensor>> advanced;  // (view dim, index)
  for (nb::handle e : entries) {
    if (is_int(e)) {
      t = apply_int(t, dim, index_value(e, t.size(dim), source_dim), source_dim);
    } else if (PySlice_Check(e.ptr())) {
      t = apply_slice(t, dim, e);
      ++dim;
    } else if (e.is_none() || PyBool_Check(e.ptr())) {
      // x[None] adds a dim of size 1; x[True] too, and x[False] one of size 0 (torch's
      // rule: a Python bool is a 0-dim mask), so x[False] = v writes nothing.
      t = t.unsqueeze(dim);
      if (e.ptr() == Py_False) t = t.narrow(dim, 0, 0);
      ++dim;
    } else if (e.ptr() == Py_Ellipsis) {
      dim += self.dim() - named;
      source_dim += self.dim() - named;
    } else if (nb::isinstance<Tensor>(e)) {
      Tensor idx = nb::cast<Tensor>(e);
      TIDE_CHECK_T(IndexingError, idx.dtype() == kInt64 || idx.dtype() == kInt32 || is_mask(idx),
                 "[Tensor.__getitem__] tensors used as indices must be long, int, byte or bool "
                 "tensors, found ", name(idx.dtype()));
      if (idx.dim() == 0 && !is_mask(idx)) {
        t = apply_int(t, dim, idx.item().to_int64(), source_dim);
      } else {
        // A cpu index may index a GPU tensor, as in torch.
        if (idx.device() != t.device()) idx = idx.to(t.device());
        advanced.emplace_back(dim, idx);
        dim += is_mask(idx) ? idx.dim() : 1;
      }
    } else if (PyIndex_Check(e.ptr())) {  // numpy integers and other __index__ types
      t = apply_int(t, dim, nb::cast<int64_t>(nb::int_(e)), source_dim);
    } else {
      // IndexError, as torch: a key of the wrong type is an indexing error in Python.
      throw nb::index_error((std::string("[Tensor.__getitem__] only integers, slices (`:`), "
                                         "ellipsis (`...`), None, lists and tensors are valid "
                                         "indices, found ") +
                             nb::type_name(e.type()).c_str()).c_str());
    }
    source_dim += dims_consumed(e);
  }
  ParsedKey parsed{t, {}};
  int64_t d = 0;
  for (const auto& [at, idx] : advanced) {
    for (; d < at; ++d) parsed.indices.emplace_back();
    parsed.indices.push_back(idx);
    d += is_mask(idx) ? idx.dim() : 1;
  }
  return parsed;
}

}  // namespace

Tensor index(const Tensor& self, nb::handle key) {
  ParsedKey p = parse_key(self, key);
  if (p.indices.empty()) return p.view;
  return tide::index(p.view, p.indices);
}

void index_assign(const Tensor& self, nb::handle key, nb::handle value) {
  // x[mask] = number with a bool mask of x's own shape on x's device is index_put_'s masked
  // fill (Note [A mask and one value] in src/ops/indexing.cpp): called as that directly, it
  // skips the key's parsing and the value's tensor. A self that autograd must see keeps
  // index_put_, which it records.
  if (nb::isinstance<Tensor>(key) && !nb::isinstance<Tensor>(value)) {
    const Tensor& mask = nb::cast<const Tensor&>(key);
    Scalar number;
    if (mask.dtype() == kBool && mask.dim() > 0 && mask.device() == self.device() &&
        mask.shape() == self.shape() && !self.requires_grad() && nb::try_cast(value, number)) {
      Tensor(self).masked_fill_(mask, number);
      return;
    }
  }
  ParsedKey p = parse_key(self, key);
  if (!p.indices.empty()) {
    Tensor v;
    if (nb::isinstance<Tensor>(value)) {
      // torch converts the value to self's dtype and device for an assignment.
      v = nb::cast<const Tensor&>(value).to(self.device(), self.dtype());
    } else if (Scalar number; nb::try_cast(value, number)) {
      v = full({}, number, tide::device(self.device()).dtype(self.dtype()));
    } else {
      throw nb::type_error((std::string("can't assign a ") + nb::type_name(value.type()).c_str() +
                            " to a tide tensor: assign a tensor or a number").c_str());
    }
    p.view.index_put_(p.indices, v);
    return;
  }
  Tensor view = p.view;
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
