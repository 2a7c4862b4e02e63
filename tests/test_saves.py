"""Saved games: atomic writes and clear errors at the envelope (the match inside is
checked by tests/test_conformance.py and each game's protocol tests)."""
import json

import pytest

from stateside.data.saves import write_json_atomic
from stateside.engine.saves import read_save, save_game
from stateside.errors import SaveError


def test_round_trip(tmp_path):
    path = tmp_path / "g.json"
    body = {"game": "ten-days", "rules_version": 1, "setup": {"players": ["A", "B"]}, "seed": 3,
            "seats": ["human", "ai:easy"], "actions": ["day:1"]}
    save_game(path, body)
    assert json.loads(path.read_text())["version"] == 2
    assert read_save(path, "ten-days") == ("ten-days", body)
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]   # no temporary file left


@pytest.mark.parametrize("content, message", [
    ('{"format": "stateside-save", "version": 2, "game": "ten-d', "the file may be truncated"),
    ('{"hello": 1}', "not a Stateside save"),
    ('{"format": "stateside-save", "version": 9, "game": "x", "state": {}}', "version 9 is not supported"),
    ('{"format": "stateside-save", "version": true, "game": "ten-days", "state": {}}', "version True is not supported"),
    ('{"format": "stateside-save", "version": 2, "game": "america", "setup": {}}', "a save of 'america', not of 'ten-days'"),
    ('{"format": "stateside-save", "version": 1, "game": "ten-days", "state": 3}', "no game state"),
])
def test_bad_saves_are_refused_clearly(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(SaveError) as err:
        read_save(path, "ten-days")
    assert str(path) in str(err.value) and message in str(err.value)


def test_a_file_that_is_not_text_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(SaveError, match="it is not text"):
        read_save(path)


def test_failed_write_keeps_the_old_file(tmp_path):
    path = tmp_path / "g.json"
    write_json_atomic(path, {"a": 1})
    with pytest.raises(TypeError):
        write_json_atomic(path, {"a": object()})   # not JSON-able: fails half way
    assert json.loads(path.read_text()) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_a_match_replays_on_given_rules_of_its_own_game_only():
    """Match.from_json(rules=...) replays with a mode's rules bound to data (America's deck);
    rules of another game are refused, not played."""
    from stateside.engine.match import Match, rules_for
    from stateside.games.ten_days.rules import TenDaysState

    played = Match("ten-days", ["ai:easy", "ai:easy"], 3, {"players": ["Ann", "Bob"]})
    played.play_out()

    class Bound(TenDaysState):
        pass

    again = Match.from_json(played.to_json(), rules=Bound)
    assert isinstance(again.state, Bound) and again.actions == played.actions
    with pytest.raises(SaveError, match="a save of 'ten-days', not of 'america'"):
        Match.from_json(played.to_json(), rules=rules_for("america"))


# --- one limit for reading and writing (issue 27, finding 11) -----------------------------

def played_save(tmp_path):
    """A real game's save, written as compactly as JSON allows (what a hostile or a
    foreign writer could hand the loader), and its size in bytes."""
    from stateside.engine.match import Match

    match = Match("ten-days", ["ai:easy", "ai:easy"], 3, {"players": ["Ann", "Zoë"]})
    match.play_out(10_000)
    body = match.to_json()
    path = tmp_path / "compact.json"
    text = json.dumps({"format": "stateside-save", "version": 2, **body}, separators=(",", ":"),
                      ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return path, body, len(text.encode("utf-8"))


def test_a_save_the_loader_accepts_at_the_limit_is_written_back_and_read_again(tmp_path, monkeypatch):
    import stateside.data.saves as saves

    path, body, size = played_save(tmp_path)
    again = tmp_path / "again.json"
    monkeypatch.setattr(saves, "MAX_FILE_BYTES", size + len(body["actions"]) * 4 + 256)
    save_game(again, read_save(path, "ten-days")[1])   # with room: one move a line
    assert len(again.read_text(encoding="utf-8").splitlines()) > len(body["actions"])
    assert again.stat().st_size <= saves.MAX_FILE_BYTES   # a few bytes a move over compact
    # the limit at the compact size itself: a file that big is accepted, and written back
    monkeypatch.setattr(saves, "MAX_FILE_BYTES", size + 1)   # + the final newline
    game, read = read_save(path, "ten-days")
    save_game(again, read)
    assert again.stat().st_size <= saves.MAX_FILE_BYTES
    assert read_save(again, "ten-days") == (game, body)


def test_text_beyond_ascii_is_written_as_it_was_read_not_escaped():
    """Escaped, an emoji takes 12 bytes against its 4 in UTF-8: a save of names and
    topics in such text came back three times its size."""
    data = {"setup": {"players": ["\U0001f600" * 1000, "Zoë"]}, "actions": ["é" * 500]}
    compact = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    from stateside.data.saves import dumps_for_file

    assert len(dumps_for_file(data)) < len(compact) + 40
    assert json.loads(dumps_for_file(data)) == data
    lone = {"a": "\ud800"}   # a lone surrogate (json.loads accepts "\\ud800"): escaped, still read back
    assert json.loads(dumps_for_file(lone)) == lone


def test_a_document_over_the_limit_is_refused_by_the_writer_and_the_old_file_stays(tmp_path, monkeypatch):
    import stateside.data.saves as saves

    path = tmp_path / "g.json"
    write_json_atomic(path, {"a": 1})
    before = path.read_bytes()
    monkeypatch.setattr(saves, "MAX_FILE_BYTES", 1000)
    write_json_atomic(path, {"a": "x" * 900})    # under the limit: written
    with pytest.raises(SaveError, match=r"not saved: the save would be 0.0 MB, over the 0 MB .*file already there is kept"):
        save_game(path, {"a": "x" * 1000})
    assert json.loads(path.read_text()) == {"a": "x" * 900}
    nested = [1]
    for _ in range(40):
        nested = [nested]
    with pytest.raises(SaveError, match="nested too deeply"):
        write_json_atomic(path, {"a": nested})
    with pytest.raises(ValueError):
        write_json_atomic(path, {"a": float("nan")})   # the loader refuses NaN: never written
    assert json.loads(path.read_text()) == {"a": "x" * 900} and before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_an_autosave_over_the_limit_says_so_and_keeps_the_previous_autosave(qtbot, tmp_path, monkeypatch):
    import stateside.data.saves as saves
    from stateside.app.main import MainWindow
    from stateside.games.ten_days.mode import Seat

    monkeypatch.setenv("STATESIDE_CONFIG_DIR", str(tmp_path))
    window = MainWindow(persist=True)
    qtbot.addWidget(window)
    mode = window.open_mode("ten-days")
    mode.start_game([Seat("Ann", "human"), Seat("Bob", "human")], seed=4)
    window.autosave("ten-days")
    path = window.autosave_path("ten-days")
    kept = path.read_bytes()
    monkeypatch.setattr(saves, "MAX_FILE_BYTES", 100)   # under even the compact form
    window.autosave("ten-days")
    assert path.read_bytes() == kept
    assert "Could not save your game automatically" in window.statusBar().currentMessage()
    assert "over the 0 MB a Stateside save may hold" in window.statusBar().currentMessage()
