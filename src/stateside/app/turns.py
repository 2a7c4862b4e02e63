"""The Qt frame every turn-based game mode shares: the driver of the play layer.

What happens is decided below Qt, in stateside.play: a Table (a local match, a replay at
move n, or an online table, one interface) and its TurnFlow (chance resolved at once, a
computer's move after a visible delay, the undo beat after a person's move, a pass screen
between two people who see different things, the fair undo rule). TurnBasedMode only shows
what the flow says, runs the one timer it asks for, and keeps the move log panel, the pass
screen, the score table and the replay bar.

A game's mode derives from TurnBasedMode, sets `rules`, builds its own panels (placing
`self.log_panel` and `self.replay_bar` where it likes), implements `refresh()` (draw
everything from `self.match`, `self.viewer`) and fills in the public hooks it needs
(next_actor, busy, computer_turn, undo_allowed, entry_landed, in_log, line_seat, log_text,
final_table, match_from_save, extra_save, on_install, online_rules, online_log_match,
online_game_over). It never runs its own timer for computer turns, never applies an action
except through `act` / `act_series` / `record`, and overrides no private (_name) method of
this frame (tests/test_modes_use_no_private_frame.py).
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from stateside.app.mode import AI_DELAY_MS, GameMode
from stateside.app.movelog import NO_COLOUR, LogLine, MoveLogPanel
from stateside.app.replay import ReplayBar
from stateside.board.motion import Motion
from stateside.board.plain import button_text, plain_label
from stateside.engine.match import LogEntry, Match
from stateside.engine.protocol import State
from stateside.errors import SaveError
from stateside.play.flow import ChanceAfter, ComputerAfter, ComputerNow, Over, Recheck, TurnFlow
from stateside.play.flow import PassScreen as PassStep
from stateside.play.table import (
    OVER_REFUSAL,
    REPLAY_REFUSAL,
    OnlineSource,
    ReplaySource,
    SeatView,
    Table,
    log_viewer,
    replay_viewer,
)

# Seat colours when a game has none of its own (the log's bars, the setup screen).
PALETTE = ["#e63946", "#1d70b8", "#2a9d8f", "#f4a261", "#7b2cbf", "#6c757d"]


class PassScreen(QFrame):
    """Covers the whole mode between two people's turns in hot-seat play, so that the
    next person's private view appears only when they are ready."""

    def __init__(self, parent: QWidget, on_ready, what: str = "cards"):
        super().__init__(parent)
        self.setObjectName("passScreen")
        self.what = what
        self.setStyleSheet("QFrame#passScreen { background: #1d3557; }"
                           "QLabel { color: #f1faee; } QPushButton { font-size: 16px; padding: 10px 22px; }")
        lay = QVBoxLayout(self)
        lay.addStretch(2)
        # Each shows a player's name or a move with names in it: plain text
        self.title = plain_label()
        self.title.setAlignment(Qt.AlignCenter)
        self.title.setStyleSheet("font-size: 34px; font-weight: bold;")
        self.text = plain_label()
        self.text.setAlignment(Qt.AlignCenter)
        self.text.setStyleSheet("font-size: 15px;")
        self.last_move = plain_label()   # what the table saw last: public, so it may show here
        self.last_move.setAlignment(Qt.AlignCenter)
        self.last_move.setWordWrap(True)
        self.last_move.setStyleSheet("font-size: 13px; color: #a8dadc;")
        self.last_move.setContentsMargins(60, 0, 60, 0)
        self.button = QPushButton()
        self.button.clicked.connect(on_ready)
        lay.addWidget(self.title)
        lay.addWidget(self.text)
        lay.addSpacing(8)
        lay.addWidget(self.last_move)   # no alignment flag: a wrapped label then gets its full height
        lay.addSpacing(16)
        lay.addWidget(self.button, 0, Qt.AlignCenter)
        lay.addStretch(3)
        self.hide()

    def show_for(self, name: str, last_move: str = "") -> None:
        self.title.setText(f"Pass to {name}")
        self.last_move.setText(f"Last move: {last_move}" if last_move else "")
        self.last_move.setVisible(bool(last_move))
        self.text.setText(f"{name}, take the seat: your {self.what} appear when you are ready\n"
                          "and nobody else can see the screen.")
        self.button.setText(button_text(f"I am {name}: show my {self.what}"))
        self.setGeometry(self.parentWidget().rect())
        self.raise_()
        self.show()
        self.button.setFocus()


class ScoreTable(QTableWidget):
    """The final (or running) scores: one row a player, the winner's row in bold."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("scoreTable")
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.NoSelection)
        self.setFocusPolicy(Qt.NoFocus)
        self.verticalHeader().hide()
        self.setAlternatingRowColors(True)

    def set_table(self, columns: list[str], rows: list[list], winners: set[int] = frozenset(),
                  colours: list[str] | None = None) -> None:
        self.clear()
        self.setColumnCount(len(columns))
        self.setRowCount(len(rows))
        self.setHorizontalHeaderLabels(columns)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                item = QTableWidgetItem(_cell(value))
                if c > 0:
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                if r in winners:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                if c == 0 and colours and r < len(colours):
                    item.setForeground(Qt.black)
                    item.setData(Qt.DecorationRole, _swatch(colours[r]))
                self.setItem(r, c, item)
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.Stretch)
        for c in range(1, len(columns)):
            header.setSectionResizeMode(c, QHeaderView.ResizeToContents)
        height = self.horizontalHeader().height() + sum(self.rowHeight(r) for r in range(len(rows))) + 4
        self.setFixedHeight(height)

    def cell_text(self, row: int, column: int) -> str:
        item = self.item(row, column)
        return item.text() if item else ""


def _cell(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _swatch(colour: str):
    from PySide6.QtGui import QColor, QPixmap

    pix = QPixmap(12, 12)
    pix.fill(QColor(colour))
    return pix


class LogLinks:
    """What pointing at the move log does, for every mode that shows one (the turn-based
    scaffold below, and real-time Scrambled States): hovering a line shows its move
    (the mode's highlight_entry), a click pins it, and in a replay a click jumps there.
    The mode has match, replaying, replay_bar and highlight_entry."""

    _pinned: int | None = None   # a log line clicked: its move stays highlighted

    def entry(self, index: int) -> LogEntry | None:
        m = self.replaying or self.match
        return m.log[index] if m is not None and 0 <= index < len(m.log) else None

    def log_rest(self) -> int:
        """The entry shown once the pointer leaves the log (-1: none)."""
        return self._pinned if self._pinned is not None else -1

    def _log_hovered(self, index: int) -> None:
        self.highlight_entry(self.entry(index if index >= 0 else self.log_rest()))

    def _log_picked(self, index: int) -> None:
        if self.replaying is not None:
            self.replay_bar.go(index + 1)   # the game just after that move
            return
        self._pinned = None if self._pinned == index else index
        self.highlight_entry(self.entry(self._pinned) if self._pinned is not None else None)

    def make_log_and_replay_bar(self) -> None:
        """self.log_panel and self.replay_bar, wired to the mode (replay_to, stop_replay)."""
        self.log_panel = MoveLogPanel()
        self.log_panel.hovered.connect(self._log_hovered)
        self.log_panel.picked.connect(self._log_picked)
        self.replay_bar = ReplayBar()
        self.replay_bar.moved.connect(self.replay_to)
        self.replay_bar.closed.connect(self.stop_replay)

    REPLAY_HINT = "Replay: Left and Right step through the moves; Esc goes back to the game."

    def close_replay_bar_quietly(self) -> None:
        """Close the replay bar without its `closed` signal (which would stop the replay again)."""
        if self.replay_bar.isVisible():
            self.replay_bar.blockSignals(True)
            self.replay_bar.close_replay()
            self.replay_bar.blockSignals(False)


class OnTable:
    """What a mode over a play Table (`self.play_table`) has on show: the turn-based and
    the real-time frames alike."""
    play_table: Table

    @property
    def match(self) -> Match | None:
        """The match on show (a replay: the game at the move shown)."""
        return self.play_table.match

    @property
    def game(self):
        return self.match.state if self.match is not None else None

    @property
    def replaying(self) -> Match | None:
        """The whole match a replay steps through (None: no replay on show)."""
        return self.play_table.replaying

    @property
    def online(self):
        """The online session this screen plays at (its seat, table), or None."""
        source = self.play_table.online
        return source.session if source is not None else None

    def replay_source(self) -> ReplaySource | None:
        """The replay on show, to step through (None: none is)."""
        source = self.play_table.source
        return source if isinstance(source, ReplaySource) else None


class TurnBasedMode(OnTable, LogLinks, GameMode):
    """The Qt driver of a play.Table and its play.TurnFlow: it shows what the flow says
    (a pass screen, the score table) and runs the one timer the flow asks for. A game's
    mode fills in the hooks below; it never runs its own timer for computer turns, and
    applies actions only through `act` (a person's) or `record` (a computer's)."""
    turn_came = Signal()   # it became the turn of a person at this screen (the shell's turn cue)
    rules: type[State]               # the game's State class (set by the subclass)
    ai_delay_ms = AI_DELAY_MS        # a computer's move shows after this pause
    private_view = "cards"           # what the pass screen says a person will see
    plays_online = True
    replays = True
    turn_cue = True

    def __init__(self, board, parent: QWidget | None = None):
        super().__init__(board, parent)
        self.play_table = Table()
        self.play_table.listen(self._log_entry)
        self.flow = TurnFlow(self.play_table, next_actor=lambda: self.next_actor(), busy=lambda: self.busy(),
                             undo_allowed=lambda n: self.undo_allowed(n), beat_ms=lambda: self.undo_beat_ms,
                             ai_delay_ms=lambda: self.ai_delay_ms)
        self._was_persons_turn = False
        self._queued: list = []   # online: the rest of one input's actions (act_series)
        self.ai_timer = QTimer(self, singleShot=True, timeout=self._computer_due)
        self.make_log_and_replay_bar()
        self.pass_screen = PassScreen(self, self._pass_done, self.private_view)
        self.score_dialog: QDialog | None = None

    # ------------------------------------------------------------------ what is on show
    @property
    def viewer(self) -> int | None:
        """The seat whose private view is on screen."""
        return self.flow.viewer

    @viewer.setter
    def viewer(self, seat: int | None) -> None:
        self.flow.viewer = seat

    @property
    def waiting_for(self) -> int | None:
        """A pass screen is up for this seat."""
        return self.flow.waiting_for

    @property
    def seat_view(self) -> SeatView:
        """What the seat on screen may know now (play.SeatView: its observation, its exact
        legal actions, the log in its words, online moves pending and the table's note)."""
        return self.play_table.view(self.viewer)

    @property
    def online_unconfirmed(self) -> int:
        source = self.play_table.online
        return source.pending if source is not None else 0

    @property
    def online_note(self) -> str:
        source = self.play_table.online
        return source.note if source is not None else ""

    @property
    def _online_started(self) -> bool:
        source = self.play_table.online
        return source is not None and source.started

    # ------------------------------------------------------------------ for the game
    def refresh(self) -> None:
        """Draw the panels and the board from self.match and self.viewer."""
        raise NotImplementedError

    def seat_colour(self, seat: int) -> str:
        return PALETTE[seat % len(PALETTE)] if seat >= 0 else NO_COLOUR

    def highlight_entry(self, entry: LogEntry | None) -> None:
        """Show one logged move on the board or table (None: remove the highlight).
        `self.state_before(entry.index)` gives the position it was played in."""

    def last_move_states(self, entry: LogEntry) -> list[str] | None:
        """The states of a logged move to ring as its seat's last move on the map (None: the
        entry is no move of its own, e.g. a spin; the seat's move before it stays ringed).
        Only what every seat here may see."""
        return None

    def draw_last_moves(self) -> None:
        """Ring each seat's last move on the map until that seat's next move."""
        if not self.active:
            return
        shown = self.match
        seats_done: set[int] = set()
        marks: dict[int, tuple[list[str], str]] = {}
        if shown is not None:
            seats = len(shown.seats)
            for entry in reversed(shown.log):
                seat = self.line_seat(entry)
                if seat < 0 or seat in seats_done:
                    continue
                codes = self.last_move_states(entry)
                if codes is None:
                    continue
                seats_done.add(seat)
                marks[seat] = (codes, self.log_text(entry))
                if len(seats_done) == seats:
                    break
        for seat in range(max(len(PALETTE), len(shown.seats) if shown is not None else 0)):
            codes, text = marks.get(seat, ([], ""))
            self.board.mark_last(("last-move", seat), codes, self.seat_colour(seat),
                                 f"Last move: {text}" if text else "")

    def busy(self) -> bool:
        """An animation is running (a spinner, a die): the flow waits; call schedule() after."""
        return False

    def next_actor(self) -> int:
        """Who acts next: a seat, CHANCE (resolved at once) or the game's other codes. A game
        whose chance a person sets off (a spin) returns that person's seat."""
        return self.game.current_player()

    def computer_turn(self, seat: int) -> None:
        """A computer seat moves now. Default: decide in this thread and record it. A game
        that thinks in a worker thread calls record(self.match.apply(action, ms)) later."""
        self.record(self.match.step())

    def undo_allowed(self, n: int) -> bool:
        """May a person go back to the game after its first n actions? (Beyond the shared
        rule: e.g. not past a card drawn from the deck.)"""
        return True

    def step_to_take_back(self) -> bool:
        """A part of the person's turn on screen that is not played yet (Carcassonne: a tile
        put down): while it is their turn, undo calls take_back() for it first."""
        return False

    def take_back(self) -> None:
        """Take back the step_to_take_back."""

    def entry_landed(self, entry: LogEntry | None) -> None:
        """New entries are in (here or from the online table), before the game moves on:
        a mode notes what they did (America: a card scored)."""

    def final_table(self) -> tuple[list[str], list[list]]:
        """Columns and rows of the score table (first column: the player)."""
        g = self.game
        scores = g.scores() if g.spec.has_scores else None
        returns = g.returns()
        if scores is not None:
            return ["Player", "Score"], [[name, s] for name, s in zip(g.names, scores)]
        return ["Player", "Result"], [[name, "winner" if r > 0 else ("draw" if r == 0 else "")]
                                     for name, r in zip(g.names, returns)]

    def winners(self) -> set[int]:
        returns = self.game.returns()
        best = max(returns) if returns else 0
        return {i for i, r in enumerate(returns) if r == best and best > 0} if len(set(returns)) > 1 else set()

    def log_text(self, entry: LogEntry) -> str:
        """A logged move in plain words, as this screen may show it (the rules' words for it)."""
        return entry.words_for(self.log_viewer())

    def match_from_save(self, state: dict, where: str = "the save") -> Match:
        """A match from a save's body (a game with its own data, America's decks, overrides)."""
        if not isinstance(state, dict) or state.get("game") != self.rules.spec.id:
            raise SaveError(f"{where}: this is not a saved game of {self.title}")
        return Match.from_json(state, where)

    def extra_save(self) -> dict:
        """This screen's options saved beside the match (e.g. a hint shown)."""
        return {}

    def on_install(self, state: dict | None) -> None:
        """A match was installed (state: the save it came from, if any): reset the mode's own marks."""

    def online_rules(self) -> type[State]:
        """The rules an online table of this game plays (America: on the bundled deck)."""
        return self.rules

    def online_log_match(self, save: dict) -> Match:
        """The match of a table's whole log, as its referee played it (a mode whose rules
        carry data of this screen, such as America's added decks, reads it on the table's)."""
        return Match.from_json(save, "the online table's log")

    def online_game_over(self, seat: int) -> None:
        """An online game ended and its whole log is on screen; `seat` was ours."""

    # ------------------------------------------------------------------ the match
    def install(self, match: Match, saved: dict | None = None) -> None:
        """Put a new or loaded match on screen and carry on with it."""
        self.ai_timer.stop()
        online = self.play_table.online
        if online is not None and match is not online.match:   # a game of this screen: the referee keeps the table's
            self.leave_online(restore=False)
        self._close_replay_bar()
        self._queued = []
        if self.active:
            self.board.forget_places()   # the last game's pieces and moves stay with it
        self.play_table.install(match)
        self.flow.reset()
        self._pinned = None
        self.highlight_entry(None)   # a log line pointed at in the last game is no move of this one
        self.pass_screen.hide()
        self._was_persons_turn = self.online is None   # a game opened here is no turn passing; online it is
        self.on_install(saved)
        self._fill_log()
        self.schedule()
        self.changed.emit()

    def game_in_progress(self) -> bool:
        """A game New or Open would throw away (the one save_state keeps): not one that is over."""
        return self.play_table.in_progress()

    def people(self) -> list[int]:
        """The seats played by people at this screen (online: only ours)."""
        return self.play_table.people()

    def is_human_turn(self) -> bool:
        return self.flow.is_human_turn()

    def start_tutorial(self, match: Match) -> None:
        self.install(match)

    def schedule(self) -> None:
        """Move the game on as far as it goes without a person, then draw it; `turn_came`
        when that makes it a person's turn here."""
        self._show_step()
        self.draw_last_moves()
        persons = self.flow.persons_turn()
        if persons and not self._was_persons_turn:
            self.turn_came.emit()
        self._was_persons_turn = persons
        # online, the rest of one input (10 Days: the discard after "keep") goes once the
        # table has taken the first
        if self._queued and self.online is not None and self.is_human_turn():
            self.act(self._queued.pop(0))

    def _show_step(self) -> None:
        """Show what the flow says comes next, and run the timer it asks for."""
        self.ai_timer.stop()
        if self.match is None or self.replaying is not None:
            return
        step = self.flow.next()
        if isinstance(step, ChanceAfter):
            self.ai_timer.start(step.ms)
        elif isinstance(step, PassStep):
            self.refresh()
            last = self.log_panel.lines()[-1].text if self.log_panel.count() else ""
            self.pass_screen.show_for(self.match.names[step.seat], last)
            return
        elif isinstance(step, ComputerAfter) and self.active:
            self.ai_timer.start(step.ms)
        self.refresh()
        if isinstance(step, Over) and step.first:
            self.on_game_over()

    def private_views(self) -> bool:
        """Do the people at this screen see different things now (a hand, a secret card)?"""
        return self.flow.private_views()

    def _pass_done(self) -> None:
        self.pass_screen.hide()
        self.flow.pass_done()
        self.refresh()

    def _computer_due(self) -> None:
        if not self.active:
            return
        due = self.flow.computer_due()
        if isinstance(due, Recheck):
            self.schedule()
        elif isinstance(due, ComputerNow):
            self.computer_turn(due.seat)

    def act(self, action) -> bool:
        """A person's action: applied (online: sent) if it is their turn and legal, refused
        with a message otherwise (nothing changes)."""
        m = self.match
        if m is None:
            return False
        if m.is_over():
            self.refuse(OVER_REFUSAL)
            return False
        if not self.is_human_turn():
            actor = self.next_actor()
            if self.replaying is not None:
                self.refuse(REPLAY_REFUSAL)
            elif actor >= 0 and actor not in self.people():
                self.refuse(f"Wait: it is {m.names[actor]}'s turn.")
            return False
        why = self.guard_refusal(action)
        if why is not None:   # a tutorial waits for another action: explained, not applied
            self.refuse(why)
            return False
        done = self.play_table.act(self.viewer, action)   # (the table's listener logs it)
        if not done.ok:
            self.refuse(done.reason)
            return False
        if done.kind == "sent":
            self.refresh()
            return True
        self.status.emit("")   # an earlier "not now" message no longer applies
        self._landed(done.entry)
        return True

    def act_series(self, *actions) -> bool:
        """One input that is several actions in a row (10 Days: keep a card, then discard):
        each as `act`; online the rest go once the table has taken the first."""
        if not self.act(actions[0]):
            return False
        if self.online is not None:
            self._queued = list(actions[1:])
            return True
        return all(self.act(a) for a in actions[1:])

    def record(self, entry: LogEntry | None) -> None:
        """An action was applied to the match outside act (a computer, an animation's end):
        log it, then move the game on."""
        self.play_table.announce(entry)
        self._landed(entry)

    def _landed(self, entry: LogEntry | None) -> None:
        if self.active:   # a move under way lands before the next one starts
            for motion in {self.board.motion, *self.findChildren(Motion)}:
                motion.finish()
        self.flow.moved(entry)
        self.entry_landed(entry)
        self.schedule()
        self.changed.emit()

    def refused_in_replay(self) -> bool:
        """A replay is on show: say that input does nothing there (True), else False."""
        if self.replaying is None:
            return False
        self.refuse(REPLAY_REFUSAL)
        return True

    def refuse(self, text: str) -> None:
        text = text[:1].upper() + text[1:]
        self.status.emit(text)

    # ------------------------------------------------------------------ the move log
    def line_seat(self, entry: LogEntry) -> int:
        """Whose line a logged entry is (its colour and name): the actor; a game may give a
        chance outcome to the player it concerns (the spin a player set off)."""
        return entry.seat

    def _line(self, entry: LogEntry) -> LogLine:
        shown = self.replaying or self.match   # a replay's lines name its own players
        names = shown.names if shown is not None else []
        seat = self.line_seat(entry)
        who = names[seat] if 0 <= seat < len(names) else ""
        return LogLine(entry.index, seat, self.log_text(entry), self.seat_colour(seat), who)

    def in_log(self, entry: LogEntry) -> bool:
        """Does this entry get a line of its own? (10 Days gives the deal one line a player.)"""
        return True

    def _log_entry(self, entry: LogEntry) -> None:
        if entry is not None and self.replaying is None and self.in_log(entry):
            self.log_panel.append(self._line(entry))

    def _fill_log(self) -> None:
        shown = self.replaying or self.match
        self.log_panel.set_lines([self._line(e) for e in shown.log if self.in_log(e)] if shown is not None else [])

    def state_before(self, index: int) -> State:
        return self.play_table.state_before(index)

    def state_after(self, n: int) -> State | None:
        """The game after its first n entries (None online: the log holds stand-ins)."""
        return self.play_table.state_after(n)

    # ------------------------------------------------------------------ the end
    def on_game_over(self) -> None:
        """The game just ended in front of the players: the score table."""
        self.show_scores()

    def show_scores(self) -> None:
        if self.match is None or not self.match.is_over():
            return
        if self.score_dialog is not None:
            self.score_dialog.close()
        dialog = QDialog(self)
        dialog.setWindowTitle(f"{self.title}: final scores")
        dialog.setAttribute(Qt.WA_DeleteOnClose)
        lay = QVBoxLayout(dialog)
        winners = self.winners()
        names = self.game.names
        heading = QLabel("<h3>" + html.escape(" and ".join(names[w] for w in sorted(winners)) + (
            " win" if len(winners) > 1 else " wins") if winners else "Nobody wins") + "</h3>")
        lay.addWidget(heading)
        table = ScoreTable()
        columns, rows = self.final_table()
        table.set_table(columns, rows, winners, [self.seat_colour(i) for i in range(len(rows))])
        table.setMinimumWidth(min(720, 140 + 90 * len(columns)))
        lay.addWidget(table)
        buttons = QDialogButtonBox()
        replay = buttons.addButton("Replay this game", QDialogButtonBox.ActionRole)
        new = buttons.addButton("New game\u2026", QDialogButtonBox.ActionRole)
        buttons.addButton(QDialogButtonBox.Close)
        replay.clicked.connect(lambda: (dialog.close(), self.start_replay(self.match)))
        new.clicked.connect(lambda: (dialog.close(), self.new_game()))
        buttons.rejected.connect(dialog.close)
        lay.addWidget(buttons)
        dialog.setModal(False)
        self.score_dialog = dialog
        self.score_table = table
        dialog.destroyed.connect(lambda: setattr(self, "score_dialog", None))
        dialog.show()

    # ------------------------------------------------------------------ undo
    def undo_point(self) -> int | None:
        """Where a person here may go back to: before their own last action, while no
        other seat has acted since (and the game allows it)."""
        return self.flow.undo_point()

    def can_undo(self) -> bool:
        return (self.step_to_take_back() and self.is_human_turn()) or self.undo_point() is not None

    def undo_refusal(self) -> str | None:
        """Why Ctrl+Z takes nothing back now, in a person's words (None: it would)."""
        return self.flow.undo_refusal()

    def undo(self) -> None:
        """Take back the step of this turn not played yet, else the person's last move while
        nobody else has moved since (the shared fair rule)."""
        if self.step_to_take_back() and self.is_human_turn():
            self.take_back()
            return
        if self.flow.undo() is None:   # refused: the computers' timer runs on
            return
        self.ai_timer.stop()
        self._fill_log()
        self.schedule()
        self.changed.emit()
        self.status.emit("Took back your last move.")

    # ------------------------------------------------------------------ saving
    def save_state(self) -> dict | None:
        body = self.play_table.save()   # the game kept here: not a replay, not an online view
        return None if body is None else {**body, **self.extra_save()}

    def load_state(self, state: dict) -> None:
        self.install(self.match_from_save(state, f"{self.title}: the saved game"), state)

    # ------------------------------------------------------------------ replays
    def start_replay(self, match: Match) -> None:
        """Step through `match` on this mode's board, read-only; the game in progress waits."""
        self.ai_timer.stop()
        if self.replaying is None:
            self._live_viewer = self.viewer
        self.play_table.start_replay(match)
        self.pass_screen.hide()
        self._fill_log()
        self.replay_bar.start(len(match.log), f"Replay: {self.title}")
        self.replay_bar.slider.setFocus()    # the bar's keys (Left, Right, Home, End, Esc) work at once
        self.status.emit(self.REPLAY_HINT)
        self.changed.emit()

    def replay_to(self, n: int) -> None:
        source = self.replay_source()
        if source is None:
            return
        shown = source.go(n)
        self.viewer = replay_viewer(source.whole, shown.state)
        self.log_panel.select_entry(n - 1 if n > 0 else None)
        self.highlight_entry(source.whole.log[n - 1] if n > 0 else None)
        self.refresh()
        self.draw_last_moves()

    def log_viewer(self) -> int | None:
        """Whose words the move log reads (LogEntry.words_for): everything (None) once the
        game is over or when only computers play; else the one person here, or the public
        words when several people share the screen."""
        return log_viewer(self.play_table)

    def stop_replay(self) -> None:
        if self.replaying is None:
            return
        self._end_replay_silently()
        self._fill_log()
        self.highlight_entry(None)
        self.schedule()
        self.changed.emit()
        self.status.emit("Back to the game.")

    _live_viewer: int | None = None   # the viewer of the game a replay put aside

    def _end_replay_silently(self) -> None:
        if self.replaying is not None:
            self.play_table.stop_replay()
            self.viewer, self._live_viewer = self._live_viewer, None
        self._close_replay_bar()

    def _close_replay_bar(self) -> None:
        if self.replaying is not None:
            self._end_replay_silently()
        self.close_replay_bar_quietly()

    # ------------------------------------------------------------------ the shell's calls
    def on_activate(self) -> None:
        self.schedule()

    def on_deactivate(self) -> None:
        self.ai_timer.stop()
        if self.replay_bar.playing():
            self.replay_bar.toggle_play()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.pass_screen.isVisible():
            self.pass_screen.setGeometry(self.rect())

    # ------------------------------------------------------------------ online play
    # A session (stateside.app.online.OnlineSession) has: seat, table, send(action_json),
    # leave(), close(), and the signals update(view), connection(bool), refused(str),
    # ended(result). It feeds a play.OnlineSource, which keeps the table's game as this seat
    # knows it (engine.following); this driver only wires the signals and shows the result.
    def attach_online(self, session) -> None:
        from stateside.app.online import presence_change

        if self.online is not None:
            self.leave_online()
        self._close_replay_bar()
        self.play_table.go_online(OnlineSource(session, self.online_rules(), presence_change=presence_change))
        for signal, slot in self._session_slots(session):
            signal.connect(slot)
        self.status.emit(f"Online table {session.table}: you are seat {session.seat + 1}.")

    def _session_slots(self, session) -> list:
        return [(session.update, self.online_update), (session.connection, self._online_connection),
                (session.refused, self._online_refused), (session.ended, self._online_ended)]

    def leave_online(self, restore: bool = True) -> None:
        """Leave the table (the referee keeps the game); back to the game played here before."""
        session = self.online
        if session is None:
            return
        for signal, slot in self._session_slots(session):
            signal.disconnect(slot)
        if self.game is not None and not self.game.is_terminal():
            session.leave()   # the referee frees the seat and revokes its credentials
        else:
            session.close()
        self._close_replay_bar()
        offline = self.play_table.aside
        self.play_table.leave_online(restore=False)
        if restore and offline is not None and offline.match is not None:
            self.install(offline.match)

    def online_update(self, view: dict) -> None:
        """The seat's view from the referee: the entries not yet here, in a world that agrees
        with all this seat was told (the rules deal what it cannot see)."""
        source = self.play_table.online
        if source is None or self.play_table.kind != "online":
            return
        done = source.update(view)
        if done.said:
            self.status.emit(done.said)
        if done.waiting:
            if done.said:
                self.refresh()
            return
        if done.started is not None:   # the table's game replaces whatever was on screen
            self.install(done.started)
        else:
            for entry in done.entries:
                self.play_table.announce(entry)
        self.entry_landed(None)
        self.schedule()
        self.changed.emit()

    def _online_connection(self, up: bool) -> None:
        source = self.play_table.online
        said = source.connection(up) if source is not None else None
        if said:
            self.status.emit(said)
        self.refresh()

    def _online_refused(self, reason: str) -> None:
        source = self.play_table.online
        if source is None:
            return
        self._queued = []
        self.status.emit(source.refused(reason))
        self.schedule()

    def _online_ended(self, result: dict) -> None:
        """The referee's whole log replaces this screen's guesses: a finished game like any other.
        A resigned game did not finish: its log is shown as a replay (read-only), and Esc goes
        back to the game this screen had before the table."""
        source = self.play_table.online
        if source is None:
            return
        if result.get("resigned") is not None:
            from stateside.app.online import resign_words

            table = source.table_code
            self.leave_online(restore=True)
            match = self.online_log_match(result["save"])
            words = resign_words(result, match.names)
            self.start_replay(match)
            self.replay_bar.title.setText(f"Table {table}: {words}")
            self.status.emit(f"{words} The table's game is shown as a replay; Esc goes back to your game.")
            return
        match, said = source.ended(result, self.online_log_match)
        seat = source.seat
        self.leave_online(restore=False)
        self.install(match)
        self.status.emit(said)
        if seat is not None:
            self.online_game_over(seat)
