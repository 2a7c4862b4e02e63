"""Scrambled States: the 50 cards and matching on each die face (rulebook "Setup", "How to Play")."""
from __future__ import annotations

import dataclasses

import pytest
import yaml

from stateside.data.states import load_states
from stateside.errors import DataError
from stateside.games.scrambled_states.cards import REGION_NAMES, bucket_of, build_cards, load_cards
from stateside.games.scrambled_states.rules import matches
from stateside.paths import resource


@pytest.fixture(scope="module")
def cards():
    return load_cards()


@pytest.fixture(scope="module")
def spec():
    return yaml.safe_load(resource("scrambled_states", "cards.yaml").read_text(encoding="utf-8"))


def test_fifty_cards_with_four_features(cards):
    """Setup: each card has a state name and four features: region, land mass, population, colour."""
    assert len(cards) == 50
    assert set(cards.codes) == set(load_states())
    for c in cards.cards:
        assert c.region in REGION_NAMES
        assert 1 <= c.land_mass <= 4
        assert 1 <= c.population <= 5
        assert c.colour in {col.name for col in cards.colours}


def test_land_mass_buckets_follow_total_area(cards):
    """Setup, land mass icon: >100,000 / 50,000-99,999 / 20,000-49,999 / <20,000 square miles (total area)."""
    states = load_states()
    for code, state in states.items():
        area = state.area_total_sq_mi
        want = 4 if area >= 100_000 else 3 if area >= 50_000 else 2 if area >= 20_000 else 1
        assert cards[code].land_mass == want, code
    # Total area, not land area: New York's water lifts it into the 50,000-99,999 bucket.
    assert states["NY"].area_land_sq_mi < 50_000 <= states["NY"].area_total_sq_mi
    assert cards["NY"].land_mass == 3
    assert [cards[c].land_mass for c in ("AK", "TX", "WY", "KY", "RI")] == [4, 4, 3, 2, 1]


def test_population_buckets_follow_2020_census(cards):
    """Setup, people icons: 5 for 10 million or more ... 1 for under 1 million."""
    for code, state in load_states().items():
        pop = state.population_2020
        want = 5 if pop >= 10e6 else 4 if pop >= 5e6 else 3 if pop >= 2e6 else 2 if pop >= 1e6 else 1
        assert cards[code].population == want, code
    # Michigan (10,077,331) is just over 10 million; Delaware (989,948) just under 1 million.
    assert cards["MI"].population == 5 and cards["DE"].population == 1


def test_bucket_edges_are_half_open(cards):
    assert bucket_of(100_000, cards.land_mass_buckets) == 4
    assert bucket_of(99_999.99, cards.land_mass_buckets) == 3
    assert bucket_of(20_000, cards.land_mass_buckets) == 2
    assert bucket_of(19_999.5, cards.land_mass_buckets) == 1
    assert bucket_of(10_000_000, cards.population_buckets) == 5
    assert bucket_of(9_999_999, cards.population_buckets) == 4
    assert bucket_of(1_000_000, cards.population_buckets) == 2
    assert bucket_of(999_999, cards.population_buckets) == 1


def test_buckets_are_computed_from_the_facts_not_typed(spec):
    """Change a figure in the facts and the card follows."""
    states = dict(load_states())
    states["TX"] = dataclasses.replace(states["TX"], population_2020=900_000, area_total_sq_mi=15_000.0)
    tx = build_cards(spec, states, "test")["TX"]
    assert (tx.population, tx.land_mass) == (1, 1)


def test_regions_are_the_seven_of_the_rulebook(cards):
    assert [r.name for r in cards.regions] == list(REGION_NAMES)
    assert set(cards.region("New England").states) == {"CT", "MA", "ME", "NH", "RI", "VT"}
    assert {r.border_name for r in cards.regions} == {"purple", "dark navy", "orange", "green", "yellow", "teal", "red"}
    assert sum(len(r.states) for r in cards.regions) == 50


def test_regions_follow_census_divisions_with_the_potomac_cut(cards):
    """Our principle: whole Census divisions; the South Atlantic is cut at the Potomac."""
    states = load_states()
    by_division = {
        "New England": "New England", "Middle Atlantic": "Mid-Atlantic", "East North Central": "Midwest",
        "West North Central": "Midwest", "East South Central": "South Central",
        "West South Central": "South Central", "Mountain": "Mountain", "Pacific": "Pacific",
    }
    for code, state in states.items():
        if state.division == "South Atlantic":
            want = "Mid-Atlantic" if code in ("DE", "MD") else "Southeast"
        else:
            want = by_division[state.division]
        assert cards[code].region == want, code


def test_a_region_that_breaks_the_principle_is_refused(spec):
    bad = yaml.safe_load(yaml.safe_dump(spec))
    pacific = next(r for r in bad["regions"] if r["name"] == "Pacific")
    mountain = next(r for r in bad["regions"] if r["name"] == "Mountain")
    mountain["states"].remove("NV")
    pacific["states"].append("NV")
    with pytest.raises(DataError, match="NV is in the Census division 'Mountain'"):
        build_cards(bad, load_states(), "cards.yaml")


def test_colours_are_a_balanced_map_colouring(cards):
    """Our colours: at least four, ten cards each, no two bordering states alike."""
    from stateside.geo.borders import load_borders

    assert len(cards.colours) >= 4
    assert {len(c.states) for c in cards.colours} == {10}
    assert len({c.pattern for c in cards.colours}) == len(cards.colours)
    for a, b in load_borders(None).pairs:
        assert cards[a].colour != cards[b].colour, (a, b)


def test_too_few_colours_are_refused(spec):
    bad = yaml.safe_load(yaml.safe_dump(spec))
    merged = bad["colours"][:3]
    merged[0]["states"] += [s for c in bad["colours"][3:] for s in c["states"]]
    bad["colours"] = merged
    with pytest.raises(DataError, match="at least 4"):
        build_cards(bad, load_states(), "cards.yaml")


# --- How to Play: each face of the die on known cards ------------------------------
def test_face_region():
    """If the die shows Region: the same border colour (region)."""
    assert matches("CA", "OR", "region")          # both Pacific (red border)
    assert matches("WY", "AZ", "region")          # both Mountain (yellow border)
    assert not matches("CA", "NV", "region")


def test_face_land_mass():
    """If the die shows Land Mass: Rhode Island and Delaware both have the smallest icon."""
    assert matches("RI", "DE", "land-mass")
    assert matches("AK", "TX", "land-mass")
    assert not matches("RI", "TX", "land-mass")


def test_face_population():
    """If the die shows Population: Texas and California both show five people."""
    assert matches("TX", "CA", "population")
    assert not matches("TX", "VT", "population")


def test_face_colour():
    """If the die shows State Color: a red state matches a red state."""
    assert matches("TX", "CO", "colour")
    assert not matches("TX", "CA", "colour")


def test_face_two():
    """If the die shows 2: any two features in common."""
    assert matches("TX", "CA", "two")             # land mass and population
    assert matches("RI", "DE", "two")             # land mass and colour
    assert not matches("TX", "OK", "two")         # region only


def test_face_hand_is_the_center_card_itself():
    assert matches("TX", "TX", "hand")
    assert not matches("TX", "CA", "hand")


def test_unknown_face_is_an_error():
    with pytest.raises(ValueError, match="unknown die face"):
        matches("TX", "CA", "size")
