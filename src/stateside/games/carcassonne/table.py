"""The Carcassonne table on a QGraphicsScene: placed tiles, followers, the squares
where the tile in hand fits, a preview under the pointer, the tile being placed with
its follower spots, and flashes for scoring.

`TableLayer` draws under any parent QGraphicsItem with a given square size and
origin, so the same table can lie on our own open-table view (`TableView`) or on
another scene (for instance a layer of the shared map, aligned with its grid).
"""
from __future__ import annotations

import shiboken6
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QGraphicsScene, QGraphicsView

from .shapes import rotate_point, segment_at, tile_shape
from .table_items import FollowerItem, TileItem, segment_outline
from .tiles import K_FIELD, TileType

SQUARE = 100.0
TARGET = QColor("#ffb300")        # the tile fits here turned as it is
TARGET_OTHER = QColor("#ffe7a3")  # it fits here turned another way
BAD = QColor("#d62828")
MIN_SPOT_PX = 20                  # follower spots stay this big on screen when the table is zoomed out


class TableLayer:
    """Everything drawn for one table, as children of `root`."""

    def __init__(self, root: QGraphicsItem, square: float = SQUARE, origin: QPointF = QPointF(0, 0)):  # noqa: B008  (copied below)
        self.root = root
        self.square = square
        self.origin = QPointF(origin)
        self.px_per_unit = 1.0        # screen pixels per scene unit, set by whoever shows the layer
        self.tiles: dict[tuple[int, int], TileItem] = {}
        self.followers: list[FollowerItem] = []
        self.targets: list[QGraphicsRectItem] = []
        self.flashes: list[QGraphicsItem] = []
        self.preview = TileItem(None, 0, square, root)
        self.preview.setOpacity(0.75)
        self.preview.setZValue(30)
        self.preview.hide()
        self.preview_frame = QGraphicsRectItem(0, 0, square, square, root)
        self.preview_frame.setZValue(31)
        self.preview_frame.setBrush(Qt.NoBrush)
        self.preview_frame.hide()
        self.pending = TileItem(None, 0, square, root)
        self.pending.setZValue(20)
        self.pending.hide()
        self.pending_frame = QGraphicsRectItem(0, 0, square, square, root)
        self.pending_frame.setPen(QPen(TARGET, 5))
        self.pending_frame.setZValue(21)
        self.pending_frame.hide()
        self.spots: list[FollowerItem] = []
        self.reach: list[QGraphicsRectItem] = []
        self._hover_path = None
        self.last_frames: dict[int, QGraphicsRectItem] = {}   # seat -> frame round its last tile
        self.highlight = QGraphicsRectItem(0, 0, square, square, root)   # a move pointed at in the log
        self.highlight.setZValue(48)
        self.highlight.setAcceptedMouseButtons(Qt.NoButton)
        self.highlight.hide()

    # ---------------------------------------------------------------- geometry
    def square_rect(self, x: int, y: int) -> QRectF:
        return QRectF(self.origin.x() + x * self.square, self.origin.y() + y * self.square, self.square, self.square)

    def square_at(self, point: QPointF) -> tuple[int, int]:
        x = (point.x() - self.origin.x()) / self.square
        y = (point.y() - self.origin.y()) / self.square
        return int(x // 1), int(y // 1)

    def local_point(self, point: QPointF) -> tuple[float, float]:
        """Where `point` lies inside its square, in tile units (0..1)."""
        x = (point.x() - self.origin.x()) / self.square
        y = (point.y() - self.origin.y()) / self.square
        return x - (x // 1), y - (y // 1)

    def anchor_point(self, tile: TileType, rot: int, pos: tuple[int, int], seg: int) -> QPointF:
        ax, ay = rotate_point(tile_shape(tile).segments[seg].anchor, rot)
        r = self.square_rect(*pos)
        return QPointF(r.x() + ax * r.width(), r.y() + ay * r.height())

    # ---------------------------------------------------------------- the game
    def clear(self) -> None:
        for item in list(self.tiles.values()) + self.followers + self.targets + self.flashes + self.spots + self.reach:
            item.scene() and item.scene().removeItem(item)
        self.reach.clear()
        self.show_last({})
        self.show_highlight(None)
        self.tiles.clear()
        self.followers.clear()
        self.targets.clear()
        self.flashes.clear()
        self.spots.clear()
        self.hide_preview()
        self.hide_pending()

    def sync_tiles(self, placed) -> None:
        """Show exactly the placed tiles (a list of engine Placed objects)."""
        want = {p.pos: p for p in placed}
        for pos in list(self.tiles):
            if pos not in want:
                item = self.tiles.pop(pos)
                item.scene() and item.scene().removeItem(item)
        for pos, p in want.items():
            item = self.tiles.get(pos)
            if item is None or item.tile is not p.tile or item.rot != p.rot:
                if item is not None:
                    item.scene() and item.scene().removeItem(item)
                item = TileItem(p.tile, p.rot, self.square, self.root)
                item.setPos(self.square_rect(*pos).topLeft())
                item.setZValue(10)
                self.tiles[pos] = item

    def sync_followers(self, standing: list[tuple[int, tuple[int, int], TileType, int, int]]) -> None:
        """Followers as (seat, square, tile, rot, segment)."""
        for item in self.followers:
            item.scene() and item.scene().removeItem(item)
        self.followers = []
        for seat, pos, tile, rot, seg in standing:
            item = FollowerItem(seat, self.square * 0.3, lying=tile.segments[seg].kind == K_FIELD, parent=self.root)
            item.setPos(self.anchor_point(tile, rot, pos, seg))
            item.setZValue(40)
            item.setToolTip(f"Follower of seat {seat + 1} on a {tile.segments[seg].kind}")
            self.followers.append(item)

    def show_targets(self, now: set, other: set) -> None:
        for item in self.targets:
            item.scene() and item.scene().removeItem(item)
        self.targets = []
        for squares, colour, width in ((other, TARGET_OTHER, 2.0), (now, TARGET, 3.5)):
            for pos in squares:
                r = self.square_rect(*pos).adjusted(4, 4, -4, -4)
                item = QGraphicsRectItem(r, self.root)
                fill = QColor("#fff1b8" if squares is now else "#ffffff")
                fill.setAlpha(110 if squares is now else 30)
                item.setBrush(fill)
                pen = QPen(colour, width, Qt.DashLine if squares is other else Qt.SolidLine)
                item.setPen(pen)
                item.setZValue(5)
                self.targets.append(item)

    def show_preview(self, tile: TileType | None, rot: int, pos: tuple[int, int] | None, fits: bool) -> None:
        if tile is None or pos is None:
            self.hide_preview()
            return
        self.preview.set_tile(tile, rot)
        self.preview.setPos(self.square_rect(*pos).topLeft())
        self.preview.setOpacity(0.8 if fits else 0.45)
        self.preview.show()
        self.preview_frame.setRect(self.square_rect(*pos))
        self.preview_frame.setPen(QPen(TARGET if fits else BAD, 4, Qt.SolidLine if fits else Qt.DashLine))
        self.preview_frame.show()

    def hide_preview(self) -> None:
        self.preview.hide()
        self.preview_frame.hide()

    def show_pending(self, tile: TileType, rot: int, pos: tuple[int, int], seat: int,
                     options: list[int], chosen: int | None) -> None:
        """The tile just placed (not yet confirmed), with ghost followers on the free features."""
        self.pending.set_tile(tile, rot)
        self.pending.setPos(self.square_rect(*pos).topLeft())
        self.pending.show()
        self.pending_frame.setRect(self.square_rect(*pos))
        self.pending_frame.show()
        for item in self.spots:
            item.scene() and item.scene().removeItem(item)
        self.spots = []
        least = MIN_SPOT_PX / max(self.px_per_unit, 1e-6)
        for seg in options:
            lying = tile.segments[seg].kind == K_FIELD
            size = max(self.square * (0.3 if seg == chosen else 0.22), least * (1.3 if seg == chosen else 1.0))
            item = FollowerItem(seat, size, lying=lying, ghost=seg != chosen, parent=self.root)
            item.setPos(self.anchor_point(tile, rot, pos, seg))
            item.setZValue(45)
            item.setAcceptedMouseButtons(Qt.NoButton)
            self.spots.append(item)
        # Zoomed out, the least on-screen size made neighbouring spots overlap: shrink them
        # all until every pair keeps clear of each other.
        fit = 1.0
        for i, a in enumerate(self.spots):
            for b in self.spots[i + 1:]:
                d = QLineF(a.pos(), b.pos()).length()
                fit = min(fit, 0.97 * d / (a.radius() + b.radius()))
        if fit < 1.0:
            for item in self.spots:
                item.prepareGeometryChange()
                item.size *= fit

    def hide_pending(self) -> None:
        self.pending.hide()
        self.pending_frame.hide()
        for item in self.spots:
            item.scene() and item.scene().removeItem(item)
        self.spots = []
        self.show_segment(None, 0, None, None)
        self.show_reach(())

    def show_reach(self, squares, colour: QColor = TARGET) -> None:
        """Outline the squares a feature covers: what a follower spot would claim."""
        for item in self.reach:
            item.scene() and item.scene().removeItem(item)
        self.reach = []
        for pos in squares:
            item = QGraphicsRectItem(self.square_rect(*pos).adjusted(3, 3, -3, -3), self.root)
            item.setPen(QPen(colour, 3, Qt.DashLine))
            fill = QColor(colour)
            fill.setAlpha(45)
            item.setBrush(fill)
            item.setZValue(33)
            item.setAcceptedMouseButtons(Qt.NoButton)
            self.reach.append(item)

    def show_last(self, frames: dict[int, tuple[tuple[int, int], QColor]]) -> None:
        """Frame each player's last tile in that player's colour (seat -> (square, colour)),
        with a dark edge so that even yellow never reads as the gold of a legal square."""
        for seat in list(self.last_frames):
            if seat not in frames:
                item = self.last_frames.pop(seat)
                item.scene() and item.scene().removeItem(item)
        for seat, (pos, colour) in frames.items():
            item = self.last_frames.get(seat)
            if item is None:
                item = LastFrame(self.square, self.root)
                self.last_frames[seat] = item
            item.set_frame(self.square_rect(*pos).adjusted(1.5, 1.5, -1.5, -1.5), QColor(colour), seat)

    def show_highlight(self, pos: tuple[int, int] | None, colour: QColor | None = None) -> None:
        """A thick frame with a pale wash round one square: the move a log line points at."""
        if pos is None:
            self.highlight.hide()
            return
        self.highlight.setRect(self.square_rect(*pos).adjusted(-4, -4, 4, 4))
        self.highlight.setPen(QPen(colour or TARGET, 8))
        fill = QColor(colour or TARGET)
        fill.setAlpha(60)
        self.highlight.setBrush(fill)
        self.highlight.show()

    def show_segment(self, tile: TileType | None, rot: int, pos, seg: int | None, colour: QColor = TARGET) -> None:
        """Outline one feature of a tile (the one under the pointer)."""
        if self._hover_path is not None:
            self._hover_path.scene() and self._hover_path.scene().removeItem(self._hover_path)
            self._hover_path = None
        if tile is None or seg is None:
            return
        self._hover_path = segment_outline(tile, rot, seg, self.square_rect(*pos), colour, self.root)
        self._hover_path.setZValue(35)

    def segment_under(self, tile: TileType, rot: int, pos: tuple[int, int], point: QPointF,
                      options: list[int]) -> int | None:
        """The free feature of the pending tile under `point`: near a follower spot first,
        then the feature's own area."""
        best = None
        reach = max(self.square * 0.12, 0.5 * MIN_SPOT_PX / max(self.px_per_unit, 1e-6))
        for seg in options:
            a = self.anchor_point(tile, rot, pos, seg)
            d = (a.x() - point.x()) ** 2 + (a.y() - point.y()) ** 2
            if d <= reach ** 2 and (best is None or d < best[0]):
                best = (d, seg)
        if best is not None:
            return best[1]
        if self.square_at(point) != tuple(pos):
            return None
        seg = segment_at(tile, rot, self.local_point(point))
        return seg if seg in options else None

    def flash(self, squares, colour: QColor, ms: int = 1600) -> None:
        """Briefly outline the squares of a scored feature."""
        items = []
        for pos in squares:
            item = QGraphicsRectItem(self.square_rect(*pos).adjusted(2, 2, -2, -2), self.root)
            item.setPen(QPen(colour, 6))
            fill = QColor(colour)
            fill.setAlpha(50)
            item.setBrush(fill)
            item.setZValue(50)
            items.append(item)
        self.flashes.extend(items)

        def done():
            for it in items:
                if it in self.flashes:
                    self.flashes.remove(it)
                    if shiboken6.isValid(it) and it.scene():   # the table may be gone by now
                        it.scene().removeItem(it)
        QTimer.singleShot(ms, done)

    def bounds(self, extra=()) -> QRectF:
        rect = QRectF()
        for pos in list(self.tiles) + list(extra):
            rect = rect.united(self.square_rect(*pos))
        return rect


class LastFrame(QGraphicsRectItem):
    """A player's last tile: a frame in the seat's colour inside a dark edge, and the seat
    number in a corner tag (colour is never the only sign)."""

    def __init__(self, square: float, parent: QGraphicsItem):
        super().__init__(0, 0, square, square, parent)
        self.seat = 0
        self.setBrush(Qt.NoBrush)
        self.setZValue(15)
        self.setAcceptedMouseButtons(Qt.NoButton)

    def set_frame(self, rect: QRectF, colour: QColor, seat: int) -> None:
        self.seat = seat
        self.setRect(rect)
        self.setPen(QPen(colour, 4))
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        r = self.rect()
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setBrush(Qt.NoBrush)
        painter.setPen(QPen(QColor("#1d1d1d"), 1.5))
        painter.drawRect(r.adjusted(-2.5, -2.5, 2.5, 2.5))
        painter.setPen(self.pen())
        painter.drawRect(r)
        tag = QRectF(r.right() - 20, r.top(), 20, 18)
        painter.fillRect(tag, self.pen().color())
        painter.setPen(QColor("#1d1d1d" if self.pen().color().lightness() > 140 else "#ffffff"))
        painter.drawText(tag, Qt.AlignCenter, str(self.seat + 1))


class TableScene(QGraphicsScene):
    """A scene holding one TableLayer on a felt-green table cloth."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setBackgroundBrush(QColor("#2f4f3a"))
        self.root = QGraphicsRectItem()
        self.root.setPen(Qt.NoPen)
        self.root.setFlag(QGraphicsItem.ItemHasNoContents)
        self.addItem(self.root)
        self.layer = TableLayer(self.root)


class TableView(QGraphicsView):
    """Our open-table view: pan by dragging, zoom with the wheel or +/-, and report
    hovers and clicks."""
    squareHovered = Signal(int, int, QPointF)   # square and scene point; (-9999, -9999) when left
    squareClicked = Signal(int, int, QPointF)

    def __init__(self, scene: TableScene, parent=None):
        super().__init__(scene, parent)
        self.table = scene.layer
        self.setRenderHints(QPainter.Antialiasing | QPainter.SmoothPixmapTransform)
        self.setMouseTracking(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.setFocusPolicy(Qt.StrongFocus)
        self.setMinimumSize(360, 300)
        self._press = None
        self._dragging = False
        self._auto_fit = True      # keep fitting the table until the person zooms or pans
        self._extra = ()

    def zoom_by(self, factor: float) -> None:
        self._auto_fit = False
        current = self.transform().m11()
        target = max(0.15, min(2.5, current * factor))
        self.scale(target / current, target / current)

    def show_all(self, extra=(), max_px: float = 120.0) -> None:
        """Fit the table (and `extra` squares) in the view, with tiles no larger than `max_px`."""
        self._auto_fit = True
        self._extra = tuple(extra)
        rect = self.table.bounds(extra)
        if rect.isNull():
            return
        margin = self.table.square * 0.6
        rect = rect.adjusted(-margin, -margin, margin, margin)
        self.setSceneRect(rect.adjusted(-20 * self.table.square, -20 * self.table.square,
                                        20 * self.table.square, 20 * self.table.square))
        self.fitInView(rect, Qt.KeepAspectRatio)
        scale = self.transform().m11()
        cap = max_px / self.table.square
        if scale > cap:
            self.resetTransform()
            self.scale(cap, cap)
        self.centerOn(rect.center())

    def ensure_shown(self, extra=()) -> None:
        """Refit when the table was being fitted, or part of it has gone out of sight."""
        if self._auto_fit:
            self.show_all(extra)
            return
        rect = self.table.bounds(extra)
        visible = self.mapToScene(self.viewport().rect()).boundingRect()
        if not visible.contains(rect):
            self.show_all(extra)

    # ---------------------------------------------------------------- events
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._auto_fit:
            self.show_all(self._extra)

    def mousePressEvent(self, event) -> None:
        if event.button() in (Qt.LeftButton, Qt.RightButton, Qt.MiddleButton):
            self._press = (event.position(), event.button())
            self._dragging = False
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._press is not None:
            start, _ = self._press
            delta = event.position() - start
            if self._dragging or abs(delta.x()) + abs(delta.y()) > 6:
                self._dragging = True
                self._auto_fit = False
                self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
                self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
                self._press = (event.position(), self._press[1])
                self.viewport().setCursor(Qt.ClosedHandCursor)
                return
        point = self.mapToScene(event.position().toPoint())
        x, y = self.table.square_at(point)
        self.squareHovered.emit(x, y, point)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        press, self._press = self._press, None
        if self._dragging:
            self._dragging = False
            self.viewport().setCursor(Qt.ArrowCursor)
            return
        if press is not None and press[1] == Qt.LeftButton and event.button() == Qt.LeftButton:
            point = self.mapToScene(event.position().toPoint())
            x, y = self.table.square_at(point)
            self.squareClicked.emit(x, y, point)
        super().mouseReleaseEvent(event)

    def leaveEvent(self, event) -> None:
        self.squareHovered.emit(-9999, -9999, QPointF())
        super().leaveEvent(event)

    def wheelEvent(self, event) -> None:
        # The wheel zooms, as on every other board of the app; R and the buttons turn the tile.
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom_by(1.15 ** steps)
        event.accept()

