"""America figures: computer players' decision times, engine speed, self-play win rates.

    python benchmarks/bench_america.py [--games 200] [--seed 1]

Everything runs through the engine protocol: random play on the State itself (chance
drawn uniformly), decisions and self-play through the match layer (stateside.selfplay:
game i has seed+i and the seats rotate, so no level keeps the first seat).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from stateside.engine.match import Match
from stateside.games.america.rules import AmericaGame, bundled_deck, explain_card
from stateside.selfplay import format_stats, run_selfplay


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def random_play(games: int) -> tuple[int, float]:
    """(actions, seconds) of random legal actions, chance included, from start to end."""
    actions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = AmericaGame.new(AmericaGame.default_setup(2 + seed % 5))
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions, time.perf_counter() - t0


def decision_times(games: int, seed: int) -> dict[str, list[float]]:
    """Per level, the time of every decision in six-seat games (the most crowded board)."""
    times: dict[str, list[float]] = {}
    specs = ["ai:hard", "ai:medium", "ai:easy"] * 2
    for g in range(games):
        match = Match("america", specs, seed + g)
        match.play_out()
        for entry in match.log:
            if entry.decision_ms is not None:
                times.setdefault(specs[entry.seat], []).append(entry.decision_ms)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    t0 = time.perf_counter()
    deck = bundled_deck()
    print(f"deck: {len(deck)} cards, {2 * len(deck)} topics, loaded in {(time.perf_counter() - t0) * 1000:.0f} ms")

    topic = deck[0].topics[0]
    answers = {"year": topic.year.answer, "state": topic.state.answer, "number": topic.number.answer}
    spots = ([("year", y) for y in ("1850", "1875", "1900", "1910", "no-exact", "no-exact-or-adjacent")]
             + [("state", c) for c in ("GA", "FL", "AL", "MS", "SC", "TN", "NC", "LA", "TX", "CA", "NY", "OH")]
             + [("number", n) for n in ("1M", "10M", "100M", "1B", "no-exact", "no-exact-or-adjacent")])
    placements = [(s % 6, sec, sp) for s, (sec, sp) in enumerate(spots)]   # one marker a space
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        explain_card(answers, placements)
    print(f"score_card with {len(placements)} markers: {(time.perf_counter() - t0) / n * 1e6:.0f} us")

    random_play(20)   # warm the caches (borders, bars)
    actions, seconds = random_play(200)
    print(f"random play: {actions} actions in 200 games, {actions / seconds:,.0f} actions/s")

    times = decision_times(30, args.seed)
    for spec, values in times.items():
        print(f"{spec:<10} decisions {len(values):>5}  median {statistics.median(values):.3f} ms"
              f"  p95 {percentile(values, 0.95):.3f} ms  max {max(values):.3f} ms  (six seats)")

    specs = ["ai:hard", "ai:medium", "ai:easy"]
    t0 = time.perf_counter()
    stats = run_selfplay("america", specs, args.games, args.seed)
    elapsed = time.perf_counter() - t0
    print(f"self-play {','.join(specs)}: {args.games} games, seed {args.seed}, {elapsed:.1f} s")
    for line in format_stats(stats):
        print("  " + line)


if __name__ == "__main__":
    main()
