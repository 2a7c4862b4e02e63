"""The USA maps' grid (resources/carcassonne/maps/usa.json, made by build_maps.py):
counts, what is not land, the seam, towns, start and outlined squares, chips."""
from __future__ import annotations

import json

import pytest

from stateside.errors import DataError
from stateside.games.carcassonne import build_maps
from stateside.games.carcassonne.maps import COLOURS, load_chips, load_maps, parse_chips, parse_maps
from stateside.geo.atlas import load_atlas
from stateside.paths import resource


@pytest.fixture(scope="module")
def maps():
    return load_maps()


@pytest.fixture(scope="module")
def to_square():
    k, bx, by, worst = build_maps.fit_projection(load_atlas())
    assert worst < 1.0          # the projection lands on the atlas's own state corners
    grid = load_maps()["usa"]

    def square(lon, lat):
        X, Y = build_maps.albers(lon, lat)
        x, y = k * X + bx, -k * Y + by
        return int((x - grid.origin[0]) // grid.square_size), int((y - grid.origin[1]) // grid.square_size)
    return square


def test_each_map_has_150_to_190_playable_squares_and_both_twice_that(maps):
    west, east, both = (len(maps[v].squares) for v in ("usa-west", "usa-east", "usa"))
    assert 150 <= west <= 190 and 150 <= east <= 190
    assert 300 <= both <= 380 and both > west + east
    assert abs(west - east) <= 20         # the seam balances the two maps


@pytest.mark.parametrize("place, lon, lat", [
    ("the Pacific off California", -125.5, 36.0), ("the Gulf of Mexico", -90.0, 26.5),
    ("the Atlantic off the Carolinas", -73.5, 33.0), ("Lake Michigan", -87.0, 43.5),
    ("Lake Superior", -88.0, 47.6), ("Saskatchewan, Canada", -106.0, 52.0),
    ("Ontario, Canada", -84.0, 50.0), ("Chihuahua, Mexico", -106.1, 28.6),
    ("Sonora, Mexico", -111.0, 29.5),
])
def test_sea_lakes_canada_and_mexico_are_not_playable(maps, to_square, place, lon, lat):
    assert to_square(lon, lat) not in maps["usa"].squares, place


@pytest.mark.parametrize("place, lon, lat", [("Kansas", -98.5, 38.5), ("Nevada", -116.6, 39.3),
                                              ("Georgia", -83.5, 32.7)])
def test_inland_points_are_playable(maps, to_square, place, lon, lat):
    assert to_square(lon, lat) in maps["usa"].squares, place


def test_the_seam_squares_are_playable_only_with_both_maps(maps):
    seam = maps["usa"].seam_column
    both = {s for s in maps["usa"].squares if s[0] == seam}
    assert len(both) >= 10
    assert not any(s[0] == seam for v in ("usa-west", "usa-east") for s in maps[v].squares)
    assert all(s[0] < seam for s in maps["usa-west"].squares)
    assert all(s[0] > seam for s in maps["usa-east"].squares)


@pytest.mark.parametrize("variant, starts, towns, outlined", [("usa-west", 2, 15, 15), ("usa-east", 2, 15, 15),
                                                              ("usa", 4, 30, 30)])
def test_start_squares_towns_and_outlined_squares(maps, variant, starts, towns, outlined):
    m = maps[variant]
    assert len(m.starts) == starts and len(m.towns) == towns and len(m.outlined) == outlined
    assert sorted(m.outlined.values()).count("violet") == outlined // 3
    assert {c: list(m.outlined.values()).count(c) for c in COLOURS} == {c: outlined // 3 for c in COLOURS}
    used = set(m.starts) | set(m.towns)
    assert not used & set(m.outlined)
    assert len(set(m.starts) | set(m.towns)) == starts + towns
    # Outlined squares are spread: none touches another (so one flip never starts another).
    for a in m.outlined:
        for b in m.outlined:
            assert a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) > 1


def test_towns_are_real_cities_on_their_own_squares(maps, to_square):
    west = {t.name for t in maps["usa-west"].towns.values()}
    east = {t.name for t in maps["usa-east"].towns.values()}
    assert {"Seattle", "Denver", "Salt Lake City", "Phoenix"} <= west
    assert {"New York", "Chicago", "Atlanta", "Miami"} <= east
    data = json.loads(resource("carcassonne", "maps", "usa.json").read_text())
    for m in data["maps"].values():
        for t in m["towns"]:
            assert list(to_square(t["lon"], t["lat"])) == t["square"], t["name"]


def test_the_data_is_what_the_script_makes():
    data = json.loads(resource("carcassonne", "maps", "usa.json").read_text())
    assert build_maps.build() == data


def test_chips_are_30_ten_of_each_colour():
    chips = load_chips()
    assert len(chips) == 30
    for c in COLOURS:
        mine = [x.points for x in chips if x.colour == c]
        assert len(mine) == 10 and sorted(set(mine)) == [1, 2]


def test_bad_map_data_names_the_file_and_entry():
    data = json.loads(resource("carcassonne", "maps", "usa.json").read_text())
    data["maps"]["usa-east"]["towns"][3]["square"] = [0, 0]
    with pytest.raises(DataError, match=r"usa.json: maps.usa-east: town square \(0, 0\)"):
        parse_maps(data, "usa.json")
    with pytest.raises(DataError, match=r"chips.json: chips\[0\]"):
        parse_chips({"chips": [{"colour": "green", "points": 1, "count": 10}]}, "chips.json")
