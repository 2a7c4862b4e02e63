"""JSON files written atomically and read with clear errors (saves, histories).

The save format itself (envelope, versions, the match inside) is stateside.engine.saves;
its tag and version are here, below both the engine and data.history, which each write saves.
"""
from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from stateside.errors import SaveError

SAVE_FORMAT = "stateside-save"   # the "format" tag of every save
SAVE_VERSION = 2                 # the envelope's version (1: the games' own old saves)

def write_json_atomic(path: str | os.PathLike, data: Any, what: str = "file") -> None:
    """Write JSON to a temporary file beside `path`, then replace `path` with it,
    so that a crash or a full disk never leaves a half-written file behind.

    Never writes what read_json_file would refuse: nesting deeper than MAX_DEPTH or a
    document over MAX_FILE_BYTES raises SaveError (NaN or Infinity ValueError, a value
    JSON cannot hold TypeError), and the file already at `path` stays as it was."""
    path = Path(path)
    if _depth(data) > MAX_DEPTH:
        raise SaveError(f"{path}: not saved: the {what}'s data is nested too deeply (the file already there is kept)")
    encoded = dumps_for_file(data)
    if len(encoded) > MAX_FILE_BYTES:   # near the limit the lines' few bytes matter: none
        encoded = dumps_for_file(data, compact=True)
    if len(encoded) > MAX_FILE_BYTES:
        raise SaveError(f"{path}: not saved: the {what} would be {len(encoded) / 2**20:.1f} MB, over the "
                        f"{MAX_FILE_BYTES // 2**20} MB a Stateside {what} may hold (the file already there is kept)")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(encoded)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def dumps_for_file(data: Any, compact: bool = False) -> bytes:
    """The bytes write_json_atomic writes: one key of the top object a line, and one item
    of each of its lists or objects a line (a save's actions: one move a line), the rest
    compact. Indenting every level made a save three times the size of what it holds
    (an 11 MB save came back as 36 MB, over the read limit); this stays within a few
    bytes a line of the most compact form (`compact`: that form, on one line), so what the
    loader accepted can be written back."""
    for ascii_only in (False, True):   # raw UTF-8 is the smaller; a lone surrogate needs \u escapes
        try:
            return (_layout(data, _EXPANDED_LEVELS if compact else 0, ascii_only) + "\n").encode("utf-8")
        except UnicodeEncodeError:
            continue
    raise AssertionError("unreachable: ASCII always encodes")


_EXPANDED_LEVELS = 2


def _layout(value: Any, level: int, ascii_only: bool) -> str:
    def compact(v: Any) -> str:
        return json.dumps(v, separators=(",", ":"), sort_keys=True, ensure_ascii=ascii_only, allow_nan=False)

    if level >= _EXPANDED_LEVELS or not value or not isinstance(value, (dict, list)) or \
            (isinstance(value, dict) and not all(isinstance(k, str) for k in value)):
        return compact(value)
    pad = "\n" + " " * (level + 1)
    if isinstance(value, dict):
        items = [f"{compact(k)}: {_layout(value[k], level + 1, ascii_only)}" for k in sorted(value)]
        opening, closing = "{", "}"
    else:
        items = [_layout(v, level + 1, ascii_only) for v in value]
        opening, closing = "[", "]"
    return opening + pad + ("," + pad).join(items) + "\n" + " " * level + closing


MAX_FILE_BYTES = 32 * 1024 * 1024   # a long game's save is well under 1 MB


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a save can hold")


def read_json_file(path: str | os.PathLike, what: str = "file") -> Any:
    """Read a JSON file; SaveError names the file and says what is wrong in plain words.

    Python's json module does the parsing; around it: a size limit before reading,
    NaN and Infinity refused, and deep nesting or giant numbers turned into clear
    refusals instead of RecursionError or ValueError."""
    path = Path(path)
    try:
        st = path.stat()
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError
        if not stat.S_ISREG(st.st_mode):   # a FIFO or a device would block or never end
            raise SaveError(f"{path}: not a Stateside {what} (not a regular file)")
        if st.st_size > MAX_FILE_BYTES:
            raise SaveError(f"{path}: too large for a Stateside {what} (over {MAX_FILE_BYTES // 2**20} MB)")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SaveError(f"{path}: is a folder, not a Stateside {what}") from None
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not a Stateside {what} (it is not text)") from None
    except OSError as e:
        raise SaveError(f"{path}: cannot be read ({e.strerror or e})") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise SaveError(
            f"{path}: not a Stateside {what} (the JSON is broken at line {e.lineno}, column {e.colno}: {e.msg};"
            " the file may be truncated)"
        ) from None
    except RecursionError:
        raise SaveError(f"{path}: not a Stateside {what} (its data is nested too deeply)") from None
    except ValueError as e:   # NaN / Infinity, or an integer with thousands of digits
        reason = str(e) if "not a number" in str(e) else "it holds a number with too many digits"
        raise SaveError(f"{path}: not a Stateside {what} ({reason})") from None
    if _depth(data) > MAX_DEPTH:
        raise SaveError(f"{path}: not a Stateside {what} (its data is nested too deeply)")
    return data


MAX_DEPTH = 32   # a save nests a few levels; more is a damaged or hostile file


def _depth(data: Any) -> int:
    """How deeply lists and objects nest (iteratively: no recursion on hostile input)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, d = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, d)
            if d > MAX_DEPTH:
                return d
            stack.extend((v, d + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def move_aside(path: str | os.PathLike) -> Path | None:
    """Rename a file that cannot be used to <name>.unreadable-<date><suffix> beside it,
    so that it is never read again nor lost; the new name, or None if it cannot be moved."""
    import datetime  # here: start-up reads saves before it needs dates

    path = Path(path)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.unreadable-{stamp}{path.suffix}")
    try:
        path.replace(target)
        return target
    except OSError:
        return None
