"""Every registered game against the engine protocol (in the style of OpenSpiel's
random_sim_test). A new game gets all of these checks by registering its rules.

For many seeds a game is played with random legal actions to its end, checking:
- chance: the listed outcomes are the legal actions, with probabilities summing to 1;
- exactness at sampled positions: every candidate action (a superset of the legal ones
  given by the game) is tried on a clone; what is accepted is exactly what is listed,
  and a refused action leaves the state as it was;
- check_invariants after every action; actions survive JSON and have plain-English text;
- save and load through the match layer at random points reproduce the same state;
- a clone evolves independently of its original;
- observations are JSON, and for games with hidden information a change of what a seat
  may not know changes neither its observation nor its computer player's choice;
- returns are 1/k for k winners at the end;
- who may see each action is declared by the rules (State.audience) and agrees with the
  observations: a seat outside the audience cannot tell the action from an alternative,
  a seat inside it can (the search in audience_oracle.py, which the product never runs),
  and the words a seat reads (State.describe) tell it nothing it may not know.

STATESIDE_CONFORMANCE_SEEDS=200 runs a longer sweep (the figures in benchmarks/).
"""
from __future__ import annotations

import json
import os
import random

import pytest

from stateside.engine.match import Match, make_player, rules_for, sample_chance
from stateside.engine.protocol import CHANCE, SIMULTANEOUS, SPECTATOR, TERMINAL, State, sees
from stateside.errors import IllegalActionError
from stateside.games import discover_games
from audience_oracle import MAX_ALTERNATIVES, _applied, _obs_key, hidden_from

GAMES = [g.id for g in discover_games() if g.rules]
# Each (game, variant) is played: a game with several ways to play is checked in each.
VARIANTS = [(g, v) for g in GAMES for v in (rules_for(g).spec.variants or (None,))]


def setup_for(cls, players: int, variant: str | None) -> dict:
    setup = cls.default_setup(players)
    return setup if variant is None else {**setup, "variant": variant}
SEEDS = int(os.environ.get("STATESIDE_CONFORMANCE_SEEDS", "6"))
EXACT_CHECKS = 4            # positions per game where every candidate is tried
# Positions per game where the declared audience meets the oracle (a search of up to 24
# alternatives each); the long sweep raises it with STATESIDE_AUDIENCE_CHECKS.
AUDIENCE_CHECKS = int(os.environ.get("STATESIDE_AUDIENCE_CHECKS", "6"))
WORLD_CHECKS = 1            # positions per game where consistent_with's worlds are checked
MAX_CANDIDATES = 400        # candidates tried per position (all listed ones, then a sample)
MAX_ACTIONS = 5000


def fingerprint(state: State) -> str:
    """Everything observable about a state: whose turn, every seat's view and actions."""
    n = state.num_players
    return json.dumps({
        "current": state.current_player(),
        "obs": [state.observation(s) for s in range(n)],
        "legal": [sorted(json.dumps(state.action_to_json(a), sort_keys=True) for a in state.legal_actions(s))
                  for s in range(n)],
        "chance": sorted(json.dumps(state.action_to_json(a), sort_keys=True) for a, _ in state.chance_outcomes()),
        "terminal": state.is_terminal(),
        "returns": state.returns(),
        "scores": state.scores(),
        "now": state.now(),
    }, sort_keys=True)


def acting_seats(state: State) -> list[int]:
    p = state.current_player()
    if p == SIMULTANEOUS:
        return [s for s in range(state.num_players) if state.legal_actions(s)]
    return [p] if p >= 0 else []


def random_action(state: State, rng: random.Random):
    """A random next action: a chance outcome, a seat's legal action, or (real time)
    letting the clock run to the next deadline."""
    p = state.current_player()
    if p == CHANCE:
        return sample_chance(state, rng)
    options = [a for s in acting_seats(state) for a in state.legal_actions(s)]
    deadline = state.next_deadline()
    if state.spec.real_time and deadline is not None and (not options or rng.random() < 0.3):
        return state.advance_action(deadline)
    assert options, f"{state.spec.id}: nobody can act and no deadline is set (current {p})"
    return rng.choice(options)


def check_exact(state: State, seat: int | None, rng: random.Random) -> tuple[int, int]:
    """Try candidates on clones: accepted == listed. Returns (listed, accepted) counts."""
    legal = state.legal_actions(seat)
    listed = {json.dumps(state.action_to_json(a), sort_keys=True): a for a in legal}
    assert len(listed) == len(legal), f"{state.spec.id}: an action is listed twice"
    candidates = list(state.candidate_actions(seat))
    keys = {json.dumps(state.action_to_json(a), sort_keys=True) for a in candidates}
    missing = set(listed) - keys
    assert not missing, f"{state.spec.id}: legal actions missing from candidate_actions: {sorted(missing)[:3]}"
    illegal = [a for a in candidates if json.dumps(state.action_to_json(a), sort_keys=True) not in listed]
    rng.shuffle(illegal)
    tried = list(legal) + illegal[:max(0, MAX_CANDIDATES - len(legal))]
    before = fingerprint(state)
    accepted = 0
    for action in tried:
        key = json.dumps(state.action_to_json(action), sort_keys=True)
        trial = state.clone()
        try:
            trial.apply_action(action)
        except IllegalActionError:
            assert key not in listed, f"{state.spec.id}: listed action {key} was refused"
            assert fingerprint(trial) == before, f"{state.spec.id}: refusing {key} changed the state"
            continue
        accepted += 1
        assert key in listed, f"{state.spec.id}: unlisted action {key} was accepted"
    assert fingerprint(state) == before, f"{state.spec.id}: trying actions on clones changed the original"
    return len(listed), accepted


def check_hidden(state: State, rng: random.Random) -> None:
    """What a seat may not know must not reach its observation or its computer's choice."""
    for viewer in range(state.num_players):
        changed = state.with_hidden_changed(viewer, random.Random(rng.random()))
        if changed is None:
            continue
        assert changed.observation(viewer) == state.observation(viewer), \
            f"{state.spec.id}: seat {viewer}'s observation shows what it may not know"
        if state.current_player() == viewer and state.legal_actions(viewer):
            for level in state.spec.ai_levels:
                choices = []
                for s in (state, changed):
                    player = make_player(state.spec.id, f"ai:{level}", viewer)
                    player.rng.seed(f"conformance:{viewer}")
                    choices.append(json.dumps(s.action_to_json(
                        player.choose(s.observation(viewer), s.legal_actions(viewer))), sort_keys=True))
                assert choices[0] == choices[1], \
                    f"{state.spec.id}: ai:{level} chose differently when only hidden things changed"


def check_audience(state: State, action, rng: random.Random) -> None:
    """The declared audience against the oracle, and the words each seat reads."""
    actor = state.actor(action)
    audience = state.audience(action)
    n = state.num_players
    declared = {v for v in range(n) if v != actor and not sees(audience, v)}
    found = hidden_from(state, action, actor)
    key = json.dumps(state.action_to_json(action))
    assert declared == found, (f"{state.spec.id}: {key} is declared hidden from {sorted(declared)}, "
                               f"but the observations hide it from {sorted(found)}")
    if not state.spec.hidden_information:
        return   # nothing is hidden: every seat reads every action's words
    # Words: a seat reads the same about this action and any other it cannot tell from it.
    after = _applied(state, action)
    seen_after = [_obs_key(after, s) for s in range(n)]
    alternatives = [a for a, _ in state.chance_outcomes()] if actor == CHANCE else state.legal_actions(actor)
    alternatives = [b for b in alternatives if b != action]
    rng.shuffle(alternatives)
    seen = {}   # each alternative's observations, made once for every viewer
    for b in alternatives[:MAX_ALTERNATIVES]:
        other = _applied(state, b)
        seen[b] = [_obs_key(other, s) for s in range(n)]
    for v in [*range(n), SPECTATOR]:
        if v == actor:
            continue
        words = state.describe(action, v)
        for b, keys in seen.items():
            if v != SPECTATOR and keys[v] != seen_after[v]:
                continue
            if v == SPECTATOR and any(keys[s] != seen_after[s] for s in range(n) if s != actor and s not in declared):
                continue
            assert state.describe(b, v) == words, (
                f"{state.spec.id}: seat {v} reads {words!r} for {key} but "
                f"{state.describe(b, v)!r} for {json.dumps(state.action_to_json(b))}, which it cannot tell apart")
        if v == SPECTATOR:
            continue
        world = state.with_hidden_changed(v, random.Random(rng.random()))   # what v cannot know, changed
        # ...unless the action itself shows v the difference: "Ann discarded Virginia onto pile 2"
        # (10 Days) names a card v could not see in Ann's hand, but it lies face up once
        # discarded, and in a world where Ann held Texas v would see Texas there instead.
        if world is not None and action in world.legal_actions(actor if actor != CHANCE else None) \
                and _obs_key(_applied(world, action), v) == seen_after[v]:
            assert world.describe(action, v) == words, (
                f"{state.spec.id}: seat {v} reads {words!r} for {key}, and {world.describe(action, v)!r} "
                "when only what it may not know differs")


def check_consistent_world(state: State, rng: random.Random, differed: set | None) -> None:
    """consistent_with(v, observation(v)) is a world v cannot tell from this one; `differed`
    collects the seats for which two worlds dealt what v cannot know differently."""
    cls = type(state)
    for v in range(state.num_players):
        obs = state.observation(v)
        worlds = [cls.consistent_with(state.setup, v, json.loads(json.dumps(obs)), random.Random(rng.random()))
                  for _ in range(2)]
        if worlds[0] is None:
            assert not state.spec.hidden_information, f"{state.spec.id}: hidden information but no consistent_with"
            return
        for w in worlds:
            w.check_invariants()
            assert w.observation(v) == obs, f"{state.spec.id}: seat {v} can tell consistent_with's world from the game"
            assert w.current_player() == state.current_player()
            assert sorted(json.dumps(w.action_to_json(a), sort_keys=True) for a in w.legal_actions(v)) == \
                sorted(json.dumps(state.action_to_json(a), sort_keys=True) for a in state.legal_actions(v)), \
                f"{state.spec.id}: seat {v}'s legal actions differ in consistent_with's world"
        if differed is not None and _worlds_part(worlds[0], worlds[1], random.Random(v)):   # its own rng: the game's random play stays as it was
            differed.add(v)


FUTURE_ACTIONS = 150


def _worlds_part(a: State, b: State, rng: random.Random) -> bool:
    """Whether two worlds differ in something a seat sees now or later: what is dealt may
    be hidden from every seat until it comes out (America's answers show only when a card
    is scored), so both worlds (used for nothing else) play on with the same random
    choices until they part or end."""
    def seen(w):
        return json.dumps([w.observation(s) for s in range(w.num_players)], sort_keys=True)
    for _ in range(FUTURE_ACTIONS):
        if seen(a) != seen(b):
            return True
        if a.is_terminal():
            return False
        action = random_action(a, rng)
        a.apply_action(action)
        try:
            b.apply_action(action)
        except IllegalActionError:
            return True
    return False


def play_random(game_id: str, seed: int, players: int, variant: str | None = None, worlds_only: bool = False) -> dict:
    cls = rules_for(game_id)
    rng = random.Random(f"conformance:{game_id}:{variant}:{seed}")
    setup = setup_for(cls, players, variant)
    state = cls.new(setup)
    state.check_invariants()
    actions = []
    exact_at = set(rng.sample(range(60), EXACT_CHECKS))
    audience_at = set() if worlds_only else set(rng.sample(range(300), AUDIENCE_CHECKS))
    worlds_at = set(rng.sample(sorted(exact_at), WORLD_CHECKS))
    save_at = rng.randrange(1, 60)
    counts = {"listed": 0, "accepted": 0, "actions": 0, "worlds_differed": set()}
    while not state.is_terminal():
        assert len(actions) < MAX_ACTIONS, f"{game_id}: no end after {MAX_ACTIONS} random actions"
        p = state.current_player()
        assert p != TERMINAL
        if p == CHANCE:
            outcomes = state.chance_outcomes()
            assert abs(sum(w for _, w in outcomes) - 1) < 1e-9, f"{game_id}: chance probabilities do not sum to 1"
            assert [json.dumps(state.action_to_json(a)) for a, _ in outcomes] == \
                [json.dumps(state.action_to_json(a)) for a in state.legal_actions()]
        if len(actions) in exact_at and not worlds_only:
            for seat in (acting_seats(state) if p != CHANCE else [None]):
                listed, accepted = check_exact(state, seat, rng)
                counts["listed"] += listed
                counts["accepted"] += accepted
            check_hidden(state, rng)
        if len(actions) in worlds_at:
            check_consistent_world(state, rng, None)
        elif worlds_only and len(actions) % 7 == 3 and not counts["worlds_differed"]:
            check_consistent_world(state, rng, counts["worlds_differed"])
        if len(actions) == save_at:
            check_clone(state, rng)
        action = random_action(state, rng)
        if len(actions) in audience_at:
            check_audience(state, action, rng)
        data = json.loads(json.dumps(state.action_to_json(action)))
        assert state.action_from_json(data) == action, f"{game_id}: {data} does not survive JSON"
        text = state.action_to_string(action)
        assert isinstance(text, str) and text.strip(), f"{game_id}: no plain-English text for {data}"
        state.apply_action(action)
        state.check_invariants()
        json.dumps([state.observation(s) for s in range(state.num_players)])
        actions.append(action)
    returns = state.returns()
    assert len(returns) == players and all(r >= 0 for r in returns)
    winners = [r for r in returns if r > 0]
    assert not winners or (abs(sum(returns) - 1) < 1e-9 and len(set(winners)) == 1), \
        f"{game_id}: returns {returns} are not 1/k for k winners"
    assert state.legal_actions() == [] and all(state.legal_actions(s) == [] for s in range(players))
    counts["actions"] = len(actions)
    return {"setup": setup, "actions": actions, "state": state, "counts": counts}


def check_clone(state: State, rng: random.Random) -> None:
    before = fingerprint(state)
    twin = state.clone()
    assert fingerprint(twin) == before
    if not twin.is_terminal():
        twin.apply_action(random_action(twin, rng))
        assert fingerprint(state) == before, f"{state.spec.id}: a move on a clone changed the original"


# Carcassonne's West and East maps are the both-maps game's rules on half its board (the
# "usa" variant lays both grids): three seeds each (both player counts) beside its six; a
# sweep that sets STATESIDE_CONFORMANCE_SEEDS plays every variant that many.
HALF_MAPS = () if "STATESIDE_CONFORMANCE_SEEDS" in os.environ else (("carcassonne", "usa-west"),
                                                                     ("carcassonne", "usa-east"))
# The both-maps board (252 squares) is the slowest game to play at random: three seeds (both
# player counts) in every run, like the halves; the sweep plays it as often as the rest.
BIG_MAPS = () if "STATESIDE_CONFORMANCE_SEEDS" in os.environ else (("carcassonne", "usa"),)
RANDOM_PLAY = [(g, v, seed) for g, v in VARIANTS
               for seed in range(min(SEEDS, 3) if (g, v) in HALF_MAPS + BIG_MAPS else SEEDS)]


@pytest.mark.parametrize("game_id, variant, seed", RANDOM_PLAY)
def test_random_play_follows_the_protocol(game_id, variant, seed):
    cls = rules_for(game_id)
    spec = cls.spec
    players = spec.min_players if seed % 2 == 0 else spec.max_players
    result = play_random(game_id, seed, players, variant)
    assert result["counts"]["listed"] == result["counts"]["accepted"]


@pytest.mark.parametrize("game_id, variant", VARIANTS)
def test_consistent_worlds_deal_what_a_seat_cannot_know_at_random(game_id, variant):
    """consistent_with deals the hidden parts with its rng: somewhere in a few games, two
    worlds for the same seat differ (in what another seat sees), for every game that hides
    anything in that way to play."""
    cls = rules_for(game_id)
    if not cls.spec.hidden_information or variant in cls.spec.public_variants:
        pytest.skip("no hidden information")
    differed = set()
    for seed in range(2):
        differed |= play_random(game_id, 100 + seed, cls.spec.min_players, variant,
                                worlds_only=True)["counts"]["worlds_differed"]
        if differed:
            break
    assert differed, f"{game_id}: consistent_with never dealt anything differently"


@pytest.mark.parametrize("game_id, variant", VARIANTS)
def test_save_and_load_replays_the_same_game(game_id, variant):
    """A match saved at several points and loaded again is the same game, and a loaded
    match goes on exactly as the original (the seeding rule)."""
    cls = rules_for(game_id)
    seats = ["random"] * cls.spec.min_players
    original = Match(game_id, seats, seed=7, setup=setup_for(cls, len(seats), variant))
    for stop in (0, 3, 17, 40):
        while len(original.log) < stop and not original.is_over():
            original.step()
        data = json.loads(json.dumps(original.to_json()))
        loaded = Match.from_json(data, "test save")
        assert fingerprint(loaded.state) == fingerprint(original.state)
        assert [e.text for e in loaded.log] == [e.text for e in original.log]
    # both go on the same way
    twin = Match.from_json(json.loads(json.dumps(original.to_json())), "test save")
    for _ in range(10):
        a, b = original.step(), twin.step()
        if a is None or b is None:
            assert a is b is None
            break
        assert json.dumps(original.state.action_to_json(a.action)) == json.dumps(twin.state.action_to_json(b.action))


@pytest.mark.parametrize("game_id", GAMES)
def test_undo_by_replay(game_id):
    cls = rules_for(game_id)
    match = Match(game_id, ["random"] * cls.spec.min_players, seed=3)
    marks = []
    for _ in range(30):
        marks.append(fingerprint(match.state))
        if match.step() is None:
            break
    for n in (len(marks) - 1, 5, 0):
        match.undo_to(n)
        assert fingerprint(match.state) == marks[n]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_save_names_the_action_that_fails(game_id):
    cls = rules_for(game_id)
    match = Match(game_id, ["random"] * cls.spec.min_players, seed=5)
    for _ in range(12):
        match.step()
    data = match.to_json()
    data["actions"].insert(4, {"not": "an action"})
    from stateside.errors import SaveError
    with pytest.raises(SaveError, match=r"action 5 of 13"):
        Match.from_json(data, "broken.json")


def test_every_game_registers_rules_and_players():
    """Every game but the map explorer plugs into the protocol."""
    assert set(GAMES) >= {"america", "carcassonne", "scrambled-states", "ten-days"}
    for game_id in GAMES:
        cls = rules_for(game_id)
        assert cls.spec.id == game_id
        for level in cls.spec.ai_levels:
            assert make_player(game_id, f"ai:{level}", 0) is not None
