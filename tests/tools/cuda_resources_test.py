"""scripts/cuda-resources on canned ptxas reports: the table, the spill list and the rule that
elementwise, reduction, softmax and optimizer kernels must not spill."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "cuda-resources"

CLEAN = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z6kernelPf' for 'sm_90'
ptxas info    : Function properties for _Z6kernelPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 31 registers, used 1 barriers, 2048 bytes smem
"""
SPILLING = """ptxas info    : Compiling entry function '_Z5otherPd' for 'sm_90'
ptxas info    : Function properties for _Z5otherPd
    8 bytes stack frame, 12 bytes spill stores, 14 bytes spill loads
ptxas info    : Used 40 registers, used 0 barriers
"""


def run(reports, stale=None):
    """A fake source tree with one .cu per report and a build tree holding the reports where
    the build puts them; `stale` adds a report whose source no longer exists."""
    with tempfile.TemporaryDirectory() as d:
        src, build = pathlib.Path(d) / "src", pathlib.Path(d) / "build"
        objects = build / "src" / "CMakeFiles" / "tide_cuda_objects.dir" / "kernels" / "cuda"
        objects.mkdir(parents=True)
        (src / "kernels" / "cuda").mkdir(parents=True)
        for name, text in reports.items():
            (src / "kernels" / "cuda" / name).write_text("// kernel\n")
            (objects / f"{name}.o.resource-usage").write_text(text)
        if stale:
            (objects / f"{stale}.o.resource-usage").write_text(SPILLING)
        return subprocess.run([sys.executable, str(SCRIPT), str(build), str(src)],
                              capture_output=True, text=True)


class CudaResources(unittest.TestCase):
    def test_a_clean_build_lists_every_file_and_passes(self):
        r = run({"elementwise_unary.cu": CLEAN, "cat_kernels.cu": CLEAN})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("elementwise_unary.cu", r.stdout)
        self.assertIn("2048", r.stdout)  # shared memory
        self.assertIn("no kernel spills", r.stdout)

    def test_a_spill_outside_the_rule_is_listed_but_passes(self):
        r = run({"cat_kernels.cu": SPILLING})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("12 B stores, 14 B loads, 40 regs: other", r.stdout)

    def test_a_spilling_reduction_or_optimizer_kernel_fails(self):
        for source in ("reduce_sum_kernels.cu", "optim_kernels.cu", "softmax_kernels.cu"):
            r = run({source: CLEAN + SPILLING})
            self.assertEqual(r.returncode, 1, source)
            self.assertIn("must not spill", r.stdout)

    def test_a_device_function_after_the_kernel_does_not_hide_its_spill(self):
        # ptxas prints blocks for non-inlined device functions too; and nvcc 13 puts the
        # cumulative stack size before smem on the registers line.
        report = """ptxas info    : Compiling entry function '_Z1kPd' for 'sm_90'
ptxas info    : Function properties for _Z1kPd
    264 bytes stack frame, 264 bytes spill stores, 264 bytes spill loads
ptxas info    : Used 64 registers, used 1 barriers, 8 bytes cumulative stack size, 1024 bytes smem
ptxas info    : Function properties for __internal_trig_reduction_slowpathd
    40 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
"""
        r = run({"reduce_sum_kernels.cu": report})
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("264 B stores", r.stdout)
        self.assertIn("1024", r.stdout)

    def test_reports_of_files_that_no_longer_exist_are_ignored(self):
        r = run({"reduce_sum_kernels.cu": CLEAN}, stale="reduce_old_kernels.cu")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("reduce_old", r.stdout)

    def test_a_build_without_cuda_is_not_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run([sys.executable, str(SCRIPT), d, d], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0)
        self.assertIn("without CUDA", r.stdout)


if __name__ == "__main__":
    unittest.main()
