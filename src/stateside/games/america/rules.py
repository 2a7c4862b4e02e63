"""America: rules, scoring and the game engine (pure Python, no Qt).

Scoring API, for tests and tools::

    YEAR_BAR, NUMBER_BAR                 # space labels in order, e.g. "1875", "10M"
    space_for("year", 1880) -> "1875"    # the space that holds an answer
    score_card({"year": 1880, "state": "FL", "number": 12_000_000},
               [("Red", "state", "FL"), ("Blue", "number", "no-exact"), ...]) -> {"Red": 7, ...}

The engine, ``AmericaGame``, implements stateside.engine.protocol.State and follows the
rulebook's four steps for each card: the start player moves one seat clockwise, chooses
one of the two topics offered (answers hidden), everyone from the start player's left
places one marker a turn or passes, and the card is scored year, state, number. After six
cards the highest score wins; a tie goes to the most markers in supply, then to showdown
cards between the tied players.

Setup: {"players": [names], "start_player": seat, "used_topics": [topic ids played in
earlier games]}: the box state kept between games, so that no card comes back before the
box has gone round. A game draws whole cards: the side a card shows is the one not yet
played, and its other side stays out of this game. "v1_rules": true keeps a game begun
before that (converted from a version-1 save) on the rules it began with: topics drawn
one by one, and the end-of-game tie counted after the markers came back.

Actions are short strings (saved as they are)::

    "draw:12A"                      chance: the box shows topic 12A (one topic at a time)
    "choose:0" / "choose:1"         the start player takes the first or second topic offered
    "place:<section>:<space>"       e.g. "place:state:GA", "place:year:1875",
                                    "place:number:no-exact-or-adjacent"
    "pass"
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache, partial
from types import MappingProxyType

from stateside.engine.protocol import CHANCE, EVERY_SEAT, TERMINAL, Event, GameSpec, InvariantError, State
from stateside.errors import DataError, IllegalActionError, InvalidActionError
from stateside.games.america.bars import Bar, load_bars

SECTIONS = ("year", "state", "number")
NO_EXACT = "no-exact"
NO_EXACT_OR_ADJACENT = "no-exact-or-adjacent"
NO_EXACT_SPACES = (NO_EXACT, NO_EXACT_OR_ADJACENT)
NO_EXACT_NAMES = {NO_EXACT: "No Exact", NO_EXACT_OR_ADJACENT: "No Exact or Adjacent"}

EXACT_POINTS = 7
ADJACENT_POINTS = 3
NO_EXACT_POINTS = 3
NO_EXACT_OR_ADJACENT_POINTS = 7

MIN_PLAYERS, MAX_PLAYERS = 2, 6
MARKERS = 6                 # per player; one of them sits on the score track
MARKERS_IN_PLAY = MARKERS - 1
REFILL_TO = 3
CARDS_PER_GAME = 6

# The rulebook's six marker colours, in the order seats take them (strong contrasts
# first), each with a letter so that colour is never the only cue.
COLOURS = (
    ("Red", "#d32f2f", "R"),
    ("Blue", "#1565c0", "B"),
    ("White", "#fafafa", "W"),
    ("Black", "#212121", "K"),
    ("Silver", "#9e9e9e", "S"),
    ("Light Blue", "#4fc3f7", "L"),
)

_BARS = load_bars()
YEAR_BAR: tuple[str, ...] = _BARS["year"].labels
NUMBER_BAR: tuple[str, ...] = _BARS["number"].labels


def bar(section: str) -> Bar:
    try:
        return _BARS[section]
    except KeyError:
        raise DataError(f"{section!r} has no bar (bars: year, number)") from None


@cache
def _borders():
    from stateside.geo.borders import load_borders

    return load_borders("america")


@cache
def _states():
    from stateside.data.states import load_states

    return load_states()


def state_codes() -> tuple[str, ...]:
    return tuple(sorted(_states()))


def state_name(code: str) -> str:
    return _states()[code].name


def states_adjacent(a: str, b: str) -> bool:
    """Adjacency for America scoring: the `america` borders ruleset (AK-HI adjacent)."""
    return _borders().adjacent(a, b)


def state_neighbours(code: str) -> frozenset[str]:
    return _borders().neighbours(code)


def mississippi_side(code: str) -> str:
    """"east" or "west": the hint the start player reads from the card."""
    return _states()[code].mississippi


def space_for(section: str, value) -> str:
    """The space of `section` that holds the answer `value` (a state answer is its code)."""
    if section == "state":
        if value not in _states():
            raise DataError(f"state answer {value!r} is not a state postal code")
        return value
    if section not in ("year", "number"):
        raise DataError(f"unknown section {section!r} (sections: {', '.join(SECTIONS)})")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise DataError(f"{section} answer must be a number, got {value!r}")
    return bar(section).space_for(value)


def spaces(section: str) -> tuple[str, ...]:
    """Every space of a section a marker may go on, the two No Exact spaces included."""
    base = state_codes() if section == "state" else bar(section).labels
    return base + NO_EXACT_SPACES


def spaces_adjacent(section: str, a: str, b: str) -> bool:
    if section == "state":
        return states_adjacent(a, b)
    return bar(section).adjacent(a, b)


def space_name(section: str, space: str) -> str:
    """How a space is named to a player: "Georgia", "the 1875 space", "No Exact (year)"."""
    if space in NO_EXACT_SPACES:
        return f"{NO_EXACT_NAMES[space]} ({section})"
    if section == "state":
        return state_name(space)
    return f"the {space} {section} space"


def format_answer(section: str, value, unit: str = "") -> str:
    if section == "state":
        return state_name(value)
    if section == "year":
        return str(int(value))
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = f"{value:,}" if isinstance(value, int) else f"{value:,.6g}"
    return f"{text} {unit}".strip()


# --- scoring ------------------------------------------------------------------------

@dataclass(frozen=True)
class ScoreLine:
    """One placed marker at the reveal: its points and why."""
    player: Hashable
    section: str
    space: str
    points: int
    reason: str      # e.g. "Georgia is next to Florida"

    def text(self, name: str | None = None) -> str:
        who = self.player if name is None else name
        sign = f"+{self.points}" if self.points else "0"
        return f"{sign} {who}: {self.reason}"


def _check_placement(section: str, space: str) -> None:
    if section not in SECTIONS:
        raise DataError(f"unknown section {section!r} (sections: {', '.join(SECTIONS)})")
    if space in NO_EXACT_SPACES:
        return
    if section == "state":
        if space not in _states():
            raise DataError(f"{space!r} is not a state postal code")
    else:
        bar(section).index(space)


def explain_card(
    answers: Mapping[str, object], placements: Iterable[tuple[Hashable, str, str]]
) -> list[ScoreLine]:
    """Score every placed marker, in the rulebook's order: year, then state, then number;
    within a section, in the order the markers were placed. DataError for what the rules
    forbid: two markers on one space, a missing answer, a year or number not a number."""
    placements = list(placements)
    seen = set()
    for _, section, space in placements:
        _check_placement(section, space)
        if (section, space) in seen:   # Place a Marker: never on a space that has another marker
            raise DataError(f"two markers on {space_name(section, space)}: one marker per space")
        seen.add((section, space))
    if not isinstance(answers, Mapping):
        raise DataError(f"the answers must be a mapping of year, state and number, not {answers!r}")
    if missing := [s for s in SECTIONS if s not in answers]:
        raise DataError(f"the card has no {missing[0]} answer")
    lines = []
    for section in SECTIONS:
        exact = space_for(section, answers[section])
        here = [(p, s) for p, sec, s in placements if sec == section]
        on_spaces = [s for _, s in here if s not in NO_EXACT_SPACES]
        exact_taken = exact in on_spaces
        near_taken = exact_taken or any(spaces_adjacent(section, s, exact) for s in on_spaces)
        exact_text = space_name(section, exact)
        for player, space in here:
            if space == NO_EXACT:
                if exact_taken:
                    points, reason = 0, f"No Exact ({section}) fails: a marker is on {exact_text}"
                else:
                    points, reason = NO_EXACT_POINTS, f"No Exact ({section}): nobody is on {exact_text}"
            elif space == NO_EXACT_OR_ADJACENT:
                if near_taken:
                    points = 0
                    reason = f"No Exact or Adjacent ({section}) fails: a marker is on or next to {exact_text}"
                else:
                    points = NO_EXACT_OR_ADJACENT_POINTS
                    reason = f"No Exact or Adjacent ({section}): nobody is on or next to {exact_text}"
            elif space == exact:
                points = EXACT_POINTS
                reason = (f"{state_name(space)} is the answer" if section == "state"
                          else f"{format_answer(section, answers[section])} is on the {space} space")
            elif spaces_adjacent(section, space, exact):
                points = ADJACENT_POINTS
                reason = (f"{state_name(space)} is next to {state_name(exact)}" if section == "state"
                          else f"the {space} space is next to the {exact} space "
                               f"({format_answer(section, answers[section])})")
            else:
                points = 0
                reason = (f"{state_name(space)} is not next to {state_name(exact)}" if section == "state"
                          else f"the {space} space is not next to the {exact} space "
                               f"({format_answer(section, answers[section])})")
            lines.append(ScoreLine(player, section, space, points, reason))
    return lines


def score_card(
    answers: Mapping[str, object], placements: Iterable[tuple[Hashable, str, str]]
) -> dict:
    """Points per player for one card. `answers` = {"year": 1880, "state": "FL",
    "number": 12_000_000}; each placement is (player, section, space) with space a bar
    label, a state code, "no-exact" or "no-exact-or-adjacent". Every player who placed a
    marker appears in the result, with 0 if nothing scored."""
    placements = list(placements)
    points: dict = {p: 0 for p, _, _ in placements}
    for line in explain_card(answers, placements):
        points[line.player] += line.points
    return points


def topic_id(topic) -> str:
    """A topic's id in saves and in the used-topics history, e.g. "12A"."""
    return f"{topic.card}{topic.side}"


def topic_answers(topic) -> dict[str, object]:
    return {"year": topic.year.answer, "state": topic.state.answer, "number": topic.number.answer}


# --- the game -------------------------------------------------------------------------

DRAW, CHOOSE, PLACE, OVER = "draw", "choose", "place", "over"   # the phases of a card
SPEC = GameSpec(id="america", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
                hidden_information=True, has_scores=True)


@dataclass(frozen=True)
class Placement:
    player: int
    section: str
    space: str


@dataclass(frozen=True)
class TurnEvent:
    """One step of the placement round, for the order shown to players."""
    player: int
    kind: str                  # "place", "pass" or "out" (no markers left: passes by itself)
    section: str = ""
    space: str = ""


@dataclass
class CardResult:
    topic: str                 # topic id
    start_player: int
    showdown: bool
    events: list[TurnEvent]
    lines: list[ScoreLine]     # player = seat index
    points: dict[int, int]     # seat -> points on this card (participants only)
    offered: list[str] = field(default_factory=list)   # the two topics the start player saw


@cache
def bundled_deck() -> tuple:
    from stateside.games.america.deck import load_deck

    return load_deck()


def topic_index(deck: Sequence) -> Mapping[str, object]:
    """Topic id -> topic, read-only (shared by every game on this deck)."""
    if len(deck) < 2:
        raise DataError("the America deck needs at least two cards")
    return MappingProxyType({topic_id(t): t for card in deck for t in card.topics})


@cache
def bundled_topics() -> Mapping[str, object]:
    return topic_index(bundled_deck())


def box_plan(topics: Mapping[str, object], used: frozenset[str], v1: bool) -> tuple[Mapping, tuple]:
    """How a game's box holds its entries: (entry -> the draws that show its topics,
    entries by how many of their sides were played before). An entry is a card, or under
    v1_rules a topic (unplayed ones first). A card shows a side not played yet, or either
    side once both were."""
    if v1:
        faces = {t: (f"draw:{t}",) for t in topics}
        levels = [sorted(t for t in topics if t not in used), sorted(t for t in topics if t in used)]
    else:
        sides: dict[int, list[str]] = {}
        for t in sorted(topics):
            sides.setdefault(topics[t].card, []).append(t)
        faces, levels = {}, [[] for _ in range(3)]
        for card in sorted(sides):
            fresh = tuple(t for t in sides[card] if t not in used)
            faces[card] = tuple(f"draw:{t}" for t in fresh or sides[card])
            levels[len(sides[card]) - len(fresh)].append(card)
    return MappingProxyType(faces), tuple(tuple(level) for level in levels)


@lru_cache(maxsize=8)
def bundled_box_plan(used: frozenset[str], v1: bool) -> tuple[Mapping, tuple]:
    """box_plan for the bundled deck, made once per history (every self-play game has the same)."""
    return box_plan(bundled_topics(), used, v1)


@cache
def _place_actions() -> tuple[tuple[tuple[str, str], str], ...]:
    """Every ((section, space), action) a marker can go to, built once."""
    return tuple(((section, space), f"place:{section}:{space}")
                 for section in SECTIONS for space in spaces(section))


SETUP_KEYS = frozenset({"players", "start_player", "used_topics", "v1_rules"})
MAX_USED_TOPICS = 100_000   # both sides of every card of the largest deck, with room to spare
MAX_TOPIC_ID = 40           # characters of a topic id ("12A")


def read_setup(setup) -> tuple[list[str], int, list[str], bool]:
    """(players, start player, used topics, v1 rules) of a setup; ValueError for a bad one."""
    if not isinstance(setup, dict):
        raise ValueError("the setup must be a mapping")
    if unknown := sorted(map(str, set(setup) - SETUP_KEYS)):
        raise ValueError(f"the America setup has an unknown option {unknown[0]!r:.40} "
                         f"(known: {', '.join(sorted(SETUP_KEYS))})")
    players = setup.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ValueError("'players' must be a list of names")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"America is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
    if len(set(players)) != len(players) or not all(p.strip() for p in players):
        raise ValueError("every player needs a name of their own")
    start = setup.get("start_player", 0)
    if type(start) is not int or not 0 <= start < len(players):
        raise ValueError(f"start player {start!r:.40} is not a seat (0 to {len(players) - 1})")
    used = setup.get("used_topics", [])
    if not isinstance(used, list) or len(used) > MAX_USED_TOPICS or \
            not all(isinstance(t, str) and len(t) <= MAX_TOPIC_ID for t in used):
        raise ValueError(f"'used_topics' must be a list of at most {MAX_USED_TOPICS:,} topic ids such as \"12A\"")
    v1 = setup.get("v1_rules", False)
    if not isinstance(v1, bool):
        raise ValueError("'v1_rules' must be true or false")
    return list(players), start, list(used), v1


class _Mismatch(Exception):
    """A replayed record parted from the observation (consistent_with tries again)."""


class AmericaGame(State):
    """One game of America between 2-6 seats (seat i plays COLOURS[i]).

    The box is drawn one card at a time (chance), showing the side not played yet:
    cards with fewer sides played in earlier games first, so no card comes back before
    the box has gone round, and never both sides of a card in one game. The drawn
    topics wait in `pool` in the order drawn; the two offered are the first of them and
    the next one from another card. The rules read no files: the used topics come in
    the setup."""

    spec = SPEC

    def __init__(self, setup: dict, deck: Sequence | None = None):
        players, start_player, used, v1 = read_setup(setup)
        self._setup = {"players": players, "start_player": start_player, "used_topics": used}
        if v1:
            self._setup["v1_rules"] = True
        self.v1 = v1
        self.deck = bundled_deck() if deck is None else tuple(deck)
        self.topics = bundled_topics() if deck is None else topic_index(self.deck)
        self.players = players
        self.n = len(players)
        self.used_before = sorted(set(used) & set(self.topics))
        plan = bundled_box_plan if deck is None else partial(box_plan, self.topics)
        self.faces, levels = plan(frozenset(self.used_before), v1)
        self.box = [list(level) for level in levels]   # sorted: the box has no order yet
        self.box_left = len(self.faces)        # topics the box can still show in this game
        self.draws: dict[str, float] = {}      # at a chance node: the box's outcomes
        self.drawn: list[str] = []             # every topic drawn, in the order drawn
        self.pool: list[str] = []              # drawn and still in the box, in order

        self.track = [0] * self.n              # the score track
        self.supply = [MARKERS_IN_PLAY] * self.n
        self.nonscoring = [0] * self.n
        self.chosen: list[str] = []            # topics played in this game, in order
        self.results: list[CardResult] = []
        self.cards_scored = 0                  # of the six main cards
        self.showdown: list[int] | None = None  # seats in the current showdown
        self.showdown_points: list[list[int]] = []  # per showdown round, per seat
        self.winner: int | None = None
        self.start_player = start_player
        self._begin_card()

    @classmethod
    def new(cls, setup: dict) -> AmericaGame:
        return cls(setup)

    @classmethod
    def default_setup(cls, players: int) -> dict:
        return {"players": [COLOURS[i][0] for i in range(players)], "start_player": 0, "used_topics": []}

    @property
    def setup(self) -> dict:
        return self._setup

    # --- queries ----------------------------------------------------------------------
    @property
    def participants(self) -> list[int]:
        return list(range(self.n)) if self.showdown is None else list(self.showdown)

    @property
    def card_number(self) -> int:
        """1-6 during the main game; 7, 8, ... during showdowns."""
        return len(self.results) + 1

    def is_terminal(self) -> bool:
        return self.winner is not None

    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.phase == DRAW else self.current

    def offered_topics(self) -> tuple:
        return tuple(self.topics[t] for t in self.offered)

    def topic(self):
        """The topic being played (None while the start player chooses)."""
        return self.topics[self.topic_key] if self.topic_key else None

    def occupied(self) -> dict[tuple[str, str], int]:
        return {(p.section, p.space): p.player for p in self.placements}

    def markers_on_board(self, player: int) -> int:
        return sum(1 for p in self.placements if p.player == player)

    def can_pass(self, player: int) -> bool:
        """After each player has placed one marker, passing is allowed."""
        return self.placed_this_card[player] > 0

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return list(self.draws.items())

    def legal_actions(self, seat: int | None = None) -> list[str]:
        if self.winner is not None:
            return []
        if self.phase == DRAW:
            return list(self.draws) if seat is None else []
        if seat is not None and seat != self.current:
            return []
        if self.phase == CHOOSE:
            return ["choose:0", "choose:1"]
        taken = self.occupied()
        actions = [action for where, action in _place_actions() if where not in taken]
        if self.can_pass(self.current):
            actions.append("pass")
        return actions

    def candidate_actions(self, seat: int | None = None) -> list[str]:
        """Every action of America's shapes: draws of any topic, both choices, every
        space of every section, and pass."""
        return ([f"draw:{t}" for t in sorted(self.topics)] + ["choose:0", "choose:1"]
                + [action for _, action in _place_actions()] + ["pass"])

    def returns(self) -> list[float]:
        """1 for the winner (showdowns leave exactly one), 0 for the others."""
        return [1.0 if seat == self.winner else 0.0 for seat in range(self.n)]

    def scores(self) -> list[float]:
        return [float(p) for p in self.track]

    def markers_total(self, player: int) -> int:
        """Supply + non-scoring supply + on the board: always five (conservation)."""
        return self.supply[player] + self.nonscoring[player] + self.markers_on_board(player)

    def used_topics_after(self) -> list[str]:
        """The used-topics history to keep for the next game: everything used before and
        in this game; once that covers the whole deck, a new round starts with this game's."""
        used = set(self.used_before) | set(self.chosen)
        if used >= set(self.topics):
            used = set(self.chosen)
        return sorted(used)

    # --- actions ----------------------------------------------------------------------
    def _check(self, action) -> tuple:
        if self.winner is not None:
            raise IllegalActionError("the game is over")
        if not isinstance(action, str):
            raise IllegalActionError(f"not an action: {action!r}")
        if self.phase == DRAW:
            if action not in self.draws:
                raise IllegalActionError(f"{action!r} is not a topic the box can show now")
            return ("draw", action[5:])
        if action.startswith("draw:"):
            raise IllegalActionError("the box shows no new topic now")
        who = self.players[self.current]
        if action.startswith("choose:"):
            if self.phase != CHOOSE:
                raise IllegalActionError("the topic for this card is already chosen")
            if action not in ("choose:0", "choose:1"):
                raise IllegalActionError(f"not an action: {action!r}")
            return ("choose", int(action[-1]))
        if self.phase != PLACE:
            raise IllegalActionError(f"{who} must first choose this card's topic")
        if action == "pass":
            if not self.can_pass(self.current):
                raise IllegalActionError(f"{who} must place a first marker on this card before passing")
            return ("pass",)
        parts = action.split(":")
        if len(parts) != 3 or parts[0] != "place":
            raise IllegalActionError(f"not an action: {action!r}")
        _, section, space = parts
        if section not in SECTIONS or space not in spaces(section):
            raise IllegalActionError(f"there is no space {space!r} in the {section} section")
        holder = self.occupied().get((section, space))
        if holder is not None:
            where = space_name(section, space)
            raise IllegalActionError(f"{where[0].upper()}{where[1:]} already holds {self.players[holder]}'s marker")
        if self.supply[self.current] <= 0:
            raise IllegalActionError(f"{who} has no markers left")
        return ("place", section, space)

    def apply_action(self, action) -> list[Event]:
        move = self._check(action)
        if move[0] == "draw":
            topic = move[1]
            # a whole card leaves the box: its other side stays out of this game
            entry = topic if self.v1 else self.topics[topic].card
            next(level for level in self.box if entry in level).remove(entry)
            self.box_left -= 1
            self.drawn.append(topic)
            self.pool.append(topic)
            self._offer()
            return []
        if move[0] == "choose":
            self.topic_key = self.offered[move[1]]
            self.pool.remove(self.topic_key)
            self.chosen.append(self.topic_key)
            self.phase = PLACE
            self.current = self.start_player
            return self._advance()
        player = self.current
        if move[0] == "pass":
            self.passed.add(player)
            self.events.append(TurnEvent(player, "pass"))
        else:
            _, section, space = move
            self.placements.append(Placement(player, section, space))
            self.supply[player] -= 1
            self.placed_this_card[player] += 1
            self.events.append(TurnEvent(player, "place", section, space))
        return self._advance()

    def clone(self) -> AmericaGame:
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        for name in ("track", "supply", "nonscoring", "pool", "drawn",
                     "chosen", "results", "placements", "events", "placed_this_card", "offered",
                     "used_before", "players"):
            setattr(copy, name, list(getattr(self, name)))
        copy._setup = {k: list(v) if isinstance(v, list) else v for k, v in self._setup.items()}
        copy.box = [list(level) for level in self.box]
        copy.passed = set(self.passed)
        copy.draws = dict(self.draws)
        copy.showdown = None if self.showdown is None else list(self.showdown)
        copy.showdown_points = [list(r) for r in self.showdown_points]
        return copy   # results hold CardResults that are never changed once made

    # --- flow -----------------------------------------------------------------------
    def _begin_card(self) -> None:
        self.current = self.start_player
        self.topic_key: str | None = None
        self.placements: list[Placement] = []
        self.events: list[TurnEvent] = []
        self.passed: set[int] = set()
        self.placed_this_card = [0] * self.n
        self.offered: list[str] = []
        self._offer()

    def _offer(self) -> None:
        """Offer the two topics at the ends of the box: the first one waiting and the next
        one from another card, drawing (chance) until they are known. When the box runs
        low, the topics drawn in this game come back in the order they were drawn."""
        if len(self.pool) + self.box_left < 2:
            if self.box_left:
                return self._await_draw()
            self.pool += [t for t in self.drawn if t not in self.pool]
        if not self.pool:
            return self._await_draw()
        first = self.pool[0]
        card = self.topics[first].card
        second = next((t for t in self.pool[1:] if self.topics[t].card != card), None)
        if second is None:
            if self.box_left:
                return self._await_draw()
            second = self.pool[1]
        self.offered = [first, second]
        self.phase = CHOOSE
        self.draws = {}

    def _await_draw(self) -> None:
        """A chance node: the box is to show its next topic. The entries (cards, or topics
        under v1_rules) with the fewest sides played come first, each equally likely, a
        card showing either of its faces alike."""
        self.phase = DRAW
        level = next(level for level in self.box if level)
        p = 1 / len(level)
        faces = self.faces
        self.draws = {draw: p / len(faces[k]) for k in level for draw in faces[k]}

    def _next_seat(self, seat: int, among: Sequence[int]) -> int:
        for step in range(1, self.n + 1):
            candidate = (seat + step) % self.n
            if candidate in among:
                return candidate
        raise AssertionError("no seat to move to")

    def _advance(self) -> list[Event]:
        """Move to the next participant clockwise who has not passed; a participant with no
        markers left passes by itself. Score the card when everyone has passed."""
        group = self.participants
        seat = self.current
        for _ in range(len(group)):
            seat = self._next_seat(seat, group)
            if seat in self.passed:
                continue
            if self.supply[seat] == 0:
                self.passed.add(seat)
                self.events.append(TurnEvent(seat, "out"))
                continue
            self.current = seat
            return []
        return self._score_card()

    def _score_card(self) -> list[Event]:
        topic = self.topics[self.topic_key]
        lines = explain_card(topic_answers(topic), [(p.player, p.section, p.space) for p in self.placements])
        group = self.participants
        points = {seat: 0 for seat in group}
        for line in lines:
            points[line.player] += line.points
            # markers that scored go back to their owner, the others to the non-scoring supply
            if line.points:
                self.supply[line.player] += 1
            else:
                self.nonscoring[line.player] += 1
        # End of the Game: a tie goes to the most markers in supply as the sixth card is
        # scored, before the one marker back and the refill (there is no next card)
        last = self.showdown is None and self.cards_scored == CARDS_PER_GAME - 1 and not self.v1
        for seat in group if not last else ():
            if self.nonscoring[seat]:
                self.nonscoring[seat] -= 1
                self.supply[seat] += 1
            refill = min(max(0, REFILL_TO - self.supply[seat]), self.nonscoring[seat])
            self.nonscoring[seat] -= refill
            self.supply[seat] += refill
        self.results.append(CardResult(self.topic_key, self.start_player, self.showdown is not None,
                                       list(self.events), lines, points, list(self.offered)))
        summary = ", ".join(f"{self.players[s]} +{p}" for s, p in points.items())
        events = [Event(f"“{topic.title}” scored: {summary}", "scored", tuple(group))]
        self.placements = []
        if self.showdown is None:
            for seat, p in points.items():
                self.track[seat] += p
            self.cards_scored += 1
            if self.cards_scored < CARDS_PER_GAME:
                self.start_player = self._next_seat(self.start_player, group)
                self._begin_card()
            else:
                self._decide(list(range(self.n)), by_supply=True)
        else:
            row = [0] * self.n
            for seat, p in points.items():
                row[seat] = p
            self.showdown_points.append(row)
            self._decide(group, by_supply=False, points=row)
        if self.winner is not None:
            events.append(Event(f"{self.players[self.winner]} wins", "won", (self.winner,)))
        elif self.showdown is not None:
            names = " and ".join(self.players[s] for s in self.showdown)
            events.append(Event(f"{names} play a showdown card", "showdown", tuple(self.showdown)))
        return events

    def _decide(self, group: list[int], *, by_supply: bool, points: list[int] | None = None) -> None:
        points = self.track if points is None else points
        best = max(points[s] for s in group)
        tied = [s for s in group if points[s] == best]
        if by_supply and len(tied) > 1:
            most = max(self.supply[s] for s in tied)
            tied = [s for s in tied if self.supply[s] == most]
        if len(tied) == 1:
            self.winner = tied[0]
            self.phase = OVER
            self.placements, self.events, self.offered, self.topic_key = [], [], [], None
            return
        # a showdown card between the tied players, each with all five markers
        self.showdown = tied
        for seat in tied:
            self.supply[seat] = MARKERS_IN_PLAY
            self.nonscoring[seat] = 0
        self.start_player = self._next_seat(self.start_player, tied)
        self._begin_card()

    # --- views, checks, text -------------------------------------------------------------
    def observation(self, seat: int) -> dict:
        """What every seat sees: the table, the topics shown (their questions; answers only
        once scored, as the results) and how many topics are left in the box; never the
        topics drawn but not shown, nor any order of the undrawn ones."""
        topic = self.topic()
        return {
            "seat": seat,
            "players": list(self.players),
            "phase": self.phase,
            "current": self.current_player(),
            "start_player": self.start_player,
            "card_number": self.card_number,
            "cards_scored": self.cards_scored,
            "offered": list(self.offered),
            "offered_sides": [mississippi_side(t.state.answer) for t in self.offered_topics()],
            "topic": self.topic_key,
            "state_side": mississippi_side(topic.state.answer) if topic else None,
            "placements": [[p.player, p.section, p.space] for p in self.placements],
            "events": [[e.player, e.kind, e.section, e.space] for e in self.events],
            "passed": sorted(self.passed),
            "placed": list(self.placed_this_card),
            "scores": list(self.track),
            "supply": list(self.supply),
            "nonscoring": list(self.nonscoring),
            "showdown": None if self.showdown is None else list(self.showdown),
            "showdown_points": [list(r) for r in self.showdown_points],
            "winner": self.winner,
            # a scored card's markers and passes stay public (the last one placed scores the card)
            "results": [{"topic": r.topic, "offered": list(r.offered), "start_player": r.start_player,
                         "showdown": r.showdown, "points": [[s, p] for s, p in r.points.items()],
                         "events": [[e.player, e.kind, e.section, e.space] for e in r.events]}
                        for r in self.results],
            "box": len(self.pool) + self.box_left,
            # every seat sees a topic come out of the box, if not always which one
            "drawn": len(self.drawn),
        }

    # --- who may see what ----------------------------------------------------------------
    def audience(self, action) -> frozenset[int] | None:
        """Every seat sees every move: the topics offered (their questions), the choice, the
        markers and the scoring, which is when the answers come out. Only the first topic
        of a game comes out of the box unseen by all: it waits for a second topic from
        another card and then both are offered (a forced draw tells what it is)."""
        if self.phase == DRAW and not self.pool and len(self.draws) > 1:
            return frozenset()
        return EVERY_SEAT

    def describe(self, action, viewer: int | None, text: str | None = None) -> str:
        # the words never name a topic the box shows (the next observation does, when
        # every seat sees it) nor an answer before its card is scored: one text for all
        return text if text is not None else self.action_to_string(action)

    # --- a consistent world -----------------------------------------------------------------
    REPLAY_ATTEMPTS = 200    # v1_rules: an extra draw the record does not name is guessed

    @classmethod
    def consistent_with(cls, setup: dict, seat: int, observation: dict, rng) -> AmericaGame:
        """A game `seat` cannot tell from the one observed: the public record is played again
        (each card's offered topics drawn when the box has to show them, the choice, the
        markers and passes); a topic out of the box but not shown yet is dealt at random
        among those the box could show; and the answers of the topics in play and not yet
        scored are dealt among the answers of every topic not scored (a state answer on the
        side of the Mississippi its shading shows). ValueError if no game fits."""
        for _ in range(cls.REPLAY_ATTEMPTS):
            game = cls.new(setup)
            try:
                game._replay_record(observation, rng)
            except (IllegalActionError, _Mismatch):
                if game.v1:
                    continue
                break   # without v1_rules the replay has no choice to try again
            if game.observation(seat) == observation:
                scored = {r.topic for r in game.results}
                in_play = {*game.pool, *game.offered, *([game.topic_key] if game.topic_key else [])}
                return game._answers_dealt(in_play - scored, rng)
            if not game.v1:
                break   # without v1_rules the replay has no choice to try again
        raise ValueError("no America game gives this observation")

    def _replay_record(self, observation: dict, rng) -> None:
        cards = [(r["offered"], r["topic"], r["events"]) for r in observation["results"]]
        cards.append((observation["offered"], observation["topic"], observation["events"]))
        for offered, topic, events in cards:
            self._draw_for(offered, observation["drawn"], rng)
            if not offered:
                continue
            if self.offered != offered:
                raise _Mismatch
            if topic is None:
                continue
            self.apply_action(f"choose:{offered.index(topic)}")
            for player, kind, section, space in events:
                if kind != "out" and self.current != player:
                    raise _Mismatch
                if kind == "place":
                    self.apply_action(f"place:{section}:{space}")
                elif kind == "pass":
                    self.apply_action("pass")
                # "out": the rules pass a seat with no markers left by themselves

    def _draw_for(self, offered: list, drawn: int, rng) -> None:
        """Draw until `offered` is on show; with nothing to show yet, until `drawn` topics
        are out, each one at random among those that leave the box still drawing."""
        while self.phase == DRAW:
            need = [t for t in offered if t not in self.pool]
            if need:
                other = self._other_side_draw()
                # v1_rules: the first topic's other side may have come out first, unnamed
                if other and rng.random() < 0.1:
                    self.apply_action(other)
                    continue
                if f"draw:{need[0]}" not in self.draws:
                    raise _Mismatch
                self.apply_action(f"draw:{need[0]}")
            elif offered:
                raise _Mismatch   # everything offered is out and the box still draws
            elif len(self.drawn) >= drawn:
                return
            else:
                quiet = [d for d in sorted(self.draws) if self._draw_keeps_drawing(d)]
                if not quiet:
                    raise _Mismatch
                self.apply_action(quiet[rng.randrange(len(quiet))])

    def _other_side_draw(self) -> str | None:
        if not self.v1 or len(self.pool) != 1:
            return None
        card = self.topics[self.pool[0]].card
        return next((d for d in sorted(self.draws) if self.topics[d[5:]].card == card), None)

    def _draw_keeps_drawing(self, draw: str) -> bool:
        trial = self.clone()
        trial.apply_action(draw)
        return trial.phase == DRAW

    def _answers_dealt(self, keys: Iterable[str], rng) -> AmericaGame:
        """This game with the answers of topics `keys` dealt at random among the answers
        of every topic not scored yet (a state among those on the same Mississippi side)."""
        keys = sorted(keys)
        if not keys:
            return self
        scored = {r.topic for r in self.results}
        unscored = [t for t in sorted(self.topics) if t not in scored]
        picks = {s: rng.sample([self.topics[t].question(s).answer for t in unscored], len(keys))
                 for s in ("year", "number")}
        sides: dict[str, list[str]] = {}
        for t in unscored:
            answer = self.topics[t].state.answer
            sides.setdefault(mississippi_side(answer), []).append(answer)
        new = {}
        for i, t in enumerate(keys):
            topic = self.topics[t]
            states = sides[mississippi_side(topic.state.answer)]
            new[t] = replace(topic, year=replace(topic.year, answer=picks["year"][i]),
                             number=replace(topic.number, answer=picks["number"][i]),
                             state=replace(topic.state, answer=states.pop(rng.randrange(len(states)))))
        self.deck = tuple(replace(card, topics=tuple(new.get(topic_id(t), t) for t in card.topics))
                          for card in self.deck)
        self.topics = MappingProxyType({topic_id(t): t for card in self.deck for t in card.topics})
        return self

    def with_hidden_changed(self, viewer: int, rng) -> AmericaGame:
        """A copy in which the answers on the hidden half of every card not yet scored are
        dealt among those cards again (a state answer only to a card whose shading shows
        the same side of the Mississippi): nothing a seat sees changes."""
        scored = {r.topic for r in self.results}
        hidden = [t for t in sorted(self.topics) if t not in scored]
        answers = {s: [self.topics[t].question(s).answer for t in hidden] for s in ("year", "number")}
        for values in answers.values():
            rng.shuffle(values)
        states: dict[str, list[str]] = {}
        for t in hidden:
            states.setdefault(mississippi_side(self.topics[t].state.answer), []).append(self.topics[t].state.answer)
        for values in states.values():
            rng.shuffle(values)
        new = {}
        for i, t in enumerate(hidden):
            topic = self.topics[t]
            new[t] = replace(topic, year=replace(topic.year, answer=answers["year"][i]),
                             number=replace(topic.number, answer=answers["number"][i]),
                             state=replace(topic.state, answer=states[mississippi_side(topic.state.answer)].pop()))
        changed = self.clone()
        changed.deck = tuple(replace(card, topics=tuple(new.get(topic_id(t), t) for t in card.topics))
                             for card in self.deck)
        changed.topics = MappingProxyType({topic_id(t): t for card in changed.deck for t in card.topics})
        return changed

    def check_invariants(self) -> None:
        entries = [k for level in self.box for k in level]
        drawn = [t if self.v1 else self.topics[t].card for t in self.drawn]
        if len(set(entries)) != len(entries) or len(set(drawn)) != len(drawn):
            raise InvariantError("a card is in the box twice, or was drawn twice in one game")
        if set(entries) & set(drawn) or set(entries) | set(drawn) != set(self.faces):
            raise InvariantError("the cards drawn and the cards in the box do not make up the deck")
        if len(entries) != self.box_left:
            raise InvariantError(f"the box counts {self.box_left} cards but holds {len(entries)}")
        if len(set(self.pool)) != len(self.pool) or not set(self.pool) <= set(self.drawn):
            raise InvariantError("a topic waits in the box twice, or was never drawn")
        if self.phase in (CHOOSE, PLACE) and len(self.offered) != 2:
            raise InvariantError("a card is played without two topics offered")
        if self.phase == CHOOSE and not set(self.offered) <= set(self.pool):
            raise InvariantError("a topic offered is not in the box")
        for seat in range(self.n):
            if self.markers_total(seat) != MARKERS_IN_PLAY:
                raise InvariantError(f"{self.players[seat]} has {self.markers_total(seat)} markers, not five")
            if self.supply[seat] < 0 or self.nonscoring[seat] < 0:
                raise InvariantError(f"{self.players[seat]}'s supply is negative")
        spaces_taken = [(p.section, p.space) for p in self.placements]
        if len(spaces_taken) != len(set(spaces_taken)):
            raise InvariantError("two markers share a space")
        totals = [0] * self.n
        for r in self.results:
            if not r.showdown:
                for seat, p in r.points.items():
                    totals[seat] += p
        if totals != self.track:
            raise InvariantError(f"the score track {self.track} is not the sum of the cards {totals}")

    def action_to_json(self, action) -> str:
        return action

    def action_from_json(self, data) -> str:
        if not isinstance(data, str):
            raise InvalidActionError(f"an America action is a text such as \"place:state:GA\", not {data!r}"[:200])
        head = data.split(":", 1)[0]
        if data != "pass" and head not in ("draw", "choose", "place"):
            raise InvalidActionError(f"{data!r} is not an America action (draw:, choose:, place: or pass)"[:200])
        return data

    def action_to_string(self, action) -> str:
        if isinstance(action, str) and action.startswith("draw:"):
            return "A topic came up at an end of the box"
        who = self.players[self.current] if self.phase in (CHOOSE, PLACE) else "Nobody"
        if action == "pass":
            return f"{who} passed"
        parts = action.split(":") if isinstance(action, str) else []
        if len(parts) == 2 and parts[0] == "choose" and parts[1] in ("0", "1") and self.offered:
            return f"{who} chose to read \u201c{self.topics[self.offered[int(parts[1])]].title}\u201d"
        if len(parts) == 3 and parts[0] == "place" and parts[1] in SECTIONS and parts[2] in spaces(parts[1]):
            return f"{who} placed a marker on {space_name(parts[1], parts[2])}"
        return f"{who} tried {action!r}"
