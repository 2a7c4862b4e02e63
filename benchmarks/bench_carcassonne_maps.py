"""Hard against easy on a USA map over seeded games, one line per game as it ends.

    python benchmarks/bench_carcassonne_maps.py usa-west [--games 100] [--seed 1]
    python benchmarks/bench_carcassonne_maps.py --grids      (random play on grid 1 and grid 2)

Game i has seed SEED+i and the seats rotate each game (hard first in odd games), exactly as
`stateside selfplay carcassonne --players ai:hard,ai:easy --map MAP` plays them
(stateside.selfplay.run_selfplay); this prints each game as it ends, so a long run can be
followed, and at the end the hard player's share of wins and its median decision time
(wall clock, as the match layer records it: a loaded machine makes it longer). A game
takes about 2-3 s of one core. Figures: benchmarks/CARCASSONNE_MAPS.md.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from stateside.engine.match import rules_for
from stateside.engine.protocol import CHANCE
from stateside.games.carcassonne.engine import Game
from stateside.selfplay import play_match

SPECS = ("ai:hard", "ai:easy")


def random_game(variant: str, grid: int, seed: int) -> Game:
    """Two players choosing uniformly among the legal moves, the draws by the copies left."""
    rng = random.Random(seed)
    g = Game.new({"players": ["A", "B"], "variant": variant, "grid": grid})
    while not g.is_terminal():
        if g.current_player() == CHANCE:
            outs = g.chance_outcomes()
            g.apply_action(rng.choices([o for o, _ in outs], [w for _, w in outs])[0])
        else:
            g.apply_action(rng.choice(g.legal_actions(g.current)))
    return g


def grids(games: int = 20) -> None:
    """Per map and grid: the share of the map filled, face-down tiles left, start cities
    finished and features running off the map, over random games with seeds 1..games."""
    for variant in ("usa-west", "usa-east"):
        for grid in (1, 2):
            fill, off, covert, cities = [], [], [], 0
            for seed in range(1, games + 1):
                g = random_game(variant, grid, seed)
                fill.append(len(g.placed) / len(g.map.squares))
                off.append(len({g.find(r) for r in g.dead}))
                covert.append(len(g.covert))
                for pos in g.map.starts:
                    p = g.placed[g.board[pos]]
                    cities += bool(g.done[g.find(p.base + p.o.edge_seg[0])])   # the start tile's city, north
            print(f"{variant} grid {grid}: {len(g.map.squares)} squares; filled {100 * statistics.mean(fill):.0f}%; "
                  f"face down at the end {statistics.mean(covert):.1f} a game; start cities finished "
                  f"{cities}/{games * len(g.map.starts)}; features off the map {statistics.mean(off):.1f} a game")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("map", nargs="?", choices=("usa-west", "usa-east", "usa"))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--grids", action="store_true", help="random play on both grids instead")
    args = ap.parse_args()
    if args.grids or args.map is None:
        grids()
        return
    setup = {**rules_for("carcassonne").default_setup(2), "variant": args.map}
    wins, hard_ms = 0.0, []
    t0 = time.perf_counter()
    for i in range(args.games):
        seats = [SPECS[(k + i) % 2] for k in range(2)]
        t = time.perf_counter()
        record = play_match("carcassonne", seats, args.seed + i, setup)
        hard = seats.index("ai:hard")
        won = 1 / len(record.winners) if hard in record.winners else 0.0
        wins += won
        hard_ms.extend(record.decision_ms[hard])
        print(json.dumps({"game": i + 1, "seed": args.seed + i, "hard_seat": hard, "hard_win": won,
                          "scores": record.scores, "wins_so_far": wins,
                          "median_so_far_ms": round(statistics.median(hard_ms), 1),
                          "s": round(time.perf_counter() - t, 1)}), flush=True)
    print(f"{args.map}: hard won {wins:g} of {args.games} (seeds {args.seed}-{args.seed + args.games - 1}), "
          f"{100 * wins / args.games:.1f}%; hard decision median {statistics.median(hard_ms):.1f} ms, "
          f"90th percentile {sorted(hard_ms)[int(0.9 * len(hard_ms))]:.1f} ms over {len(hard_ms)} decisions; "
          f"{time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
