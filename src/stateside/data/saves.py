"""Saved games: JSON with a format tag and version, written atomically.

Every game saves the same envelope::

    {"format": "stateside-save", "version": 1, "game": "<game id>", "state": {...}}

`state` is the game's own JSON (setup plus the list of actions, as each engine
chooses). Reading checks the envelope and raises SaveError with a message that
names the file and what is wrong; it never returns half a game.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from stateside.errors import SaveError

SAVE_FORMAT = "stateside-save"
SAVE_VERSION = 1


def write_json_atomic(path: str | os.PathLike, data: Any) -> None:
    """Write JSON to a temporary file beside `path`, then replace `path` with it,
    so that a crash or a full disk never leaves a half-written file behind."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def save_game(path: str | os.PathLike, game: str, state: dict) -> None:
    """Save one game's state under the common envelope."""
    write_json_atomic(path, {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": game, "state": state})


def load_game(path: str | os.PathLike, game: str | None = None) -> tuple[str, dict]:
    """Read a save; returns (game id, state). With `game`, the save must be of that game."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SaveError(f"{path}: cannot be read ({e})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveError(
            f"{path}: not a Stateside save (the JSON is broken at line {e.lineno}, column {e.colno}: {e.msg};"
            " the file may be truncated)"
        ) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{path}: not a Stateside save (no \"format\": \"{SAVE_FORMAT}\" tag)")
    version = data.get("version")
    if version != SAVE_VERSION:
        raise SaveError(f"{path}: save format version {version!r} is not supported (this Stateside reads version {SAVE_VERSION})")
    saved_game = data.get("game")
    if not isinstance(saved_game, str):
        raise SaveError(f"{path}: the save does not say which game it is")
    if game is not None and saved_game != game:
        raise SaveError(f"{path}: this is a save of {saved_game!r}, not of {game!r}")
    state = data.get("state")
    if not isinstance(state, dict):
        raise SaveError(f"{path}: the save has no game state")
    return saved_game, state
