"""Scrambled States on the engine protocol: the rulebook's race through State, Match and
the clock; chance in the log; saves, old saves, and what the computers may see."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from stateside.engine.clock import next_step, planned_reactions
from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE, SIMULTANEOUS, TERMINAL
from stateside.engine.saves import read_save
from stateside.errors import IllegalActionError, SaveError
from stateside.games.scrambled_states.ai import LEVELS
from stateside.games.scrambled_states.legacy import legacy_save
from stateside.games.scrambled_states.rules import (
    FACE_UP, FACES, Action, Advance, Roll, ScrambledStates, Turn, no_match, slap,
)
from stateside.selfplay import play_match

SAVES = Path(__file__).parent / "data" / "saves-v1"

# What the old engine (before the protocol) showed after loading each version-1 save.
OLD_GAMES = {
    "scrambled-states-hard-target3-finished.json": {
        "now": 15123, "piles": [["OR"], ["VA", "ME", "MD"]], "center": "LA", "face": "colour", "phase": "over",
        "face_up": ["VT", "NH", "NC", "IN", "TX", "MT", "LA", "MO", "NM", "MN", "NY", "KS", "SC", "WA", "SD"],
        "round": 4, "winners": [1], "results": ["win", "win", "win", "win"], "draw": 31,
        "seats": ["human", "ai:hard"]},
    "scrambled-states-party-tie-window.json": {
        "now": 52907, "piles": [["DE", "WA", "NJ", "MT", "FL", "PA", "VA"], ["SD", "IA", "KS", "NE"], ["TN"]],
        "face_up": ["NC", "AK", "MD", "ID", "KY", "AR", "GA", "MN", "HI", "TX", "OH", "MA", "WI", "CO", "NM"],
        "center": "UT", "face": "region", "phase": "closing", "round": 13, "winners": [],
        "results": ["win", "win", "hand", "win", "win", "win", "win", "win", "win", "hand", "win", "win"],
        "draw": 22, "seats": ["human", "human", "ai:medium"]},
    "scrambled-states-six-finished.json": {
        "now": 35975, "piles": [["MN", "UT", "ID", "PA", "IN"], [], ["ND"], ["MS", "NY", "OR", "SC", "WI", "VA"], [], []],
        "face_up": ["CA", "ME", "KS", "WV", "RI", "KY", "DE", "OK", "GA", "WA", "IL", "TX", "MA", "NJ", "MI"],
        "center": "GA", "face": "region", "phase": "over", "round": 10, "winners": [3],
        "results": ["win", "win", "win", "tie", "tie", "win", "win", "hand", "win", "win"], "draw": 23,
        "seats": ["human", "ai:easy", "ai:medium", "ai:hard", "ai:easy", "ai:medium"]},
    "scrambled-states-solo-midgame.json": {
        "now": 37342, "piles": [["IN", "PA", "VA", "NY", "LA", "UT", "WI", "CA"], [], ["NM", "SD"]],
        "face_up": ["FL", "ID", "VT", "RI", "AL", "KS", "ME", "DE", "AR", "IA", "KY", "MI", "ND", "NV", "HI"],
        "center": "OK", "face": "land-mass", "phase": "rolling", "round": 10, "winners": [],
        "results": ["win", "hand", "win", "hand", "hand", "hand", "tie", "win", "win"], "draw": 24,
        "seats": ["human", "ai:easy", "ai:easy"]},
}


def dealt(players: int = 2, seed: int = 1) -> Match:
    match = Match(ScrambledStates, ["human"] * players, seed)
    match.resolve_chance()
    return match


@pytest.mark.parametrize("specs", [["ai:hard", "ai:easy"], ["ai:easy", "ai:medium", "ai:hard", "ai:casual"]])
def test_seeded_games_end_with_returns_summing_to_one_and_chance_in_the_log(specs):
    for seed in range(6):
        match = play_match("scrambled-states", specs, seed).match
        state = match.state
        assert state.is_terminal() and state.current_player() == TERMINAL
        returns = state.returns()
        assert sum(returns) == pytest.approx(1.0 if state.winners() else 0.0)
        assert all(r == pytest.approx(1 / len(state.winners())) for r in (returns[w] for w in state.winners()))
        chance = [e.action for e in match.log if e.seat == CHANCE]
        # Every card turned up is in the log: the 15 dealt, the first center card and the
        # die, then a center card and a roll a round, and the refills after ties.
        assert all(isinstance(a, Turn) for a in chance[:FACE_UP + 1]) and isinstance(chance[FACE_UP + 1], Roll)
        turned = [a.card for a in chance if isinstance(a, Turn)]
        assert len(turned) == len(set(turned)) == 50 - len(state.draw)
        assert sum(isinstance(a, Roll) for a in chance) == state.round_count
        state.check_invariants()


def test_a_game_is_its_setup_and_actions():
    """Replaying the log alone (no generator) gives the same game, chance included."""
    match = play_match("scrambled-states", ["ai:medium", "ai:medium", "ai:easy"], 4).match
    replay = ScrambledStates.new(match.initial_setup)
    for entry in match.log:
        replay.apply_action(entry.action)
    assert [replay.observation(s) for s in range(3)] == [match.state.observation(s) for s in range(3)]


def test_save_and_load_round_trip_mid_round():
    """Saved inside a tie window and after the game: the loaded game looks the same to every seat."""
    match = Match(ScrambledStates, ["ai:hard", "ai:hard", "ai:medium"], seed=21)
    while not match.is_over():
        match.step()
        if match.state.phase == "closing":
            break
    assert match.state.phase == "closing"
    for _ in range(2):
        loaded = Match.from_json(json.loads(json.dumps(match.to_json())), "test")
        assert [loaded.state.observation(s) for s in range(3)] == [match.state.observation(s) for s in range(3)]
        assert loaded.state.now() == match.state.now() and loaded.state.next_deadline() == match.state.next_deadline()
        match.play_out()


@pytest.mark.parametrize("name", sorted(OLD_GAMES))
def test_old_saves_open_as_the_same_game(name):
    """Version-1 saves (made by the engine before the protocol) convert and replay to the
    game the old engine showed: same table, piles, clock, round and outcomes."""
    _, body = read_save(SAVES / name, "scrambled-states")
    match = Match.from_json(body, name)
    g, want = match.state, OLD_GAMES[name]
    assert match.seats == want["seats"]
    assert {"now": g.now(), "piles": g.piles, "face_up": g.face_up, "center": g.round.center, "face": g.round.face,
            "phase": g.phase, "round": g.round.number, "winners": g.winners(),
            "results": [e.kind for e in g.results], "draw": len(g.draw)} == \
        {k: v for k, v in want.items() if k != "seats"}
    assert match.to_json()["actions"] == body["actions"]
    if not g.is_terminal():   # and it goes on
        match.apply(Advance(g.next_deadline()))
        match.resolve_chance()
        g.check_invariants()


@pytest.mark.parametrize("bad, message", [
    ({"nothing": 1}, "no game in it"),
    ({"engine": {"version": 2}}, "version 2"),
    ({"engine": {"version": 1, "seed": 3}}, "malformed"),
    ({"engine": {"version": 1, "seed": 1, "settings": {"seats": [{"name": "A"}, {"name": "B"}]},
                 "actions": [["slap", 0, 10, "TX"]]}}, "do not replay"),
    ({"engine": {"version": 1, "seed": 1, "settings": {"seats": [{"name": "A"}, {"name": "B"}]},
                 "actions": [["jump", 0, 10]]}}, "not a move"),
])
def test_broken_old_saves_are_refused(bad, message):
    with pytest.raises(SaveError, match=message):
        legacy_save(bad)


def test_nobody_acts_while_the_die_rolls_and_time_passes_only_to_the_deadline():
    match = dealt()
    g = match.state
    assert g.current_player() == SIMULTANEOUS and g.phase == "rolling"
    assert g.legal_actions(0) == [] and g.legal_actions(1) == []
    deadline = g.next_deadline()
    for bad in (Advance(deadline + 1), Advance(g.now()), slap(0, g.face_up[0], g.now())):
        with pytest.raises(IllegalActionError):
            g.apply_action(bad)
    match.apply(g.advance_action(deadline))
    assert g.phase == "open" and len(g.legal_actions(0)) == FACE_UP + 2   # 15 cards, the center card, No Match
    with pytest.raises(IllegalActionError, match="let time pass first"):
        g.apply_action(no_match(0, g.now() + 5))
    with pytest.raises(IllegalActionError, match="backwards"):
        g.apply_action(no_match(0, g.now() - 5))


def test_chance_turns_up_one_card_at_a_time_from_the_cards_left():
    g = ScrambledStates.new(ScrambledStates.default_setup(3))
    assert g.current_player() == CHANCE and g.legal_actions(0) == []
    outcomes = g.chance_outcomes()
    assert [a.card for a, _ in outcomes] == list(g.cards.codes) and sum(p for _, p in outcomes) == pytest.approx(1)
    g.apply_action(Turn("TX"))
    with pytest.raises(IllegalActionError):
        g.apply_action(Turn("TX"))                 # already on the table
    with pytest.raises(IllegalActionError):
        g.apply_action(Roll("hand"))               # the table is still being dealt
    while g.to_draw != ["face"]:
        g.apply_action(g.chance_outcomes()[-1][0])
    assert [a.face for a, _ in g.chance_outcomes()] == list(FACES)
    g.apply_action(Roll("hand"))
    assert g.face == "hand" and g.phase == "rolling" and g.face_up[0] == "TX"


def test_actions_as_json_and_plain_english():
    g = ScrambledStates.new(dict(ScrambledStates.default_setup(2), players=["Ada", "Ben"]))
    examples = {
        slap(0, "TX", 1200): (["slap", 0, 1200, "TX"], "Ada slapped Texas 1.2 s into the game"),
        no_match(1, 3060): (["no-match", 1, 3060], "Ben called No Match 3.1 s into the game"),
        Advance(2400): (["advance", 2400], "The clock ran on to 2.4 s"),
        Turn("OH"): (["card", "OH"], "Ohio was dealt face up to space 1"),
        Roll("two"): (["die", "two"], "The die landed on 2"),
    }
    for action, (data, text) in examples.items():
        assert g.action_to_json(action) == data and g.action_from_json(data) == action
        assert g.action_to_string(action) == text
    for bad in ({"not": "a move"}, [], ["slap", 0, "soon", "TX"], ["slap", True, 10, "TX"], ["fly", 1], 7):
        with pytest.raises(ValueError, match="move|slap"):
            g.action_from_json(bad)


def test_observations_are_public_and_hold_no_deck_order():
    match = play_match("scrambled-states", ["ai:hard", "ai:easy", "ai:medium"], 8).match
    match.undo_to(60)
    g = match.state
    views = [g.observation(s) for s in range(3)]
    json.dumps(views)
    assert all({k: v for k, v in view.items() if k != "seat"} ==
               {k: v for k, v in views[0].items() if k != "seat"} for view in views)
    assert "draw" not in views[0] and views[0]["draw_count"] == len(g.draw)


def test_computers_see_only_their_view_and_plan_once_a_round():
    """A computer's reaction is a function of its observation and its generator: asked
    again at the same point it answers the same, and its time stays within its level."""
    match = Match(ScrambledStates, ["human", "ai:easy", "ai:hard"], seed=5)
    match.resolve_chance()
    match.apply(match.state.advance_action(match.state.next_deadline()))
    landed = match.state.now()
    first = [plan[:3] for plan in planned_reactions(match)]
    assert first and first == [plan[:3] for plan in planned_reactions(match)]
    for t, seat, action in first:
        level = LEVELS[match.seats[seat][3:]]
        assert landed + level.min_ms <= t <= landed + level.max_ms and action.t == t and action.player == seat
    # The clock: time runs to the earliest reaction, which then happens.
    t, actions = next_step(match)
    assert actions == [Advance(t), first[0][2]]


def test_a_deadline_comes_before_an_action_planned_for_the_same_moment():
    for seed in range(30):   # a round with a card to slap
        match = dealt(seed=seed)
        g = match.state
        if g.face != "hand" and g.matching_cards():
            break
    match.apply(g.advance_action(g.next_deadline()))
    match.apply(slap(0, g.matching_cards()[0], g.now()))
    assert g.phase == "closing"          # Ben may tie until the window closes, but not at its close
    close = g.next_deadline()
    assert Action("no-match", 1, g.now()) in g.legal_actions(1)
    match.apply(g.advance_action(close))
    assert g.phase == "dealing" and g.results[-1].kind == "win"
    with pytest.raises(IllegalActionError):
        g.apply_action(Action("no-match", 1, close))


def test_random_seats_play_to_the_end():
    """The protocol's random player slaps anything at once, or lets time pass."""
    for seed in range(5):
        state = play_match("scrambled-states", ["random", "random", "ai:easy"], seed).match.state
        assert state.is_terminal()
        state.check_invariants()
        assert sum(state.returns()) == pytest.approx(1.0 if state.winners() else 0.0)
