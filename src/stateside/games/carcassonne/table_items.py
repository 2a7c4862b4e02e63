"""Graphics items for the Carcassonne table: a tile, a follower, a feature outline."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem

from .tile_art import paint_follower, paint_tile, tile_paths, tile_transform
from .tiles import K_ROAD, TileType


class TileItem(QGraphicsItem):
    """One tile, `size` scene units square, its top-left corner at pos()."""

    def __init__(self, tile: TileType | None, rot: int, size: float, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.tile, self.rot, self.size = tile, rot % 4, size
        self.setCacheMode(QGraphicsItem.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def set_tile(self, tile: TileType, rot: int) -> None:
        if tile is not self.tile or rot % 4 != self.rot:
            self.tile, self.rot = tile, rot % 4
            self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self.size, self.size)

    def paint(self, painter, option, widget=None) -> None:
        if self.tile is None:
            return
        paint_tile(painter, self.tile, self.rot, QRectF(0, 0, self.size, self.size))
        painter.setPen(QPen(QColor(40, 40, 30, 90), 1.0))
        painter.setBrush(Qt.NoBrush)
        painter.drawRect(QRectF(0, 0, self.size, self.size))


class FollowerItem(QGraphicsItem):
    """A follower standing (or a farmer lying) with its centre at pos()."""

    def __init__(self, seat: int, size: float, lying: bool = False, ghost: bool = False,
                 parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.seat, self.size, self.lying, self.ghost = seat, size, lying, ghost
        self.setAcceptedMouseButtons(Qt.NoButton)

    def radius(self) -> float:
        """How far from its centre the drawing reaches: the halo of a free spot, else the figure."""
        return self.size * (0.58 if self.ghost else 0.47)

    def boundingRect(self) -> QRectF:
        s = self.size * 0.62
        return QRectF(-s, -s, 2 * s, 2 * s)

    def paint(self, painter, option, widget=None) -> None:
        if self.ghost:   # a free spot: a pale halo so it stands out on any ground
            painter.setPen(QPen(QColor(255, 255, 255, 220), self.size * 0.06))
            painter.setBrush(QColor(255, 255, 255, 120))
            painter.drawEllipse(QPointF(0, 0), self.size * 0.55, self.size * 0.55)
        paint_follower(painter, QPointF(0, 0), self.size, self.seat, lying=self.lying, ghost=self.ghost)


def segment_outline(tile: TileType, rot: int, seg: int, rect: QRectF, colour: QColor,
                    parent: QGraphicsItem | None) -> QGraphicsPathItem:
    """A highlight of one feature of a tile drawn in `rect`."""
    paths = tile_paths(tile)
    t = tile_transform(rect, rot)
    if tile.segments[seg].kind == K_ROAD:
        path = t.map(paths.hit[seg])
    else:
        path = t.map(paths.hit[seg]) if seg in paths.hit else QPainterPath()
    item = QGraphicsPathItem(path, parent)
    item.setPen(QPen(colour, 3.5))
    fill = QColor(colour)
    fill.setAlpha(70)
    item.setBrush(fill)
    item.setAcceptedMouseButtons(Qt.NoButton)
    return item
