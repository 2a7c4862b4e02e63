"""What the rules alone cost a referee per player turn, for each turn-based game: the
action applied through the match (its chance draws too, with the words and audiences the
rules declare), then each seat's observation and the next mover's legal actions as JSON.
No referee, no NATS, no encoding: the least any referee running these rules must spend.

    python benchmarks/bench_rules_turn.py [--games 20] [GAME ...]

Random legal moves, two seats, seeds 0 to --games - 1; CPU time. benchmarks/ONLINE.md
sets these figures beside the floor of bench_online.py (issue 23's turns/s ratio).
"""
from __future__ import annotations

import argparse
import random
import time

from stateside.engine.match import Match, chance_rng, rules_for, sample_chance
from stateside.engine.protocol import CHANCE

GAMES = ("ten-days", "america", "game-of-the-states", "carcassonne")
MAX_STEPS = 3000   # a game of random moves that runs long is cut off here


def rules_ms_per_turn(game: str, games: int) -> tuple[float, int]:
    rules = rules_for(game)
    cpu, turns = 0.0, 0
    for seed in range(games):
        match = Match(rules, ["human", "human"], seed, rules.default_setup(2))
        rng = random.Random(seed)
        for _ in range(MAX_STEPS):
            if match.is_over():
                break
            state = match.state
            seat = state.current_player()
            if seat == CHANCE:
                action = sample_chance(state, chance_rng(seed, len(match.log)))
            else:
                legal = state.legal_actions(seat)
                action = legal[rng.randrange(len(legal))]   # (the player's choice: not counted)
            start = time.process_time()
            match.apply(action)
            if seat != CHANCE:
                after = match.state
                for s in range(after.num_players):
                    after.observation(s)
                mover = after.current_player()
                if mover >= 0:
                    [after.action_to_json(a) for a in after.legal_actions(mover)]
            cpu += time.process_time() - start
            turns += seat != CHANCE
    return 1000 * cpu / max(1, turns), turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_", nargs="*", metavar="GAME", help=f"default: {', '.join(GAMES)}")
    parser.add_argument("--games", type=int, default=20, help="seeded games of each (1 to 1000)")
    a = parser.parse_args()
    if not 1 <= a.games <= 1000:
        parser.error("--games must be 1 to 1000")
    for game in a.games_ or GAMES:
        ms, turns = rules_ms_per_turn(game, a.games)
        print(f"{game:20s} {ms:.4f} ms of CPU per player turn ({turns} player turns, {a.games} games)")


if __name__ == "__main__":
    main()


# Notes (CPU time, 2026-12-02 04:50 UTC, load about 1, main after the quick journey check):
# see benchmarks/ONLINE.md, "Why 0.7 is out of reach".
