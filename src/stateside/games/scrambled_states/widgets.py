"""The Scrambled States table's own widgets: the row of face-up cards, the center card
and the die. They draw what the mode gives them and say what was clicked; they know
no rules."""
from __future__ import annotations

import random

from PySide6.QtCore import QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from stateside.games.scrambled_states.painting import (
    paint_caption,
    paint_card,
    paint_card_back,
    paint_die,
    paint_empty_slot,
)
from stateside.games.scrambled_states.rules import FACE_NAMES, FACE_UP
from stateside.games.scrambled_states.words import DIE_LABELS

FLASH_MS = 1400
# A won card stays in view this long (on the table, on the map or as the center card),
# stamped with the winner's name, before the card that replaces it appears: a computer's
# slap then reads as "Ada took Montana" rather than as a card silently changing. It is
# shorter than the pause before the next die lands, so the new table is seen before the race.
WON_MS = 1500
ROLL_FRAME_MS = 90


class CardTable(QWidget):
    """The 15 face-up cards in their places; click one to slap it."""
    cardClicked = Signal(str)

    def __init__(self, cards, parent=None):
        super().__init__(parent)
        self.cards = cards
        self.slots: list[str | None] = [None] * FACE_UP
        self.faded: set[str] = set()
        self.flashes: dict[str, QColor] = {}
        self.marks: dict[str, QColor] = {}    # a move pointed at in the log: outlined until the pointer leaves
        self.won: dict[int, tuple[str, str, QColor]] = {}   # slot -> (card, caption, colour)
        self._hover: int | None = None
        self._flash_timer = QTimer(self, singleShot=True, timeout=self._end_flash)
        self._won_timer = QTimer(self, singleShot=True, timeout=self.end_won)
        self.setMouseTracking(True)
        self.setMinimumHeight(96)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Preferred)
        self.setCursor(Qt.PointingHandCursor)

    def sizeHint(self) -> QSize:
        return QSize(15 * 84, 122)

    def set_slots(self, slots: list[str | None], faded: set[str] = frozenset()) -> None:
        if slots != self.slots or faded != self.faded:
            self.slots, self.faded = list(slots), set(faded)
            self._tooltips()
            self.update()

    def flash(self, codes, colour: str) -> None:
        self.flashes = {c: QColor(colour) for c in codes}
        self._flash_timer.start(FLASH_MS)
        self.update()

    def set_marks(self, codes, colour: str | None) -> None:
        self.marks = {c: QColor(colour) for c in codes} if colour else {}
        self.update()

    def _end_flash(self) -> None:
        self.flashes = {}
        self.update()

    def show_won(self, code: str, caption: str, colour: str) -> None:
        """Keep the just-won card `code` in its slot for a moment, stamped with `caption`."""
        if code in self.slots:
            self.won[self.slots.index(code)] = (code, caption, QColor(colour))
            self._won_timer.start(WON_MS)
            self.update()

    def end_won(self) -> None:
        """The won cards leave; the cards that took their places flash once."""
        arrived = [self.slots[i] for i in self.won if self.slots[i]]
        self.won = {}
        if arrived:
            self.flash(arrived, "#2a9d8f")
        self.update()

    def slot_rect(self, i: int) -> QRectF:
        gap = 5.0
        h_avail = self.height() - 8
        w = min((self.width() - gap * (FACE_UP + 1)) / FACE_UP, h_avail / 1.38)
        h = w * 1.38
        total = FACE_UP * w + (FACE_UP - 1) * gap
        x0 = (self.width() - total) / 2
        return QRectF(x0 + i * (w + gap), (self.height() - h) / 2, w, h)

    def slot_at(self, pos) -> int | None:
        for i in range(FACE_UP):
            if self.slot_rect(i).contains(pos):
                return i
        return None

    def card_rect(self, code: str) -> QRectF:
        return self.slot_rect(self.slots.index(code))

    def _tooltips(self) -> None:
        self.setToolTip("Click a card to slap it.")

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        for i, code in enumerate(self.slots):
            r = self.slot_rect(i)
            if i in self.won:
                won, caption, colour = self.won[i]
                p.setPen(QPen(colour, 4))
                p.setBrush(Qt.NoBrush)
                p.drawRoundedRect(r.adjusted(-2, -2, 2, 2), r.width() * 0.1, r.width() * 0.1)
                paint_card(p, r, self.cards[won], self.cards)
                paint_caption(p, r, caption, colour)
                continue
            if code is None:
                paint_empty_slot(p, r)
                continue
            if code in self.marks or code in self.flashes:
                p.setPen(QPen(self.marks.get(code) or self.flashes[code], 5))
                p.setBrush(Qt.NoBrush)
                p.drawRoundedRect(r.adjusted(-2, -2, 2, 2), r.width() * 0.1, r.width() * 0.1)
            paint_card(p, r, self.cards[code], self.cards, hover=i == self._hover, faded=code in self.faded)
        p.end()

    def mouseMoveEvent(self, event) -> None:
        i = self.slot_at(event.position())
        i = i if i is not None and self.slots[i] else None
        if i != self._hover:
            self._hover = i
            if i is not None:
                c = self.cards[self.slots[i]]
                self.setToolTip(f"{c.name}: {c.region}, land mass {c.land_mass}/4, "
                                f"{c.population} {'person' if c.population == 1 else 'people'}, {c.colour}")
            self.update()

    def leaveEvent(self, event) -> None:
        self._hover = None
        self.update()

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.LeftButton:
            i = self.slot_at(event.position())
            if i is not None and self.slots[i] and i not in self.won:
                self.cardClicked.emit(self.slots[i])


class CenterCard(QWidget):
    """The center card (face down while the die rolls); click it to slap it on Hand."""
    clicked = Signal()

    def __init__(self, cards, parent=None):
        super().__init__(parent)
        self.cards = cards
        self.code: str | None = None
        self.back_text = "?"
        self.caption: tuple[str, QColor] | None = None   # who just won the card shown
        self.setFixedSize(118, 163)
        self.setCursor(Qt.PointingHandCursor)
        self.setToolTip("The center card. On Hand, click it to slap it.")

    def show_card(self, code: str | None, back_text: str = "?", caption: tuple[str, str] | None = None) -> None:
        cap = (caption[0], QColor(caption[1])) if caption else None
        if (code, back_text, cap) != (self.code, self.back_text, self.caption):
            self.code, self.back_text, self.caption = code, back_text, cap
            self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        r = QRectF(self.rect()).adjusted(2, 2, -2, -2)
        if self.code:
            paint_card(p, r, self.cards[self.code], self.cards)
            if self.caption:
                paint_caption(p, r, *self.caption)
        else:
            paint_card_back(p, r, self.back_text)
        p.end()

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.LeftButton:
            self.clicked.emit()


class DieWidget(QWidget):
    """The die: tumbles through random faces while rolling, then shows the rolled face."""

    def __init__(self, cards, parent=None):
        super().__init__(parent)
        self.cards = cards
        self.face: str | None = None
        self.tilt = 0.0
        self._spin = random.Random()   # the animation only; the engine rolls the real die
        self._timer = QTimer(self, interval=ROLL_FRAME_MS, timeout=self._frame)
        self.setFixedSize(96, 96)

    @property
    def rolling(self) -> bool:
        return self._timer.isActive()

    def roll(self) -> None:
        if not self._timer.isActive():
            self._timer.start()
            self._frame()

    def show_face(self, face: str | None) -> None:
        self._timer.stop()
        self.tilt = 0.0
        self.face = face
        self.setToolTip(f"The die shows {FACE_NAMES[face]}." if face else "")
        self.update()

    def _frame(self) -> None:
        self.face = self._spin.choice(list(FACE_NAMES))
        self.tilt = self._spin.uniform(-25, 25)
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        label = DIE_LABELS.get(self.face, FACE_NAMES.get(self.face, "")) if self.face and not self.rolling else ""
        paint_die(p, QRectF(self.rect()).adjusted(6, 6, -6, -6), self.face, self.cards, label, self.tilt)
        p.end()
