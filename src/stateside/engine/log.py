"""The log of a match and its seeding rule, below both the match (engine.match) and the
driver of real-time games (engine.clock), which each use them.

The chance outcome at position n of the log is drawn from Random(f"{seed}:chance:{n}")
and a computer seat's decision at position n from Random(f"{seed}:{seat}:{n}").
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any


def chance_rng(seed: int, n: int) -> random.Random:
    return random.Random(f"{seed}:chance:{n}")


def seat_rng_seed(seed: int, seat: int, n: int) -> str:
    return f"{seed}:{seat}:{n}"


@dataclass
class LogEntry:
    """One applied action, as the move log shows it."""
    index: int            # position in the log (0-based)
    seat: int             # who acted (CHANCE for a chance outcome)
    action: Any
    text: str             # plain English, from action_to_string
    events: list = field(default_factory=list)
    decision_ms: float | None = None   # a computer's thinking time
    audience: frozenset[int] | None = None   # who may see it (State.audience; None: every seat)
    words: dict | None = None   # viewer -> State.describe, where it differs from `text`

    def seen_by(self, seat: int) -> bool:
        """Whether `seat` saw this action when it was taken (its own, or in its audience)."""
        return seat == self.seat or self.audience is None or seat in self.audience

    def words_for(self, viewer: int | None) -> str:
        """The action as `viewer` (a seat, SPECTATOR, or None for everything) reads it."""
        return self.text if viewer is None or not self.words else self.words.get(viewer, self.text)
