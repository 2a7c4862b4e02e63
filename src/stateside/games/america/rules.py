"""America: rules, scoring and the game engine (pure Python, no Qt).

Scoring API, for tests and tools::

    YEAR_BAR, NUMBER_BAR                 # space labels in order, e.g. "1875", "10M"
    space_for("year", 1880) -> "1875"    # the space that holds an answer
    score_card({"year": 1880, "state": "FL", "number": 12_000_000},
               [("Red", "state", "FL"), ("Blue", "number", "no-exact"), ...]) -> {"Red": 7, ...}

The engine, ``AmericaGame``, follows the rulebook's four steps for each card: the start
player moves one seat clockwise, chooses one of the two topics offered (answers hidden),
everyone from the start player's left places one marker a turn or passes, and the card is
scored year, state, number. After six cards the highest score wins; a tie goes to the
most markers in supply, then to showdown cards between the tied players.

Actions are short strings (saved as they are)::

    "choose:0" / "choose:1"         the start player takes the first or second topic offered
    "place:<section>:<space>"       e.g. "place:state:GA", "place:year:1875",
                                    "place:number:no-exact-or-adjacent"
    "pass"
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Hashable, Iterable, Mapping, Sequence

from stateside.errors import DataError, IllegalActionError, SaveError
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
SAVE_VERSION = 1

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
    if isinstance(value, bool) or not isinstance(value, (int, float)):
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
    within a section, in the order the markers were placed."""
    placements = list(placements)
    for _, section, space in placements:
        _check_placement(section, space)
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
                          else f"the {space} space is next to the {exact} space ({format_answer(section, answers[section])})")
            else:
                points = 0
                reason = (f"{state_name(space)} is not next to {state_name(exact)}" if section == "state"
                          else f"the {space} space is not next to the {exact} space ({format_answer(section, answers[section])})")
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


class AmericaGame:
    """One game of America between 2-6 seats (seat i plays COLOURS[i])."""

    def __init__(
        self,
        players: Sequence[str],
        *,
        deck: Sequence,
        seed: int = 0,
        used_topics: Iterable[str] = (),
        start_player: int = 0,
        topic_order: Sequence[str] | None = None,
    ):
        players = [str(p) for p in players]
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise IllegalActionError(f"America is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
        if len(set(players)) != len(players) or not all(p.strip() for p in players):
            raise IllegalActionError("every player needs a name of their own")
        if not 0 <= start_player < len(players):
            raise IllegalActionError(f"start player {start_player} is not a seat")
        self.deck = tuple(deck)
        self.topics = {topic_id(t): t for card in self.deck for t in card.topics}
        if len(self.topics) < 2:
            raise DataError("the America deck needs at least two topics")
        self.players = players
        self.n = len(players)
        self.seed = seed
        self.used_before = sorted(set(used_topics) & set(self.topics))
        if topic_order is None:
            topic_order = shuffled_topics(self.topics, self.used_before, seed)
        else:
            topic_order = list(topic_order)
            unknown = [t for t in topic_order if t not in self.topics]
            if unknown:
                raise DataError(f"topic {unknown[0]} is not in this deck")
            if len(set(topic_order)) != len(topic_order) or len(topic_order) < 2:
                raise DataError("the topic order must list at least two different topics, each once")
        self.topic_order = list(topic_order)
        self.first_start = start_player

        self.scores = [0] * self.n
        self.supply = [MARKERS_IN_PLAY] * self.n
        self.nonscoring = [0] * self.n
        self.pool = list(self.topic_order)     # the box: topics not yet used in this game
        self.chosen: list[str] = []            # topics played in this game, in order
        self.results: list[CardResult] = []
        self.actions: list[str] = []
        self.actors: list[int] = []            # the seat that took each action
        self.cards_scored = 0                  # of the six main cards
        self.showdown: list[int] | None = None  # seats in the current showdown
        self.showdown_points: list[list[int]] = []  # per showdown round, per seat
        self.winner: int | None = None
        self.start_player = start_player
        self._begin_card()

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

    def current_player(self) -> int | None:
        return None if self.is_terminal() else self.current

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

    def legal_actions(self) -> list[str]:
        if self.is_terminal():
            return []
        if self.phase == "choose":
            return ["choose:0", "choose:1"]
        taken = self.occupied()
        actions = [
            f"place:{section}:{space}"
            for section in SECTIONS
            for space in spaces(section)
            if (section, space) not in taken
        ]
        if self.can_pass(self.current):
            actions.append("pass")
        return actions

    def is_legal(self, action: str) -> bool:
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the others (all 0 until the game ends)."""
        return [1.0 if seat == self.winner else 0.0 for seat in range(self.n)]

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
    def _check(self, action: str) -> tuple:
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        if not isinstance(action, str):
            raise IllegalActionError(f"not an action: {action!r}")
        who = self.players[self.current]
        if action.startswith("choose:"):
            if self.phase != "choose":
                raise IllegalActionError("the topic for this card is already chosen")
            if action not in ("choose:0", "choose:1"):
                raise IllegalActionError(f"not an action: {action!r}")
            return ("choose", int(action[-1]))
        if self.phase != "place":
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

    def apply_action(self, action: str) -> None:
        move = self._check(action)
        self.actions.append(action)
        self.actors.append(self.current)
        if move[0] == "choose":
            self.topic_key = self.offered[move[1]]
            self.pool.remove(self.topic_key)
            self.chosen.append(self.topic_key)
            self.phase = "place"
            self.current = self.start_player
            self._advance()
            return
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
        self._advance()

    def clone(self) -> "AmericaGame":
        copy = object.__new__(AmericaGame)
        copy.__dict__.update(self.__dict__)
        for name in ("scores", "supply", "nonscoring", "pool", "chosen", "results", "actions", "actors",
                     "placements", "events", "placed_this_card", "offered", "topic_order",
                     "used_before", "players"):
            setattr(copy, name, list(getattr(self, name)))
        copy.passed = set(self.passed)
        copy.showdown = None if self.showdown is None else list(self.showdown)
        copy.showdown_points = [list(r) for r in self.showdown_points]
        return copy

    # --- flow -----------------------------------------------------------------------
    def _begin_card(self) -> None:
        self.phase = "choose"
        self.current = self.start_player
        self.topic_key: str | None = None
        self.placements: list[Placement] = []
        self.events: list[TurnEvent] = []
        self.passed: set[int] = set()
        self.placed_this_card = [0] * self.n
        self.offered = self._offer()

    def _offer(self) -> list[str]:
        """The two topics at the ends of the box: the first unused topic and the next one
        from another card. When the box runs low, topics used in earlier games come back,
        then (in very long showdowns only) this game's too."""
        if len(self.pool) < 2:
            self.pool += [t for t in self.topic_order if t not in self.pool and t not in self.chosen]
        if len(self.pool) < 2:
            self.pool += [t for t in self.topic_order if t not in self.pool]
        first = self.pool[0]
        card = self.topics[first].card
        second = next((t for t in self.pool[1:] if self.topics[t].card != card), self.pool[1])
        return [first, second]

    def _next_seat(self, seat: int, among: Sequence[int]) -> int:
        for step in range(1, self.n + 1):
            candidate = (seat + step) % self.n
            if candidate in among:
                return candidate
        raise AssertionError("no seat to move to")

    def _advance(self) -> None:
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
            return
        self._score_card()

    def _score_card(self) -> None:
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
        for seat in group:
            if self.nonscoring[seat]:
                self.nonscoring[seat] -= 1
                self.supply[seat] += 1
            refill = min(max(0, REFILL_TO - self.supply[seat]), self.nonscoring[seat])
            self.nonscoring[seat] -= refill
            self.supply[seat] += refill
        self.results.append(CardResult(self.topic_key, self.start_player, self.showdown is not None,
                                       list(self.events), lines, points))
        self.placements = []
        if self.showdown is None:
            for seat, p in points.items():
                self.scores[seat] += p
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

    def _decide(self, group: list[int], *, by_supply: bool, points: list[int] | None = None) -> None:
        points = self.scores if points is None else points
        best = max(points[s] for s in group)
        tied = [s for s in group if points[s] == best]
        if by_supply and len(tied) > 1:
            most = max(self.supply[s] for s in tied)
            tied = [s for s in tied if self.supply[s] == most]
        if len(tied) == 1:
            self.winner = tied[0]
            self.phase = "over"
            self.placements, self.events, self.offered, self.topic_key = [], [], [], None
            return
        # a showdown card between the tied players, each with all five markers
        self.showdown = tied
        for seat in tied:
            self.supply[seat] = MARKERS_IN_PLAY
            self.nonscoring[seat] = 0
        self.start_player = self._next_seat(self.start_player, tied)
        self._begin_card()

    # --- saving -----------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "version": SAVE_VERSION,
            "players": list(self.players),
            "seed": self.seed,
            "start_player": self.first_start,
            "used_before": list(self.used_before),
            "topic_order": list(self.topic_order),
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: dict, deck: Sequence | None = None) -> "AmericaGame":
        """Rebuild a game by replaying its actions; raises SaveError if anything is off."""
        if deck is None:
            from stateside.games.america.deck import load_deck

            deck = load_deck()
        if not isinstance(data, dict):
            raise SaveError("America save: expected a mapping")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"America save: version {data.get('version')!r} is not supported (expected {SAVE_VERSION})")
        try:
            players = data["players"]
            actions = data["actions"]
            if not isinstance(players, list) or not isinstance(actions, list):
                raise SaveError("America save: 'players' and 'actions' must be lists")
            game = cls(players, deck=deck, seed=int(data.get("seed", 0)),
                       used_topics=data.get("used_before", []),
                       start_player=int(data.get("start_player", 0)),
                       topic_order=data["topic_order"])
            for n, action in enumerate(actions, 1):
                try:
                    game.apply_action(action)
                except IllegalActionError as e:
                    raise SaveError(f"America save: action {n} ({action!r}) cannot be replayed: {e}") from None
        except KeyError as e:
            raise SaveError(f"America save: missing {e.args[0]!r}") from None
        except (DataError, IllegalActionError) as e:
            raise SaveError(f"America save: {e}") from None
        except (TypeError, ValueError) as e:
            raise SaveError(f"America save: malformed ({e})") from None
        return game


def shuffled_topics(topics: Iterable[str], used: Iterable[str], seed: int) -> list[str]:
    """The box for one game: unused topics first (shuffled), then the used ones (shuffled),
    so no topic repeats until every topic of the deck has been played."""
    rng = random.Random(seed)
    used = set(used)
    fresh = sorted(t for t in topics if t not in used)
    old = sorted(t for t in topics if t in used)
    rng.shuffle(fresh)
    rng.shuffle(old)
    return fresh + old
