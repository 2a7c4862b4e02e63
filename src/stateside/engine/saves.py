"""Saved games: one format for every game, the match log inside an envelope::

    {"format": "stateside-save", "version": 2, "game": "<game id>", "rules_version": 1,
     "setup": {...}, "seed": 42, "seats": ["human", "ai:hard"], "actions": [...]}

Loading a version-1 save (before the engine protocol, {"version": 1, "game", "state"})
converts its "state" with the game's registered legacy_save function. Reading checks
the envelope and raises SaveError naming the file; replaying the actions is
Match.from_json, which names the action that fails.
"""
from __future__ import annotations

import os
from typing import Any

from stateside.data.saves import SAVE_FORMAT, SAVE_VERSION, read_json_file, write_json_atomic
from stateside.errors import SaveError
from stateside.registry import game_by_id, load_object

LEGACY_VERSION = 1


def save_game(path: str | os.PathLike, body: dict) -> None:
    """Write a match (Match.to_json()) under the envelope, atomically."""
    write_json_atomic(path, {"format": SAVE_FORMAT, "version": SAVE_VERSION, **body}, "save")


def read_save(path: str | os.PathLike, game: str | None = None) -> tuple[str, dict]:
    """(game id, match dict in the current format). With `game`, the save must be of it."""
    data: Any = read_json_file(path, "save")
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{path}: not a Stateside save (no \"format\": \"{SAVE_FORMAT}\" tag)")
    version = data.get("version")
    if type(version) is not int or version not in (LEGACY_VERSION, SAVE_VERSION):
        raise SaveError(f"{path}: save format version {version!r} is not supported "
                        f"(this Stateside reads versions {LEGACY_VERSION} and {SAVE_VERSION})")
    saved_game = data.get("game")
    if not isinstance(saved_game, str):
        raise SaveError(f"{path}: the save does not say which game it is")
    if game is not None and saved_game != game:
        raise SaveError(f"{path}: this is a save of {saved_game!r}, not of {game!r}")
    if version == LEGACY_VERSION:
        return saved_game, convert_legacy(path, saved_game, data.get("state"))
    body = {k: v for k, v in data.items() if k not in ("format", "version")}
    return saved_game, body


def convert_legacy(path, game: str, state: Any) -> dict:
    """A version-1 save's "state", converted by its game into a match dict."""
    if not isinstance(state, dict):
        raise SaveError(f"{path}: the save has no game state")
    info = game_by_id(game)
    if info is None or not info.legacy_save:
        raise SaveError(f"{path}: a save of {game!r}, which is not a game this Stateside has")
    try:
        body = load_object(info.legacy_save)(state)
    except SaveError as e:
        raise SaveError(f"{path}: {e}") from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
        raise SaveError(f"{path}: this older save of {game} cannot be read ({e})") from None
    body["game"] = game
    return body


def load_match(path: str | os.PathLike, game: str | None = None):
    """Read a save and replay it: the Match, or SaveError naming the file and the problem."""
    from stateside.engine.match import Match

    game_id, body = read_save(path, game)
    return Match.from_json(body, str(path))
