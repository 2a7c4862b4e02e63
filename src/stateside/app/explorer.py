"""Map explorer: click a state to see its facts and its neighbours under each game's rules."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
)

from stateside.app.mode import GameMode
from stateside.geo.rulesets import RULESETS

SELECTED = QColor("#e63946")
NEIGHBOUR = QColor("#f4a261")


class ExplorerMode(GameMode):
    game_id = "explorer"
    title = "Map explorer"

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.selected: str | None = None

        panel = QFrame(self)
        panel.setObjectName("sidePanel")
        panel.setFixedWidth(300)
        side = QVBoxLayout(panel)
        heading = QLabel("<h2 style='margin:0'>Map explorer</h2>"
                         "<p style='color:#555'>Click a state, or type its name or code and press Enter.</p>")
        heading.setWordWrap(True)
        side.addWidget(heading)
        side.addWidget(QLabel("Borders as played in:"))
        self.rules_box = QComboBox()
        self.rules_box.addItem("Map borders (shared line)", None)
        for ruleset, label in RULESETS.items():
            self.rules_box.addItem(label, ruleset)
        self.rules_box.currentIndexChanged.connect(lambda _i: self._show())
        side.addWidget(self.rules_box)

        self.title_label = QLabel()
        self.title_label.setWordWrap(True)
        side.addWidget(self.title_label)
        self.facts = QFormLayout()
        self.facts.setLabelAlignment(Qt.AlignRight)
        self.fact_labels: dict[str, QLabel] = {}
        for key, label in (("capital", "Capital"), ("nickname", "Nickname"), ("admitted", "Admitted"),
                           ("population", "Population (2020)"), ("area", "Area"), ("settled", "Settled"),
                           ("region", "Census region"), ("mississippi", "Mississippi")):
            value = QLabel("\u2014")
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextSelectableByMouse)
            self.fact_labels[key] = value
            self.facts.addRow(label + ":", value)
        side.addLayout(self.facts)
        self.neighbour_title = QLabel("<b>Neighbours</b>")
        side.addWidget(self.neighbour_title)
        self.neighbours = QListWidget()
        self.neighbours.itemActivated.connect(lambda item: self.select(item.data(Qt.UserRole)))
        self.neighbours.itemClicked.connect(lambda item: self.select(item.data(Qt.UserRole)))
        side.addWidget(self.neighbours, 1)
        self.rule_note = QLabel()
        self.rule_note.setWordWrap(True)
        self.rule_note.setStyleSheet("color:#555")
        side.addWidget(self.rule_note)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.board_slot, 1)
        layout.addWidget(panel)
        self._show()

    def on_state_clicked(self, code: str) -> None:
        self.select(code)

    @property
    def states(self):
        from stateside.data.states import load_states   # read on first use, not at start-up

        return load_states()

    @property
    def ruleset(self) -> str | None:
        return self.rules_box.currentData()

    def select(self, code: str | None) -> None:
        self.selected = code
        self._show()
        if code:
            n = len(self._neighbours(code))
            self.status.emit(f"{self.states[code].name}: {n} {'neighbour' if n == 1 else 'neighbours'}")

    def _neighbours(self, code: str) -> list[str]:
        from stateside.geo.borders import load_borders   # derived on first use

        return sorted(load_borders(self.ruleset).neighbours(code))

    def on_activate(self) -> None:
        self._show()

    def _show(self) -> None:
        board = self.board
        if self.active:
            board.clear_fills()
            board.clear_highlight()
        self.neighbours.clear()
        code = self.selected
        if not code:
            self.title_label.setText("<h3>No state selected</h3>")
            for value in self.fact_labels.values():
                value.setText("\u2014")
            self.rule_note.setText("")
            return
        s = self.states[code]
        nbs = self._neighbours(code)
        if self.active:
            board.set_fill(code, SELECTED)
            board.set_fills({n: NEIGHBOUR for n in nbs})
            board.set_highlight([code], "#1d3557")
        self.title_label.setText(f"<h3 style='margin-bottom:0'>{s.name} ({s.code})</h3>")
        f = self.fact_labels
        f["capital"].setText(s.capital)
        f["nickname"].setText(s.nickname)
        f["admitted"].setText(f"{s.admitted} (state no. {s.admission_order})")
        f["population"].setText(f"{s.population_2020:,}")
        f["area"].setText(f"{s.area_total_sq_mi:,.0f} sq mi ({s.area_land_sq_mi:,.0f} land)")
        f["settled"].setText(str(s.settled) if s.settled else "no single date")
        f["region"].setText(f"{s.region} \u2013 {s.division}")
        f["mississippi"].setText(f"mostly {s.mississippi} of the river")
        self.neighbour_title.setText(f"<b>Neighbours</b> ({len(nbs)})")
        for n in nbs:
            item = QListWidgetItem(f"{self.states[n].name} ({n})")
            item.setData(Qt.UserRole, n)
            self.neighbours.addItem(item)
        if not nbs:
            self.neighbours.addItem("none: reached only by air or sea")
        self.rule_note.setText(
            "Borders are shared lines; states meeting at a single point (the Four Corners) do not border."
            if self.ruleset is None else "Includes this game's rule corrections (e.g. Alaska and Hawaii).")

    def save_state(self) -> dict | None:
        return None

    def help_html(self) -> str:
        return (
            "<h2>Map explorer</h2>"
            "<p>Click a state (or its tab in the Atlantic for the small eastern states) to see its "
            "facts and its neighbours. Type a state's name or postal code and press Enter to select it "
            "with the keyboard.</p>"
            "<p>Two states border when they share a line of positive length; the Four Corners states "
            "(Arizona, Colorado, New Mexico, Utah) meet at a single point, so Arizona-Colorado and "
            "New Mexico-Utah are not borders. Each game may correct this: America makes Alaska and "
            "Hawaii neighbours; Game of the States reaches Alaska through Washington and Hawaii "
            "through California. Switch the rules with the box at the top.</p>"
            "<p>Zoom with the mouse wheel, a pinch or the + and - keys; 0 fits the map again; drag to "
            "pan.</p>"
            "<p>Facts: 2020 Census populations, Census 2010 area measurements and Census regions, "
            "from the US Census Bureau; the map is the Census Bureau's cartographic boundary file.</p>"
        )
