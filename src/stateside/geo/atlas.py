"""The atlas: the 50 states with their board-coordinate shapes, read from
resources/geo/states.geojson (see build_atlas.py for how that file is made).

Shapes are kept as plain coordinate rings; the shapely geometry of a state is built
on first use (border derivation), so that drawing the map at start-up needs no
geometry library.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

from stateside.data.postal import POSTAL_CODES, STATE_COUNT
from stateside.errors import DataError
from stateside.paths import resource

PALETTE_SIZE = 5

Ring = tuple[tuple[float, float], ...]
Polygon = tuple[Ring, ...]          # exterior ring first, then holes


@dataclass(frozen=True)
class StateShape:
    code: str          # postal code, e.g. "CA"
    name: str
    fips: str
    inset: bool        # drawn as an inset (Alaska, Hawaii)
    label: tuple[float, float]   # a point well inside the state for its label and tokens
    colour: int        # palette index; states sharing a border differ
    polygons: tuple[Polygon, ...]   # board units (x right, y down)

    @cached_property
    def geometry(self):
        """The shape as a shapely (Multi)Polygon."""
        from shapely.geometry import MultiPolygon
        from shapely.geometry import Polygon as ShapelyPolygon

        parts = [ShapelyPolygon(p[0], p[1:]) for p in self.polygons]
        return parts[0] if len(parts) == 1 else MultiPolygon(parts)

    def bounds(self) -> tuple[float, float, float, float]:
        xs = [x for p in self.polygons for x, _y in p[0]]
        ys = [y for p in self.polygons for _x, y in p[0]]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Atlas:
    states: tuple[StateShape, ...]    # sorted by postal code

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(s.code for s in self.states)

    @cached_property
    def _by_code(self) -> dict[str, StateShape]:
        return {s.code: s for s in self.states}

    def __getitem__(self, code: str) -> StateShape:
        return self._by_code[code]

    def bounds(self) -> tuple[float, float, float, float]:
        xs0, ys0, xs1, ys1 = zip(*(s.bounds() for s in self.states))
        return min(xs0), min(ys0), max(xs1), max(ys1)


def _polygons(geometry: object, label: str) -> tuple[Polygon, ...]:
    if not isinstance(geometry, dict) or geometry.get("type") not in ("Polygon", "MultiPolygon"):
        raise DataError(f"{label}: geometry must be a Polygon or MultiPolygon")
    coords = geometry.get("coordinates")
    if not isinstance(coords, list):
        raise DataError(f"{label}: coordinates must be lists of [x, y] points (finite numbers)")
    polys = [coords] if geometry["type"] == "Polygon" else coords
    try:
        result = tuple(
            tuple(tuple((float(x), float(y)) for x, y in ring) for ring in poly) for poly in polys
        )
        # float() would also take "12": a sum refuses text, and is finite only when every
        # value is (one C-level pass per ring; start-up reads this file)
        for poly in polys:
            for ring in poly:
                if not math.isfinite(sum(map(sum, ring))):
                    raise ValueError
    except (TypeError, ValueError):
        raise DataError(f"{label}: coordinates must be lists of [x, y] points (finite numbers)") from None
    if not result or any(not poly or any(len(ring) < 4 for ring in poly) for poly in result):
        raise DataError(f"{label}: every ring needs at least 4 points")
    return result


def parse_atlas(data: object, where: str) -> Atlas:
    """Build an Atlas from parsed GeoJSON; `where` names the source in error messages."""
    if not isinstance(data, dict) or data.get("type") != "FeatureCollection":
        raise DataError(f"{where}: not a GeoJSON FeatureCollection ('type' must be \"FeatureCollection\")")
    if not isinstance(data.get("features"), list):
        raise DataError(f"{where}: 'features' must be a list of the states")
    states = []
    seen: set[str] = set()
    for i, feat in enumerate(data["features"]):
        if not isinstance(feat, dict) or feat.get("type") != "Feature":
            raise DataError(f"{where}: feature {i}: not a GeoJSON Feature ('type' must be \"Feature\")")
        props = feat.get("properties")
        if not isinstance(props, dict):
            raise DataError(f"{where}: feature {i}: 'properties' must be a mapping")
        code = props.get("code")
        label_text = f"{where}: feature {i} ({code if isinstance(code, str) else 'no code'})"
        if not isinstance(code, str) or code not in POSTAL_CODES:
            raise DataError(f"{label_text}: 'code' must be the postal code of one of the 50 states, got {code!r}")
        if code in seen:
            raise DataError(f"{label_text}: state {code} appears twice")
        seen.add(code)
        for key in ("name", "fips"):
            if not isinstance(props.get(key), str) or not props[key]:
                raise DataError(f"{label_text}: missing '{key}'")
        label = props.get("label")
        if not (isinstance(label, list) and len(label) == 2
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in label)):
            raise DataError(f"{label_text}: 'label' must be a point [x, y]")
        if not isinstance(props.get("inset", False), bool):
            raise DataError(f"{label_text}: 'inset' must be true or false, got {props['inset']!r}")
        colour = props.get("colour")
        if not (type(colour) is int and 0 <= colour < PALETTE_SIZE):
            raise DataError(f"{label_text}: 'colour' must be a palette index 0-{PALETTE_SIZE - 1}")
        states.append(StateShape(code, props["name"], props["fips"], bool(props.get("inset")),
                                 (float(label[0]), float(label[1])), colour,
                                 _polygons(feat.get("geometry"), label_text)))
    if len(states) != STATE_COUNT:
        raise DataError(f"{where}: expected {STATE_COUNT} states, found {len(states)}")
    return Atlas(tuple(sorted(states, key=lambda s: s.code)))


def read_atlas(path: Path) -> Atlas:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror})") from None
    except UnicodeDecodeError as e:
        raise DataError(f"{path}: not UTF-8 text (a bad byte at offset {e.start})") from None
    except json.JSONDecodeError as e:
        raise DataError(f"{path}: broken JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    return parse_atlas(data, str(path))


@cache
def load_atlas() -> Atlas:
    """The bundled atlas (read once per process)."""
    return read_atlas(resource("geo", "states.geojson"))
