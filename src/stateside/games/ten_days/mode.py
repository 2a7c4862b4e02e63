"""10 Days in the USA on the shared map: the game's own panels and drawing over the shared
turn-based frame (stateside.app.turns), which runs the turns, the pass screen between
people, undo, the move log, replays, saving and online play.

The player's ten days lie under the map as cards; the deck and the three discard piles
sit in the side panel with the move log. Clicks become the match's actions through
`act`. The journey being shown is drawn on the map: a line across each border walked, a
dashed line through the state an automobile crosses, an arc for each flight, and in red,
with the reason on hover, every link that does not hold.
"""
from __future__ import annotations

import html
import random
from collections import Counter
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QKeySequence, QPainterPathStroker, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from stateside.app.setup_screen import SeatChoice, SetupScreen
from stateside.app.turns import TurnBasedMode
from stateside.board.items import CalloutTab, PathItem, StateItem
from stateside.board.plain import plain_label
from stateside.data.words import possessive
from stateside.engine.match import CHANCE, LogEntry, Match
from stateside.engine.protocol import SPECTATOR
from stateside.errors import IllegalActionError, SaveError
from stateside.games.ten_days.ai import changes_needed
from stateside.games.ten_days.cards import face_of, faces_of, is_state, load_cards
from stateside.games.ten_days.journey import DAYS, a_card, check_journey, travel_rules
from stateside.games.ten_days.rules import CARD, DEAL, DISCARD, DRAW, MAX_PLAYERS, PILES, PLACE, START, TenDaysState
from stateside.games.ten_days.widgets import CardRow, CardSlot, FitScrollArea, LabelChip

SEAT_KINDS = {"human": "Person", "ai:easy": "Computer (easy)", "ai:medium": "Computer (medium)",
              "ai:hard": "Computer (hard)"}
COMPUTER_NAMES = ("Ada", "Ben", "Cleo", "Dev")
LINK_OK = "#1d3557"
LINK_BAD = "#e63946"
SEAT_COLOURS = ("#7b2cbf", "#e8590c", "#0b7285", "#5c940d")   # purple, orange, teal, olive
PILE_KEYS = ("Q", "W", "E")
BANNER_LINES = 3  # the banner's longest texts: a 16-letter name's win; the online note and an order
LABEL_LAYER = "ten-days-labels"
LOG_LINES = 6     # the move log shows at least this many lines, also at 1024x700
# The deal is ten cards and ten placings per player, one player after the other: in the
# log it is one line per player, at the action that completes their ten days.
DEAL_ENTRIES = 2 * DAYS


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


def hint_option(hint: bool):
    """The setup screen's row for this game's one option."""
    def build(form: QFormLayout):
        box = QCheckBox("Show how many cards I still need to change")
        box.setChecked(hint)
        form.addRow("Hint:", box)
        return lambda: {"hint": box.isChecked()}
    return build


class TenDaysMode(TurnBasedMode):
    game_id = "ten-days"
    title = "10 Days in the USA"
    rules = TenDaysState

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.cards = load_cards()
        self.travel = travel_rules()
        self.hint_on = False
        self._hint_cache: tuple | None = None
        self._mark: LogEntry | None = None    # the logged move shown on the table and map
        self._cursor: tuple | None = None     # (match, n, state after n, entry n-1): the log's words

        # --- left: the replay's controls, the map, the player's ten days
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
        self.strip_title = plain_label()   # "<name>'s ten days"
        self.strip_title.setStyleSheet("color: #1d3557; font-weight: bold;")
        title_row = QHBoxLayout()
        title_row.setSpacing(16)
        title_row.addWidget(self.strip_title, 0, Qt.AlignTop)
        # the legend beside the title, where the row has room (the side panel has none to spare)
        legend = QLabel("On the map: <b>—</b> walk across a border, <b>- -</b> automobile through a third"
                        " state, <b>⌢</b> airplane between states of its colour; <span style='color:#e63946'>"
                        "red</span>: not valid (hover it for the reason). Circles give the days."
                        " Alaska and Hawaii are white cards: a flight to or from them takes the other"
                        " state's colour.")
        legend.setWordWrap(True)
        legend.setStyleSheet("color: #555; font-size: 11px;")
        title_row.addWidget(legend, 1)
        sv.addLayout(title_row)
        self.journey_row = CardRow(self.cards, DAYS, card_width=84)
        self.journey_row.setMinimumHeight(128)
        self.journey_row.clicked.connect(self._day_clicked)
        sv.addWidget(self.journey_row)
        lv.addWidget(strip)

        # --- right: instructions, the table, players, problems, the move log
        panel = QFrame()
        panel.setObjectName("sidePanel")
        panel.setFixedWidth(330)
        side = QVBoxLayout(panel)
        side.setContentsMargins(10, 8, 10, 8)
        side.setSpacing(6)
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setTextFormat(Qt.RichText)   # the names in it are escaped
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
        self.hand_text = plain_label()     # may name the player who holds the card
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
        players = QHBoxLayout()
        players.addWidget(self.players_label, 1)
        self.new_button = QPushButton("New game\u2026")
        self.new_button.clicked.connect(self.new_game)
        players.addWidget(self.new_button, 0, Qt.AlignTop)
        side.addLayout(players)
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
        # the move log takes the rest, and never less than LOG_LINES lines (of one row each)
        self.log_panel.setMinimumHeight((self.log_panel.fontMetrics().lineSpacing() + 8) * LOG_LINES)
        log_title = QLabel("<b>Moves</b>")
        log_title.setStyleSheet("color:#1d3557;")
        side.addWidget(log_title)
        self.log_panel.placeholder = "The deal: each player takes ten cards, one at a time; the moves appear here."
        side.addWidget(self.log_panel, 1)
        # The newest line stays in sight, also when the log's lines are laid out after the
        # append (which then found the log "not at the bottom"), unless the reader scrolled up.
        bar = self.log_panel.verticalScrollBar()
        self._log_follows = True
        bar.valueChanged.connect(lambda v: setattr(self, "_log_follows", v >= bar.maximum() - 4))
        bar.rangeChanged.connect(lambda _low, high: self._log_follows and bar.setValue(high))

        # the replay's controls over the whole width (they need more than the map's)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.replay_bar)
        columns = QHBoxLayout()
        columns.setSpacing(0)
        columns.addWidget(left, 1)
        columns.addWidget(panel)
        layout.addLayout(columns, 1)

        self.win_banner = QLabel(self.board_slot)
        self.win_banner.setAlignment(Qt.AlignCenter)
        self.win_banner.setTextFormat(Qt.PlainText)
        self.win_banner.setStyleSheet("background: rgba(230,57,70,225); color: white; font-size: 30px;"
                                      " font-weight: bold; border-radius: 10px; padding: 10px 26px;")
        self.win_banner.hide()

        # Keys work while the focus is on the cards or the panel, not on the map, where
        # letters type a state's name.
        for container in (strip, panel):
            self._add_shortcuts(container)
        for row in (self.journey_row, self.table_row):
            row.setFocusPolicy(Qt.StrongFocus)
        self.pass_screen.button.clicked.connect(self.journey_row.setFocus)

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
    def seat_colour(self, seat: int) -> str:
        """Not red (a link that does not hold) nor the navy of the journey."""
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat >= 0 else super().seat_colour(seat)

    @property
    def seats(self) -> list[Seat]:
        m = self.match
        return [] if m is None else [Seat(name, kind) for name, kind in zip(m.names, m.seats)]

    def start_game(self, seats: list[Seat], first: int = 0, hint: bool | None = None, seed: int | None = None) -> None:
        seed = random.SystemRandom().randrange(2 ** 31) if seed is None else seed
        setup = {"players": [s.name for s in seats], "first_player": first, "turn_limit": None}
        if hint is not None:
            self.hint_on = hint
        self.install(Match(TenDaysState, [s.kind for s in seats], seed, setup))
        self.status.emit("New game of 10 Days in the USA: take your ten cards, one at a time.")

    def setup_screen(self) -> SetupScreen:
        seats = [SeatChoice(s.name, s.kind) for s in self.seats]
        dialog = SetupScreen(TenDaysState.spec, self.title, seats,
                             colours=[self.seat_colour(i) for i in range(MAX_PLAYERS)],
                             first=self.game.setup["first_player"] if self.game else 0,
                             default_names=list(COMPUTER_NAMES), options=hint_option(self.hint_on), parent=self)
        # the rulebook's words: whoever travelled most recently goes first
        dialog.form.labelForField(dialog.first_box).setText("Travelled most recently\n(goes first):")
        return dialog

    def new_game(self) -> None:
        dialog = self.setup_screen()
        if dialog.exec() == QDialog.Accepted:
            seats = [Seat(c.name, c.kind) for c in dialog.seats()]
            self.start_game(seats, dialog.first(), dialog.options()["hint"])

    def on_install(self, state: dict | None) -> None:
        if state is not None:
            self.hint_on = state.get("hint") is True   # this screen's option, saved beside the game
        self.hint_box.blockSignals(True)
        self.hint_box.setChecked(self.hint_on)
        self.hint_box.blockSignals(False)
        self._mark, self._cursor = None, None

    def extra_save(self) -> dict:
        return {"hint": self.hint_on}

    def match_from_save(self, state: dict, where: str = "the save") -> Match:
        if not isinstance(state, dict):
            raise SaveError(f"{where} is not a mapping")
        if state.get("game") != TenDaysState.spec.id:
            raise SaveError(f"{where} holds no game of 10 Days (its game is {state.get('game')!r})")
        match = Match.from_json(state, where)
        if any(kind not in SEAT_KINDS for kind in match.seats):
            raise SaveError(f"{where}: the seats must be among {', '.join(SEAT_KINDS)}, not {match.seats}")
        return match

    # --- the flow of turns: what the frame leaves to the game ------------------------------
    def computer_turn(self, seat: int) -> None:
        """A computer takes its ten cards at once; on its turn it draws, and a moment later
        places (or keeps) and discards, so that a person can follow."""
        m, g = self.match, self.game
        phase = g.phase
        while True:
            if self.play_table.step() is None:   # (through the table: logged)
                break
            while not m.is_over() and g.current_player() == CHANCE:   # the card it is given
                self.play_table.step()
            if m.is_over() or g.current_player() != seat or phase == DRAW:
                break
        self.record(None)

    def final_table(self) -> tuple[list[str], list[list]]:
        g = self.game
        turns = Counter(e.seat for e in self.match.log if str(e.action).startswith("discard:"))
        rows = [[name, "10 DAYS!" if g.winner == i else "", turns[i]] for i, name in enumerate(g.names)]
        return ["Player", "Result", "Turns"], rows

    # --- the move log -----------------------------------------------------------------------
    def in_log(self, entry: LogEntry) -> bool:
        """The deal is one line per player (twenty entries each would flood the log)."""
        deal = DEAL_ENTRIES * len((self.replaying or self.match).seats)
        return entry.index >= deal or entry.index % DEAL_ENTRIES == DEAL_ENTRIES - 1

    def _before(self, entry: LogEntry):
        """The game just before `entry` (read in order, as the log is written, it costs one action)."""
        m = self.replaying or self.match
        c = self._cursor
        if c is not None and c[0] is m and c[1] == entry.index and (c[1] == 0 or m.log[c[1] - 1] is c[3]):
            state = c[2]
        else:
            state = m.state_after(entry.index)
        after = state.clone()
        after.apply_action(entry.action)
        self._cursor = (m, entry.index + 1, after, entry)
        return state

    def hidden_here(self, entry: LogEntry, before=None) -> bool:
        """Whether a person at this screen, other than the one who acted, may not see this
        move. Nothing is hidden once the game is over (an online table's whole log, say, or
        the replay of a finished game); the replay of an unfinished one hides what the
        people here could not see."""
        people = set(self.people())
        whole = self.replaying or self.match
        if not people or (whole is not None and whole.is_over()):
            return False
        return any(not entry.seen_by(p) for p in people)

    def log_text(self, entry: LogEntry) -> str:
        m = self.replaying or self.match
        if entry.index < DEAL_ENTRIES * len(m.seats):   # (the entry that completes a player's ten days)
            return f"{m.names[entry.seat]} took ten cards"
        if self.online is not None:   # online, the referee has said what this seat may read
            text = entry.text.rstrip(".")
            return text[:1].upper() + text[1:]
        before = self._before(entry)
        name = before.names[before.current]
        if self.hidden_here(entry, before):
            if entry.seat == CHANCE:
                return f"The deck gave {name} a card, face down"
            if before.phase == PLACE:
                return f"{name} placed the card on a day or kept the journey"
            return f"{name} made a hidden move"
        # a move all may see can still hold a card the others may not (the rules' words for them)
        live = self.replaying is None and self.game is not None and not self.game.is_terminal()
        others = set(self.people()) - {entry.seat} if live else ()
        text = before.describe(entry.action, others.pop() if len(others) == 1 else SPECTATOR) if others else entry.text
        text = text[:1].upper() + text[1:]
        for event in entry.events:
            if event.kind == "win":
                text += f". 10 DAYS! {self._says(entry.seat, 'wins', 'win', escape=False)}"
            elif event.text:
                text += f"; {event.text}"
        return text

    def highlight_entry(self, entry: LogEntry | None) -> None:
        self._mark = entry
        self.refresh()

    def _marks(self) -> tuple[dict[int, str], dict[int, str], list[str], str]:
        """What the marked log line shows: {table slot: colour}, {day: colour}, the states to
        outline on the map, and the colour (the player's)."""
        entry, g = self._mark, self.game
        if entry is None or g is None:
            return {}, {}, [], ""
        m = self.replaying or self.match
        if entry.index >= len(m.log) or m.log[entry.index] is not entry:
            return {}, {}, [], ""
        try:   # online, the moves this seat could not see were stood in for: they may not replay
            before = self.state_before(entry.index)
        except IllegalActionError:
            return {}, {}, [], ""
        action = str(entry.action)
        seat = before.current if entry.seat == CHANCE and before.pending != START else entry.seat
        colour = self.seat_colour(seat)
        if self.online is not None:   # only our own cards are known for sure here
            seen = entry.seen_by(self.online.seat) and (entry.seat == CHANCE or seat == self.online.seat)
        else:
            seen = not self.hidden_here(entry, before)
        table, days, states = {}, {}, []
        card = None
        if entry.seat == CHANCE:
            card = action[len(CARD):] if seen else None
            if before.pending == START:
                table[1 + next(k for k, p in enumerate(before.piles) if not p)] = colour
            else:
                table[0] = colour
        elif action == "draw":
            table[0] = colour
        elif action.startswith(("take:", "discard:")):
            k = int(action.split(":")[1])
            table[k] = colour
            if self.online is None or seat == self.online.seat:
                card = before.piles[k - 1][-1] if action.startswith("take:") else before.held
        elif entry.index < DEAL_ENTRIES * before.players:   # "took ten cards": their days, if on screen
            if self.shown_journey()[0] == entry.seat:
                days = dict.fromkeys(range(DAYS), colour)
        elif action.startswith("day:") and seen:
            day = int(action[4:]) - 1
            card = before.held
            if self.shown_journey()[0] == entry.seat:
                days[day] = colour
        if card is not None and is_state(face_of(card)):
            states.append(face_of(card))
        return table, days, states, colour

    def online_game_over(self, seat: int) -> None:
        if self.game.winner is None:   # no winner's journey to show: ours
            self.viewer = seat
            self.refresh()

    # --- what people click --------------------------------------------------------------
    def _not_now(self) -> bool:
        """Clicks do nothing while it is not a person's turn here (a replay says why)."""
        if self.is_human_turn():
            return False
        self.refused_in_replay()
        return True

    def _day_clicked(self, slot: int) -> None:
        g = self.game
        if self._not_now():
            return
        if g.phase == DEAL and g.journeys[g.current][slot] is not None:
            self.status.emit(f"Day {slot + 1} already has a card: choose an empty day.")
            return
        if g.phase in (DEAL, PLACE):
            self.act_series(f"day:{slot + 1}")
        elif g.phase == DRAW:
            self.status.emit("First draw a card: from the deck or from the top of a discard pile.")
        elif g.phase == DISCARD:
            self.status.emit("Now put the card you hold on a discard pile.")

    def _table_clicked(self, index: int) -> None:
        g = self.game
        if self._not_now():
            return
        if index == 0:
            if g.phase == DRAW:
                self.act_series("draw")
            elif g.phase in (PLACE, DISCARD):
                self.status.emit("You have drawn this turn: place the card you hold or put it on a discard pile.")
            return
        pile = index
        if g.phase == DRAW:
            if not g.piles[pile - 1]:
                self.status.emit(f"Pile {pile} is empty.")
                return
            self.act_series(f"take:{pile}")
        elif g.phase in (PLACE, DISCARD):
            empty = [k + 1 for k, p in enumerate(g.piles) if not p]
            if empty and pile not in empty:
                self.status.emit(f"Pile {empty[0]} is empty: a discard must go on an empty pile first.")
                return
            if g.phase == PLACE:  # dropping the drawn card on a pile keeps the journey
                self.act_series("keep", f"discard:{pile}")
            else:
                self.act_series(f"discard:{pile}")

    def _keep_clicked(self) -> None:
        if not self._not_now() and self.game.phase == PLACE:
            self.act_series("keep")

    def _hint_toggled(self, on: bool) -> None:
        self.hint_on = on
        self.refresh()
        self.changed.emit()

    # --- drawing --------------------------------------------------------------------------
    def shown_journey(self) -> tuple[int | None, list]:
        """The seat whose journey is on screen and its cards (None: nobody's). A winner's
        journey is shown to all; a replay shows whose turn it is, cards and all."""
        g = self.game
        if g is None:
            return None, [None] * DAYS
        seat = self.viewer
        if g.is_terminal() and g.winner is not None:
            seat = g.winner
        elif self.replaying is not None:
            seat = g.current
        if seat is None:
            return None, [None] * DAYS
        return seat, g.journeys[seat]

    def last_replaced(self, seat: int) -> int | None:
        """The day `seat` replaced last (its first ten days are the deal)."""
        days = [e.action for e in self.match.log if e.seat == seat and str(e.action).startswith("day:")]
        return int(days[-1][4:]) - 1 if len(days) > DAYS else None

    def refresh(self) -> None:
        g = self.game
        if g is None:
            return
        seat, journey = self.shown_journey()
        report = check_journey(journey) if seat is not None else None
        human_turn = self.is_human_turn()
        replay = self.replaying is not None
        phase = g.phase
        mark_table, mark_days, mark_states, mark_colour = self._marks()

        # the ten days
        bad_days = {d for p in (report.problems if report else ()) for d in range(p.first_day, p.last_day + 1)}
        replaced = self.last_replaced(seat) if seat is not None and phase != DEAL else None
        slots = []
        for i, card in enumerate(journey):
            face = None if card is None else face_of(card)
            tip = [f"Day {i + 1}: {self.cards.name(face)}" if face else f"Day {i + 1}: no card yet"]
            if report:
                tip += [str(p) for p in report.problems if p.first_day <= i + 1 <= p.last_day and face]
            enabled = human_turn and (phase == PLACE or (phase == DEAL and card is None))
            outline = "bad" if (i + 1) in bad_days and card is not None and not (phase == DEAL) else None
            if outline is None and replaced == i:
                outline = "new"
            slots.append(CardSlot(face, f"Day {i + 1}", down=seat is None, enabled=enabled, outline=outline,
                                  tooltip="\n".join(tip), frame=mark_days.get(i)))
        self.journey_row.set_slots(slots)
        if seat is None:
            self.strip_title.setText("Cards hidden")
        elif g.is_terminal():
            name = self.seats[seat].name
            kind = "winning journey" if g.winner == seat else "journey"   # a game may stop with no winner
            self.strip_title.setText(f"{possessive(name, start=True)} {kind}")
        else:
            self.strip_title.setText("Your ten days" if self.people() == [seat] and not replay
                                     else f"{possessive(self.seats[seat].name, start=True)} ten days")

        # the table: deck and three discard piles
        empty = [k for k, p in enumerate(g.piles) if not p]
        table = [CardSlot(None, f"Deck ({g.deck_size()})", down=bool(g.deck),
                          enabled=human_turn and phase == DRAW and bool(g.deck),
                          tooltip="The deck: draw its top card (D).", frame=mark_table.get(0))]
        for k, pile in enumerate(g.piles):
            target = phase in (PLACE, DISCARD) and (not empty or k in empty)
            enabled = human_turn and ((phase == DRAW and bool(pile)) or target)
            top = face_of(pile[-1]) if pile else None
            what = f"{self.cards.name(top)} on top" if top else "empty"
            tip = f"Discard pile {k + 1} ({PILE_KEYS[k]}), {len(pile)} card{'s' if len(pile) != 1 else ''}: {what}."
            table.append(CardSlot(top, f"Pile {k + 1} ({len(pile)})", enabled=enabled, tooltip=tip,
                                  outline="pick" if human_turn and phase == DISCARD and empty and k in empty else None,
                                  frame=mark_table.get(k + 1)))
        self.table_row.set_slots(table)

        shows_hand = human_turn or (replay and seat == g.current)
        held = face_of(g.held) if (shows_hand and g.held is not None) else None
        caption = {DEAL: "Dealt", PLACE: "Drawn", DISCARD: "Discard"}.get(phase, "")
        self.hand_row.set_slots([CardSlot(held, caption, tooltip=self.cards.name(held) if held else "")])
        self.hand_row.setVisible(held is not None)
        self.keep_button.setEnabled(human_turn and phase == PLACE)
        self.hand_text.setText(self._hand_text(human_turn, held))
        banner = self._banner_text(human_turn)
        view = self.seat_view
        if view.pending and not g.is_terminal():
            banner = "Sending your move to the table…"
        if view.note:
            banner = f"<div style='color:#b02a37'><b>{html.escape(view.note)}</b></div>{banner}"
        self.banner.setText(banner)
        self.players_label.setText(self._players_html())
        self.problems_label.setText(self._problems_html(seat, report))
        self.problems_area.setVisible(bool(self.problems_label.text()))
        self.problems_area.updateGeometry()
        self.hint_box.setVisible(bool(self.people()) and not replay)
        self._draw_map(seat, journey, report)
        self._fly_new_cards(seat)
        if mark_states and self.active:
            self.board.set_highlight(mark_states, mark_colour)
        self._show_win()

    def _fly_new_cards(self, seat: int | None) -> None:
        """A card that has just come onto a day or a discard pile flies there from the hand
        (or, for a hand not shown, from the deck); only for one new move of the same game."""
        rows = (self.journey_row, self.table_row)
        faces = tuple(tuple(slot.face for slot in row.slots) for row in rows)
        hand = self.hand_row.isVisible() and self.hand_row.slots and self.hand_row.slots[0].face is not None
        origin = self._card_rect(self.hand_row, 0) if hand else self._card_rect(self.table_row, 0)
        now = (self.replaying or self.match, seat, len(self.match.log) if self.match else 0)
        before, self._cards_seen = getattr(self, "_cards_seen", None), (now, faces, origin)
        if before is None or before[0][:2] != now[:2] or not 0 < now[2] - before[0][2] <= 3 or not self.isVisible():
            return
        for row, old, new in zip(rows, before[1], faces):
            for i, (was, face) in enumerate(zip(old, new)):
                if face is None or face == was or (row is self.table_row and i == 0):
                    continue
                row.arriving.add(i)
                row.update()
                self.board.motion.fly(self, row.card_picture(i), before[2], self._card_rect(row, i),
                                      lambda row=row, i=i: (row.arriving.discard(i), row.update()))

    def _card_rect(self, row, i: int):
        """Where card i of a row lies, in this mode's coordinates."""
        r = row.card_rect(i).toRect()
        return r.translated(row.mapTo(self, r.topLeft()) - r.topLeft())

    def _hand_text(self, human_turn: bool, held: str | None) -> str:
        if held is None:
            return ""
        name = self.cards.name(held)
        name = name[0].upper() + name[1:]
        if not human_turn:   # a replay: what the player held, no prompt
            return f"{name}, in {possessive(self.seats[self.game.current].name)} hand."
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
            end = "" if self.replaying is not None else " Start a new game with Game \u203a New game."
            return (f"<b style='color:#e63946;font-size:15px'>10 DAYS!</b> {self._says(g.winner, 'wins', 'win')}"
                    f" with a valid journey.{end}")
        name = html.escape(self.seats[g.current].name)
        if self.replaying is not None:
            what = {DEAL: "taking ten cards", DRAW: "to draw a card", PLACE: "to place the drawn card or keep",
                    DISCARD: "to discard"}[g.phase]
            return f"<b>Replay</b>, move {len(self.match.log)} of {len(self.replaying.log)}: <b>{name}</b> {what}."
        if not human_turn:
            if self.waiting_for is not None:
                return f"Waiting for <b>{name}</b>."
            if g.phase == DEAL:
                return f"<b>{name}</b> is taking ten cards\u2026"
            last = next((str(e.action) for e in reversed(self.match.log) if e.seat == g.current), "")
            if g.phase == PLACE and last.startswith("take:") and g.held is not None:
                card = a_card(self.travel, face_of(g.held))
                return f"<b>{name}</b> took {card} from pile {last[5:]}\u2026"
            if g.phase == PLACE:
                return f"<b>{name}</b> drew from the deck\u2026"
            return f"<b>{name}</b> is playing\u2026"
        you = "You" if len(self.people()) == 1 else name
        return {
            DEAL: f"<b>{you}</b>: put each card you are dealt on an empty day. Cards never move once placed.",
            DRAW: f"<b>{you}</b>: draw a card: click the deck (D) or a discard pile (Q, W, E).",
            PLACE: f"<b>{you}</b>: click a day (1-9, 0) to replace it with the drawn card, or a pile to discard it.",
            DISCARD: f"<b>{you}</b>: put the card you hold on a discard pile"
                     + (" (an empty pile first)." if any(not p for p in g.piles) else "."),
        }[g.phase]

    def _says(self, seat: int, verb: str, you_verb: str, escape: bool = True) -> str:
        """ "Ada wins" but "You win": the default player's name is You."""
        name = self.game.names[seat]
        return f"{html.escape(name) if escape else name} {you_verb if name == 'You' else verb}"

    def _players_html(self) -> str:
        g = self.game
        rows = []
        for i, s in enumerate(self.seats):
            mark = "\u25b6 " if (i == g.current and not g.is_terminal()) else "&nbsp;&nbsp;&nbsp;"
            swatch = f"<span style='color:{self.seat_colour(i)}'>\u25a0</span> "
            kind = "" if s.human else f" <span style='color:#666'>({s.kind.removeprefix('ai:')} computer)</span>"
            won = " <b style='color:#e63946'>10 DAYS!</b>" if g.winner == i else ""
            you = " (you)" if self.online is not None and i == self.online.seat else ""
            rows.append(f"{mark}{swatch}<b>{html.escape(s.name)}</b>{you}{kind}{won}")
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
        hint = self.hint_on and self.replaying is None and self.match.is_human(seat)
        if hint:  # first, so that it shows however short the panel
            key = tuple(faces_of(g.journeys[seat]))
            if self._hint_cache is None or self._hint_cache[0] != key:
                self._hint_cache = (key, changes_needed(list(key)))
            n = self._hint_cache[1]
            text += f"<br><i>Hint: change at least {n} card{'s' if n != 1 else ''} to finish.</i>"
        # every problem: the list scrolls when the panel is short
        return text + "".join(f"<br><span style='color:#b02a37'>{html.escape(str(p))}</span>" for p in report.problems)

    def last_move_states(self, entry: LogEntry) -> list[str] | None:
        """A discard is the public part of a turn: the state thrown away is ringed."""
        if not str(entry.action).startswith("discard:"):
            return None
        try:
            held = self.state_before(entry.index).held
        except IllegalActionError:   # a position set by hand (a tool, a test) whose log does not replay
            return None
        face = face_of(held) if held is not None else None
        return [face] if face is not None and is_state(face) else []

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
                            key=("day", i, code), arrive=True)   # a card new on a day comes down onto its state
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
        options = self.travel.car_via(a, z)
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
        super().on_activate()

    def on_state_clicked(self, code: str) -> None:
        c = self.cards.colours[self.cards.state_colour[code]]
        nbs = sorted(self.travel.borders.neighbours(code))
        where = ", ".join(self.cards.name(n) for n in nbs) if nbs else "none (fly there)"
        self.status.emit(f"{self.cards.name(code)}: {c.name} card {c.symbol}; borders {where}.")

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
<p><b>Moves you can follow.</b> A card put on a day comes down onto its state. A dashed ring in a player's colour marks
that player's last move on the map until their next. View &gt; Animations sets the speed (Fast, Normal) or turns the
moves off; a click or a key never waits for a move to end.</p>
<p><b>Keys</b> (once you have clicked a card or the side panel; on the map, letters type a
state's name instead):</p>
<ul>
<li><b>D</b>: draw from the deck; <b>Q</b>, <b>W</b>, <b>E</b>: take from, or discard onto, pile 1, 2, 3</li>
<li><b>1</b>-<b>9</b>, <b>0</b>: the day 1-9, 10 (place the dealt card, or replace that day)</li>
<li><b>K</b>: keep your journey as it is</li>
<li><b>Ctrl+Z</b> (Game \u203a Undo): take back your last action (taking a pile's top card, your
choice of day, your discard) while nobody else has played since; a card drawn from the deck
stays drawn</li>
</ul>
<p>The move log beside the table lists every move, the computers' too (the deal is one line per
player); point at a line to see the move on the table and the map. Another player's cards are
never named there. Game \u203a Replay\u2026 steps through a saved or finished game.</p>
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
