"""The Qt driver of a real-time game (GameSpec.real_time: Scrambled States), as app/turns.py
is for turn games: it keeps a play.Table (the local game, a replay, an online table) and a
play.realtime.RealtimeFlow over it, and runs the one timer the flow asks for. Pausing,
saving, replays and online play are here; a game's mode only builds its panels, renders
the table, turns input into actions (`act`) and words what happened.

A mode fills in these public hooks: start_game(match) (a new game on show, with its first
words), refresh() (draw the table as it is now), set_banner(kind, text), fill_log(),
on_show() (forget the marks of the game shown before), on_resume() (the words as the game
runs), on_ended() (an online game's end), online_round(state) (the round an online move is
for) and sent_words(action_json). Every person's action goes through act(seat, action),
which asks the tutorial's guard first (GameMode.guard_refusal).
"""
from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from stateside.app.mode import GameMode
from stateside.app.turns import LogLinks, OnTable
from stateside.engine.match import Match
from stateside.engine.protocol import State
from stateside.errors import SaveError
from stateside.play.realtime import RealtimeFlow, RealtimeOnlineSource
from stateside.play.table import ONLINE, Table

ONLINE_NO_PAUSE = ("An online race cannot be paused: the table's clock runs for everyone. "
                   "Game \u203a Leave the online table to stop.")


class RealtimeMode(OnTable, LogLinks, GameMode):
    rules: type[State]    # the game's State class (set by the subclass)
    plays_online = True   # Game > Play online... seats a person at an online table here
    replays = True        # Game > Replay... steps through a saved game here

    def __init__(self, board, parent: QWidget | None = None):
        super().__init__(board, parent)
        self.play_table = Table()
        self.flow = RealtimeFlow(self.play_table)
        self.tick = QTimer(self, singleShot=True, timeout=self._on_tick)   # when the flow says to look again
        self.seen = 0                   # log entries whose events the view has shown
        self._offline_started = False   # online: whether the game put aside had been started
        self.make_log_and_replay_bar()

    # ---------------------------------------------------------------- what is on show
    @property
    def online_sent(self) -> list:
        """Our moves sent to the online table, not yet confirmed: (round, action JSON)."""
        source = self.play_table.online
        return source.sent if isinstance(source, RealtimeOnlineSource) else []

    @property
    def online_started(self) -> bool:
        """The online table's game has come (its first sync)."""
        source = self.play_table.online
        return source is not None and source.started

    def people(self) -> list[int]:
        """The seats played at this screen (online: only ours)."""
        return self.play_table.people()

    def notes(self) -> dict[int, str]:
        """The online table's own words on entries (a round voided by a change of referee)."""
        source = self.play_table.online
        return source.notes if isinstance(source, RealtimeOnlineSource) else {}

    def show_match(self, match: Match) -> None:
        """Put `match` on show as it is, stopped: the table, the move log, the clock."""
        self.tick.stop()
        if self.replaying is not None:
            self._end_replay()
        self.play_table.install(match)
        self.flow.reset()
        self.on_show()
        self.seen = len(match.log)
        self.fill_log()

    def say(self, text: str) -> None:
        self.status.emit(text)
        self.set_banner("info", text)

    # ---------------------------------------------------------------- the clock
    def now(self) -> int:
        """Game time in ms: it runs only while the game is running."""
        return self.flow.now()

    @property
    def running(self) -> bool:
        return self.flow.running

    def start_tutorial(self, match: Match) -> None:
        self.start_game(match)   # the mode's own start, with the clock stopped

    def hold_for_reading(self) -> None:
        if self.running:
            self.pause()

    @property
    def started(self) -> bool:
        return self.flow.started

    @started.setter
    def started(self, value: bool) -> None:
        self.flow.started = value

    def toggle_run(self) -> None:
        if self.online is not None:
            self.say(ONLINE_NO_PAUSE if self.online_started
                     else f"Online table {self.online.table}: waiting for the other players\u2026")
        elif self.replaying is not None:
            self.say("This is a replay: close it to play on.")
        elif self.game is None or self.game.is_terminal():
            self.new_game()
        elif self.running:
            self.pause()
        else:
            self.resume()

    def resume(self) -> None:
        if self.replaying is not None or not self.flow.resume():
            return
        self.on_resume()
        self.refresh()

    def pause(self) -> None:
        if not self.flow.pause(self.now()):   # online, the table's clock is the referee's
            return
        self.tick.stop()
        if self.match is not None and not self.match.is_over():   # a finished game has nothing to resume
            self.set_banner("info", "Paused. Press Resume (or Space) to play on.")
        self.refresh()

    def advance(self) -> None:
        """Let the game reach the clock's time (a person's action goes in at that moment)."""
        self.flow.advance(self.now())

    def _on_tick(self) -> None:
        self.advance()
        self.refresh()

    def schedule(self) -> None:
        """Wake when the flow says the clock next brings something (a computer, a deadline)."""
        self.tick.stop()
        wait = self.flow.wait_ms(self.now()) if self.replaying is None else None
        if wait is not None:
            self.tick.start(wait)

    def act(self, seat: int, action) -> bool:
        """A person's action through the table: at the clock's moment here, sent online.
        A tutorial's guard or the rules may refuse it (said, nothing changes)."""
        why = self.guard_refusal(action)
        if why is None:
            result = self.flow.act(seat, action)
            why = None if result.ok else result.reason
        if why is not None:
            self.say(why)
        self.refresh()
        return why is None

    # ---------------------------------------------------------------- saving
    def has_game(self) -> bool:
        """A game of this screen's worth keeping (online: the one put aside, if it was started)."""
        started = self._offline_started if self.online is not None else self.started
        return self.play_table.kept_match() is not None and started

    def game_in_progress(self) -> bool:
        """A game New or Open would throw away: not a finished one."""
        return self.has_game() and self.play_table.in_progress()

    def save_state(self) -> dict | None:
        """The game kept here: never a replay, nor this screen's copy of an online table."""
        if not self.has_game():
            return None
        self.advance()   # a game running here: up to this moment
        return self.play_table.save()

    def match_from_save(self, state: dict, where: str = "the save") -> Match:
        """A match from a save's body (Game > Open, Game > Replay...); SaveError naming `where`."""
        if not isinstance(state, dict) or state.get("game") != self.game_id:
            raise SaveError(f"{where}: this is not a saved game of {self.title}")
        return Match.from_json(state, where)

    def load_state(self, state: dict) -> None:
        match = self.match_from_save(state, f"{self.title} save")   # the game is replaced only once it loaded
        if self.online is not None:
            self.leave_online(restore=False)
        self.start_game(match)
        self.started = True
        self.say("Game resumed where you left it. Press Resume (or Space) when ready.")   # panel and status bar agree
        self.refresh()

    # ---------------------------------------------------------------- the shell's calls
    def on_deactivate(self) -> None:
        self.pause()
        if self.replay_bar.playing():
            self.replay_bar.toggle_play()

    def on_modal(self, opened: bool) -> None:
        if opened:   # a dialog over a real-time game: stop the clock; the player resumes
            self.pause()

    # ---------------------------------------------------------------- online play
    # A session (stateside.app.online.OnlineSession) feeds the table's RealtimeOnlineSource:
    # the referee runs the table's clock, its log is the game, the local clock only
    # displays it, and a person's move goes to the referee, which stamps it on arrival.
    def _session_slots(self, session) -> list:
        return [(session.update, self.online_update), (session.connection, self._online_connection),
                (session.refused, self._online_refused), (session.ended, self._online_ended)]

    def attach_online(self, session) -> None:
        from stateside.app.online import presence_change

        if self.online is not None:
            self.leave_online()
        if self.replaying is not None:
            self._end_replay()
        self.pause()   # the game here waits, as it was (the autosave keeps it)
        self._offline_started = self.started
        self.play_table.go_online(RealtimeOnlineSource(session, self.rules, self.online_round,
                                                         presence_change=presence_change))
        self.flow.stop()
        for signal, slot in self._session_slots(session):
            signal.connect(slot)
        self.set_banner("info", f"Online table {session.table}: waiting for the other players\u2026")
        self.status.emit(f"Online table {session.table}: you are seat {session.seat + 1}.")
        self.refresh()

    def leave_online(self, restore: bool = True) -> None:
        """Leave the table (the referee frees the seat and revokes its credentials; a game
        already over is only closed); back to the game played here before."""
        session = self.online
        if session is None:
            return
        for signal, slot in self._session_slots(session):
            signal.disconnect(slot)
        problem = session.leave()
        if problem:
            self.status.emit(f"Leaving the table {session.table}: {problem}")
        self.flow.stop()
        self.play_table.leave_online(restore=restore)
        if restore and self.match is not None:
            self.show_match(self.match)
            self.started = self._offline_started
            self.set_banner("info", f"You left the online table {session.table}. Back to your game"
                            + (", paused: press Resume (or Space) to play on." if self.started else ": press Start."))
            self.refresh()
            self.changed.emit()

    def online_update(self, view: dict) -> None:
        """The seat's view from the referee: its entries not yet here, in order."""
        source = self.play_table.online
        if source is None or self.play_table.kind != ONLINE:
            return
        done = source.update(view)
        if done.said:
            self.status.emit(done.said)
        if done.started is not None:   # the table's game replaces whatever was on screen
            self.show_match(done.started)
            self.seen = 0   # its moves so far are logged and told, as they came
            self.log_panel.set_lines([])
        g = self.game
        if g is None:
            return   # the table's sync has not come yet
        # the display runs on from the referee's latest time
        self.flow.follow(g.now(), running=view.get("status") == "playing" and not done.waiting
                         and not g.is_terminal())
        self.refresh()
        self.changed.emit()

    def show_online_state(self) -> None:
        """The table's note (a seat left, the connection lost), or our move waiting to be confirmed."""
        source = self.play_table.online
        if source is None:
            return
        view = self.flow.view(source.seat, self.now())
        if view.note:
            self.set_banner("slip", view.note)
        elif view.pending and self.online_sent:
            what = self.sent_words(self.online_sent[-1][1])
            self.set_banner("pending", f"Sent: {what}\u2026 (the table decides who was first)")

    def _online_refused(self, reason: str) -> None:
        source = self.play_table.online
        if source is None:
            return
        what = self.sent_words(self.online_sent[0][1]) if self.online_sent else "your move"
        source.refused(reason)
        text = f"The table refused {what}: {reason}"
        self.set_banner("slip", text[0].upper() + text[1:])
        self.status.emit(text)

    def _online_connection(self, up: bool) -> None:
        source = self.play_table.online
        said = source.connection(up) if source is not None else None
        if said:
            self.set_banner("info", said)
            self.status.emit(said)
        else:
            self.show_online_state()

    def _online_ended(self, result: dict) -> None:
        """The referee's whole log replaces this screen's copy: a finished game like any other."""
        source = self.play_table.online
        if source is None:
            return
        match, said = source.ended(result)
        self.leave_online(restore=False)
        self.show_match(match)
        self.started = True
        self.on_ended()
        self.refresh()
        self.status.emit(said)
        self.changed.emit()

    # ---------------------------------------------------------------- replays
    def start_replay(self, match: Match) -> None:
        """Step through `match` on this board, read-only; the game in progress waits, paused."""
        if self.online is not None:   # the table goes on: a replay would hide it
            self.say("A replay waits until the online game is over (or you leave the table).")
            return
        self.pause()
        self.tick.stop()
        self.play_table.start_replay(match)
        self.on_show()
        self.fill_log()
        self.replay_bar.start(len(match.log), "Replay")   # the bar shares the map's width: a short title
        self.status.emit(self.REPLAY_HINT)
        self.changed.emit()

    def replay_to(self, n: int) -> None:
        source = self.replay_source()
        if source is None:
            return
        source.go(n)
        lines = [line.index for line in self.log_panel.lines() if line.index < n]
        self.log_panel.select_entry(lines[-1] if lines else None)
        self.highlight_entry(source.whole.log[n - 1] if n > 0 else None)
        self.refresh()

    def stop_replay(self) -> None:
        if self.replaying is None:
            return
        self._end_replay()
        self.set_banner("info", "Back to your game, paused. Press Resume (or Space) to play on."
                        if not self.game.is_terminal() else "Back to the finished game.")
        self.status.emit("Back to the game.")
        self.refresh()
        self.changed.emit()

    def _end_replay(self) -> None:
        self.play_table.stop_replay()
        self.on_show()
        self.fill_log()
        self.close_replay_bar_quietly()

    # ---------------------------------------------------------------- the mode's hooks
    def start_game(self, match: Match) -> None:
        raise NotImplementedError

    def refresh(self) -> None:
        raise NotImplementedError

    def set_banner(self, kind: str, text: str) -> None:
        raise NotImplementedError

    def fill_log(self) -> None:
        raise NotImplementedError

    def on_show(self) -> None:
        """A game, a replay or the game under it comes on show: forget the old one's marks."""

    def on_resume(self) -> None:
        """The game runs (again): the words for it."""

    def on_ended(self) -> None:
        """An online game ended and the table's whole log is on show: the words for it."""

    def online_round(self, state: State):
        """The round an online move is for (the referee refuses one for a round that is over)."""
        return None

    def sent_words(self, data) -> str:
        """Our move sent online, in words ("your slap on Ohio")."""
        return "your move"
