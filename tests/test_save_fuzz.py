"""Property-based fuzzing of the one save loader (issue 16), with Hypothesis.

Real saves of every game are mutated (a value replaced by another of any JSON type, a
key dropped or added, a list cut or grown, numbers pushed to their limits) and written
to a file; loading must end in one of two ways only: a clean SaveError that names the
file, or a game that is consistent (its invariants hold, and saving it again gives a
save that loads to the same game). Never another exception, never a hang.

The normal suite runs FUZZ_EXAMPLES (2,000) per game, derandomised so every run is the
same; STATESIDE_FUZZ_EXAMPLES=10000 runs the long sweep whose figures are in
benchmarks/FUZZ.md.
"""
from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stateside.engine.match import Match, rules_for
from stateside.engine.saves import read_save, save_game
from stateside.errors import SaveError
from stateside.games import discover_games

GAMES = [g.id for g in discover_games() if g.rules]
# 400 inputs per game in the default run (derandomised); the long sweep, with its figures in
# benchmarks/FUZZ.md, sets STATESIDE_FUZZ_EXAMPLES=10000.
FUZZ_EXAMPLES = int(os.environ.get("STATESIDE_FUZZ_EXAMPLES", "400"))
SAVE_ACTIONS = 25   # short real saves keep a replay cheap; mutations reach every field anyway

ODD_VALUES = [None, True, False, 0, -1, 1, 2**31, -2**63, 2**64, 10**30, 0.5, -0.0,
              1e308, "", "x", "human", "ai:hard", "ai:", "random", "<b>bold</b>", "\u202e", "A" * 5000,
              [], {}, [[]], {"a": 1}, [1, 2, 3], ["human"] * 9]


def real_save(game_id: str, seed: int) -> dict:
    cls = rules_for(game_id)
    match = Match(game_id, ["random"] * cls.spec.min_players, seed)
    for _ in range(SAVE_ACTIONS):
        if match.step() is None:
            break
    match.seats = ["human"] + ["ai:" + cls.spec.ai_levels[0]] * (cls.spec.min_players - 1)
    return {"format": "stateside-save", "version": 2, **match.to_json()}


def paths_of(data, prefix=()):
    """Every place in a JSON document: (path to it, value)."""
    yield prefix, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths_of(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from paths_of(v, prefix + (i,))


def odd_value(rng: random.Random):
    """One of ODD_VALUES, as a copy: a list put in a document must not be shared with the
    next mutation (it could end up inside itself)."""
    return json.loads(json.dumps(rng.choice(ODD_VALUES)))


def mutate(doc, rng: random.Random):
    doc = json.loads(json.dumps(doc))
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        places = list(paths_of(doc))
        path, value = rng.choice(places)
        if not path:
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        kind = rng.randrange(6)
        if kind == 0:
            parent[key] = odd_value(rng)
        elif kind == 1:
            if isinstance(parent, dict):
                del parent[key]
            else:
                parent.pop(key)
        elif kind == 2 and isinstance(value, int) and not isinstance(value, bool):
            parent[key] = rng.choice([value + 1, value - 1, -value, value * 1000, value + 2**40])
        elif kind == 3 and isinstance(value, str) and value:
            parent[key] = rng.choice([value[:-1], value + value[-1], value.upper(), value[::-1]])
        elif kind == 4 and isinstance(value, list) and value:
            i = rng.randrange(len(value))
            rng.choice([lambda: value.insert(i, value[i]), lambda: value.pop(i),
                        lambda: rng.shuffle(value)])()
        else:
            parent[key] = odd_value(rng) if rng.random() < 0.5 else value
    return doc


def check_load(path: Path, counts: dict) -> None:
    try:
        game, body = read_save(path)
        match = Match.from_json(body, str(path))
    except SaveError as e:
        text = str(e)
        assert str(path) in text and "Traceback" not in text and "Error:" not in text, text
        counts["refused"] += 1
        return
    match.state.check_invariants()
    again = json.loads(json.dumps(match.to_json()))
    twin = Match.from_json(again, "again")
    assert twin.state.observation(0) == match.state.observation(0)
    counts["accepted"] += 1


@pytest.mark.parametrize("game_id", GAMES)
def test_mutated_saves_load_cleanly_or_are_refused(game_id):
    bases = [real_save(game_id, seed) for seed in range(4)]
    counts = {"refused": 0, "accepted": 0}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{game_id}.stateside.json"

        @settings(max_examples=FUZZ_EXAMPLES, derandomize=True, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(st.integers(0, len(bases) - 1), st.integers(0, 2**32 - 1))
        def one(base, seed):
            doc = mutate(bases[base], random.Random(seed))
            path.write_text(json.dumps(doc))
            check_load(path, counts)

        one()
    print(f"{game_id}: {counts['refused']} refused, {counts['accepted']} accepted")
    assert counts["refused"] > 0 and counts["refused"] + counts["accepted"] >= min(FUZZ_EXAMPLES, 100)


@pytest.mark.parametrize("game_id", GAMES)
def test_arbitrary_json_is_refused_cleanly(game_id, tmp_path):
    """Documents that are not saves at all, of any shape Hypothesis makes."""
    path = tmp_path / "any.json"
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=20)
    counts = {"refused": 0, "accepted": 0}
    base = json.dumps(real_save(game_id, 0))   # replayed once, copied for each input

    @settings(max_examples=200, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(json_values, st.sampled_from(["format", "version", "game", "setup", "seed", "seats", "actions"]))
    def one(value, key):
        doc = json.loads(base)
        doc[key] = value
        path.write_text(json.dumps(doc))
        check_load(path, counts)

    one()
    assert counts["refused"] > 0


def test_a_good_save_still_loads(tmp_path):
    for game_id in GAMES:
        path = tmp_path / f"{game_id}.json"
        save_game(path, {k: v for k, v in real_save(game_id, 1).items() if k not in ("format", "version")})
        counts = {"refused": 0, "accepted": 0}
        check_load(path, counts)
        assert counts["accepted"] == 1, game_id
