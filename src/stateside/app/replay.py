"""Replays: Game > Replay… steps through a saved game, or the game just finished, on the
same board, read-only (first, back, forward, last, a slider, and play at a chosen speed).

The mode does the drawing (TurnBasedMode.start_replay / replay_to): this module holds the
bar of controls and the menu command."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QFrame, QHBoxLayout, QLabel, QPushButton, QSlider, QStyle, QWidget

SPEEDS = [("Slow (2 s a move)", 2000), ("Normal (1 s)", 1000), ("Fast (0.3 s)", 300)]


class ReplayBar(QFrame):
    """The controls of a replay. Emits `moved(n)` (show the game after its first n
    actions) and `closed()`; knows nothing of games."""

    moved = Signal(int)
    closed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("replayBar")
        self.setStyleSheet("QFrame#replayBar { background: #1d3557; border-radius: 4px; }"
                           "QFrame#replayBar QLabel { color: #f1faee; }")
        self.total = 0
        lay = QHBoxLayout(self)
        lay.setContentsMargins(6, 4, 6, 4)
        lay.setSpacing(4)
        self.title = QLabel("Replay")
        self.title.setStyleSheet("font-weight: bold;")
        lay.addWidget(self.title)

        def button(icon, tip: str, slot) -> QPushButton:
            # The style's own media icons: glyphs such as ⏮ are missing from many fonts.
            b = QPushButton(self.style().standardIcon(icon), "")
            b.setToolTip(tip)
            b.setFixedWidth(34)
            b.clicked.connect(slot)
            lay.addWidget(b)
            return b

        self.first_button = button(QStyle.SP_MediaSkipBackward, "First (Home)", lambda: self.go(0))
        self.back_button = button(QStyle.SP_MediaSeekBackward, "Back one move (Left)",
                                  lambda: self.go(self.position - 1))
        self.play_button = button(QStyle.SP_MediaPlay, "Play / pause", self.toggle_play)
        self.forward_button = button(QStyle.SP_MediaSeekForward, "Forward one move (Right)",
                                     lambda: self.go(self.position + 1))
        self.last_button = button(QStyle.SP_MediaSkipForward, "Last (End)", lambda: self.go(self.total))
        self.slider = QSlider(Qt.Horizontal)
        self.slider.setMinimumWidth(80)
        self.slider.valueChanged.connect(self.go)
        lay.addWidget(self.slider, 1)
        self.where = QLabel()
        self.where.setMinimumWidth(90)
        lay.addWidget(self.where)
        self.speed = QComboBox()
        for text, ms in SPEEDS:
            self.speed.addItem(text, ms)
        self.speed.setCurrentIndex(1)
        self.speed.setToolTip("How fast Play goes")
        self.speed.currentIndexChanged.connect(self._speed_changed)
        lay.addWidget(self.speed)
        close = QPushButton("Close replay")
        close.setToolTip("Back to the game (Esc)")
        close.clicked.connect(self.close_replay)
        lay.addWidget(close)
        self.timer = QTimer(self, timeout=self._tick)
        for key, slot in ((Qt.Key_Left, lambda: self.go(self.position - 1)),
                          (Qt.Key_Right, lambda: self.go(self.position + 1)),
                          (Qt.Key_Home, lambda: self.go(0)), (Qt.Key_End, lambda: self.go(self.total)),
                          (Qt.Key_Escape, self.close_replay)):
            QShortcut(QKeySequence(key), self, slot, context=Qt.WidgetWithChildrenShortcut)
        self.position = 0
        self.hide()

    def start(self, total: int, title: str) -> None:
        self.total = total
        self.title.setText(title)
        self.slider.blockSignals(True)
        self.slider.setRange(0, total)
        self.slider.blockSignals(False)
        self.position = -1
        self.show()
        self.go(total)

    def go(self, n: int) -> None:
        n = max(0, min(self.total, int(n)))
        if n == self.position:
            return
        self.position = n
        self.slider.blockSignals(True)
        self.slider.setValue(n)
        self.slider.blockSignals(False)
        self.where.setText(f"move {n} of {self.total}")
        self.first_button.setEnabled(n > 0)
        self.back_button.setEnabled(n > 0)
        self.forward_button.setEnabled(n < self.total)
        self.last_button.setEnabled(n < self.total)
        if n >= self.total and self.timer.isActive():
            self.timer.stop()
            self._show_play()
        self.moved.emit(n)

    def toggle_play(self) -> None:
        if self.timer.isActive():
            self.timer.stop()
        else:
            if self.position >= self.total:
                self.go(0)
            self.timer.start(self.speed.currentData())
        self._show_play()

    def _show_play(self) -> None:
        icon = QStyle.SP_MediaPause if self.timer.isActive() else QStyle.SP_MediaPlay
        self.play_button.setIcon(self.style().standardIcon(icon))

    def playing(self) -> bool:
        return self.timer.isActive()

    def _speed_changed(self) -> None:
        if self.timer.isActive():
            self.timer.start(self.speed.currentData())

    def _tick(self) -> None:
        self.go(self.position + 1)

    def close_replay(self) -> None:
        self.timer.stop()
        self._show_play()
        self.hide()
        self.closed.emit()


def replay_of(window, path) -> tuple:
    """The mode a saved game is replayed in (opened in the window) and its match, from the
    save at `path`; StatesideError saying what is wrong with it."""
    from stateside.engine.saves import read_save
    from stateside.errors import StatesideError

    game_id, body = read_save(path)
    if game_id not in window.mode_ids():
        raise StatesideError(f"{path}: a save of {game_id!r}, which is not installed")
    target = window.open_mode(game_id)
    if not target.replays:
        raise StatesideError(f"{target.title} has no replays")
    return target, target.match_from_save(body, str(path))


def start_replay(window) -> None:
    """Game > Replay…: the current game if it is over, otherwise a saved game chosen in a
    file dialog; opened in its game's mode."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from stateside.board.plain import literal
    from stateside.errors import StatesideError

    mode = window.current
    if mode is not None and mode.replays and mode.match is not None \
            and mode.match.is_over() and mode.replaying is None:
        mode.start_replay(mode.match)
        return
    folder = getattr(window, "last_folder", lambda: str(Path.home()))
    start = folder() if callable(folder) else str(folder)
    path, _ = window.modal(lambda: QFileDialog.getOpenFileName(
        window, "Replay a saved game", start, "Stateside saves (*.json);;All files (*)"))
    if not path:
        return
    try:
        target, match = replay_of(window, path)
        target.start_replay(match)
    except StatesideError as e:
        text = str(e) if str(path) in str(e) else f"{path}: {e}"
        QMessageBox.warning(window, "Cannot replay this file", literal(text))
        return
    if hasattr(window, "remember_folder"):
        window.remember_folder(path)
