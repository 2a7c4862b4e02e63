"""The setup screen every game opens before a new game: how many players (as the game's
spec allows), each seat a person or a computer level with a name, who starts, and the
game's own options (which the mode adds as rows of the form)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from stateside.engine.match import MAX_NAME
from stateside.engine.protocol import GameSpec

HUMAN = "human"


@dataclass
class SeatChoice:
    name: str
    kind: str   # "human" or "ai:<level>"

    @property
    def human(self) -> bool:
        return self.kind == HUMAN


def kind_label(kind: str) -> str:
    return "Person" if kind == HUMAN else f"Computer ({kind.split(':', 1)[1]})"


# A game's options: given the form, add its rows and return what reads them back.
OptionsBuilder = Callable[[QFormLayout], Callable[[], dict]]


class SetupScreen(QDialog):
    """seats() / first() / options() once accepted."""

    def __init__(self, spec: GameSpec, title: str, seats: list[SeatChoice], *,
                 colours: list[str] | None = None, first: int | None = 0,
                 levels: tuple[str, ...] | None = None, default_names: list[str] | None = None,
                 options: OptionsBuilder | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"New game \u2013 {title}")
        self.spec = spec
        self.kinds = [HUMAN, *(f"ai:{lv}" for lv in (levels if levels is not None else spec.ai_levels))]
        self.default_names = default_names or [f"Player {i + 1}" for i in range(spec.max_players)]
        form = QFormLayout(self)
        self.form = form
        self.count = QSpinBox()
        self.count.setRange(spec.min_players, spec.max_players)
        self.count.setValue(min(max(len(seats), spec.min_players), spec.max_players))
        self.count.setEnabled(spec.min_players != spec.max_players)
        form.addRow("Players:", self.count)
        self.rows: list[QWidget] = []
        self.names: list[QLineEdit] = []
        self.kind_boxes: list[QComboBox] = []
        for i in range(spec.max_players):
            seat = (seats[i] if i < len(seats)
                    else SeatChoice(self.default_names[i], self.kinds[min(2, len(self.kinds) - 1)]))
            row = QWidget()
            lay = QHBoxLayout(row)
            lay.setContentsMargins(0, 0, 0, 0)
            name = QLineEdit(seat.name)
            name.setMaxLength(MAX_NAME)
            name.setPlaceholderText(self.default_names[i])
            kind = QComboBox()
            for k in self.kinds:
                kind.addItem(kind_label(k), k)
            kind.setCurrentIndex(self.kinds.index(seat.kind) if seat.kind in self.kinds else 0)
            lay.addWidget(name, 1)
            lay.addWidget(kind)
            label = QLabel(f"Seat {i + 1}:")
            if colours and i < len(colours):
                label.setText(f"<span style='color:{colours[i]}; font-size:16px'>\u25a0</span> Seat {i + 1}:")
            form.addRow(label, row)
            self.rows.append(row)
            self.names.append(name)
            self.kind_boxes.append(kind)
        self.first_box: QComboBox | None = None
        if first is not None:
            self.first_box = QComboBox()
            form.addRow("Who starts:", self.first_box)
            self._first = first
        self.read_options = options(form) if options is not None else (lambda: {})
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Ok).setText("Start")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.count.valueChanged.connect(self._update)
        for name in self.names:
            name.textChanged.connect(self._update_first)
        self._update()

    def _update(self) -> None:
        n = self.count.value()
        for i, row in enumerate(self.rows):
            self.form.setRowVisible(row, i < n)
        self._update_first()

    def _update_first(self) -> None:
        if self.first_box is None:
            return
        keep = self.first_box.currentIndex() if self.first_box.count() else self._first
        self.first_box.blockSignals(True)
        self.first_box.clear()
        for choice in self.seats():
            self.first_box.addItem(choice.name)
        self.first_box.setCurrentIndex(min(max(keep, 0), self.count.value() - 1))
        self.first_box.blockSignals(False)

    def seats(self) -> list[SeatChoice]:
        out = []
        for i in range(self.count.value()):
            name = " ".join(self.names[i].text().split())[:MAX_NAME] or self.default_names[i]
            out.append(SeatChoice(name, self.kind_boxes[i].currentData()))
        return out

    def first(self) -> int:
        return self.first_box.currentIndex() if self.first_box is not None else 0

    def options(self) -> dict:
        return self.read_options()
