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
        if parts[1] in ("engine", "geo", "data", "online") or (parts[1] == "games" and parts[-1] not in QT_MODULES):
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
    for layer in ("engine", "geo", "data", "online"):
        for path in (SRC / layer).rglob("*.py"):
            for m in imports_of(path):
                assert not m.startswith(("stateside.app", "stateside.board", "PySide6")), \
                    f"{path.relative_to(SRC)} imports {m}"
