"""Seeded self-play between computer players (see stateside.selfplay)."""
from __future__ import annotations

import time

from stateside.selfplay import GameRecord

from .ai import make_player
from .engine import Game, Setup


def play_out(players: list[str], seed: int, sets: list[str] | None = None) -> tuple[Game, list[list[float]]]:
    """Play one whole game between player specs ("random", "ai:easy", "ai:hard");
    returns the finished game and each seat's decision times in ms."""
    names = [f"{spec} {i + 1}" for i, spec in enumerate(players)]
    setup = Setup(players=names, seed=seed)
    if sets is not None:
        setup.sets = list(sets)
    game = Game(setup)
    bots = [make_player(spec, seed=seed * 31 + i) for i, spec in enumerate(players)]
    decision_ms: list[list[float]] = [[] for _ in players]
    while not game.is_terminal():
        seat = game.current
        t0 = time.perf_counter()
        move = bots[seat].choose(game)
        decision_ms[seat].append((time.perf_counter() - t0) * 1000.0)
        game.apply_action(move)
    return game, decision_ms


def play_game(players: list[str], seed: int) -> GameRecord:
    """One seeded game with all three tile sets (114 tiles), as the shared runner expects."""
    game, decision_ms = play_out(players, seed)
    return GameRecord(winners=game.winners(), scores=[float(s) for s in game.scores],
                      decision_ms=decision_ms, turns=game.turn)
