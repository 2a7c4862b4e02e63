"""Random-play speed of every registered game on the engine protocol.

    python benchmarks/bench_protocol.py [--games 200] [--seed 1]

Plays whole games with uniformly random legal actions (chance sampled by its weights)
straight on each game's State, and again through the match layer (Match with "random"
seats: observations built, the log kept), and prints actions per second. The figures
before and after the move onto the protocol are in the closing note of issue 10.
"""
from __future__ import annotations

import argparse
import random
import time

from stateside.engine.match import Match, rules_for, sample_chance
from stateside.engine.protocol import CHANCE, SIMULTANEOUS
from stateside.games import discover_games


def random_game(cls, seed: int) -> int:
    """Actions taken in one random game on the bare State."""
    rng = random.Random(seed)
    state = cls.new(cls.default_setup(cls.spec.min_players))
    n = 0
    while not state.is_terminal():
        p = state.current_player()
        if p == CHANCE:
            action = sample_chance(state, rng)
        elif p == SIMULTANEOUS:
            options = [a for s in range(state.num_players) for a in state.legal_actions(s)]
            deadline = state.next_deadline()
            if deadline is not None and (not options or rng.random() < 0.3):
                action = state.advance_action(deadline)
            else:
                action = rng.choice(options)
        else:
            action = rng.choice(state.legal_actions(p))
        state.apply_action(action)
        n += 1
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="one game id")
    args = parser.parse_args()
    for info in discover_games():
        if not info.rules or (args.only and info.id != args.only):
            continue
        cls = rules_for(info.id)
        random_game(cls, args.seed - 1)   # untimed: the game's data files load on first use
        t0 = time.perf_counter()
        actions = sum(random_game(cls, args.seed + i) for i in range(args.games))
        bare = time.perf_counter() - t0
        t0 = time.perf_counter()
        matched = 0
        for i in range(min(args.games, 50)):
            m = Match(info.id, ["random"] * cls.spec.min_players, args.seed + i)
            m.play_out()
            matched += len(m.log)
        through = time.perf_counter() - t0
        print(f"{info.id:<17} state: {actions / bare:9.0f} actions/s ({actions / args.games:6.1f} a game)  "
              f"match layer: {matched / through:9.0f} actions/s")


if __name__ == "__main__":
    main()
