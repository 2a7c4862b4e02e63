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
