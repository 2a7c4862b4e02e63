"""Saved games: atomic writes and clear errors."""
import json

import pytest

from stateside.data.saves import load_game, save_game, write_json_atomic
from stateside.errors import SaveError


def test_round_trip(tmp_path):
    path = tmp_path / "g.json"
    save_game(path, "ten-days", {"seed": 3, "actions": [[1, 2]]})
    assert load_game(path, "ten-days") == ("ten-days", {"seed": 3, "actions": [[1, 2]]})
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]   # no temporary file left


@pytest.mark.parametrize("content, message", [
    ('{"format": "stateside-save", "version": 1, "game": "ten-d', "the file may be truncated"),
    ('{"hello": 1}', "not a Stateside save"),
    ('{"format": "stateside-save", "version": 9, "game": "x", "state": {}}', "version 9 is not supported"),
    ('{"format": "stateside-save", "version": 1, "game": "america", "state": {}}', "a save of 'america', not of 'ten-days'"),
    ('{"format": "stateside-save", "version": 1, "game": "ten-days", "state": 3}', "no game state"),
])
def test_bad_saves_are_refused_clearly(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(SaveError) as err:
        load_game(path, "ten-days")
    assert str(path) in str(err.value) and message in str(err.value)


def test_failed_write_keeps_the_old_file(tmp_path):
    path = tmp_path / "g.json"
    write_json_atomic(path, {"a": 1})
    with pytest.raises(TypeError):
        write_json_atomic(path, {"a": object()})   # not JSON-able: fails half way
    assert json.loads(path.read_text()) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]
