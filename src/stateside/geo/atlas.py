"""The atlas: the 50 states with their board-coordinate shapes, read from
resources/geo/states.geojson (see build_atlas.py for how that file is made)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import shapely
from shapely.geometry.base import BaseGeometry

from stateside.errors import DataError
from stateside.paths import resource

STATE_COUNT = 50


@dataclass(frozen=True)
class StateShape:
    code: str          # postal code, e.g. "CA"
    name: str
    fips: str
    inset: bool        # drawn as an inset (Alaska, Hawaii)
    label: tuple[float, float]   # a point well inside the state for its label and tokens
    geometry: BaseGeometry   # Polygon or MultiPolygon in board units (x right, y down)


@dataclass(frozen=True)
class Atlas:
    states: tuple[StateShape, ...]    # sorted by postal code

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(s.code for s in self.states)

    def __getitem__(self, code: str) -> StateShape:
        return self._by_code()[code]

    def _by_code(self) -> dict[str, StateShape]:
        cached = self.__dict__.get("_index")
        if cached is None:
            cached = {s.code: s for s in self.states}
            object.__setattr__(self, "_index", cached)
        return cached

    def bounds(self) -> tuple[float, float, float, float]:
        xs0, ys0, xs1, ys1 = zip(*(s.geometry.bounds for s in self.states))
        return min(xs0), min(ys0), max(xs1), max(ys1)


def parse_atlas(data: object, where: str) -> Atlas:
    """Build an Atlas from parsed GeoJSON; `where` names the source in error messages."""
    if not isinstance(data, dict) or not isinstance(data.get("features"), list):
        raise DataError(f"{where}: not a GeoJSON FeatureCollection")
    states = []
    seen: set[str] = set()
    for i, feat in enumerate(data["features"]):
        props = feat.get("properties") or {}
        code = props.get("code")
        label_text = f"{where}: feature {i} ({code or 'no code'})"
        if not isinstance(code, str) or len(code) != 2 or not code.isupper():
            raise DataError(f"{label_text}: 'code' must be a two-letter postal code")
        if code in seen:
            raise DataError(f"{label_text}: state {code} appears twice")
        seen.add(code)
        for key in ("name", "fips"):
            if not isinstance(props.get(key), str) or not props[key]:
                raise DataError(f"{label_text}: missing '{key}'")
        try:
            geom = shapely.from_geojson(json.dumps(feat["geometry"]))
        except Exception as e:  # shapely raises GEOSException with varying text
            raise DataError(f"{label_text}: unreadable geometry ({e})") from None
        if geom.is_empty or geom.geom_type not in ("Polygon", "MultiPolygon"):
            raise DataError(f"{label_text}: geometry must be a non-empty (Multi)Polygon")
        label = props.get("label")
        if not (isinstance(label, list) and len(label) == 2 and all(isinstance(v, (int, float)) for v in label)):
            raise DataError(f"{label_text}: 'label' must be a point [x, y]")
        states.append(StateShape(code, props["name"], props["fips"], bool(props.get("inset")), (float(label[0]), float(label[1])), geom))
    if len(states) != STATE_COUNT:
        raise DataError(f"{where}: expected {STATE_COUNT} states, found {len(states)}")
    return Atlas(tuple(sorted(states, key=lambda s: s.code)))


def read_atlas(path: Path) -> Atlas:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror})") from None
    except json.JSONDecodeError as e:
        raise DataError(f"{path}: broken JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    return parse_atlas(data, str(path))


@cache
def load_atlas() -> Atlas:
    """The bundled atlas (read once per process)."""
    return read_atlas(resource("geo", "states.geojson"))
