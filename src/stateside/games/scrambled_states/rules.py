"""Scrambled States rules engine: a real-time slap game made deterministic by time stamps,
on the engine protocol (stateside.engine.protocol).

Nothing here reads a clock or draws a random number. Every seat's action carries its
time `t` (milliseconds since the game began) and is taken at the engine's current time
(`now()`); time passes only through the logged action `Advance(t)`, which works through
the engine's own deadlines on the way (the die landing, the tie window closing, a buzzer
running out, a round running out). Every card turned up and every roll of the die is a
chance node (`Turn`, `Roll`) that the match layer samples and logs, so the order of the
draw pile never exists before a card is drawn, and a game is exactly its setup plus its
ordered actions.

A round (rulebook, "How to Play"): the top card of the draw pile becomes the center
card, the die is rolled, and once the die has landed (`reveal_at`) everyone races:
- slap one of the face-up cards that matches the center card in the die's feature
  ("2": at least two features; "Hand": slap the center card itself);
- or call "No Match!" when none of the face-up cards matches ("No Match").
A wrong slap or a wrong call bars that player for the rest of the round ("Slip Slaps").
A correct slap wins the card unless another player slaps a different correct card
within the tie window; then each keeps the card slapped ("Ties"). The first to
`target` cards wins ("Ending the Game").

Where the rulebook is silent, our choices (also in the rules help):
- the center card fills the won card's space; after a tie the spaces are filled with
  the center card and then cards from the draw pile;
- a round that nobody wins (everyone barred, or `round_limit_ms` passes) is void: its
  center card stays buried in the center pile and the next card is turned over;
- when a new round needs a card and the draw pile is empty, the game ends and the
  player(s) with the most cards win; once the game is over nothing more is turned up.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from stateside.engine.protocol import CHANCE, SIMULTANEOUS, TERMINAL, GameSpec, InvariantError, State
from stateside.errors import IllegalActionError, InvalidActionError
from stateside.games.scrambled_states.cards import FEATURES, Card, CardSet, load_cards

FACES = ("region", "land-mass", "population", "colour", "two", "hand")
FACE_NAMES = {
    "region": "Region", "land-mass": "Land Mass", "population": "Population",
    "colour": "State Colour", "two": "2", "hand": "Hand",
}
FACE_UP = 15
SEAT_KINDS = ("slap", "no-match", "buzz")
WON_KINDS = ("win", "tie", "hand", "no-match")   # round outcomes in which cards are won
# Every wait a setup sets (tie window, round pause, round limit, buzzer) is at most 10
# minutes: the screens run these waits on Qt timers, which take 32-bit milliseconds
# (2**31 - 1 ms is 24.8 days), and no round needs longer.
MAX_WAIT_MS = 10 * 60 * 1000
# Game time in an action: far beyond any game (31 years), and exact as a float of seconds.
MAX_CLOCK_MS = 10**12
MAX_CARD_TEXT = 40        # characters of a card's code in an action

SPEC = GameSpec(
    id="scrambled-states", min_players=2, max_players=6, hidden_information=False, real_time=True,
    # The computer levels weakest first; the last three are simulated people (ai.PEOPLE),
    # for measuring the levels in self-play, not offered to players.
    ai_levels=("beginner", "easy", "medium", "hard", "slow", "casual", "quick"), has_scores=True,
)


# --- matching -------------------------------------------------------------------
def shared_features(center: Card, candidate: Card) -> list[str]:
    return [f for f in FEATURES if center.feature(f) == candidate.feature(f)]


# Spellings a caller may use for a die face (the die says "State Colour").
FACE_ALIASES = {"color": "colour", "landmass": "land-mass", "land mass": "land-mass", "2": "two"}


def card_matches(center: Card, candidate: Card, face: str) -> bool:
    """Does `candidate` match `center` on `face`? A card never matches itself: the center
    card is slapped only on Hand, where it is the one right card (not a match)."""
    face = FACE_ALIASES.get(face, face)
    if face == "hand":
        return candidate.code == center.code
    if candidate.code == center.code:
        return False
    if face == "two":
        return len(shared_features(center, candidate)) >= 2
    if face not in FEATURES:
        raise ValueError(f"unknown die face {face!r} (one of {', '.join(FACES)})")
    return center.feature(face) == candidate.feature(face)


def matches(center: str, candidate: str, face: str, cards: CardSet | None = None) -> bool:
    """Does the card `candidate` match the center card in the die's `face`?

    `center` and `candidate` are postal codes; `face` is one of region, land-mass,
    population, colour (or color), two (at least two features in common), or hand (the
    center card itself). Apart from Hand, a card never matches itself.
    """
    cards = cards or load_cards()
    return card_matches(cards[center], cards[candidate], face)


def describe_value(cards: CardSet, feature: str, card: Card) -> str:
    if feature == "region":
        return card.region
    if feature == "land-mass":
        return f"land-mass icon {card.land_mass} of 4, {cards.land_mass_label(card.land_mass)}"
    if feature == "population":
        n = card.population
        return f"{n} {'person' if n == 1 else 'people'}, {cards.population_label(n)}"
    return card.colour


def explain_match(cards: CardSet, center: Card, candidate: Card, face: str) -> str:
    """Why `candidate` matches `center`, in words for the feedback line."""
    if face == "hand":
        return "the center card on Hand"
    if face == "two":
        shared = [f.replace("-", " ") for f in shared_features(center, candidate)]
        return f"{len(shared)} features in common ({', '.join(shared[:-1])} and {shared[-1]})"
    return f"same {face.replace('-', ' ')} ({describe_value(cards, face, candidate)})"


# --- settings and actions --------------------------------------------------------
@dataclass(frozen=True)
class Settings:
    players: tuple[str, ...]         # the seats' names
    target: int = 10                 # cards needed to win ("Ending the Game")
    tie_window_ms: int = 200         # correct slaps on different cards this close together tie
    round_pause_ms: int = 2400       # from the end of a round until the next die lands: time to see
                                     # who won what (the mode shows it for 1.5 s) and the new card
    round_limit_ms: int = 20000      # a round nobody wins within this time is void; 0: untimed
                                     # rounds (practice, and games of people only)
    buzzer_seats: tuple[int, ...] = ()   # party play: these seats must buzz before picking
    buzz_window_ms: int = 3000       # time to pick after buzzing
    head_start_ms: int = 0           # practice: the computers look this long after the die lands
                                     # (a person finds the card at their own pace)

    def check(self) -> None:
        """ValueError, in words for a person, for settings no game can start from."""
        n = len(self.players)
        if not 2 <= n <= 6:
            raise ValueError(f"Scrambled States needs 2 to 6 players, not {n}.")
        if not 1 <= self.target <= 25:
            raise ValueError(f"The target must be between 1 and 25 cards, not {self.target!r:.40}.")
        for name in ("tie_window_ms", "round_pause_ms", "round_limit_ms", "buzz_window_ms", "head_start_ms"):
            if not 0 <= getattr(self, name) <= MAX_WAIT_MS:
                raise ValueError(f"{name} must be 0 to {MAX_WAIT_MS:,} ms (10 minutes), "
                                 f"not {getattr(self, name)!r:.40}.")
        if self.buzz_window_ms <= 0:
            raise ValueError("buzz_window_ms must be positive.")
        if any(not 0 <= s < n for s in self.buzzer_seats) or len(set(self.buzzer_seats)) != len(self.buzzer_seats):
            raise ValueError("buzzer_seats must name different seats of this game.")

    def to_setup(self) -> dict:
        """The protocol's setup dict: the players' names and every option."""
        d = dataclasses.asdict(self)
        d["players"] = list(self.players)
        d["buzzer_seats"] = list(self.buzzer_seats)
        return d

    @classmethod
    def from_setup(cls, setup: Any) -> Settings:
        """Settings from a setup dict; ValueError for anything malformed or out of range."""
        if not isinstance(setup, dict):
            raise ValueError("the setup must be an object")
        known = {f.name for f in dataclasses.fields(cls)}
        if unknown := sorted(set(setup) - known):
            raise ValueError(f"unknown setting {unknown[0]!r:.40} (known: {', '.join(sorted(known))})")
        players = setup.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError("\"players\" must list the players' names")
        buzzers = setup.get("buzzer_seats", [])
        if not isinstance(buzzers, list) or not all(type(s) is int for s in buzzers) or len(buzzers) > len(players):
            raise ValueError("buzzer_seats must be a list of seat numbers")
        values = {}
        for name in sorted(known - {"players", "buzzer_seats"}):
            if name in setup:
                if type(setup[name]) is not int:
                    raise ValueError(f"{name} must be a whole number, not {setup[name]!r:.40}")
                values[name] = setup[name]
        settings = cls(tuple(players), buzzer_seats=tuple(buzzers), **values)
        settings.check()
        return settings


@dataclass(frozen=True)
class Action:
    """A seat's action, taken at game time `t`."""
    kind: str            # "slap", "no-match" or "buzz"
    player: int
    t: int               # milliseconds since the game began
    card: str | None = None   # for "slap": the face-up card or the center card


def slap(player: int, card: str, t: int) -> Action:
    return Action("slap", player, int(t), card)


def no_match(player: int, t: int) -> Action:
    return Action("no-match", player, int(t))


def buzz(player: int, t: int) -> Action:
    return Action("buzz", player, int(t))


@dataclass(frozen=True)
class Advance:
    """Time passes to `t` (never beyond the next deadline)."""
    t: int


@dataclass(frozen=True)
class Turn:
    """Chance: `card` is the next card turned up (into an empty space, or as the center card)."""
    card: str


@dataclass(frozen=True)
class Roll:
    """Chance: the die lands on `face`."""
    face: str


@dataclass(frozen=True)
class Event:
    """Something that happened, for the view's feedback and the game log."""
    t: int
    kind: str        # reveal, slip, pending, late, win, hand, no-match, tie, void, buzz, buzz-timeout, game-over
    text: str
    players: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    round: int = 0
    center: str | None = None    # the round's center card and die face
    face: str | None = None


@dataclass
class Round:
    number: int
    center: str
    face: str
    reveal_at: int
    barred: set[int] = field(default_factory=set)
    pending: list[tuple[int, str, int]] = field(default_factory=list)   # correct slaps (player, card, t)
    buzz: tuple[int, int] | None = None    # (player, t) holding the buzzer
    announced: bool = False                # the "reveal" event has been sent
    first_action: int = 0                  # index in ScrambledStates.actions of this round's first action
    open_since: int = 0                    # the die landing, or the buzzer last released: players
                                           # held off by a buzzer start looking again from here


# --- the game ----------------------------------------------------------------------
class ScrambledStates(State):
    """One game. Players are seat indices 0..n-1."""

    spec = SPEC

    def __init__(self, settings: Settings, cards: CardSet | None = None):
        settings.check()
        self.settings = settings
        self._setup = settings.to_setup()
        self.cards = cards or load_cards()
        self.face_up: list[str | None] = [None] * FACE_UP
        self.draw: list[str] = list(self.cards.codes)   # the cards not yet turned up, in no order
        self.center_pile: list[str] = []                # top (the center card) is the end
        self.piles: list[list[str]] = [[] for _ in settings.players]
        self._now = 0
        self.round: Round | None = None
        self.round_count = 0
        self.over = False
        self.winner_seats: list[int] = []
        self.end_reason = ""
        self.actions: list[Action] = []            # the seats' actions, in order
        self.events: list[Event] = []
        self.results: list[Event] = []             # one outcome per finished round
        # What chance must turn up next, in order: a table space (its index), "center", "face".
        self.to_draw: list[int | str] = list(range(FACE_UP))
        self._new_round(0)

    # --- making and copying ------------------------------------------------------
    @classmethod
    def new(cls, setup: dict) -> ScrambledStates:
        return cls(Settings.from_setup(setup))

    @classmethod
    def default_setup(cls, players: int) -> dict:
        return Settings(tuple(f"Player {i + 1}" for i in range(players))).to_setup()

    @property
    def setup(self) -> dict:
        return self._setup

    def clone(self) -> ScrambledStates:
        twin = object.__new__(ScrambledStates)
        twin.__dict__.update(self.__dict__)   # settings, cards and events are immutable: shared
        twin._setup = dict(self._setup, players=list(self._setup["players"]),
                           buzzer_seats=list(self._setup["buzzer_seats"]))
        for name in ("face_up", "draw", "center_pile", "winner_seats", "actions", "events", "results", "to_draw"):
            setattr(twin, name, list(getattr(self, name)))
        twin.piles = [list(p) for p in self.piles]
        if self.round is not None:
            twin.round = dataclasses.replace(self.round, barred=set(self.round.barred),
                                             pending=list(self.round.pending))
        return twin

    # --- reading the state -------------------------------------------------------
    def name(self, player: int) -> str:
        return self.settings.players[player]

    def now(self) -> int:
        return self._now

    @property
    def center(self) -> str | None:
        return self.round.center if self.round and not self.to_draw else None

    @property
    def face(self) -> str | None:
        return self.round.face if self.round and not self.to_draw else None

    @property
    def phase(self) -> str:
        """over | dealing (cards or the die to turn up) | rolling (waiting for the die to
        land) | open (race on) | closing (tie window)."""
        if self.over:
            return "over"
        if self.to_draw:
            return "dealing"
        if self._now < self.round.reveal_at:
            return "rolling"
        return "closing" if self.round.pending else "open"

    def face_up_cards(self) -> list[str]:
        return [c for c in self.face_up if c]

    def matching_cards(self) -> list[str]:
        """The face-up cards a player may slap now (the center card on Hand)."""
        r = self.round
        if r is None or self.to_draw:
            return []
        if r.face == "hand":
            return [r.center]
        center = self.cards[r.center]
        return [c for c in self.face_up_cards() if card_matches(center, self.cards[c], r.face)]

    def is_barred(self, player: int) -> bool:
        return self.round is not None and not self.to_draw and player in self.round.barred

    def buzz_holder(self) -> int | None:
        return self.round.buzz[0] if self.round and self.round.buzz else None

    def buzz_deadline(self) -> int | None:
        if self.round and self.round.buzz:
            return self.round.buzz[1] + self.settings.buzz_window_ms
        return None

    def scores(self) -> list[int]:
        return [len(p) for p in self.piles]

    def is_terminal(self) -> bool:
        return self.over

    def winners(self) -> list[int]:
        return list(self.winner_seats)

    def returns(self) -> list[float]:
        """1/k for each of k winners (equal counts share the win), 0 otherwise."""
        k = len(self.winner_seats)
        return [1 / k if p in self.winner_seats else 0.0 for p in range(self.num_players)]

    def card_locations(self) -> dict[str, str]:
        """Where every card is: face-up, draw, center, or pile:<seat>; for invariant checks."""
        where: dict[str, str] = {}
        for place, codes in [("face-up", self.face_up_cards()), ("draw", self.draw), ("center", self.center_pile)]:
            for c in codes:
                where[c] = place
        for p, pile in enumerate(self.piles):
            for c in pile:
                where[c] = f"pile:{p}"
        return where

    def next_deadline(self) -> int | None:
        """The next time at which the game changes without anyone acting."""
        r = self.round
        if self.over or self.to_draw:
            return None
        if self._now < r.reveal_at:
            return r.reveal_at
        if r.pending:   # the tie window closes
            return r.pending[0][2] + self.settings.tie_window_ms
        if r.buzz:      # the buzzer runs out
            return r.buzz[1] + self.settings.buzz_window_ms
        if not self.settings.round_limit_ms:   # untimed: the round waits for the players
            return None
        return r.reveal_at + self.settings.round_limit_ms

    # --- the protocol: who acts, what is legal ----------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.to_draw else SIMULTANEOUS

    def actor(self, action) -> int:
        return (action.player if isinstance(action, Action)
                else CHANCE if isinstance(action, (Turn, Roll)) else SIMULTANEOUS)

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.over or not self.to_draw:
            return []
        if self.to_draw[0] == "face":
            return [(Roll(f), 1 / len(FACES)) for f in FACES]
        p = 1 / len(self.draw)
        return [(Turn(c), p) for c in self.draw]

    def legal_actions(self, seat: int | None = None) -> list:
        """`seat`'s actions at the current time (slips included: they are legal, just
        wrong). With seat None: the chance outcomes, or every seat's actions."""
        if seat is None:
            if self.to_draw:
                return [a for a, _ in self.chance_outcomes()]
            return [a for s in range(self.num_players) for a in self.legal_actions(s)]
        if self.over or self.to_draw or not 0 <= seat < self.num_players:
            return []
        now = self._now
        found = []
        if self._refusal(Action("no-match", seat, now)) is None:   # slaps and No Match are refused alike
            found = [Action("slap", seat, now, c) for c in self.face_up if c]
            found += [Action("slap", seat, now, self.round.center), Action("no-match", seat, now)]
        if seat in self.settings.buzzer_seats and self._refusal(Action("buzz", seat, now)) is None:
            found.append(Action("buzz", seat, now))
        return found

    def candidate_actions(self, seat: int | None = None) -> list:
        """Every card and die face for chance; for a seat, every kind of action on every
        card now, and actions a moment early or late."""
        if self.to_draw and seat is None:
            return [Turn(c) for c in self.cards.codes] + [Roll(f) for f in FACES]
        seats = range(self.num_players) if seat is None else [seat]
        now = self._now
        out: list = []
        for s in seats:
            out += [Action("slap", s, now, c) for c in self.cards.codes]
            out += [Action("no-match", s, now), Action("buzz", s, now), Action("slap", s, now),
                    Action("no-match", s, now, self.cards.codes[0]), Action("no-match", s, now + 1)]
            if now > 0:
                out.append(Action("no-match", s, now - 1))
        return out

    def advance_action(self, t: int) -> Advance:
        return Advance(int(t))

    def apply_action(self, action) -> list[Event]:
        """Apply a legal action and return what happened; IllegalActionError (nothing
        changed) for anything else."""
        if self.over:
            raise IllegalActionError("The game is over.")
        if isinstance(action, (Turn, Roll)):
            return self._draw(action)
        if self.to_draw:
            raise IllegalActionError("Wait: cards are being turned up and the die rolled.")
        if isinstance(action, Advance):
            deadline = self.next_deadline()
            if (type(action.t) is not int
                    or not self._now < action.t <= (MAX_CLOCK_MS if deadline is None else deadline)):
                raise IllegalActionError(f"Time can only pass from {self._now} ms up to the next deadline "
                                         f"({deadline} ms), not to {action.t!r} ms.")
            return self.advance(action.t)
        if not isinstance(action, Action):
            raise IllegalActionError(f"{action!r} is not a move of Scrambled States.")
        if action.t != self._now:
            if type(action.t) is int and action.t < self._now:
                raise IllegalActionError(f"Time cannot go backwards (clock at {self._now} ms, "
                                         f"action at {action.t} ms).")
            raise IllegalActionError(f"The clock is at {self._now} ms, not {action.t!r} ms: let time pass first.")
        if reason := self._refusal(action):
            raise IllegalActionError(reason)
        first = len(self.events)
        self.actions.append(action)
        if action.kind == "buzz":
            self._buzz(action)
        elif action.kind == "no-match":
            self._no_match(action)
        else:
            self._slap(action)
        return self.events[first:]

    def advance(self, t: int) -> list[Event]:
        """Let time pass until `t`, working through every deadline on the way; it stops
        early at a deadline after which chance must turn up a card or roll the die."""
        if t < self._now:
            raise IllegalActionError(f"Time cannot go backwards (clock at {self._now} ms, asked for {t} ms).")
        first = len(self.events)
        while not self.over and not self.to_draw:
            if self.round.reveal_at <= self._now:
                self._announce_if_due()
            deadline = self.next_deadline()
            if deadline is None or deadline > t:
                break
            if deadline == self.round.reveal_at and self._now < deadline:
                self._now = deadline
                continue
            self._pass_deadline(deadline)
        if not self.over and not self.to_draw:
            self._now = t
            self._announce_if_due()
        return self.events[first:]

    # --- the protocol: views, checks, text ----------------------------------------------
    def observation(self, seat: int) -> dict:
        """Everything on the table is public: every seat sees the same, except whose seat it is."""
        r = self.round if not self.to_draw else None
        return {
            "seat": seat,
            "players": list(self.settings.players),
            "buzzer_seats": list(self.settings.buzzer_seats),
            "target": self.settings.target,
            "head_start_ms": self.settings.head_start_ms,
            "now": self._now,
            "phase": self.phase,
            "face_up": list(self.face_up),
            "draw_count": len(self.draw),
            "center_pile": list(self.center_pile),
            "piles": [list(p) for p in self.piles],
            "round": None if r is None else {
                "number": r.number, "center": r.center, "face": r.face, "reveal_at": r.reveal_at,
                "open_since": r.open_since, "barred": sorted(r.barred),
                "pending": [list(p) for p in r.pending], "buzz": list(r.buzz) if r.buzz else None,
                "actions": [self.action_to_json(a) for a in self.actions[r.first_action:]],
            },
            "deadline": self.next_deadline(),
            "winners": list(self.winner_seats),
        }

    def check_invariants(self) -> None:
        codes = set(self.cards.codes)
        places = self.face_up_cards() + self.draw + self.center_pile + [c for p in self.piles for c in p]
        if len(places) != len(codes) or set(places) != codes:
            seen: set[str] = set()
            twice = sorted({c for c in places if c in seen or seen.add(c)})
            raise InvariantError(f"cards not conserved: {len(places)} placed, twice: {twice}, "
                                 f"missing: {sorted(codes - set(places))}")
        if len(self.face_up) != FACE_UP:
            raise InvariantError(f"{len(self.face_up)} table spaces, not {FACE_UP}")
        won = sum(len(e.cards) for e in self.results if e.kind in WON_KINDS)
        if won != sum(self.scores()):
            raise InvariantError(f"the piles hold {sum(self.scores())} cards but {won} were won")
        if self.over or self.to_draw:
            return
        r = self.round
        if self.center_pile[-1:] != [r.center]:
            raise InvariantError(f"the center card {r.center} is not on top of the center pile")
        if any(p in r.barred for p, _, _ in r.pending):
            raise InvariantError("a barred player has a pending slap")
        if r.buzz and (r.buzz[0] not in self.settings.buzzer_seats or r.buzz[0] in r.barred):
            raise InvariantError(f"seat {r.buzz[0]} holds the buzzer but may not")
        if (d := self.next_deadline()) is not None and d <= self._now and self._now >= r.reveal_at:
            raise InvariantError(f"a deadline ({d} ms) was not passed at {self._now} ms")

    def action_to_json(self, action) -> Any:
        if isinstance(action, Action):
            return [action.kind, action.player, action.t] + ([action.card] if action.card is not None else [])
        if isinstance(action, Advance):
            return ["advance", action.t]
        if isinstance(action, Turn):
            return ["card", action.card]
        if isinstance(action, Roll):
            return ["die", action.face]
        raise ValueError(f"{action!r} is not a move of Scrambled States")

    def action_from_json(self, data: Any):
        if not isinstance(data, list) or not data or not isinstance(data[0], str):
            raise InvalidActionError(f"a move is a list such as [\"slap\", 0, 1200, \"TX\"], not {str(data)[:60]}")
        kind, args = data[0], data[1:]
        if any(isinstance(a, str) and len(a) > MAX_CARD_TEXT for a in args):
            raise InvalidActionError(f"a card or a die face is a short code, not {str(data)[:60]}")
        if kind in SEAT_KINDS:
            if len(args) not in (2, 3) or type(args[0]) is not int or type(args[1]) is not int or \
                    (len(args) == 3 and not isinstance(args[2], str)):
                raise InvalidActionError(f"a {kind} is [\"{kind}\", seat, time in ms] (and a card for a slap), "
                                 f"not {str(data)[:60]}")
            if not 0 <= args[0] < self.num_players:
                raise InvalidActionError(f"a {kind} names seat {args[0]!r:.20}, "
                                         f"but the seats are 0 to {self.num_players - 1}")
            self._check_time(args[1])
            return Action(kind, args[0], args[1], args[2] if len(args) == 3 else None)
        if kind == "advance" and len(args) == 1 and type(args[0]) is int:
            self._check_time(args[0])
            return Advance(args[0])
        if kind == "card" and len(args) == 1 and isinstance(args[0], str):
            return Turn(args[0])
        if kind == "die" and len(args) == 1 and isinstance(args[0], str):
            return Roll(args[0])
        raise InvalidActionError(f"unknown move {str(data)[:60]} (slap, no-match, buzz, advance, card or die)")

    @staticmethod
    def _check_time(t: int) -> None:
        if not 0 <= t <= MAX_CLOCK_MS:
            raise InvalidActionError(f"a move's time is 0 to {MAX_CLOCK_MS:,} ms of game time, not {t!r:.20}")

    def action_to_string(self, action) -> str:
        if isinstance(action, Action):
            who = self.name(action.player) if 0 <= action.player < self.num_players else f"Seat {action.player}"
            at = f"{action.t / 1000:.1f} s into the game"   # the game clock, not a reaction time
            if action.kind == "slap":
                card = self.cards[action.card].name if action.card in self.cards else action.card
                return f"{who} slapped {card} {at}"
            return f"{who} {'called No Match' if action.kind == 'no-match' else 'buzzed'} {at}"
        if isinstance(action, Advance):
            return f"The clock ran on to {action.t / 1000:.1f} s"
        if isinstance(action, Turn):
            card = self.cards[action.card].name if action.card in self.cards else action.card
            need = self.to_draw[0] if self.to_draw else None
            if need == "center":
                return f"{card} was turned up as the center card"
            return f"{card} was dealt face up to space {need + 1}" if isinstance(need, int) else f"{card} was turned up"
        if isinstance(action, Roll):
            return f"The die landed on {FACE_NAMES.get(action.face, action.face)}"
        return repr(action)

    # --- internals ---------------------------------------------------------------
    def _draw(self, action) -> list[Event]:
        """Apply a chance outcome: the next card turned up, or the die's face."""
        need = self.to_draw[0] if self.to_draw else None
        if isinstance(action, Roll):
            if need != "face" or action.face not in FACES:
                raise IllegalActionError(f"The die cannot land on {action.face!r} now.")
        elif need is None or need == "face" or action.card not in self.draw:
            raise IllegalActionError(f"{action.card!r} cannot be turned up now.")
        self.to_draw.pop(0)
        if isinstance(action, Roll):
            self.round_count += 1
            reveal_at = self._now + self.settings.round_pause_ms
            self.round = Round(self.round_count, self.center_pile[-1], action.face, reveal_at,
                               first_action=len(self.actions), open_since=reveal_at)
            first = len(self.events)
            self._announce_if_due()
            return self.events[first:]
        self.draw.remove(action.card)
        if need == "center":
            self.center_pile.append(action.card)
        else:
            self.face_up[need] = action.card
        return []

    def _refusal(self, a: Action) -> str | None:
        """Why `a` cannot be taken now, or None. A wrong-but-possible slap is not refused: it slips."""
        if type(a.player) is not int or not 0 <= a.player < self.num_players:
            return f"There is no player {a.player}."
        if a.kind not in SEAT_KINDS:
            return f"Unknown action {a.kind!r}."
        phase = self.phase
        if phase == "over":
            return "The game is over."
        if phase == "rolling":
            return "Wait for the die to land."
        r = self.round
        who = self.name(a.player)
        if a.player in r.barred:
            return f"{who} slipped and {self._verb(a.player, 'sits', 'sit')} out the rest of this round."
        if any(p == a.player for p, _, _ in r.pending):
            return f"{who} {self._verb(a.player, 'has', 'have')} already slapped a card this round."
        if a.kind != "slap" and a.card is not None:
            return f"A {a.kind} names no card."
        buzzer = a.player in self.settings.buzzer_seats
        if a.kind == "buzz":
            if not buzzer:
                return f"{who} does not use a buzzer."
            if r.buzz:
                return f"{self.name(r.buzz[0])} has the buzzer."
            if r.pending:
                return "Too late to buzz: a card has been slapped."
            return None
        if r.buzz and r.buzz[0] != a.player:
            return f"{self.name(r.buzz[0])} has the buzzer."
        if buzzer and not r.buzz:
            return f"{who}: press your buzzer key first."
        if a.kind == "slap":
            if not a.card or (a.card not in self.face_up and a.card != r.center):
                what = self.cards[a.card].name if a.card in self.cards else (a.card or "That")
                return f"{what} is not one of the cards on the table."
        return None

    def _event(self, kind: str, text: str, players=(), cards=(), t: int | None = None) -> Event:
        r = self.round
        ev = Event(self._now if t is None else t, kind, text, tuple(players), tuple(cards),
                   r.number if r else self.round_count, r.center if r else None, r.face if r else None)
        self.events.append(ev)
        return ev

    def _verb(self, player: int, third_person: str, second_person: str) -> str:
        """A seat named "You" (the person in a one-person game) reads "You win", not "You wins"."""
        return second_person if self.name(player) == "You" else third_person

    def _card_name(self, code: str) -> str:
        return self.cards[code].name

    def _release_buzzer(self, player: int) -> None:
        r = self.round
        if r.buzz and r.buzz[0] == player:
            r.buzz = None
            r.open_since = self._now

    def _slip(self, player: int, text: str, cards=(), kind: str = "slip") -> None:
        r = self.round
        r.barred.add(player)
        self._release_buzzer(player)
        self._event(kind, text + f" {self.name(player)} {self._verb(player, 'sits', 'sit')} "
                                 "out the rest of this round.",
                    [player], cards)
        if not r.pending and len(r.barred) == self.num_players:
            self._void(self._now, "Everyone slipped")

    def _slap(self, a: Action) -> None:
        r = self.round
        center = self.cards[r.center]
        who = self.name(a.player)
        self._release_buzzer(a.player)
        card = self.cards[a.card]
        if r.face == "hand":
            correct = a.card == r.center
        else:
            correct = a.card != r.center and card_matches(center, card, r.face)
        if not correct:
            if r.face == "hand":
                why = f"the die shows Hand: only the center card, {center.name}, wins"
            elif a.card == r.center:
                why = "the center card is only slapped on Hand"
            else:
                why = f"it does not match {center.name} on {FACE_NAMES[r.face]}"
            self._slip(a.player, f"Slip slap! {who} slapped {card.name}, but {why}.", [a.card])
            return
        if any(c == a.card for _, c, _ in r.pending):
            self._event("late", f"{who} slapped {card.name} too, a moment too late.", [a.player], [a.card])
            return
        r.pending.append((a.player, a.card, a.t))
        # Buzzer seats cannot tie: nobody may buzz once a card is slapped.
        others_can_tie = r.face != "hand" and any(
            p not in r.barred and p not in self.settings.buzzer_seats and all(p != q for q, _, _ in r.pending)
            for p in range(self.num_players)
        )
        if len(r.pending) == 1:
            self._event("pending", f"{who} slapped {card.name}!", [a.player], [a.card])
        if not others_can_tie or self.settings.tie_window_ms == 0:
            self._award(self._now)

    def _no_match(self, a: Action) -> None:
        r = self.round
        center = self.cards[r.center]
        who = self.name(a.player)
        self._release_buzzer(a.player)
        if r.face == "hand":
            self._slip(a.player, f"Wrong call! The die shows Hand: {center.name} itself was there to slap.", [r.center])
            return
        found = self.matching_cards()
        if found or r.pending:
            names = ", ".join(self._card_name(c) for c in found[:3]) or "a slapped card"
            self._slip(a.player, f"Wrong call! {who} called No Match, but {names} matched {center.name}.", found)
            return
        self.center_pile.pop()
        self.piles[a.player].append(r.center)
        self._finish(self._now, "no-match", f"No Match! {who} {self._verb(a.player, 'was', 'were')} right and "
                     f"{self._verb(a.player, 'wins', 'win')}"
                     f" the center card, {center.name}.",
                     [a.player], [r.center])

    def _buzz(self, a: Action) -> None:
        self.round.buzz = (a.player, a.t)
        secs = self.settings.buzz_window_ms / 1000
        self._event("buzz", f"{self.name(a.player)} buzzed: pick a card within {secs:g} s.", [a.player])

    def _announce_if_due(self) -> None:
        """The die lands: announce the round once."""
        r = self.round
        if r is None or r.announced or self._now < r.reveal_at:
            return
        r.announced = True
        center = self.cards[r.center]
        self._event("reveal", f"Round {r.number}: {center.name}, the die shows {FACE_NAMES[r.face]}.",
                    cards=[r.center], t=r.reveal_at)

    def _pass_deadline(self, t: int) -> None:
        r = self.round
        t = max(t, self._now)
        self._now = t
        if r.pending:
            self._award(t)
        elif r.buzz and t >= r.buzz[1] + self.settings.buzz_window_ms:
            player = r.buzz[0]
            self._slip(player, f"Time! {self.name(player)} buzzed but did not pick in time.", kind="buzz-timeout")
        elif self.settings.round_limit_ms and t >= r.reveal_at + self.settings.round_limit_ms:
            self._void(t, "Time is up")

    def _award(self, t: int) -> None:
        """Close the round on its pending correct slap(s)."""
        r = self.round
        pending = r.pending
        r.pending = []
        self._now = max(self._now, t)
        center = self.cards[r.center]
        if r.face == "hand":
            p = pending[0][0]
            self.center_pile.pop()
            self.piles[p].append(r.center)
            self._finish(t, "hand", f"{self.name(p)} slapped the center card on Hand and "
                         f"{self._verb(p, 'wins', 'win')} {center.name}.", [p], [r.center])
            return
        emptied = []
        for p, code, _ in pending:
            slot = self.face_up.index(code)
            self.face_up[slot] = None
            emptied.append(slot)
            self.piles[p].append(code)
        # The center card takes the first space; chance turns up cards for the others.
        first, *others = sorted(emptied)
        self.face_up[first] = self.center_pile.pop()
        self.to_draw += others[:len(self.draw)]
        players = [p for p, _, _ in pending]
        cards = [c for _, c, _ in pending]
        if len(pending) == 1:
            p, code, _ = pending[0]
            why = explain_match(self.cards, center, self.cards[code], r.face)
            link = "with" if r.face == "two" else "as"
            self._finish(t, "win", f"{self.name(p)} {self._verb(p, 'wins', 'win')} {self._card_name(code)}:"
                         f" {why} {link} {center.name}.", players, cards)
        else:
            who = " and ".join(f"{self.name(p)} ({self._card_name(c)})" for p, c, _ in pending)
            self._finish(t, "tie", f"Tie! {who} slapped at the same time: each keeps the card.", players, cards)

    def _void(self, t: int, why: str) -> None:
        center = self.cards[self.round.center]
        self._finish(t, "void", f"{why}: nobody wins {center.name}; it stays under the center pile.", [], [])

    def _finish(self, t: int, kind: str, text: str, players: list[int], cards: list[str]) -> None:
        ev = self._event(kind, text, players, cards, t=t)
        self.results.append(ev)
        target = self.settings.target
        reached = [p for p in range(self.num_players) if len(self.piles[p]) >= target]
        if reached:
            best = max(len(self.piles[p]) for p in reached)
            self._end([p for p in reached if len(self.piles[p]) == best],
                      f"reached {target} cards")
            return
        self._new_round(t)

    def _new_round(self, t: int) -> None:
        """Chance turns up the center card and rolls the die; the die lands `round_pause_ms` later."""
        if len(self.draw) <= len(self.to_draw):   # every card left is already promised to a space
            scores = self.scores()
            best = max(scores)
            self._end([p for p in range(self.num_players) if scores[p] == best] if best > 0 else [],
                      "had the most cards when the draw pile ran out")
            return
        self._now = max(self._now, t)
        self.to_draw += ["center", "face"]

    def _end(self, winners: list[int], how: str) -> None:
        self.over = True
        self.to_draw = []
        self.winner_seats = winners
        if winners:
            names = " and ".join(self.name(p) for p in winners)
            text = f"{names} {self._verb(winners[0], 'wins', 'win') if len(winners) == 1 else 'win'}: {how}."
        else:
            text = "The draw pile ran out and nobody has a card: no winner."
        self.end_reason = text
        self._event("game-over", text, winners)
