"""Game of the States, Trivia: tolerant matching of typed answers (matching.py)."""
from __future__ import annotations

import pytest

from stateside.games.game_of_the_states.matching import (
    UNKNOWN, answer_value, names_match, normalise, parse_number, population_millions,
)
from stateside.games.game_of_the_states.trivia import values


@pytest.mark.parametrize("typed, answer", [
    ("montgomery", "Montgomery"),                 # case
    ("  MONTGOMERY ", "Montgomery"),
    ("Santa Fé", "Santa Fe"),                     # accents
    ("Saint Paul", "Saint Paul"),
    ("St. Paul", "Saint Paul"),                   # "St." / "Saint"
    ("st paul", "Saint Paul"),
    ("Show Me State", "Show-Me State"),           # punctuation
    ("show-me", "Show-Me State"),                 # a nickname without "State"
    ("Last Frontier", "The Last Frontier"),       # a leading "The"
    ("the Sunshine State", "Sunshine State"),
    ("Montgomary", "Montgomery"),                 # one typo in a long name
    ("Montgomeryy", "Montgomery"),                # one letter too many
    ("Montgmery", "Montgomery"),                  # one letter missing
    ("Montogmery", "Montgomery"),                 # two letters swapped
    ("Salt Lake Cty", "Salt Lake City"),
    ("Oklahoma City", "Oklahoma City"),
    ("jefferson city", "Jefferson City"),
    ("Old Line", "Old Line State"),
])
def test_typed_names_that_are_right(typed, answer):
    assert names_match(typed, answer, nickname=True)


@pytest.mark.parametrize("typed, answer", [
    ("Dovr", "Dover"),                             # a short name must be spelled right
    ("Salem", "Salt Lake City"),
    ("Montgommmery", "Montgomery"),                # two typos
    ("Columbus", "Columbia"),                      # another capital, two letters off
    ("", "Boston"),
    ("Pierce", "Pierre"),
])
def test_typed_names_that_are_wrong(typed, answer):
    assert not names_match(typed, answer)


def test_normalise():
    assert normalise("  The  Old-Line   State ", nickname=True) == "old line"
    assert normalise("St. Paul") == "saint paul"
    assert normalise("Hawai\u02bbi") == normalise("Hawai'i") == "hawaii"


def test_numbers_people_type():
    assert parse_number("39.5") == 39.5
    assert parse_number("39,5") == 39.5
    assert parse_number("39.5 million") == 39.5
    assert parse_number("1,787") == 1787
    assert parse_number("49th") == 49
    assert parse_number("about forty") is None
    assert population_millions("39,538,223") == pytest.approx(39.538223)
    assert population_millions("12 million") == 12


def test_answer_value_maps_typed_text_to_a_recorded_answer():
    caps = ["Montgomery", *[c for c in values("capital") if c != "Montgomery"]]
    assert answer_value("montgomary", "capital", caps) == "Montgomery"
    assert answer_value("Paris", "capital", caps) == UNKNOWN
    assert answer_value("columbus", "capital", caps) == "Columbus"       # another capital: wrong answer
    assert answer_value("39.54 million", "population", values("population")) == "39.5"
    assert answer_value("39,538,223", "population", values("population")) == "39.5"
    assert answer_value("1787", "entered", values("entered")) == "1787"
    assert answer_value("1787.5", "entered", values("entered")) == UNKNOWN
    assert answer_value("22nd", "rank", values("rank")) == "22"
    assert answer_value("", "rank", values("rank")) == UNKNOWN


def test_no_two_capitals_or_nicknames_are_one_typo_apart():
    """So a forgiven typo can never turn a right answer into another state's answer."""
    from stateside.games.game_of_the_states.matching import _one_edit

    for fact in ("capital", "nickname"):
        norm = [normalise(v, nickname=fact == "nickname").replace(" ", "") for v in values(fact)]
        for i, a in enumerate(norm):
            for b in norm[i + 1:]:
                assert a != b and not (len(a) >= 8 and _one_edit(a, b)), (a, b)
