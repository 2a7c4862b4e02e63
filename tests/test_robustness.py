"""Nothing a player does, and nothing a file holds, loses a game or stops the app (issue 16).

Reproducers built from the issue's descriptions: hostile JSON, broken autosaves for
every game, a second running copy, SIGTERM and Ctrl+C, a kill during a write, and bad
command lines.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stateside.__main__ import main
from stateside.data.saves import read_json_file, write_json_atomic
from stateside.errors import SaveError
from stateside.games import discover_games

GAME_IDS = [g.id for g in discover_games() if g.mode and g.rules]


# ------------------------------------------------------------------ hostile JSON
@pytest.mark.parametrize("text, words", [
    ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ('{"a": ' + "[" * 40 + "]" * 40 + "}", "nested too deeply"),
    ('{"seed": ' + "9" * 5000 + "}", "too many digits"),
    ('{"seed": Infinity}', "Infinity is not a number"),
    ('{"seed": -Infinity}', "Infinity is not a number"),
    ('{"seed": NaN}', "NaN is not a number"),
    ('{"format": "stateside-save", "vers', "may be truncated"),
])
def test_hostile_json_is_refused_in_words(tmp_path, text, words):
    path = tmp_path / "evil.json"
    path.write_text(text)
    with pytest.raises(SaveError) as err:
        read_json_file(path, "save")
    assert str(path) in str(err.value) and words in str(err.value)


def test_not_text_a_folder_and_a_huge_file(tmp_path, monkeypatch):
    bad = tmp_path / "bin.json"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SaveError, match="not text"):
        read_json_file(bad)
    with pytest.raises(SaveError, match="is a folder"):
        read_json_file(tmp_path)
    import stateside.data.saves as saves

    monkeypatch.setattr(saves, "MAX_FILE_BYTES", 10)
    big = tmp_path / "big.json"
    big.write_text('{"a": "0123456789"}')
    with pytest.raises(SaveError, match="too large"):
        read_json_file(big)


# ------------------------------------------------------------------ autosaves
def corrupt_autosaves(game_id: str) -> dict[str, str]:
    """What a bad disk or a hostile hand leaves in an autosave."""
    envelope = {"format": "stateside-save", "version": 2, "game": game_id, "rules_version": 1,
                "setup": {"players": ["A", "B"]}, "seed": 1, "seats": ["human", "ai:easy"]}
    return {
        "truncated": '{"format": "stateside-save", "version": 2, "ga',
        "infinity": json.dumps({**envelope, "actions": []}).replace('"seed": 1', '"seed": Infinity'),
        "deep": json.dumps({**envelope, "actions": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}),
        "huge number": json.dumps({**envelope, "actions": []}).replace('"seed": 1', '"seed": ' + "7" * 5000),
        "other game": json.dumps({**envelope, "game": "explorer", "actions": []}),
        "bad action": json.dumps({**envelope, "actions": [{"no": "such move"}]}),
        "bad seat": json.dumps({**envelope, "seats": [["human"], "ai:easy"], "actions": []}),
        "bool seed": json.dumps({**envelope, "seed": True, "actions": []}),
        "not json": "\x00\x01 definitely not a save",
    }


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_corrupt_autosave_never_stops_a_game_from_opening(qtbot, tmp_path, monkeypatch, game_id):
    from PySide6.QtWidgets import QMessageBox

    from stateside.app.main import MainWindow

    monkeypatch.setattr(QMessageBox, "show", lambda self: None)
    for name, content in corrupt_autosaves(game_id).items():
        config = tmp_path / name.replace(" ", "-")
        monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(config))
        path = config / "autosave" / f"{game_id}.json"
        path.parent.mkdir(parents=True)
        path.write_text(content)
        window = MainWindow(persist=True)
        qtbot.addWidget(window)
        mode = window.open_mode(game_id)
        assert window.current is mode, name
        kept = list(path.parent.glob(f"{game_id}.unreadable-*.json"))
        assert len(kept) == 1 and kept[0].read_text() == content, name   # moved aside, never lost
        assert any("could not be resumed" in n for n in window.notices), name
        has_game = mode.save_state() is not None
        window.close()
        # the new game (if it has begun) is autosaved in its place; the kept file stays
        assert path.exists() == has_game and kept[0].exists(), name


def test_a_second_running_copy_does_not_autosave(qtbot, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from stateside.app.main import MainWindow

    monkeypatch.setattr(QMessageBox, "show", lambda self: None)
    first = MainWindow(persist=True)
    qtbot.addWidget(first)
    second = MainWindow(persist=True)
    qtbot.addWidget(second)
    assert first.autosaving and not second.autosaving
    assert any("already running" in n for n in second.notices)
    first.close()


def test_temporary_files_of_a_killed_write_are_cleared(qtbot, tmp_path, monkeypatch):
    from stateside.app.main import MainWindow, config_dir

    folder = config_dir() / "autosave"
    folder.mkdir(parents=True)
    left = folder / ".ten-days.json.k1ll3d.tmp"
    left.write_text('{"format": "stateside-sa')
    window = MainWindow(persist=True)
    qtbot.addWidget(window)
    assert not left.exists()
    window.close()


def _wait_for(predicate, timeout=30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_saves_the_game_and_quits(tmp_path, sig):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", STATESIDE_CONFIG_DIR=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "stateside", "--mode", "ten-days"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert _wait_for(lambda: (tmp_path / "stateside.lock").exists()), "the app did not start"
        time.sleep(2.0)   # the window is up and the game under way
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "saving and quitting" in err
    saved = json.loads((tmp_path / "autosave" / "ten-days.json").read_text())
    assert saved["game"] == "ten-days" and saved["version"] == 2
    assert not list((tmp_path / "autosave").glob(".*.tmp"))


def test_an_autosave_write_that_fails_keeps_the_old_file(tmp_path):
    path = tmp_path / "autosave.json"
    write_json_atomic(path, {"game": "old"})
    with pytest.raises(TypeError):
        write_json_atomic(path, {"game": object()})
    assert json.loads(path.read_text()) == {"game": "old"}
    assert [p.name for p in tmp_path.iterdir()] == ["autosave.json"]


# ------------------------------------------------------------------ command line
@pytest.mark.parametrize("argv, words", [
    (["selfplay", "america", "--players", ""], "is for 2-6 players, not 1"),
    (["selfplay", "ten-days", "--players", ","], "unknown player ''"),
    (["selfplay", "america", "--players", ",".join(["ai:easy"] * 7)], "is for 2-6 players, not 7"),
    (["selfplay", "america", "--players", "human,ai:easy"], "not human"),
    (["--screenshot", ""], "--screenshot"),
    (["--size", "20000x20000", "--screenshot", "x.png"], "320 to 8192"),
    (["--size", "100x100", "--screenshot", "x.png"], "320 to 8192"),
    (["--size", "axb", "--screenshot", "x.png"], "WIDTHxHEIGHT"),
    (["no-such-save.json"], "no such saved game"),
    (["frobnicate"], "unknown command"),
])
def test_bad_command_lines_exit_2_with_one_line(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_saved_game_opens_from_the_command_line(tmp_path):
    """`stateside --screenshot OUT FILE` renders a save; a broken one exits 2 in words."""
    from stateside.engine.match import Match
    from stateside.engine.saves import save_game

    match = Match("ten-days", ["human", "ai:easy"], seed=4)
    match.run_until_human()
    save = tmp_path / "game.stateside.json"
    save_game(save, match.to_json())
    out = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", STATESIDE_CONFIG_DIR=str(tmp_path / "cfg"))
    run = subprocess.run([sys.executable, "-m", "stateside", "--screenshot", str(out), str(save)],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    assert out.stat().st_size > 10_000
    save.write_text('{"format": "stateside-save", "version": 2, "game": "ten-days", "seed": "42"}')
    run = subprocess.run([sys.executable, "-m", "stateside", "--screenshot", str(out), str(save)],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 2 and "Traceback" not in run.stderr and str(save) in run.stderr
