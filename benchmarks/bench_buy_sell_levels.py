"""Buy and Sell (Game of the States): how much can skill win? Ceilings for the computer levels.

    python benchmarks/bench_buy_sell_levels.py oracle [--games 20] [--seed 1]
    python benchmarks/bench_buy_sell_levels.py search [--futures 16] [--games 66] [--seed 1]
    python benchmarks/bench_buy_sell_levels.py luck [--games 600] [--seed 1]

The head-to-head figures themselves come from `stateside selfplay game-of-the-states
--variant buy-and-sell --players ai:hard,ai:medium --games 2000 --seed 1` (seats rotate each
game). This script measures what bounds them (figures: benchmarks/SELFPLAY.md):

- oracle: a player that sees the future. The match layer draws the chance outcome at log
  position n from Random(f"{seed}:chance:{n}"), so a copy of the game can replay the real
  spins and cards: at each decision it plays every legal choice out to the end (both
  players then following medium's rules) and keeps the best. Not a fair player: it shows
  how much the spins decide.
- search: the fair version. The same look-ahead over K sampled futures (the same K for
  every choice); nothing in Buy and Sell is hidden, so a copy of the game is what the
  observation shows.
- luck: medium against medium: the spread of the final difference in money against the
  spread that the 16 spun prices alone make, and the take-overs (the one way a decision
  moves money for good).
Game i has seed SEED+i; the measured player sits first in even games, second in odd ones.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time

from stateside.engine.log import chance_rng
from stateside.engine.match import Match, rules_for
from stateside.engine.protocol import CHANCE, TERMINAL
from stateside.games.game_of_the_states.ai import GotsPlayer
from stateside.games.game_of_the_states.buy_sell_plan import spinner_numbers
from stateside.selfplay import play_match, wilson

SETUP = {**rules_for("game-of-the-states").default_setup(2), "variant": "buy-and-sell"}


def play_rest(eng, n: int, seed: int, players, rng) -> list[int]:
    """Play the engine to its end; chance from the real seed (rng None) or from rng."""
    while True:
        p = eng.current_player()
        if p == TERMINAL:
            return eng.money
        if p == CHANCE:
            outs = eng.chance_outcomes()
            r = chance_rng(seed, n) if rng is None else rng
            a = r.choices([a for a, _ in outs], weights=[w for _, w in outs])[0]
        else:
            legal = eng.legal()
            a = legal[0] if len(legal) == 1 else players[p].choose(eng.observation(p), legal)
        eng.apply(a)
        n += 1


def won(money: list[int], me: int) -> float:
    top = max(money)
    return 1 / money.count(top) if money[me] == top else 0.0


def look_ahead(games: int, seed0: int, futures: int | None) -> None:
    wins = 0.0
    decisions, spent = 0, 0.0
    for g in range(games):
        seed, me = seed0 + g, g % 2
        m = Match("game-of-the-states", ["ai:medium", "ai:medium"], seed, SETUP)
        rollout = [GotsPlayer(s, random.Random(0), "medium") for s in range(2)]
        while not m.is_over():
            st = m.state
            legal = st.legal_actions(me) if st.current_player() == me else []
            if len(legal) < 2:
                m.step()
                continue
            start = time.perf_counter()
            n = len(m.log)
            best, best_v = legal[0], -1.0
            for a in legal:
                v = 0.0
                for k in range(futures or 1):
                    c = st.engine.clone()
                    c.apply(a)
                    rng = None if futures is None else random.Random(f"{seed}:{n}:{k}")
                    money = play_rest(c, n + 1, seed, rollout, rng)
                    v += won(money, me) + (money[me] - money[1 - me]) / 1e7   # the money breaks ties
                if v > best_v:
                    best, best_v = a, v
            decisions += 1
            spent += time.perf_counter() - start
            m.apply(best)
        wins += won(m.state.engine.money, me)
        print(f"game {g + 1}: {wins:g} won", flush=True)
    lo, hi = wilson(wins, games)
    what = "oracle (the real future)" if futures is None else f"search ({futures} sampled futures)"
    print(f"{what} vs medium: {wins:g}/{games} = {100 * wins / games:.1f}% "
          f"(95% interval {100 * lo:.1f}-{100 * hi:.1f}%), {1000 * spent / max(decisions, 1):.0f} ms per decision")


def luck(games: int, seed0: int) -> None:
    diffs, takeovers, jams_loaded = [], 0, 0
    for g in range(games):
        r = play_match("game-of-the-states", ["ai:medium", "ai:medium"], seed0 + g, SETUP)
        money = r.match.state.engine.money
        diffs.append(money[0] - money[1])
        for e in r.match.log:
            for ev in e.events:
                takeovers += ev.kind == "takeover"
                jams_loaded += ev.kind in ("takeover", "reload")
    _, _, _, mean, var = spinner_numbers()
    prices = 16     # each of the 8 disks is bought and sold back at a spun price
    print(f"medium vs medium, {games} games: final difference sd ${statistics.pstdev(diffs):,.0f}; "
          f"16 prices alone (mean ${mean:.0f}, sd ${math.sqrt(var):.0f} each, each moving the "
          f"difference twice its value): sd ${2 * math.sqrt(prices * var):,.0f}")
    print(f"loaded trucks jammed {jams_loaded / games:.2f} per game, of which taken over "
          f"{takeovers / games:.2f} (each worth about $1,150 of difference)")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("oracle", "search", "luck"))
    ap.add_argument("--games", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--futures", type=int, default=16)
    a = ap.parse_args(argv)
    if a.what == "luck":
        luck(a.games or 600, a.seed)
    else:
        look_ahead(a.games or (20 if a.what == "oracle" else 66), a.seed,
                   None if a.what == "oracle" else a.futures)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
