"""Scrambled States on the shared map: a thin real-time view over a play.Table.

What is below the view is app/realtime.py's RealtimeMode: the table (the game here, a
replay, an online table), the play layer's real-time flow (the one clock loop brings time,
the computers' slaps and the engine's deadlines up to the game time the clock has
reached; a click or key press lets time pass to that moment, then the person's action
goes in), pausing, saving, replays and online play. The engine decides who wins; this view
builds its panels (panels.py), draws the table and the map (map_items.py), turns clicks
and keys into actions and words what happened (words.py).
"""
from __future__ import annotations

import html
import random

from PySide6.QtCore import QEvent, QPoint, QRect, Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QVBoxLayout

from stateside.app.movelog import NO_COLOUR, LogLine
from stateside.app.realtime import RealtimeMode
from stateside.engine.match import LogEntry, Match
from stateside.games.scrambled_states.cards import load_cards
from stateside.games.scrambled_states.help import help_html
from stateside.games.scrambled_states.map_items import MapMarks
from stateside.games.scrambled_states.panels import (
    BUZZER_LABELS,
    CHANCE_COLOUR,
    DEFAULT_SEATS,
    PRACTICE_HEAD_START_MS,
    SEAT_COLOURS,
    ScrambledSetup,
    SidePanel,
    build_match,
)
from stateside.games.scrambled_states.rules import FACE_UP, ScrambledStates, buzz, no_match, slap
from stateside.games.scrambled_states.widgets import WON_MS, CardTable
from stateside.games.scrambled_states.words import entry_cards, final_table, log_line, reveal_text, scoreboard_html

BUZZER_KEYS = (Qt.Key_A, Qt.Key_L)          # party play: player 1, player 2 (BUZZER_LABELS)


class ScrambledStatesMode(RealtimeMode):
    game_id = "scrambled-states"
    title = "Scrambled States"
    rules = ScrambledStates

    def __init__(self, board, parent=None):
        super().__init__(board, parent)
        self.cards = load_cards()
        self.choice = {"seats": [list(s) for s in DEFAULT_SEATS], "target": 10, "practice": False}
        self.map_marks = MapMarks(board, self.cards)
        self.recent: list[tuple[str, str, str]] = []        # just-won states on the map: (code, caption, colour)
        self.center_won: tuple[str, str, str] | None = None  # the center card just won on Hand or No Match
        self.pointed: tuple[list[str], str] | None = None    # a log line's cards, shown in its player's colour
        self._pinned: int | None = None                      # a log line clicked: its move stays shown
        self.won_timer = QTimer(self, singleShot=True, timeout=self._end_won)
        self.buzz_timer = QTimer(self, interval=100, timeout=self._show_buzz_countdown)
        self._build()
        self.board.installEventFilter(self)
        self.start_game(build_match(self.choice, random.randrange(1 << 30)))

    # ---------------------------------------------------------------- layout
    def _build(self) -> None:
        panel = self.side_panel = SidePanel(self.cards, self.log_panel, self)
        for name in ("center_card", "die", "round_label", "start_button", "new_button", "no_match_button",
                     "banner", "scoreboard", "final_box", "score_table", "replay_button", "legend", "log_title"):
            setattr(self, name, getattr(panel, name))
        self.center_card.clicked.connect(self.slap_center)
        self.start_button.clicked.connect(self.toggle_run)
        self.new_button.clicked.connect(self.new_game)
        self.no_match_button.clicked.connect(self.call_no_match)
        self.replay_button.clicked.connect(lambda: self.start_replay(self.match))
        self.table = CardTable(self.cards)
        self.table.cardClicked.connect(self.slap_card)

        left = QVBoxLayout()
        left.setContentsMargins(0, 0, 0, 0)
        left.setSpacing(0)
        left.addWidget(self.replay_bar)
        left.addWidget(self.board_slot, 1)
        upper = QHBoxLayout()
        upper.setContentsMargins(0, 0, 0, 0)
        upper.setSpacing(0)
        upper.addLayout(left, 1)
        upper.addWidget(panel)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addLayout(upper, 1)
        self.table_frame = QFrame()
        self.table_frame.setStyleSheet("QFrame { background: #efe9dc; border-top: 1px solid #d8d2c4; }")
        tl = QVBoxLayout(self.table_frame)
        tl.setContentsMargins(4, 2, 4, 2)
        tl.addWidget(self.table)
        lay.addWidget(self.table_frame)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_cards()

    def _fit_cards(self) -> None:
        """The row of cards as large as the width allows, up to a fifth of the height, and
        fixed: what the side panel shows (more players, a longer message) never makes
        the cards jump in size mid-game. The center card grows with them, and at small
        sizes it and the die stay small enough to leave the move log room."""
        card_w = (self.width() - 8 - 5.0 * (FACE_UP + 1)) / FACE_UP
        height = min(card_w * 1.38 + 8, max(110.0, self.height() * 0.2))
        self.table.setFixedHeight(max(96, int(height)))
        center_w = int(min(136, max(96, card_w * 1.4, self.height() * 0.13)))   # the die's column keeps 140 px
        self.center_card.setFixedSize(center_w, int(center_w * 1.38))
        die = int(min(96, max(68, center_w * 0.66)))
        self.die.setFixedSize(die, die)

    # ---------------------------------------------------------------- game setup
    def on_show(self) -> None:
        """Another game (or replay) on show: no won cards, pointed moves or map marks of the last."""
        self.won_timer.stop()
        self.recent, self.center_won, self.table.won, self.table.flashes = [], None, {}, {}
        self.pointed, self._pinned = None, None
        self.table.set_marks((), None)
        self.map_marks.forget()

    def on_resume(self) -> None:
        self.set_banner("info", "Go! Watch the die." if self.game.phase == "rolling" else "Play on!")

    def on_ended(self) -> None:
        over = [ev.text for entry in self.match.log for ev in entry.events if ev.kind == "game-over"]
        self.set_banner("game-over", (over[-1] if over else "The game is over.") + " Press New game to play again.")

    def start_game(self, match: Match) -> None:
        match.resolve_chance()   # the deal: 15 cards, the center card and the die
        self.show_match(match)
        settings = self.game.settings
        party = bool(settings.buzzer_seats)
        keys = " and ".join(f"{settings.players[s].split(' (')[0]} presses {BUZZER_LABELS[i]}"
                            for i, s in enumerate(settings.buzzer_seats))
        how = (f"Party game: to slap, {keys} to buzz, then clicks a card within "
               f"{settings.buzz_window_ms / 1000:g} s." if party else
               "Click a matching state on the map or its card below; Space for No Match.")
        untimed = " Rounds are untimed." if not settings.round_limit_ms else ""
        self.set_banner("info", f"First to {settings.target} cards wins.{untimed} {how} Press Start when ready.")
        self.status.emit(f"New game of Scrambled States: first to {settings.target} cards wins.")
        self.refresh()
        self.changed.emit()

    def new_game(self) -> None:
        if self.online is not None:
            self.say(f"You are at the online table {self.online.table}: Game \u203a Leave the online table first.")
            return
        self.pause()   # a dialog over a real-time game: the clock stops
        dialog = ScrambledSetup(self.choice, self)
        if dialog.exec() != ScrambledSetup.Accepted:
            return
        self.choice = dialog.choice()
        self.start_game(build_match(self.choice, random.randrange(1 << 30)))

    # ---------------------------------------------------------------- mode hooks
    def on_activate(self) -> None:
        self.map_marks.forget()
        self.refresh()

    def help_anchor(self) -> str:
        """F1 opens at the way to play on screen: party play, practice, else the top."""
        m = self.play_table.kept_match() if self.online is None else self.match
        settings = m.state.settings if m is not None else None
        if settings is None:
            return ""
        if settings.buzzer_seats:
            return "party"
        return "practice" if settings.head_start_ms else ""

    def help_html(self) -> str:
        return help_html(PRACTICE_HEAD_START_MS)

    # ---------------------------------------------------------------- who acts
    def _actor(self) -> int | None:
        """The person a click or Space belongs to: the one person, or in a party the buzz holder."""
        g = self.game
        if self.online is not None:
            return self.online.seat
        if not g.settings.buzzer_seats:
            people = self.match.humans()
            return people[0] if people else None
        return g.buzz_holder() if g.buzz_holder() in g.settings.buzzer_seats else None

    def _human_act(self, make) -> None:
        g = self.game
        if g is None:
            return
        if self.replaying is not None:
            self.say("This is a replay: close it (Esc) to play on.")
            return
        if g.is_terminal():
            self.say("The game is over: start a new one.")
            return
        if self.online is not None:
            self._online_act(make)
            return
        if not self.running:
            self.say("Press Start (or Space) first." if not self.started
                      else "The game is paused: press Resume (or Space).")
            return
        self.advance()
        player = self._actor()
        if player is None:
            keys = " or ".join(BUZZER_LABELS)
            self.say(f"Buzz first: press your buzzer key ({keys}), then pick.")
            return
        self.act(player, make(player, g.now()))

    def slap_card(self, code: str) -> None:
        self._human_act(lambda p, t: slap(p, code, t))

    def slap_center(self) -> None:
        """Clicking the center card slaps it (right on Hand, a slip on any other face)."""
        self._human_act(lambda p, t: slap(p, self.game.center or "", t))

    def call_no_match(self) -> None:
        self._human_act(lambda p, t: no_match(p, t))

    def press_buzzer(self, index: int) -> None:
        g = self.game
        if g is None or index >= len(g.settings.buzzer_seats) or self.replaying is not None or self.online:
            return
        if not self.running:
            self.say("Press Start (or Space) first.")
            return
        self.advance()
        seat = g.settings.buzzer_seats[index]
        self.act(seat, buzz(seat, g.now()))

    def on_state_clicked(self, code: str) -> None:
        g = self.game
        if g is None:
            return
        if self.replaying is not None:
            self.say("This is a replay: close it (Esc) to play on.")
            return
        if code not in g.face_up_cards() and code != g.center:
            self.say(f"{self.cards[code].name} is not on the table: slap one of the outlined states.")
            return
        self.slap_card(code)

    # ---------------------------------------------------------------- online play
    def _online_act(self, make) -> None:
        """A person's slap or No Match: sent to the referee with the round it is for, and
        shown as sent until the referee's entry (or its refusal) comes back."""
        g = self.game
        seat = self.online.seat
        if not self.online_started or not self.running:
            self.say(self.banner.text() if not self.online_started else "The table is waiting for a player.")
            return
        r = g.round
        if r is None or g.to_draw:
            self.say("Wait for the next card and the die.")
            return
        if g.is_barred(seat):   # the referee's own entry barred us: no need to ask it
            self.say("You slipped: you sit out the rest of this round.")
            return
        action = make(seat, g.now())   # the time is the referee's to stamp; this one is ignored
        if self.act(seat, action) and action.kind == "slap" and action.card:
            self.table.flash([action.card], "#ffb703")

    def online_round(self, state):
        return state.round.number if state.round is not None else None

    def sent_words(self, data) -> str:
        action = self.game.action_from_json(data)
        if action.kind == "slap" and action.card:
            return f"your slap on {self.cards[action.card].name}"
        return "your No Match" if action.kind == "no-match" else "your buzz"

    # ---------------------------------------------------------------- keys
    def eventFilter(self, obj, event) -> bool:
        if obj is self.board and event.type() == QEvent.KeyPress and self.active:
            return self._key(event)
        return super().eventFilter(obj, event)

    def keyPressEvent(self, event) -> None:
        if not self._key(event):
            super().keyPressEvent(event)

    def _key(self, event) -> bool:
        if self.game is None or event.modifiers() & (Qt.ControlModifier | Qt.AltModifier | Qt.MetaModifier):
            return False
        key = event.key()
        if self.replaying is not None:   # the replay's keys work on the map too
            return self._replay_key(key)
        # While a state's name is being typed on the map, Space belongs to the name ("New York").
        typing = self.board.is_typing()
        if key == Qt.Key_Space and not typing:
            if self.game.is_terminal():
                self.say("The game is over: press New game to play again.")
            elif not self.started or not self.running:
                self.toggle_run()
            else:
                self.call_no_match()
            return True
        if key == Qt.Key_Escape and not typing and self.running:
            self.pause()
            return True
        if self.game.settings.buzzer_seats and key in BUZZER_KEYS and not typing:   # mid-name, "a" is a letter
            self.press_buzzer(BUZZER_KEYS.index(key))
            return True
        return False

    def _replay_key(self, key) -> bool:
        bar = self.replay_bar
        steps = {Qt.Key_Left: bar.position - 1, Qt.Key_Right: bar.position + 1, Qt.Key_Home: 0, Qt.Key_End: bar.total}
        if key in steps:
            bar.go(steps[key])
        elif key == Qt.Key_Escape:
            bar.close_replay()
        elif key == Qt.Key_Space:
            bar.toggle_play()
        else:
            return False
        return True

    # ---------------------------------------------------------------- the move log
    def seat_colour(self, seat: int) -> str:
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat >= 0 else NO_COLOUR

    def _lines(self, log: list[LogEntry], start: int = 0) -> list[LogLine]:
        lines = []
        notes = self.notes()
        for i in range(start, len(log)):
            said = log_line(log, i, notes.get(i))
            if said is not None:
                text, seat = said
                lines.append(LogLine(i, seat, text, self.seat_colour(seat)))
        return lines

    def log_text(self, entry: LogEntry) -> str:
        """A logged move as the move log shows it ("" for one it leaves out)."""
        log = (self.replaying or self.match).log
        said = log_line(log, entry.index)
        return said[0] if said else ""

    def fill_log(self) -> None:
        shown = self.replaying or self.match
        self.log_panel.set_lines(self._lines(shown.log) if shown is not None else [])

    def log_rest(self) -> int:
        # the pointer left: back to the line clicked, or the replay's own move
        if self._pinned is not None:
            return self._pinned
        return self.replay_bar.position - 1 if self.replaying is not None else -1

    def highlight_entry(self, entry: LogEntry | None) -> None:
        """Point out a logged move: its cards outlined in its player's colour, on the map
        (shown even when they have left the table) and in the row of cards."""
        pointed = None
        if entry is not None:
            log = (self.replaying or self.match).log
            said = log_line(log, entry.index)
            seat = said[1] if said else entry.seat
            colour = self.seat_colour(seat) if seat >= 0 else CHANCE_COLOUR
            codes = entry_cards(log, entry.index)
            pointed = (codes, colour) if codes else None
        if pointed != self.pointed:
            self.pointed = pointed
            self.table.set_marks(*(pointed or ((), None)))
            self.map_marks.forget()
            self._draw_map()

    # ---------------------------------------------------------------- the end
    def final_table(self) -> tuple[list[str], list[list]]:
        """Columns and rows of the score table: cards won and slips, a row a player."""
        return final_table(self.game, self.match.log)

    def winners(self) -> set[int]:
        return set(self.game.winners())

    def _show_final(self, over: bool) -> None:
        if over and not self.final_box.isVisible():   # the table takes room from the log: keep its end in view
            QTimer.singleShot(0, self.log_panel.scrollToBottom)
        self.final_box.setVisible(over)
        self.scoreboard.setVisible(not over)
        self.legend.setVisible(not over)   # no card to read any more: the log gets the room
        if over:
            columns, rows = self.final_table()
            self.score_table.set_table(columns, rows, self.winners(),
                                       [self.seat_colour(p) for p in range(len(rows))])
            self.replay_button.setVisible(self.replaying is None)

    # ---------------------------------------------------------------- drawing
    def set_banner(self, kind: str, text: str) -> None:
        self.side_panel.set_banner(kind, text)

    def refresh(self) -> None:
        g = self.game
        if g is None:   # an online table whose game has not come yet: nothing to press
            for button in (self.start_button, self.new_button):
                button.setVisible(self.online is None)
            self.no_match_button.setEnabled(False)
            self.center_card.show_card(None, "Waiting")
            self.die.show_face(None)
            return
        if self.replaying is not None:
            self._draw_replay()
            return
        self._feedback()
        phase = g.phase
        live = self.running and phase in ("open", "closing")
        # Center card and die: hidden until the die lands (and while paused).
        if phase == "over":
            self.center_card.show_card(None, "Game over")
            self.die.show_face(None)
        elif not self.running:
            self.center_card.show_card(None, "Waiting" if self.online is not None
                                       else "Paused" if self.started else "Press Start")
            self.die.show_face(None)
        elif phase in ("rolling", "dealing"):
            if self.center_won:
                code, who, colour = self.center_won
                self.center_card.show_card(code, caption=(who, colour))
            else:
                self.center_card.show_card(None, "?")
            self.die.roll()
        else:
            self.center_card.show_card(g.center)
            self.die.show_face(g.face)
        self.no_match_button.setEnabled(live)
        online = self.online is not None   # nobody pauses an online race, nor starts another game in it
        self.start_button.setVisible(not online)
        self.start_button.setText("New game" if g.is_terminal() else "Pause" if self.running
                                  else "Resume" if self.started else "Start")
        self.new_button.setVisible(not g.is_terminal() and not online)
        if online:
            self.show_online_state()
        barred = {p for p in range(g.num_players) if g.is_barred(p)} if live else set()
        people = self.people()
        faded = set(g.face_up_cards()) if (barred and all(p in barred for p in people)) else set()
        self.table.setCursor(Qt.PointingHandCursor)
        self._draw_table(barred, faded, show_center=self.running and phase in ("open", "closing"))
        if g.buzz_holder() is not None and not self.buzz_timer.isActive():
            self.buzz_timer.start()
        self.schedule()
        self.changed.emit()

    def _draw_table(self, barred: set[int], faded: set[str], show_center: bool) -> None:
        """What a live game and a replay draw alike: the round, the row of cards, the
        scores, the map."""
        g = self.game
        r = g.round
        if r is not None and not g.is_terminal():
            left = len(g.draw)
            self.round_label.setText(f"Round {r.number}<br>Draw pile: {left} card{'s' if left != 1 else ''}")
        else:
            self.round_label.setText(f"Draw pile: {len(g.draw)} cards left")
        if self.online is not None and self.replaying is None:   # the code others join by
            self.round_label.setText(self.round_label.text() + f"<br>Table <b>{html.escape(self.online.table)}</b>")
        self.table.set_slots(g.face_up, faded)
        self.scoreboard.setText(scoreboard_html(g, barred, self.people(),
                                                [self.seat_colour(p) for p in range(g.num_players)]))
        self._show_final(g.is_terminal())
        self._draw_map(show_center)

    def _draw_replay(self) -> None:
        """A position of the replay, read-only: what was on the table, nothing to click."""
        g = self.game
        n, total = len(self.match.log), len(self.replaying.log)
        revealed = g.phase in ("open", "closing")
        if g.phase == "over":
            self.center_card.show_card(None, "Game over")
            self.die.show_face(None)
        elif revealed:
            self.center_card.show_card(g.center)
            self.die.show_face(g.face)
        else:
            self.center_card.show_card(None, "?")
            self.die.show_face(None)
        self.no_match_button.setEnabled(False)
        self.start_button.setVisible(False)
        self.new_button.setVisible(True)
        entry = self.match.log[-1] if n else None
        what = (self.log_text(entry) or entry.text + ".") if entry else "The table before the deal."
        self.set_banner("replay", f"Replay, move {n} of {total}: {what}")
        barred = {p for p in range(g.num_players) if g.is_barred(p)} if revealed else set()
        self.table.setCursor(Qt.ArrowCursor)
        self._draw_table(barred, set(), show_center=revealed)

    def _draw_map(self, show_center: bool | None = None) -> None:
        g = self.game
        if g is None or not self.active:
            return
        if show_center is None:
            show_center = (self.running or self.replaying is not None) and g.phase in ("open", "closing")
        self.map_marks.draw(g.face_up_cards(), g.face_up, g.center if show_center else None, self.recent,
                            self.pointed, self.replaying is not None)

    def _feedback(self) -> None:
        """Show what happened since the last look: banner, flash on the cards, move log."""
        g = self.game
        log = self.match.log
        notes = self.notes()
        new = [ev for entry in log[self.seen:] for ev in [*entry.events, notes.get(entry.index)] if ev is not None]
        for line in self._lines(log, self.seen):
            self.log_panel.append(line)
        self.seen = len(log)
        people = set(self.people())
        for ev in new:
            if isinstance(ev, str):   # the table's own words: a round voided by a change of referee
                self.set_banner("void", ev)
                continue
            kind = ev.kind
            if kind == "reveal":
                if self.recent or self.center_won or self.table.won:   # the race is on: show the real table
                    self.won_timer.stop()
                    self.recent, self.center_won = [], None
                    self.table.end_won()
                keys = " or ".join(BUZZER_LABELS[:len(g.settings.buzzer_seats)])
                self.set_banner("info", reveal_text(ev.face, self.cards[ev.center].name, keys))
                continue
            if kind in ("win", "hand", "no-match"):
                self.set_banner(kind if set(ev.players) & people else "lost", ev.text)
                self._show_won(ev)
            elif kind == "tie":
                self.set_banner("tie", ev.text)
                self._show_won(ev)
            elif kind in ("slip", "buzz-timeout"):
                self.set_banner("slip", ev.text)
                self.table.flash(ev.cards, "#e63946")
            elif kind == "game-over":
                self.set_banner("game-over", ev.text + " Press New game to play again.")
                self.status.emit(ev.text)
            elif kind in ("void", "buzz", "pending"):
                self.set_banner(kind, ev.text)
                if kind == "pending":   # the slapped card lights up at once, before the tie window closes
                    self.table.flash(ev.cards, "#ffb703")
        if g.buzz_holder() is None and self.buzz_timer.isActive():
            self.buzz_timer.stop()

    def _show_won(self, ev) -> None:
        """Keep the won card(s) in view for WON_MS, stamped with the winner's name."""
        g = self.game
        marks = []
        self.table.won, self.center_won = {}, None   # only the latest round's winners
        for p, code in zip(ev.players, ev.cards):
            who = g.name(p).split(" (")[0]
            colour = self.seat_colour(p)
            marks.append((code, who, colour))
            if ev.kind in ("win", "tie"):
                self.table.show_won(code, who, colour)
                self._fly_to_pile(code, p)
            else:   # Hand or No Match: the center card itself was won
                self.center_won = (code, who, colour)
        self.recent = marks
        self.won_timer.start(WON_MS)

    def _fly_to_pile(self, code: str, seat: int) -> None:
        """A copy of the won card flies from the table to its winner's line of the pile
        count (the card itself stays stamped in its slot for a moment)."""
        if code not in self.table.slots or not self.isVisible() or not self.scoreboard.isVisible():
            return
        slot = self.table.slot_rect(self.table.slots.index(code)).toRect()
        start = slot.translated(self.table.mapTo(self, slot.topLeft()) - slot.topLeft())
        board = self.scoreboard
        line = board.fontMetrics().lineSpacing() + 2
        size = slot.size() / 2
        at = board.mapTo(self, board.rect().topLeft()) + QPoint(board.width() // 3, line * (seat + 1))
        self.board.motion.fly(self, self.table.grab(slot), start, QRect(at, size))

    def _end_won(self) -> None:
        self.recent, self.center_won = [], None
        self.refresh()

    def _show_buzz_countdown(self) -> None:
        g = self.game
        if g is None or g.buzz_holder() is None or not self.running:
            self.buzz_timer.stop()
            return
        left = max(0, g.buzz_deadline() - self.now()) / 1000
        self.set_banner("buzz", f"{g.name(g.buzz_holder())} buzzed: pick a card or No Match \u2013 {left:.1f} s")
