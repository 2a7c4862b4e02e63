"""Computer players for America (pure Python, no Qt).

A trivia player's strength is what it knows, so a computer player is modelled by its
knowledge: for each question of a topic it forms a belief about where the answer lies,
drawn around the true answer with an error that depends on its level (hard players are
usually on the exact space or next to it, easy ones often several spaces off). The error
table is also the player's own model of how wrong it may be, so its belief is calibrated.

A player sees only its seat's observation and the legal actions (the protocol's Player).
Its "memory" is the deck itself, looked up by the topic ids the observation shows, as a
trivia player remembers facts; the error above keeps that memory imperfect. From that
belief it chooses the topic it knows better, places the marker with the highest expected
points (7 x chance of exact + 3 x chance of adjacent), takes a No Exact space when the
markers already on a section look wrong to it, and passes once no free space is worth
risking a marker for. Medium and hard players also read the table: the other players'
first markers on a section show where they believe the answer is, and they weigh those
clues into their own belief (Bayes, with an average opponent's error; medium trusts them
less) before they place. An easy player keeps to its own belief.

Everything random is seeded by (the game's first two topics, seat, topic): the first two
topics are public and differ from game to game, so a replayed, undone or loaded game
gives the same guesses.
"""
from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from functools import cache

from stateside.engine.protocol import Player
from stateside.games.america import rules
from stateside.games.america.rules import (
    ADJACENT_POINTS,
    EXACT_POINTS,
    NO_EXACT,
    NO_EXACT_OR_ADJACENT,
    NO_EXACT_OR_ADJACENT_POINTS,
    NO_EXACT_POINTS,
    SECTIONS,
)

LEVELS = ("easy", "medium", "hard")

# Knowledge grades: the chance that the true answer is 0, 1, 2, 3 or "far" (4 or more)
# spaces (bar) or border hops (map) from where the player believes it is.
KNOWLEDGE = (
    (0.06, 0.14, 0.18, 0.20, 0.42),   # 0: lost
    (0.12, 0.24, 0.22, 0.17, 0.25),   # 1: easy
    (0.25, 0.33, 0.20, 0.11, 0.11),   # 2: medium
    (0.42, 0.34, 0.14, 0.06, 0.04),   # 3: hard
    (0.62, 0.28, 0.07, 0.03, 0.00),   # 4: expert (a hard player's best topics)
)
LEVEL_GRADE = {"easy": 1, "medium": 2, "hard": 3}
FAR = 4                    # distance class of everything 4 or more away
BAR_FAR_REACH = 7          # on a bar, "far" means 4 to 7 spaces off

# Expected points a free space must promise before a marker is risked on it: a marker
# that misses sits in the non-scoring supply and comes back only slowly. On the last
# card a missed marker costs only the (rare) tie-break on markers in supply.
PASS_BELOW = 1.5
PASS_BELOW_LAST_CARD = 0.15
# Chance that each other player still placing leaves the answer uncovered (No Exact) or
# leaves it and its neighbours uncovered (No Exact or Adjacent): discounts those bets.
OTHERS_MISS_EXACT = 0.6
OTHERS_MISS_NEAR = 0.4
# A hard player reads the table: each other player's first marker on a section is where
# that player believes the answer is, so it is a clue, as good as an average opponent's
# guess (a mix of the easy, medium and hard rows), and trusted only in part (a marker
# may have gone next to a space someone else took first).
CLUE_ROW = (0.22, 0.29, 0.19, 0.13, 0.17)
CLUE_TRUST = 0.85
# A medium player reads the table too, as any person at it does, trusting the clues less
# (without it a casual person who looks at the others' markers beat two medium computers
# in 56% of three-seat games: benchmarks/bench_america_person.py, AMERICA_PERSON.md).
MEDIUM_CLUE_TRUST = 0.6
TABLE_TRUST = {"hard": CLUE_TRUST, "medium": MEDIUM_CLUE_TRUST}


@cache
def state_hops() -> dict[str, dict[str, int]]:
    """Border hops between states on the `america` map (unreachable: FAR)."""
    codes = rules.state_codes()
    hops = {}
    for start in codes:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if dist[here] >= FAR:
                continue
            for nb in rules.state_neighbours(here):
                if nb not in dist:
                    dist[nb] = dist[here] + 1
                    queue.append(nb)
        hops[start] = {c: min(dist.get(c, FAR), FAR) for c in codes}
    return hops


@cache
def _side_states(side: str) -> tuple[str, ...]:
    return tuple(c for c in rules.state_codes() if rules.mississippi_side(c) == side)


def _bar_distance(a: int, b: int) -> int:
    d = abs(a - b)
    return d if d < FAR else (FAR if d <= BAR_FAR_REACH else FAR + 1)  # FAR+1: beyond belief


class Belief:
    """Where one player believes one answer lies: space -> probability."""

    def __init__(self, section: str, probs: dict[str, float]):
        self.section = section
        self.probs = probs

    def p(self, space: str) -> float:
        return self.probs.get(space, 0.0)

    def mass(self, spaces) -> float:
        return sum(self.probs.get(s, 0.0) for s in spaces)


def _neighbours(section: str, space: str) -> tuple[str, ...]:
    if section == "state":
        return tuple(rules.state_neighbours(space))
    labels = rules.bar(section).labels
    i = labels.index(space)
    return tuple(labels[j] for j in (i - 1, i + 1) if 0 <= j < len(labels))


def _candidates(section: str, hint: str) -> tuple[str, ...]:
    return _side_states(hint) if section == "state" else rules.bar(section).labels


def _distance(section: str, a: str, b: str) -> int:
    if section == "state":
        return state_hops()[a][b]
    labels = rules.bar(section).labels
    return _bar_distance(labels.index(a), labels.index(b))


@cache
def _pool_classes(section: str, hint: str) -> tuple[tuple[str, ...], dict[str, dict[str, int]], dict[str, list[int]]]:
    """The candidates of a section, the distance class between every two of them, and
    for each candidate how many candidates lie in each class around it."""
    pool = _candidates(section, hint)
    classes = {a: {b: _distance(section, a, b) for b in pool} for a in pool}
    counts = {}
    for a in pool:
        row = [0] * (FAR + 2)
        for c in classes[a].values():
            row[c] += 1
        counts[a] = row
    return pool, classes, counts


def clue_likelihood(section: str, hint: str, clue: str, row=CLUE_ROW, trust=CLUE_TRUST) -> dict[str, float]:
    """How likely a player who guesses with `row` puts its marker on `clue`, for each
    possible answer (the chance of its guess landing there, mixed with a little doubt)."""
    pool, classes, counts = _pool_classes(section, hint)
    out = {}
    for t in pool:
        c = classes[t].get(clue)
        if c is None:
            out[t] = 1.0 - trust
            continue
        p = row[c] / counts[t][c] if c < len(row) and counts[t][c] else 0.0
        out[t] = (1.0 - trust) / len(pool) + trust * p
    return out


def make_belief(section: str, answer, grade: int, rng: random.Random) -> Belief:
    """Draw a guess around the true answer with the grade's error, then spread the
    grade's error table around the guess."""
    row = KNOWLEDGE[grade]
    truth = rules.space_for(section, answer)
    hint = rules.mississippi_side(truth) if section == "state" else ""
    pool = _candidates(section, hint)
    by_class: dict[int, list[str]] = {}
    for s in pool:
        by_class.setdefault(_distance(section, truth, s), []).append(s)
    cls = rng.choices(range(len(row)), weights=row)[0]
    while cls > 0 and not by_class.get(cls):
        cls -= 1
    guess = rng.choice(by_class[cls])
    around: dict[int, list[str]] = {}
    for s in pool:
        around.setdefault(_distance(section, guess, s), []).append(s)
    probs = {}
    for cls, members in around.items():
        if cls < len(row) and row[cls] > 0:
            for s in members:
                probs[s] = row[cls] / len(members)
    total = sum(probs.values())
    return Belief(section, {s: p / total for s, p in probs.items()})


class ComputerPlayer(Player):
    def __init__(self, level: str = "medium", seat: int = 0, rng: random.Random | None = None,
                 deck: Sequence | None = None):
        if level not in LEVEL_GRADE:
            raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
        super().__init__(seat, rng if rng is not None else random.Random())
        self.level = level
        self.topics = rules.bundled_topics() if deck is None else rules.topic_index(deck)
        self.salt = ""
        self._grades: dict[str, dict[str, int]] = {}
        self.others_miss_exact = OTHERS_MISS_EXACT
        self.others_miss_near = OTHERS_MISS_NEAR
        self.pass_below = PASS_BELOW
        self._beliefs: dict[str, dict[str, Belief]] = {}
        self.reads_table = level in TABLE_TRUST
        self.clue_trust = TABLE_TRUST.get(level, 0.0)

    def _rng(self, topic: str, what: str) -> random.Random:
        return random.Random(f"america:{self.salt}:{self.seat}:{topic}:{what}")

    def _meet(self, observation: dict) -> None:
        """Key this game's guesses to its first two topics (a player lives for one match)."""
        if not self.salt:
            first = observation["results"][0]["offered"] if observation["results"] else observation["offered"]
            self.salt = "+".join(first)

    def grades(self, key: str) -> dict[str, int]:
        """How well this player knows each question of a topic (some topics suit it more)."""
        if key not in self._grades:
            rng = self._rng(key, "grade")
            base = LEVEL_GRADE[self.level]
            self._grades[key] = {
                s: min(len(KNOWLEDGE) - 1, max(0, base + rng.choices((-1, 0, 1), weights=(1, 2, 1))[0]))
                for s in SECTIONS
            }
        return self._grades[key]

    def beliefs(self, key: str) -> dict[str, Belief]:
        if key not in self._beliefs:
            grades = self.grades(key)
            answers = rules.topic_answers(self.topics[key])
            self._beliefs[key] = {
                s: make_belief(s, answers[s], grades[s], self._rng(key, s)) for s in SECTIONS
            }
        return self._beliefs[key]

    def table_clues(self, observation: dict) -> dict[str, tuple[str, ...]]:
        """Each other player's first marker on each section (No Exact spaces aside)."""
        clues: dict[str, list[str]] = {s: [] for s in SECTIONS}
        seen = set()
        for seat, section, space in observation["placements"]:
            if seat == self.seat or space in rules.NO_EXACT_SPACES or (seat, section) in seen:
                continue
            seen.add((seat, section))
            clues[section].append(space)
        return {s: tuple(c) for s, c in clues.items()}

    def read_beliefs(self, observation: dict) -> dict[str, Belief]:
        """Its own beliefs about the topic, sharpened by the clues the table shows."""
        key = observation["topic"]
        beliefs = self.beliefs(key)
        if not self.reads_table:
            return beliefs
        clues = self.table_clues(observation)
        out = {}
        for section in SECTIONS:
            belief = beliefs[section]
            if not clues[section]:
                out[section] = belief
                continue
            hint = observation["state_side"] if section == "state" else ""
            probs = dict(belief.probs)
            for clue in clues[section]:
                like = clue_likelihood(section, hint, clue, CLUE_ROW, self.clue_trust)
                for t in probs:
                    probs[t] *= like.get(t, 1.0 - self.clue_trust)
            total = sum(probs.values())
            out[section] = Belief(section, {t: p / total for t, p in probs.items()}) if total > 0 else belief
        return out

    # --- decisions --------------------------------------------------------------------
    def choose(self, observation: dict, legal: Sequence) -> str:
        self._meet(observation)
        if observation["phase"] == rules.CHOOSE:
            a, b = observation["offered"]
            return "choose:1" if sum(self.grades(b).values()) > sum(self.grades(a).values()) else "choose:0"
        best, value = self.best_placement(observation, legal)
        if "pass" in legal and (best is None or value < self._pass_below(observation)):
            return "pass"
        return best

    def _pass_below(self, observation: dict) -> float:
        last = observation["showdown"] is not None or observation["cards_scored"] == rules.CARDS_PER_GAME - 1
        return PASS_BELOW_LAST_CARD if last else self.pass_below

    def best_placement(self, observation: dict, legal: Sequence) -> tuple[str | None, float]:
        """The free space with the highest expected points, and that value."""
        values = self.placement_values(observation)
        if not values:   # nothing this player believes in is free: any free space will do
            places = [a for a in legal if a != "pass"]
            return (places[0], 0.0) if places else (None, 0.0)
        best = max(values, key=values.__getitem__)
        return best, values[best]

    def placement_values(self, observation: dict) -> dict[str, float]:
        """Expected points of each free space this player believes might score."""
        beliefs = self.read_beliefs(observation)
        occupied = {(section, space): seat for seat, section, space in observation["placements"]}
        group = observation["showdown"] if observation["showdown"] is not None else range(len(observation["players"]))
        passed = set(observation["passed"])
        others_active = sum(1 for s in group if s != self.seat and s not in passed)
        open_exact = self.others_miss_exact ** others_active
        open_near = self.others_miss_near ** others_active
        values: dict[str, float] = {}
        for section in SECTIONS:
            belief = beliefs[section]
            taken = [sp for (sec, sp) in occupied if sec == section and sp not in rules.NO_EXACT_SPACES]
            near = set(taken)
            for sp in taken:
                near.update(_neighbours(section, sp))
            mine_no_exact = occupied.get((section, NO_EXACT)) == self.seat
            mine_no_adjacent = occupied.get((section, NO_EXACT_OR_ADJACENT)) == self.seat
            for space, p in belief.probs.items():
                if (section, space) in occupied:
                    continue
                nbrs = _neighbours(section, space)
                value = EXACT_POINTS * p + ADJACENT_POINTS * belief.mass(nbrs)
                if mine_no_exact:      # my own marker on the answer would spoil my No Exact
                    value -= NO_EXACT_POINTS * p
                if mine_no_adjacent:
                    value -= NO_EXACT_OR_ADJACENT_POINTS * belief.mass(
                        s for s in (space, *nbrs) if s not in near)
                values[f"place:{section}:{space}"] = value
            # the No Exact bets pay when the markers already here miss the answer
            if (section, NO_EXACT) not in occupied:
                values[f"place:{section}:{NO_EXACT}"] = (
                    NO_EXACT_POINTS * (1 - belief.mass(taken)) * open_exact)
            if (section, NO_EXACT_OR_ADJACENT) not in occupied:
                values[f"place:{section}:{NO_EXACT_OR_ADJACENT}"] = (
                    NO_EXACT_OR_ADJACENT_POINTS * (1 - belief.mass(near)) * open_near)
        return values


def make_player(level: str, seat: int, rng: random.Random) -> ComputerPlayer:
    """The computer player of a level ("easy", "medium", "hard") for the match layer."""
    return ComputerPlayer(level, seat, rng)
