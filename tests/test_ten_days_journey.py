"""10 Days in the USA: the journey checker against every example and rule of the rulebook.

Each test names the rulebook section it comes from. Full journeys are written as the
ten days separated by spaces; the example's own link sits inside an otherwise valid
journey, so the whole journey is checked as a player would."""
import pytest

from stateside.games.ten_days.cards import PLANE_COLOURS, load_cards
from stateside.games.ten_days.journey import check_journey, is_complete, travel_rules

RULES = travel_rules()
COLOUR = load_cards().state_colour


def check(days: str):
    report = check_journey(days.split())
    assert is_complete(days.split()) == report.valid   # the rules' quick answer agrees with the report
    return report


def problems(days: str) -> list[str]:
    return check(days).lines()


def link_reason(a, transport, b) -> str:
    return RULES.reason(a, transport, b)


# --- Traveling by Foot --------------------------------------------------------------

def test_traveling_by_foot_example_california_oregon():
    """Traveling by Foot: "Day 1: California Day 2: Oregon" is valid; no transport card needed."""
    report = check("CA OR WA ID MT WY CO NE IA MN")
    assert report.valid
    first = report.links[0]
    assert (first.kind, first.origin, first.destination, first.start, first.end) == ("walk", "CA", "OR", 0, 1)


def test_completing_a_journey_all_bordering_states_allowed():
    """Completing a Journey: airplanes and automobiles are optional; all bordering states is allowed."""
    report = check("CA OR WA ID MT WY CO NE IA MN")
    assert report.valid and all(link.kind == "walk" for link in report.links) and len(report.links) == 9


def test_traveling_by_foot_needs_a_shared_border():
    assert problems("CA TX OK KS NE IA MN WI IL IN") == ["day 1-2: California and Texas do not share a border"]


# --- Traveling by Automobile -------------------------------------------------------

def test_traveling_by_automobile_example_oregon_car_arizona():
    """Traveling by Automobile: "Oregon, Automobile, Arizona" is valid through Nevada."""
    report = check("OR car AZ NM TX OK KS MO IL IN")
    assert report.valid
    link = report.links[0]
    assert (link.kind, link.origin, link.destination, link.start, link.end) == ("car", "OR", "AZ", 0, 2)
    assert "NV" in RULES.car_via("OR", "AZ")


def test_traveling_by_automobile_needs_a_third_state_bordering_both():
    """Traveling by Automobile, Important: only when a third state borders both."""
    assert problems("TX car OH IN IL WI MN IA MO KS") == [
        "day 1-3: no state borders both Texas and Ohio, so an automobile cannot connect them"]


def test_traveling_by_automobile_not_next_to_another_transport():
    """Traveling by Automobile, Important: automobiles do not connect to other transport cards."""
    assert problems("OR car plane-red NM TX OK KS MO IL IN") == [
        "day 2-3: two transport cards cannot be next to each other; each one must stand between two state cards"]


@pytest.mark.parametrize("island", ["AK", "HI"])
def test_traveling_by_automobile_never_to_or_from_alaska_or_hawaii(island):
    """Traveling by Automobile, Important: automobiles cannot connect to Alaska or Hawaii."""
    name = {"AK": "Alaska", "HI": "Hawaii"}[island]
    expected = f"an automobile cannot go to or from {name}; only an airplane reaches it"
    assert link_reason("WA", "car", island) == expected
    assert link_reason(island, "car", "WA") == expected
    assert problems(f"{island} car WA ID MT WY CO NE IA MN") == [f"day 1-3: {expected}"]


# --- Traveling by Airplane ---------------------------------------------------------

def test_traveling_by_airplane_example_red_red_red():
    """Traveling by Airplane: "Red State, Red Airplane, Red State" is valid without a border."""
    assert COLOUR["MT"] == COLOUR["VT"] == "red"
    report = check("MT plane-red VT NH MA NY PA OH IN IL")
    assert report.valid
    assert (report.links[0].kind, report.links[0].transport) == ("plane", "plane-red")


def test_traveling_by_airplane_colour_must_match_the_states():
    """Traveling by Airplane: both states and the airplane must have the same colour."""
    assert COLOUR["TX"] == "tan" and COLOUR["OH"] == "green" and COLOUR["MT"] == "red"
    assert problems("TX plane-tan OH IN IL WI MN IA MO KS") == [
        "day 1-3: Texas (tan) and Ohio (green) differ in colour;"
        " an airplane flies only between two states of its own colour"]
    assert problems("MT plane-green VT NH MA NY PA OH IN IL") == [
        "day 1-3: a green airplane cannot fly between two red states"]


# --- Alaska and Hawaii -------------------------------------------------------------

def test_alaska_and_hawaii_connect_only_by_airplane():
    """Alaska and Hawaii: they can only connect to other states using airplane cards."""
    assert problems("WA AK HI CA OR ID MT WY CO NE") == [
        "day 1-2: Alaska borders no other state; only an airplane reaches it",
        "day 2-3: Alaska and Hawaii border no state; fly between them with an airplane of any colour",
        "day 3-4: Hawaii borders no other state; only an airplane reaches it",
    ]


def test_flying_to_alaska_example_green_state_green_airplane():
    """Flying to Alaska or Hawaii: "Green State, Green Airplane, Alaska" is valid."""
    assert COLOUR["NE"] == "green"
    assert check("OH IN IL WI MN ND SD NE plane-green AK").valid


def test_flying_to_hawaii_airplane_matches_the_departure_state():
    """Flying to Alaska or Hawaii: the airplane must match the state the player departs from."""
    assert problems("OH IN IL WI MN ND SD NE plane-red HI") == [
        "day 8-10: flying to Hawaii needs an airplane of the colour of Nebraska (green), not a red airplane"]


@pytest.mark.parametrize("colour,state", [("light-blue", "CA"), ("dark-blue", "OR")])
def test_flying_from_hawaii_example_blue_airplane_blue_state(colour, state):
    """Flying from Alaska or Hawaii: "Hawaii, Blue Airplane, Blue State" is valid (both blues)."""
    assert COLOUR[state] == colour
    rest = {"CA": "OR WA ID MT WY CO NE", "OR": "WA ID MT WY CO NE KS"}[state]
    assert check(f"HI plane-{colour} {state} {rest}").valid


def test_flying_from_alaska_airplane_matches_the_destination():
    """Flying from Alaska or Hawaii: the airplane must match the colour of the destination."""
    assert problems("AK plane-red CA OR WA ID MT WY CO NE") == [
        "day 1-3: flying from Alaska needs an airplane of the colour of California (light blue), not a red airplane"]


def test_flying_between_alaska_and_hawaii_example_red_airplane():
    """Flying Between Alaska and Hawaii: "Alaska, Red Airplane, Hawaii" is valid."""
    assert check("AK plane-red HI plane-light-blue CA NV UT CO NE KS").valid


@pytest.mark.parametrize("colour", PLANE_COLOURS)
def test_flying_between_alaska_and_hawaii_any_colour_both_ways(colour):
    """Flying Between Alaska and Hawaii: any colour, Alaska to Hawaii or Hawaii to Alaska."""
    assert link_reason("AK", f"plane-{colour}", "HI") == ""
    assert link_reason("HI", f"plane-{colour}", "AK") == ""


# --- Completing a Journey ----------------------------------------------------------

def test_completing_a_journey_day_1_must_be_a_state():
    """Completing a Journey: Day 1 must be a State Card."""
    assert problems("car OR WA ID MT WY CO NE IA MN") == [
        "day 1: the journey must begin with a state card, not an automobile"]


def test_completing_a_journey_day_10_must_be_a_state():
    """Completing a Journey: Day 10 must be a State Card."""
    assert problems("CA OR WA ID MT WY CO NE IA plane-red") == [
        "day 10: the journey must end with a state card, not a red airplane"]


def test_completing_a_journey_transport_cards_not_next_to_each_other():
    """Completing a Journey: transportation cards cannot be placed directly next to one another."""
    lines = problems("CA OR plane-red car ID MT WY CO NE IA")
    assert lines == ["day 3-4: two transport cards cannot be next to each other; each one must stand between two state cards"]


def test_completing_a_journey_every_problem_is_reported_with_its_days():
    """Completing a Journey: every consecutive day must connect; each break is named with its days."""
    assert problems("car CO AZ UT NM plane-red HI car ME NH") == [
        "day 1: the journey must begin with a state card, not an automobile",
        "day 2-3: Colorado and Arizona meet only at a corner",
        "day 4-5: Utah and New Mexico meet only at a corner",
        "day 5-7: flying to Hawaii needs an airplane of the colour of New Mexico (light blue), not a red airplane",
        "day 7-9: an automobile cannot go to or from Hawaii; only an airplane reaches it",
    ]


def test_empty_days_are_reported_while_dealing():
    """Setup: during the deal a slot may still be empty."""
    days = "CA OR WA ID MT WY CO NE IA MN".split()
    days[4] = None
    report = check_journey(days)
    assert report.lines() == ["day 5: no card yet"]
    assert [(l.origin, l.destination) for l in report.links] == [
        ("CA", "OR"), ("OR", "WA"), ("WA", "ID"), ("WY", "CO"), ("CO", "NE"), ("NE", "IA"), ("IA", "MN")]


def test_card_ids_are_checked_by_their_faces():
    """The engine's card ids (plane-red-2, car-5) check like the faces printed on them."""
    assert check_journey("OR car-5 AZ NM TX OK KS MO IL IN".split()).valid
    assert check_journey("MT plane-red-2 VT NH MA NY PA OH IN IL".split()).valid


# --- Special Travel Rules ----------------------------------------------------------

@pytest.mark.parametrize("a,b", [("CO", "UT"), ("CO", "NM"), ("UT", "AZ"), ("AZ", "NM")])
def test_four_corners_valid_borders(a, b):
    """Special Travel Rules, Four Corners: CO-UT, CO-NM, UT-AZ and AZ-NM share a valid border."""
    assert link_reason(a, None, b) == link_reason(b, None, a) == ""


def test_four_corners_colorado_arizona_only_a_corner():
    """Special Travel Rules, Four Corners: Colorado and Arizona do not count as bordering."""
    assert problems("NE WY CO AZ NM TX OK KS MO IL") == ["day 3-4: Colorado and Arizona meet only at a corner"]


def test_four_corners_utah_new_mexico_only_a_corner():
    """Special Travel Rules, Four Corners: Utah and New Mexico do not count as bordering."""
    assert link_reason("NM", None, "UT") == "New Mexico and Utah meet only at a corner"
    assert problems("ID UT NM TX OK KS MO IL IN OH") == ["day 2-3: Utah and New Mexico meet only at a corner"]


def test_michigan_peninsulas_connected_ohio_michigan_wisconsin():
    """Special Travel Rules, Michigan: by foot from Ohio to Michigan, then Michigan to Wisconsin."""
    report = check("OH MI WI MN IA MO KS NE SD ND")
    assert report.valid
    assert [(l.kind, l.origin, l.destination) for l in report.links[:2]] == [("walk", "OH", "MI"), ("walk", "MI", "WI")]


def test_maine_new_hampshire_by_foot():
    """Special Travel Rules, Maine and New Hampshire: they share a border and connect by foot."""
    assert check("ME NH VT NY PA OH IN IL WI MN").valid


def test_maine_new_hampshire_not_by_automobile():
    """Special Travel Rules, Maine and New Hampshire: no automobile, no third state borders both."""
    assert RULES.car_via("ME", "NH") == []
    assert problems("ME car NH VT NY PA OH IN IL WI") == [
        "day 1-3: no state borders both Maine and New Hampshire, so an automobile cannot connect them"]
    assert link_reason("NH", "car", "ME") != ""


def test_automobile_between_bordering_states_california_oregon():
    """Special Travel Rules, Automobile Travel Between Bordering States: CA-car-OR through Nevada."""
    assert RULES.borders.adjacent("CA", "OR")
    assert "NV" in RULES.car_via("CA", "OR")
    assert check("CA car OR WA ID MT WY CO NE KS").valid


# --- Alaska and Hawaii, every direction (review) -------------------------------------

@pytest.mark.parametrize("island", ["AK", "HI"])
def test_flying_to_alaska_or_hawaii_colour_of_the_state_left(island):
    """Flying to Alaska or Hawaii: the airplane matches the state the player departs from
    (Washington is green), whatever the island's own white colour."""
    name = {"AK": "Alaska", "HI": "Hawaii"}[island]
    assert COLOUR["WA"] == "green"
    assert check(f"CA OR ID MT WY CO NE SD plane-green {island}").lines() == [
        f"day 8-10: flying to {name} needs an airplane of the colour of South Dakota (dark blue), not a green airplane"]
    assert check(f"CO WY UT NV CA OR ID WA plane-green {island}").valid
    assert link_reason("WA", "plane-green", island) == ""
    for colour in PLANE_COLOURS:
        if colour != "green":
            assert link_reason("WA", f"plane-{colour}", island) != ""


@pytest.mark.parametrize("island", ["AK", "HI"])
def test_flying_from_alaska_or_hawaii_colour_of_the_state_reached(island):
    """Flying from Alaska or Hawaii: the airplane matches the destination's colour."""
    name = {"AK": "Alaska", "HI": "Hawaii"}[island]
    assert check(f"{island} plane-green WA ID MT WY CO NE IA MN").valid
    assert problems(f"{island} plane-dark-blue WA ID MT WY CO NE IA MN") == [
        f"day 1-3: flying from {name} needs an airplane of the colour of Washington (green), not a dark blue airplane"]


def test_flying_between_alaska_and_hawaii_inside_a_longer_journey():
    """Flying Between Alaska and Hawaii, with the flights to and from them on either side:
    Washington (green) -> green plane -> Alaska -> red plane -> Hawaii -> light blue plane
    -> California (light blue)."""
    report = check("WA plane-green AK plane-red HI plane-light-blue CA NV UT CO")
    assert report.valid
    assert [(l.kind, l.origin, l.destination, l.transport) for l in report.links[:3]] == [
        ("plane", "WA", "AK", "plane-green"), ("plane", "AK", "HI", "plane-red"),
        ("plane", "HI", "CA", "plane-light-blue")]
    # the other way round, Hawaii to Alaska with a tan airplane, then a wrong colour out of Alaska
    assert problems("HI plane-tan AK plane-tan WA ID MT WY CO NE") == [
        "day 3-5: flying from Alaska needs an airplane of the colour of Washington (green), not a tan airplane"]


def test_automobile_between_alaska_and_hawaii_is_refused():
    """Traveling by Automobile, Important: no automobile to or from Alaska or Hawaii, not
    even between the two of them (only an airplane of any colour joins them)."""
    assert link_reason("AK", "car", "HI") == "an automobile cannot go to or from Alaska; only an airplane reaches it"
    assert link_reason("HI", "car", "AK") == "an automobile cannot go to or from Hawaii; only an airplane reaches it"
    assert problems("CA OR WA ID MT WY CO NE car AK") == [
        "day 8-10: an automobile cannot go to or from Alaska; only an airplane reaches it"]


def test_transport_cards_three_in_a_row_and_on_days_1_and_2():
    """Completing a Journey: no two transport cards side by side, day 1 a state card;
    each pair of neighbours is reported with its days."""
    side_by_side = "two transport cards cannot be next to each other; each one must stand between two state cards"
    assert problems("CA car plane-red car MT WY CO NE IA MN") == [f"day 2-3: {side_by_side}", f"day 3-4: {side_by_side}"]
    assert problems("plane-red car OR WA ID MT WY CO NE IA") == [
        "day 1: the journey must begin with a state card, not a red airplane", f"day 1-2: {side_by_side}"]


def test_four_corners_an_automobile_still_joins_colorado_and_arizona():
    """Four Corners + Traveling by Automobile: Colorado and Arizona do not border, but Utah
    and New Mexico each border both, so Colorado, automobile, Arizona is a valid link."""
    assert RULES.car_via("CO", "AZ") == ["NM", "UT"]
    assert check("CO car AZ NM TX OK KS MO IL IN").valid
    assert RULES.car_via("UT", "NM") == ["AZ", "CO"]


def test_the_quick_answer_agrees_with_the_report_on_many_journeys():
    """is_complete (asked at every turn's end) against check_journey's report: journeys made
    by travelling at random along what the rules allow (valid), then with one or two days
    changed at random (mostly not), 4,000 in all."""
    import random

    cards = load_cards()
    states = sorted(cards.state_colour)
    transports = ["car", *(f"plane-{c}" for c in PLANE_COLOURS)]
    rng = random.Random(11)
    valid = agreed = 0
    for _ in range(2000):
        days = [rng.choice(states)]
        while len(days) < 10:
            here = days[-1]
            if len(days) <= 7 and rng.random() < 0.4:
                t = rng.choice(transports)
                options = [b for b in states if b != here and not RULES.reason(here, t, b)]
                if options:
                    days += [t, rng.choice(options)]
                    continue
            options = [b for b in states if b != here and not RULES.reason(here, None, b)]
            days.append(rng.choice(options) if options else rng.choice(states))
        for journey in (days[:10], _changed(rng, days[:10], states + transports)):
            report = check_journey(journey)
            valid += report.valid
            agreed += is_complete(journey) == report.valid
    assert agreed == 4000
    assert 500 < valid < 3500   # both answers were asked often


def _changed(rng, days, faces):
    out = list(days)
    for _ in range(rng.randint(1, 2)):
        out[rng.randrange(10)] = rng.choice(faces + [None])
    return out
