"""10 Days in the USA: the cards as data (resources/ten_days/cards.yaml)."""
from collections import Counter

import pytest

from stateside.data.states import load_states
from stateside.errors import DataError
from stateside.games.ten_days.cards import (
    PLANE_COLOURS, UnknownCardError, face_of, load_cards, parse_cards,
)
from stateside.geo.atlas import load_atlas
from stateside.geo.borders import load_borders
from stateside.paths import resource

CARDS = load_cards()
BORDERS = load_borders("ten-days")
NAMES = {c: s.name for c, s in load_states().items()}


def test_components_66_cards():
    """Components: 50 state cards, 10 airplanes (two of each colour), 6 automobiles."""
    ids = CARDS.card_ids()
    assert len(ids) == len(set(ids)) == 66
    faces = Counter(face_of(c) for c in ids)
    assert sum(1 for f in faces if len(f) == 2) == 50
    assert {f: n for f, n in faces.items() if f.startswith("plane-")} == {f"plane-{c}": 2 for c in PLANE_COLOURS}
    assert faces["car"] == 6


def test_components_alaska_and_hawaii_are_white_the_others_one_of_five_colours():
    """Components: state cards come in five colours; Alaska and Hawaii are white."""
    assert CARDS.state_colour["AK"] == CARDS.state_colour["HI"] == "white"
    others = {c: col for c, col in CARDS.state_colour.items() if c not in ("AK", "HI")}
    assert len(others) == 48 and set(others.values()) == set(PLANE_COLOURS)


def test_colour_principle_no_two_bordering_states_share_a_colour():
    for a, b in BORDERS.pairs:
        assert CARDS.state_colour[a] != CARDS.state_colour[b], (a, b)


def test_colour_principle_nine_or_ten_states_per_colour():
    sizes = Counter(c for c in CARDS.state_colour.values() if c != "white")
    assert sorted(sizes.values()) == [9, 9, 10, 10, 10]


def test_colour_principle_every_colour_in_every_census_region():
    states = load_states()
    regions = {s.region for s in states.values()}
    for colour in PLANE_COLOURS:
        found = {states[c].region for c, col in CARDS.state_colour.items() if col == colour}
        assert found == regions, colour


def test_colour_principle_every_colour_has_the_same_number_of_borders():
    totals = Counter()
    for code, colour in CARDS.state_colour.items():
        totals[colour] += len(BORDERS.neighbours(code))
    assert {totals[c] for c in PLANE_COLOURS} == {42}


def test_corner_only_pairs_touch_in_a_point_on_the_map():
    """Special Travel Rules, Four Corners: the pairs the checker calls corners really are."""
    atlas = load_atlas()
    assert CARDS.corner_only == {("AZ", "CO"), ("NM", "UT")}
    for a, b in CARDS.corner_only:
        meet = atlas[a].geometry.boundary.intersection(atlas[b].geometry.boundary)
        assert not meet.is_empty and meet.length == 0
        assert not BORDERS.adjacent(a, b)


def test_parse_token_reads_codes_cars_and_planes():
    assert CARDS.parse_token("ca") == "CA"
    assert CARDS.parse_token("Car") == "car"
    assert CARDS.parse_token("plane-dark-blue") == "plane-dark-blue"
    with pytest.raises(UnknownCardError, match="no white airplanes"):
        CARDS.parse_token("plane-white")
    with pytest.raises(UnknownCardError, match="the colours are"):
        CARDS.parse_token("plane-purple")
    with pytest.raises(UnknownCardError, match="two blues, plane-dark-blue and plane-light-blue"):
        CARDS.parse_token("plane-blue")
    with pytest.raises(UnknownCardError, match="not a card"):
        CARDS.parse_token("XX")


def test_names_for_players():
    assert CARDS.name("CA") == "California"
    assert CARDS.name("car") == "automobile"
    assert CARDS.name("plane-light-blue") == "light blue airplane"


def test_malformed_card_file_names_the_problem():
    text = resource("ten_days", "cards.yaml").read_text(encoding="utf-8")
    assert parse_cards(text, "cards.yaml", NAMES).state_colour == CARDS.state_colour
    with pytest.raises(DataError, match="state TX: colour 'white'"):
        parse_cards(text.replace("TX: tan", "TX: white"), "cards.yaml", NAMES)
    with pytest.raises(DataError, match="state TX has no colour"):
        parse_cards(text.replace("  TX: tan", "  #"), "cards.yaml", NAMES)
    with pytest.raises(DataError, match="not valid YAML"):
        parse_cards("states: [", "cards.yaml", NAMES)
    with pytest.raises(DataError, match="automobiles must be"):
        parse_cards(text.replace("automobiles: 6", "automobiles: many"), "cards.yaml", NAMES)
