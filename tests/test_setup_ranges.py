"""Every number of a setup, a save and an action has a range, checked where the rules read
it, and Carcassonne's table set-ups are consistent (issue 27, findings 8 and 9).

A number the engine accepted once crashed a screen: a Carcassonne coordinate of 1e309
(OverflowError drawing the table), a Scrambled States round pause of 2**31 ms (a Qt timer
takes 32 bits), setup numbers above 2**63 sent to an online joiner. A reserved tile on an
occupied start square froze the game. Each is now refused with a ValueError (SaveError
from a save) that says what is wrong.
"""
from __future__ import annotations

import json

import pytest

from stateside.engine.match import Match, rules_for
from stateside.engine.protocol import CHANCE, SIMULTANEOUS
from stateside.engine.saves import read_save
from stateside.errors import IllegalActionError, SaveError
from stateside.games.carcassonne.engine import MAX_COORD, Game, TurnUp
from stateside.games.scrambled_states.rules import MAX_WAIT_MS

TWO = ["Ann", "Bob"]


def carcassonne(**options) -> dict:
    return {"players": TWO, "sets": ["base"], **options}


def save_of(game: str, setup: dict, actions=(), seed: int = 1) -> dict:
    seats = ["human"] * len(setup["players"])
    return {"game": game, "rules_version": rules_for(game).spec.save_version, "setup": setup,
            "seed": seed, "seats": seats, "actions": list(actions)}


# --------------------------------------------------------------------------- Carcassonne: coordinates
@pytest.mark.parametrize("start", [[["B-D", 10**309, 0, 0]], [["B-D", 0, -2**70, 0]],
                                   [["B-D", MAX_COORD + 1, 0, 0]], [["B-D", 0, 0, 4]], [["B-D", 0, 0, -1]]])
def test_carcassonne_start_tiles_off_the_table_or_turned_too_far_are_refused(start):
    with pytest.raises(ValueError, match="off the table|quarter turns"):
        Game.new(carcassonne(start=start))


def test_carcassonne_coordinate_1e309_in_a_save_is_refused_with_a_message(tmp_path):
    """1e309 reads as inf, its digits as an int too large for a float: neither starts a game."""
    path = tmp_path / "big.stateside.json"
    setup = carcassonne()
    text = json.dumps({"format": "stateside-save", "version": 2, **save_of("carcassonne", setup)})
    for bad in ('"start": [["B-D", 1e309, 0, 0]]', '"start": [["B-D", 1' + "0" * 309 + ', 0, 0]]'):
        path.write_text(text.replace('"sets": ["base"]', '"sets": ["base"], ' + bad))
        game, body = read_save(path)
        with pytest.raises(SaveError, match="the setup cannot start a game"):
            Match.from_json(body, str(path))


@pytest.mark.parametrize("data", [[10**309, 0, 0, -1], [0, -(MAX_COORD + 1), 0, -1], [1, 0, 4, -1],
                                  [1, 0, 0, 10**20], {"turn_up": [2**70, 0]}, {"place_turned_up": [0, 0, 2**63]}])
def test_carcassonne_actions_out_of_range_are_value_errors(data):
    g = Game.new(carcassonne())
    with pytest.raises(ValueError, match="off the table|quarter turns|feature"):
        g.action_from_json(data)


@pytest.mark.parametrize("data", [{"lay": [10**309, 0, 0]}, {"look": [0, 2**70]}, {"follow": 2**63},
                                  {"chip": [[]]}, {"reveal": []}, {"reveal": {"a": 1}}])
def test_carcassonne_usa_actions_out_of_range_or_of_the_wrong_type_are_value_errors(data):
    g = Game.new({"players": TWO, "variant": "usa-west"})
    with pytest.raises(ValueError):
        g.action_from_json(data)


def test_the_open_table_ends_at_its_extent():
    """A start tile on the table's last column: the squares beyond are not offered."""
    g = Game.new(carcassonne(start=[["B-D", MAX_COORD, 0, 0]]))
    assert (MAX_COORD - 1, 0) in g.open and (MAX_COORD + 1, 0) not in g.open


# --------------------------------------------------------------------------- Carcassonne: consistency
@pytest.mark.parametrize("options, message", [
    ({"reserved": [["B-U", 0, 0]]}, "square 0,0 holds a start tile already"),
    ({"start": [["B-D", 0, 0, 0], ["B-D", 0, 0, 0]]}, "square 0,0 holds a start tile already"),
    ({"reserved": [["B-U", 1, 0], ["B-E", 1, 0]]}, "square 1,0 holds a face-down tile already"),
    ({"start": [["B-D", 0, 0, 0], ["B-D", 0, 1, 0]]}, "does not match the start tiles beside it"),
    ({"squares": [[0, 0], [1, 0]], "start": [["B-D", 0, 0, 0], ["B-D", 2, 0, 0]]}, "not on a playable square"),
    ({"squares": [[0, 0], [1, 0]], "reserved": [["B-U", 0, 1]]}, "not on a playable square"),
    ({"sets": ["base", "base"]}, "names a tile set twice"),
    ({"goods": 2**70}, "true or false"),
    ({"inns_cathedrals": "yes"}, "true or false"),
])
def test_inconsistent_carcassonne_set_ups_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        Game.new(carcassonne(**options))


def test_a_reserved_tile_on_the_start_square_is_refused_from_a_save_too():
    """The referee builds a hosted game with the same Match, so this refuses it online as well."""
    with pytest.raises(SaveError, match="holds a start tile already"):
        Match.from_json(save_of("carcassonne", carcassonne(reserved=[["B-U", 0, 0]])))


def test_start_tiles_whose_edges_match_are_accepted():
    g = Game.new(carcassonne(start=[["B-D", 0, 0, 0], ["B-D", 1, 0, 0], ["B-D", 0, -1, 2]]))
    assert len(g.board) == 3
    g.check_invariants()


def listed_actions_are_accepted(match: Match, steps: int) -> None:
    """For `steps` actions: every listed action applies to a copy, invariants hold after it,
    then one is taken (a face-down tile turned up whenever that is listed)."""
    for _ in range(steps):
        state = match.state
        if state.is_terminal():
            return
        p = state.current_player()
        legal = state.legal_actions(None if p in (CHANCE, SIMULTANEOUS) else p)
        assert legal, "a game that is not over lists nothing"
        for action in legal:
            twin = state.clone()
            try:
                twin.apply_action(action)
            except IllegalActionError as e:
                raise AssertionError(f"listed {action!r} refused: {e}") from None
            twin.check_invariants()
        match.apply(next((a for a in legal if type(a) is TurnUp), legal[0]))


@pytest.mark.parametrize("options", [
    {},
    {"start": [["B-D", 0, 0, 0], ["B-D", 1, 0, 0]], "reserved": [["B-U", 0, 1], ["B-E", 2, 0]]},
    {"squares": [[x, y] for x in range(-2, 3) for y in range(-2, 3)], "reserved": [["B-U", 1, 0], ["B-K", -1, 0]]},
    {"reserved": [["B-U", 0, 0]]},                               # the freeze of issue 27
    {"start": [["B-D", 0, 0, 0], ["B-D", 0, 1, 0]]},             # a city edge against a field
])
def test_a_carcassonne_set_up_is_refused_or_accepts_what_it_lists(options):
    """Before the fix a face-down tile on the start square, once turned up, was laid over
    the start tile (the board and its tiles disagreed) and the game froze."""
    try:
        match = Match("carcassonne", ["human", "human"], 3, carcassonne(**options))
    except ValueError:
        return
    listed_actions_are_accepted(match, 16)


@pytest.mark.parametrize("game_id", ["america", "carcassonne", "game-of-the-states", "scrambled-states", "ten-days"])
def test_what_every_default_set_up_lists_it_accepts(game_id):
    cls = rules_for(game_id)
    for n in (cls.spec.min_players, cls.spec.max_players):
        for variant in cls.spec.variants or (None,):
            setup = cls.default_setup(n) if variant is None else {**cls.default_setup(n), "variant": variant}
            listed_actions_are_accepted(Match(game_id, ["human"] * n, 5, setup), 4)


# --------------------------------------------------------------------------- Scrambled States: times
@pytest.mark.parametrize("name", ["round_pause_ms", "round_limit_ms", "tie_window_ms", "buzz_window_ms"])
@pytest.mark.parametrize("value", [2**31, 2**31 - 1, MAX_WAIT_MS + 1, 2**70])
def test_scrambled_waits_beyond_ten_minutes_are_refused(name, value):
    """2**31 ms overflowed the screen's QTimer.start; no wait needs more than 10 minutes."""
    cls = rules_for("scrambled-states")
    with pytest.raises(ValueError, match=f"{name} must be 0 to 600,000 ms"):
        cls.new({**cls.default_setup(2), name: value})


def test_scrambled_waits_of_ten_minutes_are_accepted():
    cls = rules_for("scrambled-states")
    g = cls.new({**cls.default_setup(2), "round_pause_ms": MAX_WAIT_MS, "round_limit_ms": MAX_WAIT_MS,
                 "tie_window_ms": MAX_WAIT_MS, "buzz_window_ms": MAX_WAIT_MS})
    assert g.settings.round_pause_ms == MAX_WAIT_MS


@pytest.mark.parametrize("data", [["slap", 0, 2**70, "TX"], ["no-match", 2**63, 0], ["buzz", 7, 0],
                                  ["advance", 10**13], ["advance", -1], ["slap", 0, 0, "X" * 5000]])
def test_scrambled_actions_out_of_range_are_value_errors(data):
    cls = rules_for("scrambled-states")
    with pytest.raises(ValueError):
        cls.new(cls.default_setup(2)).action_from_json(data)


# --------------------------------------------------------------------------- every game: big numbers
@pytest.mark.parametrize("game_id, key, value", [
    ("america", "start_player", 2**70),
    ("america", "deck_size", 2**70),
    ("america", "used_topics", ["12A"] * 100_001),
    ("ten-days", "turn_limit", 2**70),
    ("ten-days", "turn_limit", 10_001),
    ("ten-days", "bonus", 2**70),
    ("game-of-the-states", "start_money", 2**70),
    ("scrambled-states", "target", 2**70),
    ("carcassonne", "followers", 2**70),
    ("carcassonne", "squares", [[0, 0], [2**70, 0]]),
])
def test_setup_numbers_above_64_bits_or_unknown_options_are_refused(game_id, key, value):
    """An online host's setup reaches every joiner's screen: nothing in it may be unchecked."""
    cls = rules_for(game_id)
    with pytest.raises(ValueError):
        Match(game_id, ["human", "human"], 0, {**cls.default_setup(2), key: value})


@pytest.mark.parametrize("seed", [2**63, -2**63 - 1, 2**70, 1.5, "7", True, None])
def test_a_seed_outside_64_bits_or_not_a_whole_number_is_refused(seed):
    with pytest.raises(ValueError, match="the seed must be a whole number"):
        Match("ten-days", ["human", "human"], seed)
    with pytest.raises(SaveError, match="seed"):
        Match.from_json(save_of("ten-days", rules_for("ten-days").default_setup(2), seed=seed))


def test_seeds_at_the_ends_of_64_bits_are_accepted():
    for seed in (0, 2**63 - 1, -2**63):
        assert Match("ten-days", ["human", "human"], seed).seed == seed


def test_a_spin_of_a_digit_python_reads_but_int_does_not_is_an_illegal_action():
    from stateside.games.game_of_the_states.common import sector_of

    for action in ("spin:\u00b2", "spin:-1", "spin:99"):
        with pytest.raises(IllegalActionError, match="not a spin"):
            sector_of(action)
