"""The house's layers (README "Layout"): each imports only the layers below it, and nothing imports in a circle.

The contract itself is in ``pyproject.toml`` (``[tool.importlinter]``) and is checked by
import-linter, which reads every import, those inside functions included. The tests below
also check what the contract cannot say: no import circle anywhere (not even inside one
folder), no module ``__getattr__`` that would hide one, and no ``_private`` name imported
from another folder.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rumino", "rumino_widgets")


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph(*PACKAGES)


def test_the_layers_contract_holds(capsys):
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    out = capsys.readouterr().out
    assert code == 0, out


def _cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    adj = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index, low, on, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in sorted(adj):
        if root in index:
            continue
        work = [(root, iter(adj[root]))]
        index[root] = low[root] = counter[0]; counter[0] += 1; stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]; counter[0] += 1; stack.append(w); on.add(w)
                    work.append((w, iter(adj.get(w, ()))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_no_import_circle_anywhere(graph):
    assert _cycles(graph) == []


def test_the_circle_finder_can_fail():
    g = grimp.ImportGraph()
    for m in ("p", "p.a", "p.b", "p.c"):
        g.add_module(m)
    g.add_import(importer="p.a", imported="p.b")
    g.add_import(importer="p.b", imported="p.a")
    g.add_import(importer="p.c", imported="p.a")
    assert _cycles(g) == [["p.a", "p.b"]]


def _sources():
    for pkg in PACKAGES:
        yield from sorted((ROOT / pkg).rglob("*.py"))


def _folder(module: str) -> str:
    """The subsystem a module belongs to: ``rumino.hand.kernels`` -> ``rumino.hand``."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "rumino" and len(parts) > 2 else parts[0]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_imports(tree: ast.Module) -> dict[str, str]:
    """``name -> module`` of the ``from module import name`` lines under a module's ``if TYPE_CHECKING:``."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom):
                    found.update({alias.asname or alias.name: stmt.module for alias in stmt.names})
    return found


def test_no_module_getattr_hides_an_import():
    """A module ``__getattr__`` loads its names at first use (``import rumino`` stays quick); the layers
    check and the circle finder still see every one of its imports, because each name it serves is also
    imported, from the same module, under ``if TYPE_CHECKING:``."""
    offenders = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body):
            continue
        name = _module_name(path)
        module = __import__(name, fromlist=["_"])
        served = getattr(module, "_MODULE_OF", None)
        if served is None or served != _type_checking_imports(tree):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_the_lazy_top_level_serves_every_public_name():
    import rumino

    assert rumino.__all__ and all(getattr(rumino, name) is not None for name in rumino.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        rumino.nonexistent  # noqa: B018


def test_no_private_name_is_imported_from_another_folder():
    offenders = []
    for path in _sources():
        here = _module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                    and node.module.split(".")[0] in PACKAGES:
                for alias in node.names:
                    if alias.name.startswith("_") and _folder(node.module) != _folder(here):
                        offenders.append(f"{here} imports {node.module}.{alias.name} (l.{node.lineno})")
    assert offenders == [], "\n".join(offenders)


def games_imported_from_outside(graph) -> list[str]:
    """Imports of a game's folder (``rumino.variants.<game>``) by a module outside ``rumino.variants``: the
    registry, ``rumino/variants/__init__.py``, is the one door to the games (DESIGN "Adding a game"; the
    protected contract in ``pyproject.toml`` says the same to import-linter)."""
    games = sorted(m for m in graph.modules if m.count(".") == 2 and m.startswith("rumino.variants."))
    out = []
    for game in games:
        for importer in sorted(graph.find_modules_that_directly_import(game, as_package=True)):
            if importer != "rumino.variants" and not importer.startswith("rumino.variants."):
                out.append(f"{importer} imports {game}")
    return out


def test_a_games_folder_is_imported_by_the_registry_alone(graph):
    from rumino.variants import VARIANTS

    assert games_imported_from_outside(graph) == []
    folders = {m.split(".")[2] for m in graph.modules if m.startswith("rumino.variants.")}
    registered = {v.game.__module__.split(".")[2] for v in VARIANTS.values() if v.game is not None}
    assert folders == registered, "rumino/variants/ holds the registry and the games' folders, nothing else"


def test_the_game_folder_check_can_fail():
    g = grimp.ImportGraph()
    for m in ("rumino", "rumino.variants", "rumino.variants.gin", "rumino.variants.gin.game", "rumino.variants.oka",
              "rumino.variants.oka.game", "rumino.cli", "rumino.cli.play"):
        g.add_module(m)
    g.add_import(importer="rumino.variants", imported="rumino.variants.gin")  # the registry: allowed
    g.add_import(importer="rumino.variants.oka.game", imported="rumino.variants.gin.game")  # a game on a game
    g.add_import(importer="rumino.cli.play", imported="rumino.variants.gin.game")  # not allowed
    assert games_imported_from_outside(g) == ["rumino.cli.play imports rumino.variants.gin"]


def test_the_top_level_stays_small():
    """At most 8 modules beside the folders (README "Layout"), and no shim among them."""
    top = sorted(p.name for p in (ROOT / "rumino").glob("*.py"))
    assert len(top) <= 8, top
