"""Scrambled States figures: self-play win rates and round outcomes, how each computer level
fares against simulated people (the figures behind the levels' tuning), a computer player's
decision time, random-play speed of the rules, and the time to paint the table of 15 cards.

    python benchmarks/bench_scrambled_states.py [--games 200] [--seed 1]
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import statistics
import time

from stateside.engine.protocol import CHANCE
from stateside.games.scrambled_states.cards import load_cards
from stateside.games.scrambled_states.rules import ScrambledStates
from stateside.selfplay import format_stats, play_match, run_selfplay

GAME = "scrambled-states"

PAIRINGS = [
    ["ai:hard", "ai:easy"],
    ["ai:hard", "ai:medium"],
    ["ai:medium", "ai:easy"],
    ["ai:hard", "ai:hard"],
    ["ai:easy", "random"],
    ["ai:hard", "ai:medium", "ai:easy"],
]


def outcomes(specs: list[str], games: int, seed: int) -> None:
    kinds: collections.Counter = collections.Counter()
    rounds, cards = [], collections.Counter()
    for i in range(games):
        game = play_match(GAME, specs, seed + i).match.state
        kinds.update(e.kind for e in game.results)
        rounds.append(len(game.results))
        for seat, n in enumerate(game.scores()):
            cards[specs[seat]] += n
    total = sum(kinds.values())
    share = ", ".join(f"{k} {100 * v / total:.1f}%" for k, v in kinds.most_common())
    print(f"  rounds per game: mean {statistics.fmean(rounds):.1f}; round outcomes: {share}")
    won = sum(cards.values())
    print("  share of cards won: " + ", ".join(f"{s} {100 * n / won:.1f}%" for s, n in cards.items()))


LINEUPS = [["ai:easy"], ["ai:easy", "ai:easy"], ["ai:medium"], ["ai:hard"], ["ai:easy", "ai:medium", "ai:hard"]]


def against_people(games: int, seed: int) -> None:
    """A simulated person (ai.PEOPLE, the levels slow, casual and quick) against each line-up:
    the person's game wins and share of cards."""
    print("simulated person against the computers (person's wins / share of the cards won):")
    for person in ("slow", "casual", "quick"):
        cells = []
        for lineup in LINEUPS:
            stats = run_selfplay(GAME, [f"ai:{person}", *lineup], games, seed)
            means = [statistics.fmean(s.scores) for s in stats]
            share = means[0] / sum(means) if sum(means) else 0.0
            cells.append(f"{'+'.join(s[3:] for s in lineup)} {100 * stats[0].wins / stats[0].games:3.0f}%/{100 * share:2.0f}%")
        print(f"  {person:<6}  " + "  ".join(cells))


def random_play(games: int, players: int) -> None:
    """Actions per second of the rules alone: random legal actions from start to end (while
    the die rolls, time runs to it; otherwise any seat's action or time running to the next
    deadline, uniformly), chance sampled uniformly. Counted: seats' actions and time passing."""
    best, count, chance = 0.0, 0, 0
    for _ in range(3):
        count = chance = 0
        start = time.perf_counter()
        for seed in range(games):
            rng = random.Random(seed)
            g = ScrambledStates.new(ScrambledStates.default_setup(players))
            while not g.is_terminal():
                if g.current_player() == CHANCE:
                    outcomes = g.chance_outcomes()
                    g.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    chance += 1
                    continue
                if g.now() < g.round.reveal_at:
                    g.apply_action(g.advance_action(g.round.reveal_at))
                else:
                    options = [a for p in range(players) for a in g.legal_actions(p)]
                    k = rng.randrange(len(options) + 1)
                    g.apply_action(g.advance_action(g.next_deadline()) if k == len(options) else options[k])
                count += 1
        best = max(best, count / (time.perf_counter() - start))
    print(f"random play, {players} seats: {best:,.0f} actions/s ({count} actions and {chance} chance "
          f"outcomes in {games} games, best of 3)")


def paint_figures() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QApplication

    from stateside.games.scrambled_states.painting import paint_card

    app = QApplication.instance() or QApplication([])
    cards = load_cards()
    image = QImage(1280, 130, QImage.Format_ARGB32_Premultiplied)
    times = []
    for rep in range(20):
        t0 = time.perf_counter()
        p = QPainter(image)
        for i, code in enumerate(cards.codes[rep % 35: rep % 35 + 15]):
            paint_card(p, QRectF(5 + i * 84, 5, 80, 110), cards[code], cards)
        p.end()
        times.append((time.perf_counter() - t0) * 1000)
    print(f"paint 15 cards (80x110): first {times[0]:.1f} ms (shapes cached after), "
          f"median {statistics.median(times[1:]):.1f} ms")
    del app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    t0 = time.perf_counter()
    load_cards.cache_clear()
    load_cards()
    print(f"load the 50 cards (facts + cards.yaml, checked): {(time.perf_counter() - t0) * 1000:.1f} ms")

    for specs in PAIRINGS:
        t0 = time.perf_counter()
        stats = run_selfplay(GAME, specs, args.games, args.seed)
        secs = time.perf_counter() - t0
        print(f"{','.join(specs)}: {args.games} games in {secs:.2f} s ({1000 * secs / args.games:.2f} ms a game)")
        for line in format_stats(stats):
            print("  " + line)
        outcomes(specs, min(args.games, 100), args.seed)

    against_people(args.games, args.seed)

    decisions = []
    for i in range(50):
        rec = play_match(GAME, ["ai:hard", "ai:medium", "ai:easy"], args.seed + i)
        for seat in rec.decision_ms:
            decisions.extend(seat)
    decisions.sort()
    print(f"computer decision (the reaction that acted): median {statistics.median(decisions) * 1000:.1f} us, "
          f"p99 {decisions[int(len(decisions) * 0.99)] * 1000:.1f} us over {len(decisions)} actions")
    for players in (2, 4):
        random_play(200, players)
    paint_figures()


if __name__ == "__main__":
    main()
