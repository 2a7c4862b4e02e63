"""America figures: computer players' decision times, engine speed, self-play win rates.

    python benchmarks/bench_america.py [--games 200] [--seed 1]

Self-play uses the shared runner (stateside.selfplay): game i has seed+i and the seats
rotate, so no level keeps the first seat.
"""
from __future__ import annotations

import argparse
import statistics
import time

from stateside.games.america.ai import make_player
from stateside.games.america.deck import load_deck
from stateside.games.america.rules import COLOURS, AmericaGame, explain_card
from stateside.games.america.selfplay import play_game
from stateside.selfplay import format_stats, run_selfplay


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def decision_times(deck, games: int, seed: int) -> dict[str, list[float]]:
    """Per level, the time of every decision in six-seat games (the most crowded board)."""
    times: dict[str, list[float]] = {}
    specs = ["ai:hard", "ai:medium", "ai:easy"] * 2
    for g in range(games):
        game = AmericaGame([c[0] for c in COLOURS], deck=deck, seed=seed + g)
        seats = [make_player(spec, seed + g, s) for s, spec in enumerate(specs)]
        while not game.is_terminal():
            seat = game.current_player()
            t0 = time.perf_counter()
            action = seats[seat].choose_action(game)
            times.setdefault(specs[seat], []).append((time.perf_counter() - t0) * 1000)
            game.apply_action(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    t0 = time.perf_counter()
    deck = load_deck()
    print(f"deck: {len(deck)} cards, {2 * len(deck)} topics, loaded in {(time.perf_counter() - t0) * 1000:.0f} ms")

    topic = deck[0].topics[0]
    answers = {"year": topic.year.answer, "state": topic.state.answer, "number": topic.number.answer}
    placements = [(s % 6, sec, sp) for s, (sec, sp) in enumerate(
        [("year", "1850"), ("year", "1875"), ("state", "GA"), ("state", "FL"), ("state", "AL"),
         ("number", "1M"), ("number", "no-exact"), ("state", "no-exact-or-adjacent")] * 3)]
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        explain_card(answers, placements)
    print(f"score_card with {len(placements)} markers: {(time.perf_counter() - t0) / n * 1e6:.0f} us")

    times = decision_times(deck, 30, args.seed)
    for spec, values in times.items():
        print(f"{spec:<10} decisions {len(values):>5}  median {statistics.median(values):.3f} ms"
              f"  p95 {percentile(values, 0.95):.3f} ms  max {max(values):.3f} ms  (six seats)")

    specs = ["ai:hard", "ai:medium", "ai:easy"]
    t0 = time.perf_counter()
    stats = run_selfplay(lambda players, seed: play_game(players, seed, deck=deck), specs, args.games, args.seed)
    elapsed = time.perf_counter() - t0
    print(f"self-play {','.join(specs)}: {args.games} games, seed {args.seed}, {elapsed:.1f} s")
    for line in format_stats(stats):
        print("  " + line)


if __name__ == "__main__":
    main()
