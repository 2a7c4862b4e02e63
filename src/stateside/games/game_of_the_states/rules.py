"""Game of the States: the rules of its three ways to play on the engine protocol (no Qt).

One game id, "game-of-the-states", with three variants chosen by setup["variant"]:

- "buy-and-sell" (the default): stateside.games.game_of_the_states.buy_sell;
- "trivia": stateside.games.game_of_the_states.trivia;
- "junior": stateside.games.game_of_the_states.junior.

Each module's docstring gives its rules with the rulebook's words and our decisions where
the rulebook is silent; in short, Special Rule #3 (named by the rulebook, never printed)
is ours: a destination card naming the buyer's own state, a state with one of the buyer's
disks for sale or a state with one of the seller's disks for sale goes to the bottom of
the draw pile and another card is drawn (a guard that never comes up in play: those
cards lie at the bottom from the setup on).

Setup: {"players": [2-4 names], "variant": "buy-and-sell" | "trivia" | "junior",
"answers": "typed" | "choices" (Trivia only)}. There is no random generator in the
rules: every card drawn ("card:XX") and every spin ("spin:N", sector N of our spinner)
is a chance action chosen and logged by the match layer.
"""
from __future__ import annotations

import json

from stateside.engine.protocol import CHANCE, GameSpec, State
from stateside.errors import IllegalActionError, InvalidActionError
from stateside.games.game_of_the_states.buy_sell import BuySell
from stateside.games.game_of_the_states.junior import Junior
from stateside.games.game_of_the_states.trivia import CHOICES, TYPED, Trivia

GAME_ID = "game-of-the-states"
VARIANTS = ("buy-and-sell", "trivia", "junior")
VARIANT_TITLES = {"buy-and-sell": "Buy and Sell", "trivia": "Trivia", "junior": "Junior"}
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_ACTION_TEXT = 80


class GameOfTheStates(State):
    spec = GameSpec(id=GAME_ID, min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, hidden_information=True,
                    has_scores=True, variants=VARIANTS, public_variants=("buy-and-sell", "junior"))

    def __init__(self, setup: dict, engine):
        self._setup = setup
        self.engine = engine

    @classmethod
    def new(cls, setup: dict) -> GameOfTheStates:
        if not isinstance(setup, dict):
            raise ValueError("the setup must be an object")
        if unknown := sorted(map(str, set(setup) - {"players", "variant", "answers"})):
            raise ValueError(f"the Game of the States setup has an unknown option {unknown[0]!r:.40} "
                             "(known: players, variant, answers)")
        names = setup.get("players")
        if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
            raise ValueError("\"players\" must list the players' names")
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise ValueError(f"Game of the States is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {len(names)}")
        variant = setup.get("variant", VARIANTS[0])
        if variant not in VARIANTS:
            raise ValueError(f"unknown way to play {variant!r:.40} (use {', '.join(VARIANTS)})")
        answers = setup.get("answers", TYPED)
        if answers not in (TYPED, CHOICES):
            raise ValueError(f"\"answers\" must be {TYPED!r} or {CHOICES!r}")
        if variant == "buy-and-sell":
            engine = BuySell(names)
        elif variant == "junior":
            engine = Junior(names)
        else:
            engine = Trivia(names, answers)
        return cls(dict(setup), engine)

    @classmethod
    def selfplay_report(cls, variant: str | None):
        """A tally of what the computers did, for `stateside selfplay` (Trivia: the facts
        asked; Buy and Sell: the take-overs and who finished buying first)."""
        from stateside.games.game_of_the_states.ai import BuySellTally, TriviaSpread

        if variant == "trivia":
            return TriviaSpread()
        if variant in (None, "buy-and-sell"):
            return BuySellTally()
        return None

    @classmethod
    def default_setup(cls, players: int) -> dict:
        return {"players": [f"Player {i + 1}" for i in range(players)], "variant": VARIANTS[0]}

    def clone(self) -> GameOfTheStates:
        return GameOfTheStates(self._setup, self.engine.clone())

    @property
    def setup(self) -> dict:
        return self._setup

    @property
    def variant(self) -> str:
        return self.engine.variant

    # --- turns ---------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.engine.current_player()

    def chance_outcomes(self):
        return self.engine.chance_outcomes()

    def legal_actions(self, seat: int | None = None) -> list:
        p = self.engine.current_player()
        if seat is None:
            return self.engine.legal() if p == CHANCE or p >= 0 else []
        if p < 0 or seat != p:
            return []
        return self.engine.legal()

    def candidate_actions(self, seat: int | None = None) -> list:
        return self.engine.candidates()

    def apply_action(self, action) -> list:
        if self.engine.current_player() < 0 and self.engine.current_player() != CHANCE:
            raise IllegalActionError("the game is over")
        if not isinstance(action, str) or not self.engine.is_legal(action):
            raise IllegalActionError(f"{str(action)[:60]!r} is not a legal move now")
        return self.engine.apply(action)

    # --- the end -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.engine.phase == "over"

    def returns(self) -> list[float]:
        n = self.num_players
        if not self.is_terminal() or not self.engine.winners:
            return [0.0] * n
        k = len(self.engine.winners)
        return [1 / k if s in self.engine.winners else 0.0 for s in range(n)]

    def scores(self) -> list[float]:
        return self.engine.scores()

    # --- views, checks, text -------------------------------------------------------------
    def observation(self, seat: int) -> dict:
        return self.engine.observation(seat)

    def check_invariants(self) -> None:
        self.engine.check()

    def action_to_json(self, action):
        return action

    def action_from_json(self, data):
        if not isinstance(data, str) or not 0 < len(data) <= MAX_ACTION_TEXT or ":" not in data and data not in (
                "accept", "respin"):
            raise InvalidActionError(f"{str(data)[:40]!r} is not a Game of the States move")
        return data

    def action_to_string(self, action) -> str:
        if not isinstance(action, str) or not self.engine.is_legal(action):
            return f"{str(action)[:60]!r} (not a legal move here)"
        return self.engine.describe(action)

    # --- who may see what ----------------------------------------------------------------
    # Trivia's card, from its draw until the question names its state, is the asker's alone;
    # everything else in the three ways to play is public (the deck's order does not exist,
    # Junior's face-down piles are drawn as they are turned over, Buy and Sell's destination
    # cards lie face up, and a card's answers follow from the state it names).
    def audience(self, action):
        return self.engine.audience(action)

    def describe(self, action, viewer: int | None, text: str | None = None) -> str:
        if viewer is None or viewer == self.actor(action) or not isinstance(action, str) \
                or not self.engine.is_legal(action):
            return text if text is not None else self.action_to_string(action)
        return self.engine.describe_for(action, viewer)

    @classmethod
    def consistent_with(cls, setup: dict, seat: int, observation: dict, rng) -> GameOfTheStates:
        state = cls.new(setup)
        if observation.get("seat") != seat or observation.get("names") != state.names:
            raise ValueError("the observation is not this seat's view of this game")
        state.engine.restore(observation, rng)
        return state

    def with_hidden_changed(self, viewer: int, rng):
        return self.consistent_with(self._setup, viewer, json.loads(json.dumps(self.observation(viewer))), rng)

