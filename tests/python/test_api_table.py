"""README.md's table of the torch API that tide's Python package covers is the one
scripts/python-api-table generates from the package: a binding added or removed without
regenerating it (`build/venv/bin/python scripts/python-api-table --write`) fails here."""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_generator():
    spec = importlib.util.spec_from_loader(
        "python_api_table", importlib.machinery.SourceFileLoader(
            "python_api_table", str(ROOT / "scripts" / "python-api-table")))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_table_is_generated_from_the_bindings():
    generator = load_generator()
    readme = (ROOT / "README.md").read_text()
    current = generator.readme_table(readme)
    assert current is not None, "README.md lost the python-api-table markers"
    assert current == generator.table(), (
        "README.md's Python API table is stale: run "
        "`build/venv/bin/python scripts/python-api-table --write`")
