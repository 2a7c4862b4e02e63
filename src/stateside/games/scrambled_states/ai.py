"""Computer players for Scrambled States.

A computer player looks at the table when the die lands and plans one action for the
round: which card to slap (or "No Match!") and when. Its delay is a reaction time drawn
from its level: a log-normal spread around the level's typical time (people's reaction
times are skewed the same way: mostly near the typical time, now and then much slower),
scaled by how hard the die face is to check (Hand is quick, "2" slower, being sure that
nothing matches slowest), and never outside the level's floor and ceiling, so an easy
player is never faster than 1.3 s. With a small probability it makes a mistake of the
kind people make: it slaps a card that matches on another feature, or calls No Match
too early. It plans once per round, so after a slip slap it does nothing more until the
next round, as the rules bar it.

Choosing the levels (the figures are in SOURCES.md and bench_scrambled_states.py): a
race to 10 cards magnifies a small edge per round, so a level whose times sit in a
narrow band beside a person's makes every game a foregone conclusion either way. The
levels therefore overlap a person's 1-3 s and each other, and were tuned against the
simulated people of PEOPLE below: a casual person (typically 1.8 s) nearly always beats
easy while still losing about one card in five to it, has a real contest with medium,
and loses to hard most games while taking about a third of the cards; a quick person
(typically 1.2 s) still finds hard a fair fight.

A player sees only its observation and its legal actions (stateside.engine.protocol).
The clock asks it at every step what it means to do (`react`); it plans once per round
from the table it sees and keeps that plan for the round, so being asked again changes
nothing. Its randomness comes from self.rng, which the match seeds per decision point.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from stateside.engine.protocol import Player
from stateside.games.scrambled_states.cards import load_cards
from stateside.games.scrambled_states.rules import Action, card_matches, no_match, shared_features, slap


@dataclass(frozen=True)
class Level:
    name: str
    min_ms: int          # never reacts faster than this
    typical_ms: int      # median reaction time on an ordinary face (one or two matching cards)
    max_ms: int          # nor slower than this
    spread: float        # sigma of the log-normal: 0.4 puts 80% of the times within x0.6-x1.7 of typical
    error_rate: float    # chance that the planned action is a mistake

    def usual_range(self) -> tuple[float, float]:
        """The middle 80% of its reaction times on an ordinary face, in seconds."""
        z = 1.2816 * self.spread
        low = max(self.min_ms, self.typical_ms * math.exp(-z))
        high = min(self.max_ms, self.typical_ms * math.exp(z))
        return low / 1000, high / 1000


LEVELS = {
    # Slower than a first-time player (a first game is typically 3-4 s a round; see
    # SOURCES.md): a newcomer takes most cards from it while learning to read them.
    "beginner": Level("beginner", 2500, 5000, 15000, 0.40, 0.12),
    "easy": Level("easy", 1300, 2600, 9000, 0.45, 0.10),
    "medium": Level("medium", 1000, 1700, 6000, 0.40, 0.06),
    "hard": Level("hard", 800, 1200, 4000, 0.35, 0.03),
}

# Simulated people, for tuning the levels in self-play ("ai:casual"), not for play:
# "a person reacts in about 1-3 s" read as a casual player typically taking 1.8 s.
PEOPLE = {
    "slow": Level("slow", 700, 2700, 12000, 0.40, 0.08),
    "casual": Level("casual", 600, 1800, 8000, 0.40, 0.05),
    "quick": Level("quick", 400, 1200, 5000, 0.40, 0.03),
}

# How much longer than typical each kind of search takes: seeing the center card is
# quick; a lone match takes longer to spot than one of several; "2" means comparing two
# features per card; confirming that nothing matches takes the longest.
SEARCH_FACTOR = {
    "hand": 0.55,
    "many": 0.85,   # three or more matching cards
    "few": 1.0,     # one or two
    "two": 1.25,    # the "2" face
    "none": 1.5,
}


@dataclass(frozen=True)
class Plan:
    t: int               # when to act, game time in ms
    action: Action
    mistake: bool


def _delay(level: Level, kind: str, rng: random.Random) -> int:
    mu = math.log(level.typical_ms * SEARCH_FACTOR[kind])
    d = level.typical_ms
    for _ in range(32):   # redraw outside [min, max]: the floor is a floor, not a pile-up
        d = rng.lognormvariate(mu, level.spread)
        if level.min_ms <= d <= level.max_ms:
            return round(d)
    return round(min(max(d, level.min_ms), level.max_ms))


class ComputerPlayer(Player):
    """A computer opponent of one level (or a simulated person): one plan per round."""

    def __init__(self, seat: int, level: Level, rng: random.Random):
        super().__init__(seat, rng)
        self.level = level
        self.cards = load_cards()
        self._round: tuple | None = None     # the round the cached plan is for
        self._plan: Plan | None = None

    def plan(self, obs: dict, start: int | None = None) -> Plan | None:
        """The action for the current round, or None when it may not act (barred, game
        over, the die still rolling). `start` is when it begins looking (default: when
        the die lands, or when it may look again after someone's buzzer)."""
        r = obs["round"]
        if r is None or obs["phase"] not in ("open", "closing") or self.seat in r["barred"]:
            return None
        start = max(r["open_since"] if start is None else start, obs["now"])
        if start == r["open_since"]:   # practice: a person has the first look at each round
            start += obs.get("head_start_ms", 0)
        cards = self.cards
        center = cards[r["center"]]
        table = [c for c in obs["face_up"] if c]
        face = r["face"]
        found = [r["center"]] if face == "hand" else [c for c in table if card_matches(center, cards[c], face)]
        if face == "hand":
            kind = "hand"
        elif not found:
            kind = "none"
        else:
            kind = "two" if face == "two" else ("many" if len(found) >= 3 else "few")
        t = start + _delay(self.level, kind, self.rng)

        if self.rng.random() < self.level.error_rate:
            # A near miss: a card sharing some feature with the center card, but not the asked one.
            near = [c for c in table if c not in found and shared_features(center, cards[c])]
            if kind != "none" and kind != "hand" and (not near or self.rng.random() < 0.35):
                return Plan(t, no_match(self.seat, t), True)
            if near:
                return Plan(t, slap(self.seat, self.rng.choice(near), t), True)
        if kind == "hand":
            return Plan(t, slap(self.seat, r["center"], t), False)
        if kind == "none":
            return Plan(t, no_match(self.seat, t), False)
        return Plan(t, slap(self.seat, self.rng.choice(found), t), False)

    def _round_plan(self, obs: dict) -> Plan | None:
        """This round's plan, made the first time it is asked (the same table, the same
        plan). Its moment fell while someone held the buzzer: it looks again from the
        buzzer's release, as a person would."""
        r = obs["round"]
        key = (r["number"], r["reveal_at"], r["center"], r["face"], tuple(obs["face_up"]))
        if key != self._round:
            self._round, self._plan = key, self.plan(obs)
        elif self._plan is not None and self._plan.t < r["open_since"]:
            self._plan = self.plan(obs)
        return self._plan

    def react(self, observation: dict, legal, now: int) -> tuple[int, Action] | None:
        """(time, action stamped with it) for its one action this round, or None."""
        r = observation["round"]
        if not legal or r is None or any(a[1] == self.seat for a in r["actions"]):
            return None   # one action a round: after a slip, or a slap too late, it waits
        plan = self._round_plan(observation)
        if plan is None:
            return None
        t = max(plan.t, now)
        a = plan.action
        if Action(a.kind, a.player, now, a.card) not in legal:
            return None
        return t, Action(a.kind, a.player, t, a.card)

    def choose(self, observation: dict, legal):
        """What it means to do this round, done at once."""
        plan = self._round_plan(observation) if observation["round"] else None
        now = observation["now"]
        if plan is not None and (a := Action(plan.action.kind, self.seat, now, plan.action.card)) in legal:
            return a
        return legal[0]


def make_player(level: str, seat: int, rng: random.Random) -> ComputerPlayer:
    """A computer player of a level (beginner, easy, medium, hard), or a simulated person (slow,
    casual, quick) to measure how the levels fare against people in self-play."""
    if level in LEVELS:
        return ComputerPlayer(seat, LEVELS[level], rng)
    if level in PEOPLE:
        return ComputerPlayer(seat, PEOPLE[level], rng)
    raise ValueError(f"unknown level {level!r} (one of {', '.join([*LEVELS, *PEOPLE])})")
