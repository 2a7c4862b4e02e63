"""Moves a player can follow: pieces slide into place instead of appearing at once.

`Motion` animates graphics items (tokens on the map, markers, tiles) with Qt's animation
framework. It knows no game. Three rules hold for every use:

- the speed is one setting for the whole app (`Motion.duration_ms`, View > Animations;
  0 switches animations off, and the tests run with it off);
- nothing waits for an animation: the game's state has already changed when a piece starts
  to move, and an animation in flight jumps to its end at the next input (a click, a key)
  or when the board is redrawn (`finish`);
- an item removed while it moves is let go (no frame touches a deleted item).
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QEasingCurve, QObject, QPointF, QPropertyAnimation, QRect, QVariantAnimation
from shiboken6 import isValid

from stateside.board.qt_lazy import Qt  # the map's first paint must not wait for Qt's namespace

# (menu text, milliseconds a move takes): the choices of View > Animations
SPEEDS = (("Off", 0), ("Fast", 150), ("Normal", 260))
DEFAULT_MS = 260
ARRIVE_DROP = 26.0   # a piece put down comes from this far above its place (scene units)
FADE_FROM = 0.3      # a piece coming down is faint at first, never invisible


class _Flight:
    __slots__ = ("item", "points", "lengths", "fade", "anim")

    def __init__(self, item, points: list[QPointF], fade: bool):
        self.item = item
        self.points = points
        self.fade = fade
        self.anim: QVariantAnimation | None = None
        self.lengths: list[float] = []
        self.measure()

    def measure(self) -> None:
        self.lengths = [math.hypot(b.x() - a.x(), b.y() - a.y()) for a, b in zip(self.points, self.points[1:])]

    def at(self, t: float) -> QPointF:
        """The point a fraction t of the way along the polyline."""
        total = sum(self.lengths)
        if total <= 0 or t >= 1:
            return QPointF(self.points[-1])
        goal = t * total
        for (a, b), length in zip(zip(self.points, self.points[1:]), self.lengths):
            if goal <= length and length > 0:
                f = goal / length
                return QPointF(a.x() + (b.x() - a.x()) * f, a.y() + (b.y() - a.y()) * f)
            goal -= length
        return QPointF(self.points[-1])


class Motion(QObject):
    """Slides graphics items along a line of points; one per view (the board has one)."""

    duration_ms = DEFAULT_MS   # the setting, for every board and table (0: off)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._flights: dict[int, _Flight] = {}   # id(item) -> its flight
        self._cards: list[tuple] = []   # (label, animation, done) of pictures flying over widgets

    # ---------------------------------------------------------------- starting
    def move(self, item, points: Sequence[QPointF], *, fade_in: bool = False, ms: int | None = None) -> bool:
        """Move `item` from points[0] through the others to points[-1] (where it then
        stays). False (and the item put at its end at once) when animations are off or
        there is no way to go."""
        points = [QPointF(p) for p in points]
        ms = self.duration_ms if ms is None else ms
        self._drop(item)
        if not points:
            return False
        if ms <= 0 or len(points) < 2 or all(p == points[0] for p in points):
            item.setPos(points[-1])
            return False
        # a longer road takes a little longer, but never more than twice the setting
        flight = _Flight(item, points, fade_in)
        legs = max(1, len(points) - 1)
        anim = QVariantAnimation(self)
        anim.setStartValue(0.0)
        anim.setEndValue(1.0)
        anim.setDuration(int(ms * min(2.0, 1.0 + 0.25 * (legs - 1))))
        anim.setEasingCurve(QEasingCurve.InOutCubic if legs > 1 else QEasingCurve.OutCubic)
        # bound methods, not closures: once landed, nothing here holds the item any more
        anim.valueChanged.connect(self._on_value)
        anim.finished.connect(self._on_finished)
        flight.anim = anim
        self._flights[id(item)] = flight
        item.setPos(points[0])
        if fade_in:
            item.setOpacity(FADE_FROM)
        anim.start()
        return True

    def arrive(self, item, *, drop: float = ARRIVE_DROP, ms: int | None = None) -> bool:
        """A piece put down: it comes down onto its place (item.pos()) and fades in."""
        end = item.pos()
        return self.move(item, [QPointF(end.x(), end.y() - drop), end], fade_in=True, ms=ms)

    def retarget(self, item, end: QPointF) -> bool:
        """The place of a moving item changed (its neighbours were laid out again): it now
        lands there. False if it is not moving (then set its position yourself)."""
        flight = self._flights.get(id(item))
        if flight is None:
            return False
        flight.points[-1] = QPointF(end)
        flight.measure()
        return True

    def fly(self, over, pixmap, start: QRect, end: QRect, done=None, *, ms: int | None = None) -> bool:
        """A picture of a card flies over the widget `over` from `start` to `end` (rects in
        its coordinates), above everything and letting every click through; then done().
        False (done() called at once) when animations are off."""
        from PySide6.QtWidgets import QLabel

        ms = self.duration_ms if ms is None else ms
        if ms <= 0 or start == end or pixmap.isNull():
            if done is not None:
                done()
            return False
        label = QLabel(over)
        label.setAttribute(Qt.WA_TransparentForMouseEvents)
        label.setScaledContents(True)
        label.setPixmap(pixmap)
        label.setGeometry(start)
        label.show()
        label.raise_()
        anim = QPropertyAnimation(label, b"geometry", self)
        anim.setStartValue(start)
        anim.setEndValue(end)
        anim.setDuration(int(ms * 1.2))   # a card crosses the panel: a little longer than a step on the map
        anim.setEasingCurve(QEasingCurve.OutCubic)
        anim.finished.connect(self._card_landed)
        self._cards.append((label, anim, done))
        anim.start()
        return True

    def _card_landed(self) -> None:
        anim = self.sender()
        for entry in [c for c in self._cards if c[1] is anim]:
            self._end_card(entry)

    def _end_card(self, entry) -> None:
        if entry not in self._cards:
            return
        self._cards.remove(entry)
        label, anim, done = entry
        anim.stop()
        anim.deleteLater()
        if isValid(label):
            label.hide()
            label.deleteLater()
        if done is not None:
            done()

    # ---------------------------------------------------------------- ending
    def finish(self) -> None:
        """Every animation in flight jumps to its end now (input came, or a redraw)."""
        for flight in list(self._flights.values()):
            if flight.anim is not None:
                flight.anim.stop()
            self._landed(flight)
        for entry in list(self._cards):
            self._end_card(entry)

    def land(self, items) -> None:
        """These items' moves end now, at their places (they are about to leave the scene)."""
        for item in items:
            flight = self._flights.get(id(item))
            if flight is not None:
                if flight.anim is not None:
                    flight.anim.stop()
                self._landed(flight)

    def stop(self, item) -> None:
        """Let `item` go where it is now (it is about to leave the scene)."""
        self._drop(item)

    def running(self) -> bool:
        return bool(self._flights or self._cards)

    def moving(self, item) -> bool:
        return id(item) in self._flights

    # ---------------------------------------------------------------- frames
    def _flight_of(self, anim) -> _Flight | None:
        return next((f for f in self._flights.values() if f.anim is anim), None)

    def _on_value(self, t) -> None:
        flight = self._flight_of(self.sender())
        if flight is not None:
            self._frame(flight, float(t))

    def _on_finished(self) -> None:
        flight = self._flight_of(self.sender())
        if flight is not None:
            self._landed(flight)

    def _frame(self, flight: _Flight, t: float) -> None:
        if not isValid(flight.item):
            self._drop(flight.item)
            return
        flight.item.setPos(flight.at(t))
        if flight.fade:
            flight.item.setOpacity(min(1.0, FADE_FROM + (1 - FADE_FROM) * t))

    def _landed(self, flight: _Flight) -> None:
        if self._flights.get(id(flight.item)) is not flight:
            return
        del self._flights[id(flight.item)]
        if flight.anim is not None:
            flight.anim.deleteLater()
        if isValid(flight.item):
            flight.item.setPos(flight.points[-1])
            if flight.fade:
                flight.item.setOpacity(1.0)

    def _drop(self, item) -> None:
        flight = self._flights.pop(id(item), None)
        if flight is not None and flight.anim is not None:
            flight.anim.stop()
            flight.anim.deleteLater()
