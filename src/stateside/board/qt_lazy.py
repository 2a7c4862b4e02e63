"""PySide6's `Qt` namespace set up on first use, and what the board paints with until then.

The first use of `PySide6.QtCore.Qt`, even one PySide6 makes itself to choose between
overloads (QBrush(QColor), QPainter.setPen, QPainter.setBrush: each has one taking a Qt
enum), builds all of its hundred-odd Python enum classes: about 30 ms on a 2-core
machine, a tenth of the app's start-up and more than a bare PySide6 window spends on its
own (issue 11, item 8). So nothing the Map explorer runs before the map's first paint
touches it: the board and the main window take `Qt` from here, pass the ints below where
Qt takes an int (drawText's flags) or sets them as Qt properties (which convert an int to
the property's enum), and paint with `solid()` brushes and `pen()`s through
QPainter.fillPath and strokePath, which have no such overloads.
tests/test_startup.py checks the values against Qt's and that start-up keeps clear of it.
"""
from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QBrush, QColor, QPalette, QPen

ALIGN_CENTER = 0x0084           # Qt.AlignCenter (drawText's flags are an int)
SCROLL_BAR_ALWAYS_OFF = 1       # Qt.ScrollBarAlwaysOff, for the *ScrollBarPolicy properties
STRONG_FOCUS = 0x0B             # Qt.StrongFocus, for the focusPolicy property
TOOL_BUTTON_TEXT_ONLY = 1       # Qt.ToolButtonTextOnly, for the toolButtonStyle property


class _LazyQt:
    """Stands for `PySide6.QtCore.Qt`: the first attribute asked for imports it; each
    attribute is then kept on this object, so later uses cost a plain attribute read."""

    def __getattr__(self, name: str):
        from PySide6.QtCore import Qt as real

        value = getattr(real, name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return "<PySide6.QtCore.Qt, set up on first use>"


Qt = _LazyQt()


def solid(colour: QColor) -> QBrush:
    """A solid brush of `colour`, as QBrush(colour) makes, without resolving its overloads
    (a palette hands out a copy of the brush it makes for a colour)."""
    palette = QPalette()
    palette.setColor(QPalette.Window, colour)
    return palette.brush(QPalette.Window)


def pen(colour: QColor, width: float = 0.0) -> QPen:
    """A solid pen with square caps and bevel joins (QPen's defaults); width 0 is a
    one-pixel hairline."""
    p = QPen()
    p.setColor(colour)
    p.setWidthF(width)
    return p


def single_shot(ms: int, context, then) -> None:
    """QTimer.singleShot(ms, context, then) for an `ms` above 0: `then` once, after `ms`,
    unless `context` (a QObject) is gone first, without its overloads (to choose between
    them PySide6 sets up QMetaMethod and its enums: 0.3 ms, and start-up calls it before the
    first paint). Not for 0 ms: Qt runs a zero singleShot as a posted call, not a timer, and
    the order of what follows the first paint depends on it."""
    timer = QTimer(context)
    timer.setSingleShot(True)
    timer.setInterval(ms)
    timer.timeout.connect(then)
    timer.timeout.connect(timer.deleteLater)
    timer.start()
