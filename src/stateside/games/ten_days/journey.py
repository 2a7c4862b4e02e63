"""The journey checker: every rule of "Completing a Journey" and "Special Travel Rules".

`check_journey(slots)` takes the ten days (card ids or faces; None for a slot not dealt
yet) and returns the links between consecutive state cards, each valid or not with a
reason, and the list of problems, each naming the days it concerns:

    day 3-4: Colorado and Arizona meet only at a corner

Days are numbered 1-10 in everything a player reads; slots are 0-9 in the code.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from stateside.games.ten_days.cards import (
    CAR,
    ISLANDS,
    CardSet,
    faces_of,
    is_state,
    is_transport,
    load_cards,
    plane_colour,
)

DAYS = 10


@dataclass(frozen=True)
class Link:
    """How the journey goes from one state card to the next."""
    kind: str             # "walk", "car" or "plane"
    start: int            # slot (0-9) of the state left
    end: int              # slot of the state reached (start + 1 on foot, start + 2 by transport)
    origin: str           # postal codes
    destination: str
    transport: str | None  # the face between them ("car", "plane-red"), None on foot
    reason: str = ""       # why the link is not valid; empty when it is

    @property
    def ok(self) -> bool:
        return not self.reason


@dataclass(frozen=True)
class Problem:
    first_day: int   # 1-10
    last_day: int
    reason: str

    def __str__(self) -> str:
        days = f"day {self.first_day}" if self.first_day == self.last_day else f"day {self.first_day}-{self.last_day}"
        return f"{days}: {self.reason}"


@dataclass(frozen=True)
class JourneyReport:
    links: tuple[Link, ...]
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


class TravelRules:
    """Which single connections are allowed, and why not; bound to a borders graph and a card set."""

    def __init__(self, borders, cards: CardSet):
        self.borders = borders
        self.cards = cards
        self._reasons: dict[tuple[str, str | None, str], str] = {}

    def name(self, code: str) -> str:
        return self.cards.state_name[code]

    def car_via(self, a: str, b: str) -> list[str]:
        """The third states an automobile can pass through between a and b."""
        return sorted((self.borders.neighbours(a) & self.borders.neighbours(b)) - {a, b})

    def reason(self, a: str, transport: str | None, b: str) -> str:
        """Why a -> b (on foot when transport is None) is not allowed; "" when it is."""
        key = (a, transport, b)
        found = self._reasons.get(key)
        if found is None:
            if transport is None:
                found = self._walk(a, b)
            elif transport == CAR:
                found = self._drive(a, b)
            else:
                found = self._fly(a, plane_colour(transport), b)
            self._reasons[key] = found
        return found

    def allowed(self, a: str, transport: str | None, b: str) -> bool:
        return not self.reason(a, transport, b)

    def _walk(self, a: str, b: str) -> str:
        if self.borders.adjacent(a, b):
            return ""
        na, nb = self.name(a), self.name(b)
        if a in ISLANDS and b in ISLANDS:
            return f"{na} and {nb} border no state; fly between them with an airplane of any colour"
        if a in ISLANDS or b in ISLANDS:
            island = na if a in ISLANDS else nb
            return f"{island} borders no other state; only an airplane reaches it"
        if tuple(sorted((a, b))) in self.cards.corner_only:
            return f"{na} and {nb} meet only at a corner"
        return f"{na} and {nb} do not share a border"

    def _drive(self, a: str, b: str) -> str:
        for code in (a, b):
            if code in ISLANDS:
                return f"an automobile cannot go to or from {self.name(code)}; only an airplane reaches it"
        if self.car_via(a, b):
            return ""
        return f"no state borders both {self.name(a)} and {self.name(b)}, so an automobile cannot connect them"

    def _fly(self, a: str, colour: str, b: str) -> str:
        colours = self.cards.colours
        ca, cb = self.cards.state_colour[a], self.cards.state_colour[b]
        plane = f"a {colours[colour].name} airplane"
        if a in ISLANDS and b in ISLANDS:
            return ""  # any colour flies between Alaska and Hawaii
        if a in ISLANDS or b in ISLANDS:
            other = b if a in ISLANDS else a
            want = self.cards.state_colour[other]
            if colour == want:
                return ""
            direction = f"from {self.name(a)}" if a in ISLANDS else f"to {self.name(b)}"
            return (f"flying {direction} needs an airplane of the colour of {self.name(other)}"
                    f" ({colours[want].name}), not {plane}")
        if ca != cb:
            return (f"{self.name(a)} ({colours[ca].name}) and {self.name(b)} ({colours[cb].name}) differ in colour;"
                    " an airplane flies only between two states of its own colour")
        if colour != ca:
            return f"{plane} cannot fly between two {colours[ca].name} states"
        return ""


def a_card(rules: TravelRules, face: str) -> str:
    """ "an automobile", "a red airplane", "California". """
    name = rules.cards.name(face)
    if is_state(face):
        return name
    return ("an " if name[0] in "aeiou" else "a ") + name


@cache
def travel_rules() -> TravelRules:
    """The rules for the bundled map and cards."""
    from stateside.geo.borders import load_borders

    return TravelRules(load_borders("ten-days"), load_cards())


def is_complete(slots: Sequence[str | None], rules: TravelRules | None = None) -> bool:
    """check_journey(slots, rules).valid, without the report: stops at the first fault (the
    rules ask it at every turn's end, where nearly every journey fails early)."""
    if len(slots) != DAYS:
        raise ValueError(f"a journey has {DAYS} days, got {len(slots)}")
    faces = faces_of(slots)
    if None in faces or not is_state(faces[0]) or not is_state(faces[-1]):
        return False
    rules = rules or travel_rules()
    i = 0
    while i < DAYS - 1:   # from one state card to the next: on foot, or by one transport card
        if is_state(faces[i + 1]):
            transport, step = None, 1
        elif is_state(faces[i + 2]):   # (a transport is never last: faces[-1] is a state)
            transport, step = faces[i + 1], 2
        else:
            return False   # two transport cards next to each other
        if rules.reason(faces[i], transport, faces[i + step]):
            return False
        i += step
    return True


def check_journey(slots: Sequence[str | None], rules: TravelRules | None = None) -> JourneyReport:
    """Check ten days against every rule; slots hold card ids or faces (None: no card yet)."""
    if len(slots) != DAYS:
        raise ValueError(f"a journey has {DAYS} days, got {len(slots)}")
    rules = rules or travel_rules()
    faces = faces_of(slots)
    problems: list[Problem] = []

    for i, face in enumerate(faces):
        if face is None:
            problems.append(Problem(i + 1, i + 1, "no card yet"))
    for i, what in ((0, "begin"), (DAYS - 1, "end")):
        if is_transport(faces[i]):
            problems.append(Problem(i + 1, i + 1,
                                    f"the journey must {what} with a state card, not {a_card(rules, faces[i])}"))
    for i in range(DAYS - 1):
        if is_transport(faces[i]) and is_transport(faces[i + 1]):
            problems.append(Problem(i + 1, i + 2, "two transport cards cannot be next to each other;"
                                    " each one must stand between two state cards"))

    links = []
    state_slots = [i for i, f in enumerate(faces) if is_state(f)]
    for start, end in zip(state_slots, state_slots[1:]):
        if end == start + 1:
            transport, kind = None, "walk"
        elif end == start + 2 and is_transport(faces[start + 1]):
            transport = faces[start + 1]
            kind = "car" if transport == CAR else "plane"
        else:
            continue  # an empty slot or two transports lie between: reported above
        a, b = faces[start], faces[end]
        link = Link(kind, start, end, a, b, transport, rules.reason(a, transport, b))
        links.append(link)
        if not link.ok:
            problems.append(Problem(start + 1, end + 1, link.reason))

    problems.sort(key=lambda p: (p.first_day, p.last_day))
    return JourneyReport(tuple(links), tuple(problems))
