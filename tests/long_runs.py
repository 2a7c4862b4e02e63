"""How many games a self-play or fuzz test plays: a small default that keeps the suite
quick, the full figure when STATESIDE_LONG_SELFPLAY=1 (the long runs, whose figures are in
benchmarks/SELFPLAY.md and benchmarks/FUZZ.md), or an exact figure from the test's own
variable (e.g. STATESIDE_SELFPLAY_GAMES=2000)."""
from __future__ import annotations

import os

LONG = bool(os.environ.get("STATESIDE_LONG_SELFPLAY"))   # as tests/test_game_of_the_states_selfplay.py reads it


def games(default: int, long: int, variable: str = "STATESIDE_SELFPLAY_GAMES") -> int:
    value = os.environ.get(variable)
    if value:
        return int(value)
    return long if LONG else default
