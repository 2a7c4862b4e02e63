"""Seeded self-play between computer players, shared by every game.

A game exposes (through GameInfo.selfplay) a function::

    play_game(players: list[str], seed: int) -> GameRecord

where each player spec is "random" or "ai:<level>" (e.g. "ai:hard"); the function
plays one whole game deterministically under `seed` and reports the outcome.
`run_selfplay` plays many games, rotating the seats so that no spec keeps the
first-player advantage, and prints one line per player spec.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Callable, Sequence


@dataclass
class GameRecord:
    winners: list[int]                     # seat indices of the winner(s); empty for no winner (turn cap)
    scores: list[float] | None = None      # final score per seat, where the game has scores
    decision_ms: list[list[float]] = field(default_factory=list)  # per seat, each decision's time
    turns: int = 0


@dataclass
class SpecStats:
    spec: str
    games: int = 0
    wins: float = 0.0   # a shared win counts 1/k
    scores: list[float] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)


def run_selfplay(
    play_game: Callable[[list[str], int], GameRecord],
    specs: Sequence[str],
    games: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> list[SpecStats]:
    """Play `games` games; game i uses seed+i and the specs rotated by i seats."""
    n = len(specs)
    stats = [SpecStats(s) for s in specs]
    for i in range(games):
        shift = i % n
        order = [(k + shift) % n for k in range(n)]  # order[seat] = index into specs
        record = play_game([specs[j] for j in order], seed + i)
        for seat, j in enumerate(order):
            st = stats[j]
            st.games += 1
            if seat in record.winners:
                st.wins += 1 / len(record.winners)
            if record.scores is not None:
                st.scores.append(record.scores[seat])
            if seat < len(record.decision_ms):
                st.decision_ms.extend(record.decision_ms[seat])
        if progress:
            progress(i + 1)
    return stats


def format_stats(stats: list[SpecStats]) -> list[str]:
    lines = []
    for k, st in enumerate(stats, 1):
        rate = 100 * st.wins / st.games if st.games else 0.0
        parts = [f"seat {k} {st.spec:<10}", f"wins {st.wins:g}/{st.games} ({rate:.1f}%)"]
        if st.scores:
            parts.append(f"mean score {statistics.fmean(st.scores):.1f}")
        if st.decision_ms:
            parts.append(f"median decision {statistics.median(st.decision_ms):.2f} ms")
        lines.append("  ".join(parts))
    return lines
