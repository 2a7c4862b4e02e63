"""Carcassonne land tiles: loading and checking the tile-set files, and each tile's
structure in its four rotations.

A tile-set file (resources/carcassonne/<set>.yaml, format in README.md there) lists
tile types in one reference orientation. Loading checks every tile (edges agree
with the segments, every field half-edge belongs to exactly one field, references
resolve, the declared totals add up) and raises DataError naming file, tile and
what is wrong.

Geometry conventions used everywhere in this game:
- directions 0..3 = N, E, S, W; x grows east, y grows south;
- half-edges 0..7 = NL NR EL ER SL SR WL WR (clockwise from the NW corner; L is on
  your left looking out of the tile through that edge);
- turning a tile clockwise by r quarter turns maps direction d to (d + r) % 4 and
  half-edge h to (h + 2r) % 8;
- a tile's edge d meets its neighbour's edge (d + 2) % 4; half 2d meets the
  neighbour's half 2(d+2)+1 and half 2d+1 meets 2(d+2).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from stateside.data.yamlio import read_yaml
from stateside.errors import DataError
from stateside.paths import resource

DIRS = ("N", "E", "S", "W")
HALVES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))  # (dx, dy) per direction

# Edge kinds, as small ints so that fitting can be looked up in a table.
CITY, ROAD, FIELD = 1, 2, 3
EDGE_KINDS = {"city": CITY, "road": ROAD, "field": FIELD}
EDGE_NAMES = {v: k for k, v in EDGE_KINDS.items()}

# Segment kinds.
K_CITY, K_ROAD, K_FIELD, K_CLOISTER = "city", "road", "field", "cloister"

GOODS = ("wine", "grain", "cloth")
ROAD_ENDS = ("city", "junction", "cloister", "dead-end")

# The sets the game knows, in the order they are offered.
SET_NAMES = ("base", "inns-cathedrals", "traders-builders")


@dataclass(frozen=True)
class Segment:
    """One feature piece on a tile in its reference orientation."""
    key: str                       # "c1", "r2", "f1", "cloister": as in the data file
    kind: str                      # K_CITY, K_ROAD, K_FIELD, K_CLOISTER
    edges: tuple[int, ...] = ()    # directions (city, road)
    halves: tuple[int, ...] = ()   # half-edges (field)
    pennant: bool = False
    cathedral: bool = False
    good: str | None = None
    inn: bool = False
    end: str | None = None         # where a one-edge road ends
    cities: tuple[int, ...] = ()   # field: indices (in TileType.segments) of the cities it borders
    # drawing hints, no effect on the rules
    wall_via: int | None = None    # city: its wall runs through this corner (0 NE, 1 SE, 2 SW, 3 NW)
    to: int | None = None          # road ending at a city: index of that city segment
    over: int | None = None        # road: crosses over this road segment on a bridge


@dataclass(frozen=True, eq=False)   # compared and hashed by identity: cheap cache keys
class TileType:
    id: str
    set_name: str
    letter: str | None
    count: int
    edges: tuple[int, int, int, int]   # edge kind per direction, reference orientation
    segments: tuple[Segment, ...]      # cities, then roads, then fields, then the cloister
    stubs: tuple[int, ...] = ()        # drawing hint: decorative road stubs from the centre
    index: int = -1                    # position in the loaded catalogue

    @property
    def cloister(self) -> bool:
        return any(s.kind == K_CLOISTER for s in self.segments)

    def oriented(self, rot: int) -> Oriented:
        return _oriented(self, rot % 4)


@dataclass(frozen=True)
class TileSet:
    name: str
    title: str
    path: Path
    tiles: tuple[TileType, ...]
    start: str | None
    totals: dict = field(default_factory=dict)

    @property
    def size(self) -> int:
        return sum(t.count for t in self.tiles)


# --------------------------------------------------------------------------- loading
CORNERS = {"NE": 0, "SE": 1, "SW": 2, "NW": 3}
_TILE_KEYS = {"id", "letter", "count", "edges", "cloister", "cities", "roads", "fields", "stubs"}
_CITY_KEYS = {"edges", "pennant", "cathedral", "good", "wall_via"}
_ROAD_KEYS = {"edges", "end", "inn", "to", "over"}
_FIELD_KEYS = {"halves", "cities"}


def _words(value, where: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ValueError(f"{where} must be a space-separated list of names, not {value!r}")


def _flag(value, where: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ValueError(f"{where} must be true or false, not {value!r}")
    return value


def _parse_tile(raw: dict, set_name: str) -> TileType:
    if not isinstance(raw, dict):
        raise ValueError("a tile must be a mapping of id, count, edges, ...")
    unknown = set(raw) - _TILE_KEYS
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(sorted(unknown))}")
    count = raw.get("count")
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"count must be a positive whole number, not {count!r}")
    edge_words = _words(raw.get("edges"), "edges")
    if len(edge_words) != 4 or any(w not in EDGE_KINDS for w in edge_words):
        raise ValueError(f"edges must be four of city/road/field (N E S W), not {raw.get('edges')!r}")
    edges = tuple(EDGE_KINDS[w] for w in edge_words)

    def dirs(words: list[str], where: str) -> tuple[int, ...]:
        bad = [w for w in words if w not in DIRS]
        if bad:
            raise ValueError(f"{where}: {bad[0]!r} is not an edge (N, E, S or W)")
        if len(set(words)) != len(words):
            raise ValueError(f"{where}: an edge is listed twice")
        return tuple(DIRS.index(w) for w in words)

    def section(name: str, allowed: set[str]) -> list[tuple[str, dict]]:
        sec = raw.get(name) or {}
        if not isinstance(sec, dict):
            raise ValueError(f"{name} must map segment names to their details")
        out = []
        for key, spec in sec.items():
            if not isinstance(spec, dict):
                raise ValueError(f"{name} {key}: details must be a mapping")
            extra = set(spec) - allowed
            if extra:
                raise ValueError(f"{name} {key}: unknown key(s) {', '.join(sorted(extra))}")
            out.append((str(key), spec))
        return out

    cities_raw = section("cities", _CITY_KEYS)
    roads_raw = section("roads", _ROAD_KEYS)
    fields_raw = section("fields", _FIELD_KEYS)
    city_index = {key: i for i, (key, _) in enumerate(cities_raw)}
    road_index = {key: len(cities_raw) + i for i, (key, _) in enumerate(roads_raw)}

    segs: list[Segment] = []
    for key, spec in cities_raw:
        good = spec.get("good")
        if good is not None and good not in GOODS:
            raise ValueError(f"city {key}: good {good!r} is not one of {', '.join(GOODS)}")
        via = spec.get("wall_via")
        if via is not None and via not in CORNERS:
            raise ValueError(f"city {key}: wall_via {via!r} is not a corner (NE, SE, SW, NW)")
        segs.append(Segment(
            key, K_CITY, edges=dirs(_words(spec.get("edges"), f"city {key} edges"), f"city {key}"),
            pennant=_flag(spec.get("pennant"), f"city {key} pennant"),
            cathedral=_flag(spec.get("cathedral"), f"city {key} cathedral"),
            good=good, wall_via=None if via is None else CORNERS[via]))
    for key, spec in roads_raw:
        r_edges = dirs(_words(spec.get("edges"), f"road {key} edges"), f"road {key}")
        end = spec.get("end")
        if len(r_edges) == 1 and end not in ROAD_ENDS:
            raise ValueError(f"road {key} has one edge, so it must say where it ends ({', '.join(ROAD_ENDS)}), "
                             f"not {end!r}")
        if len(r_edges) == 2 and end is not None:
            raise ValueError(f"road {key} runs through the tile (two edges) but also says it ends at {end!r}")
        if len(r_edges) not in (1, 2):
            raise ValueError(f"road {key} must touch one or two edges, not {len(r_edges)}")
        to = spec.get("to")
        if to is not None and to not in city_index:
            raise ValueError(f"road {key}: to {to!r} is not a city on this tile")
        if end == "city" and to is None:
            if len(city_index) != 1:
                raise ValueError(f"road {key} ends at a city, and the tile has {len(city_index)} cities: "
                                 "say which with 'to'")
            to = next(iter(city_index))
        over = spec.get("over")
        if over is not None and (over not in road_index or over == key):
            raise ValueError(f"road {key}: over {over!r} is not another road on this tile")
        segs.append(Segment(
            key, K_ROAD, edges=r_edges, inn=_flag(spec.get("inn"), f"road {key} inn"), end=end,
            to=None if to is None else city_index[to], over=None if over is None else road_index[over]))
    for key, spec in fields_raw:
        hw = _words(spec.get("halves"), f"field {key} halves")
        bad = [h for h in hw if h not in HALVES]
        if bad:
            raise ValueError(f"field {key}: {bad[0]!r} is not a half-edge ({' '.join(HALVES)})")
        if len(set(hw)) != len(hw):
            raise ValueError(f"field {key}: a half-edge is listed twice")
        cw = _words(spec.get("cities"), f"field {key} cities")
        missing = [c for c in cw if c not in city_index]
        if missing:
            raise ValueError(f"field {key} borders {missing[0]!r}, which is not a city on this tile")
        segs.append(Segment(key, K_FIELD, halves=tuple(HALVES.index(h) for h in hw),
                            cities=tuple(city_index[c] for c in cw)))
    if _flag(raw.get("cloister"), "cloister"):
        segs.append(Segment("cloister", K_CLOISTER))

    # The edges must agree with the segments.
    for d in range(4):
        owners = [s.key for s in segs if s.kind in (K_CITY, K_ROAD) and d in s.edges]
        want = {CITY: K_CITY, ROAD: K_ROAD}.get(edges[d])
        kinds = {s.kind for s in segs if s.key in owners}
        if want is None and owners:
            raise ValueError(f"edge {DIRS[d]} is field, but {', '.join(owners)} use(s) it")
        if want is not None and (len(owners) != 1 or kinds != {want}):
            raise ValueError(f"edge {DIRS[d]} is {EDGE_NAMES[edges[d]]}: exactly one {want} segment must "
                             f"use it, found {', '.join(owners) or 'none'}")
    for h in range(8):
        owners = [s.key for s in segs if s.kind == K_FIELD and h in s.halves]
        if edges[h // 2] == CITY:
            if owners:
                raise ValueError(f"half-edge {HALVES[h]} lies on a city edge, but field {owners[0]} uses it")
        elif len(owners) != 1:
            raise ValueError(f"half-edge {HALVES[h]} must be in exactly one field, found {', '.join(owners) or 'none'}")
    stubs = dirs(_words(raw.get("stubs"), "stubs"), "stubs")
    letter = raw.get("letter")
    return TileType(id=str(raw["id"]), set_name=set_name, letter=None if letter is None else str(letter),
                    count=count, edges=edges, segments=tuple(segs), stubs=stubs)


def _totals(tiles: tuple[TileType, ...]) -> dict:
    def n(pred):
        return sum(t.count * sum(1 for s in t.segments if pred(s)) for t in tiles)
    return {
        "types": len(tiles),
        "tiles": sum(t.count for t in tiles),
        "pennants": n(lambda s: s.pennant),
        "cloisters": n(lambda s: s.kind == K_CLOISTER),
        "inns": n(lambda s: s.inn),
        "cathedrals": n(lambda s: s.cathedral),
        **{g: n(lambda s, g=g: s.good == g) for g in GOODS},
        "city_segments": n(lambda s: s.kind == K_CITY),
        "road_segments": n(lambda s: s.kind == K_ROAD),
        "field_segments": n(lambda s: s.kind == K_FIELD),
    }


def parse_tile_set(data, path: Path, name: str) -> TileSet:
    """Check and build one tile set from already-read YAML data."""
    where = path.name
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise DataError(f"{where}: not a tile-set file (no 'tiles' list)")
    if data.get("set") != name:
        raise DataError(f"{where}: says it is set {data.get('set')!r}, expected {name!r}")
    tiles: list[TileType] = []
    seen: set[str] = set()
    for i, raw in enumerate(data["tiles"], 1):
        tid = raw.get("id") if isinstance(raw, dict) else None
        label = f"tile {tid}" if tid else f"tile #{i}"
        if not tid:
            raise DataError(f"{where}, {label}: has no id")
        if not isinstance(tid, str):
            raise DataError(f"{where}, {label}: the id must be text such as 'B-A', got {tid!r}")
        if raw.get("letter") is not None and not isinstance(raw["letter"], str):
            raise DataError(f"{where}, {label}: the letter must be text, got {raw['letter']!r}")
        if tid in seen:
            raise DataError(f"{where}, {label}: the id is used twice")
        seen.add(tid)
        try:
            tiles.append(_parse_tile(raw, name))
        except ValueError as e:
            raise DataError(f"{where}, {label}: {e}") from None
    start = data.get("start")
    if start is not None and start not in seen:
        raise DataError(f"{where}: the start tile {start!r} is not in the set")
    declared = data.get("totals") or {}
    if not isinstance(declared, dict):
        raise DataError(f"{where}: totals must be a mapping such as 'tiles: 72', got {declared!r}")
    title = data.get("title", name)
    if not isinstance(title, str) or not title.strip():
        raise DataError(f"{where}: the title must be text, got {title!r}")
    actual = _totals(tuple(tiles))
    for key, value in declared.items():
        if key not in actual:
            raise DataError(f"{where}: totals has an unknown entry {key!r}")
        if actual[key] != value:
            raise DataError(f"{where}: the tiles add up to {actual[key]} {key.replace('_', ' ')}, "
                            f"but the totals line says {value}")
    return TileSet(name=name, title=title, path=path, tiles=tuple(tiles),
                   start=start, totals=actual)


@cache
def load_tile_set(name: str) -> TileSet:
    if name not in SET_NAMES:
        raise DataError(f"unknown Carcassonne tile set {name!r} (known: {', '.join(SET_NAMES)})")
    path = resource("carcassonne", f"{name}.yaml")
    return parse_tile_set(read_yaml(path), path, name)


@cache
def catalogue() -> tuple[TileType, ...]:
    """Every known tile type, each with its catalogue index (stable across runs)."""
    out: list[TileType] = []
    for name in SET_NAMES:
        for t in load_tile_set(name).tiles:
            out.append(TileType(**{**t.__dict__, "index": len(out)}))
    return tuple(out)


@cache
def tile_by_id() -> dict[str, TileType]:
    return {t.id: t for t in catalogue()}


# --------------------------------------------------------------------------- rotation
@dataclass(frozen=True)
class Oriented:
    """A tile type turned clockwise by `rot` quarter turns, in the form the engine uses.
    Segment indices are the same as in TileType.segments for every rotation."""
    tile: TileType
    rot: int
    edges: tuple[int, int, int, int]     # edge kind per direction
    edge_seg: tuple[int, int, int, int]  # city/road segment on each edge, -1 for a field edge
    half_seg: tuple[int, ...]            # field segment on each half-edge, -1 on a city edge
    seg_edges: tuple[tuple[int, ...], ...]   # per segment, its directions after rotating
    seg_halves: tuple[tuple[int, ...], ...]  # per segment, its half-edges after rotating
    signature: tuple                     # equal for rotations that look and play the same


@cache
def _oriented(tile: TileType, rot: int) -> Oriented:
    edges = tuple(tile.edges[(d - rot) % 4] for d in range(4))
    seg_edges = tuple(tuple(sorted((d + rot) % 4 for d in s.edges)) for s in tile.segments)
    seg_halves = tuple(tuple(sorted((h + 2 * rot) % 8 for h in s.halves)) for s in tile.segments)
    edge_seg = [-1] * 4
    half_seg = [-1] * 8
    for i in range(len(tile.segments)):
        for d in seg_edges[i]:
            edge_seg[d] = i
        for h in seg_halves[i]:
            half_seg[h] = i
    signature = tuple(sorted(
        (s.kind, seg_edges[i], seg_halves[i], s.pennant, s.cathedral, s.good, s.inn, s.end,
         tuple(sorted(seg_edges[c] for c in s.cities)))
        for i, s in enumerate(tile.segments)))
    return Oriented(tile, rot, edges, tuple(edge_seg), tuple(half_seg), seg_edges, seg_halves, signature)


@cache
def distinct_rotations(tile: TileType) -> tuple[int, ...]:
    """The rotations that give different placements (a crossroads has one, a straight road two)."""
    seen: dict = {}
    for r in range(4):
        seen.setdefault(tile.oriented(r).signature, r)
    return tuple(sorted(seen.values()))


@cache
def fit_table(tile: TileType) -> tuple[tuple[int, ...], ...]:
    """For each 8-bit requirement key (2 bits per direction: 0 empty, else the edge kind
    the neighbour shows), the rotations of `tile` that match it."""
    turned = [tile.oriented(r).edges for r in range(4)]
    table = []
    for key in range(256):
        need = [(key >> (2 * d)) & 3 for d in range(4)]
        table.append(tuple(r for r, edges in enumerate(turned)
                           if all(n == 0 or n == e for n, e in zip(need, edges))))
    return tuple(table)
