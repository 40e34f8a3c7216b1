#!/usr/bin/env python3
"""The GPU bundle's parts without a bundle (scripts/gpu-bundle, scripts/gpu_check/bundle_*.py):
the library checks on a small bundle made of this machine's programs, ctest's list rewritten
to bundle paths, the test runner against stand-in tests, the reproducible tarball, the
Fashion-MNIST slice, the machine's version check, and the report of a bundle run. The bundle
itself is proven by `scripts/gpu-bundle verify` (scripts/run-tests runs it after the ci
preset's tests). Registered in tests/CMakeLists.txt as GpuBundle.*; needs python3's standard
library, readelf and ldd."""
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(REPO, "scripts"))
from gpu_check import bundle_machine, bundle_pack, bundle_stages, bundle_tests, elf_deps  # noqa: E402
from gpu_check.bundle_layout import machine_library_kind  # noqa: E402


def temp_dir(test):
    d = tempfile.mkdtemp(prefix="gpu-bundle-test-")
    test.addCleanup(shutil.rmtree, d)
    return d


def library_of(program, soname):
    """Where this machine loads program's library soname from (ldd)."""
    for name, where in elf_deps.resolve(program):
        if name == soname:
            return where
    raise AssertionError(f"{program} does not load {soname}")


class LibraryChecks(unittest.TestCase):
    """A bundle of one program, /usr/bin/xz, which needs liblzma.so.5 (not the machine's)."""

    def setUp(self):
        self.root = temp_dir(self)
        os.makedirs(os.path.join(self.root, "bin"))
        os.makedirs(os.path.join(self.root, "lib"))
        self.program = os.path.join(self.root, "bin", "xz")
        shutil.copy("/usr/bin/xz", self.program)
        self.liblzma = library_of("/usr/bin/xz", "liblzma.so.5")
        self.env = {"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": os.path.join(self.root, "lib")}

    def test_a_library_missing_from_the_bundle_is_named_with_the_file_that_needs_it(self):
        files = elf_deps.elf_files(self.root)
        self.assertEqual(files, [self.program])
        self.assertEqual(elf_deps.unresolved(self.root, files, ["lib"]), ["bin/xz: liblzma.so.5"])
        # At run time the machine's copy hides the gap: ldd says where it came from.
        self.assertEqual(elf_deps.outside(self.root, files, self.env),
                         [f"bin/xz: liblzma.so.5 => {self.liblzma}"])

    def test_a_bundled_library_satisfies_both_checks(self):
        shutil.copy(self.liblzma, os.path.join(self.root, "lib", "liblzma.so.5"))
        files = elf_deps.elf_files(self.root)
        self.assertEqual(len(files), 2)
        self.assertEqual(elf_deps.unresolved(self.root, files, ["lib"]), [])
        self.assertEqual(elf_deps.outside(self.root, files, self.env), [])

    def test_what_a_file_asks_of_glibc_is_read_per_library(self):
        needs = elf_deps.version_needs(self.program)
        self.assertIn("libc.so.6", needs)
        self.assertTrue(all(v.startswith("GLIBC_") for v in needs["libc.so.6"]), needs)
        self.assertEqual(elf_deps.newest(["GLIBC_2.3", "GLIBC_2.34", "GLIBC_2.4", "GLIBCXX_3.4.9",
                                          "GLIBCXX_3.4.30", "CXXABI_1.3.13"]),
                         {"GLIBC_": "GLIBC_2.34", "GLIBCXX_": "GLIBCXX_3.4.30",
                          "CXXABI_": "CXXABI_1.3.13"})

    def test_the_machines_libraries_are_named_by_kind(self):
        for soname, kind in [("libcudart.so.13", "cuda"), ("libcublasLt.so.13", "cuda"),
                             ("libnccl.so.2", "cuda"), ("libcudnn_ops.so.9", "cuda"),
                             ("libcuda.so.1", "cuda"), ("libc.so.6", "glibc"),
                             ("ld-linux-x86-64.so.2", "glibc"), ("libstdc++.so.6", "compiler runtime"),
                             ("libgcc_s.so.1", "compiler runtime"), ("libgomp.so.1", None),
                             ("libz.so.1", None), ("libmpi.so.40", None), ("libcudafoo.so.1", None)]:
            self.assertEqual(machine_library_kind(soname), kind, soname)

    def test_ldd_lines(self):
        out = textwrap.dedent("""\
            \tlinux-vdso.so.1 (0x00007ffd5a9f2000)
            \tlibtide.so.0 => /b/lib/libtide.so.0 (0x00007f1f28e3b000)
            \tlibcudart.so.13 => not found
            \t/lib64/ld-linux-x86-64.so.2 (0x00007f1f28e73000)
            """)
        self.assertEqual(elf_deps.parse_ldd(out), [
            ("linux-vdso.so.1", "linux-vdso.so.1"), ("libtide.so.0", "/b/lib/libtide.so.0"),
            ("libcudart.so.13", None), ("ld-linux-x86-64.so.2", "/lib64/ld-linux-x86-64.so.2")])


CTEST = {"kind": "ctestInfo", "version": {"major": 1, "minor": 0}, "tests": [
    {"name": "native.Stream.A", "command": ["/b/tests/tide_runtime_tests", "--gtest_filter=Stream.A",
                                            "--unset-env=TIDE_SIM_DEVICES"],
     "properties": [{"name": "SKIP_REGULAR_EXPRESSION", "value": ["\\[  SKIPPED \\]"]},
                    {"name": "WORKING_DIRECTORY", "value": "/b/tests"}]},
    {"name": "mpi1_nccl.distributed",
     "command": ["/usr/bin/mpiexec", "--allow-run-as-root", "-np", "1", "/b/tests/tide_distributed_mpi_tests"],
     "properties": [{"name": "ENVIRONMENT", "value": ["TIDE_TEST_DIST_TIMEOUT_MS=60000"]},
                    {"name": "SKIP_RETURN_CODE", "value": 77}, {"name": "TIMEOUT", "value": 300.0},
                    {"name": "PROCESSORS", "value": 2}]},
    {"name": "Core.NotBundled", "command": ["/b/tests/tide_core_tests", "--gtest_filter=Core.X"]},
    {"name": "GpuCheck.Report", "command": ["/usr/bin/python3", "/src/tests/tools/gpu_check_test.py"]},
    {"name": "NOT_BUILT", "properties": []},
]}
BINARIES = ["/b/tests/tide_runtime_tests", "/b/tests/tide_distributed_mpi_tests"]


class TestList(unittest.TestCase):
    def test_ctests_of_bundled_binaries_are_rewritten_to_bundle_paths(self):
        entries = bundle_tests.from_ctest(CTEST, BINARIES, "/b", "/src", mpiexec="/usr/bin/mpiexec")
        self.assertEqual([e["name"] for e in entries], ["native.Stream.A", "mpi1_nccl.distributed"])
        native, nccl = entries
        self.assertEqual(native["command"], ["{bundle}/bin/tide_runtime_tests", "--gtest_filter=Stream.A",
                                             "--unset-env=TIDE_SIM_DEVICES"])
        self.assertEqual(native["skip_regex"], ["\\[  SKIPPED \\]"])
        self.assertEqual(nccl["command"], ["{bundle}/mpi/bin/mpiexec", "--allow-run-as-root", "-np", "1",
                                           "{bundle}/bin/tide_distributed_mpi_tests"])
        self.assertEqual((nccl["env"], nccl["skip_return_code"], nccl["timeout"], nccl["processors"]),
                         ({"TIDE_TEST_DIST_TIMEOUT_MS": "60000"}, 77, 300.0, 2))

    def test_a_path_into_the_build_tree_that_would_not_travel_is_an_error(self):
        ctest = {"tests": [{"name": "native.X", "command": ["/b/tests/tide_runtime_tests",
                                                            "--data=/src/tests/fixtures/x"]}]}
        with self.assertRaisesRegex(ValueError, r"\[gpu-bundle\] expected test native.X to name only "
                                                r"bundled paths, found /src"):
            bundle_tests.from_ctest(ctest, BINARIES, "/b", "/src")


class Runner(unittest.TestCase):
    """bundle_tests.run_tests against stand-in test programs."""

    def setUp(self):
        self.root = temp_dir(self)
        os.makedirs(os.path.join(self.root, "bin"))
        self.log = os.path.join(self.root, "tests.log")

    def program(self, name, body):
        path = os.path.join(self.root, "bin", name)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + body)
        os.chmod(path, 0o755)
        return "{bundle}/bin/" + name

    def entry(self, name, program, **props):
        return dict({"name": name, "command": [program], "env": {}, "timeout": 30.0}, **props)

    def test_statuses_follow_ctests_rules(self):
        entries = [
            self.entry("ok", self.program("ok", "exit 0\n")),
            self.entry("fails", self.program("fails", "echo boom; exit 1\n")),
            self.entry("skips by output", self.program("skip", "echo '[  SKIPPED ] 1 test'\n"),
                       skip_regex=["\\[  SKIPPED \\]"]),
            self.entry("skips by code", self.program("seventy_seven", "exit 77\n"), skip_return_code=77),
            self.entry("passes by output", self.program("pass_regex", "echo all good; exit 3\n"),
                       pass_regex=["all good"]),
            self.entry("env and bundle path", self.program("env", '[ "$X" = "$0" ] || exit 1\n'),
                       env={"X": "{bundle}/bin/env"}),
            self.entry("hangs", self.program("hang", "sleep 30\n"), timeout=0.5),
        ]
        results = bundle_tests.run_tests(entries, self.root, dict(os.environ), jobs=4, log_path=self.log)
        self.assertEqual([r["status"] for r in results],
                         ["passed", "failed", "skipped", "skipped", "passed", "passed", "timeout"])
        c = bundle_tests.count(results)
        self.assertEqual((c["total"], c["passed"], c["failed"], c["skipped"]), (7, 3, 2, 2))
        self.assertEqual(c["failed_names"], ["fails (failed)", "hangs (timeout)"])
        with open(self.log) as f:
            log = f.read()
        self.assertIn("==== fails: failed (exit 1", log)
        self.assertIn("boom", log)
        self.assertNotIn("==== ok:", log)

    def test_tests_not_started_by_the_deadline_are_reported_not_run(self):
        slow = self.program("slow", "sleep 1\n")
        entries = [self.entry(f"t{i}", slow) for i in range(4)]
        start = time.monotonic()
        results = bundle_tests.run_tests(entries, self.root, dict(os.environ), jobs=1,
                                         log_path=self.log, deadline=start + 1.5)
        self.assertLess(time.monotonic() - start, 4)
        statuses = [r["status"] for r in results]
        self.assertEqual(statuses[0], "passed")
        self.assertEqual(statuses[-1], "not run")
        self.assertEqual(bundle_tests.count(results)["not_run"], statuses.count("not run"))


class Packing(unittest.TestCase):
    def test_the_same_inputs_give_the_same_bytes(self):
        d = temp_dir(self)
        src = os.path.join(d, "src")
        os.makedirs(src)
        with open(os.path.join(src, "a.txt"), "w") as f:
            f.write("a\n")
        shutil.copy("/usr/bin/true", os.path.join(src, "prog"))

        def pack(name):
            c = bundle_pack.Contents()
            c.add_file("z/prog", os.path.join(src, "prog"))  # added out of order on purpose
            c.add_file("a.txt", os.path.join(src, "a.txt"))
            c.add_bytes("MANIFEST.json", b"{}\n")
            c.add_symlink("bin/alias", "../z/prog")
            out = os.path.join(d, name)
            bundle_pack.write_tar(c, out, mtime=1700000000)
            with open(out, "rb") as f:
                return hashlib.sha256(f.read()).hexdigest(), out

        first, path = pack("one.tar.xz")
        os.utime(os.path.join(src, "a.txt"), (1, 1))  # other mtimes, same contents
        second, _ = pack("two.tar.xz")
        self.assertEqual(first, second)
        import tarfile
        with tarfile.open(path) as tar:
            members = tar.getmembers()
        self.assertEqual([m.name for m in members], ["tide-gpu-bundle/MANIFEST.json", "tide-gpu-bundle/a.txt",
                                                     "tide-gpu-bundle/bin/alias", "tide-gpu-bundle/z/prog"])
        self.assertEqual({(m.uid, m.gid, m.uname, m.gname, m.mtime) for m in members},
                         {(0, 0, "", "", 1700000000)})
        self.assertEqual([oct(m.mode) for m in members], ["0o644", "0o644", "0o777", "0o755"])
        self.assertEqual(members[2].linkname, "../z/prog")

    def test_an_idx_slice_keeps_the_header_and_the_first_items(self):
        d = temp_dir(self)
        path = os.path.join(d, "train-images-idx3-ubyte.gz")
        header = bytes([0, 0, 8, 3]) + (5).to_bytes(4, "big") + (2).to_bytes(4, "big") + (3).to_bytes(4, "big")
        with gzip.open(path, "wb") as f:
            f.write(header + bytes(range(30)))
        sliced = bundle_pack.idx_slice(path, 2)
        self.assertEqual(gzip.decompress(sliced),
                         bytes([0, 0, 8, 3]) + (2).to_bytes(4, "big") + header[8:] + bytes(range(12)))
        self.assertEqual(sliced, bundle_pack.idx_slice(path, 2), "no time or name in the gzip header")
        self.assertEqual(gzip.decompress(bundle_pack.idx_slice(path, 99))[4:8], (5).to_bytes(4, "big"))


class Machine(unittest.TestCase):
    def test_what_the_machine_lacks_is_named_per_file(self):
        manifest = {"needs_by_file": {"lib/libevent_core-2.1.so.7": ["GLIBC_2.36"],
                                      "lib/libtide.so.0": ["CXXABI_1.3.13", "GLIBCXX_3.4.30", "GLIBC_2.34"]}}
        runtime = {"glibc": "2.35",
                   "libc.so.6": {"versions": [f"GLIBC_2.{m}" for m in range(36)]},
                   "libstdc++.so.6": {"versions": ["GLIBCXX_3.4.29", "CXXABI_1.3.13"]},
                   "libgcc_s.so.1": {"versions": ["GCC_4.3.0"]}}
        self.assertEqual(bundle_machine.too_new(manifest, runtime), [
            "lib/libevent_core-2.1.so.7: needs GLIBC_2.36 (newest here GLIBC_2.35)",
            "lib/libtide.so.0: needs GLIBCXX_3.4.30 (newest here GLIBCXX_3.4.29)"])
        runtime["libstdc++.so.6"]["versions"].append("GLIBCXX_3.4.33")
        runtime["libc.so.6"]["versions"].append("GLIBC_2.39")
        self.assertEqual(bundle_machine.too_new(manifest, runtime), [])

    def test_this_machines_runtime_is_read_without_binutils(self):
        runtime = bundle_machine.machine_runtime()
        self.assertRegex(runtime["glibc"], r"^2\.\d+$")
        self.assertRegex(runtime["libstdcxx"], r"^GLIBCXX_3\.4\.\d+$")
        self.assertTrue(all(v.startswith(("GLIBCXX_", "CXXABI_"))
                            for v in runtime["libstdc++.so.6"]["versions"]))

    def test_cuda_libraries_are_found_in_a_python_packages_nvidia_folder(self):
        site = temp_dir(self)
        lib = os.path.join(site, "nvidia", "cu13", "lib")
        os.makedirs(lib)
        open(os.path.join(lib, "libtidefake_cudart.so.13"), "w").close()
        python = os.path.join(site, "python")
        with open(python, "w") as f:
            f.write(f"#!/bin/sh\necho '[\"{site}\"]'\n")
        os.chmod(python, 0o755)
        self.assertIn(lib, bundle_machine.candidate_dirs(python))


class PytestOutput(unittest.TestCase):
    def test_failures_for_want_of_gpus_are_told_apart(self):
        out = textwrap.dedent("""\
            ..F.s
            =========================== short test summary info ============================
            FAILED ../tests/python/test_cuda.py::test_a - tide._C.Error: [cuda::DeviceGuard] invalid device ordinal: cuda:1 does not exist; there is 1 cuda device (cuda:0)
            FAILED ../tests/python/test_data_parallel.py::test_b - tide._C.Error: [DataParallel] device_ids [0, 2] holds 2, which is not a cuda device: this process has 1 cuda device(s); pass ...
            FAILED ../tests/python/test_dlpack.py::test_c - AssertionError: assert 1 == 2
            ERROR ../tests/python/test_gil.py::test_d
            2 failed, 125 passed, 5 skipped, 1 error in 57.10s
            """)
        summary, failures, fewer = bundle_stages.parse_pytest(out)
        self.assertEqual(summary, {"failed": 2, "passed": 125, "skipped": 5, "error": 1})
        self.assertEqual(failures, ["../tests/python/test_dlpack.py::test_c - AssertionError: assert 1 == 2",
                                    "../tests/python/test_gil.py::test_d"])
        self.assertEqual([f.split(" - ")[0] for f in fewer], ["../tests/python/test_cuda.py::test_a",
                                                             "../tests/python/test_data_parallel.py::test_b"])


class BundleReport(unittest.TestCase):
    def test_the_report_has_a_line_and_a_section_per_bundle_stage(self):
        d = temp_dir(self)

        def stage(name, status="ok", reason="", figures=None):
            with open(os.path.join(d, f"{name}.json"), "w") as f:
                json.dump({"stage": name, "status": status, "reason": reason, "duration_s": 2.0,
                           "commit": "abc", "figures": figures or {}}, f)

        counts = {"total": 326, "passed": 300, "failed": 1, "skipped": 25, "not_run": 0,
                  "failed_names": ["native.Stream.A (failed)"], "duration_s": 61.0,
                  "slowest": ["native.Stream.B 9.1s"]}
        stage("unpack", figures={"bundle_commit": "abc123", "glibc": "2.39", "libstdcxx": "GLIBCXX_3.4.33",
                                 "cuda_libraries": {"libcudart.so.13": "/usr/local/cuda/lib64/libcudart.so.13"},
                                 "cuda_missing": ["libnccl.so.2"], "python": {"version": "3.12.3", "headers": True,
                                                                              "include": "/usr/include/python3.12"}})
        stage("native", "failed", "1 of 326 native tests failed", {"config": "native", "native": counts})
        stage("train", figures={"train": {"command": "train --device cuda", "exit": 0, "accuracy": [71.5, 78.25],
                                          "seconds": 12.0}, "demo": {"exit": 0, "seconds": 5.0}})
        stage("python", "skipped", "the bundle cannot load here")
        r = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "gpu-check"), "--report-from", d],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        with open(os.path.join(d, "report.md")) as f:
            report = f.read()
        for text in ["- **Bundle:** commit abc123; machine's glibc 2.39, libstdc++ GLIBCXX_3.4.33",
                     "**Result:** FAILED: native (2 ok, 1 skipped, 1 failed, 3 not run)",
                     "| unpack | ok | 2.0s |", "| nccl | not run | — | |",
                     "- libcudart.so.13: /usr/local/cuda/lib64/libcudart.so.13",
                     "- libnccl.so.2: **not found**",
                     "| `native.` | 300 | 1 | 25 | 0 | 326 | 1m01s |", "- `native.Stream.A (failed)`",
                     "test accuracy after each epoch: 71.50%, 78.25%", "`tide demo`: exit 0, 5.0 s.",
                     "| python | skipped | 2.0s | the bundle cannot load here |"]:
            self.assertIn(text, report)


if __name__ == "__main__":
    unittest.main()
