"""10 Days in the USA figures: self-play win rates, decision times, the distance measure.

    python benchmarks/bench_ten_days.py [--games 200] [--seed 1]

Self-play uses the shared runner (stateside.selfplay): game i has seed+i and the seats
rotate, so no level keeps the first seat. The issue's targets: ai:hard wins >= 95% of
two-player games against random and >= 70% against ai:easy, with a median decision
<= 50 ms.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from stateside.games.ten_days.ai import analyse, changes_needed, tables
from stateside.games.ten_days.cards import face_of, load_cards
from stateside.games.ten_days.journey import check_journey
from stateside.games.ten_days.selfplay import play_game
from stateside.selfplay import format_stats, run_selfplay

MATCHES = (("ai:hard", "random"), ("ai:hard", "ai:easy"), ("ai:hard", "ai:medium"), ("ai:medium", "ai:easy"))


def timed(fn, items) -> list[float]:
    out = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    tables()  # built once per process; not part of a decision
    ids = load_cards().card_ids()
    rng = random.Random(args.seed)
    hands = [[face_of(c) for c in rng.sample(ids, 10)] for _ in range(500)]
    for label, fn in (("check_journey", check_journey), ("analyse (distance + every single change)", analyse),
                      ("changes_needed (exact hint)", changes_needed)):
        ms = timed(fn, hands)
        print(f"{label:<42} median {statistics.median(ms):.3f} ms  max {max(ms):.2f} ms  ({len(hands)} random hands)")

    for match in MATCHES:
        t0 = time.perf_counter()
        lengths = []

        def game(players, seed):
            record = play_game(players, seed)
            lengths.append(record.turns)
            return record

        stats = run_selfplay(game, list(match), args.games, args.seed)
        print(f"\n{' vs '.join(match)}: {args.games} games, seed {args.seed}, "
              f"mean {statistics.fmean(lengths):.1f} turns, {time.perf_counter() - t0:.1f} s")
        for st, line in zip(stats, format_stats(stats)):
            ms = sorted(st.decision_ms)
            p95 = ms[int(0.95 * (len(ms) - 1))] if ms else 0.0
            print(f"  {line}  p95 {p95:.2f} ms  max {ms[-1] if ms else 0.0:.2f} ms")


if __name__ == "__main__":
    main()
