"""Opening version-1 Carcassonne saves (before issue 10).

A version-1 save held {"game": {"setup": {... "seed": S}, "actions": [[x, y, rot, seg], ...]},
"seats": [{"name", "kind"}, ...]}: the stack was shuffled by random.Random(S) at setup and
the moves were replayed on it. Today a game is its setup plus its actions with every draw
logged, so the conversion deals the old stack once (the old shuffle, kept here) and writes
its tiles, in the order they were drawn, as draws between the moves.
"""
from __future__ import annotations

import random
from typing import Any

from stateside.engine.protocol import CHANCE
from stateside.errors import IllegalActionError, SaveError

from .engine import Game, Setup, draw
from .tiles import load_tile_set, tile_by_id

KINDS = {"human": "human", "easy": "ai:easy", "hard": "ai:hard"}


def old_stack(setup: Setup, seed: int) -> list[int]:
    """The version-1 stack of tile indices, the next to draw last (as Game dealt it)."""
    by_id = tile_by_id()
    pool: list[int] = []
    for name in setup.sets:
        for t in load_tile_set(name).tiles:
            pool.extend([by_id[t.id].index] * t.count)
    for tid, *_ in setup.start + setup.reserved:
        pool.remove(by_id[tid].index)
    pool.sort()
    random.Random(seed).shuffle(pool)
    return pool


def legacy_save(state: Any) -> dict:
    """The match dict (see Match.to_json) for the "state" of a version-1 Carcassonne save;
    SaveError naming what is wrong."""
    if not isinstance(state, dict) or not isinstance(state.get("seats"), list) \
            or not isinstance(state.get("game"), dict):
        raise SaveError("not a version-1 Carcassonne save (it needs a game and seats)")
    old = state["game"]
    raw = old.get("setup")
    if not isinstance(raw, dict) or not isinstance(old.get("actions"), list):
        raise SaveError("not a version-1 Carcassonne save (it needs a setup and a list of actions)")
    seed = raw.get("seed", 0)
    if type(seed) is not int:
        raise SaveError(f"the Carcassonne save's seed {seed!r} is not a whole number"[:200])
    try:
        game = Game(Setup.from_json({k: v for k, v in raw.items() if k != "seed"}))
    except ValueError as e:
        raise SaveError(f"the Carcassonne setup cannot be played: {e}") from None
    seats = []
    for i, s in enumerate(state["seats"], 1):
        if not isinstance(s, dict) or s.get("kind") not in KINDS:
            raise SaveError(f"Carcassonne save: seat {i} is malformed")
        seats.append(KINDS[s["kind"]])
    if len(seats) != game.n:
        raise SaveError(f"Carcassonne save: {len(seats)} seats for {game.n} players")
    stack = old_stack(game.conf, seed)
    actions: list = []

    def play(action) -> None:
        game.apply_action(action)
        actions.append(game.action_to_json(action))

    def draw_as_before() -> None:
        while game.current_player() == CHANCE:
            play(draw(game.tiles[stack.pop()].id))

    for i, move in enumerate(old["actions"], 1):
        draw_as_before()
        try:
            play(game.action_from_json(move))
        except (ValueError, IllegalActionError) as e:
            raise SaveError(f"Carcassonne save: move {i} cannot be replayed ({e})") from None
    draw_as_before()        # the tile that was in hand when it was saved
    return {"game": "carcassonne", "rules_version": Game.spec.save_version, "setup": game.setup,
            "seed": seed, "seats": seats, "actions": actions}
