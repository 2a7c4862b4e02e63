"""Game of the States, Trivia: tolerant matching of typed answers (matching.py)."""
from __future__ import annotations

import pytest

from stateside.games.game_of_the_states.matching import (
    LONG_NAME,
    UNKNOWN,
    answer_value,
    names_match,
    normalise,
    parse_number,
    population_millions,
    year_of,
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
    ("Dovr", "Dover"),                            # five letters: one typo forgiven
    ("Pheonix", "Phoenix"),
    ("Concorde", "Concord"),
    ("Pierce", "Pierre"),                         # one letter wrong in six
    ("I think it's Boise", "Boise"),              # words around the answer
])
def test_typed_names_that_are_right(typed, answer):
    assert names_match(typed, answer, nickname=True)


@pytest.mark.parametrize("typed, answer", [
    ("Gum", "Gem State"),                          # a name under five letters must be spelled right
    ("Salem", "Salt Lake City"),
    ("Montgommmery", "Montgomery"),                # two typos
    ("Columbus", "Columbia"),                      # another capital, two letters off
    ("", "Boston"),
    ("Pierrre e", "Pierre"),
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
    assert parse_number("about forty") == 40
    assert parse_number("forty or so apples") is None
    assert parse_number("nan") is None and parse_number("inf") is None and parse_number("-3") is None
    assert population_millions("39,538,223") == pytest.approx(39.538223)
    assert population_millions("12 million") == 12


def test_answer_value_maps_typed_text_to_a_recorded_answer():
    caps = ["Montgomery", *[c for c in values("capital") if c != "Montgomery"]]
    assert answer_value("montgomary", "capital", caps) == "Montgomery"
    assert answer_value("Paris", "capital", caps) == UNKNOWN
    assert answer_value("columbus", "capital", caps) == "Columbus"       # another capital: wrong answer
    assert answer_value("39.54 million", "population", values("population")) == "39.54"
    assert answer_value("39,538,223", "population", values("population")) == "39.54"
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
                assert a != b and not (len(a) >= LONG_NAME and _one_edit(a, b)), (a, b)


# --- the quizmaster's table -----------------------------------------------------------------
# Typed answers and the verdict a fair quizmaster gives, worked out by hand from the
# sources of the facts (resources/data/SOURCES.md: the Census Bureau's 2020 counts, the
# National Archives' dates of statehood; resources/game_of_the_states/settled.yaml: the
# documented years of first settlement). Populations: right within one million of the
# exact 2020 count, so the arithmetic is written beside each.
QUIZ = [
    # the nine answers the audit found misjudged
    ("MN", "capital", "Saint Paul, MN", True),
    ("AZ", "capital", "Pheonix", True),                   # Phoenix, 7 letters, two swapped
    ("NH", "capital", "Concorde", True),                  # Concord, 7 letters, one extra
    ("CA", "population", "38.54", True),                  # 39.538223 - 38.54 = 0.998
    ("CA", "population", "about 39 million", True),       # 0.538 off
    ("CA", "population", "39 million people", True),
    ("WY", "population", "half a million", True),         # 0.576851 - 0.5 = 0.077
    ("CA", "entered", "September 9, 1850", True),         # admitted 1850-09-09
    ("CA", "population", "40.54", False),                 # 40.54 - 39.538223 = 1.0018
    # populations (2020 Census)
    ("CA", "population", "40,538,223", True),             # exactly one million over
    ("CA", "population", "40,538,224", False),            # one person more
    ("CA", "population", "38,538,222", False),            # one person under the line
    ("CA", "population", "thirty-nine million", True),
    ("CA", "population", "forty-one million", False),     # 1.46 off
    ("TX", "population", "29.1", True),                   # 29,145,505
    ("TX", "population", "twenty-nine million", True),
    ("TX", "population", "27 million", False),            # 2.15 off
    ("NY", "population", "20,201,249", True),
    ("NY", "population", "21.3 million", False),          # 1.099 off
    ("FL", "population", "21.5", True),                   # 21,538,187
    ("WY", "population", "576,851", True),
    ("WY", "population", "two million", False),           # 1.42 off
    ("RI", "population", "a million", True),              # 1,097,379
    ("RI", "population", "one and a half million", True),  # 0.40 off
    ("DE", "population", "2.1 million", False),           # 989,948: 1.11 off
    ("VT", "population", "600,000", True),                # 643,077
    ("NJ", "population", "nine point three million", True),  # 9,288,994
    ("AK", "population", "1.8", False),                   # 733,391: 1.067 off
    ("PA", "population", "14 million", True),             # 13,002,700: 0.997 off
    ("PA", "population", "14.01 million", False),         # 1.007 off
    # capitals
    ("MN", "capital", "St. Paul", True),
    ("MN", "capital", "saint paul minnesota", True),
    ("MN", "capital", "Minneapolis", False),
    ("MN", "capital", "Saint Paul, WI", False),           # names another state
    ("SC", "capital", "Columbus", False),                 # Ohio's capital, not a typo of Columbia
    ("OH", "capital", "Columbia", False),                 # South Carolina's
    ("OH", "capital", "Colombus", True),
    ("DE", "capital", "Dovr", True),                      # Dover, five letters
    ("SD", "capital", "Pierce", True),                    # Pierre, one letter wrong in six
    ("AZ", "capital", "Phoenix, AZ", True),
    ("AZ", "capital", "phoenix arizona", True),
    ("AZ", "capital", "Tucson", False),
    ("ME", "capital", "Augusta, GA", False),              # Augusta, Georgia is another city
    ("ME", "capital", "Augusta", True),
    ("NV", "capital", "carson cty", True),
    ("NM", "capital", "Santa F\u00e9", True),
    ("NM", "capital", "Santa Fe, NM", True),
    ("NY", "capital", "New York City", False),
    ("IL", "capital", "I think it's Springfield", True),
    ("TX", "capital", "Austn?", True),
    ("KY", "capital", "Louisville", False),
    ("VT", "capital", "Montpellier", True),               # one letter extra in ten
    # nicknames
    ("TX", "nickname", "Lone Star", True),
    ("FL", "nickname", "the sunshine state", True),
    ("NY", "nickname", "Empire", True),
    ("WV", "nickname", "Green Mountain State", False),    # Vermont's
    ("VT", "nickname", "Green Mountain", True),
    ("MO", "nickname", "Show Me", True),
    ("ID", "nickname", "Gum State", False),               # "Gem": three letters, no typo forgiven
    ("CO", "nickname", "Centenial State", True),
    ("MA", "nickname", "Empire State", False),            # New York's
    # years of entry (the year only is required)
    ("CA", "entered", "1850", True),
    ("CA", "entered", "9/9/1850", True),
    ("CA", "entered", "1850-09-09", True),
    ("CA", "entered", "eighteen fifty", True),
    ("CA", "entered", "1849", False),
    ("CA", "entered", "the 1850s", False),
    ("DE", "entered", "December 7, 1787", True),
    ("DE", "entered", "December 7, 1788", False),
    # years settled: the card's and every documented other year
    ("PA", "settled", "1643", True),                      # Swedes at Tinicum Island
    ("PA", "settled", "1682", True),                      # William Penn's Philadelphia
    ("PA", "settled", "1681", False),                     # the charter, not a settlement
    ("NM", "settled", "1598", True),
    ("NM", "settled", "1610", True),
    ("OK", "settled", "1889", True),
    ("CO", "settled", "1858", True),
    ("OK", "settled", "1796", True),                      # Chouteau's post at Salina, the card
    ("OK", "settled", "1907", False),                     # statehood, not settlement
    ("WA", "settled", "1810", True),                      # Spokane House
    ("ND", "settled", "in 1797", True),                   # Chaboillez's post at Pembina
    ("VA", "settled", "in 1607", True),
    ("VA", "settled", "1620", False),                     # Plymouth, Massachusetts
    ("MA", "settled", "1607", False),
    # ranks of entry
    ("DE", "rank", "first", True),
    ("DE", "rank", "1st", True),
    ("CA", "rank", "thirty-first", True),
    ("CA", "rank", "the 31st state", True),
    ("HI", "rank", "fiftieth", True),
    ("HI", "rank", "49th", False),
]


@pytest.mark.parametrize("code, fact, typed, right", QUIZ, ids=[f"{c}-{f}-{t}" for c, f, t, _ in QUIZ])
def test_the_quizmaster_judges_typed_answers_fairly(code, fact, typed, right):
    from stateside.games.game_of_the_states.trivia import is_right, typed_action

    action = typed_action(code, fact, typed)
    assert action.startswith("say:")
    assert is_right(code, fact, action[4:]) is right, action


def test_the_table_has_sixty_answers_right_and_wrong():
    assert len(QUIZ) >= 60
    # issue 24: the nine answers the audit found judged wrongly are among them, each with
    # the verdict it should have had
    nine = {("MN", "capital", "Saint Paul, MN", True), ("AZ", "capital", "Pheonix", True),
            ("NH", "capital", "Concorde", True), ("CA", "population", "38.54", True),
            ("CA", "population", "about 39 million", True), ("CA", "population", "39 million people", True),
            ("WY", "population", "half a million", True), ("CA", "entered", "September 9, 1850", True),
            ("CA", "population", "40.54", False)}
    assert nine <= set(QUIZ)
    assert sum(r for *_, r in QUIZ) >= 20 and sum(not r for *_, r in QUIZ) >= 20


def test_a_typed_population_keeps_its_verdict_when_recorded():
    """No rounding first: the value recorded for a wrong figure is as wrong as the figure."""
    from stateside.games.game_of_the_states.trivia import is_right, typed_action

    for typed in ("40.535", "40.539", "40.5383", "38.5381", "38.53"):
        exact_off = abs(float(typed) - 39.538223)
        assert is_right("CA", "population", typed_action("CA", "population", typed)[4:]) is (exact_off <= 1.0), typed


def test_dates_and_years_in_words():
    assert year_of("September 9, 1850") == year_of("9 Sept. 1850") == year_of("1850-09-09") == 1850
    assert year_of("seventeen eighty-seven") == 1787 and year_of("nineteen oh five") == 1905
    assert year_of("one thousand seven hundred eighty seven") == 1787
    assert year_of("September 1850 or 1851") is None


def test_no_capital_ends_in_a_word_that_is_a_postal_code():
    """So "Boise ID" can be read as the city and its state."""
    from stateside.games.game_of_the_states import parts

    codes = set(parts.state_codes())
    assert not [c for c in values("capital") if c.split()[-1].upper() in codes]
