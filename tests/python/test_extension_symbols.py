"""tide._C exports PyInit__C and nothing else (Note [The extension exports nothing but PyInit__C]
in python/CMakeLists.txt): a compiler that links libstdc++ into the extension statically would
otherwise let libtide bind part of its std:: calls into that copy, and the first tide error
raised after `import torch` crashed (the H200's first run)."""

import shutil
import subprocess

import pytest

import tide
import tide._C


def test_the_extension_exports_only_its_module_init():
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("nm (binutils) is not installed: cannot list the extension's symbols")
    out = subprocess.run([nm, "-D", "--defined-only", tide._C.__file__], capture_output=True,
                         text=True, check=True).stdout
    exported = sorted(line.split()[-1] for line in out.splitlines() if line.strip())
    assert exported == ["PyInit__C"], f"{tide._C.__file__} also exports {exported[:10]}"


def test_a_tide_error_after_importing_torch_is_an_exception():
    torch = pytest.importorskip("torch")
    assert torch.zeros(1).shape == (1,)
    with pytest.raises(tide.Error, match=r"invalid for input of size 2"):
        tide.zeros(2).view(3)
