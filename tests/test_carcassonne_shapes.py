"""The drawn tiles: every field drawn where the tile data says, and clicks find features."""
from __future__ import annotations

import pytest

from stateside.games.carcassonne.shapes import check_fields, rotate_point, segment_at, unrotate_point
from stateside.games.carcassonne.tiles import catalogue, tile_by_id


@pytest.mark.parametrize("tile", catalogue(), ids=lambda t: t.id)
def test_drawn_fields_touch_the_half_edges_and_border_the_cities_of_the_data(tile):
    assert check_fields(tile) == []


def key_at(tile_id: str, rot: int, x: float, y: float) -> str | None:
    tile = tile_by_id()[tile_id]
    i = segment_at(tile, rot, (x, y))
    return None if i is None else tile.segments[i].key


def test_a_click_finds_the_feature_under_it():
    assert key_at("B-A", 0, 0.5, 0.45) == "cloister"
    assert key_at("B-A", 0, 0.52, 0.85) == "r1"       # the road to the cloister
    assert key_at("B-A", 0, 0.1, 0.1) == "f1"
    assert key_at("B-D", 0, 0.5, 0.08) == "c1"        # the city cap, north
    assert key_at("B-D", 0, 0.5, 0.5) == "r1"
    assert key_at("B-D", 0, 0.5, 0.9) == "f2"
    # turned once clockwise the cap is in the east
    assert key_at("B-D", 1, 0.92, 0.5) == "c1"
    assert key_at("B-D", 1, 0.1, 0.5) == "f2"


def test_rotating_a_point_and_back_is_the_identity():
    for rot in range(4):
        p = (0.2, 0.7)
        q = unrotate_point(rotate_point(p, rot), rot)
        assert q == pytest.approx(p)
    assert rotate_point((0.0, 0.0), 1) == (1.0, 0.0)     # the NW corner turns to NE


def inscribed_radius(area) -> float:
    from shapely.ops import polylabel
    part = area if area.geom_type == "Polygon" else max(area.geoms, key=lambda g: g.area)
    return part.exterior.distance(polylabel(part, tolerance=0.002))


@pytest.mark.parametrize("tile_id", ["TB-03", "TB-04"])
def test_a_cap_inside_a_band_is_thick_enough_to_read_as_city(tile_id):
    """Issue 11: the southern cap of this Traders & Builders tile was a sliver under the band's
    wall and read as field. It is now as thick as half a lone cap, and the field between keeps
    room for a farmer."""
    from stateside.games.carcassonne.shapes import tile_shape
    tile = tile_by_id()[tile_id]
    shape = tile_shape(tile)
    areas = {s.key: sh.area for s, sh in zip(tile.segments, shape.segments)}
    assert inscribed_radius(areas["c2"]) >= 0.1          # 0.065 before
    assert inscribed_radius(areas["f2"]) >= 0.07
    assert inscribed_radius(areas["c1"]) >= 0.2          # the band still holds its good
