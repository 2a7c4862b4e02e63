"""`stateside ten-days check ...` and `stateside ten-days colours`."""
import pytest

from stateside.__main__ import main as stateside_main
from stateside.games.ten_days.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_valid_journey_prints_valid_and_exits_0(capsys):
    """Completing a Journey, with the rulebook's car and plane examples inside."""
    code, out, err = run(capsys, "check", "OR", "car", "AZ", "NM", "TX", "OK", "KS", "MO", "IL", "IN")
    assert (code, out, err) == (0, "valid\n", "")


def test_check_reports_one_problem_per_line_and_exits_1(capsys):
    """Special Travel Rules, Four Corners, as the referee would say it."""
    code, out, err = run(capsys, "check", "NE", "WY", "CO", "AZ", "NM", "TX", "OK", "KS", "car", "plane-red")
    assert code == 1 and err == ""
    assert out.splitlines() == [
        "day 3-4: Colorado and Arizona meet only at a corner",
        "day 9-10: two transport cards cannot be next to each other; each one must stand between two state cards",
        "day 10: the journey must end with a state card, not a red airplane",
    ]


def test_check_accepts_lower_case_and_airplane_words(capsys):
    code, out, _ = run(capsys, "check", "hi", "airplane-light-blue", "ca", "or", "wa", "id", "mt", "wy", "co", "ne")
    assert (code, out) == (0, "valid\n")


@pytest.mark.parametrize("argv,message", [
    (["CA", "OR"], "a journey has 10 days; you gave 2 cards"),
    (["CA", "OR", "WA", "ID", "MT", "WY", "CO", "NE", "IA", "XX"], "day 10: 'XX' is not a card"),
    (["CA", "OR", "WA", "ID", "MT", "plane-purple", "CO", "NE", "IA", "MN"], "no airplane of that colour"),
    (["CA", "OR", "WA", "ID", "MT", "plane-white", "CO", "NE", "IA", "MN"], "there are no white airplanes"),
    (["CA", "OR", "CA", "ID", "MT", "WY", "CO", "NE", "IA", "MN"], "California is on days 1 and 3"),
    (["CA", "plane-red", "MI", "plane-red", "MT", "plane-red", "CO", "NE", "IA", "MN"],
     "3 red airplane cards, but the game has only 2"),
])
def test_check_bad_words_exit_2_with_a_clear_message(capsys, argv, message):
    code, out, err = run(capsys, "check", *argv)
    assert code == 2 and out == ""
    assert err.startswith("stateside ten-days check: ") and message in err


def test_colours_lists_the_50_states(capsys):
    code, out, _ = run(capsys, "colours")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 50
    assert "AK white" in lines and "HI white" in lines and "CO red" in lines
    assert all(len(line.split()) == 2 and len(line.split()[0]) == 2 for line in lines)


def test_no_command_is_a_usage_error(capsys):
    code, _, err = run(capsys)
    assert code == 2 and "usage: stateside ten-days" in err


def test_reached_through_the_stateside_command(capsys):
    code = stateside_main(["ten-days", "check", "OH", "MI", "WI", "MN", "IA", "MO", "KS", "NE", "SD", "ND"])
    assert code == 0 and capsys.readouterr().out == "valid\n"


# The referee on hand-made journeys (the review's list: Alaska/Hawaii flights both ways and
# between them, cars beside Alaska and between Maine and New Hampshire, transport on day 1
# or 10, two transports in a row, a wrong airplane colour).
REFEREE = [
    ("WA plane-green AK plane-red HI plane-light-blue CA NV UT CO", 0, ["valid"]),
    ("HI plane-dark-blue AK plane-green WA ID MT WY CO NE", 0, ["valid"]),
    ("CA OR WA ID MT WY CO NE plane-tan HI", 1,
     ["day 8-10: flying to Hawaii needs an airplane of the colour of Nebraska (green), not a tan airplane"]),
    ("AK plane-tan WA ID MT WY CO NE IA MN", 1,
     ["day 1-3: flying from Alaska needs an airplane of the colour of Washington (green), not a tan airplane"]),
    ("CA OR WA ID MT WY CO NE car AK", 1,
     ["day 8-10: an automobile cannot go to or from Alaska; only an airplane reaches it"]),
    ("WA AK ID MT WY CO NE IA MN SD", 1,
     ["day 1-2: Alaska borders no other state; only an airplane reaches it",
      "day 2-3: Alaska borders no other state; only an airplane reaches it"]),
    ("ME car NH VT NY PA OH IN IL WI", 1,
     ["day 1-3: no state borders both Maine and New Hampshire, so an automobile cannot connect them"]),
    ("ME NH VT NY PA OH IN IL WI MN", 0, ["valid"]),
    ("car CA OR WA ID MT WY CO NE IA", 1, ["day 1: the journey must begin with a state card, not an automobile"]),
    ("CA OR WA ID MT WY CO NE IA plane-green", 1,
     ["day 10: the journey must end with a state card, not a green airplane"]),
    ("CA car plane-red ID MT WY CO NE IA MN", 1,
     ["day 2-3: two transport cards cannot be next to each other; each one must stand between two state cards"]),
    ("MT plane-tan VT NH MA NY PA OH IN IL", 1, ["day 1-3: a tan airplane cannot fly between two red states"]),
    ("CA car OR WA ID MT WY CO NE KS", 0, ["valid"]),
    ("UT NM TX OK KS NE IA MN WI IL", 1, ["day 1-2: Utah and New Mexico meet only at a corner"]),
]


@pytest.mark.parametrize("days,code,lines", REFEREE)
def test_referee_on_hand_made_journeys(capsys, days, code, lines):
    """Completing a Journey and Special Travel Rules, through `stateside ten-days check`."""
    got, out, err = run(capsys, "check", *days.split())
    assert (got, out.splitlines(), err) == (code, lines, "")


def test_plane_blue_names_the_two_blues(capsys):
    """The rulebook's examples say "Blue Airplane"; our cards have two blues."""
    code, out, err = run(capsys, "check", "HI", "plane-blue", "CA", "OR", "WA", "ID", "MT", "WY", "CO", "NE")
    assert code == 2 and out == "" and "plane-dark-blue and plane-light-blue" in err
