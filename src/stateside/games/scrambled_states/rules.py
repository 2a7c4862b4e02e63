"""Scrambled States rules engine: a real-time slap game made deterministic by time stamps.

Nothing here reads a clock. Every action carries its time `t` (milliseconds since the
game began) and the engine changes state only at those times or at its own deadlines
(the die landing, the tie window closing, a buzzer running out, a round running out),
which `advance(t)` works through in order. Feeding the same actions with the same
seed therefore always gives the same game; a saved game is its seed, settings, the
accepted actions and the clock, and loading replays them.

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
  player(s) with the most cards win.
"""
from __future__ import annotations

import copy
import random
from dataclasses import asdict, dataclass, field
from typing import Any

from stateside.errors import IllegalActionError, SaveError
from stateside.games.scrambled_states.cards import FEATURES, Card, CardSet, load_cards

FACES = ("region", "land-mass", "population", "colour", "two", "hand")
MATCH_FACES = FACES[:5]   # the faces on which a face-up card can match
FACE_NAMES = {
    "region": "Region", "land-mass": "Land Mass", "population": "Population",
    "colour": "State Colour", "two": "2", "hand": "Hand",
}
FACE_UP = 15
SAVE_VERSION = 1


# --- matching -------------------------------------------------------------------
def shared_features(center: Card, candidate: Card) -> list[str]:
    return [f for f in FEATURES if center.feature(f) == candidate.feature(f)]


def card_matches(center: Card, candidate: Card, face: str) -> bool:
    if face == "two":
        return len(shared_features(center, candidate)) >= 2
    if face == "hand":
        return candidate.code == center.code
    if face not in FEATURES:
        raise ValueError(f"unknown die face {face!r} (one of {', '.join(FACES)})")
    return center.feature(face) == candidate.feature(face)


def matches(center: str, candidate: str, face: str, cards: CardSet | None = None) -> bool:
    """Does the card `candidate` match the center card in the die's `face`?

    `center` and `candidate` are postal codes; `face` is one of region, land-mass,
    population, colour, two (at least two features in common), or hand (the same card).
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
class Seat:
    name: str
    kind: str = "human"   # "human", "ai:easy|medium|hard" or "random": for the drivers, not the rules


@dataclass(frozen=True)
class Settings:
    seats: tuple[Seat, ...]
    target: int = 10                 # cards needed to win ("Ending the Game")
    tie_window_ms: int = 200         # correct slaps on different cards this close together tie
    round_pause_ms: int = 2400       # from the end of a round until the next die lands: time to see
                                     # who won what (the mode shows it for 1.5 s) and the new card
    round_limit_ms: int = 20000      # a round nobody wins within this time is void
    buzzer_seats: tuple[int, ...] = ()   # party play: these seats must buzz before picking
    buzz_window_ms: int = 3000       # time to pick after buzzing

    def check(self) -> None:
        n = len(self.seats)
        if not 2 <= n <= 6:
            raise IllegalActionError(f"Scrambled States needs 2 to 6 players, not {n}.")
        if not 1 <= self.target <= 25:
            raise IllegalActionError(f"The target must be between 1 and 25 cards, not {self.target}.")
        for name in ("tie_window_ms", "round_pause_ms", "round_limit_ms", "buzz_window_ms"):
            if getattr(self, name) < 0:
                raise IllegalActionError(f"{name} must not be negative.")
        if self.round_limit_ms <= 0 or self.buzz_window_ms <= 0:
            raise IllegalActionError("round_limit_ms and buzz_window_ms must be positive.")
        if any(not 0 <= s < n for s in self.buzzer_seats) or len(set(self.buzzer_seats)) != len(self.buzzer_seats):
            raise IllegalActionError("buzzer_seats must name different seats of this game.")

    def to_json(self) -> dict:
        d = asdict(self)
        d["seats"] = [asdict(s) for s in self.seats]
        d["buzzer_seats"] = list(self.buzzer_seats)
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Settings":
        """Settings from a save; ValueError or TypeError for anything malformed."""
        d = dict(d)
        d["seats"] = tuple(Seat(str(s["name"]), str(s.get("kind", "human"))) for s in d["seats"])
        d["buzzer_seats"] = tuple(int(s) for s in d.get("buzzer_seats", ()))
        for name in ("target", "tie_window_ms", "round_pause_ms", "round_limit_ms", "buzz_window_ms"):
            if name in d and (not isinstance(d[name], int) or isinstance(d[name], bool)):
                raise ValueError(f"{name} must be a whole number, not {d[name]!r}")
        return cls(**d)


@dataclass(frozen=True)
class Action:
    kind: str            # "slap", "no-match" or "buzz"
    player: int
    t: int               # milliseconds since the game began
    card: str | None = None   # for "slap": the face-up card or the center card

    def to_json(self) -> list:
        return [self.kind, self.player, self.t] + ([self.card] if self.card else [])

    @classmethod
    def from_json(cls, d: list) -> "Action":
        kind, player, t, *rest = d
        return cls(str(kind), int(player), int(t), str(rest[0]) if rest else None)


def slap(player: int, card: str, t: int) -> Action:
    return Action("slap", player, int(t), card)


def no_match(player: int, t: int) -> Action:
    return Action("no-match", player, int(t))


def buzz(player: int, t: int) -> Action:
    return Action("buzz", player, int(t))


@dataclass
class Event:
    """Something that happened, for the view's feedback and the game log."""
    t: int
    kind: str        # reveal, slip, pending, late, win, hand, no-match, tie, void, buzz, buzz-timeout, game-over
    text: str
    players: list[int] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
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


# --- the game ----------------------------------------------------------------------
class ScrambledStates:
    """One game. Players are seat indices 0..n-1."""

    def __init__(self, settings: Settings, seed: int, cards: CardSet | None = None):
        settings.check()
        self.settings = settings
        self.seed = int(seed)
        self.cards = cards or load_cards()
        self.rng = random.Random(self.seed)
        deck = list(self.cards.codes)
        self.rng.shuffle(deck)
        self.face_up: list[str | None] = deck[:FACE_UP]
        self.draw: list[str] = deck[FACE_UP:]      # top of the pile is the end of the list
        self.center_pile: list[str] = []           # top (the center card) is the end
        self.piles: list[list[str]] = [[] for _ in settings.seats]
        self.now = 0
        self.round: Round | None = None
        self.round_count = 0
        self.over = False
        self.winner_seats: list[int] = []
        self.end_reason = ""
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self.results: list[Event] = []             # one outcome per finished round
        self._new_round(0)

    # --- reading the state -------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.settings.seats)

    def name(self, player: int) -> str:
        return self.settings.seats[player].name

    @property
    def center(self) -> str | None:
        return self.round.center if self.round else None

    @property
    def face(self) -> str | None:
        return self.round.face if self.round else None

    @property
    def phase(self) -> str:
        """over | rolling (waiting for the die to land) | open (race on) | closing (tie window)."""
        if self.over or self.round is None:
            return "over"
        if self.now < self.round.reveal_at:
            return "rolling"
        return "closing" if self.round.pending else "open"

    def face_up_cards(self) -> list[str]:
        return [c for c in self.face_up if c]

    def matching_cards(self) -> list[str]:
        """The face-up cards a player may slap now (the center card on Hand)."""
        r = self.round
        if r is None:
            return []
        if r.face == "hand":
            return [r.center]
        center = self.cards[r.center]
        return [c for c in self.face_up_cards() if card_matches(center, self.cards[c], r.face)]

    def is_barred(self, player: int) -> bool:
        return self.round is not None and player in self.round.barred

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
        """OpenSpiel style: +1 each winner, 0 otherwise (a shared win is still a win)."""
        return [1.0 if p in self.winner_seats else 0.0 for p in range(self.players)]

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
        if self.over or r is None:
            return None
        if self.now < r.reveal_at:
            return r.reveal_at
        if r.pending:   # the tie window closes
            return r.pending[0][2] + self.settings.tie_window_ms
        if r.buzz:      # the buzzer runs out
            return r.buzz[1] + self.settings.buzz_window_ms
        return r.reveal_at + self.settings.round_limit_ms

    # --- acting --------------------------------------------------------------------
    def legal_actions(self, player: int) -> list[Action]:
        """Actions `player` may take at the current time (slips included: they are legal, just wrong)."""
        targets = self.face_up_cards() + ([self.center] if self.center else [])
        candidates = [Action("slap", player, self.now, c) for c in targets]
        candidates += [Action("no-match", player, self.now), Action("buzz", player, self.now)]
        return [a for a in candidates if self._refusal(a) is None]

    def check(self, action: Action) -> None:
        """Raise IllegalActionError if `action` cannot be taken at its time (the state is not changed)."""
        if action.t < self.now:
            raise IllegalActionError(f"Time cannot go backwards (clock at {self.now} ms, action at {action.t} ms).")
        probe = self
        if self._deadline_before(action.t):   # something happens first: look at a copy
            probe = self.clone()
            probe.advance(action.t)
        if reason := probe._refusal(action):
            raise IllegalActionError(reason)

    def apply_action(self, action: Action) -> list[Event]:
        """Advance the clock to the action's time and apply the action. Returns the events
        since the call began (deadlines passed on the way included). A refused action
        raises IllegalActionError; the clock has still moved to its time."""
        first = len(self.events)
        self.advance(action.t)   # time passes even for an action that is then refused
        if reason := self._refusal(action):
            raise IllegalActionError(reason)
        self.actions.append(action)
        if action.kind == "buzz":
            self._buzz(action)
        elif action.kind == "no-match":
            self._no_match(action)
        else:
            self._slap(action)
        return self.events[first:]

    def advance(self, t: int) -> list[Event]:
        """Let time pass until `t`, working through every deadline on the way."""
        t = int(t)
        if t < self.now:
            raise IllegalActionError(f"Time cannot go backwards (clock at {self.now} ms, asked for {t} ms).")
        first = len(self.events)
        while not self.over:
            if self.round.reveal_at <= self.now:
                self._announce_if_due()
            deadline = self.next_deadline()
            if deadline is None or deadline > t:
                break
            if deadline == self.round.reveal_at and self.now < deadline:
                self.now = deadline
                continue
            self._pass_deadline(deadline)
        if not self.over:
            self.now = t
            self._announce_if_due()
        return self.events[first:]

    # --- internals ---------------------------------------------------------------
    def _deadline_before(self, t: int) -> bool:
        d = self.next_deadline()
        return d is not None and d <= t

    def _refusal(self, a: Action) -> str | None:
        """Why `a` cannot be taken now, or None. A wrong-but-possible slap is not refused: it slips."""
        if not 0 <= a.player < self.players:
            return f"There is no player {a.player}."
        if a.kind not in ("slap", "no-match", "buzz"):
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
        ev = Event(self.now if t is None else t, kind, text, list(players), list(cards),
                   r.number if r else self.round_count, r.center if r else None, r.face if r else None)
        self.events.append(ev)
        return ev

    def _verb(self, player: int, third_person: str, second_person: str) -> str:
        """A seat named "You" (the person in a one-person game) reads "You win", not "You wins"."""
        return second_person if self.name(player) == "You" else third_person

    def _card_name(self, code: str) -> str:
        return self.cards[code].name

    def _slip(self, player: int, text: str, cards=()) -> None:
        r = self.round
        r.barred.add(player)
        if r.buzz and r.buzz[0] == player:
            r.buzz = None
        self._event("slip", text + f" {self.name(player)} {self._verb(player, 'sits', 'sit')} out the rest of this round.",
                    [player], cards)
        if not r.pending and len(r.barred) == self.players:
            self._void(self.now, "Everyone slipped")

    def _slap(self, a: Action) -> None:
        r = self.round
        center = self.cards[r.center]
        who = self.name(a.player)
        if r.buzz and r.buzz[0] == a.player:
            r.buzz = None
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
            for p in range(self.players)
        )
        if len(r.pending) == 1:
            self._event("pending", f"{who} slapped {card.name}!", [a.player], [a.card])
        if not others_can_tie or self.settings.tie_window_ms == 0:
            self._award(self.now)

    def _no_match(self, a: Action) -> None:
        r = self.round
        center = self.cards[r.center]
        who = self.name(a.player)
        if r.buzz and r.buzz[0] == a.player:
            r.buzz = None
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
        self._finish(self.now, "no-match", f"No Match! {who} {self._verb(a.player, 'was', 'were')} right and {self._verb(a.player, 'wins', 'win')}"
                     f" the center card, {center.name}.",
                     [a.player], [r.center])

    def _buzz(self, a: Action) -> None:
        self.round.buzz = (a.player, a.t)
        secs = self.settings.buzz_window_ms / 1000
        self._event("buzz", f"{self.name(a.player)} buzzed: pick a card within {secs:g} s.", [a.player])

    def _announce_if_due(self) -> None:
        """The die lands: announce the round once."""
        r = self.round
        if r is None or r.announced or self.now < r.reveal_at:
            return
        r.announced = True
        center = self.cards[r.center]
        self._event("reveal", f"Round {r.number}: {center.name}, the die shows {FACE_NAMES[r.face]}.",
                    cards=[r.center], t=r.reveal_at)

    def _pass_deadline(self, t: int) -> None:
        r = self.round
        t = max(t, self.now)
        self.now = t
        if r.pending:
            self._award(t)
        elif r.buzz and t >= r.buzz[1] + self.settings.buzz_window_ms:
            player = r.buzz[0]
            self._slip(player, f"Time! {self.name(player)} buzzed but did not pick in time.")
            self.events[-1].kind = "buzz-timeout"
        elif t >= r.reveal_at + self.settings.round_limit_ms:
            self._void(t, "Time is up")

    def _award(self, t: int) -> None:
        """Close the round on its pending correct slap(s)."""
        r = self.round
        pending = r.pending
        r.pending = []
        self.now = max(self.now, t)
        center = self.cards[r.center]
        if r.face == "hand":
            p = pending[0][0]
            self.center_pile.pop()
            self.piles[p].append(r.center)
            self._finish(t, "hand", f"{self.name(p)} slapped the center card on Hand and {self._verb(p, 'wins', 'win')} {center.name}.", [p], [r.center])
            return
        emptied = []
        for p, code, _ in pending:
            slot = self.face_up.index(code)
            self.face_up[slot] = None
            emptied.append(slot)
            self.piles[p].append(code)
        fill = [self.center_pile.pop()]
        while len(fill) < len(emptied) and self.draw:
            fill.append(self.draw.pop())
        for slot, code in zip(sorted(emptied), fill):
            self.face_up[slot] = code
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
        reached = [p for p in range(self.players) if len(self.piles[p]) >= target]
        if reached:
            best = max(len(self.piles[p]) for p in reached)
            self._end([p for p in reached if len(self.piles[p]) == best],
                      f"reached {target} cards")
            return
        self._new_round(t)

    def _new_round(self, t: int) -> None:
        if not self.draw:
            scores = self.scores()
            best = max(scores)
            self._end([p for p in range(self.players) if scores[p] == best] if best > 0 else [],
                      "had the most cards when the draw pile ran out")
            return
        self.round_count += 1
        code = self.draw.pop()
        self.center_pile.append(code)
        face = self.rng.choice(FACES)
        self.round = Round(self.round_count, code, face, t + self.settings.round_pause_ms)
        self._announce_if_due()

    def _end(self, winners: list[int], how: str) -> None:
        self.over = True
        self.winner_seats = winners
        if winners:
            names = " and ".join(self.name(p) for p in winners)
            text = f"{names} {self._verb(winners[0], 'wins', 'win') if len(winners) == 1 else 'win'}: {how}."
        else:
            text = "The draw pile ran out and nobody has a card: no winner."
        self.end_reason = text
        self._event("game-over", text, winners)

    # --- copying and saving ----------------------------------------------------------
    def clone(self) -> "ScrambledStates":
        cards = self.cards
        self.cards = None
        try:
            twin = copy.deepcopy(self)
        finally:
            self.cards = cards
        twin.cards = cards
        return twin

    def to_json(self) -> dict:
        return {
            "version": SAVE_VERSION,
            "seed": self.seed,
            "settings": self.settings.to_json(),
            "actions": [a.to_json() for a in self.actions],
            "now": self.now,
        }

    @classmethod
    def from_json(cls, data: Any, cards: CardSet | None = None) -> "ScrambledStates":
        """Rebuild a saved game by replaying its actions; SaveError if it does not replay."""
        if not isinstance(data, dict):
            raise SaveError("Scrambled States save: expected a mapping")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"Scrambled States save: version {data.get('version')!r} is not supported")
        try:
            settings = Settings.from_json(data["settings"])
            seed = int(data["seed"])
            actions = [Action.from_json(a) for a in data["actions"]]
            now = int(data.get("now", 0))
        except (KeyError, TypeError, ValueError) as e:
            raise SaveError(f"Scrambled States save: malformed ({type(e).__name__}: {e})") from None
        try:
            game = cls(settings, seed, cards)
            for a in actions:
                game.apply_action(a)
            game.advance(max(now, game.now))
        except IllegalActionError as e:
            raise SaveError(f"Scrambled States save: the moves do not replay ({e})") from None
        except KeyError as e:
            raise SaveError(f"Scrambled States save: unknown card {e}") from None
        return game

