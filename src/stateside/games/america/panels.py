"""America's Qt panels: the year and number bars with the six No Exact spaces, the
score track, and the pieces the mode puts on the shared map (markers, the hatching of
the other side of the Mississippi). They draw what the mode gives them and report
clicks; no rules here."""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsItem,
    QGraphicsPathItem,
    QLabel,
    QSizePolicy,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from stateside.board.items import LABEL_FONT, polygons_path
from stateside.board.plain import literal
from stateside.games.america import rules
from stateside.games.america.rules import NO_EXACT, NO_EXACT_OR_ADJACENT, NO_EXACT_SPACES

ROW_LABEL_W = 68.0
NE_W = 66.0
COMPACT_BELOW = 900          # a narrower bars widget gives the year and number spaces more room
ROW_LABEL_W_COMPACT = 58.0
NE_W_COMPACT = 56.0
NE_GAP = 8.0
ROW_H = 40.0
ROW_GAP = 5.0
MARGIN = 6.0
CELL_BG = QColor("#fdfbf6")
CELL_BG_ALT = QColor("#f1ede2")
CELL_LINE = QColor("#9c9482")
HOVER = QColor("#1d3557")
EXACT = QColor("#ffc933")
NEAR = QColor("#ffe9a8")
KEY_CURSOR = QColor("#e63946")
NE_LABELS = {NO_EXACT: "No Exact", NO_EXACT_OR_ADJACENT: "No Exact\nor Adjacent"}
NE_SHORT = {NO_EXACT: "No\nExact", NO_EXACT_OR_ADJACENT: "No Exact\nor Adj."}   # beside a marker
ROWS = ("year", "state", "number")
ROW_TITLES = {"year": "Year", "state": "State", "number": "Number"}


@dataclass(frozen=True)
class Mark:
    """A marker drawn on a bar space."""
    colour: str
    letter: str
    tooltip: str


def marker_text_colour(colour: QColor) -> QColor:
    return QColor("#1b1b1b") if colour.lightnessF() > 0.55 else QColor("#ffffff")


def paint_marker(p: QPainter, centre: QPointF, radius: float, colour: str, letter: str) -> None:
    c = QColor(colour)
    p.setPen(QPen(QColor("#1b1b1b"), 1.2))
    p.setBrush(c)
    p.drawEllipse(centre, radius, radius)
    font = QFont(p.font())
    font.setBold(True)
    font.setPointSizeF(max(6.0, radius * 0.95))
    p.setFont(font)
    p.setPen(marker_text_colour(c))
    p.drawText(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius), Qt.AlignCenter, letter)


def paint_frame(p: QPainter, rect: QRectF, colour: str) -> None:
    """A thick frame in a player's colour on a dark edge, so that White and Silver show too."""
    p.setBrush(Qt.NoBrush)
    p.setPen(QPen(QColor("#1b1b1b"), 5.0))
    p.drawRoundedRect(rect, 3, 3)
    p.setPen(QPen(QColor(colour), 3.0))
    p.drawRoundedRect(rect, 3, 3)


class BarsWidget(QWidget):
    """Three rows in scoring order: the year bar, the state row (the east/west hint and the
    map's No Exact spaces) and the number bar, each ending in its No Exact pair.
    Click a space, or Tab here and use the arrow keys and Enter."""

    spaceClicked = Signal(str, str)      # section, space

    def __init__(self, parent=None):
        super().__init__(parent)
        self.marks: dict[tuple[str, str], Mark] = {}
        self.exact: dict[str, str] = {}              # section -> exact space, at the reveal
        self.hint = ""                               # the state row's text
        self._hover: tuple[str, str] | None = None
        self._cursor: tuple[str, str] | None = None  # keyboard cursor
        self._sizes: dict[str, float] = {}
        self.flash: tuple[tuple[str, str], str] | None = None   # a space framed for a logged move
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.StrongFocus)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Fixed)
        self.setFixedHeight(int(3 * ROW_H + 2 * ROW_GAP + 2 * MARGIN))
        self.setToolTip("")

    def sizeHint(self) -> QSize:
        return QSize(900, self.height())

    # --- content --------------------------------------------------------------------
    def set_marks(self, marks: dict[tuple[str, str], Mark]) -> None:
        self.marks = dict(marks)
        self.update()

    def set_exact(self, exact: dict[str, str]) -> None:
        self.exact = dict(exact)
        self.update()

    def set_hint(self, text: str) -> None:
        self.hint = text
        self.update()

    def set_flash(self, key: tuple[str, str] | None, colour: str = "") -> None:
        """Frame one space in a player's colour (the move under the pointer in the log)."""
        self.flash = (key, colour) if key is not None else None
        self.update()

    # --- geometry ---------------------------------------------------------------------
    def compact(self) -> bool:
        return self.width() < COMPACT_BELOW

    def _label_w(self) -> float:
        return ROW_LABEL_W_COMPACT if self.compact() else ROW_LABEL_W

    def _ne_w(self) -> float:
        return NE_W_COMPACT if self.compact() else NE_W

    def _row_rect(self, row: int) -> QRectF:
        return QRectF(MARGIN, MARGIN + row * (ROW_H + ROW_GAP), self.width() - 2 * MARGIN, ROW_H)

    def _bar_area(self, row: int) -> QRectF:
        r = self._row_rect(row)
        label_w = self._label_w()
        return QRectF(r.left() + label_w, r.top(), r.width() - label_w - 2 * self._ne_w() - NE_GAP, ROW_H)

    def cells(self) -> dict[tuple[str, str], QRectF]:
        """Every clickable space and its rectangle."""
        out = {}
        for row, section in enumerate(ROWS):
            area = self._bar_area(row)
            if section != "state":
                labels = rules.bar(section).labels
                w = area.width() / len(labels)
                for i, label in enumerate(labels):
                    out[(section, label)] = QRectF(area.left() + i * w, area.top(), w, ROW_H)
            x = area.right() + NE_GAP
            ne_w = self._ne_w()
            for k, space in enumerate(NO_EXACT_SPACES):
                out[(section, space)] = QRectF(x + k * ne_w, area.top(), ne_w, ROW_H)
        return out

    def cell_at(self, pos: QPointF) -> tuple[str, str] | None:
        for key, rect in self.cells().items():
            if rect.contains(pos):
                return key
        return None

    def cell_centre(self, section: str, space: str) -> QPointF:
        return self.cells()[(section, space)].center()

    # --- painting -----------------------------------------------------------------------
    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        p.fillRect(self.rect(), QColor("#e8e2d3"))
        title_font = QFont(self.font())
        title_font.setBold(True)
        title_font.setPointSizeF(8.5 if self.compact() else 9.5)
        for row, section in enumerate(ROWS):
            r = self._row_rect(row)
            p.setFont(title_font)
            p.setPen(QColor("#1d3557"))
            p.drawText(QRectF(r.left(), r.top(), self._label_w() - 6, ROW_H), Qt.AlignVCenter | Qt.AlignLeft,
                       ROW_TITLES[section])
            if section == "state":
                area = self._bar_area(row)
                hint_font = QFont(self.font())
                hint_font.setPointSizeF(9.5)
                p.setFont(hint_font)
                p.setPen(QColor("#333333"))
                p.drawText(area.adjusted(6, 0, -6, 0), Qt.AlignVCenter | Qt.AlignLeft | Qt.TextWordWrap,
                           self.hint)
        cells = self.cells()
        self._sizes = {section: self._fitting_size(section, cells) for section in ("year", "number")}
        for (section, space), rect in cells.items():
            self._paint_cell(p, section, space, rect)
        if self.flash is not None and self.flash[0] in cells:
            paint_frame(p, cells[self.flash[0]].adjusted(1, 1, -1, -1), self.flash[1])
        if self._cursor and self.hasFocus() and self._cursor in cells:
            p.setPen(QPen(KEY_CURSOR, 2.0, Qt.DashLine))
            p.setBrush(Qt.NoBrush)
            p.drawRect(cells[self._cursor].adjusted(2, 2, -2, -2))
        p.end()

    def _fitting_size(self, section: str, cells) -> float:
        """One label size for a whole bar: the largest (up to 8.5 pt) at which every label
        fits its space, so that a narrow window shrinks the bar evenly."""
        labels = rules.bar(section).labels
        width = cells[(section, labels[0])].width() - 3
        font = self._label_font()
        size = 8.5
        while size > 6.0:
            font.setPointSizeF(size)
            metrics = QFontMetricsF(font)
            if max(metrics.horizontalAdvance(label) for label in labels) <= width:
                break
            size -= 0.25
        return size

    def _label_font(self) -> QFont:
        """The spaces' labels: a condensed face where the system has one, letters a little
        tighter, so that 27 number spaces stay readable in a small window."""
        font = QFont(self.font())
        font.setStretch(QFont.Condensed)
        font.setLetterSpacing(QFont.PercentageSpacing, 94)
        return font

    def label_size(self, section: str) -> float:
        """The point size of a bar's labels at the current width (for tests)."""
        return self._fitting_size(section, self.cells())

    def _paint_cell(self, p: QPainter, section: str, space: str, rect: QRectF) -> None:
        key = (section, space)
        exact = self.exact.get(section)
        no_exact = space in NO_EXACT_SPACES
        if exact and space == exact:
            bg = EXACT
        elif exact and not no_exact and rules.spaces_adjacent(section, space, exact):
            bg = NEAR
        elif no_exact:
            bg = QColor("#dfe7ef")
        else:
            index = rules.bar(section).labels.index(space)
            bg = CELL_BG if index % 2 == 0 else CELL_BG_ALT
        p.setPen(QPen(CELL_LINE, 0.8))
        p.setBrush(bg)
        p.drawRect(rect)
        if key == self._hover:
            p.setPen(QPen(HOVER, 2.2))
            p.setBrush(Qt.NoBrush)
            p.drawRect(rect.adjusted(1.5, 1.5, -1.5, -1.5))
        text = NE_LABELS[space] if no_exact else space
        font = QFont(self.font()) if no_exact else self._label_font()
        if no_exact and self.compact():
            font.setStretch(QFont.Condensed)
        font.setPointSizeF(7.5 if no_exact else self._sizes[section])
        p.setFont(font)
        p.setPen(QColor("#27323a"))
        mark = self.marks.get(key)
        if mark is None:
            p.drawText(rect, Qt.AlignCenter, text)
            return
        if no_exact:   # the label on the left, the marker on the right
            font.setPointSizeF(7.0)
            p.setFont(font)
            p.drawText(rect.adjusted(1, 0, -19, 0), Qt.AlignCenter, NE_SHORT[space])
            centre = QPointF(rect.right() - 11, rect.center().y())
        else:
            p.drawText(QRectF(rect.left(), rect.top() + 1, rect.width(), 15), Qt.AlignCenter, text)
            centre = QPointF(rect.center().x(), rect.top() + 27)
        paint_marker(p, centre, min(8.0, rect.width() / 2 - 2), mark.colour, mark.letter)

    # --- input --------------------------------------------------------------------------
    def mouseMoveEvent(self, event) -> None:
        key = self.cell_at(event.position())
        if key != self._hover:
            self._hover = key
            self.update()
            self.setCursor(Qt.PointingHandCursor if key else Qt.ArrowCursor)
        if key:
            QToolTip.showText(event.globalPosition().toPoint(), literal(self.tooltip_for(*key)), self)

    def leaveEvent(self, event) -> None:
        self._hover = None
        self.update()

    def mouseReleaseEvent(self, event) -> None:
        if event.button() != Qt.LeftButton:
            return
        key = self.cell_at(event.position())
        if key:
            self._cursor = key
            self.spaceClicked.emit(*key)

    def tooltip_for(self, section: str, space: str) -> str:
        if space == NO_EXACT:
            text = f"No Exact ({section}): 3 points if nobody's marker is on the exact {section} space"
        elif space == NO_EXACT_OR_ADJACENT:
            text = (f"No Exact or Adjacent ({section}): 7 points if nobody's marker is on the exact "
                    f"{section} space or next to it")
        else:
            text = f"{space}: {section}s from {rules.bar(section).span(space)}"
        mark = self.marks.get((section, space))
        return f"{text}\n{mark.tooltip}" if mark else text

    def keyPressEvent(self, event) -> None:
        keys = list(self.cells())
        if self._cursor not in keys:
            self._cursor = keys[0]
        section, space = self._cursor
        row_keys = [k for k in keys if k[0] == section]
        i = row_keys.index(self._cursor)
        key = event.key()
        if key in (Qt.Key_Left, Qt.Key_Right):
            i = max(0, min(len(row_keys) - 1, i + (1 if key == Qt.Key_Right else -1)))
            self._cursor = row_keys[i]
        elif key in (Qt.Key_Up, Qt.Key_Down):
            r = ROWS.index(section) + (1 if key == Qt.Key_Down else -1)
            if 0 <= r < len(ROWS):
                target = self.cells()[self._cursor].center().x()
                others = [k for k in keys if k[0] == ROWS[r]]
                self._cursor = min(others, key=lambda k: abs(self.cells()[k].center().x() - target))
        elif key in (Qt.Key_Return, Qt.Key_Enter, Qt.Key_Space):
            self.spaceClicked.emit(*self._cursor)
        else:
            super().keyPressEvent(event)
            return
        self.update()


@dataclass(frozen=True)
class TrackRow:
    name: str
    colour: str
    letter: str
    who: str            # "you", "computer (hard)" ...
    score: int
    in_hand: int
    waiting: int        # in the non-scoring supply
    status: str         # "to play", "passed", ... (short: it sits beside the name)
    current: bool
    showdown: str = ""  # e.g. "showdown 7"


class ScoreTrack(QWidget):
    """Each seat's score as a bar on a common track, with markers in hand (filled dots) and
    in the non-scoring supply (small squares), and where the seat is in this card's round.

    The bars are scaled to the leader (the leader's bar is full), so that they show who
    leads and by how much at any score, and each runs the whole width of the panel under
    its name, so it stays readable in the smallest window."""

    ROW, ROW_MANY = 36, 27          # a row's height; five or six players get slimmer rows
    BAR_H, BAR_H_MANY = 10.0, 7.0

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[TrackRow] = []
        self.row_h, self.bar_h = self.ROW, self.BAR_H
        self.flash: int | None = None    # a row framed for a logged move (its player)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Fixed)

    def set_rows(self, rows: list[TrackRow]) -> None:
        self.rows = list(rows)
        many = len(self.rows) > 4
        self.row_h = self.ROW_MANY if many else self.ROW
        self.bar_h = self.BAR_H_MANY if many else self.BAR_H
        self.setFixedHeight(max(1, len(self.rows)) * self.row_h + 4)
        self.setToolTip(literal("\n".join(f"{r.name}: {r.who}, {r.score} points, {r.in_hand} marker"
                                           f"{'s' if r.in_hand != 1 else ''} in hand, {r.waiting} waiting"
                                           for r in self.rows)))
        self.update()

    def set_flash(self, row: int | None) -> None:
        self.flash = row
        self.update()

    def fractions(self) -> list[float]:
        """How full each row's bar is: the leader's is full, 0 before anyone scores."""
        top = max([r.score for r in self.rows] + [0])
        return [r.score / top if top > 0 else 0.0 for r in self.rows]

    def bar_rect(self, i: int) -> QRectF:
        """The whole track of row i (the filled part is fractions()[i] of it)."""
        y = 2 + i * self.row_h
        return QRectF(36, y + self.row_h - self.bar_h - 5, max(40.0, self.width() - 36 - 46), self.bar_h)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        w = self.width()
        small = QFont(self.font())
        small.setPointSizeF(8)
        bold = QFont(self.font())
        bold.setBold(True)
        bold.setPointSizeF(9.5)
        score_font = QFont(bold)
        score_font.setPointSizeF(11)
        bold_m, small_m = QFontMetricsF(bold), QFontMetricsF(small)
        fractions = self.fractions()
        for i, row in enumerate(self.rows):
            y = 2 + i * self.row_h
            if row.current:
                p.fillRect(QRectF(0, y, w, self.row_h - 2), QColor("#fff3c4"))
                p.setPen(QColor("#e63946"))
                p.setFont(bold)
                p.drawText(QRectF(0, y, 12, self.row_h - 2), Qt.AlignCenter, "\u25b6")
            paint_marker(p, QPointF(23, y + self.row_h / 2 - 1), 9.0, row.colour, row.letter)
            # markers: discs in hand, small grey squares waiting in the non-scoring supply,
            # right-aligned on the first line, before the score
            count = row.in_hand + row.waiting
            dots_left = w - 46 - count * 10
            for k in range(count):
                c = QPointF(dots_left + 5 + k * 10, y + 9)
                p.setPen(QPen(QColor("#1b1b1b"), 0.8))
                if k < row.in_hand:
                    p.setBrush(QColor(row.colour))
                    p.drawEllipse(c, 3.8, 3.8)
                else:
                    p.setBrush(QColor("#b9b3a4"))
                    p.drawRect(QRectF(c.x() - 2.6, c.y() - 2.6, 5.2, 5.2))
            # first line: name, then who plays it and where it is in the round
            text_w = max(30.0, dots_left - 36 - 6)
            p.setFont(bold)
            p.setPen(QColor("#1b1b1b"))
            name = bold_m.elidedText(row.name, Qt.ElideRight, text_w)
            name_w = bold_m.horizontalAdvance(name)
            p.drawText(QRectF(36, y + 1, text_w, 16), Qt.AlignLeft | Qt.AlignVCenter, name)
            who = row.who.removeprefix("computer (").removesuffix(")")
            extra = " \u00b7 ".join(t for t in (who, row.status) if t)
            p.setFont(small)
            p.setPen(QColor("#a4161a") if row.current else QColor("#555555"))
            rest = max(0.0, text_w - name_w - 6)
            p.drawText(QRectF(36 + name_w + 6, y + 2, rest, 16), Qt.AlignLeft | Qt.AlignVCenter,
                       small_m.elidedText(extra, Qt.ElideRight, rest))
            # second line: the score bar across the panel
            track = self.bar_rect(i)
            p.setPen(Qt.NoPen)
            p.setBrush(QColor("#e3ddcc"))
            p.drawRoundedRect(track, 3, 3)
            if fractions[i] > 0:
                filled = QRectF(track.left(), track.top(), max(6.0, track.width() * fractions[i]), track.height())
                p.setBrush(QColor(row.colour))
                p.setPen(QPen(QColor("#1b1b1b"), 0.8))
                p.drawRoundedRect(filled, 3, 3)
            p.setFont(score_font)
            p.setPen(QColor("#1b1b1b"))
            p.drawText(QRectF(w - 44, y, 42, self.row_h - 2), Qt.AlignRight | Qt.AlignVCenter,
                       str(row.score) if not row.showdown else f"{row.score}\u2009+{row.showdown}")
        if self.flash is not None and 0 <= self.flash < len(self.rows):
            paint_frame(p, QRectF(1.5, 2 + self.flash * self.row_h, w - 3, self.row_h - 2),
                        self.rows[self.flash].colour)
        p.end()


class MapMarker(QGraphicsItem):
    """A player's marker on a state of the shared map: a disc with the player's letter,
    larger than the state's label it sits on, so it reads as a piece, not as text."""

    RADIUS = 15.0          # board units; the widest state label ("WV") is about 26 x 14

    def __init__(self, code: str, colour: str, letter: str, tooltip: str):
        super().__init__()
        self.code = code
        self.colour = QColor(colour)
        self.letter = letter
        self.setToolTip(literal(tooltip))   # it names a player
        self.setAcceptedMouseButtons(Qt.NoButton)   # a click goes to the state under it
        self.setAcceptHoverEvents(False)

    def boundingRect(self) -> QRectF:
        r = self.RADIUS + 2.5
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        r = self.RADIUS
        painter.setPen(QPen(QColor("#ffffff"), 2.2))     # a halo keeps it apart from the map
        painter.setBrush(Qt.NoBrush)
        painter.drawEllipse(QPointF(0, 0), r + 1.1, r + 1.1)
        painter.setPen(QPen(QColor("#1b1b1b"), 1.4))
        painter.setBrush(self.colour)
        painter.drawEllipse(QPointF(0, 0), r, r)
        font = QFont(LABEL_FONT)
        font.setPixelSize(int(r * 1.25))
        painter.setFont(font)
        painter.setPen(marker_text_colour(self.colour))
        painter.drawText(QRectF(-r, -r, 2 * r, 2 * r), Qt.AlignCenter, self.letter)


HATCH = QColor(96, 74, 40, 110)


class HatchItem(QGraphicsPathItem):
    """Diagonal hatching over a state on the other side of the Mississippi from the card's
    answer: unlikely, yet open to a marker, so its colours and label stay as they are."""

    def __init__(self, path: QPainterPath):
        super().__init__(path)
        self.setPen(Qt.NoPen)
        self.setBrush(QBrush(HATCH, Qt.BDiagPattern))
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setAcceptHoverEvents(False)

    @classmethod
    def for_state(cls, polygons) -> HatchItem:
        return cls(polygons_path(polygons))

    @classmethod
    def for_rect(cls, x: float, y: float, w: float, h: float) -> HatchItem:
        path = QPainterPath()
        path.addRoundedRect(QRectF(x, y, w, h), 4, 4)
        return cls(path)


class ChoiceCard(QFrame):
    """One of the two topics the start player may read: its title and questions, the
    whole box clickable (or focus it and press Enter or Space)."""

    clicked = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("choiceCard")
        self.setFocusPolicy(Qt.StrongFocus)
        self.setCursor(Qt.PointingHandCursor)
        self.setStyleSheet(
            "QFrame#choiceCard { background:#ffffff; border:1px solid #b9b09a; border-radius:6px; }"
            "QFrame#choiceCard:hover, QFrame#choiceCard:focus { border:2px solid #1d3557; background:#f3f7fb; }")
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.RichText)
        self.label.setAttribute(Qt.WA_TransparentForMouseEvents)
        self.label.setStyleSheet("background: transparent; border: none;")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 6, 8, 6)
        lay.addWidget(self.label)

    def set_text(self, rich_text: str) -> None:
        self.label.setText(rich_text)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.LeftButton and self.rect().contains(event.position().toPoint()):
            self.clicked.emit()

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key_Return, Qt.Key_Enter, Qt.Key_Space):
            self.clicked.emit()
        else:
            super().keyPressEvent(event)


class OutlineItem(QGraphicsPathItem):
    """A state's outline (or a ring around a marker) in a player's colour on a dark edge:
    the move under the pointer in the log, shown on the map."""

    def __init__(self, path: QPainterPath, colour: str, width: float = 3.0):
        super().__init__(path)
        self.colour = QColor(colour)
        self.width = width
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setAcceptHoverEvents(False)
        self.setPen(QPen(self.colour, width + 2.5))   # the bounding rect allows for the edge

    @classmethod
    def for_state(cls, polygons, colour: str) -> OutlineItem:
        return cls(polygons_path(polygons), colour)

    @classmethod
    def ring(cls, centre: QPointF, radius: float, colour: str) -> OutlineItem:
        path = QPainterPath()
        path.addEllipse(centre, radius, radius)
        return cls(path, colour, 3.5)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setBrush(Qt.NoBrush)
        painter.setPen(QPen(QColor("#1b1b1b"), self.width + 2.5, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
        painter.drawPath(self.path())
        painter.setPen(QPen(self.colour, self.width, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
        painter.drawPath(self.path())
