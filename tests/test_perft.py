"""Perft-style fixed counts (after the chess programs' perft files): for each game and
way to play, three positions whose numbers of action sequences of length 1, 2 and 3 are
written here. A change to what the rules allow anywhere near these positions changes a
number.

A position is a seeded game played by random seats for some steps; its actions are kept
as data in tests/data/perft_positions.json (so the positions stay put when the computer
players or the random seats change). `python tests/test_perft.py` writes that file anew
and prints the counts (then check them as below before you copy them here).

The counts: at a chance node each outcome is one move; at a seat's turn its legal
actions; where seats act at once (Scrambled States), every seat's legal actions (game
time does not pass: the clock's advances are not moves). A finished game has none.

Checked against a count made another way: a brute-force enumerator that never calls
legal_actions or chance_outcomes, trying every candidate action (the game's superset of
what may be legal) on a copy and counting what the rules accept. The default run checks
depth 1 so; STATESIDE_PERFT_BRUTE=1 checks every written number (minutes: the figures
in benchmarks/PERFT.md). Game of the States checks an action against its own legal list,
so its depth-1 counts are also counted from its rules and parts.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from stateside.engine.match import Match, rules_for
from stateside.engine.protocol import CHANCE, SIMULTANEOUS, TERMINAL, State
from stateside.errors import IllegalActionError

DATA = Path(__file__).parent / "data" / "perft_positions.json"
BRUTE_ALL = os.environ.get("STATESIDE_PERFT_BRUTE") == "1"

# name: (game, seats, variant)
CONFIGS = {
    "america": ("america", 3, None),
    "gots-buy-and-sell": ("game-of-the-states", 2, "buy-and-sell"),
    "gots-trivia": ("game-of-the-states", 2, "trivia"),
    "gots-junior": ("game-of-the-states", 2, "junior"),
    "scrambled": ("scrambled-states", 2, None),
    "carcassonne-table": ("carcassonne", 2, None),
    "carcassonne-usa-west": ("carcassonne", 2, "usa-west"),
    "ten-days": ("ten-days", 2, None),
}
# (name, seed, steps): who is to move there is in the comment
PLACES = [
    ("america", 1, 1),                 # chance: the second topic drawn from the box
    ("america", 1, 2),                 # seat 0 chooses one of the two topics
    ("america", 2, 72),                # a seat places a marker (or passes)
    ("gots-buy-and-sell", 1, 12),      # chance
    ("gots-buy-and-sell", 1, 15),      # seat 0
    ("gots-buy-and-sell", 1, 34),      # seat 0
    ("gots-trivia", 1, 8),             # seat 1
    ("gots-trivia", 1, 26),            # seat 1
    ("gots-trivia", 2, 78),            # chance
    ("gots-junior", 1, 3),             # chance
    ("gots-junior", 1, 4),             # chance
    ("gots-junior", 1, 26),            # seat 1
    ("scrambled", 1, 19),              # both seats may act (a round under way)
    ("scrambled", 1, 71),              # both seats, late in the game
    ("scrambled", 2, 23),              # both seats, a later round
    ("carcassonne-table", 1, 0),       # chance: the first tile drawn
    ("carcassonne-table", 1, 1),       # seat 0 lays its first tile
    ("carcassonne-table", 1, 2),       # chance: the second tile
    ("carcassonne-usa-west", 1, 0),    # chance
    ("carcassonne-usa-west", 1, 1),    # seat 0
    ("carcassonne-usa-west", 2, 8),    # chance
    ("ten-days", 1, 0),                # chance: the deal
    ("ten-days", 1, 5),                # seat 0
    ("ten-days", 2, 78),               # seat 1
]
COUNTS = {
    ('america', 1, 1): [318, 636, 64236],
    ('america', 1, 2): [2, 202, 20200],
    ('america', 2, 72): [94, 2754, 5508],
    ('gots-buy-and-sell', 1, 12): [20, 150, 1860],
    ('gots-buy-and-sell', 1, 15): [3, 60, 120],
    ('gots-buy-and-sell', 1, 34): [2, 59, 1560],
    ('gots-trivia', 1, 8): [51, 2397, 14331],
    ('gots-trivia', 1, 26): [51, 2091, 12495],
    # 24 cards x 6 facts; then 24 x (51 nicknames + 4,502 populations 0.00-45.01 million in
    # hundredths + 51 capitals + 462 + 462 years 1500-1961 + 51 ranks) = 24 x 5,579
    ('gots-trivia', 2, 78): [24, 144, 133896],
    ('gots-junior', 1, 3): [20, 204, 4080],
    ('gots-junior', 1, 4): [47, 940, 4732],
    ('gots-junior', 1, 26): [3, 60, 288],
    ('scrambled', 1, 19): [17, 578, 3468],
    ('scrambled', 1, 71): [17, 39, 501],
    ('scrambled', 2, 23): [34, 578, 14230],
    ('carcassonne-table', 1, 0): [65, 1791, 115088],
    ('carcassonne-table', 1, 1): [36, 2304, 83848],
    ('carcassonne-table', 1, 2): [64, 2105, 133226],
    ('carcassonne-usa-west', 1, 0): [65, 672, 10480],
    ('carcassonne-usa-west', 1, 1): [8, 280, 2296],
    ('carcassonne-usa-west', 2, 8): [6, 30, 1950],
    ('ten-days', 1, 0): [56, 560, 30860],
    ('ten-days', 1, 5): [8, 424, 2968],
    ('ten-days', 2, 78): [4, 67, 429],
}


def setup_of(name: str) -> tuple[str, dict]:
    game, seats, variant = CONFIGS[name]
    setup = rules_for(game).default_setup(seats)
    return game, setup if variant is None else {**setup, "variant": variant}


def position(name: str, seed: int, steps: int) -> State:
    game, setup = setup_of(name)
    stored = json.loads(DATA.read_text(encoding="utf-8"))[f"{name}/{seed}/{steps}"]
    state = rules_for(game).new(setup)
    for raw in stored:
        state.apply_action(state.action_from_json(raw))
    return state


def moves(state: State) -> list:
    p = state.current_player()
    if p == TERMINAL or state.is_terminal():
        return []
    if p == CHANCE:
        return [a for a, _ in state.chance_outcomes()]
    if p == SIMULTANEOUS:
        return [a for seat in range(state.num_players) for a in state.legal_actions(seat)]
    return list(state.legal_actions(p))


def perft(state: State, depth: int) -> int:
    listed = moves(state)
    if depth == 1:
        return len(listed)
    total = 0
    for action in listed:
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def brute_moves(state: State) -> list[State]:
    """The positions after each action the rules accept here, found without the lists of
    legal actions: every candidate of every seat that may act (or of chance), once each,
    tried on a copy."""
    if state.is_terminal():
        return []
    p = state.current_player()
    seats = [None] if p == CHANCE else list(range(state.num_players)) if p == SIMULTANEOUS else [p]
    seen, after = set(), []
    for seat in seats:
        for action in state.candidate_actions(seat):
            key = json.dumps(state.action_to_json(action), sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            child = state.clone()
            try:
                child.apply_action(action)
            except IllegalActionError:
                continue
            after.append(child)
    return after


def brute_perft(state: State, depth: int) -> int:
    children = brute_moves(state)
    if depth == 1:
        return len(children)
    return sum(brute_perft(c, depth - 1) for c in children)


@pytest.mark.parametrize("place", PLACES, ids=[f"{n}-{s}-{k}" for n, s, k in PLACES])
def test_perft_counts(place):
    state = position(*place)
    assert [perft(state, d) for d in (1, 2, 3)] == COUNTS[place]


@pytest.mark.parametrize("place", PLACES, ids=[f"{n}-{s}-{k}" for n, s, k in PLACES])
def test_the_counts_agree_with_a_brute_force_count(place):
    state = position(*place)
    depths = (1, 2, 3) if BRUTE_ALL else (1,)
    assert [brute_perft(state, d) for d in depths] == COUNTS[place][:len(depths)]


def test_game_of_the_states_first_moves_counted_from_the_rules_and_its_parts():
    """Game of the States refuses an action by looking it up in its own list of legal
    ones, so there the brute force only shows the list is exact among the candidates;
    these depth-1 counts come from the rules and the parts instead."""
    from stateside.games.game_of_the_states import parts

    def at(*place):
        return position(*place).engine

    states = len(parts.state_codes())
    assert COUNTS[("gots-buy-and-sell", 1, 12)][0] == len(parts.sectors()) == 20   # a spin: the spinner's sectors
    assert COUNTS[("gots-junior", 1, 3)][0] == len(parts.sectors())
    sell = at("gots-buy-and-sell", 1, 15)   # the truck on a state: one of the products pictured there
    assert sell.phase == "product" and sell.disks[sell.disk]["state"] == "WV"
    assert COUNTS[("gots-buy-and-sell", 1, 15)][0] == len(parts.products("WV")) == 3
    assert at("gots-buy-and-sell", 1, 34).phase == "decide"   # take the price, or spin again
    assert COUNTS[("gots-buy-and-sell", 1, 34)][0] == len(("accept", "respin"))
    for place in (("gots-trivia", 1, 8), ("gots-trivia", 1, 26)):   # an answer: any state's, or "don't know"
        assert at(*place).phase == "answer" and COUNTS[place][0] == states + 1
    trivia = at("gots-trivia", 2, 78)   # a card from those not yet won
    assert COUNTS[("gots-trivia", 2, 78)][0] == states - sum(len(w) for w in trivia.won) == 24
    junior = at("gots-junior", 1, 4)   # a destination card: not the cards out (two homes, one destination)
    assert COUNTS[("gots-junior", 1, 4)][0] == states - len({*junior.home, *(d for d in junior.dest if d)}) == 47


def test_every_game_and_way_to_play_has_three_positions():
    from stateside.registry import discover_games

    ways = {(g.id, v) for g in discover_games() if g.rules
            for v in (rules_for(g.id).spec.variants or (None,))}
    covered = {(CONFIGS[n][0], CONFIGS[n][2]) for n, _, _ in PLACES}
    # Carcassonne's maps share one turn: the West map stands for the East and for both
    covered |= {("carcassonne", "table"), ("carcassonne", "usa-east"), ("carcassonne", "usa")}
    assert ways <= covered
    for name in CONFIGS:
        assert sum(1 for n, _, _ in PLACES if n == name) == 3, name


def write_positions() -> None:
    """Play each place's seeded game with random seats and keep its actions."""
    out = {}
    for name, seed, steps in PLACES:
        game, setup = setup_of(name)
        match = Match(game, ["random"] * CONFIGS[name][1], seed, setup)
        for _ in range(steps):
            if match.step() is None:
                break
        out[f"{name}/{seed}/{steps}"] = [match.state.action_to_json(e.action) for e in match.log]
    DATA.write_text(json.dumps(out, indent=None, separators=(",", ":")).replace('],"', '],\n"') + "\n",
                    encoding="utf-8")


if __name__ == "__main__":
    if "--keep" not in sys.argv:
        write_positions()
    for place in PLACES:
        print(f"    {place!r}: {[perft(position(*place), d) for d in (1, 2, 3)]},")
