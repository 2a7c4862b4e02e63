"""America's deck (resources/decks/america) and its loader, stateside.games.america.deck.

The rulebook's 'America Cards' section: each card has two sides, each side a topic with
a year, a state and a number question; year answers are never before 1492, state
answers are one of the 50 states (never DC), number answers are never below 0.
"""
from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import math
import re
from pathlib import Path

import pytest
import yaml

from stateside.data.states import load_states
from stateside.errors import DataError
from stateside.games.america.deck import SECTIONS, THEMES, Card, Question, Topic, load_deck

# --- the bundled deck ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def deck() -> tuple[Card, ...]:
    return load_deck()


@pytest.fixture(scope="module")
def topics(deck) -> list[Topic]:
    return [topic for card in deck for topic in card.topics]


def test_bundled_deck_has_at_least_60_two_sided_cards(deck, topics):
    assert len(deck) >= 60
    assert len(topics) >= 120
    numbers = [card.number for card in deck]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    for card in deck:
        assert [t.side for t in card.topics] == ["A", "B"]
        assert all(t.card == card.number for t in card.topics)
        assert card.side("B") is card.topics[1]


def test_bundled_titles_and_refs_are_unique(topics):
    titles = [" ".join(t.title.casefold().split()) for t in topics]
    assert len(set(titles)) == len(titles)
    assert len({t.ref for t in topics}) == len(topics)


def test_every_bundled_answer_is_valid_and_sourced(topics):
    """Rulebook: no year before 1492, no DC, no number below 0; our rule: every answer sourced."""
    codes = set(load_states())
    this_year = dt.date.today().year
    for t in topics:
        assert isinstance(t.year.answer, int) and 1492 <= t.year.answer <= this_year, t.title
        assert t.state.answer in codes and t.state.answer != "DC", t.title
        assert isinstance(t.number.answer, (int, float)) and t.number.answer >= 0, t.title
        assert t.number.unit, t.title
        for q in (t.year, t.state, t.number):
            assert q.text.endswith("?"), (t.title, q.text)
            assert q.background and q.source, t.title
            assert "\n" not in q.background, t.title
        assert t.answers == {"year": t.year.answer, "state": t.state.answer,
                             "number": t.number.answer}
        assert [t.question(s) for s in SECTIONS] == [t.year, t.state, t.number]


def test_bundled_answers_are_spread_over_the_board(topics):
    states = load_states()
    answered = {t.state.answer for t in topics}
    assert len(answered) >= 30
    sides = {states[code].mississippi for code in answered}
    assert sides == {"east", "west"}
    years = [t.year.answer for t in topics]
    assert sum(y < 1900 for y in years) >= 30 and sum(y >= 1900 for y in years) >= 30
    assert min(years) < 1650 and max(years) >= 2000
    # the bar's busy middle still holds a good share (the 160-card deck spreads years wider;
    # tests/test_america_deck_spread.py checks every space)
    assert sum(1850 <= y < 1950 for y in years) >= len(years) // 4
    magnitudes = {int(math.log10(t.number.answer)) if t.number.answer >= 1 else 0 for t in topics}
    assert len(magnitudes) >= 6
    assert max(t.number.answer for t in topics) >= 1_000_000_000


def test_no_bundled_question_or_title_gives_its_answer_away(topics):
    states = load_states()
    for t in topics:
        texts = [t.title, t.year.text, t.state.text, t.number.text]
        name = states[t.state.answer].name.casefold()
        for text in texts:
            assert name not in text.casefold(), (t.title, text)
            assert str(t.year.answer) not in text, (t.title, text)
        number = t.number.answer
        shown = f"{number:g}" if isinstance(number, float) else str(number)
        assert not re.search(rf"(?<![\d.,]){re.escape(shown)}(?![\d.,])",
                             " ".join(texts).replace(",", "")), t.title


def test_every_bundled_topic_has_a_theme_from_the_fixed_list(deck):
    assert len(THEMES) == 14 and "disasters" in THEMES
    for card in deck:
        assert all(t.theme in THEMES for t in card.topics), card.number


def test_dataclasses_are_frozen(topics):
    with pytest.raises(dataclasses.FrozenInstanceError):
        topics[0].title = "x"  # type: ignore[misc]
    assert Question("Q?", 1, "b", "s").unit == ""


# --- small decks written to tmp_path ------------------------------------------------------

def _topic(title: str, theme: str = "politics") -> dict:
    return {
        "title": title,
        "theme": theme,
        "year": {"question": "When?", "answer": 1900, "background": "b", "source": "s"},
        "state": {"question": "Where?", "answer": "OH", "background": "b", "source": "s"},
        "number": {"question": "How many?", "answer": 7, "unit": "things",
                   "background": "b", "source": "s"},
    }


def _card(number: int) -> dict:
    return {"card": number,
            "topics": [_topic(f"Topic {number}A"), _topic(f"Topic {number}B", "sports")]}


def _write(folder: Path, name: str, cards) -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(cards, sort_keys=False), encoding="utf-8")
    return path


def _raises(folder: Path, *fragments: str) -> str:
    with pytest.raises(DataError) as info:
        load_deck(folder)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return message


def test_small_valid_deck_loads_all_card_files_in_name_order(tmp_path):
    _write(tmp_path, "cards-02.yaml", [_card(3)])
    _write(tmp_path, "cards-01.yaml", [_card(2), _card(1)])
    _write(tmp_path, "notes.yaml", "not a deck file and not read")
    deck = load_deck(tmp_path)
    assert [c.number for c in deck] == [1, 2, 3]
    topic = deck[0].topics[1]
    assert (topic.title, topic.card, topic.side, topic.ref) == ("Topic 1B", 1, "B", "1B")
    assert topic.number == Question("How many?", 7, "b", "s", "things")
    assert (deck[0].topics[0].theme, topic.theme) == ("politics", "sports")


def test_empty_or_missing_folder_is_an_error(tmp_path):
    _raises(tmp_path, str(tmp_path), "no deck files")
    _raises(tmp_path / "nowhere", "no deck files")


def test_malformed_yaml_names_file_and_line(tmp_path):
    good = yaml.safe_dump([_card(1)], sort_keys=False)
    (tmp_path / "cards-01.yaml").write_text(good + "- card: 2\n  topics: [\n", encoding="utf-8")
    _raises(tmp_path, "cards-01.yaml", "not valid YAML", "line")


def test_top_level_must_be_a_list_of_cards(tmp_path):
    _write(tmp_path, "cards.yaml", {"card": 1})
    _raises(tmp_path, "cards.yaml", "list of cards")
    _write(tmp_path, "cards.yaml", ["just text"])
    _raises(tmp_path, "cards.yaml", "entry 1 is not a card")


@pytest.mark.parametrize("section,key", [("year", "source"), ("state", "question"),
                                         ("number", "unit"), ("number", "answer")])
def test_missing_key_names_file_card_topic_and_field(tmp_path, section, key):
    card = _card(4)
    del card["topics"][1][section][key]
    _write(tmp_path, "cards-x.yaml", [card])
    _raises(tmp_path, "cards-x.yaml", "card 4", "'Topic 4B'", section, f"missing key '{key}'")


def test_missing_section_and_extra_keys_are_errors(tmp_path):
    card = _card(1)
    del card["topics"][0]["state"]
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "'Topic 1A'", "missing key 'state'")
    card = _card(1)
    card["topics"][0]["year"]["unit"] = "years"       # units belong to number questions only
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "'Topic 1A'", "year", "unknown key 'unit'")
    card = _card(1)
    card["topics"][0]["hint"] = "east"
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "'Topic 1A'", "unknown key 'hint'")
    card = _card(1)
    card["colour"] = "red"
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "card 1", "unknown key 'colour'")


@pytest.mark.parametrize("answer", [1491, 1000, dt.date.today().year + 1, "1869", 1869.0, True])
def test_year_must_be_a_whole_year_from_1492_to_now(tmp_path, answer):
    card = _card(5)
    card["topics"][0]["year"]["answer"] = answer
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "cards.yaml", "card 5", "'Topic 5A'", "year", "whole year from 1492")


def test_year_1492_and_this_year_are_accepted(tmp_path):
    card = _card(1)
    card["topics"][0]["year"]["answer"] = 1492
    card["topics"][1]["year"]["answer"] = dt.date.today().year
    _write(tmp_path, "cards.yaml", [card])
    assert [t.year.answer for t in load_deck(tmp_path)[0].topics] == [1492, dt.date.today().year]


@pytest.mark.parametrize("answer", ["DC", "XX", "ca", "Ohio", 39, None])
def test_state_must_be_one_of_the_50_postal_codes(tmp_path, answer):
    card = _card(6)
    card["topics"][1]["state"]["answer"] = answer
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "cards.yaml", "card 6", "'Topic 6B'", "state", "50 states")


@pytest.mark.parametrize("answer", [-1, -0.5, "1,000", True, None, float("nan"), float("inf")])
def test_number_must_be_a_number_not_below_zero(tmp_path, answer):
    card = _card(7)
    card["topics"][0]["number"]["answer"] = answer
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "cards.yaml", "card 7", "'Topic 7A'", "number", "number >= 0")


def test_number_zero_and_fractions_are_accepted(tmp_path):
    card = _card(1)
    card["topics"][0]["number"]["answer"] = 0
    card["topics"][1]["number"]["answer"] = 9.2
    _write(tmp_path, "cards.yaml", [card])
    assert [t.number.answer for t in load_deck(tmp_path)[0].topics] == [0, 9.2]


@pytest.mark.parametrize("section,key,value", [("year", "question", ""), ("state", "source", "  "),
                                               ("number", "background", None),
                                               ("number", "unit", "")])
def test_texts_must_not_be_empty(tmp_path, section, key, value):
    card = _card(8)
    card["topics"][1][section][key] = value
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "'Topic 8B'", section, f"'{key}' must be a non-empty text")


def test_title_must_not_be_empty(tmp_path):
    card = _card(9)
    card["topics"][0]["title"] = ""
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "card 9", "side A", "'title' must be a non-empty text")


def test_duplicate_titles_are_reported_with_both_places(tmp_path):
    _write(tmp_path, "cards-01.yaml", [_card(1)])
    other = _card(2)
    other["topics"][1]["title"] = "  topic   1a "           # same title, other case and spacing
    _write(tmp_path, "cards-02.yaml", [other])
    _raises(tmp_path, "cards-02.yaml", "card 2", "title already used", "cards-01.yaml", "card 1")


def test_duplicate_card_numbers_are_reported_with_both_places(tmp_path):
    _write(tmp_path, "cards-01.yaml", [_card(1)])
    again = _card(1)
    again["topics"] = [_topic("Other A"), _topic("Other B")]
    _write(tmp_path, "cards-02.yaml", [again])
    _raises(tmp_path, "cards-02.yaml", "card 1", "card number already used", "cards-01.yaml")


@pytest.mark.parametrize("count", [0, 1, 3])
def test_a_card_has_exactly_two_topics(tmp_path, count):
    card = _card(10)
    card["topics"] = [_topic(f"T{i}") for i in range(count)]
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "cards.yaml", "card 10", "exactly two topics", f"found {count}")


@pytest.mark.parametrize("number", [0, -3, "7", 1.5])
def test_card_number_must_be_a_positive_whole_number(tmp_path, number):
    card = _card(1)
    card["card"] = number
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "cards.yaml", "'card' must be a whole number >= 1")


def test_a_key_given_twice_is_an_error_with_its_line(tmp_path):
    text = yaml.safe_dump([_card(1)], sort_keys=False)
    text = text.replace("    year:\n", "    title: Again\n    year:\n", 1)
    (tmp_path / "cards.yaml").write_text(text, encoding="utf-8")
    message = _raises(tmp_path, "cards.yaml", "key 'title' appears twice", "line")
    assert re.search(r"line \d+", message)


def test_messages_give_the_line_of_the_entry(tmp_path):
    cards = [_card(1), _card(2)]
    bad = copy.deepcopy(cards)
    bad[1]["topics"][0]["state"]["answer"] = "XX"
    path = _write(tmp_path, "cards.yaml", bad)
    lines = path.read_text(encoding="utf-8").splitlines()
    topic_line = next(i for i, line in enumerate(lines, 1) if "title: Topic 2A" in line)
    state_line = next(i for i, line in enumerate(lines, 1)
                      if i > topic_line and line.strip() == "state:")
    _raises(tmp_path, f"line {state_line}:", "card 2", "'Topic 2A'", "state")
    bad = copy.deepcopy(cards)
    bad[1]["topics"][0]["title"] = "Topic 1A"            # a duplicate is reported at its topic
    _write(tmp_path, "cards.yaml", bad)
    _raises(tmp_path, f"line {topic_line}:", "card 2", "'Topic 1A'", "title already used")


def test_theme_is_required(tmp_path):
    card = _card(3)
    del card["topics"][1]["theme"]
    _write(tmp_path, "cards.yaml", [card])
    _raises(tmp_path, "cards.yaml", "card 3", "'Topic 3B'", "missing key 'theme'")


@pytest.mark.parametrize("theme", ["Politics", "war", "", None, 3, ["arts"]])
def test_theme_must_be_one_of_the_fixed_list(tmp_path, theme):
    card = _card(11)
    card["topics"][0]["theme"] = theme
    path = _write(tmp_path, "cards-t.yaml", [card])
    lines = path.read_text(encoding="utf-8").splitlines()
    theme_line = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("theme:"))
    _raises(tmp_path, f"cards-t.yaml: line {theme_line}:", "card 11", "'Topic 11A'", "theme",
            "must be one of politics, military", repr(theme))


# --- no topic gives its own answer away --------------------------------------------------------
_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
         "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _number_words(n: float) -> list[str]:
    """How a number may be written out in a title or question ("100": "hundred")."""
    if n != int(n):
        return []
    n = int(n)
    if n < 20:
        return [_ONES[n]] if n >= 2 else []
    if n < 100:
        return [_TENS[n // 10] + ("" if n % 10 == 0 else f"[- ]{_ONES[n % 10]}")]
    return {100: ["hundred"], 1000: ["thousand"], 1_000_000: ["million"], 1_000_000_000: ["billion"]}.get(n, [])


# Places that name a state as surely as its name does (the audit's examples besides the capitals).
_GIVEAWAY_PLACES = {"NJ": ("Atlantic City",), "KY": ("Bowling Green",), "PA": ("Hershey",)}
# A capital's name that is not the city: (topic title, word).
_NOT_THE_CITY = {("The Homestead Act", "Lincoln")}     # the president


def test_no_title_or_question_contains_its_own_answer(deck):
    """All three questions of a topic are read together under its title, so none of them
    may hold the state (its name, postal code, capital or an unmistakable town), the year or
    the number (in digits or words)."""
    states = load_states()
    found = []
    for card in deck:
        for t in card.topics:
            s = states[t.state.answer]
            year, number = t.year.answer, t.number.answer
            texts = {"title": t.title, **{sec: t.question(sec).text for sec in SECTIONS}}
            for where, text in texts.items():
                hits = []
                if re.search(rf"\b{re.escape(s.name)}\b", text, re.IGNORECASE) or re.search(rf"\b{s.code}\b", text):
                    hits.append(s.name)
                for place in (s.capital, *_GIVEAWAY_PLACES.get(s.code, ())):
                    if re.search(rf"\b{re.escape(place)}", text) and (t.title, place) not in _NOT_THE_CITY:
                        hits.append(place)
                if re.search(rf"(?<![\d,.]){year}(?![\d])", text):
                    hits.append(str(year))
                if number >= 2:
                    digits = {f"{number:,}", str(number)} | ({f"{int(number):,}", str(int(number))}
                                                               if number == int(number) else set())
                    if any(re.search(rf"(?<![\d,.]){re.escape(d)}(?![\d]|,\d)", text) for d in digits):
                        hits.append(str(number))
                    for w in _number_words(number):
                        if re.search(rf"\b{w}\b", text, re.IGNORECASE):
                            hits.append(w)
                if hits:
                    found.append(f"{t.ref} {t.title!r} {where}: {', '.join(hits)}")
    assert not found, "\n".join(found)


def test_the_giveaway_check_catches_the_audits_examples():
    """The check above on the topics as they were before they were rewritten."""
    states = load_states()
    ma, nj = states["MA"], states["NJ"]
    assert re.search(rf"\b{ma.capital}", "Inoculation in Boston")
    assert re.search(rf"\b{ma.capital}", "begin inoculating Bostonians against smallpox?")
    assert re.search(r"\bhundred\b", "Wilt's Hundred", re.IGNORECASE) and _number_words(100) == ["hundred"]
    assert any(re.search(rf"\b{re.escape(p)}", "near Brigantine, just north of Atlantic City")
               for p in _GIVEAWAY_PLACES[nj.code])
    assert re.search(_number_words(42)[0], "forty-two") and re.search(_number_words(42)[0], "forty two")


def test_number_answers_near_an_edge_are_reviewed(deck):
    """Every number answer within 10% of a space's edge is in SOURCES.md's table of answers
    checked against the other figures quoted (and the table lists no other)."""
    from stateside.games.america.bars import load_bars
    from stateside.paths import resource

    edges = [e for e in load_bars()["number"].starts[1:] if e >= 2]
    near = {t.ref for card in deck for t in card.topics
            if any(abs(t.number.answer - e) <= 0.10 * e for e in edges)}
    text = resource("decks", "america", "SOURCES.md").read_text(encoding="utf-8")
    table = text.split("## Number answers near a space's edge", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| (\d+[AB]) \|", table, re.MULTILINE))
    assert near == listed, (sorted(near - listed), sorted(listed - near))


def _reviewed_table(header: str) -> dict[str, tuple]:
    """SOURCES.md's rows of one number-review table: topic -> (title, answer, space, kind, why)."""
    from stateside.paths import resource

    text = resource("decks", "america", "SOURCES.md").read_text(encoding="utf-8")
    table = text.split(f"## {header}", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\d+[AB]) \| (.+?) \| ([\d,.]+) \| (\w+) \| (.+?) \| (.+?) \|$", table, re.MULTILINE)
    return {r[0]: r[1:] for r in rows}


def _check_reviewed(deck, header: str, low: float, high: float) -> None:
    """Every number answer whose distance to the nearest edge is in (low, high] of that edge
    is in the table, with its title, answer and space and why the space is not in doubt
    (issue 24: "the number questions checked against the other commonly quoted figures so
    that the space is unambiguous")."""
    from stateside.games.america.bars import load_bars

    bar = load_bars()["number"]
    edges = [e for e in bar.starts[1:] if e >= 2]
    want = {t.ref: t for card in deck for t in card.topics
            if low < min(abs(t.number.answer - e) / e for e in edges) <= high}
    rows = _reviewed_table(header)
    assert set(want) == set(rows), (sorted(set(want) - set(rows)), sorted(set(rows) - set(want)))
    for ref, t in want.items():
        title, answer, space, _kind, why = rows[ref]
        assert title == t.title and float(answer.replace(",", "")) == t.number.answer, ref
        assert space == bar.space_for(t.number.answer) and why.strip(), ref


def test_number_answers_10_to_25_percent_from_an_edge_are_reviewed(deck):
    _check_reviewed(deck, "Number answers 10% to 25% from a space's edge", 0.10, 0.25)


def test_number_answers_far_from_an_edge_are_reviewed(deck):
    _check_reviewed(deck, "Number answers far from a space's edge", 0.25, float("inf"))
