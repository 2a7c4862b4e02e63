"""Property-based fuzzing of every game's setup and of the actions (intents) it reads
(issue 27), with Hypothesis, in the manner of tests/test_save_fuzz.py.

Setups: each game's default setups (every player count, every variant or map, and for
Carcassonne a printed table with several start tiles and face-down tiles) are mutated
(a value replaced by one of any JSON type or an extreme number, keys dropped or added, lists cut,
grown or shuffled, numbers pushed to their limits) and given to Match(...). It may only
refuse with a ValueError that says what is wrong, or start a game that is consistent: its
invariants hold, every number a seat sees fits 64 bits and is finite (what crosses to
Qt and the network), and for a few steps the first listed action is accepted (a listed
action refused is the freeze of issue 27) and survives action_to_json/action_from_json.

Intents: actions logged in real games, mutated the same way, go through
action_from_json at the position where they were logged: it returns an action or raises
ValueError (never OverflowError, TypeError, KeyError, RecursionError...), and an action
it returns is either refused by apply_action with IllegalActionError or is listed.

The normal suite runs FUZZ_EXAMPLES (1,000) inputs of each kind per game, derandomised;
STATESIDE_FUZZ_EXAMPLES=10000 runs the long sweep whose figures are in benchmarks/FUZZ.md.
"""
from __future__ import annotations

import json
import math
import os
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_save_fuzz import mutate, odd_value

from stateside.engine.match import Match, rules_for
from stateside.engine.protocol import CHANCE, SIMULTANEOUS, State
from stateside.errors import IllegalActionError
from stateside.games import discover_games

GAMES = [g.id for g in discover_games() if g.rules]
FUZZ_EXAMPLES = int(os.environ.get("STATESIDE_FUZZ_EXAMPLES", "500"))   # the long sweep: benchmarks/FUZZ.md
STEPS = 6            # first listed actions applied after an accepted setup
LOGGED_ACTIONS = 60  # actions logged per real game for the intent fuzz

# Numbers that have broken screens or the network: a float beyond a double (1e309 reads
# as inf), a Qt timer's 32 bits, 64 bits and past them.
EXTREME = [float("inf"), float("-inf"), float("nan"), 1e309, 2**31, 2**31 - 1, 2**63, 2**63 - 1,
           2**70, -2**70, 10**400, 1e-300, 1.5, True]

# A printed Carcassonne table: its squares, start tiles and face-down tiles are setup data.
PRINTED_CARCASSONNE = {
    "players": ["Ann", "Bob"], "followers": 7, "sets": ["base"], "inns_cathedrals": False, "goods": False,
    "start": [["B-D", 0, 0, 0], ["B-D", 3, 0, 0]],
    "squares": [[x, y] for x in range(-3, 5) for y in range(-2, 3)],
    "reserved": [["B-U", 1, 0], ["B-K", 0, 1], ["B-E", 0, -1]],
}


def base_setups(game_id: str) -> list[dict]:
    cls = rules_for(game_id)
    out = []
    for n in range(cls.spec.min_players, cls.spec.max_players + 1):
        out.append(cls.default_setup(n))
        for variant in cls.spec.variants[1:]:
            out.append({**cls.default_setup(n), "variant": variant})
    if game_id == "carcassonne":
        out.append(PRINTED_CARCASSONNE)
    return out


def extreme_mutate(doc, rng: random.Random):
    """mutate() from the save fuzz, and now and then one number (or any value) made extreme
    or a key added to an object (an option the game does not know)."""
    doc = mutate(doc, rng)
    if rng.random() < 0.1:
        objects = [p for p in _places(doc) if p and isinstance(_at(doc, p), dict)]
        if objects:
            _at(doc, rng.choice(objects))[rng.choice(["x", "seed", "deck", "round_ms"])] = rng.choice(EXTREME)
    if rng.random() < 0.5:
        places = [p for p in _places(doc) if p]
        if places:
            path = rng.choice(places)
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = rng.choice(EXTREME) if rng.random() < 0.7 else odd_value(rng)
    return doc


def _at(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def _places(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _places(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _places(v, prefix + (i,))


def numbers_fit(data, where="") -> None:
    """Every number in a JSON-able value is finite and fits a signed 64-bit integer."""
    if isinstance(data, dict):
        for k, v in data.items():
            numbers_fit(v, f"{where}.{k}")
    elif isinstance(data, (list, tuple)):
        for i, v in enumerate(data):
            numbers_fit(v, f"{where}[{i}]")
    elif isinstance(data, float):
        assert math.isfinite(data), f"{where}: {data!r}"
    elif isinstance(data, int) and not isinstance(data, bool):
        assert -2**63 <= data < 2**63, f"{where}: {data!r}"


def first_action(state: State):
    """The first listed action here (letting time pass when a real-time game waits)."""
    p = state.current_player()
    legal = state.legal_actions(None if p in (CHANCE, SIMULTANEOUS) else p)
    if legal:
        return legal[0]
    if state.spec.real_time:
        deadline = state.next_deadline()
        return state.advance_action(deadline if deadline is not None else state.now() + 1)
    return None


def is_time_passing(state: State, action) -> bool:
    """A real-time game's advance of its clock: never listed, the match layer's to make."""
    t = getattr(action, "t", None)
    return state.spec.real_time and type(t) is int and action == state.advance_action(t)


def check_started(match: Match) -> None:
    """A game that was accepted is consistent, and what it lists it accepts."""
    state = match.state
    state.check_invariants()
    numbers_fit(match.to_json()["setup"], "setup")
    for _ in range(STEPS):
        if state.is_terminal():
            break
        for seat in range(state.num_players):
            numbers_fit(state.observation(seat), f"observation({seat})")
        action = first_action(state)
        assert action is not None, "a game that is not over lists no action"
        assert state.action_from_json(json.loads(json.dumps(state.action_to_json(action)))) == action
        try:
            match.apply(action)
        except IllegalActionError as e:
            raise AssertionError(f"listed action {action!r} refused: {e}") from None
        state = match.state
        state.check_invariants()


def clean_refusal(e: ValueError) -> None:
    text = str(e)
    assert text and "Traceback" not in text and len(text) <= 400, text


def report(game_id: str, what: str, counts: dict, started: float) -> None:
    print(f"{game_id} {what}: {counts['refused']} refused cleanly, {counts['accepted']} accepted and "
          f"consistent, 0 unhandled, 0 inconsistent, {time.perf_counter() - started:.1f} s")


@pytest.mark.parametrize("game_id", GAMES)
def test_mutated_setups_start_a_consistent_game_or_are_refused(game_id):
    cls = rules_for(game_id)
    bases = base_setups(game_id)
    counts = {"refused": 0, "accepted": 0}
    started = time.perf_counter()

    @settings(max_examples=FUZZ_EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.integers(0, len(bases) - 1), st.integers(0, 2**32 - 1))
    def one(base, seed):
        rng = random.Random(seed)
        setup = extreme_mutate({"setup": bases[base]}, rng).get("setup")
        n = len(setup["players"]) if isinstance(setup, dict) and isinstance(setup.get("players"), list) else 2
        seats = ["random"] * min(max(n, cls.spec.min_players), cls.spec.max_players)
        try:
            match = Match(game_id, seats, seed, setup)
        except ValueError as e:
            clean_refusal(e)
            counts["refused"] += 1
            return
        check_started(match)
        counts["accepted"] += 1

    one()
    report(game_id, "setups", counts, started)
    assert counts["refused"] > 0 and counts["accepted"] > 0


def logged_positions(game_id: str) -> list[tuple[Match, int, object]]:
    """(match, n, json of action n) for actions logged in real games of every base setup."""
    out = []
    for i, setup in enumerate(base_setups(game_id)):
        cls = rules_for(game_id)
        match = Match(game_id, ["random"] * len(setup["players"]), i, setup)
        for _ in range(LOGGED_ACTIONS):
            if match.step() is None:
                break
        for n, entry in enumerate(match.log):
            out.append((match, n, match.state.action_to_json(entry.action)))
        assert cls.spec.id == game_id
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_mutated_intents_are_read_or_refused_with_a_value_error(game_id):
    positions = logged_positions(game_id)
    states: dict[tuple[int, int], State] = {}
    counts = {"refused": 0, "accepted": 0}
    started = time.perf_counter()

    def state_at(k: int) -> State:
        match, n, _ = positions[k]
        if (id(match), n) not in states:
            states[(id(match), n)] = match.state_after(n)
        return states[(id(match), n)]

    @settings(max_examples=FUZZ_EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.integers(0, len(positions) - 1), st.integers(0, 2**32 - 1))
    def one(k, seed):
        data = extreme_mutate({"action": positions[k][2]}, random.Random(seed)).get("action")
        state = state_at(k)
        try:
            action = state.action_from_json(data)
        except ValueError as e:
            clean_refusal(e)
            counts["refused"] += 1
            return
        twin = state.clone()
        try:
            twin.apply_action(action)
        except IllegalActionError:
            counts["refused"] += 1
            return
        assert action in state.legal_actions(None) or is_time_passing(state, action), \
            f"{action!r:.200} accepted but not listed"
        twin.check_invariants()
        counts["accepted"] += 1

    one()
    report(game_id, "intents", counts, started)
    assert counts["refused"] > 0 and counts["accepted"] > 0
