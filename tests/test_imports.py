"""The shape of the package: which part may import which, and no import circles.

Read from the source with `ast`. Every import written counts, wherever it stands: at the top, inside
a function (a lazy import is still a dependency, only a later one), or under `if TYPE_CHECKING:`
(the module's signatures speak of the other's types, so the two cannot be read apart, and the day
the annotation is needed at run time the circle is a real one). The directions are the
architecture written down; each package's `__init__` docstring says the same in words.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "referee"
TOP = {"referee", "referee.errors", "referee.safe", "referee.writing"}  # what anything may use

# part -> the parts it may import besides itself and TOP. A part missing here may import any
# part but the skins; a skin (cli, web) is imported by nothing but what is listed.
MAY_IMPORT = {
    "rules": set(),
    "search": {"rules"},
    "cards": {"rules"},
    "ruling": {"rules", "cards"},
    "lint": {"rules", "ruling", "search", "cards"},
}
SKINS = {"cli", "web"}
SKIN_USERS = {"cli": {"__main__"}, "web": {"cli"}}  # `referee serve` (cli/serve.py) starts the web skin


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the referee modules it imports (a name imported from a package is the package,
    unless a module of that name exists in it)."""
    files = {module_name(p, root): p for p in root.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for mod, path in files.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.split(".")[0] == root.name)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != root.name:
                    continue
                for a in node.names:
                    deps.add(f"{target}.{a.name}" if f"{target}.{a.name}" in files else target)
        deps.discard(mod)
        edges[mod] = {d for d in deps if d in files}
    return edges


def part(mod: str) -> str:
    pieces = mod.split(".")
    return mod if len(pieces) == 1 or mod in TOP else pieces[1]


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def forbidden(edges: dict[str, set[str]]) -> list[str]:
    wrong = []
    for mod, deps in sorted(edges.items()):
        here = part(mod)
        for dep in sorted(deps):
            there = part(dep)
            if there == here or dep in TOP:
                continue
            if there in SKINS and here not in SKIN_USERS[there] and not mod.endswith("__main__"):
                wrong.append(f"{mod} imports {dep}: nothing imports the {there} skin")
            elif here in MAY_IMPORT and there not in MAY_IMPORT[here]:
                wrong.append(f"{mod} imports {dep}: {here} may import only {sorted(MAY_IMPORT[here]) or 'nothing of referee'}")
    return wrong


def test_no_import_circles() -> None:
    assert circles(graph()) == []


def test_every_import_runs_the_allowed_way() -> None:
    assert forbidden(graph()) == []


def test_at_most_five_modules_beside_the_packages() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 5, top
    for pkg in sorted(p for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()):
        doc = ast.get_docstring(ast.parse((pkg / "__init__.py").read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 15, f"{pkg.name}/__init__.py has no face docstring"


def _plant(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "referee"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(("files", "circle"), [
    ({"rules/loader.py": "from . import cache\n",
      "rules/cache.py": "def f():\n    from .loader import load\n"},  # a lazy import closes it
     ["referee.rules.cache", "referee.rules.loader"]),
    ({"cards/notation.py": "from .limits import ways\n",  # the shape cards.limits and notation once had
      "cards/limits.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .notation import Line\n"},
     ["referee.cards.limits", "referee.cards.notation"]),
    ({"cards/notation.py": "def f():\n    from .printed import note_settings\n",  # three modules, both kinds
      "cards/printed.py": "import typing\nif typing.TYPE_CHECKING:\n    from .limits import ways\n",
      "cards/limits.py": "from .notation import Line\n"},
     ["referee.cards.limits", "referee.cards.notation", "referee.cards.printed"]),
])
def test_a_planted_circle_is_found(tmp_path: Path, files: dict[str, str], circle: list[str]) -> None:
    root = _plant(tmp_path, {"__init__.py": "", "rules/__init__.py": "", "cards/__init__.py": "",
                             "ruling/__init__.py": "", "ruling/engine.py": "from ..rules.loader import load\n", **files})
    assert circles(graph(root)) == [circle]


def test_a_type_checking_import_is_a_dependency_too(tmp_path: Path) -> None:
    root = _plant(tmp_path, {
        "__init__.py": "", "rules/__init__.py": "", "ruling/__init__.py": "", "ruling/engine.py": "",
        "rules/model.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..ruling import engine\n",
    })
    assert forbidden(graph(root)) == ["referee.rules.model imports referee.ruling.engine: rules may import only nothing of referee"]


def test_the_card_line_has_a_module_that_its_readers_import_one_way() -> None:
    edges = graph()
    assert edges["referee.cards.line"] <= {"referee.cards.groups"}
    for reader in ("notation", "limits", "printed", "expand"):
        assert "referee.cards.line" in edges[f"referee.cards.{reader}"], reader


@pytest.mark.parametrize(("rel", "text", "said"), [
    ("rules/model.py", "from ..ruling import engine\n", "rules may import only nothing of referee"),
    ("ruling/engine.py", "from ..search.rank import search\n", "ruling may import only ['cards', 'rules']"),
    ("ruling/render.py", "from ..web import app\n", "nothing imports the web skin"),
    ("store/log.py", "from ..cli.base import out\n", "nothing imports the cli skin"),
])
def test_a_planted_wrong_direction_is_named(tmp_path: Path, rel: str, text: str, said: str) -> None:
    root = _plant(tmp_path, {
        "__init__.py": "", "rules/__init__.py": "", "ruling/__init__.py": "", "search/__init__.py": "",
        "web/__init__.py": "", "web/app.py": "", "cli/__init__.py": "", "cli/base.py": "", "store/__init__.py": "",
        "search/rank.py": "", "ruling/engine.py": "", rel: text,
    })
    wrong = forbidden(graph(root))
    assert len(wrong) == 1 and said in wrong[0], wrong
