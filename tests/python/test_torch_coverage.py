"""scripts/torch-coverage: README.md's coverage paragraph is the one the script computes from
the installed package and the checked-in torch 1.13 names (a name added to tide without
`build/venv/bin/python scripts/torch-coverage --write` fails here), and its exclusion groups
drop only what they name."""

import importlib.machinery
import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_script():
    loader = importlib.machinery.SourceFileLoader("torch_coverage",
                                                  str(ROOT / "scripts" / "torch-coverage"))
    spec = importlib.util.spec_from_loader("torch_coverage", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_readme_paragraph_is_current():
    script = load_script()
    rows, _ = script.coverage()
    current = script.readme_region((ROOT / "README.md").read_text())
    assert current is not None, "README.md lost the torch-coverage markers"
    assert current == script.readme_paragraph(rows), (
        "README.md's torch coverage paragraph is stale: run "
        "`build/venv/bin/python scripts/torch-coverage --write`")


def test_every_namespace_is_read_and_counted():
    script = load_script()
    rows, excluded = script.coverage()
    titles = [title for title, _, _ in rows]
    assert titles == ["torch", "torch.Tensor", "torch.nn.functional", "torch.nn", "torch.optim",
                      "torch.optim.lr_scheduler", "torch.utils.data"]
    by_title = {title: (applicable, missing) for title, applicable, missing in rows}
    # Names every tide build has are covered; names of excluded groups are not applicable.
    assert "Linear" in by_title["torch.nn"][0] and "Linear" not in by_title["torch.nn"][1]
    assert "add" in by_title["torch"][0] and "add" not in by_title["torch"][1]
    assert "SGD" in by_title["torch.optim"][0] and "SGD" not in by_title["torch.optim"][1]
    assert "sparse_coo_tensor" not in by_title["torch"][0]
    assert "view_as_complex" not in by_title["torch"][0]
    assert "quantile" in by_title["torch"][0]  # a quantile is not a quantized tensor
    assert ("torch", "ScriptModule") in excluded["TorchScript, IR and jit"]
    # Each exclusion group drops something (a group that matches nothing is a stale rule).
    assert set(excluded) == {group for group, _, _ in script.EXCLUDED}


def test_exclusion_rules_match_by_namespace():
    script = load_script()
    assert script.exclusion("torch.nn", "LazyLinear", set()) is not None
    assert script.exclusion("torch", "LazyLinear", set()) is None
    assert script.exclusion("torch", "nn", {"nn"}).startswith("submodules")
    assert script.exclusion("torch.Tensor", "names", set()) == "named tensors"
