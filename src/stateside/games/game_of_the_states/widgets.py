"""Qt widgets of Game of the States: the spinner, the product platform and the product icons on the map."""
from __future__ import annotations

import math

from PySide6.QtCore import QEasingCurve, QPointF, QRectF, Qt, QVariantAnimation, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QSizePolicy, QWidget

from stateside.games.game_of_the_states import parts

SPIN_MS = 1100
JAM_COLOUR = "#c1121f"


class SpinnerWidget(QWidget):
    """Our spinner: twenty sectors, prices on the outer band, moves (or TRAFFIC JAM) inside.
    The arrow turns to the sector the match drew; click it (or press Space) to spin."""

    clicked = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.sectors = parts.sectors()
        self.angle = 9.0                 # degrees clockwise from the top
        self.ring = "move"               # the ring that counts now: "move" or "price"
        self.ready = False               # a person may spin now
        self.result = ""                 # what the last spin read, shown in the middle
        self.spin_ms = SPIN_MS
        self._anim: QVariantAnimation | None = None
        self.setMinimumSize(120, 120)
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)
        self.setFixedHeight(170)
        self.setCursor(Qt.PointingHandCursor)
        self.setToolTip("The spinner: prices on the outer band, moves inside. Click or press Space to spin.")
        self.setAccessibleName("Spinner")

    def sector_angle(self, index: int) -> float:
        step = 360 / len(self.sectors)
        return index * step + step / 2

    def spin_to(self, index: int, done, turns: int = 2) -> None:
        """Animate to sector `index`, then call done()."""
        if self._anim is not None:
            self._anim.stop()
        start = self.angle % 360
        target = self.sector_angle(index) + 360 * turns
        if target - start < 360:
            target += 360
        if self.spin_ms <= 0:
            self.angle = target % 360
            self.update()
            done()
            return
        anim = QVariantAnimation(self)
        anim.setStartValue(float(start))
        anim.setEndValue(float(target))
        anim.setDuration(self.spin_ms)
        anim.setEasingCurve(QEasingCurve.OutCubic)
        anim.valueChanged.connect(self._turn)

        def finished():
            self.angle = target % 360
            self._anim = None
            self.update()
            done()
        anim.finished.connect(finished)
        self._anim = anim
        anim.start()

    def is_spinning(self) -> bool:
        return self._anim is not None

    def stop(self) -> None:
        """Drop a spin under way without calling its done() (a new game replaced it)."""
        if self._anim is not None:
            anim, self._anim = self._anim, None
            anim.finished.disconnect()
            anim.stop()

    def show_sector(self, index: int) -> None:
        """Point at sector `index` at once (a replay, a loaded game, an online spin)."""
        if self._anim is None:
            self.angle = self.sector_angle(index)
            self.update()

    def _turn(self, value) -> None:
        self.angle = float(value)
        self.update()

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.LeftButton:
            self.clicked.emit()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        side = min(self.width(), self.height()) - 6
        cx, cy = self.width() / 2, self.height() / 2
        r_out, r_mid, r_in = side / 2, side / 2 * 0.70, side / 2 * 0.30
        n = len(self.sectors)
        step = 360 / n
        small = QFont(self.font())
        small.setPointSizeF(6.8)
        bold = QFont(self.font())
        bold.setPointSizeF(9.5)
        bold.setBold(True)
        for s in self.sectors:
            a0 = s.index * step
            # Qt angles: counter-clockwise from 3 o'clock, in 1/16 degrees
            qt_start = (90 - a0 - step) * 16
            band = QColor("#fff3c4" if s.index % 2 else "#ffe08a")
            inner = QColor("#f6d5d8") if s.jam else QColor("#dbe9f6" if s.index % 2 else "#c6dbef")
            if self.ring == "price":
                inner = inner.lighter(108)
            else:
                band = band.lighter(104)
            p.setPen(QPen(QColor("#5c4b2a"), 0.8))
            p.setBrush(band)
            p.drawPie(QRectF(cx - r_out, cy - r_out, 2 * r_out, 2 * r_out), int(qt_start), int(step * 16))
            p.setBrush(inner)
            p.drawPie(QRectF(cx - r_mid, cy - r_mid, 2 * r_mid, 2 * r_mid), int(qt_start), int(step * 16))
            mid = math.radians(a0 + step / 2)
            # price, along the radius
            p.save()
            p.translate(cx + math.sin(mid) * (r_out + r_mid) / 2, cy - math.cos(mid) * (r_out + r_mid) / 2)
            p.rotate(a0 + step / 2 - 90 if a0 + step / 2 < 180 else a0 + step / 2 + 90)
            p.setFont(small)
            p.setPen(QColor("#3b2f12"))
            p.drawText(QRectF(-18, -6, 36, 12), Qt.AlignCenter, f"{s.price}")
            p.restore()
            # move or jam
            rr = (r_mid + r_in) / 2 + 4
            pos = QPointF(cx + math.sin(mid) * rr, cy - math.cos(mid) * rr)
            if s.jam:
                p.setFont(small)
                p.setPen(QColor(JAM_COLOUR))
                p.save()
                p.translate(pos)
                p.rotate(a0 + step / 2 - 90 if a0 + step / 2 < 180 else a0 + step / 2 + 90)
                p.drawText(QRectF(-14, -6, 28, 12), Qt.AlignCenter, "JAM")
                p.restore()
            else:
                p.setFont(bold)
                p.setPen(QColor("#0b2545"))
                p.drawText(QRectF(pos.x() - 8, pos.y() - 8, 16, 16), Qt.AlignCenter, str(s.move))
        # hub and arrow
        p.setBrush(QColor("#ffffff"))
        p.setPen(QPen(QColor("#5c4b2a"), 1))
        p.drawEllipse(QPointF(cx, cy), r_in, r_in)
        a = math.radians(self.angle)
        tip = QPointF(cx + math.sin(a) * (r_out - 4), cy - math.cos(a) * (r_out - 4))
        left = QPointF(cx + math.sin(a - 1.5) * 7, cy - math.cos(a - 1.5) * 7)
        right = QPointF(cx + math.sin(a + 1.5) * 7, cy - math.cos(a + 1.5) * 7)
        tail = QPointF(cx - math.sin(a) * (r_in - 6), cy + math.cos(a) * (r_in - 6))
        p.setBrush(QColor("#d62828"))
        p.setPen(QPen(QColor("#6a040f"), 1))
        p.drawPolygon(QPolygonF([tip, left, tail, right]))
        p.setBrush(QColor("#333"))
        p.drawEllipse(QPointF(cx, cy), 3.5, 3.5)
        if self.ready and not self.is_spinning():
            p.setPen(QPen(QColor("#2a9d8f"), 3))
            p.setBrush(Qt.NoBrush)
            p.drawEllipse(QPointF(cx, cy), r_out + 1.5, r_out + 1.5)
        p.end()


class PlatformWidget(QWidget):
    """The product platform: one space per product; disks delivered sit on their space."""

    COLS = 10
    CELL = 24

    def __init__(self, parent=None):
        super().__init__(parent)
        self.products = list(parts.catalogue().values())
        self.disks: dict[str, list[str]] = {}    # product id -> colours of the disks on it
        rows = (len(self.products) + self.COLS - 1) // self.COLS
        self.setFixedHeight(rows * self.CELL + 2)
        self.setMinimumWidth(self.COLS * self.CELL)
        self.setMouseTracking(True)

    def set_disks(self, disks: dict[str, list[str]]) -> None:
        self.disks = disks
        self.update()

    def _cell(self, i: int) -> QRectF:
        w = self.width() / self.COLS
        row, col = divmod(i, self.COLS)
        return QRectF(col * w + 1, row * self.CELL + 1, w - 2, self.CELL - 2)

    def event(self, e):
        if e.type() == e.Type.ToolTip:
            for i, prod in enumerate(self.products):
                if self._cell(i).contains(e.position() if hasattr(e, "position") else e.pos()):
                    on = len(self.disks.get(prod.id, []))
                    self.setToolTip(f"{prod.name}" + (f": {on} disk{'s' * (on != 1)}" if on else ""))
                    break
        return super().event(e)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        f = QFont(self.font())
        f.setPointSizeF(7.5)
        f.setBold(True)
        p.setFont(f)
        for i, prod in enumerate(self.products):
            r = self._cell(i)
            p.setPen(QPen(QColor("#b7a88a"), 1))
            p.setBrush(QColor("#fbf7ee"))
            p.drawRoundedRect(r, 3, 3)
            icon = QRectF(r.left() + 2, r.top() + 2, 15, 12)
            draw_icon(p, icon, prod)
            for j, colour in enumerate(self.disks.get(prod.id, [])[:4]):
                c = QPointF(r.left() + 6 + j * 6.5, r.bottom() - 6)
                p.setPen(QPen(QColor("#1b1b1b"), 0.8))
                p.setBrush(QColor(colour))
                p.drawEllipse(c, 4.2, 4.2)
        p.end()


class ProductIcons(QGraphicsItem):
    """The product icons of one state, in a row above its label. On a small map (the
    window at its minimum size) they grow, up to GROW times, to stay GROW_TO pixels wide:
    their letters were too small to read there."""

    SIZE = 11.0
    GROW_TO = 11.0   # pixels
    GROW = 1.6

    def __init__(self, at: QPointF, products: list, size: float = SIZE, grow: bool = True):
        super().__init__()
        self.products = products
        self.SIZE = size
        self.grow = grow
        self.setPos(at)
        self.setZValue(6)
        self.setToolTip("Products: " + ", ".join(p.name for p in products))
        self.setAcceptedMouseButtons(Qt.NoButton)

    def growth(self, scale: float) -> float:
        """How much larger than SIZE they are drawn on a map drawn at `scale` pixels a unit."""
        if not self.grow or scale <= 0:
            return 1.0
        return min(self.GROW, max(1.0, self.GROW_TO / (self.SIZE * scale)))

    def boundingRect(self) -> QRectF:
        w = len(self.products) * (self.SIZE + 1.5)
        k = self.GROW if self.grow else 1.0   # the most it grows (about its bottom centre)
        return QRectF(-w * k / 2 - 1, -self.SIZE * k - 1, w * k + 2, self.SIZE * k + 2)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        k = self.growth(painter.worldTransform().m11())
        painter.scale(k, k)
        f = QFont(painter.font())
        f.setPointSizeF(4.6 * self.SIZE / 11.0)
        f.setBold(True)
        painter.setFont(f)
        w = len(self.products) * (self.SIZE + 1.5)
        for i, prod in enumerate(self.products):
            r = QRectF(-w / 2 + i * (self.SIZE + 1.5), -self.SIZE, self.SIZE, self.SIZE * 0.8)
            draw_icon(painter, r, prod)


def draw_icon(p: QPainter, rect: QRectF, prod: parts.Product) -> None:
    """Our product icon: a rounded tile in the product's colour with its two letters."""
    colour = QColor(prod.colour)
    p.setPen(QPen(QColor("#3b3b3b"), 0.7))
    p.setBrush(QBrush(colour))
    p.drawRoundedRect(rect, 2.5, 2.5)
    p.setPen(QColor("#ffffff") if colour.lightnessF() < 0.55 else QColor("#1b1b1b"))
    p.drawText(rect, Qt.AlignCenter, prod.icon)


__all__ = ["SpinnerWidget", "PlatformWidget", "draw_icon"]
