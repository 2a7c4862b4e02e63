"""The house rules of ../shared/DESIGN.md, checked: imports flow downward only.

- the pure layers (engine, geo, data, every game's rules and computer players) load
  no PySide6 module, in a fresh interpreter;
- `board` imports no game; no game imports another game;
- the borders rulesets are listed once.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import stateside

SRC = Path(stateside.__file__).parent
GAMES_DIR = SRC / "games"
QT_MODULES = {"mode", "panels", "widgets", "table", "table_items", "map_items", "tile_art", "painting", "shapes"}


def pure_modules() -> list[str]:
    """Every module that must not import Qt: engine, geo, data, online play, and each
    game's modules other than its Qt views."""
    mods = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC.parent).with_suffix("")
        parts = rel.parts
        pure = parts[1] in ("engine", "geo", "data", "online", "play")
        if pure or (parts[1] == "games" and parts[-1] not in QT_MODULES):
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts[-1] == "build_atlas":   # the data pipeline imports geopandas, not Qt; not shipped use
                continue
            mods.append(".".join(parts))
    return mods


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_pure_modules_load_no_qt():
    mods = pure_modules()
    assert "stateside.engine.match" in mods and "stateside.games.ten_days.rules" in mods
    assert "stateside.play.table" in mods and "stateside.play.flow" in mods
    code = ("import sys\n" + "".join(f"import {m}\n" for m in mods) +
            "qt = sorted(m for m in sys.modules if m.startswith('PySide6'))\n"
            "print(','.join(qt))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"pure modules pulled in Qt: {out.stdout.strip()}"


def test_qt_views_are_named_as_views():
    """A module that imports PySide6 inside a game must be one of the view modules the
    pure-module list leaves out; everything else in a game is rules or players."""
    for path in GAMES_DIR.rglob("*.py"):
        if any(m.startswith("PySide6") for m in imports_of(path)):
            assert path.stem in QT_MODULES, f"{path.relative_to(SRC)} imports Qt but is not a view module"


def test_board_imports_no_game():
    for path in (SRC / "board").rglob("*.py"):
        bad = [m for m in imports_of(path) if m.startswith("stateside.games") or m.startswith("stateside.app")]
        assert not bad, f"{path.relative_to(SRC)} imports {bad}"


@pytest.mark.parametrize("game", sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists()))
def test_no_game_imports_another(game):
    for path in (GAMES_DIR / game).rglob("*.py"):
        for m in imports_of(path):
            if m.startswith("stateside.games."):
                other = m.split(".")[2]
                assert other == game, f"{path.relative_to(SRC)} imports the game {other}"


def test_engine_geo_data_import_no_game_or_app():
    for layer in ("engine", "geo", "data", "online", "play"):
        for path in (SRC / layer).rglob("*.py"):
            for m in imports_of(path):
                assert not m.startswith(("stateside.app", "stateside.board", "PySide6")), \
                    f"{path.relative_to(SRC)} imports {m}"


# --- no import cycles ---------------------------------------------------------------------

# The layers that must sit in no package cycle at all: the rules' foundations.
FOUNDATIONS = ("engine", "geo", "data", "registry", "errors", "paths")


def module_graph() -> dict[str, set[str]]:
    """Module -> the modules of src it imports anywhere in its text (at the top, inside
    functions, under TYPE_CHECKING: every import statement counts). `from pkg import name`
    is an import of pkg.name when that is a module, else of pkg."""
    files = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        files[".".join(parts)] = path

    def known(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            else:
                continue
            for t in targets:
                target = known(t)
                if target and target != mod:
                    graph[mod].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.add(frozenset(component))
    return found


def test_cycle_finder_finds_cycles():
    """The finder itself, on a graph whose cycles are known: it must not pass by finding none."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"f"}, "f": {"e"}, "g": {"g"}}
    assert cycles(graph) == {frozenset("abc"), frozenset("ef")}
    graph = module_graph()
    assert "stateside.engine.protocol" in graph["stateside.engine.match"]
    # a lazy import inside a function counts (engine.saves loads the match when a save is read)
    assert "stateside.engine.match" in graph["stateside.engine.saves"]
    # relative imports resolve: usa.py's "from .engine import ..."
    assert "stateside.games.carcassonne.engine" in graph["stateside.games.carcassonne.usa"]


def test_no_module_import_cycle():
    found = cycles(module_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


def test_foundations_sit_in_no_package_cycle():
    """engine, geo, data and the registry of games in no cycle of top-level packages: the
    engine looks games up through stateside.registry, which finds them by name, and geo
    and data share the postal codes from data.postal."""
    packages: dict[str, set[str]] = {}
    for mod, targets in module_graph().items():
        top = mod.split(".")[1] if "." in mod else mod
        packages.setdefault(top, set()).update(t.split(".")[1] if "." in t else t for t in targets)
    for top in packages:
        packages[top].discard(top)
    knots = [c for c in cycles(packages) if c & set(FOUNDATIONS)]
    assert not knots, f"package cycles through the foundations: {knots}"


def test_engine_and_registry_import_no_game():
    for path in [*(SRC / "engine").rglob("*.py"), SRC / "registry.py"]:
        for m in imports_of(path):
            assert not m.startswith("stateside.games"), f"{path.relative_to(SRC)} imports {m}"


def test_play_layer_sits_between_the_engine_and_the_modes():
    """play (tables, flows) imports the engine and the registry, never Qt, the app, online
    play or a game's mode; the engine, geo and data import nothing of play. Online play sits
    above it: the referee runs play.realtime's one clock loop, as a screen does."""
    play = SRC / "play"
    assert (play / "table.py").exists() and (play / "flow.py").exists()
    for path in play.rglob("*.py"):
        for m in imports_of(path):
            assert not m.startswith(("PySide6", "stateside.app", "stateside.board", "stateside.online")), \
                f"{path.relative_to(SRC)} imports {m}"
            assert not (m.startswith("stateside.games.") and m.split(".")[-1] in QT_MODULES), \
                f"{path.relative_to(SRC)} imports the view {m}"
    for layer in ("engine", "geo", "data"):
        for path in (SRC / layer).rglob("*.py"):
            assert not any(m.startswith("stateside.play") for m in imports_of(path)), \
                f"{path.relative_to(SRC)} imports the play layer above it"
