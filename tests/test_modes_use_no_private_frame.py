"""A game's mode fills in the declared hooks of the frame below it and calls its public
methods; it overrides and calls none of its private (_name) methods. The frame here is
app/turns.py, app/realtime.py, app/mode.py and the play layer (stateside.play); the modes are every
games/*/mode*.py and every class of app/ that derives from a mode. Read with ast, so a
mode written after this test is checked too."""
from __future__ import annotations

import ast
from pathlib import Path

import stateside

SRC = Path(stateside.__file__).parent
FRAME = [SRC / "app" / "turns.py", SRC / "app" / "mode.py", SRC / "app" / "realtime.py",
         *sorted((SRC / "play").glob("*.py"))]
MODE_BASES = {"GameMode", "TurnBasedMode", "RealtimeMode"}


def frame_classes(paths: list[Path]) -> dict[str, tuple[set[str], list[str]]]:
    """Each class of these files: its own `_name` (not __dunder__) functions and its bases."""
    found = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                own = {item.name for item in node.body
                       if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(item.name)}
                found[node.name] = (own, [getattr(b, "id", getattr(b, "attr", "")) for b in node.bases])
    return found


def private_of(bases: list[str], frame: dict[str, tuple[set[str], list[str]]]) -> set[str]:
    """The private methods a class with these bases inherits from the frame."""
    out: set[str] = set()
    todo = list(bases)
    while todo:
        name = todo.pop()
        if name in frame:
            own, more = frame[name]
            out |= own
            todo.extend(more)
    return out


def private_methods(paths: list[Path]) -> set[str]:
    return set().union(*(own for own, _ in frame_classes(paths).values()))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _bases(cls: ast.ClassDef) -> list[str]:
    return [getattr(b, "id", getattr(b, "attr", "")) for b in cls.bases]


def mode_classes(path: Path) -> list[ast.ClassDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and set(_bases(n)) & MODE_BASES]


def violations(path: Path, frame_private: set[str] | None = None) -> list[str]:
    """What the mode classes of `path` override or use of the frame's private methods (those
    they inherit; `frame_private`: the names to check instead, for the probe below)."""
    out = []
    frame = frame_classes(FRAME)
    for cls in mode_classes(path):
        private = frame_private if frame_private is not None else private_of(_bases(cls), frame)
        own = {item.name for item in cls.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for name in sorted(own & private):
            out.append(f"{path.relative_to(SRC)}: {cls.name} overrides the frame's private {name}")
        for node in ast.walk(cls):
            if isinstance(node, ast.Attribute) and node.attr in private and node.attr not in own:
                root = node.value
                if isinstance(root, ast.Name) and root.id == "self" or (
                        isinstance(root, ast.Call) and getattr(root.func, "id", "") == "super"):
                    out.append(f"{path.relative_to(SRC)}:{node.lineno}: {cls.name} uses the frame's private "
                               f"{node.attr}")
    return out


def mode_files() -> list[Path]:
    games = sorted((SRC / "games").glob("*/mode*.py"))
    app = [p for p in sorted((SRC / "app").glob("*.py")) if p not in FRAME and mode_classes(p)]
    return games + app


def test_the_frame_has_private_methods_and_the_scan_finds_modes():
    frame = private_methods(FRAME)
    assert {"_show_step", "_computer_due", "_log_entry", "_fill_log", "_online_ended"} <= frame
    names = {p.parent.name for p in mode_files()}
    assert {"america", "carcassonne", "game_of_the_states", "ten_days", "scrambled_states"} <= names


def test_the_scan_catches_an_override_and_a_call(tmp_path):
    probe = tmp_path / "mode.py"
    probe.write_text("class M(TurnBasedMode):\n"
                     "    def _online_ended(self, r):\n        super()._online_ended(r)\n"
                     "    def go(self):\n        self._fill_log()\n", encoding="utf-8")
    found = _violations_at(probe, {"_online_ended", "_fill_log"})
    assert any("overrides the frame's private _online_ended" in f for f in found)
    assert any("uses the frame's private _fill_log" in f for f in found)


def _violations_at(path: Path, private: set[str]) -> list[str]:
    global SRC
    saved, SRC = SRC, path.parent
    try:
        return violations(path, private)
    finally:
        SRC = saved


def test_no_mode_overrides_or_calls_a_private_method_of_the_frame():
    found = [v for path in mode_files() for v in violations(path)]
    assert not found, "\n".join(found)


def _probes(tree: ast.AST) -> list[ast.Call]:
    """hasattr/getattr calls on anything but `self` (a mode, the window's current mode)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("hasattr", "getattr") and node.args:
            target = node.args[0]
            if not (isinstance(target, ast.Name) and target.id == "self"):
                found.append(node)
    return found


def test_the_shell_reads_declared_capabilities_not_probes():
    """app/online.py, app/replay.py and app/history.py, and app/main.py (the window and run_app), ask
    a mode what it declares (GameMode.plays_online, replays, turn_cue, opens_variants, match,
    online...), never hasattr."""
    from stateside.app.mode import GameMode
    from stateside.app.turns import TurnBasedMode

    assert (GameMode.plays_online, GameMode.replays, GameMode.turn_cue) == (False, False, False)
    assert (TurnBasedMode.plays_online, TurnBasedMode.replays, TurnBasedMode.turn_cue) == (True, True, True)
    assert len(_probes(ast.parse("hasattr(mode, 'start_replay')\ngetattr(self, 'x', 1)"))) == 1   # the scan sees one
    app = SRC / "app"
    found = []
    for name in ("online.py", "replay.py", "history.py"):
        tree = ast.parse((app / name).read_text(encoding="utf-8"))
        found += [f"app/{name}:{c.lineno}" for c in _probes(tree)   # (not the window's own parts)
                  if not (isinstance(c.args[0], ast.Name) and c.args[0].id == "window")
                  and "parent" not in ast.unparse(c.args[0])]
    main = ast.parse((app / "main.py").read_text(encoding="utf-8"))
    found += [f"app/main.py:{c.lineno}" for c in _probes(main)   # the window and run_app (the window's own
              if not (isinstance(c.args[0], ast.Name) and c.args[0].id == "window")]   # flags aside)
    assert not found, f"probes of a mode: {found}"
