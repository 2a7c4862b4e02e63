"""10 Days in the USA through the engine protocol: seeded matches, chance in the log,
saves (today's and version 1), and computer players that see only their own cards."""
import json
import random
from pathlib import Path

import pytest

from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE
from stateside.engine.saves import load_match
from stateside.errors import SaveError
from stateside.games.ten_days.ai import make_player
from stateside.games.ten_days.journey import check_journey
from stateside.games.ten_days.legacy import legacy_save
from stateside.games.ten_days.rules import DEAL, DRAW, ROUNDS_LIMIT, TenDaysState
from stateside.selfplay import play_match

SAVES = Path(__file__).parent / "data" / "saves-v1"
V1_SAVES = ("ten-days-deal.json", "ten-days-midgame.json", "ten-days-reshuffled.json", "ten-days-won.json")
# each save's game as the version-1 engine had it when the save was made
EXPECTED = json.loads((SAVES / "ten-days-expected-states.json").read_text())


def observations(state):
    return [state.observation(s) for s in range(state.num_players)]


@pytest.mark.parametrize("seats", [["ai:hard", "ai:easy"], ["random", "ai:medium", "random"],
                                   ["ai:easy", "random", "ai:hard", "ai:medium"]])
def test_seeded_matches_end_with_a_valid_journey_or_at_the_turn_limit(seats):
    for seed in range(3):
        record = play_match("ten-days", seats, seed)
        state = record.match.state
        assert state.is_terminal() and sum(state.returns()) in (0, 1)
        if state.winner is None:
            assert state.returns() == [0.0] * len(seats) and state.turns == ROUNDS_LIMIT * len(seats)
        else:
            assert record.winners == [state.winner] and check_journey(state.journeys[state.winner]).valid
        again = play_match("ten-days", seats, seed)   # deterministic under the seed
        assert again.match.actions == record.match.actions


def test_default_setup_stops_self_play_at_the_turn_limit():
    assert TenDaysState.default_setup(3) == {"players": ["Player 1", "Player 2", "Player 3"], "first_player": 0,
                                             "turn_limit": 3 * ROUNDS_LIMIT}


def test_every_card_from_the_deck_is_a_logged_chance_action():
    """The deal (ten cards each, then three to start the piles) and every draw are chance
    actions in the log: the deck has no order before a card is drawn."""
    match = Match("ten-days", ["random", "random", "random"], seed=4)
    match.play_out()
    log = match.log
    chance = [e for e in log if e.seat == CHANCE]
    draws = sum(e.action == "draw" for e in log)
    assert len(chance) == 10 * 3 + 3 + draws
    assert all(e.action.startswith("card:") for e in chance)
    assert log[0].seat == CHANCE and log[1].action.startswith("day:")
    assert all(log[i + 1].seat == CHANCE for i, e in enumerate(log) if e.action == "draw")


def test_moves_read_as_plain_english_with_the_players_names():
    state = TenDaysState.new({"players": ["Ada", "Ben"], "first_player": 1})
    assert state.action_to_string("card:CA") == "Ben was dealt California"
    state.apply_action("card:CA")
    assert state.action_to_string("day:7") == "Ben put California on day 7"
    match = Match("ten-days", ["random", "random"], seed=2, setup={"players": ["Ada", "Ben"]})
    while match.state.phase == DEAL or match.state.current_player() == CHANCE:
        match.step()
    pile = match.state.piles[1][-1]
    entry = match.apply("take:2")
    assert entry.text.startswith("Ada took ") and entry.text.endswith(" from the top of pile 2")
    assert match.state.held == pile


def test_save_and_load_round_trip_through_the_match():
    match = Match("ten-days", ["ai:medium", "random", "ai:easy"], seed=9)
    for stop in (1, 31, 95, 160):
        while len(match.log) < stop:
            match.step()
        loaded = Match.from_json(json.loads(json.dumps(match.to_json())), "test")
        assert observations(loaded.state) == observations(match.state)
        assert loaded.state.deck == match.state.deck and loaded.state.held == match.state.held


@pytest.mark.parametrize("name", V1_SAVES)
def test_version_1_saves_convert_and_load(name):
    """Saves written before the engine protocol open on the same game: the same days,
    piles, card in hand, deck size, turn and winner."""
    body = json.loads((SAVES / name).read_text())["state"]
    data = legacy_save(body)
    assert set(data) >= {"game", "rules_version", "setup", "seed", "seats", "actions"}
    assert data["setup"]["players"] == [s["name"] for s in body["seats"]]
    assert data["seats"] == [s["kind"] for s in body["seats"]] and data["hint"] == body["hint"]
    for match in (Match.from_json(data, name), load_match(SAVES / name, "ten-days")):
        s = match.state
        got = {"phase": s.phase, "current": s.current, "held": s.held, "journeys": s.journeys, "piles": s.piles,
               "deck": s.deck_size(), "turns": s.turns, "reshuffles": s.reshuffles, "winner": s.winner}
        assert got == EXPECTED[name]


def test_a_converted_save_plays_on():
    data = legacy_save(json.loads((SAVES / "ten-days-midgame.json").read_text())["state"])
    data["seats"] = ["ai:medium", "ai:hard", "random"]
    data["setup"]["turn_limit"] = 300
    match = Match.from_json(data, "test")
    match.play_out()
    assert match.state.is_terminal() and match.state.turns > EXPECTED["ten-days-midgame.json"]["turns"]


GOOD_V1 = {"seats": [{"name": "A", "kind": "human"}, {"name": "B", "kind": "ai:medium"}],
           "engine": {"version": 1, "players": 2, "seed": 1, "first_player": 0, "actions": []}}


@pytest.mark.parametrize("bad,message", [
    ("not a dict", "not a mapping"),
    ({"seats": "x"}, "'seats' must list"),
    ({**GOOD_V1, "engine": None}, "'engine' is missing"),
    ({"seats": GOOD_V1["seats"]}, "'engine' is missing"),
    ({**GOOD_V1, "engine": {**GOOD_V1["engine"], "version": 9}}, "version 9 is not supported"),
    ({**GOOD_V1, "engine": {"version": 1, "seed": 1, "first_player": 0, "actions": []}}, "no 'players'"),
    ({**GOOD_V1, "engine": {**GOOD_V1["engine"], "seed": "x"}}, "must be whole numbers"),
    ({**GOOD_V1, "engine": {**GOOD_V1["engine"], "turn_limit": True}}, "must be whole numbers"),
    ({**GOOD_V1, "engine": {**GOOD_V1["engine"], "players": 3}}, "2 seats for a game of 3 players"),
    ({**GOOD_V1, "engine": {**GOOD_V1["engine"], "actions": "draw"}}, "no list of actions"),
    ({**GOOD_V1, "engine": {**GOOD_V1["engine"], "actions": ["draw"]}}, "action 1 does not replay"),
    ({**GOOD_V1, "engine": {**GOOD_V1["engine"], "actions": ["day:1", "day:1"]}}, "action 2 does not replay"),
])
def test_a_bad_version_1_save_is_refused_clearly(bad, message):
    with pytest.raises(SaveError, match=message):
        legacy_save(bad)


def positions(seed: int, count: int = 12):
    """Positions of a seeded match where a seat is to act."""
    match = Match("ten-days", ["ai:medium", "ai:easy", "random"], seed=seed)
    rng = random.Random(seed)
    while not match.is_over() and count:
        if match.to_move() != CHANCE and rng.random() < 0.2:
            count -= 1
            yield match.state.clone()
        match.step()


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_computer_players_see_only_their_own_cards(level):
    """Players keep their journeys hidden, and the deck is face down: dealing the other
    journeys, the other's held card and the deck again from the same unseen cards changes
    neither the seat's observation nor its computer player's choice."""
    checked = 0
    for seed in range(4):
        for state in positions(seed):
            seat = state.current_player()
            others = [s for s in range(state.num_players) if s != seat]
            changed = state.with_hidden_changed(seat, random.Random(seed))
            changed.check_invariants()
            assert changed.observation(seat) == state.observation(seat)
            if any(changed.journeys[s] != state.journeys[s] for s in others):
                checked += 1
            choices = []
            for s in (state, changed):
                player = make_player(level, seat, random.Random(f"{seed}:{seat}"))
                choices.append(player.choose(s.observation(seat), s.legal_actions(seat)))
            assert choices[0] == choices[1]
    assert checked > 20


def test_an_observation_holds_no_other_journey_and_no_deck_order():
    match = Match("ten-days", ["random", "random"], seed=6)
    while match.state.phase != DRAW or match.to_move() == CHANCE:
        match.step()
    obs = match.state.observation(0)
    assert obs["journey"] == match.state.journeys[0] and obs["held"] is None
    assert obs["deck"] == match.state.deck_size() and obs["dealt"] == [10, 10]
    assert set(obs) == {"seat", "players", "phase", "current", "chance", "journey", "held", "piles", "deck",
                        "dealt", "empty_days", "replaced", "reshuffles", "turns", "turn_limit", "winner",
                        "winning_journey"}
