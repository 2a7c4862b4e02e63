"""Seeded self-play for `stateside selfplay ten-days` (see stateside.selfplay)."""
from __future__ import annotations

import time
from typing import Callable

from stateside.games.ten_days.ai import make_player
from stateside.games.ten_days.rules import Setup, TenDaysGame
from stateside.selfplay import GameRecord

ROUNDS_LIMIT = 100  # a game stops without a winner after this many turns per player


def play_game(players: list[str], seed: int, on_action: Callable[[TenDaysGame], None] | None = None) -> GameRecord:
    """Play one game between the given player specs; `on_action` sees the game after every action."""
    game = TenDaysGame(Setup(len(players), seed, first_player=0, turn_limit=ROUNDS_LIMIT * len(players)))
    agents = [make_player(spec, seed * 7919 + seat) for seat, spec in enumerate(players)]
    decision_ms: list[list[float]] = [[] for _ in players]
    while not game.is_terminal():
        seat = game.current
        start = time.perf_counter()
        action = agents[seat].choose(game)
        decision_ms[seat].append((time.perf_counter() - start) * 1000)
        game.apply_action(action)
        if on_action is not None:
            on_action(game)
    winners = [] if game.winner is None else [game.winner]
    return GameRecord(winners=winners, decision_ms=decision_ms, turns=game.turns)
