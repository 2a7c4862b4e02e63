"""Qt widgets of the 10 Days mode: painted cards, clickable rows of them, and the state labels
lifted above the journey's lines."""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import QFrame, QGraphicsItem, QScrollArea, QSizePolicy, QWidget

from stateside.board.items import LABEL_FONT, TAB_FONT, CalloutTab, StateItem
from stateside.board.plain import literal
from stateside.games.ten_days.cards import CAR, CardSet, is_state, plane_colour

CARD_RATIO = 1.4          # height / width
INK = QColor("#1d3557")
BAD = QColor("#e63946")
PICK = QColor("#ffb300")
NEW = QColor("#2a9d8f")
CAR_GREY = QColor("#8d99ae")
BACK = QColor("#1d3557")


def _text_on(colour: QColor) -> QColor:
    return QColor("#1b1b1b") if colour.lightnessF() > 0.6 else QColor("#ffffff")


def _plane_path(c: QPointF, size: float) -> QPainterPath:
    """A small airliner seen from above, nose to the right."""
    s = size / 2
    p = QPainterPath()
    p.moveTo(c.x() + s, c.y())
    p.quadTo(c.x() + s * 0.85, c.y() - s * 0.12, c.x() + s * 0.6, c.y() - s * 0.12)
    p.lineTo(c.x() + s * 0.1, c.y() - s * 0.12)
    p.lineTo(c.x() - s * 0.25, c.y() - s * 0.85)
    p.lineTo(c.x() - s * 0.42, c.y() - s * 0.85)
    p.lineTo(c.x() - s * 0.22, c.y() - s * 0.12)
    p.lineTo(c.x() - s * 0.72, c.y() - s * 0.12)
    p.lineTo(c.x() - s * 0.9, c.y() - s * 0.4)
    p.lineTo(c.x() - s * 1.0, c.y() - s * 0.4)
    p.lineTo(c.x() - s * 0.88, c.y())
    p.lineTo(c.x() - s * 1.0, c.y() + s * 0.4)
    p.lineTo(c.x() - s * 0.9, c.y() + s * 0.4)
    p.lineTo(c.x() - s * 0.72, c.y() + s * 0.12)
    p.lineTo(c.x() - s * 0.22, c.y() + s * 0.12)
    p.lineTo(c.x() - s * 0.42, c.y() + s * 0.85)
    p.lineTo(c.x() - s * 0.25, c.y() + s * 0.85)
    p.lineTo(c.x() + s * 0.1, c.y() + s * 0.12)
    p.lineTo(c.x() + s * 0.6, c.y() + s * 0.12)
    p.quadTo(c.x() + s * 0.85, c.y() + s * 0.12, c.x() + s, c.y())
    p.closeSubpath()
    return p


def _paint_car(p: QPainter, c: QPointF, size: float, colour: QColor) -> None:
    w, h = size, size * 0.42
    body = QRectF(c.x() - w / 2, c.y() - h / 4, w, h / 1.6)
    cabin = QPainterPath()
    cabin.moveTo(c.x() - w * 0.28, body.top())
    cabin.lineTo(c.x() - w * 0.16, c.y() - h * 0.72)
    cabin.lineTo(c.x() + w * 0.18, c.y() - h * 0.72)
    cabin.lineTo(c.x() + w * 0.32, body.top())
    cabin.closeSubpath()
    p.setPen(QPen(QColor("#1b1b1b"), 1.0))
    p.setBrush(colour)
    p.drawPath(cabin)
    p.drawRoundedRect(body, h * 0.18, h * 0.18)
    p.setBrush(QColor("#1b1b1b"))
    for x in (-w * 0.27, w * 0.27):
        p.drawEllipse(QPointF(c.x() + x, body.bottom()), h * 0.2, h * 0.2)


def paint_card(p: QPainter, rect: QRectF, face: str | None, cards: CardSet, *, down: bool = False,
               outline: QColor | None = None, faded: bool = False) -> None:
    """One card: a state (colour band, code, name), an airplane, an automobile, a card back
    (down=True), or an empty place (face None)."""
    p.save()
    p.setRenderHint(QPainter.Antialiasing)
    radius = rect.width() * 0.08
    if face is None and not down:
        p.setPen(QPen(QColor("#9aa5ad"), 1.2, Qt.DashLine))
        p.setBrush(QColor(255, 255, 255, 90))
        p.drawRoundedRect(rect.adjusted(1, 1, -1, -1), radius, radius)
    elif down:
        p.setPen(QPen(QColor("#0b1d33"), 1.0))
        p.setBrush(BACK)
        p.drawRoundedRect(rect.adjusted(1, 1, -1, -1), radius, radius)
        p.setPen(QPen(QColor("#f1faee"), 1.0))
        inner = rect.adjusted(rect.width() * 0.12, rect.height() * 0.1, -rect.width() * 0.12, -rect.height() * 0.1)
        p.drawRoundedRect(inner, radius / 2, radius / 2)
        f = QFont("DejaVu Sans")
        f.setBold(True)
        f.setPixelSize(max(7, int(rect.width() * 0.2)))
        p.setFont(f)
        p.drawText(inner, Qt.AlignCenter, "10\nDAYS")
    else:
        colour_key = cards.colour_of(face)
        band_colour = QColor(cards.colours[colour_key].display) if colour_key else CAR_GREY
        p.setPen(QPen(QColor("#5c6770"), 1.0))
        p.setBrush(QColor("#fffdf7"))
        body = rect.adjusted(1, 1, -1, -1)
        p.drawRoundedRect(body, radius, radius)
        band = QRectF(body.left(), body.top(), body.width(), body.height() * 0.24)
        clip = QPainterPath()
        clip.addRoundedRect(body, radius, radius)
        p.setClipPath(clip)
        p.fillRect(band, band_colour)
        p.setClipping(False)
        if colour_key == "white":
            p.setPen(QPen(QColor("#c8c8c0"), 1.0))
            p.drawLine(band.bottomLeft(), band.bottomRight())
        # the colour's symbol, so colours are told apart without hue
        small = QFont("DejaVu Sans")
        small.setPixelSize(max(7, int(band.height() * 0.62)))
        p.setFont(small)
        p.setPen(_text_on(band_colour))
        symbol = cards.colours[colour_key].symbol if colour_key else ""
        p.drawText(band.adjusted(4, 0, -4, 0), Qt.AlignVCenter | Qt.AlignLeft, symbol)
        rest = QRectF(body.left() + 3, band.bottom(), body.width() - 6, body.bottom() - band.bottom())
        if is_state(face):
            big = QFont("DejaVu Sans")
            big.setBold(True)
            big.setPixelSize(max(9, int(body.width() * 0.34)))
            p.setFont(big)
            p.setPen(INK)
            p.drawText(QRectF(rest.left(), rest.top(), rest.width(), rest.height() * 0.55), Qt.AlignCenter, face)
            name = QFont("DejaVu Sans")
            name.setPixelSize(max(7, int(body.width() * 0.13)))
            p.setFont(name)
            p.setPen(QColor("#3d4a55"))
            p.drawText(QRectF(rest.left(), rest.top() + rest.height() * 0.52, rest.width(), rest.height() * 0.46),
                       Qt.AlignHCenter | Qt.AlignTop | Qt.TextWordWrap, cards.state_name[face])
        else:
            centre = QPointF(rest.center().x(), rest.top() + rest.height() * 0.34)
            size = body.width() * 0.56
            if face == CAR:
                _paint_car(p, centre, size, CAR_GREY)
                caption = "automobile"
            else:
                p.setPen(QPen(QColor("#1b1b1b"), 1.0))
                p.setBrush(band_colour)
                p.drawPath(_plane_path(centre, size))
                caption = f"{cards.colours[plane_colour(face)].name}\nairplane"
            name = QFont("DejaVu Sans")
            name.setPixelSize(max(7, int(body.width() * 0.13)))
            p.setFont(name)
            p.setPen(QColor("#3d4a55"))
            p.drawText(QRectF(rest.left(), rest.top() + rest.height() * 0.62, rest.width(), rest.height() * 0.38),
                       Qt.AlignHCenter | Qt.AlignTop, caption)
    if faded:
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(255, 255, 255, 130))
        p.drawRoundedRect(rect.adjusted(1, 1, -1, -1), radius, radius)
    if outline is not None:
        p.setPen(QPen(outline, 3.0))
        p.setBrush(Qt.NoBrush)
        p.drawRoundedRect(rect.adjusted(1.5, 1.5, -1.5, -1.5), radius, radius)
    p.restore()


@dataclass
class CardSlot:
    face: str | None = None      # None: an empty place (or a card back when down)
    caption: str = ""            # above the card, e.g. "Day 3"
    down: bool = False
    enabled: bool = False        # clickable now
    outline: str | None = None   # "bad", "pick" or "new"
    tooltip: str = ""
    faded: bool = False
    frame: str | None = None     # a player's colour: the move pointed at in the log


OUTLINES = {"bad": BAD, "pick": PICK, "new": NEW}


class CardRow(QWidget):
    """A row of cards with captions; enabled cards light up under the pointer."""
    clicked = Signal(int)

    def __init__(self, cards: CardSet, count: int, *, card_width: int = 80, parent=None):
        super().__init__(parent)
        self.cards = cards
        self.slots = [CardSlot() for _ in range(count)]
        self.card_width = card_width
        self._hover: int | None = None
        self.arriving: set[int] = set()   # slots whose card is still flying in: drawn empty
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Preferred)

    def sizeHint(self) -> QSize:
        n = len(self.slots)
        return QSize(n * (self.card_width + 8), int(self.card_width * CARD_RATIO) + 26)

    def minimumSizeHint(self) -> QSize:
        n = len(self.slots)
        return QSize(n * 40, int(self.card_width * 0.8 * CARD_RATIO) + 24)

    def set_slots(self, slots: list[CardSlot]) -> None:
        self.slots = list(slots)
        self._hover = None if self._hover is None or self._hover >= len(slots) else self._hover
        self.update()

    def card_rect(self, i: int) -> QRectF:
        n = len(self.slots)
        gap = 6.0
        caption = 18.0
        w = min((self.width() - gap * (n + 1)) / n, (self.height() - caption - 6) / CARD_RATIO, self.card_width * 1.25)
        h = w * CARD_RATIO
        total = n * w + (n - 1) * gap
        x0 = (self.width() - total) / 2
        return QRectF(x0 + i * (w + gap), caption + 2, w, h)

    def slot_at(self, pos) -> int | None:
        for i in range(len(self.slots)):
            if self.card_rect(i).contains(pos):
                return i
        return None

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        cap = QFont("DejaVu Sans")
        cap.setPixelSize(12)
        for i, slot in enumerate(self.slots):
            r = self.card_rect(i)
            if slot.caption:
                p.setFont(cap)
                p.setPen(BAD if slot.outline == "bad" else INK)
                p.drawText(QRectF(r.left() - 6, 0, r.width() + 12, r.top() - 2), Qt.AlignCenter, slot.caption)
            outline = OUTLINES.get(slot.outline)
            if slot.enabled and i == self._hover:
                outline = PICK
            if i in self.arriving:
                paint_card(p, r, None, self.cards, outline=outline)
                continue
            paint_card(p, r, slot.face, self.cards, down=slot.down, outline=outline, faded=slot.faded)
            if slot.frame:   # around the card, apart from its own outline
                p.setPen(QPen(QColor(slot.frame), 3.0))
                p.setBrush(Qt.NoBrush)
                p.drawRoundedRect(r.adjusted(-3.5, -3.5, 3.5, 3.5), 6, 6)
        p.end()

    def card_picture(self, i: int) -> QPixmap:
        """Slot i's card as a picture (for a card that flies to its place)."""
        r = self.card_rect(i)
        pix = QPixmap(max(1, round(r.width())), max(1, round(r.height())))
        pix.fill(Qt.transparent)
        p = QPainter(pix)
        p.setRenderHint(QPainter.Antialiasing)
        slot = self.slots[i]
        paint_card(p, QRectF(0, 0, r.width(), r.height()), slot.face, self.cards, down=slot.down)
        p.end()
        return pix

    def mouseMoveEvent(self, event) -> None:
        i = self.slot_at(event.position())
        hover = i if i is not None and self.slots[i].enabled else None
        if hover != self._hover:
            self._hover = hover
            self.setCursor(Qt.PointingHandCursor if hover is not None else Qt.ArrowCursor)
            self.update()
        self.setToolTip(literal(self.slots[i].tooltip) if i is not None else "")

    def leaveEvent(self, event) -> None:
        if self._hover is not None:
            self._hover = None
            self.update()

    def mousePressEvent(self, event) -> None:
        if event.button() != Qt.LeftButton:
            return
        i = self.slot_at(event.position())
        if i is not None:  # disabled cards too: the mode says why nothing happens
            self.clicked.emit(i)


class FitScrollArea(QScrollArea):
    """A frameless scroll area around one word-wrapped label that asks the layout for
    the label's full height: it takes no more room than its text needs, and scrolls
    when the panel cannot give it that much."""

    def __init__(self, label, parent=None):
        super().__init__(parent)
        self.setWidget(label)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }")
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Preferred)

    def sizeHint(self) -> QSize:
        label = self.widget()
        width = max(self.viewport().width(), 100)
        height = label.heightForWidth(width) if label.hasHeightForWidth() else label.sizeHint().height()
        return QSize(width, max(height, 0) + 2)

    def minimumSizeHint(self) -> QSize:
        return QSize(100, min(self.sizeHint().height(), 60))


class LabelChip(QGraphicsItem):
    """A state's label (or its tab's) again, on a patch of the state's own colour, above
    the journey's lines, which end at the labels: the line stops at the label, which stays
    readable. It draws the text as the board does, so it looks like the label itself."""

    def __init__(self, state: StateItem, tab: CalloutTab | None = None):
        super().__init__()
        self.state, self.tab = state, tab
        self.code = state.code
        if tab is None:
            self.font = LABEL_FONT
            at = state.label_at
            self.text_rect = QRectF(at.x() - 20, at.y() - 8, 40, 16)   # the board's label box
        else:
            self.font = TAB_FONT
            self.text_rect = QRectF(tab.base_rect)
            self.text_rect.moveCenter(tab.rect.center())
        text = QFontMetricsF(self.font).boundingRect(self.text_rect, Qt.AlignCenter, self.code)
        self.base = text.adjusted(-2, -0.5, 2, 0.5)
        self.setAcceptedMouseButtons(Qt.NoButton)   # clicks, hovers and tips go to the state
        self.setAcceptHoverEvents(False)

    @property
    def rect(self) -> QRectF:
        """Where it is now: a tab shrinks about its centre when the map is zoomed."""
        k = self.tab.scale_factor if self.tab is not None else 1.0
        r = QRectF(0, 0, self.base.width() * k, self.base.height() * k)
        r.moveCenter(self.base.center())
        return r

    def boundingRect(self) -> QRectF:
        return QRectF(self.base)   # the largest it gets

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        k = self.tab.scale_factor if self.tab is not None else 1.0
        if k != 1.0:   # as the tab draws itself: scaled about its centre
            c = self.base.center()
            painter.translate(c)
            painter.scale(k, k)
            painter.translate(-c)
        painter.setPen(Qt.NoPen)
        painter.setBrush(self.state.current_fill())   # hovered states are lighter
        painter.drawRoundedRect(self.base, 3, 3)
        # the very path the board fills (so the chip looks like the label itself)
        painter.fillPath((self.tab or self.state).label_path, self.state.label_brush())
