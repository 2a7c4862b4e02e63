"""Real time on the play layer (GameSpec.real_time: Scrambled States): the one clock loop,
the game clock, and the real-time flow a screen runs.

`due_by(match_of, t)` is THE loop that runs a match's clock to game time t: it gives, in
order, every action the game's clock brings by then (a chance draw, a deadline passing, a
computer's planned move with the time passing up to it) and reads the match again after
each one is applied, so its caller decides how an action is taken: a screen's match
applies it (`advance_to`), the referee commits it to the table's log (await, a chance
draw its own way). Under the same seed, the same moves at the same times give the same
game wherever it is played.

`GameClock` maps a monotonic clock (seconds) onto the game's time axis (milliseconds); it
runs only while started, so a paused game's time stands still.

`RealtimeFlow` is what a real-time screen asks of the play layer about its play.Table: the
game's time, pause and resume, the moment it should look again (`wait_ms`; the Qt layer
only runs that timer) and a person's action at the moment the clock has reached. A table
whose clock is another's (online: the referee's) is followed, not driven: its time only
runs for the display; `RealtimeOnlineSource` is the online source a race needs. No Qt here.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, Protocol

from stateside.engine import clock
from stateside.engine.clock import next_step
from stateside.engine.log import LogEntry
from stateside.engine.match import Match
from stateside.engine.protocol import CHANCE, State, sees
from stateside.play.table import LOCAL, ONLINE, OnlineSource, OnlineUpdate, Result, SeatView, Table

MAX_STEPS = 10_000   # no clock brings more actions than this before a given time: a loop guard


class ChanceDue:
    """The match is at a chance node: its caller draws the outcome (the match's own seeded
    draw at a screen, the referee's draw at a table) before the clock runs on."""

    def __repr__(self) -> str:
        return "CHANCE_DUE"


CHANCE_DUE = ChanceDue()


class ClockMatch(clock.Match, Protocol):
    """What the clock loop reads of a match (engine.match.Match is one)."""
    def is_over(self) -> bool: ...


def due_by(match_of: Callable[[], ClockMatch], t: int) -> Iterator[Any]:
    """Everything the game's clock brings up to game time `t`, in time order: CHANCE_DUE
    where a chance outcome must be drawn, else the action to take (time passing to a
    computer's planned moment and its move; time passing to a deadline; at last time
    passing to `t`). `match_of()` gives the match as it is now: it is read again after each
    action, which the caller must have taken before asking for the next."""
    for _ in range(MAX_STEPS):
        match = match_of()
        if match.state.current_player() == CHANCE:
            yield CHANCE_DUE
            continue
        if match.is_over():
            return
        _, actions = next_step(match, until=t)
        if not actions:
            return
        yield from actions
    raise RuntimeError(f"the game's clock brought over {MAX_STEPS} actions before {t} ms: it does not advance")


def advance_to(match, t: int) -> list[LogEntry]:
    """Run a match at this screen to game time `t` (its own seeded chance draws); the
    entries logged on the way."""
    done: list[LogEntry] = []
    for action in due_by(lambda: match, t):
        if action is CHANCE_DUE:
            done += match.resolve_chance()
        else:
            done.append(match.apply(action))
    return done


def next_due_ms(match) -> int | None:
    """The game time at which the clock next brings something (a computer's planned move
    or a deadline), or None if nothing is planned and no deadline is set."""
    if match.is_over():
        return None
    t, actions = next_step(match)
    return t if actions else None


class GameClock:
    """Game time in milliseconds, running with a monotonic clock (seconds) while started."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic):
        self.monotonic = monotonic
        self.base_mono = monotonic()
        self.base_game = 0
        self.running = False

    def restart(self, game_now: int, running: bool = True) -> None:
        """Game time `game_now` is now; it runs on with the monotonic clock if `running`."""
        self.base_mono, self.base_game, self.running = self.monotonic(), int(game_now), running

    def stop(self) -> int:
        """Stop the clock where it is; the game time it stopped at."""
        now = self.game_time()
        self.restart(now, running=False)
        return now

    def game_time(self, mono: float | None = None) -> int:
        """The game time at monotonic time `mono` (now by default)."""
        if not self.running:
            return self.base_game
        return self.base_game + int(((self.monotonic() if mono is None else mono) - self.base_mono) * 1000)

    def mono_at(self, game_t: int) -> float:
        """The monotonic time at which the running clock reaches game time `game_t`."""
        return self.base_mono + (game_t - self.base_game) / 1000


class RealtimeOnlineSource(OnlineSource):
    """An online real-time table seen by one seat (play.table's OnlineSource, for a race).
    Each move goes with the moment it is for (`round_of(state)`: the round in progress), so
    the referee refuses one that arrives after that round is over instead of counting it in
    the next; the moves sent and not yet confirmed are kept in order (`sent`: (round, action
    JSON)); and where the table words an entry otherwise than the rules do here (a round
    voided by a change of referee), its words are kept in `notes` (log index -> words)."""

    def __init__(self, session: Any, rules: type[State], round_of: Callable[[State], Any],
                 presence: Callable[[dict], str] | None = None,
                 presence_change: Callable[[tuple, dict], tuple[tuple, str, str | None]] | None = None):
        super().__init__(session, rules, send=self._send, presence=presence, presence_change=presence_change)
        self.round_of = round_of
        self.sent: list[tuple[Any, Any]] = []
        self.notes: dict[int, str] = {}

    def _send(self, data: Any) -> None:
        assert self.match is not None
        number = self.round_of(self.match.state)
        self.sent.append((number, data))
        self.session.send(data, round=number)

    def update(self, view: dict) -> OnlineUpdate:
        done = super().update(view)
        for entry in done.entries:
            before = self.before.get(entry.index)
            if before is None or self.seat is None or not sees(entry.audience, self.seat):
                continue   # a move this seat did not see: the table's words are all it has
            try:
                own = before.action_to_string(entry.action)
            except (ValueError, KeyError, TypeError, IndexError):
                continue
            if entry.text and entry.text != own:
                self.notes[entry.index] = entry.text
        del self.sent[:max(0, len(self.sent) - self.pending)]   # the oldest were confirmed
        return done

    def refused(self, reason: str) -> str:
        """The referee refused our oldest move still unconfirmed; the others may still go in."""
        if self.sent:
            self.sent.pop(0)
        self.pending = len(self.sent)
        return f"The table refused that move: {reason}"


class RealtimeFlow:
    """A real-time game on a play.Table at one screen: its clock, and what comes next.

    The table's local game is driven here: `advance(t)` runs its clock to game time t (the
    entries are announced to the table's listeners) and `act(seat, action)` takes a
    person's action through the table. An online table is followed, not driven (the
    referee's log is the game): its time only runs for the display, from the latest time
    the table told (`follow`). A replay neither runs nor is driven. Every method that needs
    the time takes it from the caller (`now` defaults to this flow's own clock), so a
    screen, or a test, keeps one source of the game's time."""

    def __init__(self, table: Table, monotonic: Callable[[], float] = time.monotonic):
        self.table = table
        self.clock = GameClock(monotonic)
        self.started = False   # the game has been started (Start pressed, a save resumed, a table sat at)
        self.reset()

    @property
    def match(self) -> Match | None:
        return self.table.match

    @property
    def follows(self) -> bool:
        """The table's clock is another's (online): nothing is advanced here."""
        return self.table.kind == ONLINE

    def _driven(self) -> bool:
        return self.table.kind == LOCAL and self.match is not None

    # --- the clock -------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self.clock.running

    def now(self) -> int:
        """Game time in ms: it runs only while the game is running."""
        return self.clock.game_time()

    def reset(self, started: bool = False) -> None:
        """The table's game as it is now is on show, stopped (a new, loaded or finished game)."""
        self.started = started
        self.clock.restart(self.match.state.now() if self.match is not None else 0, running=False)

    def resume(self) -> bool:
        """Start (or go on with) the local game; False if there is nothing to run here."""
        m = self.match
        if m is None or not self._driven() or m.is_over() or self.running:
            return False
        self.started = True
        self.clock.restart(self.clock.base_game)
        return True

    def pause(self, now: int | None = None) -> bool:
        """Stop the clock at game time `now`, after everything due by then; False if it was
        not running here (a followed table's clock is not ours to stop)."""
        if not self.running or not self._driven():
            return False
        now = self.now() if now is None else now
        self.advance(now)
        self.clock.restart(now, running=False)
        return True

    def stop(self) -> None:
        """Stop the clock where it is, whatever is on show (a table left, a replay opened)."""
        self.clock.stop()

    def follow(self, game_now: int, running: bool) -> None:
        """A followed table's latest time: the display runs on from it while `running`."""
        self.started = True
        self.clock.restart(game_now, running=running)

    def view(self, seat: int | None, now: int | None = None) -> SeatView:
        """The table's view for `seat` (play.table.SeatView), its clock the one running here:
        the game's time as the screen shows it, ahead of the last logged moment while the
        game runs."""
        return replace(self.table.view(seat), clock_ms=self.now() if now is None else now)

    # --- what comes next -------------------------------------------------------------------
    def advance(self, now: int | None = None) -> list[LogEntry]:
        """Run the local game to `now` (while it runs); the entries logged on the way."""
        if not self.running or not self._driven():
            return []
        done = advance_to(self.match, self.now() if now is None else now)
        for entry in done:
            self.table.announce(entry)
        return done

    def wait_ms(self, now: int | None = None) -> int | None:
        """How long until the clock next brings something (the screen wakes then), or None
        when nothing will happen by itself (paused, over, followed, or nothing planned)."""
        if not self.running or not self._driven():
            return None
        t = next_due_ms(self.match)
        return None if t is None else max(0, t - (self.now() if now is None else now))

    def act(self, seat: int | None, action) -> Result:
        """A person's action through the table: at a local table, at the game time the clock
        has reached (`advance` first, and build the action with the match's time), with the
        chance draw it brings about (the next center card) at once; online, sent."""
        result = self.table.act(seat, action)
        m = self.match
        if result.kind == "accepted" and m is not None and self._driven():
            for entry in m.resolve_chance():
                self.table.announce(entry)
        return result
