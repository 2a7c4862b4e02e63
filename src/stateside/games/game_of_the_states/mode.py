"""Game of the States on the shared map: the Qt view over a Match, on the shared
turn-based scaffold (stateside.app.turns: setup screen, computer turns, pass screen, fair
undo, move log, score table, replays, online play).

Buy and Sell and Junior: trucks and disks are tokens in the players' colours (with the
player's letter, so colour is never the only cue), each state's products are small icons
of our own, the reachable states of a move are highlighted (hover one to see the route,
click it to drive there), the last move's route is drawn, and the spinner turns to what
the match drew (click it or press Space when it is your spin). Trivia: the card of the
state (its facts shown to the asker only, behind the pass screen when several people
share the screen), the question, and the answer typed (tolerant matching) or picked from
four.

A spin is a chance outcome that a person sets off: `next_actor` names the spinning seat,
the match draws the outcome when the spinner is clicked, and the flow waits (`busy`)
until the spinner has stopped on it; card draws are resolved at once.
"""
from __future__ import annotations

import html
import random

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QKeySequence, QPen, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFrame,
    QGraphicsEllipseItem,
    QGraphicsLineItem,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from stateside.app.setup_screen import SeatChoice, SetupScreen
from stateside.app.turns import ScoreTable, TurnBasedMode
from stateside.board.plain import button_text, literal, plain_label
from stateside.board.view import CALLOUT_STATES, TAB_H
from stateside.data.words import possessive
from stateside.engine.match import CHANCE, HUMAN, LogEntry, Match
from stateside.engine.tutorial import CHANCE_STEP
from stateside.games.game_of_the_states import parts
from stateside.games.game_of_the_states.help import help_html
from stateside.games.game_of_the_states.matching import UNKNOWN
from stateside.games.game_of_the_states.rules import VARIANT_TITLES, VARIANTS, GameOfTheStates
from stateside.games.game_of_the_states.trivia import FACT_NAMES, QUESTIONS, facts_on, shown, typed_action
from stateside.games.game_of_the_states.widgets import PlatformWidget, ProductIcons, SpinnerWidget

COLOURS = (("Red", "#d62828", "R"), ("Blue", "#1d6fd6", "B"), ("Green", "#2a9d3f", "G"),
           ("Yellow", "#f4c430", "Y"))
DEFAULT = {"variant": "buy-and-sell", "seats": ["human", "ai:medium"], "names": ["Red", "Blue"],
           "answers": "typed"}
PANEL_WIDTH = 340
BILL_COLOURS = {1000: "#d8ead2", 500: "#f3e3b5", 100: "#dfe7f3"}
# Events that say more than the action's own words: what it led to (a payment, a right
# answer, the end). The others only repeat the action.
CONSEQUENCES = {"first", "tie", "buy", "pay", "deliver", "platform", "reload", "over", "takeover", "arrive",
                "sale", "bonus"}
SAYS_IT_ALL = {"wrong", "kept", "right", "jam"}   # a Trivia answer, a Traffic Jam: the event alone


class GameOfTheStatesMode(TurnBasedMode):
    game_id = "game-of-the-states"
    title = "Game of the States"
    rules = GameOfTheStates
    private_view = "questions"   # the pass screen: "your questions appear when you are ready"

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.last_setup = dict(DEFAULT)
        self.hover_route: list = []
        self._spinning: tuple[Match, LogEntry] | None = None   # a spin drawn, the spinner still turning
        self._answer_for = -1            # the log length the answer box was cleared for
        self._build()
        self.start_game(DEFAULT)

    # --- layout --------------------------------------------------------------------------
    def _build(self) -> None:
        top = QVBoxLayout(self)   # the replay bar spans the mode: it fits at 1024 wide
        top.setContentsMargins(0, 0, 0, 0)
        top.setSpacing(0)
        top.addWidget(self.replay_bar)
        outer = QHBoxLayout()
        outer.setSpacing(0)
        top.addLayout(outer, 1)
        outer.addWidget(self.board_slot, 1)
        panel = QFrame()
        panel.setObjectName("gotsPanel")
        panel.setFixedWidth(PANEL_WIDTH)
        panel.setStyleSheet("QFrame#gotsPanel { background: #f7f3ea; border-left: 1px solid #d8d2c4; }")
        side = QVBoxLayout(panel)
        side.setContentsMargins(10, 8, 10, 8)
        side.setSpacing(5)
        head = QHBoxLayout()
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.header.setStyleSheet("color:#1d3557; font-weight:bold; font-size:14px;")
        head.addWidget(self.header, 1)
        self.new_button = QPushButton("New game\u2026")
        self.new_button.setToolTip("Choose the way to play and the players")
        self.new_button.clicked.connect(self.new_game)
        head.addWidget(self.new_button, 0, Qt.AlignTop)
        side.addLayout(head)
        self.players_label = QLabel()
        self.players_label.setTextFormat(Qt.RichText)
        self.players_label.setWordWrap(True)
        side.addWidget(self.players_label)
        # The spinner with the prompt beside it: the move log below keeps its lines at 1024x700.
        spin_row = QHBoxLayout()
        spin_row.setSpacing(6)
        self.spinner = SpinnerWidget()
        self.spinner.setFixedSize(140, 140)
        self.spinner.clicked.connect(self.spin)
        spin_row.addWidget(self.spinner, 0, Qt.AlignTop)
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        self.prompt.setTextFormat(Qt.RichText)
        self.prompt.setAlignment(Qt.AlignLeft | Qt.AlignVCenter)
        self.prompt.setStyleSheet("QLabel { background:#fffdf7; border:1px solid #d8d2c4; border-radius:6px;"
                                  " padding:6px; font-size:13px; }")
        spin_row.addWidget(self.prompt, 1)
        side.addLayout(spin_row)
        self.final_scores = ScoreTable()
        self.final_scores.hide()
        side.addWidget(self.final_scores)
        self.notice = plain_label()   # why a move was refused (a name or the table's word in it)
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
        self.platform_title = QLabel("<b>Product platform</b> <span style='color:#777'>(disks sold back)</span>")
        side.addWidget(self.platform_title)
        self.platform = PlatformWidget()
        side.addWidget(self.platform)
        log_title = QLabel("<b>Moves</b> <span style='color:#777'>(point at one to see it on the map)</span>")
        side.addWidget(log_title)
        self.log_panel.setMinimumHeight(110)
        side.addWidget(self.log_panel, 1)
        outer.addWidget(panel)
        self.panel = panel
        self.space = QShortcut(QKeySequence(Qt.Key_Space), self, self._space,
                               context=Qt.WidgetWithChildrenShortcut)

    # --- the match -----------------------------------------------------------------------
    @property
    def variant(self) -> str:
        return self.game.variant if self.game is not None else "buy-and-sell"

    def seat_colour(self, seat: int) -> str:
        return COLOURS[seat][1] if 0 <= seat < len(COLOURS) else super().seat_colour(seat)

    def start_game(self, choice: dict, seed: int | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        setup = {"players": list(choice["names"]), "variant": choice["variant"]}
        if choice["variant"] == "trivia":
            setup["answers"] = choice.get("answers", "typed")
        self.install(Match(GameOfTheStates, list(choice["seats"]), seed, setup))

    def on_install(self, state: dict | None) -> None:
        self.spinner.stop()
        self._spinning = None
        self._answer_for = -1
        self.hover_route = []
        self.board.remove_layer("gots-mark")
        setup = self.match.initial_setup   # New game… offers the same again
        self.last_setup = {"variant": setup.get("variant", VARIANTS[0]), "seats": list(self.match.seats),
                           "names": list(setup["players"]), "answers": setup.get("answers", "typed")}

    def new_game(self) -> None:
        last = self.last_setup
        seats = [SeatChoice(name, kind) for name, kind in zip(last["names"], last["seats"])]

        def options(form):
            variant = QComboBox()
            for v in VARIANTS:
                variant.addItem(VARIANT_TITLES[v], v)
            variant.setCurrentIndex(VARIANTS.index(last["variant"]))
            answers = QComboBox()
            answers.addItem("Typed (spelling forgiven a little)", "typed")
            answers.addItem("Four choices", "choices")
            answers.setCurrentIndex(0 if last.get("answers", "typed") == "typed" else 1)
            form.insertRow(0, "Way to play:", variant)
            form.addRow("Trivia answers:", answers)
            # Junior has no decisions but the route, and every legal move is on a shortest one
            alike = QLabel("In Junior every computer drives the same way: the level makes no difference.")
            alike.setWordWrap(True)
            form.addRow(alike)

            def shown_rows():
                form.setRowVisible(answers, variant.currentData() == "trivia")
                form.setRowVisible(alike, variant.currentData() == "junior")
            variant.currentIndexChanged.connect(shown_rows)
            shown_rows()
            return lambda: {"variant": variant.currentData(), "answers": answers.currentData()}

        # Who goes first is the rules' business (Buy and Sell: the highest spin).
        self.setup_screen = dialog = SetupScreen(
            self.rules.spec, "Game of the States", seats, colours=[c[1] for c in COLOURS], first=None,
            default_names=[c[0] for c in COLOURS], options=options, parent=self)
        if dialog.exec() != QDialog.Accepted:
            return
        chosen = dialog.seats()
        choice = {**dialog.options(), "seats": [s.kind for s in chosen], "names": [s.name for s in chosen]}
        self.start_game(choice)
        self.status.emit(f"New Game of the States: {VARIANT_TITLES[choice['variant']]}.")

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

    def next_actor(self) -> int:
        # Online the referee spins at once; here the spinner waits for its player.
        who = self._spin_seat() if self.online is None else None
        return who if who is not None else self.game.current_player()

    def busy(self) -> bool:
        return self._spinning is not None

    def computer_turn(self, seat: int) -> None:
        if self._spin_seat() == seat:
            self._spin()
        else:
            self.record(self.match.step())

    def act(self, action) -> bool:
        # At a spin the rules would take any sector as the "action": only the spinner draws it.
        if self.match is not None and self._spin_seat() is not None and self.is_human_turn():
            self.refuse("Spin first: press Space or click the spinner.")
            return False
        return super().act(action)

    def _space(self) -> None:
        if not self.board.is_typing():
            self.spin()

    def spin(self) -> None:
        """A person spins (Space or a click on the spinner)."""
        who = self._spin_seat()
        if who is None or self.busy() or self.match.is_over():
            return
        if self.refused_in_replay():
            return
        if self.online is not None:
            self.refuse("At an online table the spinner turns by itself.")
        elif not self.is_human_turn():
            self.refuse(f"Wait: {self.game.names[who]} spins.")
        elif (why := self.guard_refusal(CHANCE_STEP)) is not None:   # a tutorial waits for something else
            self.refuse(why)
        else:
            self._spin()

    def _spin(self) -> None:
        """Draw the spin now; it goes in the log when the spinner stops on it."""
        entry = self.match.step()
        self._spinning = (self.match, entry)
        self.refresh()
        self.spinner.spin_to(int(entry.action.split(":")[1]), self._spin_done)

    def _spin_done(self) -> None:
        match, entry = self._spinning
        self._spinning = None
        if match is self.match:
            self.record(entry)
        # (in a replay the live game's log is rebuilt, and the game moves on, when it closes)

    def undo_allowed(self, n: int) -> bool:
        # Beyond the shared rule (never past a spin or a card the person saw): never an
        # answer, whose own event tells the right one.
        return not self.match.log[n].action.startswith("say:")

    def refuse(self, text: str) -> None:
        super().refuse(text)
        self.notice.setText(text[:1].upper() + text[1:])
        self.notice.show()

    # --- the move log ----------------------------------------------------------------------
    def log_text(self, entry: LogEntry) -> str:
        answer = next((ev.text for ev in entry.events if ev.kind in SAYS_IT_ALL), None)
        if answer is not None:
            return answer
        more = [ev.text for ev in entry.events if ev.kind in CONSEQUENCES and ev.text]
        text = entry.words_for(self.log_viewer())   # a card only its asker may see yet: not named
        return " ".join([text + ("." if more else ""), *more])

    @staticmethod
    def actor_of(entry: LogEntry) -> int:
        """Who a logged action belongs to: a spin or a card drawn is its player's."""
        if entry.seat >= 0:
            return entry.seat
        seats = entry.events[0].seats if entry.events else ()
        return seats[0] if seats else entry.seat

    def line_seat(self, entry: LogEntry) -> int:
        return self.actor_of(entry)   # a spin or a card is the line of the player it is for

    def marked_states(self, entry: LogEntry) -> tuple[list[str], list[str]]:
        """(route, states) of a logged move on the map: the road a truck took, and the
        states it concerns."""
        before = self.state_before(entry.index)
        e = before.engine
        seat = self.actor_of(entry)
        kind, _, arg = str(entry.action).partition(":")
        if kind == "move":
            return parts.route(e.truck[seat], arg), [arg]
        if kind == "card":
            return [], [arg]
        if before.variant == "trivia":
            return [], [e.card] if e.card else []
        # a spin: the spinner's truck; a deal (product, price, choice): where the buyer stands
        truck = e.truck[seat] if kind == "spin" else e.truck[e.turn]
        return [], [truck] if truck else []

    def last_move_states(self, entry: LogEntry) -> list[str] | None:
        kind, _, arg = str(entry.action).partition(":")
        return [arg] if kind == "move" else None

    def highlight_entry(self, entry: LogEntry | None) -> None:
        self.board.remove_layer("gots-mark")
        if entry is None or self.match is None:
            return
        route, states = self.marked_states(entry)
        colour = QColor(self.seat_colour(self.actor_of(entry)))
        layer = self.board.layer("gots-mark", z=40)
        pen = QPen(colour, 5.0, Qt.DashLine)
        pen.setCapStyle(Qt.RoundCap)
        for a, b in zip(route, route[1:]):
            p, q = self.board.state_anchor(a), self.board.state_anchor(b)
            segment = QGraphicsLineItem(p.x(), p.y(), q.x(), q.y())
            segment.setPen(pen)
            layer.addToGroup(segment)
        for code in states:
            at = self.board.state_anchor(code)
            ring = QGraphicsEllipseItem(at.x() - 14, at.y() - 14, 28, 28)
            ring.setPen(QPen(colour, 3.5))
            fill = QColor(colour)
            fill.setAlpha(50)
            ring.setBrush(QBrush(fill))
            ring.setToolTip(literal(self.log_text(entry)))
            layer.addToGroup(ring)

    # --- the map ---------------------------------------------------------------------------
    def on_state_clicked(self, code: str) -> None:
        g = self.game
        if g is None or g.variant == "trivia":
            return
        if self.refused_in_replay():
            return
        if g.engine.phase != "move":
            who = self._spin_seat()
            if who is not None and self.is_human_turn():
                self.refuse("Spin first: press Space or click the spinner.")
            return
        if self.is_human_turn() and f"move:{code}" not in g.legal_actions(g.current_player()):
            self.refuse(f"{parts.state_name(code)} cannot be reached with this spin: click a highlighted state.")
            return
        self.act(f"move:{code}")

    def on_state_hovered(self, code: str) -> None:
        g = self.game
        for key in self.hover_route:
            self.board.remove_path(key)
        self.hover_route = []
        if g is None or g.variant == "trivia" or g.engine.phase != "move" or not self.is_human_turn():
            return
        seat = g.current_player()
        if f"move:{code}" in g.legal_actions(seat):
            route = parts.route(g.engine.truck[seat], code)
            for i, (a, b) in enumerate(zip(route, route[1:])):
                self.hover_route.append(self.board.add_path(a, b, style="dashed", colour=COLOURS[seat][1],
                                                            width=3.0, key=("gots-hover", i)))

    def on_activate(self) -> None:
        super().on_activate()
        if self.game is not None and not self.game.is_terminal() and self.replaying is None:
            self.status.emit(f"Game of the States, {VARIANT_TITLES[self.variant]}: New game\u2026 chooses another "
                             "way to play; Help > Rules explains them.")

    def _draw_map(self, interactive: bool) -> None:
        b = self.board
        b.clear_tokens()
        b.clear_paths()
        b.clear_highlight()
        b.clear_fills()
        self.hover_route = []
        g = self.game
        if g.variant != "buy-and-sell":
            b.remove_layer("gots-products")
        e = g.engine
        names = g.names
        if g.variant == "trivia":
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
            for code in parts.state_codes() if not layer.childItems() else ():   # drawn once: they never change
                at = b.state_anchor(code)
                prods = [cat[p] for p in parts.products(code)]
                if code in CALLOUT_STATES:    # on its tab, above the code
                    item = ProductIcons(QPointF(at.x(), at.y() - TAB_H / 2 + 9.5), prods, size=8.5, grow=False)
                else:
                    item = ProductIcons(QPointF(at.x(), at.y() - 6), prods)
                layer.addToGroup(item)
            for d, rec in e.disks.items():
                if rec["state"] is None or rec["done"]:
                    continue
                cname, colour, letter = COLOURS[rec["owner"]]
                if rec["jam"]:
                    tip = (f"{possessive(names[rec['owner']], start=True)} disk "
                           f"({parts.product_name(rec['product'])}), left by "
                           f"{possessive(names[rec['carrier']])} jammed truck: an empty truck takes it over for $200")
                    b.add_token(rec["state"], colour=colour, shape="square", label=letter, tooltip=tip,
                                key=("gots-disk", d))
                else:
                    b.add_token(rec["state"], colour=colour, shape="disk", label=letter,
                                tooltip=f"{possessive(names[rec['owner']], start=True)} product disk for sale",
                                key=("gots-disk", d))
            for seat, dest in enumerate(e.dest):
                if dest:
                    b.add_token(dest, colour=COLOURS[seat][1], shape="marker", label="",
                                tooltip=f"{possessive(names[seat], start=True)} destination", key=("gots-dest", seat),
                                size=MARKER_SIZE)
        else:
            for seat, home in enumerate(e.home):
                if home:
                    b.add_token(home, colour=COLOURS[seat][1], shape="star", label="",
                                tooltip=f"{possessive(names[seat], start=True)} home", key=("gots-home", seat))
                dest = e.dest[seat]
                if dest and dest != home:
                    b.add_token(dest, colour=COLOURS[seat][1], shape="marker", label="",
                                tooltip=f"{possessive(names[seat], start=True)} destination", key=("gots-dest", seat),
                                size=MARKER_SIZE)
        last = e.last_move
        for seat, code in enumerate(e.truck):
            if code:
                # a truck that just drove goes along its road (the board slides it from where it was)
                road = last["route"][1:-1] if last and last["seat"] == seat and last["route"][-1] == code else ()
                load = ""
                if g.variant == "buy-and-sell" and e.load[seat] and e.dest[seat]:
                    rec = e.disks[e.load[seat]]
                    load = (f", carrying {possessive(names[rec['owner']])} {parts.product_name(rec['product'])} to "
                            f"{parts.state_name(e.dest[seat])}")
                b.add_token(code, colour=COLOURS[seat][1], shape="truck", label=COLOURS[seat][2],
                            tooltip=f"{possessive(names[seat], start=True)} truck{load}", key=("gots-truck", seat),
                            via=road, size=TRUCK_SIZE)
                if g.variant == "buy-and-sell" and e.load[seat]:   # the disk it carries rides beside it
                    rec = e.disks[e.load[seat]]
                    b.add_token(code, colour=COLOURS[rec["owner"]][1], shape="square",
                                label=parts.catalogue()[rec["product"]].icon, key=("gots-load", seat), via=road,
                                tooltip=f"On {possessive(names[seat])} truck{load[1:] if load else ''}",
                                size=TRUCK_SIZE - 3)
        if last and len(last["route"]) > 1:
            colour = COLOURS[last["seat"]][1]
            for i, (a, c) in enumerate(zip(last["route"], last["route"][1:])):
                b.add_path(a, c, colour=colour, width=3.5, key=("gots-route", i),
                           tooltip=f"{possessive(names[last['seat']], start=True)} last move")
        if interactive and e.phase == "move":
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

    def refresh(self) -> None:
        self.notice.hide()
        g = self.game
        if g is None:
            return
        if self.busy():   # the spin is drawn but not yet shown: the board waits for the spinner
            who = self.actor_of(self._spinning[1])
            self.spinner.ready = False
            self.space.setEnabled(False)
            self._clear_buttons()
            self.prompt.setText(f"{html.escape(g.names[who])} spins…")
            return
        # A person acts only on their own turn, never in a replay or behind the pass screen.
        interactive = self.is_human_turn()
        spin_seat = self._spin_seat()
        where = ""
        if self.replaying is not None:
            where = f" <span style='color:#777;font-weight:normal'>(replay: move {len(self.match.log)} of " \
                    f"{len(self.replaying.log)})</span>"
        elif self.online is not None:
            view = self.seat_view
            state = view.note or ("Sending your move\u2026" if view.pending else "")
            table = html.escape(self.online.table)
            where = (f" <span style='color:#777;font-weight:normal'>(online table {table})</span>"
                     + (f"<br><span style='color:#a4161a'>{html.escape(state)}</span>" if state else ""))
        self.header.setText(f"{VARIANT_TITLES[g.variant]} <span style='color:#777;font-weight:normal;font-size:12px'>"
                            f"Game of the States</span>{where}")
        trivia = g.variant == "trivia"
        self.spinner.setVisible(not trivia)
        self.space.setEnabled(interactive and spin_seat is not None)
        self.platform.setVisible(g.variant == "buy-and-sell")
        self.platform_title.setVisible(g.variant == "buy-and-sell")
        self.answer_row.setVisible(False)
        self.final_scores.setVisible(g.is_terminal())
        self._clear_buttons()
        self._draw_map(interactive)
        self._draw_players()
        if g.is_terminal():
            self._final()
        elif trivia:
            self._trivia_panel(interactive)
        else:
            self._spin_panel(interactive)
        if g.variant == "buy-and-sell":
            on: dict[str, list[str]] = {}
            for d, product in g.engine.platform:
                on.setdefault(product, []).append(COLOURS[g.engine.disks[d]["owner"]][1])
            self.platform.set_disks(on)

    def _badge(self, seat: int) -> str:
        name, colour, letter = COLOURS[seat]
        fg = "#000" if letter == "Y" else "#fff"
        return (f"<span style='background:{colour};color:{fg};'>&nbsp;<b>{letter}</b>&nbsp;</span>&nbsp;"
                f"{html.escape(self.game.names[seat])}")

    def _who(self, seat: int) -> str:
        kind = self.match.seats[seat]
        if kind == HUMAN:
            return " <span style='color:#777'>(you)</span>" if self.people() == [seat] else ""
        return f" <span style='color:#777'>(computer{', ' + kind[3:] if ':' in kind else ''})</span>"

    def _draw_players(self) -> None:
        g = self.game
        e = g.engine
        rows = []
        current = self.next_actor()
        for seat in range(g.num_players):
            arrow = "\u25b6" if seat == current else "&nbsp;&nbsp;"
            extra = ""
            if g.variant == "trivia":
                what = f"{len(e.won[seat])} card{'s' * (len(e.won[seat]) != 1)}"
            else:
                what = f"${e.money[seat]:,}"
                if g.variant == "buy-and-sell" and e.load[seat] and e.dest[seat]:
                    rec = e.disks[e.load[seat]]
                    jam = " (jammed)" if rec["jam"] else ""
                    extra = (f"<br>&nbsp;&nbsp;&nbsp;&nbsp;carries {html.escape(possessive(g.names[rec['owner']]))} "
                             f"{parts.product_name(rec['product']).lower()} to {parts.state_name(e.dest[seat])}{jam}")
                elif g.variant == "junior":
                    if e.finished[seat]:
                        extra = "<br>&nbsp;&nbsp;&nbsp;&nbsp;home"
                    elif e.dest[seat]:
                        extra = (f"<br>&nbsp;&nbsp;&nbsp;&nbsp;to {parts.state_name(e.dest[seat])}"
                                 f" ({e.pile[seat]} card{'s' * (e.pile[seat] != 1)} left)")
            rows.append(f"<tr><td width='14'>{arrow}</td>"
                        f"<td width='100%'>{self._badge(seat)}{self._who(seat)}{extra}</td>"
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
                    return f"<div style='font-size:11px;color:#444'>{text}: {bills}</div>"
        return ""

    def _spin_panel(self, interactive: bool) -> None:
        g = self.game
        e = g.engine
        names = g.names
        spin_seat = self._spin_seat()
        spin_for = e.observation(0).get("spin_for", "move")
        self.spinner.ring = "price" if (spin_seat is not None and spin_for != "move") else "move"
        self.spinner.ready = interactive and spin_seat is not None
        if e.last_spin:
            self.spinner.show_sector(e.last_spin["sector"])
        self.spinner.update()
        if spin_seat is not None:
            what = {"first": "to see who goes first (highest price)", "move": "to move",
                    "price": "the price", "price again": "the second price (it must be taken)",
                    "sale": "the sale price", "sale again": "the second price (it must be taken)"}
            if interactive:
                self.prompt.setText(f"<b>{html.escape(names[spin_seat])}</b>, spin {what.get(spin_for, '')}: "
                                    f"press <b>Space</b> or click the spinner.")
            else:
                self.prompt.setText(f"{html.escape(names[spin_seat])} spins {what.get(spin_for, '')}"
                                    f"{'' if self.replaying is not None else chr(0x2026)}")
            return
        p = g.current_player()
        if p < 0:
            self.prompt.setText("")
            return
        wait = "" if self.replaying is not None else "\u2026"
        who = html.escape(names[p])
        if e.phase == "move":
            if g.variant == "junior" or e.load[p]:
                target = f" toward <b>{parts.state_name(e.dest[p])}</b>"
            elif not e.targets(p):
                target = " (no disk to buy: go where you like)"
            else:
                target = " toward a disk to buy"
            if interactive:
                self.prompt.setText(f"<b>{who}</b>: move {e.k} state{'s' * (e.k != 1)}{target}. Click a "
                                    f"highlighted state (hover to see the route).")
            else:
                self.prompt.setText(f"{who} moves {e.k}{target}{wait}")
        elif e.phase == "deal":
            self.prompt.setText(f"<b>{who}</b>: two things to do in {parts.state_name(e.truck[p])}. "
                                f"{'Choose one.' if interactive else 'Which one?'}")
            if interactive:
                for a in g.legal_actions(p):
                    kind, _, other = a.partition(":")
                    text = (f"Buy {possessive(names[int(other)])} disk" if kind == "buy"
                            else f"Take over the disk {names[int(other)]} left ($200)")
                    self._button(button_text(text), lambda _=False, a=a: self.act(a))
        elif e.phase == "product":
            code = e.disks[e.disk]["state"]
            buyer = html.escape(names[e.turn])
            self.prompt.setText(f"{buyer} wants to buy in <b>{parts.state_name(code)}</b>. "
                                f"<b>{who}</b>, what do you sell?")
            if interactive:
                for a in g.legal_actions(p):
                    self._button(parts.product_name(a[8:]), lambda _=False, a=a: self.act(a))
        elif e.phase == "decide":
            rec = e.disks[e.disk]
            product = parts.product_name(rec["product"]).lower()
            if e.spin_for == "price":
                line = f"{html.escape(names[e.turn])} offers <b>${e.price:,}</b> for {who}'s {product}."
            else:
                line = (f"{html.escape(names[rec['owner']])} spun <b>${e.price:,}</b> to buy back the "
                        f"{product}.")
            if interactive:
                self.prompt.setText(f"{line}<br><b>{who}</b>: accept ${e.price:,}, or spin again "
                                    f"(the second price must be taken, even if lower)?")
                row = QHBoxLayout()
                self.buttons_layout.addLayout(row)
                self._button(f"Accept ${e.price:,}", lambda: self.act("accept"), "Take this price (Enter)",
                             "Return", row=row)
                self._button("Spin again", lambda: self.act("respin"),
                             "Ask for one more spin; its price must be taken (R)", "R", row=row)
            else:
                self.prompt.setText(f"{line} {who} decides{wait}")

    # --- Trivia ----------------------------------------------------------------------------
    def _trivia_panel(self, interactive: bool) -> None:
        g = self.game
        e = g.engine
        names = g.names
        wait = "" if self.replaying is not None else "\u2026"
        if e.phase == "ask":
            asker = html.escape(names[e.asker])
            state = parts.state_name(e.card)
            answerer = html.escape(names[(e.asker + 1) % g.num_players])
            if self.viewer != e.asker:   # the card's facts are the asker's alone
                self.prompt.setText(f"{asker} draws a card and picks a question for "
                                    f"{answerer}{wait}")
                return
            facts = "".join(f"<tr><td>{html.escape(FACT_NAMES[f].capitalize())}:</td>"
                            f"<td><b>{html.escape(shown(e.card, f))}</b></td></tr>" for f in facts_on(e.card))
            ask = f"Ask {answerer} about one fact:" if interactive else f"{asker} picks a question for {answerer}."
            self.prompt.setText(f"<b>{asker}</b>{', your' if interactive else chr(39) + 's'} card: <b>{state}</b>"
                                f"<table>{facts}</table>{ask}")
            if interactive:
                for a in g.legal_actions(e.asker):
                    self._button(f"Ask the {FACT_NAMES[a[4:]]}", lambda _=False, a=a: self.act(a))
            return
        if e.phase == "answer":
            q = QUESTIONS[e.fact].format(s=parts.state_name(e.card))
            tried = "".join(f"<br>{html.escape(names[s])}: {html.escape(e.say_text(v) if v != UNKNOWN else '?')}"
                            f" \u2013 wrong" for s, v in e.tried)
            who = html.escape(names[e.answerer])
            extra = " (right within one million)" if e.fact == "population" else ""
            if not interactive:
                self.prompt.setText(f"<b>{html.escape(names[e.asker])}</b> asks: {html.escape(q)}{extra}{tried}"
                                    f"<br>{who} {'answers' if self.replaying is not None else 'thinks'}{wait}")
                return
            self.prompt.setText(f"<b>{html.escape(names[e.asker])}</b> asks <b>{who}</b>: "
                                f"{html.escape(q)}{extra}{tried}")
            if e.answers == "choices":
                for a in g.legal_actions(e.answerer):
                    self._button(e.say_text(a[4:]), lambda _=False, a=a: self.act(a))
            else:
                self.answer_row.setVisible(True)
                if self._answer_for != len(self.match.log):   # a new question: an empty box
                    self._answer_for = len(self.match.log)
                    self.answer_edit.clear()
                self.answer_edit.setFocus()
                self._button("I don't know", lambda: self.act(f"say:{UNKNOWN}"))

    def _typed_answer(self) -> None:
        g = self.game
        if g is None or g.variant != "trivia" or g.engine.phase != "answer":
            return
        text = self.answer_edit.text()
        if not text.strip():
            self.refuse("Type an answer first (or press I don't know).")
            return
        e = g.engine
        self.act(typed_action(e.card, e.fact, text))

    # --- the end -------------------------------------------------------------------------
    def final_table(self) -> tuple[list[str], list[list]]:
        g = self.game
        e = g.engine
        if g.variant == "trivia":
            return ["Player", "Cards won"], [[g.names[s], len(e.won[s])] for s in range(g.num_players)]
        if g.variant == "junior":
            return ["Player", "Home", "Money"], [[g.names[s], parts.state_name(e.home[s]), f"${e.money[s]:,}"]
                                                 for s in range(g.num_players)]
        delivered = [sum(1 for d, _ in e.platform if e.disks[d]["owner"] == s) for s in range(g.num_players)]
        return ["Player", "Disks sold back", "Money"], [[g.names[s], delivered[s], f"${e.money[s]:,}"]
                                                        for s in range(g.num_players)]

    def _final(self) -> None:
        g = self.game
        winners = sorted(self.winners()) or [s for s in range(g.num_players) if g.returns()[s] > 0]
        head = " and ".join(html.escape(g.names[s]) for s in winners) + (
            " wins!" if len(winners) == 1 else " share the win!")
        self.prompt.setText(f"<b style='font-size:15px'>{head}</b><br>New game\u2026 plays again; "
                            f"Game > Replay\u2026 steps through this one.")
        columns, rows = self.final_table()
        self.final_scores.set_table(columns, rows, set(winners), [self.seat_colour(i) for i in range(len(rows))])

    def help_html(self) -> str:
        return help_html()

    def help_anchor(self) -> str:
        return self.variant   # F1 opens at the way to play on screen


# A truck and a destination pin are the pieces a player follows: larger than the disks
# (the board's TOKEN_SIZE, 15), so that they stand out beside the small states' tabs too.
TRUCK_SIZE = 22.0
MARKER_SIZE = 20.0


def _tint(hex_colour: str, amount: float = 0.6) -> QColor:
    c = QColor(hex_colour)
    return QColor(int(c.red() + (255 - c.red()) * amount), int(c.green() + (255 - c.green()) * amount),
                  int(c.blue() + (255 - c.blue()) * amount))


__all__ = ["GameOfTheStatesMode"]
