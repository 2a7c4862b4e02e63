"""America scoring and bars: the rulebook's examples and facts (rulebooks/america.txt)."""
import pytest

from stateside.errors import DataError
from stateside.games.america.bars import parse_bars
from stateside.games.america.rules import (
    NUMBER_BAR, YEAR_BAR, explain_card, score_card, space_for, states_adjacent,
)

AMUSEMENT_PARK = {"year": 1880, "state": "FL", "number": 12_000_000}


# --- the bars ---------------------------------------------------------------------------

def test_year_bar_facts_place_a_marker_on_a_bar():
    """Rulebook, 3. Place the Markers > Place a Marker on a Bar > Year bar: the 1875 space
    holds 1875 through 1899 but not 1900; nothing is before 1492; 2015 or later is on 2015."""
    i = YEAR_BAR.index("1850")
    assert YEAR_BAR[i:i + 4] == ("1850", "1875", "1900", "1910")
    assert YEAR_BAR[0] == "1492" and YEAR_BAR[-1] == "2015"
    assert space_for("year", 1875) == "1875"
    assert space_for("year", 1899) == "1875"
    assert space_for("year", 1900) == "1900"
    assert space_for("year", 1492) == "1492"
    assert space_for("year", 2015) == "2015"
    assert space_for("year", 2024) == "2015"
    with pytest.raises(DataError, match="below"):
        space_for("year", 1491)


def test_number_bar_facts_place_a_marker_on_a_bar():
    """Rulebook, 3. Place the Markers > Place a Marker on a Bar > Number bar: the 10M space
    holds 10 million through 99,999,999 but not 100 million; nothing is below 0; one
    billion or more is on 1B."""
    assert NUMBER_BAR[0] == "0" and NUMBER_BAR[-1] == "1B"
    i = NUMBER_BAR.index("1M")
    assert NUMBER_BAR[i + 1] == "10M"
    assert space_for("number", 10_000_000) == "10M"
    assert space_for("number", 99_999_999) == "10M"
    assert space_for("number", 100_000_000) == "100M"
    assert space_for("number", 9_999_999) == "1M"
    assert space_for("number", 0) == "0"
    assert space_for("number", 0.5) == "0"
    assert space_for("number", 1_000_000_000) == "1B"
    assert space_for("number", 7_500_000_000) == "1B"
    with pytest.raises(DataError):
        space_for("number", -1)


def test_bars_spaces_rise_and_labels_are_unique():
    for bar in (YEAR_BAR, NUMBER_BAR):
        assert len(set(bar)) == len(bar)
    years = [space_for("year", int(label)) for label in YEAR_BAR]
    assert years == list(YEAR_BAR)


def test_bar_file_errors_name_the_space():
    with pytest.raises(DataError, match="year space 2.*above"):
        parse_bars({"year": [{"label": "1900", "from": 1900}, {"label": "1800", "from": 1800},
                             {"label": "2000", "from": 2000}],
                    "number": [{"label": "0", "from": 0}, {"label": "1", "from": 1}, {"label": "2", "from": 2}]},
                   "bars.yaml")
    with pytest.raises(DataError, match="'number' must be a list"):
        parse_bars({"year": [{"label": "1", "from": 1}, {"label": "2", "from": 2}, {"label": "3", "from": 3}]},
                   "bars.yaml")


def test_space_for_state_and_bad_sections():
    assert space_for("state", "GA") == "GA"
    with pytest.raises(DataError):
        space_for("state", "DC")    # "There is no spot for the District of Columbia"
    with pytest.raises(DataError):
        space_for("colour", 3)


# --- the Scoring Example ----------------------------------------------------------------

SCORING_EXAMPLE_PLACEMENTS = [
    # year: the answer is on the 1875 space
    ("Black", "year", "1875"), ("Black", "year", "1900"), ("Red", "year", "1850"), ("White", "year", "1910"),
    # state: Florida
    ("Red", "state", "FL"), ("White", "state", "GA"), ("Black", "state", "AL"), ("Blue", "state", "MS"),
    # number: the 10M space; nobody is on it
    ("Blue", "number", "1M"), ("Blue", "number", "no-exact"), ("Red", "number", "1K"),
    ("Black", "number", "1B"), ("White", "number", "no-exact-or-adjacent"),
]


def test_scoring_example():
    """Rulebook, 4. Score > Scoring Example (the Amusement Park card), every marker:
    Black 7 + 3 on the year bar, 3 for Alabama; Red 3 for 1850, 7 for Florida; White 3 for
    Georgia and nothing for 1910 or No Exact or Adjacent (1M is next to 10M); Blue 3 for
    1M and 3 for No Exact, nothing for Mississippi."""
    assert score_card(AMUSEMENT_PARK, SCORING_EXAMPLE_PLACEMENTS) == {
        "Black": 7 + 3 + 3, "Red": 3 + 7, "White": 3, "Blue": 3 + 3,
    }
    points = {(l.player, l.section, l.space): l.points for l in explain_card(AMUSEMENT_PARK, SCORING_EXAMPLE_PLACEMENTS)}
    assert points[("Black", "year", "1875")] == 7
    assert points[("Black", "year", "1900")] == 3
    assert points[("Red", "year", "1850")] == 3
    assert points[("White", "year", "1910")] == 0
    assert points[("Red", "state", "FL")] == 7
    assert points[("White", "state", "GA")] == 3
    assert points[("Black", "state", "AL")] == 3
    assert points[("Blue", "state", "MS")] == 0
    assert points[("Blue", "number", "1M")] == 3
    assert points[("Blue", "number", "no-exact")] == 3
    assert points[("Red", "number", "1K")] == 0
    assert points[("Black", "number", "1B")] == 0
    assert points[("White", "number", "no-exact-or-adjacent")] == 0


def test_scoring_example_explanations_and_order():
    """Rulebook, 4. Score: "Score the Year, then the State, then the Number"; each
    scoring marker is explained in words for the reveal."""
    lines = explain_card(AMUSEMENT_PARK, SCORING_EXAMPLE_PLACEMENTS)
    assert [l.section for l in lines] == ["year"] * 4 + ["state"] * 4 + ["number"] * 5
    texts = [l.text() for l in lines]
    assert "+3 White: Georgia is next to Florida" in texts
    assert "+7 Red: Florida is the answer" in texts
    assert "0 Blue: Mississippi is not next to Florida" in texts
    assert "+7 Black: 1880 is on the 1875 space" in texts
    assert any(t.startswith("+3 Blue: No Exact (number)") for t in texts)


# --- State Scoring: adjacency notes ---------------------------------------------------------

@pytest.mark.parametrize("a,b,adjacent", [
    ("AZ", "CO", False), ("UT", "NM", False),          # the Four Corners
    ("AK", "HI", True),                                 # for game purposes
    ("DE", "MD", True), ("DE", "PA", True), ("DE", "NJ", True),
    ("CT", "NJ", False), ("MI", "WI", True),
    # "States that share the Mississippi River as a border are adjacent to each other": every
    # pair facing each other across the river
    ("MN", "WI", True), ("IA", "WI", True), ("IA", "IL", True), ("IL", "MO", True), ("KY", "MO", True),
    ("MO", "TN", True), ("AR", "TN", True), ("AR", "MS", True), ("LA", "MS", True),
])
def test_state_adjacency_notes(a, b, adjacent):
    """Rulebook, 4. Score > State Scoring > State adjacency notes."""
    assert states_adjacent(a, b) is adjacent
    ans = {"year": 1900, "state": a, "number": 5}
    assert score_card(ans, [("P", "state", b)]) == {"P": 3 if adjacent else 0}


def test_alaska_and_hawaii_touch_only_each_other():
    """State adjacency notes: Alaska and Hawaii are adjacent to each other, but to no other state."""
    from stateside.games.america.rules import state_codes

    for code in state_codes():
        if code not in ("AK", "HI"):
            assert not states_adjacent("AK", code) and not states_adjacent("HI", code)
    ans = {"year": 1959, "state": "HI", "number": 50}
    assert score_card(ans, [("Red", "state", "AK"), ("Blue", "state", "WA"), ("White", "state", "no-exact-or-adjacent")]) \
        == {"Red": 3, "Blue": 0, "White": 0}


# --- "No Exact" and "No Exact or Adjacent" Scoring ------------------------------------------

def test_no_exact_scores_when_nobody_is_on_the_answer():
    """Rulebook, "No Exact" and "No Exact or Adjacent" Scoring: No Exact scores 3 when no
    one is on the exact space, even when someone is next to it."""
    ans = {"year": 1880, "state": "FL", "number": 5}
    assert score_card(ans, [("A", "year", "1900"), ("B", "year", "no-exact")]) == {"A": 3, "B": 3}
    assert score_card(ans, [("A", "year", "1875"), ("B", "year", "no-exact")]) == {"A": 7, "B": 0}


def test_no_exact_or_adjacent_needs_nobody_on_or_next_to_the_answer():
    ans = {"year": 1880, "state": "FL", "number": 5}
    assert score_card(ans, [("A", "state", "TX"), ("B", "state", "no-exact-or-adjacent")]) == {"A": 0, "B": 7}
    assert score_card(ans, [("A", "state", "GA"), ("B", "state", "no-exact-or-adjacent")]) == {"A": 3, "B": 0}
    assert score_card(ans, [("A", "state", "FL"), ("B", "state", "no-exact-or-adjacent")]) == {"A": 7, "B": 0}
    # both bets at once, nobody near: 3 + 7
    assert score_card(ans, [("A", "state", "no-exact"), ("A", "state", "no-exact-or-adjacent")]) == {"A": 10}


def test_no_exact_spaces_look_only_at_their_own_section():
    """The No Exact pair of each section (Year, State, Number) judges only that section."""
    ans = {"year": 1880, "state": "FL", "number": 5}
    placements = [("A", "year", "1875"), ("A", "state", "FL"), ("B", "number", "no-exact"),
                  ("B", "number", "no-exact-or-adjacent")]
    assert score_card(ans, placements) == {"A": 14, "B": 10}


def test_a_players_own_marker_spoils_their_no_exact():
    ans = {"year": 1880, "state": "FL", "number": 5}
    assert score_card(ans, [("A", "number", "5"), ("A", "number", "no-exact")]) == {"A": 7}


def test_bar_ends_have_one_neighbour():
    """Bar Scoring: adjacent means the next space; the first and last spaces have one."""
    ans = {"year": 1492, "state": "FL", "number": 2_000_000_000}
    placements = [("A", "year", "1600"), ("A", "year", "1700"), ("B", "number", "100M"), ("B", "number", "10M")]
    assert score_card(ans, placements) == {"A": 3, "B": 3}


def test_several_markers_each_score():
    """Bar Scoring: "Score 7 points for each of your markers on a correct bar space. Score 3
    points for each of your markers that are adjacent"."""
    ans = {"year": 1880, "state": "KY", "number": 5}
    placements = [("A", "state", "KY"), ("A", "state", "TN"), ("A", "state", "OH"), ("A", "state", "IN"),
                  ("A", "state", "FL")]
    assert score_card(ans, placements) == {"A": 7 + 3 + 3 + 3}


def test_unknown_spaces_are_data_errors():
    with pytest.raises(DataError):
        score_card(AMUSEMENT_PARK, [("A", "year", "1876")])
    with pytest.raises(DataError):
        score_card(AMUSEMENT_PARK, [("A", "state", "XX")])


@pytest.mark.parametrize("answers, placements, message", [
    # Place a Marker on a State / on a Bar: "You may never place a marker on a space that
    # has another marker of any color" (the No Exact spaces too)
    (AMUSEMENT_PARK, [("Red", "state", "FL"), ("Blue", "state", "FL")], "two markers on Florida"),
    (AMUSEMENT_PARK, [("Red", "year", "1875"), ("Red", "year", "1875")], "two markers on the 1875 year space"),
    (AMUSEMENT_PARK, [("Red", "number", "no-exact"), ("Blue", "number", "no-exact")],
     r"two markers on No Exact \(number\)"),
    # America Cards: "There are 3 questions and 3 answers for each topic"
    ({"year": 1880, "state": "FL"}, [("Red", "state", "FL")], "no number answer"),
    ({}, [], "no year answer"),
    (["year", 1880], [], "must be a mapping"),
    # Year bar / Number bar: answers are years and numbers
    ({"year": "1880", "state": "FL", "number": 5}, [], "year answer must be a number"),
    ({"year": 1880, "state": "FL", "number": True}, [], "number answer must be a number"),
    ({"year": 1880, "state": "FL", "number": float("nan")}, [], "number answer must be a number"),
    ({"year": 1880, "state": "XX", "number": 5}, [], "not a state postal code"),
])
def test_score_card_refuses_what_the_rules_forbid(answers, placements, message):
    """score_card refuses, with a DataError that says why, two markers on one space, a
    card without one of its three answers, and an answer that is not a year, state or
    number."""
    with pytest.raises(DataError, match=message):
        score_card(answers, placements)
