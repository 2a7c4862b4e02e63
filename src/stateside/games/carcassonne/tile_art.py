"""Painting Carcassonne tiles and followers with QPainter, from the shapes in
shapes.py. Our own drawing: green fields with hedges between them, pale roads,
sand-coloured cities behind a brown wall, blue pennant shields, a red-roofed
cloister, and small symbols for the expansion tiles (an inn with a pond, a
cathedral, wine grapes, a grain sheaf, a bolt of cloth).

Everything is drawn in tile units (the unit square) and placed with a transform,
so the same code paints the drawn tile in a panel, tiles on the open table, and
(later) tiles on any other QGraphicsScene.
"""
from __future__ import annotations

from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
    QTransform,
)
from shapely.geometry import LineString, Point, box

from .shapes import tile_shape
from .tiles import K_CITY, K_CLOISTER, K_FIELD, K_ROAD, TileType

FIELD = QColor("#9ccb6b")
FIELD_DARK = QColor("#6f9d46")
ROAD = QColor("#f4ecd6")
ROAD_EDGE = QColor("#8b7650")
CITY = QColor("#d8b57c")
CITY_ROOF = QColor("#b9834d")
WALL = QColor("#6e4c26")
PENNANT = QColor("#2557b8")
ROAD_WIDTH = 0.10

# Seat colours with a number on each follower, so colour is never the only cue.
SEAT_COLOURS = ("#d62828", "#1f5fd1", "#f2b705", "#2b2b2b", "#8e44ad")
SEAT_NAMES = ("red", "blue", "yellow", "black", "purple")


def _path_from(geom) -> QPainterPath:
    path = QPainterPath()
    path.setFillRule(Qt.OddEvenFill)
    for poly in getattr(geom, "geoms", [geom]):
        if poly.geom_type != "Polygon":
            continue
        for ring in [poly.exterior, *poly.interiors]:
            pts = list(ring.coords)
            path.moveTo(*pts[0])
            for p in pts[1:]:
                path.lineTo(*p)
            path.closeSubpath()
    return path


def _line_path(line: LineString) -> QPainterPath:
    pts = list(line.coords)
    path = QPainterPath(QPointF(*pts[0]))
    for p in pts[1:]:
        path.lineTo(*p)
    return path


class TilePaths:
    """QPainterPaths of one tile type, in reference orientation and tile units."""

    def __init__(self, tile: TileType):
        self.tile = tile
        shape = tile_shape(tile)
        self.shape = shape
        self.areas: dict[int, QPainterPath] = {}
        self.lines: dict[int, QPainterPath] = {}
        self.walls: dict[int, QPainterPath] = {}
        self.hit: dict[int, QPainterPath] = {}
        border = box(0, 0, 1, 1).exterior.buffer(1e-6)
        stroker = QPainterPathStroker()
        stroker.setWidth(0.15)
        stroker.setCapStyle(Qt.RoundCap)
        for i, s in enumerate(tile.segments):
            sh = shape.segments[i]
            if s.kind == K_ROAD:
                self.lines[i] = _line_path(sh.line)
                self.hit[i] = stroker.createStroke(self.lines[i])
            elif sh.area is not None:
                self.areas[i] = _path_from(sh.area)
                self.hit[i] = self.areas[i]
                if s.kind == K_CITY:
                    wall = sh.area.boundary.difference(border)
                    path = QPainterPath()
                    for ln in getattr(wall, "geoms", [wall]):
                        if ln.geom_type == "LineString" and len(ln.coords) > 1:
                            path.addPath(_line_path(ln))
                    self.walls[i] = path
        self.stubs = [_line_path(ln) for ln in shape.stubs]


@cache
def tile_paths(tile: TileType) -> TilePaths:
    return TilePaths(tile)


def tile_transform(rect: QRectF, rot: int) -> QTransform:
    """From tile units (reference orientation) to `rect`, turned clockwise `rot` times."""
    t = QTransform()
    t.translate(rect.x(), rect.y())
    t.scale(rect.width(), rect.height())
    t.translate(0.5, 0.5)
    t.rotate(90 * (rot % 4))
    t.translate(-0.5, -0.5)
    return t


def paint_tile(p: QPainter, tile: TileType, rot: int, rect: QRectF) -> None:
    """Paint `tile` turned `rot` into `rect` (a square)."""
    paths = tile_paths(tile)
    shape = paths.shape
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    p.setTransform(tile_transform(rect, rot), True)
    # Fields, with hedges between separate fields.
    p.fillRect(QRectF(0, 0, 1, 1), FIELD)
    hedge = QPen(FIELD_DARK, 0.012)
    hedge.setJoinStyle(Qt.RoundJoin)
    p.setPen(hedge)
    p.setBrush(Qt.NoBrush)
    for i, s in enumerate(tile.segments):
        if s.kind == K_FIELD and i in paths.areas:
            p.drawPath(paths.areas[i])
    # Roads: a dark edge under a pale top, so crossings merge cleanly.
    roads = [paths.lines[i] for i, s in enumerate(tile.segments) if s.kind == K_ROAD] + paths.stubs
    for colour, width in ((ROAD_EDGE, ROAD_WIDTH + 0.03), (ROAD, ROAD_WIDTH)):
        pen = QPen(colour, width, Qt.SolidLine, Qt.FlatCap, Qt.RoundJoin)
        p.setPen(pen)
        for path in roads:
            p.drawPath(path)
    for (bx, by) in shape.bridges:
        _bridge(p, tile, bx, by)
    for (dx, dy) in shape.dead_ends:
        p.setPen(QPen(QColor("#555"), 0.015))
        p.setBrush(QColor("#7aa7d9"))
        p.drawEllipse(QPointF(dx, dy), 0.06, 0.06)
    if shape.junction:
        p.setPen(QPen(ROAD_EDGE, 0.015))
        p.setBrush(QColor("#c9b38a"))
        p.drawRect(QRectF(0.42, 0.42, 0.16, 0.16))
        _house(p, 0.5, 0.5, 0.09, QColor("#b5543c"))
    # Cities.
    for i, s in enumerate(tile.segments):
        if s.kind != K_CITY:
            continue
        p.setPen(Qt.NoPen)
        p.setBrush(CITY)
        p.drawPath(paths.areas[i])
        p.setBrush(QBrush(CITY_ROOF, Qt.Dense6Pattern))
        p.drawPath(paths.areas[i])
        p.setPen(QPen(WALL, 0.035, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
        p.setBrush(Qt.NoBrush)
        p.drawPath(paths.walls[i])
        sym = shape.segments[i].symbol
        if sym is not None:
            if s.cathedral:
                _cathedral(p, *sym)
            elif s.pennant:
                _symbol(p, sym, _pennant)
            if s.good:
                _symbol(p, sym, lambda p, x, y, good=s.good: _good(p, good, x, y))
    # Cloister and inns.
    for i, s in enumerate(tile.segments):
        if s.kind == K_CLOISTER:
            _cloister(p)
        elif s.kind == K_ROAD and s.inn and shape.segments[i].symbol:
            _inn(p, *shape.segments[i].symbol)
    p.restore()


SYMBOL_SCALE = 1.3   # pennants and goods, drawn a little larger than life so they read on small tiles


def _symbol(p: QPainter, at: tuple[float, float], draw) -> None:
    p.save()
    p.translate(*at)
    p.scale(SYMBOL_SCALE, SYMBOL_SCALE)
    draw(p, 0.0, 0.0)
    p.restore()


def _pennant(p: QPainter, x: float, y: float) -> None:
    shield = QPainterPath()
    shield.moveTo(x - 0.065, y - 0.07)
    shield.lineTo(x + 0.065, y - 0.07)
    shield.lineTo(x + 0.065, y + 0.005)
    shield.quadTo(x + 0.06, y + 0.06, x, y + 0.085)
    shield.quadTo(x - 0.06, y + 0.06, x - 0.065, y + 0.005)
    shield.closeSubpath()
    p.setPen(QPen(QColor("white"), 0.018))
    p.setBrush(PENNANT)
    p.drawPath(shield)
    p.setPen(QPen(QColor("white"), 0.014))
    p.drawLine(QPointF(x, y - 0.055), QPointF(x, y + 0.06))


def _house(p: QPainter, x: float, y: float, s: float, roof: QColor) -> None:
    p.setPen(QPen(QColor("#4a3a28"), s * 0.12))
    p.setBrush(QColor("#f1e3c2"))
    p.drawRect(QRectF(x - s * 0.5, y - s * 0.1, s, s * 0.6))
    roof_poly = QPolygonF([QPointF(x - s * 0.65, y - s * 0.1), QPointF(x, y - s * 0.6),
                           QPointF(x + s * 0.65, y - s * 0.1)])
    p.setBrush(roof)
    p.drawPolygon(roof_poly)


def _cloister(p: QPainter) -> None:
    p.setPen(QPen(QColor("#4a3a28"), 0.015))
    p.setBrush(QColor("#efe2c4"))
    p.drawRect(QRectF(0.38, 0.45, 0.24, 0.17))
    roof = QPolygonF([QPointF(0.34, 0.46), QPointF(0.5, 0.33), QPointF(0.66, 0.46)])
    p.setBrush(QColor("#b8372b"))
    p.drawPolygon(roof)
    p.setPen(QPen(QColor("#4a3a28"), 0.018))
    p.drawLine(QPointF(0.5, 0.33), QPointF(0.5, 0.25))
    p.drawLine(QPointF(0.47, 0.28), QPointF(0.53, 0.28))
    p.setBrush(QColor("#5b4630"))
    p.setPen(Qt.NoPen)
    p.drawRect(QRectF(0.475, 0.53, 0.05, 0.09))


def _cathedral(p: QPainter, x: float, y: float) -> None:
    p.setPen(QPen(QColor("#3d3d3d"), 0.012))
    p.setBrush(QColor("#e8e8ee"))
    p.drawRect(QRectF(x - 0.1, y - 0.02, 0.2, 0.1))
    p.drawRect(QRectF(x - 0.035, y - 0.12, 0.07, 0.2))
    p.setBrush(QColor("#6a7fa8"))
    p.drawPolygon(QPolygonF([QPointF(x - 0.045, y - 0.12), QPointF(x, y - 0.19), QPointF(x + 0.045, y - 0.12)]))
    p.drawLine(QPointF(x, y - 0.19), QPointF(x, y - 0.23))
    p.drawLine(QPointF(x - 0.015, y - 0.215), QPointF(x + 0.015, y - 0.215))


def _inn(p: QPainter, x: float, y: float) -> None:
    p.setPen(QPen(QColor("#2f5f8a"), 0.01))
    p.setBrush(QColor("#7fb3e0"))
    p.drawEllipse(QPointF(x + 0.06, y + 0.07), 0.06, 0.035)
    _house(p, x - 0.02, y - 0.01, 0.1, QColor("#2f6db5"))


def _good(p: QPainter, good: str, x: float, y: float) -> None:
    p.save()
    p.translate(x, y)
    p.setPen(QPen(QColor(0, 0, 0, 150), 0.008))
    p.setBrush(QColor(255, 255, 255, 190))
    p.drawEllipse(QPointF(0, 0), 0.085, 0.085)
    if good == "wine":
        p.setBrush(QColor("#6d2c91"))
        for gx, gy in ((-0.03, -0.03), (0.0, -0.03), (0.03, -0.03), (-0.015, 0.0), (0.015, 0.0), (0.0, 0.03)):
            p.drawEllipse(QPointF(gx, gy), 0.018, 0.018)
        p.setPen(QPen(QColor("#3f7a2a"), 0.012))
        p.drawLine(QPointF(0.0, -0.05), QPointF(0.02, -0.07))
    elif good == "grain":
        p.setPen(QPen(QColor("#8a6a10"), 0.012))
        for dx in (-0.025, 0.0, 0.025):
            p.drawLine(QPointF(dx * 0.4, 0.06), QPointF(dx, -0.02))
            p.setBrush(QColor("#e3b62b"))
            p.drawEllipse(QPointF(dx, -0.035), 0.012, 0.03)
    else:   # cloth
        p.setBrush(QColor("#2a7ab8"))
        p.drawRect(QRectF(-0.055, -0.035, 0.11, 0.07))
        p.setPen(QPen(QColor("#f2f2f2"), 0.01))
        for dy in (-0.015, 0.0, 0.015):
            p.drawLine(QPointF(-0.05, dy), QPointF(0.05, dy))
    p.restore()


def _bridge(p: QPainter, tile: TileType, x: float, y: float) -> None:
    # Redraw the upper road across the crossing with parapets on both sides.
    shape = tile_shape(tile)
    for i, s in enumerate(tile.segments):
        if s.kind == K_ROAD and s.over is not None:
            line = shape.segments[i].line
            d = line.project(Point(x, y))
            a = line.interpolate(max(0.0, d - 0.12))
            b = line.interpolate(min(line.length, d + 0.12))
            p.setPen(QPen(QColor("#5b4b37"), ROAD_WIDTH + 0.06, Qt.SolidLine, Qt.FlatCap))
            p.drawLine(QPointF(a.x, a.y), QPointF(b.x, b.y))
            p.setPen(QPen(QColor("#e2d4b0"), ROAD_WIDTH, Qt.SolidLine, Qt.FlatCap))
            p.drawLine(QPointF(a.x, a.y), QPointF(b.x, b.y))


def follower_path(lying: bool = False) -> QPainterPath:
    """A follower's outline, about one unit tall, centred on (0, 0)."""
    path = QPainterPath()
    path.addEllipse(QPointF(0, -0.3), 0.17, 0.17)
    body = QPolygonF([QPointF(-0.12, -0.16), QPointF(0.12, -0.16), QPointF(0.45, 0.0), QPointF(0.4, 0.1),
                      QPointF(0.16, 0.04), QPointF(0.3, 0.45), QPointF(0.08, 0.45), QPointF(0.0, 0.25),
                      QPointF(-0.08, 0.45), QPointF(-0.3, 0.45), QPointF(-0.16, 0.04), QPointF(-0.4, 0.1),
                      QPointF(-0.45, 0.0)])
    path.addPolygon(body)
    path.closeSubpath()
    path = path.simplified()
    if lying:
        path = QTransform().rotate(-90).map(path)
    return path


def paint_follower(p: QPainter, centre: QPointF, size: float, seat: int, lying: bool = False,
                   ghost: bool = False) -> None:
    """A follower of `seat` (colour and seat number), `size` scene units tall; farmers lie down."""
    colour = QColor(SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    p.translate(centre)
    p.scale(size, size)
    if ghost:
        p.setOpacity(0.7)
    p.setPen(QPen(QColor("white") if seat != 2 else QColor("#333"), 0.07))
    p.setBrush(colour)
    p.drawPath(follower_path(lying))
    p.setPen(QColor("white") if seat != 2 else QColor("#222"))
    font = QFont()
    font.setPixelSize(100)
    font.setBold(True)
    p.scale(0.0032, 0.0032)
    p.setFont(font)
    p.drawText(QRectF(-60, -40, 120, 110), Qt.AlignCenter, str(seat + 1))
    p.restore()
