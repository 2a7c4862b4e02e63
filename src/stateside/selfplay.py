"""Seeded self-play between computer players, one loop for every game (on the match layer).

`run_selfplay` plays many games, rotating the seats so that no player spec keeps the
first-player advantage, and `format_stats` prints one line per player spec. Seats are
"random" or "ai:<level>"; game i uses seed+i.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from stateside.engine.match import CHANCE, Match


@dataclass
class GameRecord:
    winners: list[int]                     # seats of the winner(s); empty for no winner
    scores: list[float] | None = None      # final score per seat, where the game has scores
    decision_ms: list[list[float]] = field(default_factory=list)  # per seat, each decision's time
    turns: int = 0                         # actions taken by seats (chance outcomes not counted)
    match: Match | None = None


@dataclass
class SpecStats:
    spec: str
    games: int = 0
    wins: float = 0.0   # a shared win counts 1/k
    scores: list[float] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)


def play_match(game_id: str, specs: Sequence[str], seed: int, setup: dict | None = None,
               max_actions: int = 200_000) -> GameRecord:
    """Play one whole game between computer seats, deterministically under `seed`."""
    match = Match(game_id, list(specs), seed, setup)
    match.play_out(max_actions)
    state = match.state
    returns = state.returns()
    top = max(returns) if returns else 0
    winners = [i for i, r in enumerate(returns) if r > 0 and r == top]
    decision_ms: list[list[float]] = [[] for _ in specs]
    turns = 0
    for e in match.log:
        if e.seat == CHANCE:
            continue
        turns += 1
        if e.decision_ms is not None and 0 <= e.seat < len(specs):
            decision_ms[e.seat].append(e.decision_ms)
    return GameRecord(winners, state.scores(), decision_ms, turns, match)


def run_selfplay(game_id: str, specs: Sequence[str], games: int, seed: int,
                 progress: Callable[[int], None] | None = None, variant: str | None = None,
                 on_game: Callable[[GameRecord, list[str]], None] | None = None) -> list[SpecStats]:
    """Play `games` games; game i uses seed+i and the specs rotated by i seats. `on_game`
    is given each game's record and the specs by seat."""
    n = len(specs)
    setup = None
    if variant is not None:
        from stateside.engine.match import rules_for

        setup = {**rules_for(game_id).default_setup(n), "variant": variant}
    stats = [SpecStats(s) for s in specs]
    for i in range(games):
        shift = i % n
        order = [(k + shift) % n for k in range(n)]  # order[seat] = index into specs
        record = play_match(game_id, [specs[j] for j in order], seed + i, setup)
        if on_game:
            on_game(record, [specs[j] for j in order])
        for seat, j in enumerate(order):
            st = stats[j]
            st.games += 1
            if seat in record.winners:
                st.wins += 1 / len(record.winners)
            if record.scores is not None:
                st.scores.append(record.scores[seat])
            st.decision_ms.extend(record.decision_ms[seat])
        if progress:
            progress(i + 1)
    return stats


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% (Wilson score) interval of a win rate over `games` games."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def format_stats(stats: list[SpecStats]) -> list[str]:
    lines = []
    for k, st in enumerate(stats, 1):
        rate = 100 * st.wins / st.games if st.games else 0.0
        lo, hi = wilson(st.wins, st.games)
        parts = [f"seat {k} {st.spec:<10}",
                 f"wins {st.wins:g}/{st.games} ({rate:.1f}%, 95% interval {100 * lo:.1f}-{100 * hi:.1f}%)"]
        if st.scores:
            parts.append(f"mean score {statistics.fmean(st.scores):.1f}")
        if st.decision_ms:
            parts.append(f"median decision {statistics.median(st.decision_ms):.2f} ms")
        lines.append("  ".join(parts))
    return lines
