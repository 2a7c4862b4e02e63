"""Seeded self-play of Scrambled States in simulated time.

No clock is read for the game: each computer player plans its action when the die
lands, and the driver feeds the plans and the engine's own deadlines to the engine in
time order, so a whole game takes milliseconds and replays exactly under its seed.
"""
from __future__ import annotations

import time

from stateside.errors import IllegalActionError
from stateside.games.scrambled_states.ai import make_player
from stateside.games.scrambled_states.rules import ScrambledStates, Seat, Settings
from stateside.selfplay import GameRecord

MAX_STEPS = 100_000   # a safety net far above any real game (a few hundred steps)


def player_seed(seed: int, seat: int) -> int:
    return seed * 7919 + seat + 1


def simulate(game: ScrambledStates, players: dict, decision_ms: list[list[float]] | None = None) -> ScrambledStates:
    """Play `game` to its end; `players` maps seat -> computer player (ai.make_player)."""
    plans: dict[int, object] = {}
    planned_round = None
    for _ in range(MAX_STEPS):
        if game.over:
            return game
        r = game.round
        if game.now < r.reveal_at:
            game.advance(r.reveal_at)
            continue
        if planned_round != r.number:
            planned_round = r.number
            plans = {}
            for seat, player in players.items():
                t0 = time.perf_counter()
                plan = player.plan(game)
                if decision_ms is not None:
                    decision_ms[seat].append((time.perf_counter() - t0) * 1000)
                if plan is not None:
                    plans[seat] = plan
        deadline = game.next_deadline()
        due = min(plans.values(), key=lambda p: (p.t, p.action.player), default=None)
        if due is not None and (deadline is None or due.t <= deadline):
            del plans[due.action.player]
            try:
                game.apply_action(due.action)
            except IllegalActionError:
                pass   # e.g. the round ended first: the plan is simply dropped
        elif deadline is not None:
            game.advance(deadline)
    raise RuntimeError(f"self-play did not finish within {MAX_STEPS} steps")


def new_game(specs: list[str], seed: int, **options) -> tuple[ScrambledStates, dict]:
    seats = tuple(Seat(f"Seat {i + 1}", spec) for i, spec in enumerate(specs))
    game = ScrambledStates(Settings(seats, **options), seed)
    players = {i: make_player(spec, i, player_seed(seed, i)) for i, spec in enumerate(specs)}
    return game, players


def play_game(players: list[str], seed: int) -> GameRecord:
    """One seeded game between computer players ("random" or "ai:easy|medium|hard"), or
    simulated people ("person:slow|casual|quick") to see how the levels fare against people."""
    game, computer = new_game(players, seed)
    decision_ms: list[list[float]] = [[] for _ in players]
    simulate(game, computer, decision_ms)
    return GameRecord(
        winners=game.winners(),
        scores=[float(s) for s in game.scores()],
        decision_ms=decision_ms,
        turns=len(game.results),
    )
