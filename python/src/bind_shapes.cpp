// Issue 25 item 5's shape and linear-algebra ops and item 3's triangles and diagonals under
// torch's names: Tensor methods (in-place forms return self) and the free functions that are
// not method forms. Arguments torch takes as an int or a sequence (flip's dims, roll's shifts,
// repeat's *sizes) are normalised in python/tide/_shapes.py, which also makes the free
// functions that are method forms.

#include <optional>
#include <string>
#include <vector>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.h"
#include "casters.h"
#include "tide/ops.h"

namespace nb = nanobind;

namespace tide::python {
namespace {

using T = const Tensor&;
using Ints = std::vector<int64_t>;

}  // namespace

void bind_shapes(nb::module_& m, nb::class_<Tensor>& t) {
  t.def("_flip", &Tensor::flip)
      .def("fliplr", &Tensor::fliplr)
      .def("flipud", &Tensor::flipud)
      .def("_roll", &Tensor::roll)
      .def("_rot90", &Tensor::rot90)
      .def("_tile", &Tensor::tile)
      .def("_repeat", &Tensor::repeat)
      .def("_repeat_interleave", [](T self, int64_t repeats, std::optional<int64_t> dim,
                                    std::optional<int64_t> output_size) {
        return self.repeat_interleave(repeats, dim, output_size);
      })
      .def("_repeat_interleave", [](T self, T repeats, std::optional<int64_t> dim,
                                    std::optional<int64_t> output_size) {
        return self.repeat_interleave(repeats, dim, output_size);
      })
      .def("_movedim", [](T self, Ints source, Ints destination) {
        return self.movedim(std::move(source), std::move(destination));
      })
      .def("swapaxes", &Tensor::swapaxes, nb::arg("axis0"), nb::arg("axis1"))
      .def("swapdims", &Tensor::swapdims, nb::arg("dim0"), nb::arg("dim1"))
      .def("_unflatten", &Tensor::unflatten)
      .def("unbind", &Tensor::unbind, nb::arg("dim") = 0)
      .def("_tensor_split", [](T self, int64_t sections, int64_t dim) {
        return self.tensor_split(sections, dim);
      })
      .def("_tensor_split", [](T self, Ints indices, int64_t dim) {
        return self.tensor_split(std::move(indices), dim);
      })
      .def("split_with_sizes", &Tensor::split_with_sizes, nb::arg("split_sizes"),
           nb::arg("dim") = 0)
      .def("_broadcast_to", &Tensor::broadcast_to)
      .def("ravel", &Tensor::ravel)
      .def("tril", &Tensor::tril, nb::arg("diagonal") = 0)
      .def("triu", &Tensor::triu, nb::arg("diagonal") = 0)
      .def("tril_", [](nb::object self, int64_t diagonal) {
        nb::cast<Tensor&>(self).tril_(diagonal);
        return self;
      }, nb::arg("diagonal") = 0)
      .def("triu_", [](nb::object self, int64_t diagonal) {
        nb::cast<Tensor&>(self).triu_(diagonal);
        return self;
      }, nb::arg("diagonal") = 0)
      .def("diagonal", &Tensor::diagonal, nb::arg("offset") = 0, nb::arg("dim1") = 0,
           nb::arg("dim2") = 1)
      .def("diag_embed", &Tensor::diag_embed, nb::arg("offset") = 0, nb::arg("dim1") = -2,
           nb::arg("dim2") = -1)
      .def("diag", &Tensor::diag, nb::arg("diagonal") = 0)
      .def("diagflat", &Tensor::diagflat, nb::arg("offset") = 0)
      // ---- linear algebra
      .def("dot", &Tensor::dot, nb::arg("tensor"))
      .def("vdot", &Tensor::vdot, nb::arg("other"))
      .def("mv", &Tensor::mv, nb::arg("vec"))
      .def("outer", &Tensor::outer, nb::arg("vec2"))
      .def("ger", &Tensor::ger, nb::arg("vec2"))
      .def("inner", &Tensor::inner, nb::arg("other"))
      .def("addmv", &Tensor::addmv, nb::arg("mat"), nb::arg("vec"), nb::kw_only(),
           nb::arg("beta") = 1, nb::arg("alpha") = 1)
      .def("addr", &Tensor::addr, nb::arg("vec1"), nb::arg("vec2"), nb::kw_only(),
           nb::arg("beta") = 1, nb::arg("alpha") = 1)
      .def("baddbmm", &Tensor::baddbmm, nb::arg("batch1"), nb::arg("batch2"), nb::kw_only(),
           nb::arg("beta") = 1, nb::arg("alpha") = 1)
      .def("addbmm", &Tensor::addbmm, nb::arg("batch1"), nb::arg("batch2"), nb::kw_only(),
           nb::arg("beta") = 1, nb::arg("alpha") = 1)
      .def("kron", &Tensor::kron, nb::arg("other"))
      .def("cross", &Tensor::cross, nb::arg("other"), nb::arg("dim").none() = nb::none())
      .def("trace", &Tensor::trace);

  m.def("_einsum", &tide::einsum);
  m.def("_tensordot", &tide::tensordot);
  m.def("_linalg_cross", &tide::linalg_cross);
  m.def("_meshgrid", [](const std::vector<Tensor>& tensors, const std::string& indexing) {
    return tide::meshgrid(tensors, indexing);
  }, nb::arg("tensors"), nb::arg("indexing"));
  m.def("broadcast_tensors", [](nb::args tensors) {
    std::vector<Tensor> ts;
    for (nb::handle h : tensors) ts.push_back(nb::cast<Tensor>(h));
    return tide::broadcast_tensors(ts);
  });
  m.def("_atleast_1d", &tide::atleast_1d);
  m.def("_atleast_2d", &tide::atleast_2d);
  m.def("_atleast_3d", &tide::atleast_3d);
  m.def("hstack", &tide::hstack, nb::arg("tensors"));
  m.def("vstack", &tide::vstack, nb::arg("tensors"));
  m.def("row_stack", &tide::row_stack, nb::arg("tensors"));
  m.def("dstack", &tide::dstack, nb::arg("tensors"));
  m.def("column_stack", &tide::column_stack, nb::arg("tensors"));
  m.def("_repeat_interleave", [](T repeats, std::optional<int64_t> output_size) {
    return tide::repeat_interleave(repeats, output_size);
  });
}

}  // namespace tide::python
