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


def sampled_land(grid, n=8) -> set:
    """The squares more than half land, counted another way than build_maps does (area of
    the intersection): n x n points in each square, tested against each state's shape."""
    import numpy as np
    import shapely

    states = [s.geometry for s in load_atlas().states if not s.inset]
    s, (x0, y0) = grid.square_size, grid.origin
    off = (np.arange(n) + 0.5) / n
    land = set()
    for c in range(max(c for c, _ in grid.squares) + 3):
        for r in range(max(r for _, r in grid.squares) + 3):
            xs, ys = (a.ravel() for a in np.meshgrid(x0 + (c + off) * s, y0 + (r + off) * s))
            inside = np.zeros(len(xs), bool)
            for shape in states:
                inside |= shapely.contains_xy(shape, xs, ys)
            if inside.sum() > n * n / 2:
                land.add((c, r))
    return land


def test_each_map_has_about_the_sheets_110_to_120_squares(maps):
    """The sheet recommends 110-120 tiles a map (we play 114): about that many squares,
    so a game can fill its map. The squares are those an independent count finds."""
    grid = maps["usa"]
    land = sampled_land(grid)
    assert land == grid.squares
    seam = grid.seam_column
    west, east = sum(1 for c, _ in land if c < seam), sum(1 for c, _ in land if c > seam)
    assert (len(maps["usa-west"].squares), len(maps["usa-east"].squares)) == (west, east)
    assert 110 <= west <= 125 and 110 <= east <= 125 and abs(west - east) <= 10
    assert len(grid.squares) == west + east + sum(1 for c, _ in land if c == seam) < 260


def test_the_old_grid_is_kept_for_old_saves():
    old = load_maps(1)
    assert old["usa"].square_size == 32 and (len(old["usa-west"].squares), len(old["usa-east"].squares)) == (179, 164)
    with pytest.raises(DataError, match="no USA map grid 9"):
        load_maps(9)


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
    assert {"Seattle", "Denver", "Salt Lake City", "Phoenix", "Los Angeles"} <= west
    assert {"New York", "Chicago", "Atlanta", "Miami", "Detroit"} <= east
    data = json.loads(resource("carcassonne", "maps", "usa.json").read_text())
    for name, m in data["maps"].items():
        for t in m["towns"]:
            own = to_square(t["lon"], t["lat"])
            if own in maps[name].squares:
                assert list(own) == t["square"], t["name"]
            else:    # a shore city whose square is mostly water: the playable square next to it
                assert max(abs(own[0] - t["square"][0]), abs(own[1] - t["square"][1])) == 1, t["name"]


def test_each_town_lies_in_its_own_state(maps):
    """A check of the coordinates against the atlas, which knows nothing of them: each
    city's point is inside the state the data names (Washington, DC: next to Maryland)."""
    atlas = {s.code: s.geometry for s in load_atlas().states}
    from shapely.geometry import Point

    for m in (maps["usa-west"], maps["usa-east"]):
        for t in m.towns.values():
            if t.state == "DC":
                assert atlas["MD"].distance(Point(t.at)) < 2, t.name
            else:
                assert atlas[t.state].contains(Point(t.at)), f"{t.name} is not in {t.state}"


@pytest.mark.parametrize("variant", ["usa-west", "usa-east"])
def test_towns_are_apart_and_spread_over_the_whole_map(maps, variant):
    """No two towns touch (they are 2 squares apart or more, either way), and every
    playable square is within 2 squares of a town: no corner of the map goes without."""
    m = maps[variant]

    def apart(a, b):
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    towns = sorted(m.towns)
    assert min(apart(a, b) for a in towns for b in towns if a != b) >= 2
    assert max(min(apart(s, t) for t in towns) for s in m.squares) <= 2


def test_a_town_name_two_places_share_names_its_state_on_the_board_with_both(maps):
    """Portland, Oregon is on the West map and Portland, Maine on the East: each map alone
    says "Portland"; the board with both says which, in its labels and its log's places."""
    from stateside.games.carcassonne.words import map_place

    def labels(variant):
        m = maps[variant]
        return sorted(m.label(t) for t in m.towns.values() if t.name == "Portland")
    assert labels("usa-west") == ["Portland"] and labels("usa-east") == ["Portland"]
    assert labels("usa") == ["Portland, ME", "Portland, OR"]
    both = maps["usa"]
    oregon = next(p for p, t in both.towns.items() if t.name == "Portland" and t.state == "OR")
    assert map_place(both, oregon) == "on Portland, OR"
    names = [both.label(t) for t in both.towns.values()]
    assert len(names) == len(set(names))   # no other name stands for two places


@pytest.mark.parametrize("variant", ["usa-west", "usa-east", "usa"])
def test_start_squares_leave_room_to_finish_the_start_tile(maps, variant):
    """The start tile (a city to the north, a road east-west) needs playable squares there:
    every square within 2 of a start square is playable, and none of its four neighbours
    holds a face-down tile (the city and road can be closed by the players' own tiles)."""
    m = maps[variant]
    for x, y in m.starts:
        assert all((x + dx, y + dy) in m.squares for dx in range(-2, 3) for dy in range(-2, 3)), (x, y)
        assert not {(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)} & set(m.outlined), (x, y)


@pytest.mark.parametrize("variant", ["usa-west", "usa-east"])
def test_outlined_squares_lie_inside_the_land(maps, variant):
    """At most one side of an outlined square faces off the map (sea, a border, the
    other map), so tiles can come next to it from three sides at least."""
    m = maps[variant]
    for x, y in m.outlined:
        off = sum((x + dx, y + dy) not in m.squares for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)))
        assert off <= 1, (x, y)


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
