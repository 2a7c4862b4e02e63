"""Game of the States on the shared map: the Qt view over a stateside.engine.match.Match.

Buy and Sell and Junior: trucks and disks are tokens in the players' colours (with the
player's letter, so colour is never the only cue), each state's products are small icons
of our own, the reachable states of a move are highlighted (hover one to see the route,
click it to drive there), the last move's route is drawn, and the spinner turns to what
the match drew (click it or press Space when it is your spin). The side panel shows
whose turn it is, money per player, the prompts ("accept or spin again?"), the product
platform and the log. Trivia: the card of the state (shown to the asker only, after a
click), the question, and the answer typed (tolerant matching) or picked from four.

Card draws are resolved at once; computers act on a timer (AI_DELAY_MS); a save is the
match's log.
"""
from __future__ import annotations

import html
import random

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QKeySequence, QPainter, QShortcut
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QFormLayout, QFrame, QGraphicsItem, QHBoxLayout, QLabel,
    QLineEdit, QPushButton, QSpinBox, QTextBrowser, QVBoxLayout, QWidget,
)

from stateside.app.mode import AI_DELAY_MS, GameMode
from stateside.board.view import CALLOUT_STATES, TAB_H
from stateside.engine.match import CHANCE, HUMAN, Match
from stateside.errors import IllegalActionError, SaveError
from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.matching import UNKNOWN, answer_value
from stateside.games.game_of_the_states.rules import (
    MAX_PLAYERS, MIN_PLAYERS, VARIANT_TITLES, VARIANTS, GameOfTheStates,
)
from stateside.games.game_of_the_states.trivia import FACT_NAMES, QUESTIONS, facts_on, shown, truth, values
from stateside.games.game_of_the_states.widgets import PlatformWidget, SpinnerWidget, draw_icon

COLOURS = (("Red", "#d62828", "R"), ("Blue", "#1d6fd6", "B"), ("Green", "#2a9d3f", "G"),
           ("Yellow", "#f4c430", "Y"))
SEAT_KINDS = {"human": "Person", "ai:easy": "Computer (easy)", "ai:medium": "Computer (medium)",
              "ai:hard": "Computer (hard)"}
COMPUTER_NAMES = tuple(c[0] for c in COLOURS)   # default names: the colours
DEFAULT = {"variant": "buy-and-sell", "seats": ["human", "ai:medium"], "names": ["Red", "Blue"],
           "answers": "typed"}
PANEL_WIDTH = 340
BILL_COLOURS = {1000: "#d8ead2", 500: "#f3e3b5", 100: "#dfe7f3"}
LOG_LINES = 60


class ProductIcons(QGraphicsItem):
    """The product icons of one state, in a row above its label."""

    SIZE = 11.0

    def __init__(self, at: QPointF, products: list, size: float = SIZE):
        super().__init__()
        self.products = products
        self.SIZE = size
        self.setPos(at)
        self.setZValue(6)
        self.setToolTip("Products: " + ", ".join(p.name for p in products))
        self.setAcceptedMouseButtons(Qt.NoButton)

    def boundingRect(self) -> QRectF:
        w = len(self.products) * (self.SIZE + 1.5)
        return QRectF(-w / 2 - 1, -self.SIZE - 1, w + 2, self.SIZE + 2)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        f = QFont(painter.font())
        f.setPointSizeF(4.6 * self.SIZE / 11.0)
        f.setBold(True)
        painter.setFont(f)
        w = len(self.products) * (self.SIZE + 1.5)
        for i, prod in enumerate(self.products):
            r = QRectF(-w / 2 + i * (self.SIZE + 1.5), -self.SIZE, self.SIZE, self.SIZE * 0.8)
            draw_icon(painter, r, prod)


class SetupDialog(QDialog):
    """The way to play, 2-4 players (each a person or a computer) and Trivia's answers."""

    def __init__(self, setup: dict, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New Game of the States")
        form = QFormLayout(self)
        self.variant = QComboBox()
        for v in VARIANTS:
            self.variant.addItem(VARIANT_TITLES[v], v)
        self.variant.setCurrentIndex(VARIANTS.index(setup["variant"]))
        form.addRow("Way to play:", self.variant)
        self.count = QSpinBox()
        self.count.setRange(MIN_PLAYERS, MAX_PLAYERS)
        self.count.setValue(len(setup["seats"]))
        form.addRow("Players:", self.count)
        self.rows: list[QWidget] = []
        self.names: list[QLineEdit] = []
        self.kinds: list[QComboBox] = []
        for i in range(MAX_PLAYERS):
            row = QWidget()
            lay = QHBoxLayout(row)
            lay.setContentsMargins(0, 0, 0, 0)
            name = QLineEdit(setup["names"][i] if i < len(setup["names"]) else COMPUTER_NAMES[i])
            name.setMaxLength(20)
            kind = QComboBox()
            for k, label in SEAT_KINDS.items():
                kind.addItem(label, k)
            kind.setCurrentIndex(list(SEAT_KINDS).index(setup["seats"][i] if i < len(setup["seats"])
                                                         else "ai:medium"))
            lay.addWidget(name, 1)
            lay.addWidget(kind)
            cname, colour, letter = COLOURS[i]
            swatch = QLabel(f"<span style='background:{colour};color:{'#000' if letter == 'Y' else '#fff'};"
                            f"padding:1px 6px;border:1px solid #333'><b>{letter}</b></span> {cname}:")
            form.addRow(swatch, row)
            self.rows.append(row)
            self.names.append(name)
            self.kinds.append(kind)
        self.answers = QComboBox()
        self.answers.addItem("Typed (spelling forgiven a little)", "typed")
        self.answers.addItem("Four choices", "choices")
        self.answers.setCurrentIndex(0 if setup.get("answers", "typed") == "typed" else 1)
        form.addRow("Trivia answers:", self.answers)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.form = form
        self.count.valueChanged.connect(self._show)
        self.variant.currentIndexChanged.connect(self._show)
        self._show()

    def _show(self) -> None:
        for i, row in enumerate(self.rows):
            self.form.setRowVisible(row, i < self.count.value())
        self.form.setRowVisible(self.answers, self.variant.currentData() == "trivia")

    def result_setup(self) -> dict:
        n = self.count.value()
        names = [(self.names[i].text().strip() or COLOURS[i][0])[:20] for i in range(n)]
        return {"variant": self.variant.currentData(), "seats": [self.kinds[i].currentData() for i in range(n)],
                "names": names, "answers": self.answers.currentData()}


class GameOfTheStatesMode(GameMode):
    game_id = "game-of-the-states"
    title = "Game of the States"
    ai_delay_ms = AI_DELAY_MS

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.match: Match | None = None
        self.last_setup = dict(DEFAULT)
        self.card_shown = False          # Trivia: the asker has uncovered the card
        self.hover_route: list = []
        self._ai_timer = QTimer(self, singleShot=True, timeout=self._tick)
        self._build()
        self.start_game(DEFAULT)

    # --- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self.board_slot, 1)
        panel = QFrame()
        panel.setObjectName("gotsPanel")
        panel.setFixedWidth(PANEL_WIDTH)
        panel.setStyleSheet("QFrame#gotsPanel { background: #f7f3ea; border-left: 1px solid #d8d2c4; }")
        side = QVBoxLayout(panel)
        side.setContentsMargins(10, 8, 10, 8)
        side.setSpacing(6)
        self.header = QLabel()
        self.header.setStyleSheet("color:#1d3557; font-weight:bold; font-size:14px;")
        side.addWidget(self.header)
        self.players_label = QLabel()
        self.players_label.setTextFormat(Qt.RichText)
        self.players_label.setWordWrap(True)
        side.addWidget(self.players_label)
        self.spinner = SpinnerWidget()
        self.spinner.clicked.connect(self.spin)
        side.addWidget(self.spinner)
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        self.prompt.setTextFormat(Qt.RichText)
        self.prompt.setStyleSheet("QLabel { background:#fffdf7; border:1px solid #d8d2c4; border-radius:6px;"
                                  " padding:6px; font-size:13px; }")
        side.addWidget(self.prompt)
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color:#a4161a; font-weight:bold;")
        self.notice.hide()
        side.addWidget(self.notice)
        self.buttons_box = QWidget()
        self.buttons_layout = QVBoxLayout(self.buttons_box)
        self.buttons_layout.setContentsMargins(0, 0, 0, 0)
        self.buttons_layout.setSpacing(4)
        side.addWidget(self.buttons_box)
        # Trivia: the typed answer
        self.answer_row = QWidget()
        ar = QHBoxLayout(self.answer_row)
        ar.setContentsMargins(0, 0, 0, 0)
        self.answer_edit = QLineEdit()
        self.answer_edit.setPlaceholderText("Type your answer, then Enter")
        self.answer_edit.returnPressed.connect(self._typed_answer)
        answer_button = QPushButton("Answer")
        answer_button.clicked.connect(self._typed_answer)
        ar.addWidget(self.answer_edit, 1)
        ar.addWidget(answer_button)
        side.addWidget(self.answer_row)
        self.platform_title = QLabel("<b>Product platform</b>")
        side.addWidget(self.platform_title)
        self.platform = PlatformWidget()
        side.addWidget(self.platform)
        self.log_view = QTextBrowser()
        self.log_view.setStyleSheet("QTextBrowser { background: transparent; color: #333; border: none; }")
        side.addWidget(self.log_view, 1)
        row = QHBoxLayout()
        self.new_button = QPushButton("New game\u2026")
        self.new_button.setToolTip("Choose the way to play and the players")
        self.new_button.clicked.connect(self.new_game)
        row.addStretch(1)
        row.addWidget(self.new_button)
        side.addLayout(row)
        outer.addWidget(panel)
        self.panel = panel
        self.space = QShortcut(QKeySequence(Qt.Key_Space), self, self._space,
                               context=Qt.WidgetWithChildrenShortcut)

    # --- the match -----------------------------------------------------------------------
    @property
    def game(self) -> GameOfTheStates | None:
        return self.match.state if self.match is not None else None

    @property
    def variant(self) -> str:
        return self.game.variant if self.game is not None else "buy-and-sell"

    def start_game(self, choice: dict, seed: int | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        setup = {"players": list(choice["names"]), "variant": choice["variant"]}
        if choice["variant"] == "trivia":
            setup["answers"] = choice.get("answers", "typed")
        self.last_setup = dict(choice)
        self._install(Match(GameOfTheStates, list(choice["seats"]), seed, setup))

    def _install(self, match: Match) -> None:
        self._ai_timer.stop()
        self.match = match
        self.card_shown = False
        self._resolve_cards()
        self._refresh()
        self.changed.emit()
        self._schedule()

    def new_game(self) -> None:
        dialog = SetupDialog(self.last_setup, self)
        if dialog.exec() == QDialog.Accepted:
            choice = dialog.result_setup()
            self.start_game(choice)
            self.status.emit(f"New Game of the States: {VARIANT_TITLES[choice['variant']]}.")

    def save_state(self) -> dict | None:
        return self.match.to_json() if self.match is not None else None

    def load_state(self, state: dict) -> None:
        if not isinstance(state, dict) or state.get("game") != self.game_id:
            raise SaveError("Game of the States save: this is not a saved Game of the States")
        match = Match.from_json(state, "the save")
        setup = match.initial_setup
        self.last_setup = {"variant": setup.get("variant", VARIANTS[0]), "seats": list(match.seats),
                           "names": list(setup["players"]), "answers": setup.get("answers", "typed")}
        self._install(match)

    # --- whose move ----------------------------------------------------------------------
    def _spin_seat(self) -> int | None:
        """At a spin: the seat that spins; None when the next chance is no spin."""
        g = self.game
        if g is None or g.current_player() != CHANCE:
            return None
        outcomes = g.chance_outcomes()
        if not outcomes or not outcomes[0][0].startswith("spin:"):
            return None
        return g.observation(0)["spinner"]

    def _resolve_cards(self) -> None:
        m = self.match
        while m.state.current_player() == CHANCE and self._spin_seat() is None and not m.is_over():
            m.step()

    def is_human_turn(self) -> bool:
        return bool(self.match and not self.spinner.is_spinning() and self.match.waiting_for_human())

    def _schedule(self) -> None:
        self._ai_timer.stop()
        g = self.game
        if g is None or not self.active or g.is_terminal() or self.spinner.is_spinning():
            return
        who = self._spin_seat()
        if who is not None:
            if not self.match.is_human(who):
                self._ai_timer.start(self.ai_delay_ms)
            return
        if not self.match.waiting_for_human():
            self._ai_timer.start(self.ai_delay_ms)

    def _tick(self) -> None:
        if self.match is None or self.game.is_terminal() or self.spinner.is_spinning():
            return
        if self._spin_seat() is not None:
            self._do_spin()
            return
        if self.match.step() is not None:
            self._after_action()

    def _space(self) -> None:
        if self.board.is_typing():
            return
        self.spin()

    def spin(self) -> None:
        """A person spins (Space or a click on the spinner)."""
        who = self._spin_seat()
        if who is None or self.spinner.is_spinning():
            return
        if not self.match.is_human(who):
            self._refuse(f"Wait: {self.game.names[who]} spins.")
            return
        self._do_spin()

    def _do_spin(self) -> None:
        self._ai_timer.stop()
        entry = self.match.step()
        index = int(entry.action.split(":")[1])
        self.spinner.ready = False
        self.spinner.result = ""
        self.prompt.setText(f"{html.escape(entry.text)}\u2026")
        self.spinner.spin_to(index, self._after_action)

    def _human(self, action: str) -> None:
        g = self.game
        if g is None:
            return
        if g.is_terminal():
            self._refuse("The game is over: start a new one.")
            return
        if not self.is_human_turn():
            p = g.current_player()
            who = g.names[p] if p >= 0 else "the spinner"
            self._refuse(f"Wait: it is {who}'s turn." if p >= 0 else "Spin first (Space).")
            return
        try:
            self.match.apply(action)
        except IllegalActionError as e:
            self._refuse(f"{e}.")
            return
        self._after_action()

    def _after_action(self) -> None:
        self._resolve_cards()
        self.card_shown = False if self.game.variant == "trivia" and self.game.engine.phase != "ask" \
            else self.card_shown
        self._refresh()
        self.changed.emit()
        self._schedule()

    def _refuse(self, text: str) -> None:
        text = text[:1].upper() + text[1:]
        self.status.emit(text)
        self.notice.setText(text)
        self.notice.show()

    # --- the map ---------------------------------------------------------------------------
    def on_state_clicked(self, code: str) -> None:
        g = self.game
        if g is None or g.variant == "trivia":
            return
        if g.engine.phase != "move":
            if self._spin_seat() is not None and self.match.is_human(self._spin_seat()):
                self._refuse("Spin first: press Space or click the spinner.")
            return
        if f"move:{code}" not in g.legal_actions(g.current_player()):
            if self.is_human_turn():
                self._refuse(f"{parts.state_name(code)} cannot be reached with this spin: "
                             "click a highlighted state.")
            return
        self._human(f"move:{code}")

    def on_state_hovered(self, code: str) -> None:
        g = self.game
        for key in self.hover_route:
            self.board.remove_path(key)
        self.hover_route = []
        if g is None or g.variant == "trivia" or g.engine.phase != "move" or not self.is_human_turn():
            return
        if f"move:{code}" in g.legal_actions(g.current_player()):
            seat = g.current_player()
            route = parts.route(g.engine.truck[seat], code)
            for i, (a, b) in enumerate(zip(route, route[1:])):
                self.hover_route.append(self.board.add_path(a, b, style="dashed", colour=COLOURS[seat][1],
                                                            width=3.0, key=("gots-hover", i)))

    def on_activate(self) -> None:
        self._refresh()
        self._schedule()
        if self.game is not None and not self.game.is_terminal():
            self.status.emit(f"Game of the States, {VARIANT_TITLES[self.variant]}: New game\u2026 chooses another "
                             "way to play; Help > Rules explains them.")

    def on_deactivate(self) -> None:
        self._ai_timer.stop()

    def _draw_map(self) -> None:
        b = self.board
        b.clear_tokens()
        b.clear_paths()
        b.clear_highlight()
        b.clear_fills()
        self.hover_route = []
        b.remove_layer("gots-products")
        g = self.game
        if g is None:
            return
        e = g.engine
        names = g.names
        if g.variant == "trivia":
            if e.card:
                b.set_fill(e.card, "#ffd166")
            for seat, won in enumerate(e.won):
                for code in won:
                    b.set_fill(code, _tint(COLOURS[seat][1]))
            if e.card:
                b.set_fill(e.card, "#ffd166")
                b.set_highlight([e.card], "#e76f51")
            return
        if g.variant == "buy-and-sell":
            layer = b.layer("gots-products", z=6)
            cat = parts.catalogue()
            for code in parts.state_codes():
                at = b.state_anchor(code)
                prods = [cat[p] for p in parts.products(code)]
                if code in CALLOUT_STATES:    # on its tab, above the code
                    item = ProductIcons(QPointF(at.x(), at.y() - TAB_H / 2 + 9.5), prods, size=8.5)
                else:
                    item = ProductIcons(QPointF(at.x(), at.y() - 6), prods)
                layer.addToGroup(item)
            for d, rec in e.disks.items():
                if rec["state"] is None or rec["done"]:
                    continue
                cname, colour, letter = COLOURS[rec["owner"]]
                if rec["jam"]:
                    tip = (f"{names[rec['owner']]}'s disk ({parts.product_name(rec['product'])}), left by "
                           f"{names[rec['carrier']]}'s jammed truck: an empty truck takes it over for $200")
                    b.add_token(rec["state"], colour=colour, shape="square", label=letter, tooltip=tip,
                                key=("gots-disk", d))
                else:
                    b.add_token(rec["state"], colour=colour, shape="disk", label=letter,
                                tooltip=f"{names[rec['owner']]}'s product disk for sale", key=("gots-disk", d))
            for seat, dest in enumerate(e.dest):
                if dest:
                    b.add_token(dest, colour=COLOURS[seat][1], shape="marker", label="",
                                tooltip=f"{names[seat]}'s destination", key=("gots-dest", seat))
        else:
            for seat, home in enumerate(e.home):
                if home:
                    b.add_token(home, colour=COLOURS[seat][1], shape="star", label="",
                                tooltip=f"{names[seat]}'s home", key=("gots-home", seat))
                dest = e.dest[seat]
                if dest and dest != home:
                    b.add_token(dest, colour=COLOURS[seat][1], shape="marker", label="",
                                tooltip=f"{names[seat]}'s destination", key=("gots-dest", seat))
        for seat, code in enumerate(e.truck):
            if code:
                load = ""
                if g.variant == "buy-and-sell" and e.load[seat]:
                    rec = e.disks[e.load[seat]]
                    load = (f", carrying {names[rec['owner']]}'s {parts.product_name(rec['product'])} to "
                            f"{parts.state_name(e.dest[seat])}")
                b.add_token(code, colour=COLOURS[seat][1], shape="truck", label=COLOURS[seat][2],
                            tooltip=f"{names[seat]}'s truck{load}", key=("gots-truck", seat))
        last = e.last_move
        if last and len(last["route"]) > 1:
            colour = COLOURS[last["seat"]][1]
            for i, (a, c) in enumerate(zip(last["route"], last["route"][1:])):
                b.add_path(a, c, colour=colour, width=3.5, key=("gots-route", i),
                           tooltip=f"{names[last['seat']]}'s last move")
        if e.phase == "move" and self.match.is_human(e.turn):
            ends = [a[5:] for a in g.legal_actions(e.turn)]
            b.set_highlight(ends, COLOURS[e.turn][1] if e.turn != 3 else "#b8860b")

    # --- the panel -------------------------------------------------------------------------
    def _clear_buttons(self) -> None:
        while self.buttons_layout.count():
            item = self.buttons_layout.takeAt(0)
            w = item.widget()
            if w is not None:
                w.deleteLater()
            elif item.layout() is not None:
                lay = item.layout()
                while lay.count():
                    sub = lay.takeAt(0)
                    if sub.widget() is not None:
                        sub.widget().deleteLater()

    def _button(self, text: str, action, tip: str = "", shortcut: str | None = None, row=None) -> QPushButton:
        button = QPushButton(text)
        if tip:
            button.setToolTip(tip)
        if shortcut:
            button.setShortcut(QKeySequence(shortcut))
        button.clicked.connect(action)
        (row or self.buttons_layout).addWidget(button)
        return button

    def _refresh(self) -> None:
        self.notice.hide()
        g = self.game
        if g is None:
            return
        self.header.setText(f"Game of the States \u2013 {VARIANT_TITLES[g.variant]}")
        trivia = g.variant == "trivia"
        self.spinner.setVisible(not trivia)
        # Space spins only while a person's spin is due (never while an answer is typed)
        who = self._spin_seat()
        self.space.setEnabled(who is not None and self.match.is_human(who))
        self.platform.setVisible(g.variant == "buy-and-sell")
        self.platform_title.setVisible(g.variant == "buy-and-sell")
        self.answer_row.setVisible(False)
        self._clear_buttons()
        self._draw_map()
        self._draw_players()
        if trivia:
            self._trivia_panel()
        else:
            self._spin_panel()
        if g.variant == "buy-and-sell":
            on: dict[str, list[str]] = {}
            for d, product in g.engine.platform:
                on.setdefault(product, []).append(COLOURS[g.engine.disks[d]["owner"]][1])
            self.platform.set_disks(on)
        self.log_view.setHtml(self._log_html())
        self.log_view.verticalScrollBar().setValue(self.log_view.verticalScrollBar().maximum())

    def _badge(self, seat: int) -> str:
        name, colour, letter = COLOURS[seat]
        fg = "#000" if letter == "Y" else "#fff"
        return (f"<span style='background:{colour};color:{fg};'>&nbsp;<b>{letter}</b>&nbsp;</span>&nbsp;"
                f"{html.escape(self.game.names[seat])}")

    def _who(self, seat: int) -> str:
        kind = self.match.seats[seat]
        if kind == HUMAN:
            return " <span style='color:#777'>(you)</span>" if len(self.match.humans()) == 1 else ""
        return f" <span style='color:#777'>(computer{', ' + kind[3:] if ':' in kind else ''})</span>"

    def _draw_players(self) -> None:
        g = self.game
        e = g.engine
        rows = []
        current = g.current_player()
        for seat in range(g.num_players):
            turn = (seat == current) or (current == CHANCE and self._spin_seat() == seat)
            arrow = "\u25b6" if turn else "&nbsp;&nbsp;"
            if g.variant == "trivia":
                what = f"{len(e.won[seat])} card{'s' * (len(e.won[seat]) != 1)}"
                extra = ""
            else:
                what = f"${e.money[seat]:,}"
                extra = ""
                if g.variant == "buy-and-sell" and e.load[seat]:
                    rec = e.disks[e.load[seat]]
                    jam = " (jammed)" if rec["jam"] else ""
                    extra = (f"<br>&nbsp;&nbsp;&nbsp;&nbsp;carries {html.escape(g.names[rec['owner']])}'s "
                             f"{parts.product_name(rec['product']).lower()} to {parts.state_name(e.dest[seat])}{jam}")
                elif g.variant == "junior":
                    if e.finished[seat]:
                        extra = "<br>&nbsp;&nbsp;&nbsp;&nbsp;home"
                    elif e.dest[seat]:
                        extra = (f"<br>&nbsp;&nbsp;&nbsp;&nbsp;to {parts.state_name(e.dest[seat])}"
                                 f" ({e.pile[seat]} card{'s' * (e.pile[seat] != 1)} left)")
            rows.append(f"<tr><td>{arrow}</td><td>{self._badge(seat)}{self._who(seat)}{extra}</td>"
                        f"<td align='right'><b>{what}</b></td></tr>")
        pay = self._last_payment()
        self.players_label.setText("<table width='100%' cellspacing='2'>" + "".join(rows) + "</table>" + pay)

    def _last_payment(self) -> str:
        """The last payment of the game as bills changing hands."""
        if self.game.variant == "trivia":
            return ""
        for entry in reversed(self.match.log[-30:]):
            for ev in reversed(entry.events):
                if ev.kind in ("pay", "sale", "deliver", "takeover", "bonus") and "$" in ev.text:
                    amount = int(ev.text.split("$")[1].split()[0].replace(",", "").rstrip(".()"))
                    bills = "".join(f"<span style='background:{BILL_COLOURS[b]};color:#123;border:1px solid #5a7"
                                    f"'>&nbsp;${b:,}&nbsp;</span> " for b in parts.bills_for(amount))
                    text = html.escape(ev.text.split(" (")[0].rstrip("."))
                    return f"<div style='font-size:11px;color:#444'>{text}:<br>{bills}</div>"
        return ""

    def _spin_panel(self) -> None:
        g = self.game
        e = g.engine
        names = g.names
        spin_seat = self._spin_seat()
        self.spinner.ring = "price" if (spin_seat is not None and e.observation(0).get("spin_for") not in
                                        ("move",)) else "move"
        self.spinner.ready = spin_seat is not None and self.match.is_human(spin_seat)
        self.spinner.update()
        if g.is_terminal():
            self.prompt.setText(self._final_html())
            return
        if spin_seat is not None:
            what = {"first": "to see who goes first (highest price)", "move": "to move",
                    "price": "the price", "price again": "the second price (it must be taken)",
                    "sale": "the sale price", "sale again": "the second price (it must be taken)"}
            spin_for = e.observation(0).get("spin_for", "move")
            if self.match.is_human(spin_seat):
                self.prompt.setText(f"<b>{html.escape(names[spin_seat])}</b>, spin {what.get(spin_for, '')}: "
                                    f"press <b>Space</b> or click the spinner.")
            else:
                self.prompt.setText(f"{html.escape(names[spin_seat])} spins {what.get(spin_for, '')}\u2026")
            return
        p = g.current_player()
        human = self.match.is_human(p)
        who = html.escape(names[p])
        if e.phase == "move":
            target = ""
            if g.variant == "junior" or e.load[p]:
                target = f" toward <b>{parts.state_name(e.dest[p])}</b>"
            elif not e.targets(p):
                target = " (no disk to buy: go where you like)"
            else:
                target = " toward a disk to buy"
            if human:
                self.prompt.setText(f"<b>{who}</b>: move {e.k} state{'s' * (e.k != 1)}{target}. Click a "
                                    f"highlighted state (hover to see the route).")
            else:
                self.prompt.setText(f"{who} moves {e.k}{target}\u2026")
        elif e.phase == "deal":
            self.prompt.setText(f"<b>{who}</b>: two things to do in {parts.state_name(e.truck[p])}. Choose one.")
            if human:
                for a in g.legal_actions(p):
                    kind, _, other = a.partition(":")
                    text = (f"Buy {names[int(other)]}'s disk" if kind == "buy"
                            else f"Take over the disk {names[int(other)]} left ($200)")
                    self._button(text, lambda _=False, a=a: self._human(a))
        elif e.phase == "product":
            code = e.disks[e.disk]["state"]
            buyer = html.escape(names[e.turn])
            self.prompt.setText(f"{buyer} wants to buy in <b>{parts.state_name(code)}</b>. "
                                f"<b>{who}</b>, what do you sell?")
            if human:
                for a in g.legal_actions(p):
                    self._button(parts.product_name(a[8:]), lambda _=False, a=a: self._human(a))
        elif e.phase == "decide":
            rec = e.disks[e.disk]
            product = parts.product_name(rec["product"]).lower()
            if e.spin_for == "price":
                line = (f"{html.escape(names[e.turn])} offers <b>${e.price:,}</b> for {who}'s {product}.")
            else:
                line = (f"{html.escape(names[rec['owner']])} spun <b>${e.price:,}</b> to buy back the "
                        f"{product}.")
            if human:
                self.prompt.setText(f"{line}<br><b>{who}</b>: accept ${e.price:,}, or spin again "
                                    f"(the second price must be taken, even if lower)?")
                row = QHBoxLayout()
                self.buttons_layout.addLayout(row)
                self._button(f"Accept ${e.price:,}", lambda: self._human("accept"), "Take this price (Enter)",
                             "Return", row=row)
                self._button("Spin again", lambda: self._human("respin"),
                             "Ask for one more spin; its price must be taken (R)", "R", row=row)
            else:
                self.prompt.setText(f"{line} {who} decides\u2026")

    # --- Trivia ----------------------------------------------------------------------------
    def _trivia_panel(self) -> None:
        g = self.game
        e = g.engine
        names = g.names
        if g.is_terminal():
            self.prompt.setText(self._final_html())
            return
        if e.phase == "ask":
            asker = html.escape(names[e.asker])
            state = parts.state_name(e.card)
            answerer = html.escape(names[(e.asker + 1) % g.num_players])
            if not self.match.is_human(e.asker):
                self.prompt.setText(f"{asker} draws the card of <b>{state}</b> and picks a question for "
                                    f"{answerer}\u2026")
                return
            humans = len(self.match.humans())
            if humans > 1 and not self.card_shown:
                self.prompt.setText(f"<b>{asker}</b> draws the card of <b>{state}</b>. Others look away: "
                                    f"{asker}, show your card.")
                self._button(f"Show {asker}'s card", self._show_card)
                return
            facts = "".join(f"<tr><td>{html.escape(FACT_NAMES[f].capitalize())}:</td>"
                            f"<td><b>{html.escape(shown(e.card, f))}</b></td></tr>" for f in facts_on(e.card))
            self.prompt.setText(f"<b>{asker}</b>, your card: <b>{state}</b><table>{facts}</table>"
                                f"Ask {answerer} about one fact:")
            for a in g.legal_actions(e.asker):
                fact = a[4:]
                self._button(f"Ask the {FACT_NAMES[fact]}", lambda _=False, a=a: self._human(a))
            return
        if e.phase == "answer":
            q = QUESTIONS[e.fact].format(s=parts.state_name(e.card))
            tried = "".join(f"<br>{html.escape(names[s])}: {html.escape(e.say_text(v) if v != UNKNOWN else '?')}"
                            f" \u2013 wrong" for s, v in e.tried)
            who = html.escape(names[e.answerer])
            extra = " (right within one million)" if e.fact == "population" else ""
            if not self.match.is_human(e.answerer):
                self.prompt.setText(f"<b>{html.escape(names[e.asker])}</b> asks: {html.escape(q)}{extra}{tried}"
                                    f"<br>{who} thinks\u2026")
                return
            self.prompt.setText(f"<b>{html.escape(names[e.asker])}</b> asks <b>{who}</b>: "
                                f"{html.escape(q)}{extra}{tried}")
            if e.answers == "choices":
                for a in g.legal_actions(e.answerer):
                    self._button(e.say_text(a[4:]), lambda _=False, a=a: self._human(a))
            else:
                self.answer_row.setVisible(True)
                self.answer_edit.clear()
                self.answer_edit.setFocus()
                self._button("I don't know", lambda: self._human(f"say:{UNKNOWN}"))

    def _show_card(self) -> None:
        self.card_shown = True
        self._refresh()

    def _typed_answer(self) -> None:
        g = self.game
        if g is None or g.variant != "trivia" or g.engine.phase != "answer":
            return
        text = self.answer_edit.text()
        if not text.strip():
            self._refuse("Type an answer first (or press I don't know).")
            return
        e = g.engine
        right = truth(e.card, e.fact)
        candidates = [right] + [v for v in values(e.fact) if v != right]
        self._human(f"say:{answer_value(text, e.fact, candidates)}")

    # --- text ----------------------------------------------------------------------------
    def _final_html(self) -> str:
        g = self.game
        scores = g.scores()
        order = sorted(range(g.num_players), key=lambda s: -scores[s])
        unit = (lambda v: f"{int(v)} cards") if g.variant == "trivia" else (lambda v: f"${int(v):,}")
        winners = [s for s in range(g.num_players) if g.returns()[s] > 0]
        head = " and ".join(html.escape(g.names[s]) for s in winners) + (" wins!" if len(winners) == 1
                                                                         else " share the win!")
        lines = "".join(f"<br>{self._badge(s)}: <b>{unit(scores[s])}</b>" for s in order)
        return f"<b style='font-size:15px'>{head}</b>{lines}<br>New game\u2026 plays again."

    def _log_html(self) -> str:
        lines = []
        for entry in self.match.log[-LOG_LINES:]:
            for ev in entry.events:
                if ev.kind in ("setup", "home") and entry.seat == CHANCE and len(self.match.log) > 30:
                    continue
                lines.append(html.escape(ev.text))
        return "<div style='font-size:11px'>" + "<br>".join(lines[-LOG_LINES:]) + "</div>"

    # --- undo ----------------------------------------------------------------------------
    def _undo_index(self) -> int | None:
        """A person takes back their last action only while nothing happened after it (no
        other seat, and no spin or card either: its outcome would be known)."""
        m = self.match
        if m is None or m.is_over() or not m.log or self.spinner.is_spinning():
            return None
        last = m.log[-1]
        if last.seat < 0 or not m.is_human(last.seat):
            return None
        return m.fair_undo_point(last.seat)

    def can_undo(self) -> bool:
        return self._undo_index() is not None

    def undo(self) -> None:
        index = self._undo_index()
        if index is None:
            return
        self.match.undo_to(index)
        self._install(self.match)
        self.status.emit("Took back your last move.")

    # --- help ----------------------------------------------------------------------------
    def help_html(self) -> str:
        odds = parts.spinner_odds()
        move_odds = ", ".join(f"{k}: {round(v * 100)}%" for k, v in sorted(odds["move"].items()))
        price_odds = ", ".join(f"${k:,}" for k in odds["price"])
        sectors = " &middot; ".join(f"${s.price:,}/{s.move_text()}" for s in parts.sectors())
        cat = parts.catalogue()
        products = "".join(
            f"<tr><td>{parts.state_name(c)}</td><td>{', '.join(cat[p].name + ' (' + cat[p].icon + ')' for p in parts.products(c))}"
            f"</td><td><small>{html.escape(parts.products_source(c))}</small></td></tr>" for c in parts.state_codes())
        return f"""
<h2>Game of the States</h2>
<p>Three ways to play on one map, with 50 state cards and a spinner. Choose one with
<b>New game&hellip;</b> (also the players: 2 to 4, each a person or a computer).</p>

<h3>Buy and Sell</h3>
<ul>
<li><b>Setup.</b> Each player has four product disks and a truck of one colour and $5,000 (two $1,000,
five $500 and five $100 bills). Four cards are drawn for each player's disks and a fifth for the truck;
the cards go back to the bottom of the draw pile. Everyone spins: the highest price goes first (ties spin
again).</li>
<li><b>Moving.</b> Spin and move your truck 0 to 3 states toward a state with an opponent's disk (or, when
loaded, toward your destination). The states you may reach are highlighted; hover one to see the route,
click it to drive. You do not need the exact count to arrive. Alaska is reached only through Washington,
Hawaii only through California. Trucks pass through states with trucks and disks.</li>
<li><b>Buying.</b> Ending on an opponent's disk, you buy it: the owner names one of the state's products,
you spin the price on the outer band. The owner may accept or ask for one more spin, whose price must be
taken even if lower. You pay, load the disk and draw your destination card at once.</li>
<li><b>Delivering.</b> At the destination you sell the disk back to its owner: the owner spins and pays you
(you may ask for one more spin, which must be taken). The disk goes on its product's space on the
platform. Your turn ends there: the next disk is for the next turn.</li>
<li><b>Traffic Jam.</b> Your truck stays put until your next turn; a disk you carry is left on the state.
Another player with an empty truck who ends a move there takes it over: pays you $200, takes your card and
delivers it as usual. Buying back your own disk this way, you deliver it and put it on the platform
without a spin and collect $200 from the bank. If nobody takes it, it goes back in your truck at your next
turn.</li>
<li><b>The end.</b> When every disk is on the platform, the most money wins.</li>
</ul>
<p><b>Our decisions where the rulebook is silent.</b> <i>Special Rule #3</i> is named by the rulebook but
not printed: a destination card that names the state your truck is in, a state with one of your own disks
for sale or a state with one of the seller's disks for sale goes to the bottom of the draw pile and you draw
again. Nobody pays more than they have (they pay all they have). With two things to do in one state (a
disk for sale and a jammed disk) you choose one. Destination cards lie face up. "Move toward" is kept
strictly: every move ends on a shortest route to a target, or on the target.</p>

<h3>Trivia</h3>
<p>Draw a card and ask the player on your left about one fact on it: nickname, population (in millions:
right within one million), capital, year settled, year it entered the union (the year only) or rank of
entry. A right answer wins the card; a wrong one passes to the next player on the left; if nobody is right
you keep the card. After all 50 cards the most cards wins. Answers are typed (case, accents, punctuation,
"St."/"Saint", a leading "The", a missing "State" in a nickname and one typo in a long name are
forgiven) or, as a setting, picked from four choices. With several people at one screen the asker
uncovers the card with a click while the others look away. Hawaii's card has no year settled.</p>

<h3>Junior</h3>
<p>Each player's truck, loaded with one disk, starts on a home state drawn from the deck; four more cards
lie face down. Turn over a card, spin and drive there (no exact count needed); on arrival spin a sale and
collect it from the bank, then turn over the next card. After the fourth card go home: the first player
home collects a $500 bonus and a sale; the others play on until home (a sale, no bonus). The most money
wins. (There is no "better price" in Junior.)</p>

<h3>Our parts</h3>
<p>The rulebook's board symbols, spinner and money are physical parts we do not have: these are our own
design (data in <code>resources/game_of_the_states/</code>).</p>
<p><b>The spinner:</b> twenty equal sectors, each with a price on the outer band and a move (or Traffic Jam)
inside. Moves: {move_odds}. Prices {price_odds}: 10% each. Clockwise from the top: {sectors}.</p>
<p><b>The money:</b> $5,000 per player in Buy and Sell as two $1,000, five $500 and five $100 bills;
Junior players start with none; the bank never runs out. Payments are shown as bills in the log.</p>
<p><b>The products</b> (1 to 4 per state, icons of our own; the platform has one space per product), with
the public sources they come from:</p>
<table cellspacing="2">{products}</table>
<h3>Computer players</h3>
<p>Buy and Sell: accepts a price of $600 or more (a re-spin is worth $550 on average) and heads first for
disks left in traffic jams (they cost $200). Trivia: each level knows each kind of fact with a chance
(hard: capitals 92%, nicknames 85%, populations 80%, years of entry 70%, ranks 60%, years settled 35%;
easy: 45%, 35%, 30%, 15%, 10%, 5%) and asks the fact it thinks hardest.</p>
"""


def _tint(hex_colour: str, amount: float = 0.6) -> QColor:
    c = QColor(hex_colour)
    return QColor(int(c.red() + (255 - c.red()) * amount), int(c.green() + (255 - c.green()) * amount),
                  int(c.blue() + (255 - c.blue()) * amount))


__all__ = ["GameOfTheStatesMode"]
