"""Graphics items of the board: states, callout tabs, tokens and paths.

Scene coordinates are the atlas's board units (the lower 48 about 1000 units wide,
y downwards). Items know nothing of any game.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

# Only what the map's first paint needs: PySide6 sets up each class on first use (with
# its enums, up to a millisecond), and the board builds the states from its shape cache,
# which holds the label paths already laid out in the label font.
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem

# The states and tabs paint without Qt's enums (see qt_lazy); tokens and paths come later.
from stateside.board.plain import literal
from stateside.board.qt_lazy import Qt, pen, solid

if TYPE_CHECKING:
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

# The board's palette: a printed-map look, calm enough for game pieces to stand out.
SEA = QColor("#d6e6ee")
INSET_FRAME = QColor("#9fb7c4")
STATE_OUTLINE = QColor("#ffffff")
LABEL = QColor("#27323a")
HOVER_OUTLINE = QColor("#1d3557")
# Five soft colours; neighbouring states get different ones (greedy colouring of the borders).
STATE_COLOURS = [QColor(c) for c in ("#e9d8a6", "#cfe1b9", "#f4c7a1", "#c9d7ea", "#e5c1cd")]

# The states' labels. Made here, when the module is imported, as always: the app imports
# it before it makes its QApplication, and a QFont made before that is sized at another
# resolution (made after it, the labels' letters come out a little different).
LABEL_FAMILY, LABEL_POINTS, LABEL_BOLD = "DejaVu Sans", 8.5, True   # (the board's shape cache key)
LABEL_FONT = QFont(LABEL_FAMILY, 9)
LABEL_FONT.setBold(LABEL_BOLD)
LABEL_FONT.setPointSizeF(LABEL_POINTS)
TAB_FONT = LABEL_FONT   # the tabs' codes are the labels' paths (code_path)
LABEL_BRUSH = solid(LABEL)
DIMMED_LABEL_BRUSH = solid(QColor("#8a8f94"))
STATE_HAIRLINE = pen(STATE_OUTLINE, 0)
LEADER = QColor("#51606b")
LEADER_BRUSH = solid(LEADER)
TAB_OUTLINE = pen(QColor("#7b8b96"), 1.0)


def text_path(font: QFont, text: str, centre: QPointF) -> QPainterPath:
    """`text` as a path, centred on `centre` as drawText(rect, Qt.AlignCenter) centres
    it (painted with fillPath: see qt_lazy)."""
    from PySide6.QtGui import QFontMetricsF

    metrics = QFontMetricsF(font)
    path = QPainterPath()
    path.addText(QPointF(centre.x() - metrics.horizontalAdvance(text) / 2,
                         centre.y() + (metrics.ascent() - metrics.descent()) / 2), font, text)
    return path


_code_paths: dict[str, QPainterPath] = {}


def code_path(code: str) -> QPainterPath:
    """A state's code in the label font (the tabs' too), centred on (0, 0). Laying the
    codes out loads the bold font and shapes 50 texts, about 9 ms of start-up: the board's
    shape cache keeps these paths and hands them back (known_code_paths)."""
    path = _code_paths.get(code)
    if path is None:
        path = _code_paths[code] = text_path(LABEL_FONT, code, QPointF(0, 0))
    return path


def known_code_paths(paths: dict[str, QPainterPath]) -> None:
    _code_paths.update(paths)


def polygons_path(polygons) -> QPainterPath:
    """A QPainterPath of polygons given as rings of (x, y); holes cut out by the odd-even
    rule (a QPainterPath's own)."""
    from PySide6.QtGui import QPolygonF

    path = QPainterPath()
    for polygon in polygons:
        for ring in polygon:
            path.addPolygon(QPolygonF([QPointF(x, y) for x, y in ring]))
            path.closeSubpath()
    return path


class StateItem(QGraphicsPathItem):
    """One state: its shape filled and outlined, with a postal-code label."""

    def __init__(self, code: str, name: str, polygons, label_at: tuple[float, float], base: QColor,
                 show_label: bool = True, hit_extra: QPainterPath | None = None):
        # a ready path too (the board's shape cache): building one from the rings costs more
        super().__init__(polygons if isinstance(polygons, QPainterPath) else polygons_path(polygons))
        self.code = code
        self.name = name
        self.base_colour = base
        self.fill: QColor | None = None
        self.highlight: QColor | None = None
        self.dimmed = False
        self.hovered = False
        self.label_at = QPointF(*label_at)
        self.show_label = show_label
        self.label_path = code_path(code).translated(self.label_at) if show_label else None
        self.extra_tip = ""
        self._hit = self.path()
        if hit_extra is not None:   # a bigger click target (e.g. the sea around Hawaii's islands)
            self._hit = self._hit.united(hit_extra)
        self.setAcceptHoverEvents(True)
        self.setZValue(1)
        # Its rendering is cached once the map has first painted (BoardView does it): the
        # first frame drew 50 pixmaps to fill them, 6 ms of start-up the later frames win back.
        self.update_tooltip()

    def shape(self) -> QPainterPath:
        return self._hit

    def boundingRect(self) -> QRectF:
        return super().boundingRect().united(self._hit.boundingRect())

    def update_tooltip(self) -> None:
        # A game's note may name its players: the tooltip is plain text, whatever it looks like.
        self.setToolTip(literal(self.name + (f"\n{self.extra_tip}" if self.extra_tip else "")))

    def current_fill(self) -> QColor:
        colour = self.fill or self.base_colour   # read only: QColor(colour) would set up Qt (qt_lazy)
        if self.dimmed:
            colour = QColor.fromHsvF(colour.hsvHueF(), colour.hsvSaturationF() * 0.25,
                                     min(1.0, colour.valueF() * 0.85 + 0.15))
        if self.hovered:
            colour = colour.lighter(112)
        return colour

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        path = self.path()
        painter.fillPath(path, solid(self.current_fill()))
        if self.highlight is not None:
            painter.strokePath(path, pen(self.highlight, 3.2))
        elif self.hovered:
            painter.strokePath(path, pen(HOVER_OUTLINE, 2.0))
        else:
            # A hairline (width 0: one device pixel) is drawn by Qt's fast line path; a wider
            # antialiased pen costs ten times more to paint, and the first paint is start-up.
            painter.strokePath(path, STATE_HAIRLINE)
        if self.label_path is not None:
            painter.fillPath(self.label_path, self.label_brush())

    def label_brush(self) -> QBrush:
        """What its label (on the map or on its tab) is filled with."""
        return DIMMED_LABEL_BRUSH if self.dimmed else LABEL_BRUSH

    def hoverEnterEvent(self, event) -> None:
        self.set_hovered(True)

    def hoverLeaveEvent(self, event) -> None:
        self.set_hovered(False)

    def set_hovered(self, hovered: bool) -> None:
        self.hovered = hovered
        self.update()
        for view in self.scene().views():   # tell the BoardView (it emits stateHovered)
            if hasattr(view, "_hover_changed"):
                view._hover_changed(self.code if hovered else "")


class CalloutTab(QGraphicsItem):
    """A labelled tab in the sea standing for a small state, with a leader line to it,
    as printed boards do: clicking the tab is clicking the state."""

    def __init__(self, state: StateItem, rect: QRectF):
        super().__init__()
        self.state = state
        self.base_rect = QRectF(rect)
        self.scale_factor = 1.0
        self.rect = rect
        self.setAcceptHoverEvents(True)
        self.setZValue(3)
        self.setToolTip(state.toolTip())
        # The leader runs from the tab's nearer side to the state's label point.
        self.leader_from = QPointF(rect.left(), rect.center().y())
        self.label_path = code_path(state.code).translated(rect.center())   # the box scales about its centre

    def set_scale(self, factor: float) -> bool:
        """Resize the tab about its centre to `factor` of its base size; True if it changed."""
        if abs(factor - self.scale_factor) < 1e-9:
            return False
        self.prepareGeometryChange()
        self.scale_factor = factor
        b = self.base_rect
        self.rect = QRectF(0, 0, b.width() * factor, b.height() * factor)
        self.rect.moveCenter(b.center())
        self.leader_from = QPointF(self.rect.left(), self.rect.center().y())
        return True

    def boundingRect(self) -> QRectF:
        return self.rect.united(QRectF(self.state.label_at, self.leader_from).normalized()).adjusted(-3, -3, 3, 3)

    def shape(self) -> QPainterPath:
        p = QPainterPath()
        p.addRoundedRect(self.rect, 4, 4)
        return p

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        st = self.state
        k = self.scale_factor
        leader = pen(LEADER, 0.8 * k)
        line = QPainterPath(self.leader_from)
        line.lineTo(st.label_at)
        painter.strokePath(line, leader)
        dot = QPainterPath()
        dot.addEllipse(st.label_at, 1.6 * k, 1.6 * k)
        painter.fillPath(dot, LEADER_BRUSH)
        painter.strokePath(dot, leader)
        if k != 1.0:   # the box, its outline and its letters shrink together
            painter.save()
            c = self.rect.center()
            painter.translate(c)
            painter.scale(k, k)
            painter.translate(-c)
        rect = QRectF(self.base_rect)
        rect.moveCenter(self.rect.center())
        if st.highlight is not None:
            outline = pen(st.highlight, 3.0)
        elif st.hovered:
            outline = pen(HOVER_OUTLINE, 2.0)
        else:
            outline = TAB_OUTLINE
        box = QPainterPath()
        box.addRoundedRect(rect, 4, 4)
        painter.fillPath(box, solid(st.current_fill()))
        painter.strokePath(box, outline)
        painter.fillPath(self.label_path, st.label_brush())
        if k != 1.0:
            painter.restore()

    def hoverEnterEvent(self, event) -> None:
        self.state.set_hovered(True)
        self.update()

    def hoverLeaveEvent(self, event) -> None:
        self.state.set_hovered(False)
        self.update()


TOKEN_SIZE = 15.0


class TokenItem(QGraphicsItem):
    """A game piece on a state: disk, square, marker (pin), truck or star."""

    def __init__(self, key, code: str, colour: QColor, shape: str, label: str, tooltip: str,
                 size: float = TOKEN_SIZE):
        super().__init__()
        self.key = key
        self.code = code
        self.size = float(size)
        self.colour = QColor(colour)
        self.kind = shape
        self.label = label
        self.setZValue(10)
        if tooltip:
            self.setToolTip(literal(tooltip))   # plain text: it may name a player

    def boundingRect(self) -> QRectF:
        s = self.size
        return QRectF(-s / 2 - 2, -s / 2 - 2, s + 4, s + 4)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        from PySide6.QtGui import QPolygonF

        painter.setRenderHint(QPainter.Antialiasing)
        s = self.size
        painter.setPen(QPen(QColor("#1b1b1b"), 1.0))
        painter.setBrush(self.colour)
        r = QRectF(-s / 2, -s / 2, s, s)
        if self.kind == "square":
            painter.drawRoundedRect(r.adjusted(1, 1, -1, -1), 2, 2)
        elif self.kind == "marker":  # a pin: circle head on a point
            path = QPainterPath()
            path.moveTo(0, s / 2)
            path.arcTo(QRectF(-s / 2.6, -s / 2, s / 1.3, s / 1.3), 225, 270)
            path.closeSubpath()
            painter.drawPath(path)
        elif self.kind == "truck":
            painter.drawRoundedRect(QRectF(-s / 2, -s / 3.2, s * 0.62, s / 1.8), 1.5, 1.5)
            painter.drawRoundedRect(QRectF(s * 0.14, -s / 6, s * 0.36, s / 2.6), 1.5, 1.5)
            painter.setBrush(QColor("#1b1b1b"))
            for x in (-s / 3.2, s / 3.2):
                painter.drawEllipse(QPointF(x, s / 4), s / 9, s / 9)
        elif self.kind == "star":
            pts = []
            for i in range(10):
                rad = s / 2 if i % 2 == 0 else s / 4.5
                a = -math.pi / 2 + i * math.pi / 5
                pts.append(QPointF(rad * math.cos(a), rad * math.sin(a)))
            painter.drawPolygon(QPolygonF(pts))
        else:
            painter.drawEllipse(r.adjusted(0.5, 0.5, -0.5, -0.5))
        if self.label:
            f = QFont(LABEL_FONT)
            f.setPointSizeF(6.5 * max(1.0, s / TOKEN_SIZE * 0.85))
            painter.setFont(f)
            # White on dark pieces, near-black on light ones, so the letter always reads.
            painter.setPen(QColor("#ffffff") if self.colour.lightnessF() < 0.55 else QColor("#1b1b1b"))
            painter.drawText(r, Qt.AlignCenter, self.label[:2])


class PathItem(QGraphicsPathItem):
    """A route between two states: a line, a dashed line or an arc (flights)."""

    def __init__(self, key, start: QPointF, end: QPointF, style: str, colour: QColor, width: float,
                 tooltip: str):
        super().__init__()
        self.key = key
        path = QPainterPath(start)
        if style == "arc":
            mid = (start + end) / 2
            d = end - start
            length = math.hypot(d.x(), d.y()) or 1.0
            normal = QPointF(d.y() / length, -d.x() / length)   # bulge to the left of travel
            bulge = min(0.28 * length, 120.0)
            path.quadTo(mid + normal * bulge, end)
        else:
            path.lineTo(end)
        self.setPath(path)
        pen = QPen(QColor(colour), width, Qt.DashLine if style == "dashed" else Qt.SolidLine,
                   Qt.RoundCap, Qt.RoundJoin)
        if style == "arc":
            pen.setStyle(Qt.CustomDashLine)
            pen.setDashPattern([1.0, 1.6])
        self.setPen(pen)
        self.setZValue(8)
        if tooltip:
            self.setToolTip(literal(tooltip))   # plain text: it may name a player
        from PySide6.QtGui import QPainterPathStroker

        stroker = QPainterPathStroker()
        stroker.setWidth(max(width, 8.0))   # easy to hover for its tooltip
        self._hover_shape = stroker.createStroke(path)

    def shape(self) -> QPainterPath:
        return self._hover_shape

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        super().paint(painter, option, widget)


class MarkRing(QGraphicsItem):
    """A seat's last move on the map: a ring in its colour round a state's label (or tab),
    under the pieces, so that a person sees what each player did last."""

    RADIUS = 15.0

    def __init__(self, at: QPointF, colour: QColor, tooltip: str = ""):
        super().__init__()
        self.colour = QColor(colour)
        self.setPos(at)
        self.setZValue(9)   # over the states and paths, under the tokens (10)
        if tooltip:
            self.setToolTip(literal(tooltip))

    def boundingRect(self) -> QRectF:
        r = self.RADIUS + 3
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        fill = QColor(self.colour)
        fill.setAlpha(40)
        painter.setBrush(fill)
        ring = QPen(self.colour, 2.5)
        ring.setDashPattern([3.0, 1.5])   # dashed: told apart from a highlight by shape too
        painter.setPen(ring)
        painter.drawEllipse(QPointF(0, 0), self.RADIUS, self.RADIUS)
