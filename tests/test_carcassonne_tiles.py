"""Carcassonne tile sets: counts, totals, rotation, and the loader's error messages."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from stateside.errors import DataError
from stateside.games.carcassonne.tiles import (CITY, FIELD, ROAD, catalogue, distinct_rotations, fit_table,
                                               load_tile_set, parse_tile_set, tile_by_id)


def test_base_set_has_72_tiles_with_the_published_letter_counts():
    base = load_tile_set("base")
    assert base.size == 72
    assert len(base.tiles) == 24
    assert base.start == "B-D"
    letters = {t.letter: t.count for t in base.tiles}
    assert letters == dict(A=2, B=4, C=1, D=4, E=5, F=2, G=1, H=3, I=2, J=3, K=3, L=3, M=2, N=3, O=2,
                           P=3, Q=1, R=3, S=2, T=1, U=8, V=9, W=4, X=1)
    assert base.totals["pennants"] == 10 and base.totals["cloisters"] == 6
    assert (base.totals["city_segments"], base.totals["road_segments"], base.totals["field_segments"]) == (49, 62, 126)


def test_inns_cathedrals_has_18_tiles_two_of_them_cathedrals():
    ic = load_tile_set("inns-cathedrals")
    assert ic.size == 18 and len(ic.tiles) == 17
    assert [t.id for t in ic.tiles if t.count == 2] == ["IC-01"]
    assert ic.totals["inns"] == 6 and ic.totals["cathedrals"] == 2 and ic.totals["pennants"] == 3
    assert (ic.totals["city_segments"], ic.totals["road_segments"], ic.totals["field_segments"]) == (20, 18, 35)


def test_traders_builders_has_24_distinct_tiles_with_20_goods():
    tb = load_tile_set("traders-builders")
    assert tb.size == 24 and len(tb.tiles) == 24
    goods = Counter(s.good for t in tb.tiles for s in t.segments if s.good)
    assert goods == {"wine": 9, "grain": 6, "cloth": 5}
    assert (tb.totals["city_segments"], tb.totals["road_segments"], tb.totals["field_segments"]) == (29, 23, 56)


def test_all_sets_together_make_114_tiles():
    assert sum(t.count for t in catalogue()) == 114
    assert [t.index for t in catalogue()] == list(range(65))


def test_rotation_turns_edges_clockwise():
    d = tile_by_id()["B-D"]            # city N, road E, field S, road W
    assert d.oriented(0).edges == (CITY, ROAD, FIELD, ROAD)
    assert d.oriented(1).edges == (ROAD, CITY, ROAD, FIELD)
    o = d.oriented(1)
    city = o.edge_seg[1]
    assert d.segments[city].key == "c1"
    # f1 {WR, EL} turns to {NR, SL}
    f1 = [s.key for s in d.segments].index("f1")
    assert o.seg_halves[f1] == (1, 4)


def test_symmetric_tiles_have_fewer_distinct_rotations():
    by_id = tile_by_id()
    assert distinct_rotations(by_id["B-X"]) == (0,)      # crossroads
    assert distinct_rotations(by_id["B-U"]) == (0, 1)    # straight road
    assert distinct_rotations(by_id["B-V"]) == (0, 1, 2, 3)


def test_fit_table_matches_edges():
    u = tile_by_id()["B-U"]                                # road N-S, fields E and W
    key = ROAD << 0 | FIELD << 2                           # road above, field to the east
    assert fit_table(u)[key] == (0, 2)


def _load(tmp_path: Path, text: str, name: str = "base"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return parse_tile_set(yaml.safe_load(text), path, name)


GOOD_TILE = """
set: base
tiles:
- id: T-1
  count: 2
  edges: city road field road
  cities:
    c1: {edges: N}
  roads:
    r1: {edges: E W}
  fields:
    f1: {halves: WR EL, cities: c1}
    f2: {halves: ER SL SR WL}
"""


def test_a_valid_handwritten_set_loads(tmp_path):
    s = _load(tmp_path, GOOD_TILE)
    assert s.size == 2 and s.tiles[0].segments[2].cities == (0,)


@pytest.mark.parametrize("change, message", [
    (("f2: {halves: ER SL SR WL}", "f2: {halves: ER SL SR}"), "base.yaml, tile T-1: half-edge WL must be in exactly one field, found none"),
    (("f1: {halves: WR EL, cities: c1}", "f1: {halves: WR EL SL, cities: c1}"), "half-edge SL must be in exactly one field, found f1, f2"),
    (("edges: city road field road", "edges: city road road road"), "edge S is road: exactly one road segment must use it"),
    (("c1: {edges: N}", "c1: {edges: N, good: gold}"), "city c1: good 'gold' is not one of wine, grain, cloth"),
    (("r1: {edges: E W}", "r1: {edges: E}"), "road r1 has one edge, so it must say where it ends"),
    (("f1: {halves: WR EL, cities: c1}", "f1: {halves: WR EL, cities: c9}"), "field f1 borders 'c9', which is not a city on this tile"),
    (("count: 2", "count: 0"), "count must be a positive whole number"),
    (("count: 2", "count: 2\n  colour: red"), "unknown key(s) colour"),
])
def test_malformed_tiles_are_reported_with_file_tile_and_reason(tmp_path, change, message):
    with pytest.raises(DataError) as err:
        _load(tmp_path, GOOD_TILE.replace(*change))
    assert message in str(err.value)
    assert str(err.value).startswith("base.yaml")


def test_declared_totals_must_add_up(tmp_path):
    with pytest.raises(DataError, match=r"base.yaml: the tiles add up to 2 tiles, but the totals line says 3"):
        _load(tmp_path, GOOD_TILE.replace("tiles:\n", "totals: {tiles: 3}\ntiles:\n", 1))


def test_duplicate_ids_and_wrong_set_name_are_reported(tmp_path):
    dup = GOOD_TILE + GOOD_TILE.split("tiles:\n", 1)[1]
    with pytest.raises(DataError, match="tile T-1: the id is used twice"):
        _load(tmp_path, dup)
    with pytest.raises(DataError, match="says it is set 'base', expected 'inns-cathedrals'"):
        _load(tmp_path, GOOD_TILE, name="inns-cathedrals")
