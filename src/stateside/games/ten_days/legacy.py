"""Saves of 10 Days in the USA from before the engine protocol (save version 1).

Such a save held the seed of one random generator that shuffled the deck at the start
and at every reshuffle, and only the players' decisions. Replaying it needs that
shuffle exactly as it was; the cards it gave become the chance actions of today's log.
"""
from __future__ import annotations

import random

from stateside.engine.protocol import CHANCE
from stateside.errors import IllegalActionError, SaveError
from stateside.games.ten_days.cards import face_of, load_cards
from stateside.games.ten_days.rules import CARD, DISCARD, TenDaysState

SEAT_KINDS = ("human", "ai:easy", "ai:medium", "ai:hard")


class OldDeck:
    """The version-1 deck: Random(seed) shuffled the cards in the card set's order, the
    top card was the last one, and a reshuffle shuffled the buried discards, pile by pile."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.cards = [face_of(c) for c in load_cards().card_ids()]
        self.rng.shuffle(self.cards)

    def draw(self) -> str:
        return self.cards.pop()

    def reshuffle(self, piles: list[list[str]]) -> None:
        self.cards = [c for pile in piles for c in pile[:-1]]
        self.rng.shuffle(self.cards)


def _engine_fields(engine) -> tuple[int, int, int, int | None, list[str]]:
    if not isinstance(engine, dict):
        raise SaveError("10 Days in the USA: this save holds no game of 10 Days ('engine' is missing)")
    if engine.get("version") != 1:
        raise SaveError(f"10 Days in the USA: saved game version {engine.get('version')!r} is not supported")
    missing = [k for k in ("players", "seed", "first_player") if k not in engine]
    if missing:
        raise SaveError(f"10 Days in the USA: the saved game has no {missing[0]!r}")
    players, seed, first, limit = (engine.get(k) for k in ("players", "seed", "first_player", "turn_limit"))
    if not all(type(v) is int for v in (players, seed, first)) or not (limit is None or type(limit) is int):
        raise SaveError("10 Days in the USA: the saved setup is not valid (players, seed, first_player and"
                        " turn_limit must be whole numbers)")
    actions = engine.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise SaveError("10 Days in the USA: the saved game has no list of actions")
    return players, seed, first, limit, actions


def legacy_save(state: dict) -> dict:
    """The "state" of a version-1 save (the mode's {"engine", "seats", "hint", "log"})
    as a match: {"game", "rules_version", "setup", "seed", "seats", "actions"}."""
    if not isinstance(state, dict):
        raise SaveError("10 Days in the USA: the saved game is not a mapping")
    seats = state.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) and isinstance(s.get("name"), str)
                                              and s.get("kind") in SEAT_KINDS for s in seats):
        raise SaveError("10 Days in the USA: 'seats' must list a name and a kind"
                        f" ({', '.join(SEAT_KINDS)}) for each player")
    if "engine" not in state:
        raise SaveError("10 Days in the USA: this save holds no game of 10 Days ('engine' is missing)")
    players, seed, first, limit, old_actions = _engine_fields(state["engine"])
    if len(seats) != players:
        raise SaveError(f"10 Days in the USA: {len(seats)} seats for a game of {players} players")
    setup = {"players": [s["name"] for s in seats], "first_player": first, "turn_limit": limit}
    try:
        game = TenDaysState.new(setup)
    except ValueError as e:
        raise SaveError(f"10 Days in the USA: the saved setup is not valid ({e})") from None
    deck = OldDeck(seed)
    actions: list[str] = []

    def act(action: str) -> None:
        reshuffles = game.reshuffles
        piles = [list(p) for p in game.piles]
        if game.phase == DISCARD:  # the old reshuffle saw the piles with this discard on them
            piles[int(action.split(":")[1]) - 1].append(game.held)
        game.apply_action(action)
        actions.append(action)
        if game.reshuffles != reshuffles:
            deck.reshuffle(piles)

    for n, action in enumerate(old_actions, 1):
        try:
            while game.current_player() == CHANCE:
                act(CARD + deck.draw())
            act(action)
        except IllegalActionError as e:
            raise SaveError(f"10 Days in the USA: saved action {n} does not replay: {e}") from None
    while game.current_player() == CHANCE:
        act(CARD + deck.draw())
    return {"game": TenDaysState.spec.id, "rules_version": TenDaysState.spec.save_version, "setup": setup,
            "seed": seed, "seats": [s["kind"] for s in seats], "actions": actions,
            "hint": state.get("hint") is True}
