"""The rules engine of 10 Days in the USA (no Qt).

A game is its setup (players, seed, who starts) plus the ordered list of actions; the
seed fixes every shuffle, so replaying the actions rebuilds the game exactly. Actions
are short strings, named for what a player does:

    deal phase      "day:N"      put the card just dealt to you in your empty day N (1-10);
                                 each player takes ten cards this way, then the next player
    draw phase      "draw"       take the top card of the face-down deck
                    "take:K"     take the top card of discard pile K (1-3)
    place phase     "day:N"      replace day N with the card you hold (the old card is now held)
                    "keep"       leave the journey as it is (the drawn card is now held)
    discard phase   "discard:K"  put the held card face up on pile K (an empty pile first)

At the end of a turn the mover's journey is checked; a valid one wins at once. When
the deck runs out, all discards but each pile's top card are shuffled into a new deck.
Cards are never rearranged: a journey changes only by replacing one day.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from stateside.errors import IllegalActionError, SaveError
from stateside.games.ten_days.cards import load_cards
from stateside.games.ten_days.journey import DAYS, check_journey

PILES = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 4
SAVE_VERSION = 1

DEAL, DRAW, PLACE, DISCARD, OVER = "deal", "draw", "place", "discard", "over"


@dataclass(frozen=True)
class Setup:
    players: int
    seed: int
    first_player: int = 0
    turn_limit: int | None = None  # total turns after which the game stops without a winner

    def __post_init__(self):
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"10 Days in the USA is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {self.players}")
        if not 0 <= self.first_player < self.players:
            raise ValueError(f"first player {self.first_player} is not a seat of {self.players}")


class TenDaysGame:
    """One game. Public state is read directly (journeys, piles, deck, phase...); change it
    only through apply_action so that the action list stays the whole story."""

    def __init__(self, setup: Setup):
        self.setup = setup
        self.rng = random.Random(setup.seed)
        deck = list(load_cards().card_ids())
        self.rng.shuffle(deck)
        self.deck: list[str] = deck                # top card = deck[-1]
        self.piles: list[list[str]] = [[] for _ in range(PILES)]  # top card = pile[-1]
        self.journeys: list[list[str | None]] = [[None] * DAYS for _ in range(setup.players)]
        self.current = setup.first_player
        self.phase = DEAL
        self.held: str | None = self.deck.pop()    # dealt, drawn or about to be discarded
        self.winner: int | None = None
        self.turns = 0                             # completed turns after the deal
        self.reshuffles = 0
        self.actions: list[str] = []

    # --- queries ---------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.setup.players

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        """1 for the winner and 0 for the others; all 0 while playing or after the turn limit."""
        return [1.0 if seat == self.winner else 0.0 for seat in range(self.players)]

    def pile_tops(self) -> list[str | None]:
        return [pile[-1] if pile else None for pile in self.piles]

    def legal_actions(self) -> list[str]:
        if self.phase == DEAL:
            return [f"day:{i + 1}" for i, card in enumerate(self.journeys[self.current]) if card is None]
        if self.phase == DRAW:
            acts = ["draw"] if self.deck else []
            return acts + [f"take:{k + 1}" for k, pile in enumerate(self.piles) if pile]
        if self.phase == PLACE:
            return [f"day:{i + 1}" for i in range(DAYS)] + ["keep"]
        if self.phase == DISCARD:
            empty = [k for k, pile in enumerate(self.piles) if not pile]
            return [f"discard:{k + 1}" for k in (empty or range(PILES))]
        return []

    def all_cards(self) -> list[str]:
        """Every card wherever it is (deck, piles, journeys, hand): always the 66 of the game."""
        cards = list(self.deck)
        for pile in self.piles:
            cards += pile
        for journey in self.journeys:
            cards += [c for c in journey if c is not None]
        if self.held is not None:
            cards.append(self.held)
        return cards

    # --- play --------------------------------------------------------------------
    def apply_action(self, action: str) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(self._why_illegal(action))
        kind, _, arg = action.partition(":")
        if self.phase == DEAL:
            self.journeys[self.current][int(arg) - 1] = self.held
            self.held = None
            self._next_deal()
        elif self.phase == DRAW:
            self.held = self.deck.pop() if kind == "draw" else self.piles[int(arg) - 1].pop()
            self.phase = PLACE
        elif self.phase == PLACE:
            if kind == "day":
                journey = self.journeys[self.current]
                slot = int(arg) - 1
                journey[slot], self.held = self.held, journey[slot]
            self.phase = DISCARD
        elif self.phase == DISCARD:
            self.piles[int(arg) - 1].append(self.held)
            self.held = None
            self._end_turn()
        self.actions.append(action)

    def _next_deal(self) -> None:
        # Each player takes their ten cards one at a time, then the next player does.
        # Nobody sees another's cards, so this deals exactly like drawing round the
        # table, and in hot-seat play the screen changes hands once per player.
        if None not in self.journeys[self.current]:
            self.current = (self.current + 1) % self.players
        if None in self.journeys[self.current]:
            self.held = self.deck.pop()
            return
        for pile in self.piles:  # the deal is over: three face-up discard piles
            pile.append(self.deck.pop())
        self.current = self.setup.first_player
        self.phase = DRAW

    def _end_turn(self) -> None:
        self.turns += 1
        if check_journey(self.journeys[self.current]).valid:
            self.winner = self.current
            self.phase = OVER
            return
        limit = self.setup.turn_limit
        if limit is not None and self.turns >= limit:
            self.phase = OVER
            return
        self.current = (self.current + 1) % self.players
        self.phase = DRAW
        if not self.deck:
            self._reshuffle()

    def _reshuffle(self) -> None:
        """The deck ran out: every discard except each pile's top card becomes the new deck."""
        for pile in self.piles:
            self.deck += pile[:-1]
            del pile[:-1]
        self.rng.shuffle(self.deck)
        self.reshuffles += 1

    def _why_illegal(self, action: str) -> str:
        if self.phase == OVER:
            return "the game is over"
        what = {DEAL: "place the dealt card in an empty day", DRAW: "draw a card from the deck or a discard pile",
                PLACE: "replace a day with the drawn card or keep your journey",
                DISCARD: "discard onto a pile (an empty pile first)"}[self.phase]
        return f"{action!r} is not possible now: it is time to {what} (possible: {', '.join(self.legal_actions())})"

    # --- copies, undo and saving ---------------------------------------------------
    def clone(self) -> "TenDaysGame":
        other = TenDaysGame.__new__(TenDaysGame)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.deck = list(self.deck)
        other.piles = [list(p) for p in self.piles]
        other.journeys = [list(j) for j in self.journeys]
        other.actions = list(self.actions)
        return other

    @classmethod
    def replay(cls, setup: Setup, actions: Sequence[str]) -> "TenDaysGame":
        game = cls(setup)
        for action in actions:
            game.apply_action(action)
        return game

    def undone(self, count: int = 1) -> "TenDaysGame":
        """The game as it was `count` actions ago (replayed, so the shuffles stay the same)."""
        return TenDaysGame.replay(self.setup, self.actions[: max(0, len(self.actions) - count)])

    def to_json(self) -> dict:
        s = self.setup
        return {"version": SAVE_VERSION, "players": s.players, "seed": s.seed, "first_player": s.first_player,
                "turn_limit": s.turn_limit, "actions": list(self.actions)}

    @classmethod
    def from_json(cls, data: dict) -> "TenDaysGame":
        """Rebuild a saved game; SaveError with a clear message if anything is off."""
        if not isinstance(data, dict):
            raise SaveError("10 Days in the USA: the saved game is not a mapping")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"10 Days in the USA: saved game version {data.get('version')!r} is not supported"
                            f" (this version reads {SAVE_VERSION})")
        try:
            limit = data.get("turn_limit")
            ints = [data["players"], data["seed"], data["first_player"]] + ([] if limit is None else [limit])
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in ints):
                raise TypeError
            setup = Setup(data["players"], data["seed"], data["first_player"], limit)
        except KeyError as e:
            raise SaveError(f"10 Days in the USA: the saved game has no {e.args[0]!r}") from None
        except (TypeError, ValueError) as e:
            why = str(e) or "players, seed, first_player and turn_limit must be whole numbers"
            raise SaveError(f"10 Days in the USA: the saved setup is not valid ({why})") from None
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise SaveError("10 Days in the USA: the saved game has no list of actions")
        game = cls(setup)
        for n, action in enumerate(actions, 1):
            try:
                game.apply_action(action)
            except IllegalActionError as e:
                raise SaveError(f"10 Days in the USA: saved action {n} does not replay: {e}") from None
        return game
