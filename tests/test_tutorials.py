"""Every bundled tutorial (resources/tutorials/*.yaml), replayed on the match layer: each
step's expected action is legal when its step comes, the script is deterministic, and it
hands over to an ordinary game against the computer. Malformed files get clear messages."""
from __future__ import annotations

import pytest

from stateside.engine.tutorial import all_tutorials, check, matches, parse, tutorials_dir
from stateside.errors import DataError

TUTORIALS = all_tutorials()
WAYS = {("america", None), ("scrambled-states", None), ("ten-days", None),
        *(("game-of-the-states", v) for v in ("buy-and-sell", "trivia", "junior")),
        *(("carcassonne", v) for v in ("table", "usa-west", "usa-east", "usa"))}


def test_every_game_and_way_to_play_has_a_tutorial():
    from stateside.engine.match import rules_for

    found = {(t.game, t.variant) for t in TUTORIALS}
    for game in {g for g, _ in WAYS}:   # the games' own lists, so that a new way to play needs one too
        for v in rules_for(game).spec.variants or (None,):
            assert (game, v) in found, f"no tutorial for {game} {v or ''}"
    assert found == WAYS


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=[t.id for t in TUTORIALS])
def test_the_steps_replay_on_the_match_layer(tutorial):
    assert 5 <= len(tutorial.steps) <= 12
    assert any(s.waits_for_action for s in tutorial.steps)
    first = check(tutorial)
    again = check(tutorial)   # the seed makes it the same game every time
    assert [e.action for e in first.log] == [e.action for e in again.log]
    assert not first.is_over()   # the person finishes it
    assert all(s != "human" for i, s in enumerate(first.seats) if i not in first.humans())
    for step in tutorial.steps:   # one wrong try each, that is not the expected action
        if step.wrong is not None and "act" in step.wrong["do"]:
            assert not matches(step.expect, step.wrong["do"]["act"])


def test_the_tutorials_folder_is_named_by_game_and_way():
    for t in TUTORIALS:
        assert t.id == (t.game if t.variant is None else f"{t.game}-{t.variant}")
    assert (tutorials_dir() / "README.md").exists()


GOOD = {"title": "T", "game": "ten-days", "seed": 1, "seats": ["human", "ai:easy"],
        "setup": {"players": ["You", "Blue"], "first_player": 0, "turn_limit": None},
        "steps": [{"text": "Read."}, {"text": "Read."}, {"text": "Read."}]}


@pytest.mark.parametrize("change, words", [
    ({"game": "chess"}, "names no game"),
    ({"seed": "x"}, "\"seed\""),
    ({"seats": ["ai:easy", "ai:easy"]}, "one person"),
    ({"steps": []}, "3 to 12 steps"),
    ({"steps": [{"text": "a"}, {"text": ""}, {"text": "c"}]}, "step 2: \"text\""),
    ({"steps": [{"text": "a"}, {"text": "b", "expect": 1, "do": {"press": 1}}, {"text": "c"}]}, "step 2: \"do\""),
    ({"steps": [{"text": "a"}, {"text": "b"}, {"text": "c", "highlight": {"states": ["Texas"]}}]}, "step 3: highlight"),
    ({"steps": [{"text": "a"}, {"text": "b", "colour": 1}, {"text": "c"}]}, "step 2: unknown keys colour"),
    ({"variant": "junior"}, "no ways to play"),
])
def test_a_malformed_tutorial_names_its_file_and_step(change, words):
    with pytest.raises(DataError) as e:
        parse({**GOOD, **change}, "bad.yaml", "bad")
    assert str(e.value).startswith("bad.yaml") and words in str(e.value)


def test_an_expected_action_that_is_not_legal_names_its_step():
    data = {**GOOD, "steps": [{"text": "a"}, {"text": "b", "expect": ["nonsense"]}, {"text": "c"}]}
    with pytest.raises(DataError, match=r"bad.yaml, step 2: its expected action"):
        check(parse(data, "bad.yaml", "bad"))
