"""The drawn shape of every tile, derived from its segments: pure geometry (shapely),
no Qt. Painting and follower hit-testing both use it, so what a player sees is
what a click selects.

A tile is the unit square in its reference orientation, x east, y south, (0, 0) the
NW corner. City walls are curves between corners; roads run from edge midpoints
through the tile or to where they end; fields are whatever is left, cut apart by
roads and walls. `check_fields` compares those pieces with the tile data, which the
tests do for every tile type.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache

from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.ops import nearest_points, polylabel, unary_union

from .tiles import K_CITY, K_CLOISTER, K_FIELD, K_ROAD, TileType

XY = tuple[float, float]
CORNER = ((1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0))       # NE, SE, SW, NW
EDGE_MID = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))      # N, E, S, W
INWARD = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))      # from each edge into the tile
CENTRE = (0.5, 0.5)
# A point just inside each half-edge, NL NR EL ER SL SR WL WR.
HALF_POINT = ((0.25, 0.01), (0.75, 0.01), (0.99, 0.25), (0.99, 0.75),
              (0.75, 0.99), (0.25, 0.99), (0.01, 0.75), (0.01, 0.25))
ROAD_CUT = 0.004         # width that roads cut fields with (drawn roads are wider)
CLOISTER_HALF = 0.16
SPOT_GAP = 0.27          # follower spots on one tile keep this far apart where there is room
SYMBOL_GAP = 0.14        # and this far from a pennant, good or inn


def _quad(a: XY, c: XY, b: XY, steps: int = 16) -> list[XY]:
    """Points of the quadratic curve from a to b with control point c."""
    pts = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        pts.append((u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1]))
    return pts


def _towards(p: XY, q: XY, f: float) -> XY:
    return (p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f)


@dataclass(frozen=True)
class SegmentShape:
    area: Polygon | MultiPolygon | None   # city, field, cloister: the region
    line: LineString | None               # road: its centre line
    anchor: XY                            # where a follower stands
    symbol: XY | None = None              # where a pennant, good, cathedral or inn is drawn


@dataclass(frozen=True)
class TileShape:
    segments: tuple[SegmentShape, ...]    # same order as TileType.segments
    junction: bool                        # roads meet at a crossing drawn in the middle
    stubs: tuple[LineString, ...]         # decorative road stubs
    bridges: tuple[XY, ...]               # where a road crosses over another
    dead_ends: tuple[XY, ...]


def _wall(a: int, b: int, depth: float, lean: float, wide: bool = False) -> list[XY]:
    """A wall from corner a to corner b through the tile's inside (the city lies on the
    far side, walking a -> b with the city on the left). Adjacent corners give an arc
    `depth` deep; opposite corners a curve leaning `lean` towards the city's corner."""
    pa, pb = CORNER[a], CORNER[b]
    if (a - b) % 2:   # neighbours: the edge between them
        mid = _towards(pa, pb, 0.5)
        # the inside direction is towards the centre from this edge's midpoint
        ctrl = _towards(mid, CENTRE, 4 * depth)
        return _quad(pa, ctrl, pb)
    # opposite corners: lean towards the city's own corner (the one before a, clockwise),
    # or away from it for a `wide` city
    return _quad(pa, _towards(CENTRE, CORNER[(a + 1) % 4 if wide else (a - 1) % 4], lean), pb)


def _city_polygon(edges: tuple[int, ...], via: int | None, crowded: bool, nested: bool = False) -> Polygon:
    es = set(edges)
    if len(es) == 4:
        return box(0, 0, 1, 1)
    # Walk clockwise: a city edge d runs from corner d-1 to corner d.
    start = next(d for d in range(4) if d in es and (d - 1) % 4 not in es)
    pts: list[XY] = []
    d = start
    while True:
        run_start = d
        while (d + 1) % 4 in es and (d + 1) % 4 != run_start:
            d = (d + 1) % 4
        first_corner, last_corner = (run_start - 1) % 4, d
        pts.append(CORNER[first_corner])
        k = first_corner
        while k != last_corner:
            k = (k + 1) % 4
            pts.append(CORNER[k])
        # wall to the start of the next run
        nxt = (d + 1) % 4
        while nxt not in es:
            nxt = (nxt + 1) % 4
        to_corner = (nxt - 1) % 4
        # How deep a wall arc reaches into the tile: caps stay shallow when they share
        # the tile; the field beside a band or a three-sided city gets a fair share.
        # `nested`: a cap inside the arc of a band across the tile (Traders & Builders): at
        # 0.13 the cap was a sliver that read as field, so the band narrows to give it room.
        if len(es) == 1:
            depth = 0.21 if nested else 0.13 if crowded else 0.26
        else:
            depth = 0.37 if nested else 0.3
        if via is not None and via not in (last_corner, to_corner):
            pts.extend(_wall(last_corner, via, 0.2, 0.3)[1:-1])
            pts.append(CORNER[via])
            pts.extend(_wall(via, to_corner, 0.2, 0.3, wide=True)[1:-1])
        else:
            pts.extend(_wall(last_corner, to_corner, depth, 0.25)[1:-1])
        d = nxt
        if d == start:
            break
    poly = Polygon(pts)
    return poly if poly.is_valid else poly.buffer(0)


def _road_line(tile: TileType, i: int, cities: dict[int, Polygon]) -> LineString:
    s = tile.segments[i]
    if len(s.edges) == 2:
        a, b = s.edges
        if (a - b) % 2 == 0:
            return LineString([EDGE_MID[a], EDGE_MID[b]])
        return LineString(_quad(EDGE_MID[a], CENTRE, EDGE_MID[b]))
    d = s.edges[0]
    m = EDGE_MID[d]
    if s.end == "city":
        city = cities[s.to]
        inner = _towards(m, CENTRE, 0.5)
        near = city.exterior.interpolate(city.exterior.project(Point(inner)))
        target = (near.x, near.y)
        # reach a little into the city so the road really meets its wall
        rep = city.representative_point()
        target = _towards(target, (rep.x, rep.y), 0.15)
        return LineString(_quad(m, inner, target))
    if s.end == "dead-end":
        far = EDGE_MID[(d + 2) % 4]
        return LineString([m, _towards(m, far, 0.78)])
    return LineString([m, CENTRE])        # junction or cloister


def _label(area, avoid: list[XY], radius: float = 0.12) -> XY:
    """A comfortable point inside `area` away from the points in `avoid`."""
    region = area
    if avoid:
        cut = region.difference(unary_union([Point(p).buffer(radius) for p in avoid]))
        if not cut.is_empty and cut.area > 0.002:
            region = cut
    if isinstance(region, MultiPolygon) or region.geom_type == "GeometryCollection":
        region = max((g for g in getattr(region, "geoms", [region]) if g.geom_type == "Polygon"), key=lambda g: g.area)
    p = polylabel(region, tolerance=0.005)
    return (p.x, p.y)


@cache
def tile_shape(tile: TileType) -> TileShape:
    segs = tile.segments
    n_cities = sum(1 for s in segs if s.kind == K_CITY)
    band = any(s.kind == K_CITY and len(s.edges) == 2 and (s.edges[0] - s.edges[1]) % 2 == 0 for s in segs)
    cap = any(s.kind == K_CITY and len(s.edges) == 1 for s in segs)
    cities: dict[int, Polygon] = {
        i: _city_polygon(s.edges, s.wall_via, crowded=n_cities > 1, nested=band and cap)
        for i, s in enumerate(segs) if s.kind == K_CITY}
    roads = {i: _road_line(tile, i, cities) for i, s in enumerate(segs) if s.kind == K_ROAD}
    stubs = []
    for d in tile.stubs:
        stubs.append(LineString([CENTRE, _towards(CENTRE, EDGE_MID[d], 0.8)]))
    cutters = list(cities.values()) + [ln.buffer(ROAD_CUT) for ln in list(roads.values()) + stubs]
    rest = box(0, 0, 1, 1).difference(unary_union(cutters)) if cutters else box(0, 0, 1, 1)
    pieces = [g for g in getattr(rest, "geoms", [rest]) if g.geom_type == "Polygon" and g.area > 1e-4]

    # Which piece belongs to which field: by the half-edges it touches, enclosed ones last.
    field_of_piece: dict[int, int] = {}
    field_ids = [i for i, s in enumerate(segs) if s.kind == K_FIELD]
    enclosed_fields = [i for i in field_ids if not segs[i].halves]
    enclosed_pieces = []
    for k, piece in enumerate(pieces):
        touched = {h for h in range(8) if piece.distance(Point(HALF_POINT[h])) < 0.006}
        owners = {i for i in field_ids if touched & set(segs[i].halves)}
        if len(owners) == 1:
            field_of_piece[k] = owners.pop()
        elif not touched:
            enclosed_pieces.append(k)
    for k, i in zip(sorted(enclosed_pieces, key=lambda k: -pieces[k].area), enclosed_fields):
        field_of_piece[k] = i
    fields: dict[int, Polygon | MultiPolygon] = {}
    for i in field_ids:
        mine = [pieces[k] for k, f in field_of_piece.items() if f == i]
        if mine:
            fields[i] = unary_union(mine)

    cloister = box(0.5 - CLOISTER_HALF, 0.5 - CLOISTER_HALF * 1.1, 0.5 + CLOISTER_HALF, 0.5 + CLOISTER_HALF * 0.9)
    taken: list[XY] = []
    shapes: list[SegmentShape | None] = [None] * len(segs)
    order = sorted(range(len(segs)), key=lambda i: ("cloister", "city", "road", "field").index(segs[i].kind))
    for i in order:
        s = segs[i]
        if s.kind == K_CLOISTER:
            shapes[i] = SegmentShape(cloister, None, CENTRE)
            taken.append(CENTRE)
        elif s.kind == K_CITY:
            area = cities[i]
            anchor = _label(area, taken)
            taken.append(anchor)
            symbol = None
            if s.pennant or s.cathedral or s.good:
                symbol = _label(area, taken, radius=0.14)
                taken.append(symbol)
            shapes[i] = SegmentShape(area, None, anchor, symbol)
        elif s.kind == K_ROAD:
            line = roads[i]
            frac = 0.5 if len(s.edges) == 2 else 0.45
            p = line.interpolate(frac, normalized=True)
            if len(s.edges) == 2 and (s.edges[0] - s.edges[1]) % 2 == 0 and any(
                    o.kind == K_ROAD and o is not s for o in segs):
                p = line.interpolate(0.3, normalized=True)   # crossing roads: keep followers apart
            anchor = (p.x, p.y)
            taken.append(anchor)
            symbol = None
            if s.inn:
                q = line.interpolate(0.75 if len(s.edges) == 2 else 0.2, normalized=True)
                symbol = (q.x, q.y)
            shapes[i] = SegmentShape(None, line, anchor, symbol)
    for i in order:
        s = segs[i]
        if s.kind == K_FIELD:
            area = fields.get(i)
            anchor = _label(area, taken, radius=0.13) if area is not None else CENTRE
            taken.append(anchor)
            shapes[i] = SegmentShape(area, None, anchor)

    shapes = _spread_spots(shapes, segs)

    bridges = []
    dead_ends = []
    for i, s in enumerate(segs):
        if s.kind == K_ROAD and s.over is not None:
            cross = roads[i].intersection(roads[s.over])
            if not cross.is_empty:
                c = cross.centroid
                bridges.append((c.x, c.y))
        if s.kind == K_ROAD and s.end == "dead-end":
            end = roads[i].coords[-1]
            dead_ends.append((end[0], end[1]))
    junction = sum(1 for s in segs if s.kind == K_ROAD and s.end == "junction") >= 2
    return TileShape(tuple(shapes), junction, tuple(stubs), tuple(bridges), tuple(dead_ends))


def _spread_spots(shapes: list[SegmentShape], segs) -> list[SegmentShape]:
    """Push follower spots that crowd each other (small fields beside a road that runs
    into a city, a cap next to an enclosed field) apart, each staying on its own feature:
    a road's spot slides along the road, an area's stays inside the area."""
    pts = [list(sh.anchor) for sh in shapes]
    fixed = [sh.symbol for sh in shapes if sh.symbol is not None]
    movable = [segs[i].kind != K_CLOISTER for i in range(len(shapes))]

    def settle(i: int) -> None:
        sh, q = shapes[i], Point(pts[i])
        if sh.line is not None:
            length = sh.line.length
            at = sh.line.interpolate(min(max(sh.line.project(q), 0.15 * length), 0.85 * length))
            pts[i] = [at.x, at.y]
        elif sh.area is not None:
            inner = sh.area.buffer(-0.04)
            region = inner if not inner.is_empty and inner.area > 0.002 else sh.area
            if not region.contains(q):
                at = nearest_points(region, q)[0]
                pts[i] = [at.x, at.y]

    for _ in range(80):
        moved = False
        for i in range(len(pts)):
            pushes = [(j, SPOT_GAP) for j in range(len(pts)) if j != i] + [(f, SYMBOL_GAP) for f in fixed]
            for other, gap in pushes:
                ox, oy = pts[other] if isinstance(other, int) else other
                dx, dy = pts[i][0] - ox, pts[i][1] - oy
                d = math.hypot(dx, dy)
                if d >= gap or not movable[i]:
                    continue
                if d < 1e-9:            # on top of each other: part them along a fixed slant
                    dx, dy, d = (0.6, 0.8, 1.0) if i > (other if isinstance(other, int) else -1) else (-0.6, -0.8, 1.0)
                both = isinstance(other, int) and movable[other]
                step = (gap - d) * (0.5 if both else 1.0) + 1e-3
                pts[i][0] += dx / d * step
                pts[i][1] += dy / d * step
                settle(i)
                moved = True
        if not moved:
            break
    return [replace(sh, anchor=(round(p[0], 4), round(p[1], 4))) for sh, p in zip(shapes, pts)]


def check_fields(tile: TileType) -> list[str]:
    """Disagreements between the drawn fields and the tile data (empty when they agree)."""
    shape = tile_shape(tile)
    problems = []
    for i, s in enumerate(tile.segments):
        if s.kind != K_FIELD:
            continue
        area = shape.segments[i].area
        if area is None:
            problems.append(f"{tile.id} {s.key}: no drawn region")
            continue
        touched = {h for h in range(8) if area.distance(Point(HALF_POINT[h])) < 0.006}
        if touched != set(s.halves):
            problems.append(f"{tile.id} {s.key}: drawn touching halves {sorted(touched)}, data {sorted(s.halves)}")
        if area.geom_type != "Polygon":
            problems.append(f"{tile.id} {s.key}: drawn in {len(area.geoms)} pieces")
        borders = {j for j, c in enumerate(tile.segments)
                   if c.kind == K_CITY and area.distance(shape.segments[j].area) < 0.01
                   and area.buffer(0.02).intersection(shape.segments[j].area).area > 1e-4}
        if borders != set(s.cities):
            problems.append(f"{tile.id} {s.key}: drawn bordering {sorted(borders)}, data {sorted(s.cities)}")
    return problems


def rotate_point(p: XY, rot: int) -> XY:
    """A point of the reference tile, after turning the tile clockwise `rot` times."""
    x, y = p
    for _ in range(rot % 4):
        x, y = 1 - y, x
    return (x, y)


def unrotate_point(p: XY, rot: int) -> XY:
    return rotate_point(p, -rot % 4)


def segment_at(tile: TileType, rot: int, p: XY, road_reach: float = 0.07) -> int | None:
    """The segment under point `p` (tile units, after rotation): cloister first, then
    roads (within `road_reach` of their line), cities and fields."""
    q = Point(unrotate_point(p, rot))
    shape = tile_shape(tile)
    segs = tile.segments
    best = None
    for kind in (K_CLOISTER, K_ROAD, K_CITY, K_FIELD):
        for i, s in enumerate(segs):
            if s.kind != kind:
                continue
            sh = shape.segments[i]
            if kind == K_ROAD:
                dist = sh.line.distance(q)
                if dist <= road_reach and (best is None or dist < best[0]):
                    best = (dist, i)
            elif sh.area is not None and sh.area.buffer(0.003).contains(q):
                return i
        if best is not None:
            return best[1]
    return None

