"""The protocol every game's rules implement (pure Python, no Qt).

A game is exactly its setup plus its ordered actions. Everything above the rules
(the match layer, saves, undo, replays, move logs, self-play, online play, the
conformance tests) reads and writes that one log, so every game must follow these
points, in the spirit of OpenSpiel's Python games and python-chess:

- ``State.new(setup)`` starts a game from a JSON-able setup dict. The setup always
  has ``"players"``: the seat names, one per seat; the rest is the game's options.
- ``current_player()`` is a seat (0..n-1) or one of CHANCE, SIMULTANEOUS, TERMINAL.
- Randomness is never drawn inside the rules: a shuffle is a series of chance nodes,
  each drawing one card (or tile, or die face) from ``chance_outcomes()``; the match
  layer picks the outcome with its own seeded generator and applies it as an ordinary
  action, so the log records it and a replay never re-runs a random generator. The
  order of a deck therefore does not exist before it is drawn, and no observation can
  leak it.
- ``legal_actions(seat)`` is exact: every listed action is accepted by ``apply_action``
  and every action it accepts is listed. ``apply_action`` raises IllegalActionError
  (stateside.errors) and leaves the state unchanged for anything else.
- Actions are hashable, comparable values (str, int, tuples, frozen dataclasses); they
  cross files and networks through ``action_to_json`` / ``action_from_json``.
- ``observation(seat)`` is JSON-able and holds only what that seat may know.
  Computer players get it and the legal actions, nothing more.
- Who may see an action is declared, never guessed: ``audience(action)`` names the
  seats that may see it (its JSON, its text and its events), ``describe(action, viewer)``
  words it for one seat, and each Event carries its own ``audience``. Online messages,
  each seat's move log, fair undo and replays all read these; the conformance test holds
  them against the observations (tests/audience_oracle.py).
- ``returns()`` is 1/k for each of k winners and 0 for everyone else (all 0 while the
  game goes on and for a game that ended without a winner).

Real-time games (GameSpec.real_time) add a clock in whole milliseconds of game time:
``now()``, ``next_deadline()`` and ``advance_action(t)``, the logged action that lets
time pass to t (no later than the next deadline). Seats' actions carry the time they
were taken; stateside.engine.clock drives such a game for the app and self-play alike.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from stateside.errors import IllegalActionError  # noqa: F401  (re-exported: rules raise it)

# What current_player() returns when no single seat is to act (OpenSpiel's values).
CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4

Action = Hashable


@dataclass(frozen=True)
class GameSpec:
    """What the layers above need to know about a game before it starts."""
    id: str                      # the game's id, as in GameInfo and in saves
    min_players: int
    max_players: int
    hidden_information: bool     # some seat may not see everything (hands, racks)
    real_time: bool = False      # seats act at any moment against a clock
    save_version: int = 1        # raised when a saved log no longer replays
    ai_levels: tuple[str, ...] = ("easy", "medium", "hard")   # computer levels, weakest first
    has_scores: bool = False     # scores() means points
    variants: tuple[str, ...] = ()   # ways to play, chosen by setup["variant"] (first = default)
    public_variants: tuple[str, ...] = ()   # ways to play in which every seat sees everything


EVERY_SEAT = None   # an audience: every seat may see it (the default)
SPECTATOR = -3      # a viewer who holds no seat: the public log, a spectator


@dataclass(frozen=True)
class Event:
    """Something that happened, for logs and the screen. Games may subclass it."""
    text: str = ""               # plain English, e.g. "Ada scored 7 points for Utah"
    kind: str = ""
    seats: tuple[int, ...] = ()  # the seats it concerns (who scored...)
    audience: frozenset[int] | None = EVERY_SEAT   # who may read it (see State.audience)


def sees(audience: frozenset[int] | None, seat: int) -> bool:
    """Whether `seat` is in `audience` (None: every seat)."""
    return audience is None or seat in audience


class InvariantError(AssertionError):
    """check_invariants() found the state inconsistent (a card lost, a marker twice...)."""


class State(ABC):
    """One game in progress. Subclasses set ``spec`` and implement the methods below."""

    spec: ClassVar[GameSpec]

    # --- making and copying --------------------------------------------------
    @classmethod
    @abstractmethod
    def new(cls, setup: dict) -> State:
        """A new game. Raise ValueError (with a message fit for a person) for a bad setup."""

    @classmethod
    def default_setup(cls, players: int) -> dict:
        """A sensible setup for `players` seats (names "Player 1"...)."""
        return {"players": [f"Player {i + 1}" for i in range(players)]}

    @abstractmethod
    def clone(self) -> State:
        """An independent copy: nothing mutable is shared with self."""

    # --- whose turn, what is legal -------------------------------------------
    @classmethod
    def upgrade_save(cls, body: dict, version: int) -> dict | None:
        """A save's body (as Match.to_json writes it) from the older rules version
        `version`, turned into one this version replays the same; None (the default):
        it cannot be, and loading refuses it with a clear message."""
        return None

    @property
    @abstractmethod
    def setup(self) -> dict:
        """The setup this game was made from (treat as read-only)."""

    @property
    def num_players(self) -> int:
        return len(self.setup["players"])

    @property
    def names(self) -> list[str]:
        return list(self.setup["players"])

    @abstractmethod
    def current_player(self) -> int:
        """A seat, or CHANCE, SIMULTANEOUS or TERMINAL."""

    @abstractmethod
    def legal_actions(self, seat: int | None = None) -> list:
        """The actions `seat` may take now ([] when it may take none). With seat None:
        the current player's actions, or at a chance node the chance outcomes."""

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance node: (action, probability) pairs, probabilities summing to 1."""
        return []

    @abstractmethod
    def apply_action(self, action) -> list:
        """Apply a legal action and return what happened (a list of Events). For an
        action not in legal_actions, raise IllegalActionError and change nothing."""

    def actor(self, action) -> int:
        """The seat that takes `action` now (CHANCE for a chance outcome). Games with
        simultaneous moves override this; turn-based games need not."""
        return self.current_player()

    # --- who may see what ------------------------------------------------------
    def audience(self, action) -> frozenset[int] | None:
        """The seats that may see `action`, about to be taken here: its JSON, its text
        and its events. EVERY_SEAT (None), or a set of seats; the acting seat always sees
        its own action, and an empty set means nobody (until the game ends, when every
        action is shown). It must agree with observation(): a seat outside the audience
        cannot tell this action from another one possible here (another chance outcome,
        another legal action of the actor), a seat inside it can. The default, every
        seat, is right for a game without hidden information."""
        return EVERY_SEAT

    def describe(self, action, viewer: int | None, text: str | None = None) -> str:
        """`action`, about to be taken here, in plain English as `viewer` may read it
        (None: everything, for a finished game and the referee's own record; SPECTATOR:
        someone who holds no seat, who sees what every seat sees). `text`, when the caller
        has it, is action_to_string(action): the match layer asks every viewer's words of
        every action, so the full words are not made again for each. The default:
        action_to_string for a seat in the audience (and the actor); otherwise only who
        acted. A game whose visible actions carry hidden details in their words (a card
        in hand named in "Ann put Virginia on day 10") overrides this."""
        actor = self.actor(action)
        if viewer is None or viewer == actor or sees(self.audience(action), viewer):
            return text if text is not None else self.action_to_string(action)
        if actor == CHANCE:
            return "A card was drawn."
        return f"{self.names[actor]} made a hidden move."

    # --- the end ---------------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]:
        """1/k for each of k winners, 0 for the others; all 0 before the end."""

    def scores(self) -> list[float] | None:
        """Points per seat where the game has points, else None."""
        return None

    # --- views, checks, text ---------------------------------------------------
    @abstractmethod
    def observation(self, seat: int) -> dict:
        """JSON-able: everything `seat` may know, nothing it may not."""

    @abstractmethod
    def check_invariants(self) -> None:
        """Raise InvariantError when cards, tiles, markers or money are not conserved."""

    @abstractmethod
    def action_to_json(self, action) -> Any:
        """A JSON value for `action` (str, number, list or dict)."""

    @abstractmethod
    def action_from_json(self, data: Any):
        """The action `data` stands for; ValueError with a clear message when malformed."""

    @abstractmethod
    def action_to_string(self, action) -> str:
        """`action`, about to be taken in this state, in plain English for a move log:
        "Ada took the top card of pile 2 and put it on day 7"."""

    # --- for the conformance tests ---------------------------------------------
    def candidate_actions(self, seat: int | None = None) -> list:
        """A superset of legal_actions(seat): every action of the right shape that could
        be tried here, legal or not (all squares x rotations x spots, every state...).
        The conformance test applies each to a clone: what is accepted must be listed."""
        return self.legal_actions(seat)

    # --- a consistent world -----------------------------------------------------
    @classmethod
    def consistent_with(cls, setup: dict, seat: int, observation: dict, rng) -> State | None:
        """A whole state that `seat` cannot tell from the real one, made from the game's
        setup and the seat's observation alone (as OpenSpiel's resample_from_infostate):
        its observation(seat) is `observation`, its legal actions are the real ones, and
        what the seat cannot know (others' hands, unseen tiles, the deck's cards, answers
        not yet revealed) is dealt with `rng` among what is possible. The online client
        builds its game with it; computers that re-deal may use it. None for a game
        without hidden information (its observation is the whole game)."""
        return None

    # --- hidden information, for the tests of computer players -----------------
    def with_hidden_changed(self, viewer: int, rng) -> State | None:
        """A copy in which what `viewer` may not know is changed (others' hands dealt
        differently, the unseen cards swapped) while everything `viewer` may know stays.
        Games with hidden information implement it; the conformance test checks that
        observation(viewer) and the computer's choice do not change."""
        return None

    # --- real time (GameSpec.real_time) ----------------------------------------
    def now(self) -> int:
        return 0

    def next_deadline(self) -> int | None:
        return None

    def advance_action(self, t: int):
        """The action that lets game time pass to t (now <= t <= next deadline)."""
        raise NotImplementedError


class Player(ABC):
    """A computer player. It sees only its seat's observation and its legal actions."""

    def __init__(self, seat: int, rng):
        self.seat = seat
        self.rng = rng

    @abstractmethod
    def choose(self, observation: dict, legal: Sequence) -> Any:
        """One of `legal` (turn-based games)."""

    def react(self, observation: dict, legal: Sequence, now: int) -> tuple[int, Any] | None:
        """Real-time games: (t, action) with the action stamped at game time t >= now
        (it must be legal once time has advanced to t), or None to wait."""
        return None


class RandomPlayer(Player):
    """Uniformly random legal actions: the baseline every game has."""

    def choose(self, observation: dict, legal: Sequence) -> Any:
        return legal[self.rng.randrange(len(legal))]

    def react(self, observation: dict, legal: Sequence, now: int) -> tuple[int, Any] | None:
        # Real time: half the time act at once with a random action, else let time pass.
        if legal and self.rng.random() < 0.5:
            return now, legal[self.rng.randrange(len(legal))]
        return None
