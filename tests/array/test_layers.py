"""makeenv/array/ is built in layers: each module imports only the ones below it, at the top.

Lowest first. The compiled templates are loaded by ``cache`` as modules of their own and may use
what ``cache`` may. A new module goes into ``LAYERS`` where it belongs; a test failure names the
module and the import that breaks the order.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import makeenv.array

ARRAY = Path(makeenv.array.__file__).parent
LAYERS = [
    "function_ids",
    "inlining",
    "bare_calls",
    "plain_calls",
    "templates",
    "numba_helpers",
    "results",
    "errors",
    "agents",
    "cache",
    "referee",
    "readme",
    "runner",
    "contract",
    "check",
    "scaffold",
    "__init__",
]
TEMPLATES = {"_referee_template": "cache", "_loop_template": "cache", "_batch_template": "cache"}


def imported_array_modules(tree: ast.Module) -> list[tuple[str, int, bool]]:
    """(module under makeenv.array, line, at module level) for every import of one."""
    found = []
    top_level = {id(node) for node in tree.body}
    guarded = {
        id(inner)
        for node in tree.body
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "makeenv.array":
                names = [alias.name for alias in node.names]
            elif node.module.startswith("makeenv.array."):
                names = [node.module.split(".")[2]]
        elif isinstance(node, ast.Import):
            names = [a.name.split(".")[2] for a in node.names if a.name.startswith("makeenv.array.")]
        if id(node) in guarded:
            continue  # types only: no import at run time
        found += [(name, node.lineno, id(node) in top_level) for name in names]
    return found


def layer_problems(folder: Path, layers: list[str], templates: dict[str, str]) -> list[str]:
    """Every import in ``folder`` that is function-local or goes up (or sideways) the layers."""
    rank = {name: i for i, name in enumerate(layers)}
    rank.update({name: rank[below] + 0.5 for name, below in templates.items()})
    problems = []
    for path in sorted(folder.glob("*.py")):
        module = path.stem
        if module not in rank:
            problems.append(f"{path.name}: not in LAYERS; add it where it belongs (lowest first)")
            continue
        for name, line, top in imported_array_modules(ast.parse(path.read_text(encoding="utf-8"))):
            if not top:
                problems.append(f"{path.name}:{line} imports {name} inside a function; import it at the top")
            elif name in rank and rank[name] >= rank[module] and module != "__init__":
                problems.append(f"{path.name}:{line} imports {name}, which is not below {module} in LAYERS")
    return problems


def test_array_modules_import_only_lower_layers_at_the_top():
    assert layer_problems(ARRAY, LAYERS, TEMPLATES) == []


def test_the_layer_check_finds_an_upward_and_a_local_import(tmp_path):
    (tmp_path / "errors.py").write_text("from makeenv.array.runner import evaluate\n")
    (tmp_path / "runner.py").write_text("def f():\n    from makeenv.array import errors\n")
    (tmp_path / "extra.py").write_text("")
    problems = layer_problems(tmp_path, ["errors", "runner"], {})
    assert problems == [
        "errors.py:1 imports runner, which is not below errors in LAYERS",
        "extra.py: not in LAYERS; add it where it belongs (lowest first)",
        "runner.py:2 imports errors inside a function; import it at the top",
    ]


@pytest.mark.parametrize("name", ["templates", "errors", "cache", "referee", "runner", "contract"])
def test_each_layer_imports_on_its_own(name):
    """No hidden cycles: every layer can be the first one imported."""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", f"import makeenv.array.{name}"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
