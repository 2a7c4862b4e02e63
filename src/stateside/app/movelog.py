"""The move log panel every game shows: each action in plain words (the computers'
included), newest last, each line marked with its player's colour. Hovering a line asks
the mode to show that move on the map or table; clicking it pins the highlight (and in a
replay, jumps there)."""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QStyle, QStyledItemDelegate

NO_COLOUR = "#9a9a9a"   # chance (a card drawn, a tile turned up) has no player
ROLE_LINE = Qt.UserRole + 1


@dataclass(frozen=True)
class LogLine:
    index: int          # the entry's position in the match log
    seat: int           # who acted (negative: chance)
    text: str           # plain words
    colour: str = NO_COLOUR
    who: str = ""       # the player's name, shown before the text


class _LineDelegate(QStyledItemDelegate):
    """A coloured bar and the player's name in bold, then the move, wrapped."""

    BAR = 5

    def paint(self, painter: QPainter, option, index) -> None:
        line: LogLine = index.data(ROLE_LINE)
        painter.save()
        rect = option.rect
        if option.state & QStyle.State_Selected:
            painter.fillRect(rect, QColor("#ffe8a3"))   # a pale gold: the text stays dark and readable
        elif option.state & QStyle.State_MouseOver:
            painter.fillRect(rect, QColor("#eef3f8"))
        painter.fillRect(QRectF(rect.left() + 2, rect.top() + 3, self.BAR, rect.height() - 6), QColor(line.colour))
        text_rect = rect.adjusted(self.BAR + 8, 2, -4, -2)
        painter.setPen(QColor("#222222"))
        painter.drawText(text_rect, Qt.TextWordWrap | Qt.AlignVCenter, self._label(line))
        painter.restore()

    @staticmethod
    def _label(line: LogLine) -> str:
        return f"{line.who}: {line.text}" if line.who and not line.text.startswith(line.who) else line.text

    def __init__(self, parent=None):
        super().__init__(parent)
        # The list lays out every line again on each append; measured once, a line costs
        # nothing the next time (700 lines: 20 ms an append without this).
        self._sizes: dict[tuple, QSize] = {}

    def sizeHint(self, option, index) -> QSize:
        line: LogLine = index.data(ROLE_LINE)
        width = max(80, option.rect.width() - self.BAR - 12) if option.rect.width() > 0 else 240
        key = (line, width)
        size = self._sizes.get(key)
        if size is None:
            if len(self._sizes) > 20_000:
                self._sizes.clear()
            box = option.fontMetrics.boundingRect(0, 0, width, 10_000, Qt.TextWordWrap, self._label(line))
            size = self._sizes[key] = QSize(width, box.height() + 6)
        return size


class MoveLogPanel(QListWidget):
    """A list of LogLines. `hovered(index)` with the entry index under the pointer (-1 when
    it leaves), `picked(index)` on a click."""

    hovered = Signal(int)
    picked = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("moveLog")
        self.setMouseTracking(True)
        self.setWordWrap(True)
        self.setUniformItemSizes(False)
        self.setVerticalScrollMode(QListWidget.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setItemDelegate(_LineDelegate(self))
        font = QFont(self.font())
        font.setPointSizeF(max(8.0, font.pointSizeF() - 0.5))
        self.setFont(font)
        # Only the frame is styled: a style sheet on the list itself would also restyle
        # (and break) its scroll bar.
        self.setFrameShape(QListWidget.NoFrame)
        self.setToolTip("Every move so far, newest last. Point at a line to see it on the board.")
        self._hover = -1
        self.placeholder = "No moves yet."   # what an empty log says (a mode may say more)
        # Newest last, and in sight: the list follows new lines unless the person scrolled up
        # (followed on the scroll bar's range, which changes only once the new line is laid out).
        self._follow = True
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(lambda _lo, hi: bar.setValue(hi) if self._follow else None)
        bar.valueChanged.connect(lambda v: setattr(self, "_follow", v >= bar.maximum() - 4))
        self.entered.connect(lambda mi: self._hover_to(mi.data(ROLE_LINE).index))
        self.itemClicked.connect(lambda item: self.picked.emit(item.data(ROLE_LINE).index))

    def _hover_to(self, index: int) -> None:
        if index != self._hover:
            self._hover = index
            self.hovered.emit(index)

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self.count() == 0 and self.placeholder:   # never a blank box
            painter = QPainter(self.viewport())
            painter.setPen(QColor("#6c757d"))
            painter.drawText(self.viewport().rect().adjusted(8, 6, -8, -6), Qt.TextWordWrap | Qt.AlignTop,
                             self.placeholder)
            painter.end()

    def mouseMoveEvent(self, event) -> None:
        super().mouseMoveEvent(event)
        if self.itemAt(event.position().toPoint()) is None:   # below the last line: no line pointed at
            self._hover_to(-1)

    def viewportEvent(self, event) -> bool:
        if event.type() == QEvent.Leave:   # out of the lines (onto the scroll bar, or away)
            self._hover_to(-1)
        return super().viewportEvent(event)

    def leaveEvent(self, event) -> None:
        self._hover_to(-1)
        super().leaveEvent(event)

    def set_lines(self, lines: list[LogLine]) -> None:
        self.clear()
        self._follow = True
        for line in lines:
            self._add(line)
        self.scrollToBottom()

    def append(self, line: LogLine) -> None:
        self._add(line)

    def _add(self, line: LogLine) -> None:
        item = QListWidgetItem()
        item.setData(ROLE_LINE, line)
        item.setData(Qt.DisplayRole, _LineDelegate._label(line))   # for tests and screen readers
        self.addItem(item)

    def lines(self) -> list[LogLine]:
        return [self.item(i).data(ROLE_LINE) for i in range(self.count())]

    def select_entry(self, index: int | None) -> None:
        """Mark the line of entry `index` (a replay's position); None marks none."""
        self.clearSelection()
        if index is None:
            return
        for i in range(self.count()):
            if self.item(i).data(ROLE_LINE).index == index:
                self.item(i).setSelected(True)
                self.scrollToItem(self.item(i))
                return
