"""scripts/gen_ops.py (Note [Op table] in docs/op-table.md): the checked-in generated files match
src/ops/ops.yaml, and the generator catches a stale file, a bad entry and a missing region."""
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "gen_ops.py"
sys.path.insert(0, str(SCRIPT.parent))
import gen_ops  # noqa: E402  (the generator's own functions, for the unit tests below)


def run(*args):
    return subprocess.run([sys.executable, "-B", str(SCRIPT), *args], capture_output=True,
                          text=True)


class CopiedTree:
    """The table and every file the generator writes, copied into a temporary source tree."""

    def __enter__(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.dir.name)
        for path in [gen_ops.TABLE] + [out[0] for out in gen_ops.OUTPUTS]:
            (self.root / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / path, self.root / path)
        return self.root

    def __exit__(self, *exc):
        self.dir.cleanup()


class Freshness(unittest.TestCase):
    def test_checked_in_files_match_the_table(self):
        result = run("--check")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("match src/ops/ops.yaml", result.stdout)

    def test_an_edited_table_makes_the_check_fail_and_name_the_stale_files(self):
        with CopiedTree() as root:
            table = root / gen_ops.TABLE
            text = table.read_text()
            entry = text.index("  - func: tanh(Tensor self) -> Tensor")
            end = text.index("\n\n", entry)
            table.write_text(text[:entry] + text[end + 2:])
            result = run("--check", "--root", str(root))
            self.assertEqual(result.returncode, 1, result.stdout)
            self.assertIn("include/tide/ops.h", result.stdout)
            self.assertIn("-Tensor tanh(const Tensor& self);", result.stdout)
            # writing in place makes the tree fresh again
            self.assertEqual(run("--root", str(root)).returncode, 0)
            self.assertEqual(run("--check", "--root", str(root)).returncode, 0)

    def test_out_writes_every_output_under_the_folder(self):
        with tempfile.TemporaryDirectory() as out:
            self.assertEqual(run("--out", out).returncode, 0)
            for path, *_ in gen_ops.OUTPUTS:
                self.assertEqual((pathlib.Path(out) / path).read_text(), (ROOT / path).read_text(),
                                 path)


class Entries(unittest.TestCase):
    def op(self, **fields):
        entry = {"func": "sigmoid(Tensor self) -> Tensor", "variants": ["function", "method"],
                 "plan": "unary_float", "kernel": "Sigmoid", "autograd": "traced"}
        entry.update(fields)
        return gen_ops.Op(entry, "elementwise")

    def test_an_unknown_key_is_refused(self):
        with self.assertRaisesRegex(ValueError, "unknown keys \\['derivativ'\\]"):
            self.op(derivativ="g")

    def test_an_unknown_argument_type_is_refused(self):
        with self.assertRaisesRegex(ValueError, "expected 'Type name"):
            self.op(func="sigmoid(Tensr self) -> Tensor")

    def test_only_out_overloads_are_out_variants(self):
        # to.dtype_layout ends in "out" but is torch's to(options), not an out= form.
        self.assertFalse(self.op(func="sigmoid.dtype_layout(Tensor self) -> Tensor").is_out)
        self.assertTrue(self.op(func="sigmoid.out(Tensor self, *, Tensor(a!) out) -> "
                                     "Tensor(a!)").is_out)
        self.assertTrue(self.op(func="sigmoid.Scalar_out(Tensor self, *, Tensor(a!) out) -> "
                                     "Tensor(a!)").is_out)

    def test_a_front_end_enters_once_and_passes_the_real_name(self):
        text = "\n".join(gen_ops.front_end(self.op()))
        self.assertEqual(text.count("detail::op_intercepted(self)"), 1)
        self.assertIn("return autograd::traced::sigmoid(self);", text)
        self.assertIn('detail::unary_float(UnaryOp::Sigmoid, self, "sigmoid")', text)

    def test_an_out_variant_refuses_autograd_then_runs_the_plan(self):
        op = self.op(func="add.out(Tensor(a!) out, Tensor self, Tensor other, *, Scalar alpha=1)"
                          " -> Tensor(a!)", variants=["function"], plan="binary", kernel="Add",
                     autograd="refuse")
        text = "\n".join(gen_ops.front_end(op))
        self.assertIn("Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, "
                      "Scalar alpha)", text)
        self.assertIn('autograd::traced::check_out_variant("add_out");', text)
        self.assertIn('return detail::binary_out(BinaryOp::Add, out, self, other, alpha, "add_out");',
                      text)

    def test_an_explicit_plan_calls_the_ops_own_front_end_with_its_parameters(self):
        op = self.op(func="sum.dim_int(Tensor self, int dim, bool keepdim=False, *, "
                          "ScalarType? dtype=None) -> Tensor", plan="explicit",
                     traced_call="sum(self, {dim}, keepdim, dtype)")
        text = "\n".join(gen_ops.front_end(op))
        self.assertIn("return autograd::traced::sum(self, {dim}, keepdim, dtype);", text)
        self.assertIn("return detail::plain_sum(self, dim, keepdim, dtype);", text)
        self.assertEqual(gen_ops.function_declarations([op]),
                         ["Tensor sum(const Tensor& self, int64_t dim, bool keepdim = false,",
                          "           std::optional<Dtype> dtype = std::nullopt);"])
        self.assertEqual(gen_ops.traced_declarations([op]), [])  # it records through another

    def test_the_entry_looks_only_at_the_differentiable_operands(self):
        op = self.op(func="where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
                     plan="explicit", differentiable=["self", "other"])
        self.assertIn("detail::op_intercepted(self, other)", "\n".join(gen_ops.front_end(op)))
        with self.assertRaisesRegex(ValueError, "differentiable names no tensor argument"):
            gen_ops.front_end(self.op(plan="explicit", differentiable=["input"]))

    def test_a_method_only_op_has_its_front_end_in_the_method(self):
        op = gen_ops.Op({"func": "view(Tensor(a) self, int[] sizes) -> Tensor(a)",
                         "variants": ["method"], "plan": "explicit", "autograd": "traced"},
                        "views")
        text = "\n".join(gen_ops.methods_file([op]))
        self.assertIn("Tensor Tensor::view(std::vector<int64_t> sizes) const {", text)
        self.assertIn("detail::op_intercepted(*this)", text)
        self.assertIn("return autograd::traced::view(*this, std::move(sizes));", text)
        self.assertIn("return detail::plain_view(*this, sizes);", text)  # it only reads them
        self.assertEqual(gen_ops.plain_declarations([op]),
                         ["Tensor plain_view(const Tensor& self, "
                          "const std::vector<int64_t>& sizes);"])
        self.assertEqual(gen_ops.front_ends_file([op]).count("Tensor view("), 0)
        self.assertEqual(gen_ops.traced_declarations([op]),
                         ["Tensor view(const Tensor& self, std::vector<int64_t> sizes);"])

    def test_an_in_place_method_only_op_is_a_non_const_method(self):
        op = gen_ops.Op({"func": "uniform_(Tensor(a!) self, float from=0, float to=1) -> "
                                 "Tensor(a!)",
                         "variants": ["method"], "plan": "explicit", "autograd": "traced"},
                        "fills")
        self.assertEqual(gen_ops.method_declarations([op]),
                         ["  Tensor& uniform_(double from = 0, double to = 1);"])
        self.assertIn("Tensor& Tensor::uniform_(double from, double to) {",
                      "\n".join(gen_ops.methods_file([op])))

    def test_list_optional_and_options_types(self):
        op = gen_ops.Op({"func": "f(Tensor[] tensors, Tensor? bias=None, int? start=None, "
                                 "TensorOptions options, float p=0.5) -> Tensor[]",
                         "variants": ["function"], "plan": "explicit", "autograd": "traced"},
                        "shape")
        self.assertEqual(gen_ops.function_declarations([op]),
                         ["std::vector<Tensor> f(const std::vector<Tensor>& tensors, "
                          "const Tensor& bias = {},",
                          "                      std::optional<int64_t> start = std::nullopt, "
                          "const TensorOptions& options,",
                          "                      double p = 0.5);"])
        # the entry looks at the list and the optional tensor, not at the options
        self.assertIn("detail::op_intercepted(tensors, bias)", "\n".join(gen_ops.front_end(op)))

    def test_a_composite_op_runs_its_parts_without_an_entry_of_its_own(self):
        op = gen_ops.Op({"func": "stack(Tensor[] tensors, int dim=0) -> Tensor",
                         "variants": ["function"], "plan": "explicit",
                         "autograd": "composite"}, "shape")
        text = "\n".join(gen_ops.front_end(op))
        self.assertNotIn("op_intercepted", text)
        self.assertIn("return detail::plain_stack(tensors, dim);", text)
        self.assertEqual(gen_ops.traced_declarations([op]), [])

    def test_a_missing_region_names_the_lines_to_add(self):
        with self.assertRaisesRegex(ValueError, "// @generated begin kernel-enums"):
            gen_ops.replace_region("no region here\n", "x.h", "kernel-enums", [], "//")


if __name__ == "__main__":
    unittest.main()
