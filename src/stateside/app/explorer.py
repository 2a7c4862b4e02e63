"""Map explorer: click a state to see its facts and its neighbours under each game's rules."""
from __future__ import annotations

# The panel's own widget classes are imported where the panel is built, after the map's
# first paint: PySide6 sets up each class, with its enums, on first use.
from typing import TYPE_CHECKING

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout

from stateside.app.mode import GameMode
from stateside.board.qt_lazy import Qt  # set up after the map's first paint
from stateside.geo.rulesets import RULESETS

if TYPE_CHECKING:   # the annotations' names; the classes themselves load with the panel
    from PySide6.QtWidgets import QComboBox, QListWidget

SELECTED = QColor("#e63946")
NEIGHBOUR = QColor("#f4a261")


class ExplorerMode(GameMode):
    game_id = "explorer"
    title = "Map explorer"

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.selected: str | None = None
        # The panel's frame now, its contents just after the map's first paint (or when
        # first needed): start-up is the time to a painted map, and building and painting
        # the contents cost about 25 ms of it. The frame keeps its width: nothing moves later.
        self.panel = QFrame(self)
        self.panel.setObjectName("sidePanel")
        self.panel.setFixedWidth(300)
        self._panel_built = False

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.board_slot, 1)
        layout.addWidget(self.panel)
        self._show()

    def ensure_panel(self) -> None:
        """Build the panel's contents (once)."""
        if self._panel_built:
            return
        self._panel_built = True
        from PySide6.QtWidgets import QComboBox, QFormLayout, QListWidget

        side = QVBoxLayout(self.panel)
        heading = QLabel("<h2 style='margin:0'>Map explorer</h2>"
                         "<p style='color:#555'>Click a state, or type its name or code and press Enter.</p>")
        heading.setWordWrap(True)
        side.addWidget(heading)
        side.addWidget(QLabel("Borders as played in:"))
        self._rules_box = QComboBox()
        self._rules_box.addItem("Map borders (shared line)", None)
        for ruleset, label in RULESETS.items():
            self._rules_box.addItem(label, ruleset)
        self._rules_box.currentIndexChanged.connect(lambda _i: self._show())
        side.addWidget(self._rules_box)

        self._title_label = QLabel()
        self._title_label.setWordWrap(True)
        side.addWidget(self._title_label)
        self.facts = QFormLayout()
        self.facts.setLabelAlignment(Qt.AlignRight)
        self._fact_labels: dict[str, QLabel] = {}
        for key, label in (("capital", "Capital"), ("nickname", "Nickname"), ("admitted", "Admitted"),
                           ("population", "Population (2020)"), ("area", "Area"), ("settled", "Settled"),
                           ("region", "Census region"), ("mississippi", "Mississippi")):
            value = QLabel("\u2014")
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextSelectableByMouse)
            self._fact_labels[key] = value
            self.facts.addRow(label + ":", value)
        side.addLayout(self.facts)
        self._neighbour_title = QLabel("<b>Neighbours</b>")
        side.addWidget(self._neighbour_title)
        self._neighbour_list = QListWidget()
        self._neighbour_list.itemActivated.connect(lambda item: self.select(item.data(Qt.UserRole)))
        self._neighbour_list.itemClicked.connect(lambda item: self.select(item.data(Qt.UserRole)))
        side.addWidget(self._neighbour_list, 1)
        self._rule_note = QLabel()
        self._rule_note.setWordWrap(True)
        self._rule_note.setStyleSheet("color:#555")
        side.addWidget(self._rule_note)
        self._show()

    # The panel's widgets, built on first use.
    @property
    def rules_box(self) -> QComboBox:
        self.ensure_panel()
        return self._rules_box

    @property
    def title_label(self) -> QLabel:
        self.ensure_panel()
        return self._title_label

    @property
    def fact_labels(self) -> dict[str, QLabel]:
        self.ensure_panel()
        return self._fact_labels

    @property
    def neighbour_title(self) -> QLabel:
        self.ensure_panel()
        return self._neighbour_title

    @property
    def neighbours(self) -> QListWidget:
        self.ensure_panel()
        return self._neighbour_list

    @property
    def rule_note(self) -> QLabel:
        self.ensure_panel()
        return self._rule_note

    def on_state_clicked(self, code: str) -> None:
        self.select(code)

    @property
    def states(self):
        from stateside.data.states import load_states  # read on first use, not at start-up

        return load_states()

    @property
    def ruleset(self) -> str | None:
        return self._rules_box.currentData() if self._panel_built else None

    def select(self, code: str | None) -> None:
        self.ensure_panel()
        self.selected = code
        self._show()
        if code:
            n = len(self._neighbours(code))
            self.status.emit(f"{self.states[code].name}: {n} {'neighbour' if n == 1 else 'neighbours'}")

    def _neighbours(self, code: str) -> list[str]:
        from stateside.geo.borders import load_borders  # derived on first use

        return sorted(load_borders(self.ruleset).neighbours(code))

    def on_activate(self) -> None:
        self._show()
        if not self._panel_built:
            from stateside.app.main import after_first_paint

            after_first_paint(self.board.viewport(), self.ensure_panel)

    def _show(self) -> None:
        board = self.board
        if self.active:
            board.clear_fills()
            board.clear_highlight()
        code = self.selected
        nbs = self._neighbours(code) if code else []
        if code and self.active:
            board.set_fill(code, SELECTED)
            board.set_fills({n: NEIGHBOUR for n in nbs})
            board.set_highlight([code], "#1d3557")
        if not self._panel_built:
            return
        self.neighbours.clear()
        if not code:
            self.title_label.setText("<h3>No state selected</h3>")
            for value in self.fact_labels.values():
                value.setText("\u2014")
            self.rule_note.setText("")
            return
        s = self.states[code]
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
        from PySide6.QtWidgets import QListWidgetItem

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
