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
