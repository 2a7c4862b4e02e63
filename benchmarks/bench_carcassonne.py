"""Carcassonne figures: engine speed, computer players' decision times, tile drawing,
and (with --selfplay N) hard against easy over N seeded two-player games.

    python benchmarks/bench_carcassonne.py [--games 3] [--seed 1] [--selfplay 0]

The self-play uses the shared runner (stateside.selfplay): game i has seed+i and the
seats rotate each game. A hard game takes about 20 s on one core.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from stateside.games.carcassonne.engine import Game, Setup
from stateside.games.carcassonne.selfplay import play_game, play_out
from stateside.games.carcassonne.shapes import tile_shape
from stateside.games.carcassonne.tiles import catalogue
from stateside.selfplay import format_stats, run_selfplay


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def engine_speed(games: int, seed: int) -> None:
    moves = 0
    t0 = time.perf_counter()
    for i in range(games * 20):
        g = Game(Setup(players=["a", "b"], seed=seed + i))
        rng = random.Random(i)
        while not g.is_terminal():
            g.apply_action(rng.choice(g.legal_actions()))
            moves += 1
    dt = time.perf_counter() - t0
    print(f"random play, 114 tiles: {moves / dt:,.0f} moves/s "
          f"({dt * 1e6 / moves:.0f} us per move incl. listing every legal move)")
    g = Game(Setup(players=["a", "b"], seed=seed))
    rng = random.Random(seed)
    for _ in range(80):
        g.apply_action(rng.choice(g.legal_actions()))
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        g.clone(history=False)
    print(f"clone after 80 tiles: {(time.perf_counter() - t0) * 1e6 / n:.1f} us")


def decisions(games: int, seed: int) -> None:
    for spec in ("ai:easy", "ai:hard"):
        times: list[float] = []
        for i in range(games):
            _, ms = play_out([spec, "ai:easy"], seed=seed + i)
            times.extend(ms[0])
        print(f"{spec:<8} decision: median {statistics.median(times):.1f} ms, "
              f"90th percentile {percentile(times, 0.9):.1f} ms, max {max(times):.1f} ms ({len(times)} decisions)")


def drawing() -> None:
    tile_shape.cache_clear()
    t0 = time.perf_counter()
    for t in catalogue():
        tile_shape(t)
    print(f"tile shapes, all {len(catalogue())} types: {(time.perf_counter() - t0) * 1000:.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3, help="games per decision-time figure")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--selfplay", type=int, default=0, help="hard vs easy games to play (0: none)")
    args = ap.parse_args()
    engine_speed(args.games, args.seed)
    drawing()
    decisions(args.games, args.seed)
    if args.selfplay:
        t0 = time.perf_counter()
        stats = run_selfplay(play_game, ["ai:hard", "ai:easy"], args.selfplay, args.seed)
        print("\n".join(format_stats(stats)))
        print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
