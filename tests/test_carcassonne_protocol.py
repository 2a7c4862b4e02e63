"""Carcassonne through the engine protocol and the match layer: whole seeded games, draws
as logged chance, every accepted move listed, saves (old and new), the computer players
seeing only their observation, and the face-down tiles of printed boards in the log."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE, TERMINAL
from stateside.engine.saves import read_save
from stateside.errors import IllegalActionError, SaveError
from stateside.games.carcassonne.ai import make_player
from stateside.games.carcassonne.engine import Draw, Game, PlaceTurnedUp, Setup, TurnUp, draw
from stateside.games.carcassonne.legacy import legacy_save
from stateside.games.carcassonne.tiles import load_tile_set, tile_by_id

SAVES = Path(__file__).parent / "data" / "saves-v1"


def accepted(state: Game) -> list:
    """The candidate actions that a clone of `state` accepts."""
    out = []
    for a in state.candidate_actions(None if state.current_player() == CHANCE else state.current_player()):
        try:
            state.clone().apply_action(a)
        except IllegalActionError:
            continue
        out.append(a)
    return out


@pytest.mark.parametrize("seats, seed", [(["random", "random"], 1), (["ai:easy", "random", "random"], 2),
                                         (["random"] * 5, 3), (["ai:easy", "ai:easy"], 4)])
def test_seeded_games_end_with_returns_of_one_or_zero_and_every_draw_logged(seats, seed):
    match = Match("carcassonne", seats, seed)
    match.play_out()
    g = match.state
    g.check_invariants()
    assert g.is_terminal() and g.current_player() == TERMINAL and g.legal_actions() == []
    winners = g.winners()
    assert g.returns() == [1 / len(winners) if i in winners else 0 for i in range(len(seats))]
    assert sum(g.returns()) == pytest.approx(1)
    draws = [e for e in match.log if e.seat == CHANCE]
    assert all(type(e.action) is Draw for e in draws)
    # every tile of the game was drawn (to be played or set aside), none but the start tile is placed otherwise
    assert len(draws) == 114 - 1 == len(g.placed) - 1 + len(g.set_aside)
    assert match.log[0].seat == CHANCE and match.log[0].text.startswith("Player 1 drew a ")


def test_returns_are_zero_until_the_end():
    match = Match("carcassonne", ["random", "random"], 8)
    for _ in range(40):
        match.step()
        assert match.state.returns() == [0.0, 0.0]


def test_a_draw_is_chance_weighted_by_the_copies_left():
    g = Game.new(Game.default_setup(2))
    assert g.current_player() == CHANCE and g.drawn is None
    odds = dict((a.tile, p) for a, p in g.chance_outcomes())
    assert sum(odds.values()) == pytest.approx(1)
    assert odds["B-D"] == pytest.approx(3 / 113)      # four D tiles, one of them the start tile
    assert odds["B-U"] == pytest.approx(8 / 113)
    assert [a for a, _ in g.chance_outcomes()] == g.legal_actions()
    assert g.legal_actions(0) == [] and g.legal_actions(1) == []
    g.apply_action(draw("B-U"))
    assert g.current_player() == 0 and g.tiles_left == 112 and g.chance_outcomes() == []
    with pytest.raises(IllegalActionError, match="no tile is to be drawn now"):
        g.apply_action(draw("B-U"))


def test_every_move_the_engine_accepts_is_listed_every_rotation_included():
    """Before the protocol the list kept one of each set of equivalent rotations (37 of 74)."""
    match = Match("carcassonne", ["human", "human"], 1)
    match.apply(draw("B-U"))                              # a straight road: rotations 1 and 3 look alike
    g = match.state
    legal = g.legal_actions(0)
    assert (1, 0, 1, -1) in legal and (1, 0, 3, -1) in legal
    assert len(g.legal_placements(distinct=True)) < len(g.legal_placements())   # what the computers try
    assert sorted(accepted(g), key=repr) == sorted(legal, key=repr)
    rng = random.Random(3)
    for _ in range(30):                                   # and further on, with followers on the table
        match.apply(rng.choice(match.state.legal_actions()))
        match.resolve_chance()
    g = match.state
    assert sorted(accepted(g), key=repr) == sorted(g.legal_actions(), key=repr)


def test_a_refused_action_raises_and_leaves_the_state_unchanged():
    match = Match("carcassonne", ["human", "human"], 2)
    match.resolve_chance()
    g = match.state
    before = json.dumps(g.observation(0))
    for bad in [(99, 99, 0, -1), (0, 0, 0, -1), (1, 0, 4, -1), (1, 0, 1, 17), "pass", draw("B-U"),
                TurnUp(1, 0), PlaceTurnedUp(1, 0, 1), (1, 0, 1), (1.0, 0, 1, -1)]:
        with pytest.raises(IllegalActionError):
            g.apply_action(bad)
        assert json.dumps(g.observation(0)) == before
    g.check_invariants()


def test_actions_in_json_and_in_plain_english():
    match = Match("carcassonne", ["human", "human"], 5, Setup(players=["Ada", "Bo"]).to_json())
    g = match.state
    assert g.action_to_json(draw("B-U")) == {"draw": "B-U"}
    # in a player's words: B-U is the base game's straight road (tile U of the rulebook's list)
    assert g.action_to_string(draw("B-U")) == "Ada drew a road tile"
    match.apply(draw("B-U"))
    assert g.action_to_string((1, 0, 1, -1)) == "Ada laid a road tile just east of the start tile, turned right, " \
                                                "with no follower"
    road = [s.kind for s in g.tiles[g.drawn].segments].index("road")
    assert g.action_to_string((-1, 0, 3, road)) == ("Ada laid a road tile just west of the start tile, turned "
                                                    "left, and placed a thief on the road")
    for a in [(1, 0, 1, -1), draw("IC-01"), TurnUp(2, -3), PlaceTurnedUp(2, -3, 2)]:
        assert g.action_from_json(json.loads(json.dumps(g.action_to_json(a)))) == a
    for bad, message in [({"draw": "Z-9"}, "not a Carcassonne tile"), ([1, 2, 3], "4 whole numbers"),
                         ([1, 2, True, -1], "4 whole numbers"), ({"turn_up": [1]}, "2 whole numbers"),
                         ({"fly": 1}, "not a Carcassonne action"), ("B-U", "not a Carcassonne action")]:
        with pytest.raises(ValueError, match=message):
            g.action_from_json(bad)


def test_save_and_load_through_the_match_reproduces_the_game_and_goes_on_the_same():
    match = Match("carcassonne", ["ai:easy", "random", "random"], 11)
    for _ in range(50):
        match.step()
    data = json.loads(json.dumps(match.to_json()))
    assert data["rules_version"] == Game.spec.save_version == 3
    loaded = Match.from_json(data, "test")
    for seat in range(3):
        assert loaded.state.observation(seat) == match.state.observation(seat)
    for _ in range(30):
        a, b = match.step(), loaded.step()
        assert a.action == b.action


def test_the_observation_holds_the_public_log_and_no_order_of_the_tiles_left():
    match = Match("carcassonne", ["random", "random"], 6)
    for _ in range(9):
        match.step()
    g = match.state
    obs = g.observation(1)
    assert obs == g.observation(0)            # nothing is hidden from anyone
    assert obs["actions"] == [g.action_to_json(a) for a in match.actions]
    assert sum(obs["tiles_left"].values()) == g.tiles_left
    # The tiles left are a count per kind: any two orders of them give the same observation.
    assert list(obs["tiles_left"]) == sorted(obs["tiles_left"], key=lambda t: tile_by_id()[t].index)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_computer_player_decides_from_the_observation_alone(level):
    """It gets JSON and the legal actions, never the State: the same choice from a copy of the
    observation made in a fresh player, and its own copy of the game follows an undo."""
    match = Match("carcassonne", ["human", "human"], 3)
    for _ in range(21):
        match.apply(random.Random(len(match.log)).choice(match.state.legal_actions()))
    match.resolve_chance()
    g = match.state
    seat = g.current_player()
    obs, legal = g.observation(seat), g.legal_actions(seat)

    def choose(player, o):
        player.rng.seed("same")
        if level == "hard":
            player.budget = 60.0       # samples, not the clock, bound the search here
        return player.choose(o, legal)

    first = make_player(level, seat, random.Random())
    choice = choose(first, obs)
    assert choice in legal
    assert choose(make_player(level, seat, random.Random()), json.loads(json.dumps(obs))) == choice
    # The same player after an undo: it notices that the log does not continue its copy
    # of the game and rebuilds it.
    match.undo_to(6)
    match.resolve_chance()
    other = match.state
    first.seat = other.current_player()
    assert choose(first, other.observation(first.seat)) in other.legal_actions(first.seat)
    assert first.game.history == other.history


@pytest.mark.parametrize("name, expect", [
    ("carcassonne-midgame", dict(scores=[29, 20], turn=31, current=1, tile="B-U", left=81, supply=[0, 0],
                                 seats=["human", "ai:easy"], first=[(1, (3, 0), 1), (0, (4, -3), 2)])),
    ("carcassonne-finished", dict(scores=[106, 117, 117], turn=113, current=2, tile=None, left=0, supply=[1, 0, 0],
                                  seats=["human", "ai:hard", "ai:easy"], first=[(1, (1, 0), 1), (0, (2, 1), 0)])),
    ("carcassonne-base-five", dict(scores=[0, 0, 3, 4, 6], turn=12, current=2, tile="B-R", left=58,
                                   supply=[4, 5, 6, 6, 7], seats=["human"] * 5, first=[(0, (-1, 0), 0), (1, (0, -1), 0)])),
])
def test_version_1_saves_convert_and_load_as_the_same_game(name, expect):
    """The figures are those the code before the protocol showed for these files."""
    game_id, body = read_save(SAVES / f"{name}.json", "carcassonne")
    match = Match.from_json(body, name)
    g = match.state
    g.check_invariants()
    tile = None if g.drawn is None else g.tiles[g.drawn].id
    assert (g.scores(), g.turn, g.current, tile, g.tiles_left, g.supply) == (
        expect["scores"], expect["turn"], expect["current"], expect["tile"], expect["left"], expect["supply"])
    assert match.seats == expect["seats"] and g.followers_on_board()[:2] == expect["first"]
    assert "seed" not in match.initial_setup and match.seed == json.loads((SAVES / f"{name}.json").read_text())[
        "state"]["game"]["setup"]["seed"]


@pytest.mark.parametrize("state, message", [
    (None, "not a version-1 Carcassonne save"),
    ({"game": {"setup": {"players": ["a", "b"], "seed": 1}, "actions": []}, "seats": [{"kind": "robot"}] * 2},
     "seat 1 is malformed"),
    ({"game": {"setup": {"players": ["a", "b"], "seed": 1}, "actions": [[9, 9, 0, -1]]},
      "seats": [{"kind": "human"}] * 2}, "move 1 cannot be replayed"),
    ({"game": {"setup": {"players": ["a"], "seed": 1}, "actions": []}, "seats": [{"kind": "human"}]},
     "2 to 5 players"),
])
def test_broken_version_1_saves_are_refused_clearly(state, message):
    with pytest.raises(SaveError, match=message):
        legacy_save(state)


PRINTED = Setup(players=["Ann", "Bob"], sets=["base"],
                squares=[[x, y] for x in range(-3, 5) for y in range(-2, 3)],
                start=[["B-D", 0, 0, 0], ["B-D", 3, 0, 0]],
                reserved=[["B-U", 1, 0], ["B-K", 0, 1], ["B-E", 0, -1]])


def test_face_down_tiles_turned_up_and_laid_survive_save_and_load():
    """The issue's bug: 3 face-down tiles before saving, 2 after loading, the square reserved again."""
    match = Match("carcassonne", ["human", "human"], 4, PRINTED.to_json())
    match.resolve_chance()
    assert len(match.state.reserved) == 3
    match.apply(TurnUp(1, 0))
    match.apply(PlaceTurnedUp(1, 0, 1))
    assert len(match.state.reserved) == 2 and (1, 0) in match.state.board
    loaded = Match.from_json(json.loads(json.dumps(match.to_json())), "test")
    assert len(loaded.state.reserved) == 2 and loaded.state.board == match.state.board
    assert loaded.state.observation(0) == match.state.observation(0)
    assert [e.text for e in loaded.log][-2:] == ["Ann turned up the face-down tile just east of the start tile: "
                                                 "a road tile",
                                                 "Ann laid the turned-up tile on its square just east of the start "
                                                 "tile, turned right"]


@pytest.mark.parametrize("seed", range(4))
def test_random_play_on_a_printed_board_keeps_the_protocol(seed):
    """Face-down tiles turned up at random moments: listed == accepted, invariants, a clean end."""
    rng = random.Random(seed)
    match = Match("carcassonne", ["random", "random"], seed, PRINTED.to_json())
    checks = 0
    while not match.is_over():
        g = match.state
        if g.current_player() >= 0 and (g.turned_up is not None or rng.random() < 0.15):
            assert sorted(accepted(g), key=repr) == sorted(g.legal_actions(), key=repr)
            checks += 1
        turn_up = [a for a in g.legal_actions() if type(a) is TurnUp]
        if turn_up and rng.random() < 0.5:
            match.apply(rng.choice(turn_up))
        else:
            match.step()
        match.state.check_invariants()
    g = match.state
    assert checks and g.is_terminal() and not g.deck
    tiles = load_tile_set("base").size
    assert len(g.placed) + len(g.set_aside) + len(g.reserved) == tiles


def test_a_tile_in_hand_that_no_longer_fits_after_a_turned_up_tile_is_set_aside():
    """Laying a turned-up tile can take the last square the tile in hand fitted: it goes aside
    and the next one is drawn, as for a drawn tile that fits nowhere."""
    setup = Setup(players=["Ann", "Bob"], sets=["base"], squares=[[0, 0], [1, 0], [2, 0], [2, 1]],
                  start=[["B-D", 0, 0, 0], ["B-D", 2, 1, 0]], reserved=[["B-E", 2, 0]])
    g = Game(setup)
    g.apply_action(draw("B-U"))              # a straight road: fits 1,0 only, road to the west
    assert {m[:2] for m in g.legal_actions() if type(m) is tuple} == {(1, 0)}
    g.apply_action(TurnUp(2, 0))             # a city cap over the city of the second start tile
    events = g.apply_action(PlaceTurnedUp(2, 0, 2))
    assert events[-1].kind == "set-aside" and g.set_aside == [tile_by_id()["B-U"].index]
    assert g.current_player() == CHANCE and g.turn == 0
    g.check_invariants()
