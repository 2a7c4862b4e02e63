"""The frame every turn-based game mode shares, so that a fix made here reaches them all:

- the flow of turns (`schedule`): chance is resolved, a computer seat moves after a short
  visible delay on one timer, a person's turn waits (after a pass screen when two people
  at this screen see different things);
- the human-turn check and the one way a person's action goes in (`act`), with a clear
  refusal when it is not legal;
- the undo policy: a person takes back only their own last action, only while no other
  seat has acted since and never past a chance outcome they saw (`Match.undo_refusal`,
  from the rules' declared audiences; a game may refuse more, see `undo_allowed`). Against
  computers a move is not final until they start: after a person's move the computers
  (and the draw that begins their turn) wait `undo_beat_ms` (a setting, 1.5 s by default),
  and Ctrl+Z in that beat takes the move back. Where undo is refused the status bar says why;
- the move log panel, the score table at the end, replays, saving and loading a match;
- online play: a session's confirmed moves drive the match (`attach_online`).

A game's mode derives from TurnBasedMode, sets `rules`, builds its own panels (placing
`self.log_panel` and `self.replay_bar` where it likes), and implements `refresh()` (draw
everything from `self.match`, `self.viewer`) plus the hooks it needs. It never runs its
own timer for computer turns, and never applies an action except through `act` /
`record`.
"""
from __future__ import annotations

import html
import json

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
from stateside.engine.following import follow
from stateside.engine.match import LogEntry, Match, chance_rng, sample_chance
from stateside.engine.protocol import CHANCE, SIMULTANEOUS, SPECTATOR, State
from stateside.errors import IllegalActionError, SaveError

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

    def _make_log_and_replay_bar(self) -> None:
        """self.log_panel and self.replay_bar, wired to the mode (replay_to, stop_replay)."""
        self.log_panel = MoveLogPanel()
        self.log_panel.hovered.connect(self._log_hovered)
        self.log_panel.picked.connect(self._log_picked)
        self.replay_bar = ReplayBar()
        self.replay_bar.moved.connect(self.replay_to)
        self.replay_bar.closed.connect(self.stop_replay)


class TurnBasedMode(LogLinks, GameMode):
    turn_came = Signal()   # it became the turn of a person at this screen (the shell's turn cue)
    rules: type[State]               # the game's State class (set by the subclass)
    ai_delay_ms = AI_DELAY_MS        # a computer's move shows after this pause
    private_view = "cards"           # what the pass screen says a person will see

    def __init__(self, board, parent: QWidget | None = None):
        super().__init__(board, parent)
        self.match: Match | None = None
        self.viewer: int | None = None       # the seat whose private view is on screen
        self.waiting_for: int | None = None  # a pass screen is up for this seat
        self.replaying: Match | None = None  # the whole match a replay steps through
        self._live: tuple | None = None      # (match, viewer) put aside during a replay
        self._over_shown = False
        self._was_persons_turn = False
        self.online = None                   # an OnlineSession while at an online table
        self._offline_match: Match | None = None
        self.online_unconfirmed = 0
        self.online_note = ""
        self._online_started = False
        self.ai_timer = QTimer(self, singleShot=True, timeout=self._computer_due)
        self._beat_over = False   # the computers' beat after a person's move has run out
        self._online_before: dict[int, State] = {}   # online: the world here before each entry
        self._make_log_and_replay_bar()
        self.pass_screen = PassScreen(self, self._pass_done, self.private_view)
        self.score_dialog: QDialog | None = None

    # ------------------------------------------------------------------ for the game
    @property
    def game(self):
        return self.match.state if self.match is not None else None

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

    # ------------------------------------------------------------------ the match
    def install(self, match: Match, saved: dict | None = None) -> None:
        """Put a new or loaded match on screen and carry on with it."""
        self.ai_timer.stop()
        if self.replaying is not None:
            self._end_replay_silently()
        if self.active:
            self.board.forget_places()   # the last game's pieces and moves stay with it
        self.match = match
        self.viewer = None
        self.waiting_for = None
        self._pinned = None
        self.highlight_entry(None)   # a log line pointed at in the last game is no move of this one
        self.pass_screen.hide()
        self._over_shown = match.is_over()   # a loaded finished game: no score popup
        self._was_persons_turn = self.online is None   # a game opened here is no turn passing; online it is
        self.on_install(saved)
        self._fill_log()
        self.schedule()
        self.changed.emit()

    def game_in_progress(self) -> bool:
        """A game New or Open would throw away (the one save_state keeps): not one that is over."""
        if self.online is not None:
            match = self._offline_match
        else:
            match = self._live[0] if self._live is not None else self.match
        return match is not None and not match.is_over()

    def people(self) -> list[int]:
        """The seats played by people at this screen (online: only ours)."""
        if self.online is not None and self.online.seat is not None:
            return [self.online.seat]
        return self.match.humans() if self.match is not None else []

    def is_human_turn(self) -> bool:
        m = self.match
        if m is None or m.is_over() or self.replaying is not None or self.busy():
            return False
        if self.waiting_for is not None or self.online_unconfirmed:
            return False
        if self.online is not None and not self._online_started:
            return False
        actor = self.next_actor()
        if actor == SIMULTANEOUS:
            return bool(self.people())
        return actor in self.people() and self.viewer == actor

    def schedule(self) -> None:
        """Move the game on as far as it goes without a person, then draw it; `turn_came`
        when that makes it a person's turn here."""
        self._move_on()
        self.draw_last_moves()
        persons = self._persons_turn()
        if persons and not self._was_persons_turn:
            self.turn_came.emit()
        self._was_persons_turn = persons

    def _persons_turn(self) -> bool:
        """A person here is to act, or their pass screen is up. Unlike is_human_turn, not
        interrupted by an animation or a move on its way to the online table, which would
        make the same turn seem to come twice."""
        m = self.match
        if m is None or m.is_over() or self.replaying is not None:
            return False
        if self.waiting_for is not None:
            return True
        if self.online is not None and not self._online_started:
            return False
        actor = self.next_actor()
        return bool(self.people()) if actor == SIMULTANEOUS else actor in self.people()

    def _move_on(self) -> None:
        self.ai_timer.stop()
        m = self.match
        if m is None or self.replaying is not None:
            return
        if self.online is None:
            while not m.is_over() and not self.busy() and self.next_actor() == CHANCE:
                if self._in_beat():   # the draw that starts the computers' turn waits with them
                    self.ai_timer.start(self.undo_beat_ms)
                    self.refresh()
                    return
                self._log_entry(m.step())
        if m.is_over():
            self.viewer = None if len(self.people()) != 1 else self.people()[0]
            self.refresh()
            if not self._over_shown:
                self._over_shown = True
                self.on_game_over()
            return
        actor = self.next_actor()
        people = self.people()
        if actor in people:
            if self._needs_pass_screen(actor):
                self.viewer = None
                self.waiting_for = actor
                self.refresh()
                last = self.log_panel.lines()[-1].text if self.log_panel.count() else ""
                self.pass_screen.show_for(m.names[actor], last)
                return
            self.viewer = actor
        else:
            if len(people) == 1:
                self.viewer = people[0]
            elif len(people) > 1 and self.private_views():
                self.viewer = None   # nobody's private view while a computer plays between people
            elif not people:
                self.viewer = actor if actor >= 0 else None   # computers only: watch everything
            if self.online is None and actor >= 0 and self.active and not self.busy():
                beat = self._person_moved_last() and not self._beat_over
                self.ai_timer.start(max(self.undo_beat_ms, self.ai_delay_ms) if beat else self.ai_delay_ms)
        self.refresh()

    def _person_moved_last(self) -> bool:
        """The last action that was no chance outcome is a person's here (their move is
        not final yet: the computers wait the beat)."""
        last = next((e for e in reversed(self.match.log) if e.seat != CHANCE), None)
        return self.undo_beat_ms > 0 and last is not None and last.seat in self.people()

    def _in_beat(self) -> bool:
        """At a chance node right after a person's move, when what it deals begins
        another seat's turn (a computer's): it waits the beat, so that the move can still be
        taken back without anyone having seen what comes next. A draw the person's own turn
        needs (their card, their flip) is dealt at once."""
        if self._beat_over or not self._person_moved_last():
            return False
        m = self.match
        probe = m.state.clone()   # where the turn goes, found on a copy with the match's own draws
        n = len(m.log)
        while probe.current_player() == CHANCE and not probe.is_terminal():
            probe.apply_action(sample_chance(probe, chance_rng(m.seed, n)))
            n += 1
        nxt = probe.current_player()
        return nxt >= 0 and nxt not in self.people()

    def _seen(self, seat: int) -> str:
        """What a seat sees now, apart from its own seat number."""
        obs = dict(self.game.observation(seat))
        obs.pop("seat", None)
        return json.dumps(obs, sort_keys=True, default=str)

    def private_views(self) -> bool:
        """Do the people at this screen see different things now (a hand, a secret card)?"""
        people = self.people()
        if len(people) < 2 or not self.rules.spec.hidden_information:
            return False
        first = self._seen(people[0])
        return any(self._seen(p) != first for p in people[1:])

    def _needs_pass_screen(self, actor: int) -> bool:
        """Two people at this screen, and the next one sees something the one on screen
        does not (their observations differ beyond their own seat number)."""
        if len(self.people()) < 2 or self.viewer == actor or not self.rules.spec.hidden_information:
            return False
        if self.viewer is None:
            return self.private_views()
        return self._seen(actor) != self._seen(self.viewer)

    def _pass_done(self) -> None:
        self.pass_screen.hide()
        self.viewer, self.waiting_for = self.waiting_for, None
        self.refresh()

    def _computer_due(self) -> None:
        m = self.match
        if m is None or m.is_over() or not self.active or self.replaying is not None or self.busy():
            return
        self._beat_over = True   # the person's move is final from here
        actor = self.next_actor()
        if actor < 0 or actor in self.people() or self.online is not None:
            self.schedule()
            return
        self.computer_turn(actor)

    def act(self, action) -> bool:
        """A person's action: applied if it is their turn and legal, refused with a message
        otherwise (nothing changes)."""
        m = self.match
        if m is None:
            return False
        if m.is_over():
            self.refuse("The game is over: start a new one (Game > New game).")
            return False
        if not self.is_human_turn():
            actor = self.next_actor()
            if self.replaying is not None:
                self.refuse("This is a replay: close it to play on.")
            elif actor >= 0 and actor not in self.people():
                self.refuse(f"Wait: it is {m.names[actor]}'s turn.")
            return False
        why = self.guard_refusal(action)
        if why is not None:   # a tutorial waits for another action: explained, not applied
            self.refuse(why)
            return False
        if self.online is not None:
            try:
                self.game.clone().apply_action(action)   # refused here already if illegal
            except IllegalActionError as e:
                self.refuse(str(e))
                return False
            self.online.send(self.game.action_to_json(action))
            self.online_unconfirmed += 1
            self.refresh()
            return True
        try:
            entry = m.apply(action)
        except IllegalActionError as e:
            self.refuse(str(e))
            return False
        self.status.emit("")   # an earlier "not now" message no longer applies
        self.record(entry)
        return True

    def record(self, entry: LogEntry | None) -> None:
        """An action was applied to the match (by act, a computer, an animation's end):
        log it, then move the game on."""
        if self.active:   # a move under way lands before the next one starts
            for motion in {self.board.motion, *self.findChildren(Motion)}:
                motion.finish()
        if entry is not None:
            self._log_entry(entry)
            if entry.seat in self.people():
                self._beat_over = False   # a person's new move: the computers wait the beat again
        self.schedule()
        self.changed.emit()

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
        if self.online is not None and index in self._online_before:
            return self._online_before[index]   # online the log holds stand-ins: it does not replay
        return (self.replaying or self.match).state_after(index)


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
        m = self.match
        if m is None or self.replaying is not None or self.online is not None or self.busy():
            return None
        if self.waiting_for is not None:   # the next person may be at the screen already
            return None
        last = next((e for e in reversed(m.log) if e.seat != CHANCE), None)
        if last is None or last.seat not in self.people():
            return None
        if len(self.people()) > 1 and last.seat != self.viewer:
            return None   # the next person is at the screen now: not theirs to take back
        n = m.fair_undo_point(last.seat)
        return n if n is not None and self.undo_allowed(n) else None

    def can_undo(self) -> bool:
        return self.undo_point() is not None

    def undo_refusal(self) -> str | None:
        """Why Ctrl+Z takes nothing back now, in a person's words (None: it would)."""
        m = self.match
        if m is None:
            return "There is no game to take a move back in."
        if self.replaying is not None:
            return "This is a replay: close it to play on."
        if self.online is not None:
            return "At an online table a move the table has taken can't be taken back."
        if self.busy():
            return "Wait for the move under way to finish."
        if self.waiting_for is not None:
            return f"{m.names[self.waiting_for]} is at the screen now: the last move can't be taken back."
        last = next((e for e in reversed(m.log) if e.seat != CHANCE), None)
        if last is None or last.seat not in self.people():
            return "There is no move of yours to take back."
        if len(self.people()) > 1 and last.seat != self.viewer:
            return "The next player is at the screen now: the last move is not theirs to take back."
        why = m.undo_refusal(last.seat)
        if why:
            return why
        n = m.fair_undo_point(last.seat)
        if n is not None and not self.undo_allowed(n):
            return "The rules of this game don't let that move be taken back."
        return None

    def undo(self) -> None:
        n = self.undo_point()
        if n is None:
            return
        seat = self.match.log[n].seat
        self.ai_timer.stop()
        self._beat_over = False
        self.match.undo_to(n)
        self._over_shown = False
        self.viewer = seat          # the same person, who saw it all already
        self._fill_log()
        self.schedule()
        self.changed.emit()
        self.status.emit("Took back your last move.")

    # ------------------------------------------------------------------ saving
    def save_state(self) -> dict | None:
        if self.online is not None:   # this screen's view of an online table is no game to resume
            match = self._offline_match
        else:
            match = self._live[0] if self._live is not None else self.match
        return None if match is None else {**match.to_json(), **self.extra_save()}

    def load_state(self, state: dict) -> None:
        match = self.match_from_save(state, f"{self.title}: the saved game")
        if self.online is not None:
            self.leave_online(restore=False)
        self.install(match, state)

    # ------------------------------------------------------------------ replays
    def start_replay(self, match: Match) -> None:
        """Step through `match` on this mode's board, read-only; the game in progress waits."""
        self.ai_timer.stop()
        if self.replaying is None:
            self._live = (self.match, self.viewer)
        self.replaying = match
        self.pass_screen.hide()
        self._fill_log()
        self.replay_bar.start(len(match.log), f"Replay: {self.title}")
        self.status.emit("Replay: Left and Right step through the moves; Esc goes back to the game.")
        self.changed.emit()

    def replay_to(self, n: int) -> None:
        if self.replaying is None:
            return
        shown = Match(self.replaying.rules, self.replaying.seats, self.replaying.seed, self.replaying.initial_setup)
        shown.log = self.replaying.log[:n]
        shown.state = self.replaying.state_after(n)
        self.match = shown
        self.viewer = self.replay_viewer(shown.state)
        self.log_panel.select_entry(n - 1 if n > 0 else None)
        self.highlight_entry(self.replaying.log[n - 1] if n > 0 else None)
        self.refresh()
        self.draw_last_moves()

    def replay_viewer(self, state) -> int | None:
        """Whose view a replay shows: a finished game's whose turn it was, cards and all; an
        unfinished game's only what the people at this screen could see (the one person's
        own view; with several people, or none, nobody's private view)."""
        if self.replaying.is_over():
            actor = state.current_player()
            return actor if actor >= 0 else None
        people = self.replaying.humans()
        return people[0] if len(people) == 1 else None

    def log_viewer(self) -> int | None:
        """Whose words the move log reads (LogEntry.words_for): everything (None) once the
        game is over or when only computers play; else the one person here, or the public
        words when several people share the screen."""
        whole = self.replaying or self.match
        people = self.people()
        if whole is None or whole.is_over() or not people:
            return None
        return people[0] if len(people) == 1 else SPECTATOR

    def stop_replay(self) -> None:
        if self.replaying is None:
            return
        self._end_replay_silently()
        self._fill_log()
        self.highlight_entry(None)
        self.schedule()
        self.changed.emit()
        self.status.emit("Back to the game.")

    def _end_replay_silently(self) -> None:
        self.replaying = None
        match, viewer = self._live if self._live is not None else (None, None)
        self._live = None
        self.match, self.viewer = match, viewer
        if self.replay_bar.isVisible():
            self.replay_bar.blockSignals(True)
            self.replay_bar.close_replay()
            self.replay_bar.blockSignals(False)

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
    # close(), and the signals update(view), connection(bool), refused(str), ended(result).
    # The match here is the table's game as this seat knows it (engine.following): moves it
    # may not see are stood in for, and the world is made to agree with each observation
    # the referee sends; when the game ends, the referee's whole log replaces it.
    def attach_online(self, session) -> None:
        if self.online is not None:
            self.leave_online()
        if self.replaying is not None:
            self._end_replay_silently()
        self._offline_match = self.match
        self.online = session
        self._online_before = {}
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
        if self.game is not None and not self.game.is_terminal():
            session.leave()   # the referee frees the seat and revokes its credentials
        else:
            session.close()
        self.online_unconfirmed, self.online_note = 0, ""
        offline, self._offline_match = self._offline_match, None
        if restore and offline is not None:
            self.install(offline)

    def online_update(self, view: dict) -> None:
        """The seat's view from the referee: the entries not yet here, in a world that agrees
        with all this seat was told (engine.following; the rules deal what it cannot see)."""
        if self.online is None:
            return
        if self._online_presence(view):
            return
        if not self._online_started:   # the table's game replaces whatever was on screen
            info = view["info"]
            if "seats" not in info or "setup" not in info:
                return   # the table's sync has not come yet (a host's first view can be ahead of it)
            self._online_started = True
            self.install(Match(self.rules, info["seats"], 0, info["setup"]))
        seat = self.online.seat
        done = follow(self.match, seat, view["entries"], view.get("observed") or {},
                      view.get("observation"), view["n"])
        self._online_before.update(done.before)
        for entry in done.entries:
            if entry.seat == seat:
                self.online_unconfirmed = max(0, self.online_unconfirmed - 1)
            self._log_entry(entry)
        if done.disagreed:
            self.status.emit("This screen could not agree with the table; it goes on with the table's word.")
        self.schedule()
        self.changed.emit()

    def _online_presence(self, view: dict) -> bool:
        """A table that waits for a seat (someone left) says who and how to bring them back;
        when the seat is taken again, that it goes on. True while it waits."""
        from stateside.app.online import presence_note

        waiting = view["status"] == "lobby"
        note = presence_note(view) if waiting and self._online_started else ""
        if note and note != self.online_note:
            self.online_note = note
            self.status.emit(note)
            self.refresh()
        elif not waiting and f"Share code {view.get('table')}" in self.online_note:
            self.online_note = ""
            self.status.emit("Every seat is taken again: the game goes on.")
            self.refresh()
        return waiting

    def _online_connection(self, up: bool) -> None:
        self.online_note = "" if up else "Connection lost: reconnecting\u2026"
        if up:
            self.status.emit("Reconnected; caught up with the table.")
        self.refresh()

    def _online_refused(self, reason: str) -> None:
        self.online_unconfirmed = 0
        self.status.emit(f"The table refused that move: {reason}")
        self.schedule()

    def online_log_match(self, save: dict) -> Match:
        """The match of a table's whole log, as its referee played it (a mode whose rules
        carry data of this screen, such as America's added decks, reads it on the table's)."""
        return Match.from_json(save, "the online table's log")

    def _online_ended(self, result: dict) -> None:
        """The referee's whole log replaces this screen's guesses: a finished game like any other."""
        table = self.online.table if self.online else ""
        self.leave_online(restore=False)
        self.install(self.online_log_match(result["save"]))
        if result.get("problem"):
            self.status.emit(f"Online game {table} over, but it does not check out: {result['problem']}")
        else:
            self.status.emit(f"Online game {table} over; the deck's seed checks out.")
