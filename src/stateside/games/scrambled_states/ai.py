"""Computer players for Scrambled States.

A computer player looks at the table when the die lands and plans one action for the
round: which card to slap (or "No Match!") and when. The delay is drawn from its
level's reaction-time range and never leaves it, so an easy player is never faster
than 3 s; how far into the range it lands depends on how hard the die face is to
check (Hand is quick, "2" slower, being sure that nothing matches slowest). With a
small probability it makes a mistake of the kind people make: it slaps a card that
matches on another feature, or calls No Match too early. It plans once per round,
so after a slip slap it does nothing more until the next round, as the rules bar it.

The plan is made with the player's own random.Random, so self-play is reproducible.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from stateside.games.scrambled_states.rules import (
    Action, ScrambledStates, card_matches, no_match, shared_features, slap,
)


@dataclass(frozen=True)
class Level:
    name: str
    min_ms: int          # never reacts faster than this
    max_ms: int          # nor slower than this
    error_rate: float    # chance that the planned action is a mistake


LEVELS = {
    "easy": Level("easy", 3000, 6000, 0.10),
    "medium": Level("medium", 1800, 4000, 0.05),
    "hard": Level("hard", 1000, 2500, 0.02),
}

# Beta(a, b) shape of the delay inside [min_ms, max_ms] per kind of search:
# seeing the center card is quick; a lone match takes longer to spot than one of
# several; confirming that nothing matches takes the longest.
DELAY_SHAPE = {
    "hand": (1.2, 4.0),
    "many": (1.6, 2.8),     # three or more matching cards
    "few": (2.2, 2.2),      # one or two
    "two": (2.6, 1.8),      # the "2" face: two features to compare per card
    "none": (4.0, 1.4),
}


@dataclass(frozen=True)
class Plan:
    t: int               # when to act, game time in ms
    action: Action
    mistake: bool


def _delay(level: Level, kind: str, rng: random.Random) -> int:
    a, b = DELAY_SHAPE[kind]
    return level.min_ms + round((level.max_ms - level.min_ms) * rng.betavariate(a, b))


class ComputerPlayer:
    """A computer opponent of one level; `plan` it once per round, when the die lands."""

    def __init__(self, seat: int, level: str, seed: int):
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (one of {', '.join(LEVELS)})")
        self.seat = seat
        self.level = LEVELS[level]
        self.rng = random.Random(seed)

    def plan(self, game: ScrambledStates, start: int | None = None) -> Plan | None:
        """The action for the current round, or None when it may not act (barred, game over).
        `start` is when it begins looking (default: when the die lands)."""
        r = game.round
        if game.over or r is None or game.is_barred(self.seat):
            return None
        start = max(r.reveal_at if start is None else start, game.now)
        cards = game.cards
        center = cards[r.center]
        table = game.face_up_cards()
        found = game.matching_cards()
        if r.face == "hand":
            kind = "hand"
        elif not found:
            kind = "none"
        else:
            kind = "two" if r.face == "two" else ("many" if len(found) >= 3 else "few")
        t = start + _delay(self.level, kind, self.rng)

        if self.rng.random() < self.level.error_rate:
            # A near miss: a card sharing some feature with the center card, but not the asked one.
            near = [c for c in table if c not in found and shared_features(center, cards[c])]
            if kind != "none" and kind != "hand" and (not near or self.rng.random() < 0.35):
                return Plan(t, no_match(self.seat, t), True)
            if near:
                return Plan(t, slap(self.seat, self.rng.choice(near), t), True)
        if kind == "hand":
            return Plan(t, slap(self.seat, r.center, t), False)
        if kind == "none":
            return Plan(t, no_match(self.seat, t), False)
        return Plan(t, slap(self.seat, self.rng.choice(found), t), False)


class RandomPlayer:
    """Slaps anything (any card, the center card or No Match) at a random moment."""

    def __init__(self, seat: int, seed: int):
        self.seat = seat
        self.rng = random.Random(seed)

    def plan(self, game: ScrambledStates, start: int | None = None) -> Plan | None:
        r = game.round
        if game.over or r is None or game.is_barred(self.seat):
            return None
        t = max(r.reveal_at if start is None else start, game.now) + self.rng.randint(1000, 6000)
        options = game.face_up_cards() + [r.center, None]
        pick = self.rng.choice(options)
        action = no_match(self.seat, t) if pick is None else slap(self.seat, pick, t)
        return Plan(t, action, not _is_right(game, action))


def _is_right(game: ScrambledStates, action: Action) -> bool:
    r = game.round
    center = game.cards[r.center]
    if action.kind == "no-match":
        return r.face != "hand" and not game.matching_cards()
    if r.face == "hand":
        return action.card == r.center
    return action.card != r.center and card_matches(center, game.cards[action.card], r.face)


def make_player(spec: str, seat: int, seed: int):
    """A computer player from a spec: "random" or "ai:<level>"."""
    if spec == "random":
        return RandomPlayer(seat, seed)
    if spec.startswith("ai:"):
        return ComputerPlayer(seat, spec[3:], seed)
    raise ValueError(f"unknown player {spec!r} (use random or ai:easy, ai:medium, ai:hard)")
