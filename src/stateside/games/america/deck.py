"""America's deck: two-sided cards, each side a topic with a year, a state and a number
question. The deck is our own; it lives in resources/decks/america/cards*.yaml (every
such file in the folder, read in name order) and is validated when loaded, so a bad
entry is reported with its file, line, card, topic and field instead of surfacing
later as a wrong score.

User decks (a player's own YAML file in the same format) are read by `load_user_deck`:
their cards get ids prefixed with the deck's name ("family:3", topics "family:3A"), so
they never collide with the bundled cards in the box or the used-topics history. The
app registers the installed ones with `set_user_decks`; from then on `load_deck()` (the
deck every game and computer player looks up) is the bundled deck plus those cards.

Pure Python (no Qt): the rules engine, the computer players and the tests use it.
"""
from __future__ import annotations

import datetime as _dt
import math
import os
import re
import stat
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from stateside.data.states import load_states
from stateside.errors import DataError
from stateside.paths import resource

FIRST_YEAR = 1492                  # the year bar's lowest space; no answer is earlier
SECTIONS = ("year", "state", "number")
SIDES = ("A", "B")
# The fixed list of topic themes; the two sides of a card have different themes (checked by
# the deck's tests, not the loader).
THEMES = ("politics", "military", "exploration", "science", "space", "transport", "business",
          "arts", "literature", "sports", "nature", "landmarks", "society", "disasters")
CARD_KEYS = ("card", "topics")
TOPIC_KEYS = ("title", "theme", *SECTIONS)
QUESTION_KEYS = {
    "year": ("question", "answer", "background", "source"),
    "state": ("question", "answer", "background", "source"),
    "number": ("question", "answer", "unit", "background", "source"),
}


@dataclass(frozen=True)
class Question:
    text: str
    answer: int | float | str      # year: int; state: postal code; number: int or float
    background: str                # one line shown after scoring
    source: str                    # where the answer was checked
    unit: str = ""                 # number questions only, e.g. "feet"


@dataclass(frozen=True)
class Topic:
    title: str
    card: int                      # the card's number (a UserCardId for a user deck)
    side: str                      # "A" or "B"
    year: Question
    state: Question
    number: Question
    theme: str = ""                # one of THEMES (always set for a loaded topic)

    @property
    def ref(self) -> str:
        """Short stable id of this side, e.g. "12A" (for saves and the used-topics list)."""
        return f"{self.card}{self.side}"

    def question(self, section: str) -> Question:
        if section not in SECTIONS:
            raise KeyError(section)
        return getattr(self, section)

    @property
    def answers(self) -> dict[str, int | float | str]:
        """{"year": ..., "state": ..., "number": ...}, the shape the scoring takes."""
        return {section: self.question(section).answer for section in SECTIONS}


@dataclass(frozen=True)
class Card:
    number: int                    # a UserCardId ("family:3") for a user deck's card
    topics: tuple[Topic, Topic]

    def side(self, side: str) -> Topic:
        return self.topics[SIDES.index(side)]


USER_SEPARATOR = ":"               # between a user deck's name and its card number
# What a deck file may hold. Reading is about 0.5 ms a card, at the start of every America
# game for the decks added: the caps keep both that and Add deck... well under a second.
MAX_DECK_BYTES = 2 * 2**20         # a file of the deck's format; the bundled files are ~25 KB
MAX_DECK_CARDS = 1_000             # in one user deck (the bundled deck has 160)
MAX_USER_CARDS = 2_000             # in every user deck added, together
MAX_CARD_NUMBER = 99_999
MAX_NUMBER_ANSWER = 10**15         # the bundled deck's largest is 1.25e11
MAX_DIGITS = 20                    # a number written longer is refused before it is made
USER_NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")


class UserCardId(str):
    """A user deck's card id, e.g. "family:3". A text, so it never equals a bundled card's
    number; it sorts after every bundled number (the box sorts card ids), then by deck
    name and number."""

    def __new__(cls, deck: str, number: int):
        made = super().__new__(cls, f"{deck}{USER_SEPARATOR}{number}")
        made.deck, made.number = deck, number
        return made

    def __reduce__(self):
        return (UserCardId, (self.deck, self.number))

    def _order(self, other) -> int | None:
        if isinstance(other, UserCardId):
            a, b = (self.deck, self.number), (other.deck, other.number)
            return (a > b) - (a < b)
        if isinstance(other, int) and not isinstance(other, bool):
            return 1
        return None

    def __lt__(self, other):
        order = self._order(other)
        return str.__lt__(self, other) if order is None else order < 0

    def __le__(self, other):
        order = self._order(other)
        return str.__le__(self, other) if order is None else order <= 0

    def __gt__(self, other):
        order = self._order(other)
        return str.__gt__(self, other) if order is None else order > 0

    def __ge__(self, other):
        order = self._order(other)
        return str.__ge__(self, other) if order is None else order >= 0

    __hash__ = str.__hash__


def state_codes() -> frozenset[str]:
    """The 50 postal codes of the shared state facts (no DC: the board has no space for it)."""
    return frozenset(load_states()) - {"DC"}


def default_folder() -> Path:
    return resource("decks", "america")


def load_deck(folder: Path | None = None) -> tuple[Card, ...]:
    """Every card in `folder`, sorted by card number; by default the bundled deck followed
    by the cards of the user decks registered with `set_user_decks`.

    Raises DataError naming the file, line, card, topic and field of the first problem.
    """
    if folder is None:
        return _bundled() + tuple(card for name in sorted(_user_decks) for card in _user_decks[name])
    return _load_folder(Path(folder))


@cache
def _bundled() -> tuple[Card, ...]:
    """The bundled deck, read once: its files do not change while the app runs, and a
    user deck added or removed must not cost a second reading."""
    return _load_folder(default_folder())


def _load_folder(folder: Path) -> tuple[Card, ...]:
    files = sorted(folder.glob("cards*.yaml")) if folder.is_dir() else []
    if not files:
        raise DataError(f"{folder}: no deck files (cards*.yaml) found")
    codes = state_codes()
    this_year = _dt.date.today().year
    cards: dict[int, Card] = {}
    numbers: dict[int, str] = {}          # card number -> where it was first seen
    titles: dict[str, str] = {}           # folded title -> where it was first seen
    for path in files:
        for card in _unique_cards(path, _read(path), codes, this_year, numbers, titles, f"{path.name} "):
            cards[card.number] = card
    return tuple(card for _, card in sorted(cards.items()))


def _unique_cards(path: Path, entries: list, codes: frozenset[str], this_year: int,
                  numbers: dict[int, str], titles: dict[str, str], prefix: str) -> Iterator[Card]:
    """Each entry as a checked Card, refusing a card number or a topic title seen before;
    `numbers` and `titles` record where each was first seen ("<prefix>line N")."""
    for entry in entries:
        card = _card(entry, path, codes, this_year)
        if card.number in numbers:
            raise DataError(f"{path}: line {entry.line}: card {card.number}: card number "
                            f"already used ({numbers[card.number]})")
        numbers[card.number] = f"{prefix}line {entry.line}"
        for topic, raw in zip(card.topics, entry["topics"]):
            key = " ".join(topic.title.casefold().split())
            line = _line(raw, entry.line)
            if key in titles:
                raise DataError(f"{path}: line {line}: card {card.number}, topic "
                                f"'{topic.title}': title already used ({titles[key]})")
            titles[key] = f"{prefix}line {line}, card {card.number}"
        yield card


# --- user decks ---------------------------------------------------------------------------

_user_decks: dict[str, tuple[Card, ...]] = {}


def deck_name(path: Path) -> str:
    """A user deck's name, from its file name: "My Family.yaml" -> "my-family"."""
    name = re.sub(r"[^a-z0-9]+", "-", Path(path).stem.casefold()).strip("-")[:40].strip("-")
    if not USER_NAME.fullmatch(name):
        raise DataError(f"{path}: a deck's file name must start with a letter (it names the "
                        f"deck and its cards), e.g. 'family-trivia.yaml'")
    return name


def load_user_deck(path: Path, name: str | None = None) -> tuple[Card, ...]:
    """The cards of one user deck file, in the bundled deck's format, each card's id
    prefixed with the deck's name (`name`, or one made from the file name).

    Every card and topic is validated as the bundled ones are; card numbers and titles
    must be unique within the file. An empty file is refused. Raises DataError naming the
    file, line, card, topic and field of the first problem."""
    path = Path(path)
    name = name or deck_name(path)
    if not USER_NAME.fullmatch(name):
        raise DataError(f"{path}: {name!r} cannot name a deck (letters, digits and '-', "
                        f"starting with a letter)")
    try:
        entries = _read(path, MAX_DECK_CARDS)
        codes = state_codes()
        this_year = _dt.date.today().year
        cards: list[Card] = []
        for card in _unique_cards(path, entries, codes, this_year, {}, {}, ""):
            ident = UserCardId(name, card.number)
            cards.append(Card(ident, tuple(replace(t, card=ident) for t in card.topics)))  # type: ignore[arg-type]
    except DataError:
        raise
    except Exception as e:   # a player's file: whatever it holds is a message, not a traceback
        raise DataError(f"{path}: cannot be read as a deck ({type(e).__name__}: {e})") from None
    return tuple(sorted(cards, key=lambda c: c.number.number))


def set_user_decks(decks: Mapping[str, tuple[Card, ...]]) -> None:
    """The user decks installed (name -> cards from load_user_deck): `load_deck()` adds
    their cards to the bundled ones. Callers that cache the deck clear their caches."""
    _user_decks.clear()
    _user_decks.update({name: tuple(cards) for name, cards in decks.items()})


def user_decks() -> dict[str, tuple[Card, ...]]:
    return dict(_user_decks)


def user_deck_of(topic_id: str) -> str | None:
    """The user deck a topic id belongs to ("family:3A" -> "family"), None for a bundled one."""
    name, sep, _ = topic_id.partition(USER_SEPARATOR)
    return name if sep else None


# --- reading ------------------------------------------------------------------------------

class _Located(dict):
    """A YAML mapping that remembers the line it starts on and the line of each key (1-based)."""
    line: int = 0
    key_lines: dict


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """libyaml's parser when PyYAML has it: the pure-Python one took about 0.7 s of
    opening America (the deck is some 600 KB), libyaml about 60 ms; both give the lines."""


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> _Located:
    key_lines = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, Hashable):
            continue                      # construct_mapping reports it below
        if key in key_lines:
            mark = key_node.start_mark
            raise yaml.constructor.ConstructorError(
                None, None, f"key '{key}' appears twice in one entry", mark)
        key_lines[key] = key_node.start_mark.line + 1
    mapping = _Located(loader.construct_mapping(node, deep=True))
    mapping.line = node.start_mark.line + 1
    mapping.key_lines = key_lines
    return mapping


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _read_text(path: Path) -> str:
    """The file's text; DataError for a file that is not a regular one (a FIFO would
    block for ever), too large, unreadable or not UTF-8."""
    try:
        # O_NONBLOCK: opening a FIFO returns at once (then refused below) instead of waiting
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise DataError(f"{path}: not a deck file (not a regular file)")
            if st.st_size > MAX_DECK_BYTES:
                raise DataError(f"{path}: too large for a deck ({st.st_size / 2**20:.1f} MB; "
                                f"at most {MAX_DECK_BYTES // 2**20} MB)")
            data = f.read(MAX_DECK_BYTES + 1)
        if len(data) > MAX_DECK_BYTES:   # it grew while being read
            raise DataError(f"{path}: too large for a deck (at most {MAX_DECK_BYTES // 2**20} MB)")
        return data.decode("utf-8")
    except IsADirectoryError:
        raise DataError(f"{path}: is a folder, not a deck file") from None
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror or e})") from None
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise DataError(f"{path}: line {line}: not UTF-8 text") from None


def _read(path: Path, max_cards: int | None = None) -> list[_Located]:
    text = _read_text(path)
    try:
        data = yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e)
        raise DataError(f"{path}: not valid YAML{at}: {problem}") from None
    except RecursionError:
        raise DataError(f"{path}: not a deck (its entries are nested too deeply)") from None
    except (ValueError, OverflowError, TypeError) as e:   # e.g. a date that is no date
        raise DataError(f"{path}: not a deck YAML can read ({e})") from None
    if data is None or data == []:   # an empty deck file would silently drop its cards
        raise DataError(f"{path}: the deck is empty: a deck file lists one card or more "
                        f"('- card: 1' with its two topics)")
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a list of cards (each '- card: N')")
    if max_cards is not None and len(data) > max_cards:
        raise DataError(f"{path}: {len(data)} cards, more than a deck may hold ({max_cards})")
    for n, entry in enumerate(data, 1):
        if not isinstance(entry, _Located):
            raise DataError(f"{path}: entry {n} is not a card (a mapping with 'card' and 'topics')")
    return data


class _LongNumber:
    """A number written with more than MAX_DIGITS digits: kept as a note for the
    validation to refuse, with its card and field, rather than built (int() of
    thousands of digits is slow, and refused past 4,300)."""

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number of {self.digits} digits"


def _construct_int(loader: _Loader, node: yaml.ScalarNode):
    digits = sum(ch.isdigit() for ch in node.value)
    if digits > MAX_DIGITS:
        return _LongNumber(digits)
    return loader.construct_yaml_int(node)


_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)


# --- validation ---------------------------------------------------------------------------

def _keys(entry: Any, wanted: tuple[str, ...], label: str, what: str) -> None:
    if not isinstance(entry, dict):
        raise DataError(f"{label}: {what} must be a mapping with keys {', '.join(wanted)}")
    if missing := [k for k in wanted if k not in entry]:
        raise DataError(f"{label}: missing key '{missing[0]}'")
    if extra := sorted(str(k) for k in entry if k not in wanted):
        raise DataError(f"{label}: unknown key '{extra[0]}' (allowed: {', '.join(wanted)})")


def _line(entry: Any, fallback: int) -> int:
    return getattr(entry, "line", 0) or fallback


def _key_line(entry: Any, key: str, fallback: int) -> int:
    return getattr(entry, "key_lines", {}).get(key, fallback)


def _card(entry: _Located, path: Path, codes: frozenset[str], this_year: int) -> Card:
    number = entry.get("card")
    label = f"{path}: line {entry.line}: card {number if _is_int(number) else '?'}"
    _keys(entry, CARD_KEYS, label, "a card")
    if not (_is_int(number) and 1 <= number <= MAX_CARD_NUMBER):
        raise DataError(f"{label}: 'card' must be a whole number >= 1 (at most {MAX_CARD_NUMBER}), got {number!r}")
    topics = entry["topics"]
    if not isinstance(topics, list) or len(topics) != 2:
        count = len(topics) if isinstance(topics, list) else "no list of"
        raise DataError(f"{label}: a card has exactly two topics (sides A and B), found {count}")
    built = tuple(_topic(raw, side, number, path, _line(raw, entry.line), codes, this_year)
                  for side, raw in zip(SIDES, topics))
    return Card(number, built)  # type: ignore[arg-type]


def _topic(raw: Any, side: str, card: int, path: Path, line: int, codes: frozenset[str],
           this_year: int) -> Topic:
    title = raw.get("title") if isinstance(raw, dict) else None
    shown = title if isinstance(title, str) and title.strip() else f"side {side}"
    label = f"{path}: line {line}: card {card}, topic '{shown}'"
    _keys(raw, TOPIC_KEYS, label, "a topic")
    if not (isinstance(title, str) and title.strip()):
        raise DataError(f"{label}: 'title' must be a non-empty text")
    theme = raw["theme"]
    if theme not in THEMES:
        where = f"{path}: line {_key_line(raw, 'theme', line)}: card {card}, topic '{shown}'"
        raise DataError(f"{where}, theme: must be one of {', '.join(THEMES)}, got {theme!r}")
    questions = {}
    for section in SECTIONS:   # each question's own line, so the message points at it
        where = f"{path}: line {_key_line(raw, section, line)}: card {card}, topic '{shown}'"
        questions[section] = _question(raw[section], section, f"{where}, {section}",
                                       codes, this_year)
    return Topic(title=title.strip(), card=card, side=side, theme=theme, **questions)


def _question(raw: Any, section: str, label: str, codes: frozenset[str], this_year: int) -> Question:
    _keys(raw, QUESTION_KEYS[section], label, f"the {section} question")
    for key in QUESTION_KEYS[section]:
        if key != "answer" and not (isinstance(raw[key], str) and raw[key].strip()):
            raise DataError(f"{label}: '{key}' must be a non-empty text, got {raw[key]!r}")
    answer = raw["answer"]
    if section == "year":
        if not (_is_int(answer) and FIRST_YEAR <= answer <= this_year):
            raise DataError(f"{label}: answer must be a whole year from {FIRST_YEAR} to "
                            f"{this_year}, got {answer!r}")
    elif section == "state":
        if not (isinstance(answer, str) and answer in codes):
            raise DataError(f"{label}: answer must be the postal code of one of the 50 states "
                            f"(e.g. 'CA'), got {answer!r}")
    else:
        if not (_is_number(answer) and 0 <= answer <= MAX_NUMBER_ANSWER):
            raise DataError(f"{label}: answer must be a number >= 0 (at most {MAX_NUMBER_ANSWER:.0e}), got {answer!r}")
    return Question(text=raw["question"].strip(), answer=answer,
                    background=raw["background"].strip(), source=raw["source"].strip(),
                    unit=raw.get("unit", "").strip())


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, float) and math.isfinite(value)) or (_is_int(value) and abs(value) <= MAX_NUMBER_ANSWER)
