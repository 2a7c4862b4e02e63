"""The registry of games: what each game is called and where its parts live.

Each game is one subpackage of ``stateside.games`` whose __init__ defines
``GAME = GameInfo(...)``; the registry finds them by the package's name, so the
engine, the CLI and the app look a game up here without importing any game (the
engine stays below the games: tests/test_layering.py checks that no module
imports one above it in a cycle). A game's parts are named as "module:attribute"
strings and imported only when used.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cache
from typing import Any

GAMES_PACKAGE = "stateside.games"   # where the game packages are found (by name, not imported here)


@dataclass(frozen=True)
class GameInfo:
    id: str                     # command-line and save id, e.g. "ten-days"
    title: str                  # shown in the game chooser
    summary: str                # one or two sentences for the chooser
    players: str = ""           # e.g. "2-4 players"
    mode: str | None = None     # "module:Class" of the Qt mode (a stateside.app.mode.GameMode)
    rules: str | None = None    # "module:Class" of the rules, a stateside.engine.protocol.State
    ai: str | None = None       # "module:function": make_player(level, seat, rng) -> protocol.Player
    legacy_save: str | None = None  # "module:function" turning a version-1 save's "state" into a match dict
    selfplay: str | None = None  # (being retired) "module:function" playing one seeded game
    cli: str | None = None      # "module:function" taking argv (list[str]) and returning an exit code
    # "module:function" loading every data file the game needs, raising DataError naming the
    # first broken file and entry; the app calls it before opening the game (light to import)
    data_check: str | None = None
    order: int = 50             # position in the chooser
    # A game whose first screen is its own table, not the map of the states: the table's
    # colour, which the window paints while the game's mode is being built (see
    # MainWindow.open_mode_painting_first); None: the map is painted meanwhile.
    table_colour: str | None = None


def load_object(ref: str) -> Any:
    """Import "package.module:attribute"."""
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


@cache
def discover_games() -> tuple[GameInfo, ...]:
    """Every installed game, in chooser order."""
    package = importlib.import_module(GAMES_PACKAGE)
    found = []
    for info in pkgutil.iter_modules(package.__path__, prefix=GAMES_PACKAGE + "."):
        if not info.ispkg:
            continue
        game = getattr(importlib.import_module(info.name), "GAME", None)
        if isinstance(game, GameInfo):
            found.append(game)
    return tuple(sorted(found, key=lambda g: (g.order, g.title)))


def game_by_id(game_id: str) -> GameInfo | None:
    return next((g for g in discover_games() if g.id == game_id), None)
