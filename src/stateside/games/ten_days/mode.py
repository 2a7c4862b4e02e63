"""10 Days in the USA on the shared map: a thin view over a Match of the rules engine.

The player's ten days lie under the map as cards; the deck and the three discard piles
sit in the side panel. Clicks become the match's actions; computer players act on a
timer through match.step(); the deck's cards come from the match's chance draws;
in hot-seat play a "pass to <name>" screen hides one player's cards from the next.
The journey being shown is drawn on the map: a line across each border walked, a
dashed line through the state an automobile crosses, an arc for each flight, and in
red, with the reason on hover, every link that does not hold.
"""
from __future__ import annotations

import html
import random
from collections import Counter
from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFontMetricsF, QKeySequence, QPainter, QPainterPathStroker, QPalette, QShortcut
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QFrame, QGraphicsItem, QHBoxLayout, QLabel,
    QLineEdit, QPushButton, QSpinBox, QTextBrowser, QVBoxLayout, QWidget,
)

from stateside.app.mode import AI_DELAY_MS, GameMode
from stateside.board.items import LABEL, LABEL_FONT, TAB_FONT, CalloutTab, PathItem, StateItem
from stateside.engine.match import CHANCE, Match
from stateside.errors import IllegalActionError, SaveError
from stateside.games.ten_days.ai import changes_needed
from stateside.games.ten_days.cards import face_of, faces_of, is_state, load_cards
from stateside.games.ten_days.journey import DAYS, a_card, check_journey, travel_rules
from stateside.games.ten_days.rules import (
    CARD, DEAL, DISCARD, DRAW, MAX_PLAYERS, MIN_PLAYERS, PILES, PLACE, TenDaysState, full_deck,
)
from stateside.games.ten_days.widgets import CardRow, CardSlot, FitScrollArea

SEAT_KINDS = {"human": "Person", "ai:easy": "Computer (easy)", "ai:medium": "Computer (medium)",
              "ai:hard": "Computer (hard)"}
COMPUTER_NAMES = ("Ada", "Ben", "Cleo", "Dev")
LINK_OK = "#1d3557"
LINK_BAD = "#e63946"
PILE_KEYS = ("Q", "W", "E")
LOG_KEPT = 40  # lines of the game's log kept (and saved)
BANNER_LINES = 3  # the banner's longest texts: a 16-letter name's win; the online note and an order
LABEL_LAYER = "ten-days-labels"


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str   # a key of SEAT_KINDS

    @property
    def human(self) -> bool:
        return self.kind == "human"


DEFAULT_SEATS = (Seat("You", "human"), Seat("Ada", "ai:medium"))


def _tint(hex_colour: str, amount: float = 0.55) -> QColor:
    """The colour mixed with white, so that paths drawn over it stay readable."""
    c = QColor(hex_colour)
    return QColor(int(c.red() + (255 - c.red()) * amount), int(c.green() + (255 - c.green()) * amount),
                  int(c.blue() + (255 - c.blue()) * amount))


class LabelChip(QGraphicsItem):
    """A state's label (or its tab's) again, on a patch of the state's own colour, above
    the journey's lines, which end at the labels: the line stops at the label, which stays
    readable. It draws the text as the board does, so it looks like the label itself."""

    def __init__(self, state: StateItem, tab: CalloutTab | None = None):
        super().__init__()
        self.state, self.tab = state, tab
        self.code = state.code
        if tab is None:
            self.font = LABEL_FONT
            at = state.label_at
            self.text_rect = QRectF(at.x() - 20, at.y() - 8, 40, 16)   # the board's label box
        else:
            self.font = TAB_FONT
            self.text_rect = QRectF(tab.base_rect)
            self.text_rect.moveCenter(tab.rect.center())
        text = QFontMetricsF(self.font).boundingRect(self.text_rect, Qt.AlignCenter, self.code)
        self.base = text.adjusted(-2, -0.5, 2, 0.5)
        self.setAcceptedMouseButtons(Qt.NoButton)   # clicks, hovers and tips go to the state
        self.setAcceptHoverEvents(False)

    @property
    def rect(self) -> QRectF:
        """Where it is now: a tab shrinks about its centre when the map is zoomed."""
        k = self.tab.scale_factor if self.tab is not None else 1.0
        r = QRectF(0, 0, self.base.width() * k, self.base.height() * k)
        r.moveCenter(self.base.center())
        return r

    def boundingRect(self) -> QRectF:
        return QRectF(self.base)   # the largest it gets

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        k = self.tab.scale_factor if self.tab is not None else 1.0
        if k != 1.0:   # as the tab draws itself: scaled about its centre
            c = self.base.center()
            painter.translate(c)
            painter.scale(k, k)
            painter.translate(-c)
        painter.setPen(Qt.NoPen)
        painter.setBrush(self.state.current_fill())   # hovered states are lighter
        painter.drawRoundedRect(self.base, 3, 3)
        painter.setFont(self.font)
        painter.setPen(LABEL)
        painter.drawText(self.text_rect, Qt.AlignCenter, self.code)


class SetupDialog(QDialog):
    """Players (2-4), each a person or a computer; who starts; the hint."""

    def __init__(self, seats: list[Seat], first: int, hint: bool, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New game of 10 Days in the USA")
        form = QFormLayout(self)
        self.count = QSpinBox()
        self.count.setRange(MIN_PLAYERS, MAX_PLAYERS)
        self.count.setValue(len(seats))
        form.addRow("Players:", self.count)
        self.names: list[QLineEdit] = []
        self.kinds: list[QComboBox] = []
        self.rows: list[QWidget] = []
        for i in range(MAX_PLAYERS):
            seat = seats[i] if i < len(seats) else Seat(COMPUTER_NAMES[i], "ai:medium")
            row = QWidget()
            lay = QHBoxLayout(row)
            lay.setContentsMargins(0, 0, 0, 0)
            name = QLineEdit(seat.name)
            name.setMaxLength(16)
            kind = QComboBox()
            for key, label in SEAT_KINDS.items():
                kind.addItem(label, key)
            kind.setCurrentIndex(list(SEAT_KINDS).index(seat.kind))
            lay.addWidget(name, 1)
            lay.addWidget(kind)
            form.addRow(f"Player {i + 1}:", row)
            self.names.append(name)
            self.kinds.append(kind)
            self.rows.append(row)
        self.first = QComboBox()
        form.addRow("Travelled most recently\n(goes first):", self.first)
        self.hint = QCheckBox("Show how many cards I still need to change")
        self.hint.setChecked(hint)
        form.addRow("Hint:", self.hint)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.form = form
        self.count.valueChanged.connect(self._update)
        for name in self.names:
            name.textChanged.connect(self._update)
        self._update()
        self.first.setCurrentIndex(min(first, self.first.count() - 1))

    def _update(self) -> None:
        n = self.count.value()
        for i, row in enumerate(self.rows):
            self.form.setRowVisible(row, i < n)
        keep = self.first.currentIndex()
        self.first.clear()
        for i in range(n):
            self.first.addItem(self.names[i].text().strip() or f"Player {i + 1}")
        self.first.setCurrentIndex(max(0, min(keep, n - 1)))

    def seats(self) -> list[Seat]:
        return [Seat(self.names[i].text().strip() or f"Player {i + 1}", self.kinds[i].currentData())
                for i in range(self.count.value())]


class PassScreen(QFrame):
    """Covers the whole mode between two people's turns in hot-seat play."""

    def __init__(self, parent: QWidget, on_ready):
        super().__init__(parent)
        self.setObjectName("passScreen")
        self.setStyleSheet("QFrame#passScreen { background: #1d3557; }"
                           "QLabel { color: #f1faee; } QPushButton { font-size: 16px; padding: 10px 22px; }")
        lay = QVBoxLayout(self)
        lay.addStretch(2)
        self.title = QLabel()
        self.title.setAlignment(Qt.AlignCenter)
        self.title.setStyleSheet("font-size: 34px; font-weight: bold;")
        self.text = QLabel()
        self.text.setAlignment(Qt.AlignCenter)
        self.text.setStyleSheet("font-size: 15px;")
        self.last_move = QLabel()  # what the table saw last: public, so it may show here
        self.last_move.setAlignment(Qt.AlignCenter)
        self.last_move.setWordWrap(True)
        self.last_move.setTextFormat(Qt.RichText)
        self.last_move.setStyleSheet("font-size: 13px; color: #a8dadc;")
        self.button = QPushButton()
        self.button.clicked.connect(on_ready)
        lay.addWidget(self.title)
        lay.addWidget(self.text)
        lay.addSpacing(8)
        self.last_move.setContentsMargins(60, 0, 60, 0)
        lay.addWidget(self.last_move)  # no alignment flag: a wrapped label then gets its full height
        lay.addSpacing(16)
        lay.addWidget(self.button, 0, Qt.AlignCenter)
        lay.addStretch(3)
        self.hide()

    def show_for(self, name: str, last_move: str = "") -> None:
        self.title.setText(f"Pass to {name}")
        self.last_move.setText(f"Last move: {last_move}" if last_move else "")
        self.last_move.setVisible(bool(last_move))
        self.text.setText(f"{name}, take the seat: your cards appear when you are ready\n"
                          "and nobody else can see the screen.")
        self.button.setText(f"I am {name}: show my cards")
        self.setGeometry(self.parentWidget().rect())
        self.raise_()
        self.show()
        self.button.setFocus()


class TenDaysMode(GameMode):
    game_id = "ten-days"
    title = "10 Days in the USA"

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.cards = load_cards()
        self.rules = travel_rules()
        self.ai_delay_ms = AI_DELAY_MS
        self.match: Match | None = None
        self.seats: list[Seat] = list(DEFAULT_SEATS)
        self.hint_on = False
        self.viewer: int | None = None        # whose hidden cards are on screen
        self.waiting_for: int | None = None   # the seat behind the pass screen
        self.log: list[str] = []
        self.last_replaced: dict[int, int] = {}
        self.turn_actions: list[str] = []     # the seat actions of the turn being played
        self._hint_cache: tuple | None = None
        self.ai_timer = QTimer(self, singleShot=True, timeout=self._ai_step)
        # Online play (attach_online): the session that sends our moves, how many of them
        # the referee has yet to confirm, the game at this screen before, and a banner line.
        self.online = None
        self.online_unconfirmed = 0
        self.online_note = ""
        self._offline_match: Match | None = None
        self._online_started = False

        # --- left: the map above the player's ten days
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.setSpacing(0)
        lv.addWidget(self.board_slot, 1)
        strip = QFrame()
        strip.setObjectName("journeyStrip")
        strip.setStyleSheet("QFrame#journeyStrip { background: #ede8dc; border-top: 1px solid #d8d2c4; }")
        sv = QVBoxLayout(strip)
        sv.setContentsMargins(8, 4, 8, 6)
        sv.setSpacing(2)
        self.strip_title = QLabel()
        self.strip_title.setStyleSheet("color: #1d3557; font-weight: bold;")
        sv.addWidget(self.strip_title)
        self.journey_row = CardRow(self.cards, DAYS, card_width=84)
        self.journey_row.setMinimumHeight(128)
        self.journey_row.clicked.connect(self._day_clicked)
        sv.addWidget(self.journey_row)
        lv.addWidget(strip)

        # --- right: instructions, the table, players, problems, log
        panel = QFrame()
        panel.setObjectName("sidePanel")
        panel.setFixedWidth(330)
        side = QVBoxLayout(panel)
        side.setContentsMargins(10, 8, 10, 8)
        side.setSpacing(6)
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background: #fff; border: 1px solid #d8d2c4; border-radius: 4px; padding: 6px;")
        self.banner.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        # Fixed heights above and for the deck and piles: a longer instruction or a crowded
        # panel must not move them under the pointer between two clicks.
        # (the lines, the padding and border, and room for the larger "10 DAYS!")
        self.banner.setFixedHeight(int(self.banner.fontMetrics().lineSpacing() * BANNER_LINES) + 2 * 6 + 2 + 4)
        side.addWidget(self.banner)
        self.table_row = CardRow(self.cards, 1 + PILES, card_width=66)
        self.table_row.setFixedHeight(self.table_row.sizeHint().height())
        self.table_row.clicked.connect(self._table_clicked)
        side.addWidget(self.table_row)
        hand = QHBoxLayout()
        self.hand_row = CardRow(self.cards, 1, card_width=66)
        self.hand_row.setFixedWidth(84)
        self.hand_row.setFixedHeight(self.hand_row.sizeHint().height())
        keep_room = self.hand_row.sizePolicy()
        keep_room.setRetainSizeWhenHidden(True)  # the panel does not jump when the hand empties
        self.hand_row.setSizePolicy(keep_room)
        hand.addWidget(self.hand_row)
        hand_side = QVBoxLayout()
        self.hand_text = QLabel()
        self.hand_text.setWordWrap(True)
        hand_side.addWidget(self.hand_text, 1)
        self.keep_button = QPushButton("Keep my journey (K)")
        self.keep_button.setToolTip("Leave your ten days as they are; then put the drawn card on a discard pile.")
        self.keep_button.clicked.connect(self._keep_clicked)
        hand_side.addWidget(self.keep_button)
        hand.addLayout(hand_side, 1)
        side.addLayout(hand)
        self.players_label = QLabel()
        self.players_label.setWordWrap(True)
        self.players_label.setTextFormat(Qt.RichText)
        side.addWidget(self.players_label)
        self.hint_box = QCheckBox("Hint: how many cards I still need to change")
        self.hint_box.toggled.connect(self._hint_toggled)
        side.addWidget(self.hint_box)
        self.problems_label = QLabel()
        self.problems_label.setWordWrap(True)
        self.problems_label.setTextFormat(Qt.RichText)
        self.problems_label.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        # scrolls when the window is short, so the list never runs over the widgets below
        self.problems_area = FitScrollArea(self.problems_label)
        side.addWidget(self.problems_area)
        self.log_view = QTextBrowser()  # scrolls: the panel is short on small screens
        self.log_view.setFrameShape(QFrame.NoFrame)
        # colours by palette, not a style sheet: a style sheet on the view reaches its
        # scroll bar, which then paints as black blocks
        self.log_view.viewport().setAutoFillBackground(False)
        log_palette = self.log_view.palette()
        log_palette.setColor(QPalette.Text, QColor("#444444"))
        self.log_view.setPalette(log_palette)
        self.log_view.setMinimumHeight(48)
        log_bar = self.log_view.verticalScrollBar()
        # the newest line stays in sight, also when the panel's layout shrinks the log afterwards
        log_bar.rangeChanged.connect(lambda _low, high: log_bar.setValue(high))
        side.addWidget(self.log_view, 1)
        legend = QLabel("On the map: <b>—</b> walk across a border, <b>- -</b> automobile through a third"
                        " state, <b>⌢</b> airplane between states of its colour; <span style='color:#e63946'>"
                        "red</span>: not valid (hover it for the reason). Circles give the days."
                        " Alaska and Hawaii are white cards: a flight to or from them takes the other"
                        " state's colour.")
        legend.setWordWrap(True)
        legend.setStyleSheet("color: #555; font-size: 11px;")
        side.addWidget(legend)
        self.new_button = QPushButton("New game\u2026")
        self.new_button.clicked.connect(self.new_game)
        side.addWidget(self.new_button)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(left, 1)
        layout.addWidget(panel)

        self.win_banner = QLabel(self.board_slot)
        self.win_banner.setAlignment(Qt.AlignCenter)
        self.win_banner.setTextFormat(Qt.PlainText)
        self.win_banner.setStyleSheet("background: rgba(230,57,70,225); color: white; font-size: 30px;"
                                      " font-weight: bold; border-radius: 10px; padding: 10px 26px;")
        self.win_banner.hide()
        self.pass_screen = PassScreen(self, self._pass_done)

        # Keys work while the focus is on the cards or the panel, not on the map, where
        # letters type a state's name.
        for container in (strip, panel):
            self._add_shortcuts(container)
        for row in (self.journey_row, self.table_row):
            row.setFocusPolicy(Qt.StrongFocus)

        self.start_game(list(DEFAULT_SEATS), first=0, hint=False)

    def _add_shortcuts(self, container: QWidget) -> None:
        def key(sequence: str, slot) -> None:
            shortcut = QShortcut(QKeySequence(sequence), container)
            shortcut.setContext(Qt.WidgetWithChildrenShortcut)  # (the constructor's keyword is ignored)
            shortcut.activated.connect(slot)

        for n in range(DAYS):
            key(str((n + 1) % 10), lambda n=n: self._day_clicked(n))
        key("D", lambda: self._table_clicked(0))
        for k, letter in enumerate(PILE_KEYS):
            key(letter, lambda k=k: self._table_clicked(k + 1))
        key("K", self._keep_clicked)

    # --- games ------------------------------------------------------------------------
    @property
    def game(self) -> TenDaysState | None:
        return self.match.state if self.match else None

    def start_game(self, seats: list[Seat], first: int = 0, hint: bool | None = None, seed: int | None = None) -> None:
        seed = random.SystemRandom().randrange(2 ** 31) if seed is None else seed
        setup = {"players": [s.name for s in seats], "first_player": first, "turn_limit": None}
        match = Match(TenDaysState, [s.kind for s in seats], seed, setup)
        match.resolve_chance()  # the first card is dealt
        self._install(match, hint)
        self.status.emit("New game of 10 Days in the USA: take your ten cards, one at a time.")

    def _install(self, match: Match, hint: bool | None = None) -> None:
        self.ai_timer.stop()
        self.match = match
        self.seats = [Seat(name, kind) for name, kind in zip(match.names, match.seats)]
        self._replay_log()
        self.viewer = None
        self.waiting_for = None
        self.pass_screen.hide()
        if hint is not None:
            self.hint_on = hint
            self.hint_box.blockSignals(True)
            self.hint_box.setChecked(hint)
            self.hint_box.blockSignals(False)
        self._advance()
        self.changed.emit()

    def new_game(self) -> None:
        if self.online is not None:
            self.leave_online()
        dialog = SetupDialog(self.seats, self.game.setup["first_player"] if self.game else 0, self.hint_on, self)
        if dialog.exec() == QDialog.Accepted:
            self.start_game(dialog.seats(), dialog.first.currentIndex(), dialog.hint.isChecked())

    def humans(self) -> list[int]:
        """The people at this screen (online: only our seat)."""
        if self.online is not None:
            return [self.online.seat]
        return [i for i, s in enumerate(self.seats) if s.human]

    def is_human_turn(self) -> bool:
        g = self.game
        return bool(g and not g.is_terminal() and self.seats[g.current].human
                    and self.viewer == g.current and self.waiting_for is None
                    and g.current_player() == g.current   # online, a drawn card may be on its way
                    and not self.online_unconfirmed
                    and (self.online is None or self._online_started))

    # --- the flow of turns --------------------------------------------------------------
    def _advance(self) -> None:
        """Decide who acts next: the computer (on a timer), or a person (after the pass screen)."""
        g = self.game
        if g.is_terminal():
            self.viewer = g.winner
            self._refresh()
            return
        seat = g.current
        humans = self.humans()
        if self.online is not None:   # one seat here; the referee runs the others and the deck
            self.viewer = humans[0]
            self._refresh()
            return
        if not humans:
            self.viewer = seat  # computers only: watch everything
        if not self.seats[seat].human:
            if len(humans) == 1:
                self.viewer = humans[0]
            elif len(humans) > 1:
                self.viewer = None  # nobody's cards while the computer plays between two people
            self._refresh()
            if self.active and not self.ai_timer.isActive():
                self.ai_timer.start(self.ai_delay_ms)
            return
        if len(humans) > 1 and self.viewer != seat:
            self.viewer = None
            self.waiting_for = seat
            self._refresh()
            self.pass_screen.show_for(self.seats[seat].name, self.log[-1] if self.log else "")
            return
        self.viewer = seat
        self._refresh()

    def _pass_done(self) -> None:
        self.pass_screen.hide()
        self.viewer, self.waiting_for = self.waiting_for, None
        self._refresh()
        self.journey_row.setFocus()

    def _ai_step(self) -> None:
        g = self.game
        if g is None or g.is_terminal() or self.seats[g.current].human or not self.active or self.online:
            return
        seat = g.current
        if g.phase == DEAL:
            while g.phase == DEAL and g.current == seat:
                self._apply(None)
        elif g.phase == DRAW:
            self._apply(None)  # draw or take; the rest after a pause, to follow
            self._refresh()
            self.ai_timer.start(self.ai_delay_ms // 2)
            return
        else:
            self._apply(None)  # replace a day or keep
            self._apply(None)  # discard
        self.changed.emit()
        self._advance()

    def _apply(self, action: str | None) -> None:
        """Apply a person's action (None: let the computer to move choose one), then the
        cards the deck gives; log what the table saw."""
        if self.online is not None and action is not None:
            self.online.send(action)   # applied when the referee confirms it (online_update)
            self.online_unconfirmed += 1
            return
        g = self.game
        seat, phase = g.current, g.phase
        entry = self.match.step() if action is None else self.match.apply(action)
        self.match.resolve_chance()
        self._note(g, seat, phase, entry.action)

    def _note(self, g: TenDaysState, seat: int, phase: str, action: str) -> None:
        """Log a seat's action, just applied to `g`."""
        if phase == DEAL:
            if None not in g.journeys[seat]:
                self._add_log(f"{self._says(seat, 'has', 'have')} taken ten cards.")
            return
        self.turn_actions = (self.turn_actions + [action])[-3:]
        if phase == PLACE and action.startswith("day:"):
            self.last_replaced[seat] = int(action[4:]) - 1
        elif phase == DISCARD:
            self._add_log(self._describe_turn(g, seat))

    def _replay_log(self) -> None:
        """The log of a match, written again from its actions (a loaded game has no other)."""
        self.log, self.last_replaced, self.turn_actions = [], {}, []
        g = TenDaysState.new(self.match.initial_setup)
        for entry in self.match.log:
            seat, phase = g.current, g.phase
            g.apply_action(entry.action)
            if entry.seat != CHANCE:
                self._note(g, seat, phase, entry.action)

    def _name(self, seat: int) -> str:
        return html.escape(self.seats[seat].name)

    def _says(self, seat: int, verb: str, you_verb: str, escape: bool = True) -> str:
        """ "Ada wins" but "You win": the default player's name is You."""
        name = self.seats[seat].name
        return f"{html.escape(name) if escape else name} {you_verb if name == 'You' else verb}"

    def _describe_turn(self, g: TenDaysState, seat: int) -> str:
        """The turn just ended, as the other players saw it (read from its three actions)."""
        source, placed, discard = self.turn_actions
        pile = int(discard.split(":")[1])
        discarded = g.piles[pile - 1][-1]
        if placed.startswith("day:"):
            day = int(placed[4:])
            drawn, where = g.journeys[seat][day - 1], f", put it on day {day}"
        else:
            drawn, where = discarded, ", kept the journey"
        got = (f"took {a_card(self.rules, face_of(drawn))} from pile {source[5:]}" if source.startswith("take:")
               else "drew from the deck")
        name = self._name(seat)
        text = f"{name} {got}{where} and discarded {a_card(self.rules, face_of(discarded))} onto pile {pile}."
        if g.is_terminal() and g.winner == seat:
            text += f" <b>10 DAYS! {self._says(seat, 'wins', 'win')}.</b>"
        return text

    def _add_log(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_KEPT]

    # --- online play: the referee drives the match ----------------------------------------
    # A session (stateside.app.online.OnlineSession) has: seat, send(action_json), close(),
    # and the signals update(view), connection(bool), refused(str), ended(result). The
    # match here is the table's game as this seat knows it: what others hold and the deck's
    # order are unknown, so their hidden moves and draws are stood in for and then made to
    # agree with the referee's observation (_online_reconcile); when the game ends, the
    # referee's whole log (checked against the seed's commitment) replaces it.
    def attach_online(self, session) -> None:
        if self.online is not None:
            self.leave_online()
        self._offline_match = self.match
        self.online = session
        self.online_unconfirmed = 0
        self.online_note = ""
        self._online_started = False
        session.update.connect(self.online_update)
        session.connection.connect(self._online_connection)
        session.refused.connect(self._online_refused)
        session.ended.connect(self._online_ended)
        self.status.emit(f"Online table {session.table}: you are seat {session.seat + 1}.")

    def leave_online(self, restore: bool = True) -> None:
        """Leave the table (the referee keeps the game); back to the game played here before."""
        session, self.online = self.online, None
        if session is None:
            return
        for signal, slot in ((session.update, self.online_update), (session.connection, self._online_connection),
                             (session.refused, self._online_refused), (session.ended, self._online_ended)):
            signal.disconnect(slot)
        session.close()
        self.online_unconfirmed, self.online_note = 0, ""
        if restore and self._offline_match is not None:
            self._install(self._offline_match)
        self._offline_match = None

    def online_update(self, view: dict) -> None:
        """The seat's view from the referee: apply the entries not yet here, then make the
        cards this seat cannot see agree with its observation."""
        if self.online is None or view["status"] == "lobby":
            return
        if not self._online_started:   # the table's game replaces whatever was on screen
            info = view["info"]
            setup = info["setup"]
            self._install(Match(TenDaysState, info["seats"], 0, setup))
            self._online_started = True
        for entry in view["entries"][len(self.match.log):]:
            self._online_entry(entry)
        if len(self.match.log) == view["n"] and view["observation"] is not None:
            self._online_reconcile(view["observation"])
        self._advance()
        self.changed.emit()

    def _online_entry(self, entry: dict) -> None:
        g, me = self.game, self.online.seat
        seat, phase, actor = g.current, g.phase, g.current_player()
        if entry.get("hidden"):   # a draw into another's hand, or a move in another's rack
            action = g.chance_outcomes()[0][0] if actor == CHANCE else g.legal_actions(actor)[0]
        else:
            action = g.action_from_json(entry["action"])
            if actor == CHANCE:
                self._online_into_deck(action[len(CARD):])
        self.match.apply(action)
        if entry["seat"] == me:
            self.online_unconfirmed = max(0, self.online_unconfirmed - 1)
            self._note(g, seat, phase, action)
        elif entry["seat"] != CHANCE and phase != DEAL and not entry.get("hidden"):
            self._add_log(html.escape(entry["text"]) + ".")

    def _online_into_deck(self, card: str) -> None:
        """A card the deck gives us: if this screen had guessed it into another's hand,
        swap it with one from the deck (neither guess was seen by anyone)."""
        g = self.game
        if g.deck.get(card):
            return
        swap = next(iter(g.deck))
        for s, place in [*enumerate(g.journeys), *((None, p) for p in g.piles)]:
            if s != self.online.seat and card in place:   # (a pile: fixed by the next reconcile)
                place[place.index(card)] = swap
                break
        else:
            if g.held != card:
                return   # not ours to move: applying the draw says what is wrong
            g.held = swap
        g.deck[card] += 1
        g._draw(swap)

    def _online_reconcile(self, obs: dict) -> None:
        g, me = self.game, self.online.seat
        if g.observation(me) == obs:
            return
        g.piles = [list(p) for p in obs["piles"]]
        g.journeys[me] = list(obs["journey"])
        g.phase, g.current, g.turns, g.winner = obs["phase"], obs["current"], obs["turns"], obs["winner"]
        if obs["held"] is not None:
            g.held = obs["held"]
        if g.winner is not None:
            g.journeys[g.winner] = list(obs["winning_journey"])
        # Every card not in sight goes back among the others' days, their held card and the
        # deck: a card that may stay where it was guessed stays, the others are dealt anew.
        seen = Counter(c for p in g.piles for c in p)
        seen.update(c for c in g.journeys[me] if c is not None)
        if g.winner is not None and g.winner != me:
            seen.update(g.journeys[g.winner])
        if g.held is not None and g.current == me:
            seen[g.held] += 1
        unseen = full_deck() - seen
        slots = [(s, d) for s in range(g.players) if s not in (me, g.winner)
                 for d in range(DAYS) if g.journeys[s][d] is not None]
        if g.held is not None and g.current != me:
            slots.append((None, None))
        redeal = []
        for s, d in slots:
            card = g.held if s is None else g.journeys[s][d]
            if unseen[card] > 0:
                unseen[card] -= 1
            else:
                redeal.append((s, d))
        spare = sorted(unseen.elements())
        for (s, d), card in zip(redeal, spare):
            if s is None:
                g.held = card
            else:
                g.journeys[s][d] = card
        g.deck = Counter(spare[len(redeal):])
        if g.observation(me) != obs:
            self.status.emit("This screen could not agree with the table; it goes on with the table's word.")

    def _online_connection(self, up: bool) -> None:
        self.online_note = "" if up else "Connection lost: reconnecting…"
        if up:
            self.status.emit("Reconnected; caught up with the table.")
        self._refresh()

    def _online_refused(self, reason: str) -> None:
        self.online_unconfirmed = 0
        self.status.emit(f"The table refused that move: {reason}")
        self._advance()

    def _online_ended(self, result: dict) -> None:
        """The referee's whole log replaces this screen's guesses: a finished game like any other."""
        table, seat = (self.online.table, self.online.seat) if self.online else ("", None)
        self.leave_online(restore=False)
        self._install(Match.from_json(result["save"], "the online table's log"))
        if self.game.winner is None and seat is not None:   # no winner's journey to show: ours
            self.viewer = seat
            self._refresh()
        if result.get("problem"):
            self.status.emit(f"Online game {table} over, but it does not check out: {result['problem']}")
        else:
            self.status.emit(f"Online game {table} over; the deck's seed checks out.")

    # --- what people click --------------------------------------------------------------
    def _act(self, *actions: str) -> bool:
        if not self.is_human_turn():
            return False
        try:
            for action in actions:
                self._apply(action)
        except IllegalActionError as e:
            self.status.emit(str(e))
            return False
        self.status.emit("")  # an earlier "not now" message no longer applies
        self.changed.emit()
        self._advance()
        return True

    def _day_clicked(self, slot: int) -> None:
        g = self.game
        if not self.is_human_turn():
            return
        if g.phase == DEAL and g.journeys[g.current][slot] is not None:
            self.status.emit(f"Day {slot + 1} already has a card: choose an empty day.")
            return
        if g.phase in (DEAL, PLACE):
            self._act(f"day:{slot + 1}")
        elif g.phase == DRAW:
            self.status.emit("First draw a card: from the deck or from the top of a discard pile.")
        elif g.phase == DISCARD:
            self.status.emit("Now put the card you hold on a discard pile.")

    def _table_clicked(self, index: int) -> None:
        g = self.game
        if not self.is_human_turn():
            return
        if index == 0:
            if g.phase == DRAW:
                self._act("draw")
            elif g.phase in (PLACE, DISCARD):
                self.status.emit("You have drawn this turn: place the card you hold or put it on a discard pile.")
            return
        pile = index
        if g.phase == DRAW:
            if not g.piles[pile - 1]:
                self.status.emit(f"Pile {pile} is empty.")
                return
            self._act(f"take:{pile}")
        elif g.phase in (PLACE, DISCARD):
            empty = [k + 1 for k, p in enumerate(g.piles) if not p]
            if empty and pile not in empty:
                self.status.emit(f"Pile {empty[0]} is empty: a discard must go on an empty pile first.")
                return
            if g.phase == PLACE:  # dropping the drawn card on a pile keeps the journey
                self._act("keep", f"discard:{pile}")
            else:
                self._act(f"discard:{pile}")

    def _keep_clicked(self) -> None:
        if self.is_human_turn() and self.game.phase == PLACE:
            self._act("keep")

    def _hint_toggled(self, on: bool) -> None:
        self.hint_on = on
        self._refresh()
        self.changed.emit()

    # --- drawing --------------------------------------------------------------------------
    def shown_journey(self) -> tuple[int | None, list]:
        """The seat whose journey is on screen and its cards (None: nobody's)."""
        g = self.game
        if self.viewer is None:
            return None, [None] * DAYS
        return self.viewer, g.journeys[self.viewer]

    def _refresh(self) -> None:
        g = self.game
        if g is None:
            return
        seat, journey = self.shown_journey()
        report = check_journey(journey) if seat is not None else None
        human_turn = self.is_human_turn()
        phase = g.phase

        # the ten days
        bad_days = {d for p in (report.problems if report else ()) for d in range(p.first_day, p.last_day + 1)}
        slots = []
        for i, card in enumerate(journey):
            face = None if card is None else face_of(card)
            tip = [f"Day {i + 1}: {self.cards.name(face)}" if face else f"Day {i + 1}: no card yet"]
            if report:
                tip += [str(p) for p in report.problems if p.first_day <= i + 1 <= p.last_day and face]
            enabled = human_turn and (phase == PLACE or (phase == DEAL and card is None))
            outline = "bad" if (i + 1) in bad_days and card is not None and not (phase == DEAL) else None
            if outline is None and seat is not None and self.last_replaced.get(seat) == i and phase != DEAL:
                outline = "new"
            slots.append(CardSlot(face, f"Day {i + 1}", down=seat is None, enabled=enabled, outline=outline,
                                  tooltip="\n".join(tip)))
        self.journey_row.set_slots(slots)
        if seat is None:
            self.strip_title.setText("Cards hidden")
        elif g.is_terminal():
            name = self.seats[seat].name
            self.strip_title.setText("Your winning journey" if name == "You" else f"{name}'s winning journey")
        else:
            self.strip_title.setText("Your ten days" if self.humans() == [seat]
                                     else f"{self.seats[seat].name}'s ten days")

        # the table: deck and three discard piles
        empty = [k for k, p in enumerate(g.piles) if not p]
        table = [CardSlot(None, f"Deck ({g.deck_size()})", down=bool(g.deck),
                          enabled=human_turn and phase == DRAW and bool(g.deck),
                          tooltip="The deck: draw its top card (D).")]
        for k, pile in enumerate(g.piles):
            target = phase in (PLACE, DISCARD) and (not empty or k in empty)
            enabled = human_turn and ((phase == DRAW and bool(pile)) or target)
            top = face_of(pile[-1]) if pile else None
            what = f"{self.cards.name(top)} on top" if top else "empty"
            tip = f"Discard pile {k + 1} ({PILE_KEYS[k]}), {len(pile)} card{'s' if len(pile) != 1 else ''}: {what}."
            table.append(CardSlot(top, f"Pile {k + 1} ({len(pile)})", enabled=enabled, tooltip=tip,
                                  outline="pick" if human_turn and phase == DISCARD and empty and k in empty else None))
        self.table_row.set_slots(table)

        held = face_of(g.held) if (human_turn and g.held is not None) else None
        caption = {DEAL: "Dealt", PLACE: "Drawn", DISCARD: "Discard"}.get(phase, "")
        self.hand_row.set_slots([CardSlot(held, caption, tooltip=self.cards.name(held) if held else "")])
        self.hand_row.setVisible(held is not None)
        self.keep_button.setEnabled(human_turn and phase == PLACE)
        self.hand_text.setText(self._hand_text(human_turn, held))
        banner = self._banner_text(human_turn)
        if self.online is not None and self.online_unconfirmed and not g.is_terminal():
            banner = "Sending your move to the table…"
        if self.online_note:
            banner = f"<div style='color:#b02a37'><b>{self.online_note}</b></div>{banner}"
        self.banner.setText(banner)
        self.players_label.setText(self._players_html())
        self.problems_label.setText(self._problems_html(seat, report))
        self.problems_area.setVisible(bool(self.problems_label.text()))
        self.problems_area.updateGeometry()
        self.log_view.setHtml("<br>".join(self.log))
        bar = self.log_view.verticalScrollBar()
        bar.setValue(bar.maximum())
        self.hint_box.setVisible(bool(self.humans()))
        self._draw_map(seat, journey, report)
        self._show_win()

    def _hand_text(self, human_turn: bool, held: str | None) -> str:
        if not human_turn or held is None:
            return ""
        name = self.cards.name(held)
        name = name[0].upper() + name[1:]
        phase = self.game.phase
        if phase == DEAL:
            return f"{name}: click an empty day for it."
        if phase == PLACE:
            return f"{name}: click a day to replace, or a discard pile to discard it."
        return f"{name}: click a discard pile for it."

    def _banner_text(self, human_turn: bool) -> str:
        g = self.game
        if g.is_terminal():
            if g.winner is None:
                return "<b>The game stopped without a winner.</b>"
            return (f"<b style='color:#e63946;font-size:15px'>10 DAYS!</b> {self._says(g.winner, 'wins', 'win')}"
                    " with a valid journey. Start a new game with Game \u203a New game.")
        name = html.escape(self.seats[g.current].name)
        if not human_turn:
            if self.waiting_for is not None:
                return f"Waiting for <b>{name}</b>."
            if g.phase == DEAL:
                return f"<b>{name}</b> is taking ten cards\u2026"
            last = self.turn_actions[-1] if self.turn_actions else ""
            if g.phase == PLACE and last.startswith("take:"):
                card = a_card(self.rules, face_of(g.held))
                return f"<b>{name}</b> took {card} from pile {last[5:]}\u2026"
            if g.phase == PLACE:
                return f"<b>{name}</b> drew from the deck\u2026"
            return f"<b>{name}</b> is playing\u2026"
        you = "You" if len(self.humans()) == 1 else name
        return {
            DEAL: f"<b>{you}</b>: put each card you are dealt on an empty day. Cards never move once placed.",
            DRAW: f"<b>{you}</b>: draw a card: click the deck (D) or a discard pile (Q, W, E).",
            PLACE: f"<b>{you}</b>: click a day (1-9, 0) to replace it with the drawn card, or a pile to discard it.",
            DISCARD: f"<b>{you}</b>: put the card you hold on a discard pile"
                     + (" (an empty pile first)." if any(not p for p in g.piles) else "."),
        }[g.phase]

    def _players_html(self) -> str:
        g = self.game
        rows = []
        for i, s in enumerate(self.seats):
            mark = "\u25b6 " if (i == g.current and not g.is_terminal()) else "&nbsp;&nbsp;&nbsp;"
            kind = "" if s.human else f" <span style='color:#666'>({SEAT_KINDS.get(s.kind, s.kind).lower()})</span>"
            won = " <b style='color:#e63946'>10 DAYS!</b>" if g.winner == i else ""
            you = " (you)" if self.online is not None and i == self.online.seat else ""
            rows.append(f"{mark}<b>{html.escape(s.name)}</b>{you}{kind}{won}")
        if self.online is not None:
            rows.insert(0, f"<span style='color:#666'>Online table <b>{html.escape(self.online.table)}</b></span>")
        return "<br>".join(rows)

    def _problems_html(self, seat: int | None, report) -> str:
        g = self.game
        if seat is None or report is None or g.phase == DEAL:
            return ""
        if report.valid:
            return "<b style='color:#2a9d8f'>Valid journey!</b>"
        text = "<b>To fix:</b>"
        if self.hint_on and self.seats[seat].human:  # first, so that it shows however short the panel
            key = tuple(faces_of(g.journeys[seat]))
            if self._hint_cache is None or self._hint_cache[0] != key:
                self._hint_cache = (key, changes_needed(list(key)))
            n = self._hint_cache[1]
            text += f"<br><i>Hint: change at least {n} card{'s' if n != 1 else ''} to finish.</i>"
        # every problem: the list scrolls when the panel is short
        return text + "".join(f"<br><span style='color:#b02a37'>{html.escape(str(p))}</span>" for p in report.problems)

    def _draw_map(self, seat: int | None, journey, report) -> None:
        if not self.active:
            return
        b = self.board
        b.clear_paths()
        b.clear_tokens()
        b.clear_highlight()
        b.remove_layer(LABEL_LAYER)
        if seat is None or report is None:
            return
        codes = [face_of(c) for c in journey if c is not None and is_state(face_of(c))]
        b.set_highlight(codes, LINK_OK)
        for i, card in enumerate(journey):
            if card is not None and is_state(face_of(card)):
                code = face_of(card)
                b.add_token(code, color="#f1faee", label=str(i + 1), tooltip=f"Day {i + 1}: {self.cards.name(code)}",
                            key=("day", i))
        for link in report.links:
            colour = LINK_OK if link.ok else LINK_BAD
            a, z = self.cards.name(link.origin), self.cards.name(link.destination)
            days = f"Day {link.start + 1}-{link.end + 1}"
            if link.kind == "walk":
                what = f"{days}: walk from {a} to {z}"
            elif link.kind == "car":
                what = f"{days}: drive from {a} to {z}"
            else:
                what = f"{days}: fly from {a} to {z} ({self.cards.name(link.transport)})"
            tip = what if link.ok else f"{what}\nNot valid: {link.reason}"
            key = ("link", link.start)
            if link.kind == "walk":
                b.add_path(link.origin, link.destination, style="line", color=colour, tooltip=tip, key=key)
            elif link.kind == "plane":
                b.add_path(link.origin, link.destination, style="arc", color=colour, tooltip=tip, key=key)
            else:
                via = self._car_via(link.origin, link.destination) if link.ok else None
                if via is None:
                    b.add_path(link.origin, link.destination, style="dashed", color=colour, tooltip=tip, key=key)
                else:
                    tip = f"{what} through {self.cards.name(via)}"
                    b.add_path(link.origin, via, style="dashed", color=colour, tooltip=tip, key=key)
                    b.add_path(via, link.destination, style="dashed", color=colour, tooltip=tip, key=key + ("b",))
        self._lift_labels()

    def _lift_labels(self) -> None:
        """Put the labels and tabs that the journey's lines cross above the lines (in a
        layer between the lines and the day circles)."""
        b = self.board
        strokes, states, tabs = [], {}, {}
        for item in b.scene().items():
            if isinstance(item, PathItem):
                stroker = QPainterPathStroker()
                stroker.setWidth(item.pen().widthF())
                strokes.append(stroker.createStroke(item.path()))
            elif isinstance(item, StateItem):
                states[item.code] = item
            elif isinstance(item, CalloutTab):
                tabs[item.state.code] = item
        if not strokes:
            return
        layer = b.layer(LABEL_LAYER, z=9)   # paths are at 8, tokens at 10
        for code, state in states.items():
            if not state.show_label and code not in tabs:
                continue
            chip = LabelChip(state, tabs.get(code))
            if any(stroke.intersects(chip.rect) for stroke in strokes):
                layer.addToGroup(chip)

    def _car_via(self, a: str, z: str) -> str | None:
        """The third state the automobile is drawn through: the one nearest the straight line."""
        options = self.rules.car_via(a, z)
        if not options:
            return None
        pa, pz = self.board.state_anchor(a), self.board.state_anchor(z)
        mid = (pa + pz) / 2

        def distance(code: str) -> float:
            d = self.board.state_anchor(code) - mid
            return d.x() ** 2 + d.y() ** 2

        return min(options, key=distance)

    def _show_win(self) -> None:
        g = self.game
        if g.is_terminal() and g.winner is not None:
            self.win_banner.setText(f"10 DAYS!  {self._says(g.winner, 'wins', 'win', escape=False)}")
            self.win_banner.adjustSize()
            self.win_banner.move(max(8, (self.board_slot.width() - self.win_banner.width()) // 2), 14)
            self.win_banner.raise_()
            self.win_banner.show()
        else:
            self.win_banner.hide()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.pass_screen.isVisible():
            self.pass_screen.setGeometry(self.rect())
        if self.win_banner.isVisible():
            self._show_win()

    # --- shell hooks --------------------------------------------------------------------
    def on_activate(self) -> None:
        fills = {}
        for code, colour in self.cards.state_colour.items():
            fills[code] = _tint(self.cards.colours[colour].display)
            c = self.cards.colours[colour]
            self.board.set_state_tooltip(code, f"Card colour: {c.name} {c.symbol}")
        self.board.set_fills(fills)
        self._advance()

    def on_deactivate(self) -> None:
        self.ai_timer.stop()

    def on_state_clicked(self, code: str) -> None:
        c = self.cards.colours[self.cards.state_colour[code]]
        nbs = sorted(self.rules.borders.neighbours(code))
        where = ", ".join(self.cards.name(n) for n in nbs) if nbs else "none (fly there)"
        self.status.emit(f"{self.cards.name(code)}: {c.name} card {c.symbol}; borders {where}.")

    def save_state(self) -> dict | None:
        if self.online is not None:   # this screen's guess at hidden cards is no game to resume
            match = self._offline_match
            return None if match is None else {**match.to_json(), "hint": self.hint_on}
        if self.match is None:
            return None
        return {**self.match.to_json(), "hint": self.hint_on}  # the hint: this screen's option, not the game's

    def load_state(self, state: dict) -> None:
        if not isinstance(state, dict):
            raise SaveError("10 Days in the USA: the saved game is not a mapping")
        if state.get("game") != TenDaysState.spec.id:
            raise SaveError(f"10 Days in the USA: this save holds no game of 10 Days (its game is {state.get('game')!r})")
        match = Match.from_json(state, "10 Days in the USA: the saved game")
        if any(kind not in SEAT_KINDS for kind in match.seats):
            raise SaveError(f"10 Days in the USA: the seats must be among {', '.join(SEAT_KINDS)}, not {match.seats}")
        match.resolve_chance()  # a log cut after a draw: the card comes now
        if self.online is not None:
            self.leave_online()
        self._install(match, state.get("hint") is True)

    def _undo_point(self) -> int | None:
        """Where the person to move may go back to: their last action, within their own
        turn, when no card has come from the deck since (a drawn card stays drawn)."""
        if not self.is_human_turn() or self.online is not None:   # online, a move is on the record
            return None
        n = self.match.fair_undo_point(self.game.current)
        if n is None or any(e.seat == CHANCE for e in self.match.log[n + 1:]):
            return None
        return n

    def can_undo(self) -> bool:
        """Within your own turn: taking a pile's top card (it was face up) or the choice of
        day. A card drawn from the deck stays drawn, and a finished turn stays finished."""
        return self._undo_point() is not None

    def undo(self) -> None:
        n = self._undo_point()
        if n is None:
            return
        self.match.undo_to(n)
        self._replay_log()
        self._refresh()
        self.changed.emit()
        self.status.emit("Took back your last move.")

    def help_html(self) -> str:
        colours = ", ".join(f"{c.name} {c.symbol}" for k, c in self.cards.colours.items() if k != "white")
        return f"""
<h2>10 Days in the USA</h2>
<p>Plan a ten-day trip across the country. The first player whose ten cards, read from
day 1 to day 10, make one unbroken journey wins.</p>
<h3>The cards</h3>
<p>66 cards: one for each of the 50 states, ten airplanes (two in each of the five colours)
and six automobiles. Every state card has a colour: {colours}; Alaska and Hawaii are white.
The map shows each state in its card colour; hover a state to read it.</p>
<h3>Dealing</h3>
<p>You are dealt ten cards one at a time and put each on an empty day of your choice.
Once a card is on a day it never moves; later it can only be replaced. Three cards start
three face-up discard piles; the rest is the deck.</p>
<h3>Your turn</h3>
<ol>
<li><b>Draw</b>: the top card of the deck, or the top card of any discard pile.</li>
<li><b>Place or keep</b>: swap the drawn card for any one of your ten days (even one that
already connects), or keep your journey as it is.</li>
<li><b>Discard</b> the card you removed, or the drawn card, face up on a discard pile. If a
pile is empty, the card must go there.</li>
</ol>
<p>When the deck runs out, every discard except the top card of each pile is shuffled into a new deck.</p>
<h3>A valid journey</h3>
<ul>
<li>Day 1 and day 10 are state cards.</li>
<li><b>Walk</b>: two state cards on consecutive days must share a border. Touching at a corner
is not enough: Colorado-Arizona and Utah-New Mexico (the Four Corners) do not connect.
Michigan counts as one state, so Ohio-Michigan-Wisconsin is a walk. Maine and New Hampshire
connect on foot. A boundary across a lake or a sound is no border: Michigan-Minnesota (Lake
Superior), Michigan-Illinois (Lake Michigan) and New York-Rhode Island (Block Island Sound)
do not connect.</li>
<li><b>Drive</b>: state, automobile, state. Some third state must border both (the
automobile crosses it; you need no card for it). It also works between two states that
border each other, if a third state borders both (California-car-Oregon, through Nevada),
but not between Maine and New Hampshire, and never to or from Alaska or Hawaii.</li>
<li><b>Fly</b>: state, airplane, state, all of one colour; the states need not be close.
Flying to Alaska or Hawaii, the airplane has the colour of the state you leave; flying from
them, the colour of the state you reach; between Alaska and Hawaii any airplane will do.</li>
<li>Two transport cards may never be next to each other. Airplanes and automobiles are
optional: ten bordering states are a fine journey.</li>
</ul>
<p>At the end of your turn your journey is checked; if it holds, it is <b>10 DAYS!</b> and you win.</p>
<h3>On the screen</h3>
<p>Your days are the cards under the map; the journey is drawn on the map: a line for a walk,
a dashed line through the state a car crosses, an arc for a flight. Links that do not hold are
red: hover them, or a red-edged card, for the reason. Click the deck or a pile to draw, a day to
replace it, a pile to discard. The optional hint (off at first) counts the fewest cards you
still need to change.</p>
<p><b>Keys</b> (once you have clicked a card or the side panel; on the map, letters type a
state's name instead):</p>
<ul>
<li><b>D</b>: draw from the deck; <b>Q</b>, <b>W</b>, <b>E</b>: take from, or discard onto, pile 1, 2, 3</li>
<li><b>1</b>-<b>9</b>, <b>0</b>: the day 1-9, 10 (place the dealt card, or replace that day)</li>
<li><b>K</b>: keep your journey as it is</li>
<li><b>Ctrl+Z</b> (Game \u203a Undo): take back taking a pile's top card, or your choice of day,
before you discard; a card drawn from the deck stays drawn</li>
</ul>
<p>With several people at one screen, each turn starts with a "pass to" screen so that nobody
sees another's cards. Computer players come in three levels: easy, medium and hard.</p>
<h3>What is ours</h3>
<p>The rulebook does not say which colour each state card has, so the colours are our design:
no two bordering states share a colour (a flight always skips at least one state), each colour
has nine or ten states in all four Census regions, and each colour's states have the same total
number of borders. In the app each player takes all ten starting cards before the next player;
as nobody sees another's cards, that deals the same way as going round the table. Borders come
from the Census Bureau's map: states border when they share a line, not a point.</p>
"""
