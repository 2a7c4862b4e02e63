"""Seeded self-play for America (see stateside.selfplay)."""
from __future__ import annotations

import time
from functools import cache
from typing import Sequence

from stateside.games.america.ai import make_player
from stateside.games.america.rules import COLOURS, AmericaGame
from stateside.selfplay import GameRecord


@cache
def _bundled_deck() -> tuple:
    from stateside.games.america.deck import load_deck

    return load_deck()


def play_game(players: list[str], seed: int, deck: Sequence | None = None) -> GameRecord:
    """One whole game between the given player specs ("random", "ai:easy", ...)."""
    if deck is None:
        deck = _bundled_deck()
    names = [COLOURS[i][0] for i in range(len(players))]
    game = AmericaGame(names, deck=deck, seed=seed)
    seats = [make_player(spec, seed, seat) for seat, spec in enumerate(players)]
    decision_ms: list[list[float]] = [[] for _ in players]
    while not game.is_terminal():
        seat = game.current_player()
        t0 = time.perf_counter()
        action = seats[seat].choose_action(game)
        decision_ms[seat].append((time.perf_counter() - t0) * 1000)
        game.apply_action(action)
    return GameRecord(winners=[game.winner], scores=[float(s) for s in game.scores],
                      decision_ms=decision_ms, turns=len(game.actions))
