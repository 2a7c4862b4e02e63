"""10 Days in the USA figures: self-play win rates, decision times, the distance measure.

    python benchmarks/bench_ten_days.py [--games 200] [--seed 1]

Everything runs through the engine protocol: random play on the State itself (chance
drawn by its weights), self-play through the match layer (stateside.selfplay: game i
has seed+i and the seats rotate, so no level keeps the first seat). The issue's targets: ai:hard wins >= 95% of
two-player games against random and >= 70% against ai:easy, with a median decision
<= 50 ms.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from stateside.engine.match import sample_chance
from stateside.engine.protocol import CHANCE
from stateside.games.ten_days.ai import analyse, changes_needed, tables
from stateside.games.ten_days.cards import face_of, load_cards
from stateside.games.ten_days.journey import check_journey
from stateside.games.ten_days.rules import TenDaysState
from stateside.selfplay import format_stats, run_selfplay

MATCHES = (("ai:hard", "random"), ("ai:hard", "ai:easy"), ("ai:hard", "ai:medium"), ("ai:medium", "ai:easy"))


def timed(fn, items) -> list[float]:
    out = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def random_play(games: int) -> tuple[int, int, float]:
    """(actions, of them by seats, seconds) of random legal actions from start to end,
    2-4 players, with self-play's turn limit."""
    actions = seat_actions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = TenDaysState.new(TenDaysState.default_setup(2 + seed % 3))
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                seat_actions += 1
            state.apply_action(action)
            actions += 1
    return actions, seat_actions, time.perf_counter() - t0


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

    actions, seat_actions, seconds = random_play(args.games)
    print(f"random play: {actions} actions ({seat_actions} by seats) in {seconds:.1f} s: {actions / seconds:.0f}"
          f" actions/s, {seat_actions / seconds:.0f} seat actions/s ({args.games} games)")

    for match in MATCHES:
        t0 = time.perf_counter()
        stats = run_selfplay("ten-days", list(match), args.games, args.seed)
        print(f"\n{' vs '.join(match)}: {args.games} games, seed {args.seed}, {time.perf_counter() - t0:.1f} s")
        for st, line in zip(stats, format_stats(stats)):
            ms = sorted(st.decision_ms)
            p95 = ms[int(0.95 * (len(ms) - 1))] if ms else 0.0
            print(f"  {line}  p95 {p95:.2f} ms  max {ms[-1] if ms else 0.0:.2f} ms")


if __name__ == "__main__":
    main()
