"""America: the computer levels against a simulated person of stated accuracy.

    python benchmarks/bench_america_person.py [--games 300] [--seed 1]

The "person" plays with the computer's placement sense and reads the table as anyone at
it does (it weighs the others' first markers with the hard level's trust), but knows the
answers only as well as the knowledge row named: `casual` is the medium row (answer on
the believed space 25% of the time, one space or border off 33%, two 20%, three 11%,
further 11%), `newcomer` the easy row (12%, 24%, 22%, 17%, 25%). Each game seats the
person with two computers of one level; game i has seed+i and the person's seat turns.
Figures are written into benchmarks/AMERICA_PERSON.md by hand.
"""
from __future__ import annotations

import argparse
import random

from stateside.engine.match import Match
from stateside.games.america import ai

PERSONS = {"casual": 2, "newcomer": 1}


class Person(ai.ComputerPlayer):
    """A person at the table: fixed knowledge (one row for every topic), reads the table."""

    def __init__(self, grade: int, seat: int):
        super().__init__("medium", seat, random.Random())
        self.grade = grade
        self.reads_table = True
        self.clue_trust = ai.CLUE_TRUST

    def grades(self, key: str) -> dict[str, int]:
        return {s: self.grade for s in ai.SECTIONS}


def play(level: str, person: str, seed: int, seat: int) -> tuple[float, list[float]]:
    seats = [f"ai:{level}"] * 3
    match = Match("america", seats, seed)
    match.players[seat] = Person(PERSONS[person], seat)
    match.play_out()
    scores = match.state.scores()
    top = max(scores)
    winners = [s for s in range(3) if scores[s] == top]
    return (1 / len(winners) if seat in winners else 0.0), scores


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    for person in PERSONS:
        for level in ("medium", "hard"):
            wins, margin = 0.0, 0.0
            for i in range(args.games):
                seat = i % 3
                w, scores = play(level, person, args.seed + i, seat)
                wins += w
                margin += scores[seat] - max(s for k, s in enumerate(scores) if k != seat)
            print(f"{person:<9} vs two ai:{level:<7} wins {wins:g}/{args.games} ({100 * wins / args.games:.1f}%;"
                  f" a fair share is 33.3%), mean margin over the best computer {margin / args.games:+.1f} points")


if __name__ == "__main__":
    main()
