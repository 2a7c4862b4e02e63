"""The USA maps of Carcassonne Maps as data (pure Python): the grid, the playable squares,
start squares, towns and outlined squares of USA West and USA East, and our map-chips.

Read from resources/carcassonne/maps/ (usa.json is written by build_maps.py; chips.json
is ours). A malformed file raises DataError naming the file and the entry.

The grid has versions: a game keeps the grid it was started on (setup "grid", see
engine.Setup), so a save from before a new grid still replays on its own squares.
usa.json is the current grid (GRID); usa-grid<N>.json keeps each older one as it was.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from stateside.errors import DataError
from stateside.paths import resource

Pos = tuple[int, int]
COLOURS = ("violet", "orange", "light blue")
VARIANTS = ("usa-west", "usa-east", "usa")
GRID = 2          # the current grid: 38-unit squares (grid 1: 32-unit squares, until December 2026)
GRIDS = (1, 2)    # every grid a game can be on
TITLES = {"table": "Table", "usa-west": "USA West", "usa-east": "USA East", "usa": "USA (both maps)"}


@dataclass(frozen=True)
class Town:
    name: str
    state: str
    square: Pos
    at: tuple[float, float]     # the city's point in board units


@dataclass(frozen=True)
class MapBoard:
    """One way to play on the maps: usa-west, usa-east or both (usa)."""
    variant: str
    squares: frozenset[Pos]            # playable squares
    starts: tuple[Pos, ...]
    towns: dict[Pos, Town]
    outlined: dict[Pos, str]           # square -> colour
    square_size: float                 # board units
    origin: tuple[float, float]
    seam_column: int
    copies: int                        # tile sets: 1 (one map) or 2 (both)

    def rect(self, pos: Pos) -> tuple[float, float, float, float]:
        """(x, y, w, h) of a square in board units."""
        s = self.square_size
        return self.origin[0] + pos[0] * s, self.origin[1] + pos[1] * s, s, s

    def label(self, town: Town) -> str:
        """A town's name as this board shows it: "Portland, OR" and "Portland, ME" on the
        board with both maps, where the bare name would be two places."""
        if sum(t.name == town.name for t in self.towns.values()) > 1:
            return f"{town.name}, {town.state}"
        return town.name

    def town_near(self, pos: Pos) -> Town:
        """The town nearest a square, for messages ("near Denver")."""
        return min(self.towns.values(),
                   key=lambda t: ((t.square[0] - pos[0]) ** 2 + (t.square[1] - pos[1]) ** 2, t.name))


@dataclass(frozen=True)
class Chip:
    colour: str
    points: int

    @property
    def id(self) -> str:
        return f"{self.colour}-{self.points}"


def _load_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror})") from None
    except json.JSONDecodeError as e:
        raise DataError(f"{path}: broken JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    if not isinstance(data, dict):
        raise DataError(f"{path}: not a JSON object")
    return data


def _pos(v, where: str) -> Pos:
    if not (isinstance(v, list) and len(v) == 2 and all(type(i) is int for i in v)):
        raise DataError(f"{where}: a square must be [column, row] whole numbers, not {v!r}"[:200])
    return (v[0], v[1])


def parse_maps(data: dict, where: str) -> dict[str, MapBoard]:
    """The three ways to play from usa.json's contents; DataError names `where` and the entry."""
    try:
        grid = data["grid"]
        size, origin, seam = float(grid["square"]), tuple(map(float, grid["origin"])), int(grid["seam_column"])
        raw = data["maps"]
        seam_squares = frozenset(_pos(v, f"{where}: seam_squares[{i}]") for i, v in enumerate(data["seam_squares"]))
    except (KeyError, TypeError, ValueError) as e:
        raise DataError(f"{where}: the grid is malformed ({e})") from None
    halves = {}
    for name in ("usa-west", "usa-east"):
        m = raw.get(name) if isinstance(raw, dict) else None
        if not isinstance(m, dict):
            raise DataError(f"{where}: maps.{name} is missing")
        w = f"{where}: maps.{name}"
        try:
            squares = frozenset(_pos(v, f"{w}.squares[{i}]") for i, v in enumerate(m["squares"]))
            starts = tuple(_pos(v, f"{w}.starts[{i}]") for i, v in enumerate(m["starts"]))
            towns = {}
            for i, t in enumerate(m["towns"]):
                sq = _pos(t["square"], f"{w}.towns[{i}] ({t.get('name')})")
                if sq in towns:
                    raise DataError(f"{w}.towns[{i}] ({t['name']}): square {sq} already holds {towns[sq].name}")
                towns[sq] = Town(str(t["name"]), str(t["state"]), sq, (float(t["at"][0]), float(t["at"][1])))
            outlined = {}
            for i, o in enumerate(m["outlined"]):
                sq = _pos(o["square"], f"{w}.outlined[{i}]")
                if o["colour"] not in COLOURS:
                    raise DataError(f"{w}.outlined[{i}]: unknown colour {o['colour']!r}")
                outlined[sq] = o["colour"]
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise DataError(f"{w}: malformed ({e!r})") from None
        for label, group in (("start", starts), ("town", towns), ("outlined", outlined)):
            bad = [sq for sq in group if sq not in squares]
            if bad:
                raise DataError(f"{w}: {label} square {bad[0]} is not a playable square of the map")
        clash = (set(outlined) & (set(towns) | set(starts))) or (set(towns) & set(starts))
        if clash:
            raise DataError(f"{w}: square {sorted(clash)[0]} is used twice (towns, starts, outlined squares)")
        halves[name] = (squares, starts, towns, outlined)
    out = {}
    for name, (squares, starts, towns, outlined) in halves.items():
        out[name] = MapBoard(name, squares, starts, towns, outlined, size, origin, seam, 1)
    (ws, wst, wt, wo), (es, est, et, eo) = halves["usa-west"], halves["usa-east"]
    out["usa"] = MapBoard("usa", ws | es | seam_squares, wst + est, {**wt, **et}, {**wo, **eo}, size, origin, seam, 2)
    return out


@cache
def load_maps(grid: int = GRID) -> dict[str, MapBoard]:
    """The three ways to play on grid version `grid` (one of GRIDS)."""
    if grid not in GRIDS:
        raise DataError(f"there is no USA map grid {grid!r} (grids: {', '.join(map(str, GRIDS))})")
    path = resource("carcassonne", "maps", "usa.json" if grid == GRID else f"usa-grid{grid}.json")
    data = _load_json(path)
    if data.get("grid_version", 1) != grid:
        raise DataError(f"{path}: holds grid {data.get('grid_version', 1)!r}, not grid {grid}")
    return parse_maps(data, str(path))


def parse_chips(data: dict, where: str) -> tuple[Chip, ...]:
    """Every chip, one entry per copy."""
    out = []
    rows = data.get("chips")
    if not isinstance(rows, list):
        raise DataError(f"{where}: no list of chips")
    for i, c in enumerate(rows):
        if not isinstance(c, dict) or c.get("colour") not in COLOURS or c.get("points") not in (1, 2) \
                or type(c.get("count")) is not int or c["count"] < 1:
            raise DataError(f"{where}: chips[{i}] needs a colour ({', '.join(COLOURS)}), points 1 or 2 and a count")
        out.extend([Chip(c["colour"], c["points"])] * c["count"])
    if len(out) != 30 or any(sum(1 for c in out if c.colour == col) != 10 for col in COLOURS):
        raise DataError(f"{where}: there must be 30 chips, 10 of each colour")
    return tuple(out)


@cache
def load_chips() -> tuple[Chip, ...]:
    path = resource("carcassonne", "maps", "chips.json")
    return parse_chips(_load_json(path), str(path))
