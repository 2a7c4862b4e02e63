"""Regenerate resources/carcassonne/maps/usa.json, the grids of the USA maps, from our atlas.

    .venv/bin/python -m stateside.games.carcassonne.build_maps [out.json]

The app never runs this: it reads the file this writes (see maps.py). Needs shapely.

What it does (the parameters are the constants below; SOURCES.md beside the data repeats them):
- lays a square grid of side SQUARE board units over the lower 48 as the board draws them
  (the atlas's own coordinates: the lower 48 1000 units wide, y downwards), starting at the
  atlas's top-left corner; a square is playable when more than LAND_SHARE of it is inside
  the union of the 48 states. The states' shapes follow the coast and the shores of the
  Great Lakes, so sea, the lakes, Canada and Mexico are never land. Alaska and Hawaii
  (insets) are left out, as on the printed maps;
- splits the grid at one column, the seam: squares left of it belong to USA West, right
  of it to USA East, and the seam column's squares are the half squares of the sheet,
  playable only with both maps. The seam is the column that makes the two maps' playable
  counts closest;
- puts 15 towns on each map on the squares of real cities, no two touching (pick_towns);
- puts 2 start squares on each map, with room to finish the start tile (pick_starts);
- puts 15 outlined squares on each map, 5 violet, 5 orange, 5 light blue, inside the land
  (pick_outlined).
Grid 2 (this script's output since December 2026) replaced grid 1 (32-unit squares), which
is kept as usa-grid1.json for the games saved on it (see maps.py).

City coordinates (longitude, latitude, degrees, WGS84, rounded to 0.01) are the cities'
centres as published (see SOURCES.md; a test checks each lies in its state); projection is the
atlas's (Albers equal-area conic of the contiguous US, EPSG:5070, computed here with
Snyder's ellipsoidal formulas, so no projection library is needed), fitted to the atlas's
board units on corner points of Colorado, Wyoming and Utah (state lines along meridians
and parallels).
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from .maps import GRID

SQUARE = 38.0          # side of a square, board units
LAND_SHARE = 0.5       # a square is playable when more than this share of it is land
COLOURS = ("violet", "orange", "light blue")
TOWNS = 15             # towns per map
BY_SIZE = 10           # the first towns are taken in the candidates' order, the rest to spread them
COVER = 2              # ... to bring as many squares as possible this near a town
TOWN_GAP = 2           # two towns are at least this many squares apart (either way): never touching
START_ROOM = 2         # every square within this many squares of a start square is playable

# Candidate towns per map, in order of preference (the larger cities first): (name, state,
# lon, lat). See pick_towns for which are taken.
WEST_CITIES = [
    ("Seattle", "WA", -122.33, 47.61), ("Los Angeles", "CA", -118.24, 34.05),
    ("San Francisco", "CA", -122.42, 37.77), ("Phoenix", "AZ", -112.07, 33.45),
    ("Denver", "CO", -104.99, 39.74), ("Las Vegas", "NV", -115.14, 36.17),
    ("Salt Lake City", "UT", -111.89, 40.76), ("Portland", "OR", -122.68, 45.52),
    ("San Diego", "CA", -117.16, 32.72), ("Albuquerque", "NM", -106.65, 35.08),
    ("Boise", "ID", -116.20, 43.62), ("Billings", "MT", -108.50, 45.78),
    ("El Paso", "TX", -106.49, 31.76), ("Spokane", "WA", -117.43, 47.66),
    ("Reno", "NV", -119.81, 39.53), ("Cheyenne", "WY", -104.82, 41.14),
    ("Sacramento", "CA", -121.49, 38.58), ("Tucson", "AZ", -110.97, 32.22),
    ("Fresno", "CA", -119.79, 36.74), ("Rapid City", "SD", -103.23, 44.08),
    ("Helena", "MT", -112.04, 46.59), ("Amarillo", "TX", -101.83, 35.22),
    ("Flagstaff", "AZ", -111.65, 35.20), ("Eugene", "OR", -123.09, 44.05),
    ("Casper", "WY", -106.31, 42.85), ("Missoula", "MT", -114.00, 46.87),
    ("Elko", "NV", -115.76, 40.83), ("Grand Junction", "CO", -108.55, 39.06),
    ("Bismarck", "ND", -100.78, 46.81), ("Medford", "OR", -122.87, 42.33),
    ("Pocatello", "ID", -112.45, 42.87), ("Santa Fe", "NM", -105.94, 35.69),
    ("Pierre", "SD", -100.35, 44.37), ("Lubbock", "TX", -101.86, 33.58),
]
EAST_CITIES = [
    ("New York", "NY", -74.01, 40.71), ("Chicago", "IL", -87.63, 41.88),
    ("Houston", "TX", -95.37, 29.76), ("Atlanta", "GA", -84.39, 33.75),
    ("Miami", "FL", -80.19, 25.76), ("Washington", "DC", -77.04, 38.90),
    ("Detroit", "MI", -83.05, 42.33), ("Boston", "MA", -71.06, 42.36),
    ("Dallas", "TX", -96.80, 32.78), ("Minneapolis", "MN", -93.27, 44.98),
    ("New Orleans", "LA", -90.07, 29.95), ("St. Louis", "MO", -90.20, 38.63),
    ("Nashville", "TN", -86.78, 36.16), ("Charlotte", "NC", -80.84, 35.23),
    ("Pittsburgh", "PA", -80.00, 40.44), ("Kansas City", "MO", -94.58, 39.10),
    ("Jacksonville", "FL", -81.66, 30.33), ("Memphis", "TN", -90.05, 35.15),
    ("Philadelphia", "PA", -75.17, 39.95), ("Indianapolis", "IN", -86.16, 39.77),
    ("Cleveland", "OH", -81.69, 41.50), ("Buffalo", "NY", -78.88, 42.89),
    ("Tampa", "FL", -82.46, 27.95), ("Milwaukee", "WI", -87.91, 43.04),
    ("Omaha", "NE", -95.93, 41.26), ("Oklahoma City", "OK", -97.52, 35.47),
    ("San Antonio", "TX", -98.49, 29.42), ("Little Rock", "AR", -92.29, 34.75),
    ("Birmingham", "AL", -86.80, 33.52), ("Louisville", "KY", -85.76, 38.25),
    ("Des Moines", "IA", -93.61, 41.59), ("Raleigh", "NC", -78.64, 35.78),
    ("Fargo", "ND", -96.79, 46.88), ("Duluth", "MN", -92.10, 46.79),
    ("Wichita", "KS", -97.34, 37.69), ("Jackson", "MS", -90.18, 32.30),
    ("Charleston", "SC", -79.93, 32.78), ("Portland", "ME", -70.26, 43.66),
    ("Sioux Falls", "SD", -96.73, 43.55), ("Tulsa", "OK", -95.99, 36.15),
    ("Green Bay", "WI", -88.02, 44.51), ("Albany", "NY", -73.76, 42.65),
    ("Mobile", "AL", -88.04, 30.69), ("Knoxville", "TN", -83.92, 35.96),
]
# Fit points: (lon, lat) of state-line corners and the atlas vertex closest to where
# the named states meet.
FIT_POINTS = [
    ((-109.045, 36.999), ("AZ", "CO", "NM", "UT")),      # the Four Corners
    ((-109.050, 41.000), ("CO", "UT", "WY")),             # Colorado's north-west corner
    ((-104.053, 41.002), ("CO", "NE", "WY")),             # Wyoming's south-east corner
    ((-104.053, 45.003), ("MT", "SD", "WY")),             # Wyoming's north-east corner
    ((-111.049, 44.476), ("ID", "MT", "WY")),             # where Idaho, Montana and Wyoming meet
    ((-114.042, 41.993), ("ID", "NV", "UT")),             # Utah's north-west corner
    ((-102.042, 36.993), ("CO", "KS", "OK")),             # Colorado's south-east corner
]


def albers(lon: float, lat: float) -> tuple[float, float]:
    """EPSG:5070 (NAD83 / Conus Albers) in metres, Snyder's ellipsoidal formulas."""
    a, f = 6378137.0, 1 / 298.257222101
    e2 = 2 * f - f * f
    e = math.sqrt(e2)

    def q(phi):
        s = math.sin(phi)
        return (1 - e2) * (s / (1 - e2 * s * s) - (1 / (2 * e)) * math.log((1 - e * s) / (1 + e * s)))

    def m(phi):
        s = math.sin(phi)
        return math.cos(phi) / math.sqrt(1 - e2 * s * s)

    p1, p2, p0, l0 = map(math.radians, (29.5, 45.5, 23.0, -96.0))
    n = (m(p1) ** 2 - m(p2) ** 2) / (q(p2) - q(p1))
    c = m(p1) ** 2 + n * q(p1)
    rho0 = a * math.sqrt(c - n * q(p0)) / n
    rho = a * math.sqrt(c - n * q(math.radians(lat))) / n
    theta = n * (math.radians(lon) - l0)
    return rho * math.sin(theta), rho0 - rho * math.cos(theta)


def fit_projection(atlas) -> tuple[float, float, float, float]:
    """(k, bx, by, worst residual): board x = k*X + bx, y = -k*Y + by (the atlas's transform)."""
    import shapely

    pairs = []
    for (lon, lat), codes in FIT_POINTS:
        shared = None
        for code in codes:
            pts = {pt for poly in atlas[code].polygons for ring in poly for pt in ring}
            shared = pts if shared is None else shared & pts
        # The atlas vertex shared by all the named states (several: take their middle).
        if not shared:
            raise SystemExit(f"no atlas vertex is shared by {', '.join(codes)}")
        mp = shapely.MultiPoint(sorted(shared)).centroid
        pairs.append((albers(lon, lat), (mp.x, mp.y)))
    # Least squares for k, bx, by with x = kX + bx and y = -kY + by.
    n = len(pairs)
    sx = sum(p[0][0] for p in pairs) / n
    sy = sum(p[0][1] for p in pairs) / n
    tx = sum(p[1][0] for p in pairs) / n
    ty = sum(p[1][1] for p in pairs) / n
    num = sum((X - sx) * (x - tx) - (Y - sy) * (y - ty) for (X, Y), (x, y) in pairs)
    den = sum((X - sx) ** 2 + (Y - sy) ** 2 for (X, Y), _ in pairs)
    k = num / den
    bx, by = tx - k * sx, ty + k * sy
    worst = max(math.hypot(k * X + bx - x, -k * Y + by - y) for (X, Y), (x, y) in pairs)
    return k, bx, by, worst


def chebyshev(a, b) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def sides_off(s, squares) -> int:
    """How many of a square's four sides face no playable square."""
    return sum((s[0] + dx, s[1] + dy) not in squares for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)))


def pick_towns(name, cities, squares, square_of, square_middle) -> list[dict]:
    """TOWNS towns, each at least TOWN_GAP squares (either way) from the others, on its
    city's square (or, for a city on a shore whose square is mostly water, such as
    Chicago on Lake Michigan, the playable neighbour nearest its point): the first
    BY_SIZE candidates in their order, then each time the candidate that brings the most
    squares within COVER squares of a town, so that the whole map has towns (the corners too)."""
    placed = []
    for city, state, lon, lat in cities:
        c, r, x, y = square_of(lon, lat)
        if (c, r) not in squares:
            near = [(c + dx, r + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (c + dx, r + dy) in squares]
            if not near:
                continue
            c, r = min(near, key=lambda s: (math.dist(square_middle(s), (x, y)), s))
        placed.append({"name": city, "state": state, "lon": lon, "lat": lat, "at": [x, y], "square": [c, r]})
    towns: list[dict] = []

    def fits(t):
        return all(chebyshev(t["square"], u["square"]) >= TOWN_GAP for u in towns)
    for t in placed:
        if len(towns) < BY_SIZE and fits(t):
            towns.append(t)
    while len(towns) < TOWNS:
        free = [t for t in placed if t not in towns and fits(t)]
        if not free:
            raise SystemExit(f"{name}: only {len(towns)} towns found {TOWN_GAP} squares apart")
        # The one that brings the most squares within COVER of a town; among equals, the earlier.
        bare = [s for s in squares if all(chebyshev(s, u["square"]) > COVER for u in towns)]
        towns.append(max(free, key=lambda t: (sum(chebyshev(s, t["square"]) <= COVER for s in bare),
                                               -placed.index(t))))
    return towns


def pick_starts(name, squares, taken) -> list[tuple[int, int]]:
    """The squares nearest the middles of the map's northern and southern halves that hold
    no town and have only playable squares within START_ROOM: the start tile's city (north)
    and road (east and west) can then always be finished."""
    rows_sorted = sorted(r for _, r in squares)
    mid = rows_sorted[len(rows_sorted) // 2]
    starts = []
    for half in ([s for s in squares if s[1] < mid], [s for s in squares if s[1] >= mid]):
        cx = sum(c for c, _ in half) / len(half)
        cy = sum(r for _, r in half) / len(half)
        room = [s for s in half if s not in taken and all(
            (s[0] + dx, s[1] + dy) in squares for dx in range(-START_ROOM, START_ROOM + 1)
            for dy in range(-START_ROOM, START_ROOM + 1))]
        if not room:
            raise SystemExit(f"{name}: no start square with room around it")
        starts.append(min(room, key=lambda s: ((s[0] - cx) ** 2 + (s[1] - cy) ** 2, s)))
    return starts


def pick_outlined(name, squares, taken, starts) -> list[tuple[int, int]]:
    """15 outlined squares by farthest-point sampling (each new one as far as possible from
    the start squares and those chosen so far) among the squares with at most one side off
    the map, those with none first; never on a town or start square, never next to (8
    neighbours) another outlined square or a start square."""
    chosen: list[tuple[int, int]] = []
    while len(chosen) < 15:
        anchors = starts + chosen
        free = [s for s in squares if s not in taken and s not in starts and sides_off(s, squares) <= 1
                and not any(chebyshev(s, a) <= 1 for a in anchors)]
        if not free:
            raise SystemExit(f"{name}: only {len(chosen)} outlined squares fit")
        best = max(free, key=lambda s: (sides_off(s, squares) == 0,
                                        min((s[0] - a[0]) ** 2 + (s[1] - a[1]) ** 2 for a in anchors), s))
        chosen.append(best)
    return chosen


def build() -> dict:
    import shapely
    from shapely.geometry import box
    from shapely.ops import unary_union

    from stateside.geo.atlas import load_atlas

    atlas = load_atlas()
    land = unary_union([s.geometry for s in atlas.states if not s.inset])
    shapely.prepare(land)
    x0, y0, x1, y1 = land.bounds
    cols, rows = math.ceil((x1 - x0) / SQUARE), math.ceil((y1 - y0) / SQUARE)

    def share(c, r, left=0.0, right=1.0):
        sq = box(x0 + (c + left) * SQUARE, y0 + r * SQUARE, x0 + (c + right) * SQUARE, y0 + (r + 1) * SQUARE)
        return land.intersection(sq).area / (SQUARE * SQUARE * (right - left))

    land_share = {(c, r): share(c, r) for c in range(cols) for r in range(rows)}
    playable = {sq for sq, v in land_share.items() if v > LAND_SHARE}

    # The seam: the column that balances the two maps best.
    def counts(seam):
        west = sum(1 for c, r in playable if c < seam)
        east = sum(1 for c, r in playable if c > seam)
        return west, east
    seam = min(range(1, cols - 1), key=lambda s: (abs(counts(s)[0] - counts(s)[1]), s))
    maps = {"usa-west": sorted(sq for sq in playable if sq[0] < seam),
            "usa-east": sorted(sq for sq in playable if sq[0] > seam)}
    seam_squares = sorted(sq for sq in playable if sq[0] == seam)

    k, bx, by, worst = fit_projection(atlas)

    def square_of(lon, lat):
        X, Y = albers(lon, lat)
        x, y = k * X + bx, -k * Y + by
        return int((x - x0) // SQUARE), int((y - y0) // SQUARE), round(x, 2), round(y, 2)

    def square_middle(s):
        return x0 + (s[0] + 0.5) * SQUARE, y0 + (s[1] + 0.5) * SQUARE

    out_maps = {}
    for name, cities in (("usa-west", WEST_CITIES), ("usa-east", EAST_CITIES)):
        squares = set(maps[name])
        towns = pick_towns(name, cities, squares, square_of, square_middle)
        taken = {tuple(t["square"]) for t in towns}
        starts = pick_starts(name, squares, taken)
        chosen = pick_outlined(name, squares, taken, starts)
        outlined = [{"square": list(s), "colour": COLOURS[i % 3]} for i, s in enumerate(chosen)]
        out_maps[name] = {"squares": [list(s) for s in maps[name]], "starts": [list(s) for s in starts],
                          "towns": towns, "outlined": outlined}

    return {
        "format": "stateside-carcassonne-maps", "version": 1, "grid_version": GRID,
        "generated_by": "python -m stateside.games.carcassonne.build_maps",
        "grid": {"square": SQUARE, "origin": [x0, y0], "columns": cols, "rows": rows, "land_share": LAND_SHARE,
                 "seam_column": seam, "projection_fit_worst_units": round(worst, 3)},
        "seam_squares": [list(s) for s in seam_squares],
        "maps": out_maps,
    }


def main(argv: list[str]) -> None:
    from stateside.paths import resource

    dst = Path(argv[0]) if argv else Path(resource("carcassonne", "maps", "usa.json"))
    data = build()
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    g = data["grid"]
    print(f"{dst}: seam column {g['seam_column']}, west {len(data['maps']['usa-west']['squares'])}, "
          f"east {len(data['maps']['usa-east']['squares'])}, seam {len(data['seam_squares'])} playable squares; "
          f"projection fit within {g['projection_fit_worst_units']} units")


if __name__ == "__main__":
    main(sys.argv[1:])
