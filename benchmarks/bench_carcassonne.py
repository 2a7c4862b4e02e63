"""Carcassonne figures: the rules' speed, computer players' decision times, tile drawing,
and (with --selfplay N) hard against easy over N seeded two-player games.

    python benchmarks/bench_carcassonne.py [--games 3] [--seed 1] [--selfplay 0] [--map usa-east]

With --map (usa-west, usa-east or usa) every figure is for that USA map instead of the table.

Random play runs on the State directly: each move chosen among every legal move, each
draw sampled by the copies left. Decision times and self-play go through the match layer
(stateside.selfplay): game i has seed+i and the seats rotate each game. A hard game takes
about 20 s on one core.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from stateside.engine.protocol import CHANCE
from stateside.games.carcassonne.engine import Game
from stateside.games.carcassonne.shapes import tile_shape
from stateside.games.carcassonne.tiles import catalogue
from stateside.selfplay import format_stats, play_match, run_selfplay


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


VARIANT: str | None = None     # --map


def setup(players: int = 2) -> dict:
    base = Game.default_setup(players)
    return base if VARIANT is None else {**base, "variant": VARIANT}


def random_game(rng: random.Random, stop: int | None = None) -> tuple[Game, int]:
    """A two-player game of random moves (to the end, or to `stop` moves); returns it and its moves."""
    g = Game.new(setup())
    moves = 0
    while not g.is_terminal() and moves != stop:
        if g.current_player() == CHANCE:
            outcomes = g.chance_outcomes()
            g.apply_action(rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])
        else:
            g.apply_action(rng.choice(g.legal_actions(g.current_player())))
            moves += 1
    return g, moves


def engine_speed(games: int, seed: int) -> None:
    moves = actions = 0
    t0 = time.perf_counter()
    for i in range(games * 20):
        g, n = random_game(random.Random(seed + i))
        moves += n
        actions += len(g.history)
    dt = time.perf_counter() - t0
    print(f"random play, {VARIANT or 'table, 114 tiles'}: {moves / dt:,.0f} moves/s, {actions / dt:,.0f} actions/s with the draws "
          f"({dt * 1e6 / moves:.0f} us per move incl. its draw and listing every legal move)")
    g, _ = random_game(random.Random(seed), stop=80)
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        g.clone(history=False)
    print(f"clone after 80 tiles: {(time.perf_counter() - t0) * 1e6 / n:.1f} us")


def decisions(games: int, seed: int) -> None:
    for spec in ("ai:easy", "ai:hard"):
        times: list[float] = []
        for i in range(games):
            times.extend(play_match("carcassonne", [spec, "ai:easy"], seed + i, setup()).decision_ms[0])
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
    ap.add_argument("--map", choices=("usa-west", "usa-east", "usa"), help="a USA map instead of the table")
    args = ap.parse_args()
    global VARIANT
    VARIANT = args.map
    engine_speed(args.games, args.seed)
    drawing()
    decisions(args.games, args.seed)
    if args.selfplay:
        t0 = time.perf_counter()
        stats = run_selfplay("carcassonne", ["ai:hard", "ai:easy"], args.selfplay, args.seed, variant=VARIANT)
        print("\n".join(format_stats(stats)))
        print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
