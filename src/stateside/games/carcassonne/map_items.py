"""The USA maps drawn on the shared BoardView (Qt): one graphics item over the states
holding the grid, start squares, towns with their chips, the outlined squares with their
face-down tiles, the tiles laid (at map scale), followers and the squares to click."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsObject

from .maps import MapBoard
from .shapes import rotate_point, tile_shape
from .tile_art import paint_follower, paint_tile
from .tiles import K_FIELD

# Outline colours, each with a letter for colour-blind players.
OUTLINE = {"violet": (QColor("#7b3fa0"), "V"), "orange": (QColor("#e07b00"), "O"),
           "light blue": (QColor("#3aa8d8"), "B")}
TILE_BACK = QColor("#8a6a43")
GRID = QColor(60, 70, 80, 70)
TARGET = QColor("#ffb300")
PEEK_SCALE = 2.0     # a looked-at tile, shown while held, is this many squares wide
LABEL_SIZE = 0.28    # town names' letters, in squares
RING = 0.22          # a town's ring (its chip), radius in squares


def town_font(board: MapBoard) -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(6, int(board.square_size * LABEL_SIZE)))
    font.setBold(True)
    return font


def label_rects(board: MapBoard, font: QFont | None = None) -> dict:
    """Where each town's name is written (board units): the first of its places (below
    the square, above it, beside the ring, ...) that overlaps no other name and no town's
    ring, by a search that goes back when a later town finds no place; each as wide as
    its name, so that none is cut."""
    s = board.square_size
    fm = QFontMetricsF(font or town_font(board))
    pad = s * 0.06
    rings = []
    for pos in board.towns:
        c = QRectF(*board.rect(pos)).center()
        rings.append(QRectF(c.x() - s * RING, c.y() - s * RING, 2 * s * RING, 2 * s * RING))

    def places(pos, name):
        r = QRectF(*board.rect(pos))
        c = r.center()
        w, h = fm.horizontalAdvance(name) * 1.08 + 2 * pad, fm.height() + pad
        below, above = r.bottom() - s * 0.04, r.top() - h + s * 0.04
        beside = c.y() - h / 2
        right, left = c.x() + s * (RING + 0.04), c.x() - s * (RING + 0.04) - w
        for x, y in ((c.x() - w / 2, below), (c.x() - w / 2, above), (right, beside), (left, beside),
                     (r.left(), below), (r.right() - w, below), (r.left(), above), (r.right() - w, above),
                     (c.x() - w / 2, c.y() + s * RING)):
            yield QRectF(x, y, w, h)

    towns = sorted(board.towns.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    options = [list(places(pos, board.label(t))) for pos, t in towns]
    chosen: list[QRectF] = []

    def free(rect) -> bool:
        return not any(rect.intersects(o) for o in chosen) and not any(rect.intersects(g) for g in rings)

    def search(i) -> bool:
        if i == len(towns):
            return True
        for rect in options[i]:
            if free(rect):
                chosen.append(rect)
                if search(i + 1):
                    return True
                chosen.pop()
        return False
    if not search(0):
        raise ValueError(f"{board.variant}: the town names find no places that do not overlap")
    return {pos: rect for (pos, _), rect in zip(towns, chosen)}


class MapLayer(QGraphicsObject):
    """Everything of a map game; `update_from(game, ...)` redraws it from the state."""
    squareClicked = Signal(int, int, QPointF)
    squareHovered = Signal(object)      # the playable square under the pointer, or None

    def __init__(self, board: MapBoard):
        super().__init__()
        self.map = board
        self.game = None
        self.targets: set = set()        # squares to click now (gold)
        self.other: set = set()          # squares where the tile fits turned another way (dashed)
        self.secret_for: int | None = None   # show this seat's looked-at tiles face up
        self.last: dict = {}             # seat -> (square, colour) of that player's last tile
        self.highlight: tuple | None = None   # (square, colour): a move pointed at in the log
        self.preview: tuple | None = None     # (square, tile, rot): the tile in hand under the pointer
        self._hovered = None
        xs = [p[0] for p in board.squares]
        ys = [p[1] for p in board.squares]
        x0, y0, s, _ = board.rect((min(xs), min(ys)))
        self._grid = QRectF(x0 - 2, y0 - 2, (max(xs) - min(xs) + 1) * s + 4, (max(ys) - min(ys) + 1) * s + 4)
        self._labels = self._place_labels()
        shown = self._grid
        for rect in self._labels.values():
            shown = shown.united(rect)
        self._shown = shown         # the squares and every town's name: what a fit shows
        # what is painted: the enlarged secret looks reach past the grid by half a square
        self._bounds = shown.adjusted(-s, -s, s, s)
        self.setAcceptedMouseButtons(Qt.LeftButton)
        self.setAcceptHoverEvents(True)

    def update_from(self, game, targets=(), other=(), secret_for=None, last=None) -> None:
        self.game, self.targets, self.other = game, set(targets), set(other)
        self.secret_for, self.last = secret_for, dict(last or {})
        self.update()

    def set_highlight(self, pos, colour: QColor | None = None) -> None:
        self.highlight = None if pos is None else (pos, QColor(colour or TARGET))
        self.update()

    def set_preview(self, preview) -> None:
        if preview != self.preview:
            self.preview = preview
            self.update()

    def hoverMoveEvent(self, event) -> None:
        self._hover_to(self.square_at(event.pos()))

    def hoverLeaveEvent(self, event) -> None:
        self._hover_to(None)

    def _hover_to(self, pos) -> None:
        if pos != self._hovered:
            self._hovered = pos
            self.squareHovered.emit(pos)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def grid_rect(self) -> QRectF:
        """The squares and the towns' names, in scene units: what a fit shows (so that no
        name at the map's edge is cut off by the window)."""
        return self.mapRectToScene(self._shown)

    def _label_font(self) -> QFont:
        return town_font(self.map)

    def _place_labels(self) -> dict:
        """Where each town's name is written: see label_rects (no two overlap)."""
        return label_rects(self.map, self._label_font())

    def label_rects(self) -> dict:
        """square -> the rectangle its town's name is written in (item units)."""
        return dict(self._labels)

    def square_rect(self, pos) -> QRectF:
        return QRectF(*self.map.rect(pos))

    def square_at(self, point: QPointF):
        s = self.map.square_size
        pos = (int((point.x() - self.map.origin[0]) // s), int((point.y() - self.map.origin[1]) // s))
        return pos if pos in self.map.squares else None

    def mousePressEvent(self, event) -> None:
        pos = self.square_at(event.pos())
        if pos is None:
            event.ignore()
            return
        self.squareClicked.emit(pos[0], pos[1], event.pos())
        event.accept()

    def paint(self, p: QPainter, option, widget=None) -> None:
        g, m = self.game, self.map
        if g is None:
            return
        p.setRenderHint(QPainter.Antialiasing)
        s = m.square_size
        grid = QPen(GRID, 0)
        p.setPen(grid)
        p.setBrush(Qt.NoBrush)
        for pos in m.squares:
            p.drawRect(self.square_rect(pos))
        # Start squares: an arrow-like corner mark under the start tile.
        for pos in m.starts:
            p.fillRect(self.square_rect(pos).adjusted(-1.5, -1.5, 1.5, 1.5), QColor("#1d3557"))
        # Tiles laid.
        for placed in g.placed:
            paint_tile(p, placed.tile, placed.rot, self.square_rect(placed.pos))
        # Face-down tiles on the outlined squares.
        font = QFont("DejaVu Sans")
        font.setPixelSize(int(s * 0.36))
        font.setBold(True)
        p.setFont(font)
        peeked = []      # the looked-at tiles, drawn large on top (below)
        for pos, t in g.covert.items():
            r = self.square_rect(pos)
            colour, letter = OUTLINE[m.outlined[pos]]
            if self.secret_for is not None and t is not None and self.secret_for in g.known.get(pos, ()):
                peeked.append((r, g.tiles[t], colour))
            p.fillRect(r.adjusted(2, 2, -2, -2), TILE_BACK)
            p.setPen(QPen(QColor("#f3e9d2"), 0))
            p.drawText(r, Qt.AlignCenter, letter)
            p.setPen(QPen(colour, s * 0.1))
            p.setBrush(Qt.NoBrush)
            p.drawRect(r.adjusted(s * 0.05, s * 0.05, -s * 0.05, -s * 0.05))
        # Outlines of the flipped squares stay visible round their tiles.
        for pos, colour in m.outlined.items():
            if pos not in g.covert:
                p.setPen(QPen(OUTLINE[colour][0], s * 0.05))
                p.drawRect(self.square_rect(pos))
        # Followers.
        for seat, pos, seg in g.followers_on_board():
            placed = g.placed[g.board[pos]]
            ax, ay = rotate_point(tile_shape(placed.tile).segments[seg].anchor, placed.rot)
            r = self.square_rect(pos)
            paint_follower(p, QPointF(r.x() + ax * s, r.y() + ay * s), s * 0.34, seat,
                           lying=placed.tile.segments[seg].kind == K_FIELD)
        # Towns: a ring, and their chip while it lies there (the names come later, on top).
        for pos in m.towns:
            c = self.square_rect(pos).center()
            p.setPen(QPen(QColor("#222"), s * 0.04))
            if pos in g.chip_towns:
                p.setBrush(QBrush(QColor("#d9d4c7")))
                p.drawEllipse(c, s * RING, s * RING)
                p.setPen(QPen(QColor("#222"), 0))
                p.setFont(font)
                p.drawText(QRectF(c.x() - s * RING, c.y() - s * RING, 2 * s * RING, 2 * s * RING), Qt.AlignCenter, "?")
            else:
                p.setBrush(Qt.NoBrush)
                p.drawEllipse(c, s * RING, s * RING)
        # Where the player may click.
        for pos in self.targets:
            p.setPen(QPen(TARGET, s * 0.09))
            p.setBrush(QColor(255, 179, 0, 60))
            p.drawRect(self.square_rect(pos).adjusted(1, 1, -1, -1))
        dashed = QPen(TARGET, s * 0.06, Qt.DashLine)
        for pos in self.other - self.targets:
            p.setPen(dashed)
            p.setBrush(Qt.NoBrush)
            p.drawRect(self.square_rect(pos).adjusted(1, 1, -1, -1))
        # Each player's last tile: the seat's colour inside a dark edge (yellow is not the gold above).
        for pos, colour in self.last.values():
            r = self.square_rect(pos)
            p.setBrush(Qt.NoBrush)
            p.setPen(QPen(QColor("#1d1d1d"), s * 0.04))
            p.drawRect(r.adjusted(-s * 0.06, -s * 0.06, s * 0.06, s * 0.06))
            p.setPen(QPen(QColor(colour), s * 0.08))
            p.drawRect(r)
        if self.preview is not None:     # the tile in hand, as it would lie there
            pos, tile, rot = self.preview
            p.setOpacity(0.8)
            paint_tile(p, tile, rot, self.square_rect(pos))
            p.setOpacity(1.0)
        # Town names over the tiles, frames and gold squares, in their own places (label_rects),
        # with a light halo: no frame cuts a letter. Only a held secret look covers them.
        p.setFont(self._label_font())
        halo, ink = QPen(QColor(255, 255, 255, 220), 0), QPen(QColor("#1d1d1d"), 0)
        for pos, town in m.towns.items():
            rect = self._labels[pos]
            p.setPen(halo)
            for dx, dy in ((-0.6, 0), (0.6, 0), (0, -0.6), (0, 0.6)):
                p.drawText(rect.translated(dx, dy), Qt.AlignCenter, m.label(town))
            p.setPen(ink)
            p.drawText(rect, Qt.AlignCenter, m.label(town))
        # The secret looks, while their owner holds the button: each twice the square's size
        # over its square (as a card held up), so that its features can be read.
        for r, tile, colour in peeked:
            big = QRectF(r.center().x() - s * PEEK_SCALE / 2, r.center().y() - s * PEEK_SCALE / 2,
                         s * PEEK_SCALE, s * PEEK_SCALE)
            p.fillRect(big.translated(s * 0.08, s * 0.08), QColor(0, 0, 0, 90))
            paint_tile(p, tile, 0, big)
            p.setPen(QPen(colour, s * 0.1))
            p.setBrush(Qt.NoBrush)
            p.drawRect(big)
        if self.highlight is not None:
            pos, colour = self.highlight
            wash = QColor(colour)
            wash.setAlpha(70)
            p.setPen(QPen(colour, s * 0.16))
            p.setBrush(wash)
            p.drawRect(self.square_rect(pos).adjusted(-s * 0.1, -s * 0.1, s * 0.1, s * 0.1))
