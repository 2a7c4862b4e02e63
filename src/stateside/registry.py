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
import os
import sys
from functools import cache
from typing import Any

GAMES_PACKAGE = "stateside.games"   # where the game packages are found (by name, not imported here)

# (field, default) of GameInfo, in order; a plain class rather than a dataclass: the app
# reads the registry before its first paint, and importing dataclasses and generating the
# class cost about 2 ms of it.
_REQUIRED = object()
_FIELDS: tuple[tuple[str, Any], ...] = (
    ("id", _REQUIRED),            # command-line and save id, e.g. "ten-days"
    ("title", _REQUIRED),         # shown in the game chooser
    ("summary", _REQUIRED),       # one or two sentences for the chooser
    ("players", ""),              # e.g. "2-4 players"
    ("mode", None),               # "module:Class" of the Qt mode (a stateside.app.mode.GameMode)
    ("rules", None),              # "module:Class" of the rules, a stateside.engine.protocol.State
    ("ai", None),                 # "module:function": make_player(level, seat, rng) -> protocol.Player
    ("legacy_save", None),        # "module:function" turning a version-1 save's "state" into a match dict
    ("selfplay", None),           # (being retired) "module:function" playing one seeded game
    ("cli", None),                # "module:function" taking argv (list[str]) and returning an exit code
    # "module:function" loading every data file the game needs, raising DataError naming the
    # first broken file and entry; the app calls it before opening the game (light to import)
    ("data_check", None),
    ("order", 50),                # position in the chooser
    # A game whose first screen is its own table, not the map of the states: the table's
    # colour, which the window paints while the game's mode is being built (see
    # MainWindow.open_mode_painting_first); None: the map is painted meanwhile.
    ("table_colour", None),
)


class GameInfo:
    """What a game is called and where its parts live: immutable, compared and hashed by
    its fields (as a frozen dataclass)."""
    __slots__ = tuple(name for name, _ in _FIELDS)

    id: str
    title: str
    summary: str
    players: str
    mode: str | None
    rules: str | None
    ai: str | None
    legacy_save: str | None
    selfplay: str | None
    cli: str | None
    data_check: str | None
    order: int
    table_colour: str | None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(_FIELDS):
            raise TypeError(f"GameInfo takes at most {len(_FIELDS)} positional arguments")
        unknown = set(kwargs) - set(self.__slots__)
        if unknown:
            raise TypeError(f"GameInfo got unknown fields: {', '.join(sorted(unknown))}")
        for i, (name, default) in enumerate(_FIELDS):
            if i < len(args):
                if name in kwargs:
                    raise TypeError(f"GameInfo got two values for {name!r}")
                value = args[i]
            else:
                value = kwargs.get(name, default)
            if value is _REQUIRED:
                raise TypeError(f"GameInfo needs {name!r}")
            object.__setattr__(self, name, value)

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"GameInfo is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"GameInfo is immutable (cannot delete {name!r})")

    def __eq__(self, other: object) -> bool:
        return self._values() == other._values() if type(other) is GameInfo else NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return "GameInfo(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__) + ")"


def load_object(ref: str) -> Any:
    """Import "package.module:attribute"."""
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


@cache
def discover_games() -> tuple[GameInfo, ...]:
    """Every installed game, in chooser order."""
    package = importlib.import_module(GAMES_PACKAGE)
    found = []
    for name in _subpackages(package.__path__):
        game = getattr(importlib.import_module(f"{GAMES_PACKAGE}.{name}"), "GAME", None)
        if isinstance(game, GameInfo):
            found.append(game)
    return tuple(sorted(found, key=lambda g: (g.order, g.title)))


def _subpackages(path) -> list[str]:
    """The names of the packages in the folders of `path`, as pkgutil.iter_modules finds
    them (a folder with an __init__.py and an identifier's name; the first folder wins),
    without importing pkgutil before the first paint (about 2 ms). A path entry that is no
    folder (a zip file) is left to pkgutil."""
    names: list[str] = []
    if getattr(sys, "frozen", False):   # a desktop binary: the packages are in its archive, not its folders
        import pkgutil

        return [m.name for m in pkgutil.iter_modules(path) if m.ispkg]
    for folder in path:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except NotADirectoryError:
            import pkgutil

            names += [m.name for m in pkgutil.iter_modules([folder]) if m.ispkg and m.name not in names]
            continue
        except OSError:
            continue
        for entry in entries:
            if (entry.name.isidentifier() and entry.name not in names and entry.is_dir()
                    and os.path.isfile(os.path.join(entry.path, "__init__.py"))):
                names.append(entry.name)
    return names


def game_by_id(game_id: str) -> GameInfo | None:
    return next((g for g in discover_games() if g.id == game_id), None)
