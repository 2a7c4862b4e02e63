"""One game on screen, whatever feeds it: a Table over a local, a replay or an online source.

The same mode renders the same `SeatView` and sends the same actions whether the match is
played at this screen (LocalSource), stepped through read-only (ReplaySource) or kept by a
referee across the network (OnlineSource), the way boardgame.io's Board runs unchanged over
a local or a socket transport. Pure Python: no Qt (tests/test_layering.py), no game's mode.

A table keeps one source on show and, while a replay or an online table is on show, the
local game it put aside (`aside`): saving keeps that one, and closing the replay or leaving
the table brings it back.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stateside.engine.following import follow
from stateside.engine.match import LogEntry, Match
from stateside.engine.protocol import CHANCE, SIMULTANEOUS, SPECTATOR, State
from stateside.errors import IllegalActionError

LOCAL, REPLAY, ONLINE = "local", "replay", "online"

REPLAY_REFUSAL = "This is a replay: close it to play on."
OVER_REFUSAL = "The game is over: start a new one (Game > New game)."


@dataclass(frozen=True)
class SeatView:
    """What one seat may know now (seat None: everything, e.g. a finished game or computers only;
    SPECTATOR: what every seat may know)."""
    seat: int | None
    state: State | None               # the world as this screen holds it (online: one this seat can't tell apart)
    observation: dict | None          # the rules' observation for the seat (None for None/SPECTATOR)
    legal: list                       # exact; only when the seat is to move, else []
    log: list[str]                    # the log's entries in this seat's words
    to_move: int                      # a seat, CHANCE, SIMULTANEOUS or TERMINAL
    over: bool
    result: list[float] | None        # returns() once over
    clock_ms: int | None = None       # real-time games: the game's clock
    pending: int = 0                  # online: own moves sent, not yet confirmed by the table
    note: str = ""                    # online: the table's note (a seat left, connection lost)
    source: str = LOCAL               # LOCAL, REPLAY or ONLINE


@dataclass(frozen=True)
class Result:
    """What became of an action: "accepted" (entry logged), "sent" (online, pending) or
    "refused" (reason, nothing changed)."""
    kind: str
    entry: LogEntry | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.kind != "refused"

    @staticmethod
    def refused(reason: str) -> Result:
        return Result("refused", reason=reason[:1].upper() + reason[1:])


class LocalSource:
    """A match played at this screen (hot-seat people, computers)."""
    kind = LOCAL

    def __init__(self, match: Match):
        self.match: Match | None = match

    def act(self, seat: int | None, action) -> Result:
        assert self.match is not None
        try:
            return Result("accepted", self.match.apply(action))
        except IllegalActionError as e:
            return Result.refused(str(e))


class ReplaySource:
    """A whole match shown at move n, read-only: `match` is the game after its first n actions."""
    kind = REPLAY

    def __init__(self, whole: Match, n: int = 0):
        self.whole = whole
        self.n = 0
        self.match: Match | None = None
        self.go(n)

    def go(self, n: int) -> Match:
        """Show the game after its first n actions (clamped to the log)."""
        n = max(0, min(n, len(self.whole.log)))
        shown = Match(self.whole.rules, self.whole.seats, self.whole.seed, self.whole.initial_setup)
        shown.log = self.whole.log[:n]
        shown.state = self.whole.state_after(n)
        self.n, self.match = n, shown
        return shown

    def act(self, seat: int | None, action) -> Result:
        return Result.refused(REPLAY_REFUSAL)


@dataclass
class OnlineUpdate:
    """What one message of the referee did here."""
    started: Match | None = None     # the table's game began here: put this match on screen
    entries: list[LogEntry] = field(default_factory=list)   # new log entries, in order
    said: str | None = None          # a line for the status bar
    waiting: bool = False            # the table waits for a seat: nothing else changed
    disagreed: bool = False          # no world here could agree with the table


class OnlineSource:
    """A table kept by a referee, seen by one seat. The shell feeds it the referee's messages
    (update, connection, refused, ended); engine.following keeps the world this seat may
    know. act() checks the action on a copy and hands it to `send` (its JSON): pending until
    the table's update confirms it.

    `session` is the shell's object for the connection (seat, table; opaque here)."""
    kind = ONLINE

    def __init__(self, session: Any, rules: type[State], send: Callable[[Any], None] | None = None,
                 presence: Callable[[dict], str] | None = None,
                 presence_change: Callable[[tuple, dict], tuple[tuple, str, str | None]] | None = None):
        self.session = session
        self.seat: int | None = getattr(session, "seat", None)
        self.table_code: str = str(getattr(session, "table", ""))
        self.rules = rules
        self.send = send if send is not None else getattr(session, "send", None)
        self.presence = presence         # who is missing at a waiting table, in words ("" if nobody)
        # Or, richer: who left or lost connection, and who is back (app.online.presence_change:
        # (who was away, view) -> (who is away, the note, what to say or None)).
        self.presence_change = presence_change
        self.away: tuple = ()            # who was away at the last view (presence_change's own)
        self.away_note = ""              # the note it gave then
        self.match: Match | None = None  # until the table's sync arrives
        self.started = False
        self.pending = 0
        self.note = ""
        self.before: dict[int, State] = {}   # the world here before each entry (the log holds stand-ins)

    def act(self, seat: int | None, action) -> Result:
        if self.match is None or not self.started:
            return Result.refused("The online table has not started yet.")
        try:
            self.match.state.clone().apply_action(action)   # refused here already if illegal
        except IllegalActionError as e:
            return Result.refused(str(e))
        if self.send is None:
            return Result.refused("This screen is not connected to the table.")
        self.send(self.match.state.action_to_json(action))
        self.pending += 1
        return Result("sent")

    def update(self, view: dict) -> OnlineUpdate:
        """The seat's view from the referee: the entries not yet here, in a world that agrees
        with all this seat was told (the rules deal what it cannot see)."""
        done = OnlineUpdate()
        waiting = view.get("status") == "lobby"
        if self.presence_change is not None:
            self._presence(view, done)
        else:
            note = self.presence(view) if waiting and self.started and self.presence is not None else ""
            if note and note != self.note:
                self.note = done.said = note
            elif not waiting and f"Share code {view.get('table')}" in self.note:
                self.note = ""
                done.said = "Every seat is taken again: the game goes on."
        if waiting:
            done.waiting = True
            return done
        if not self.started:   # the table's game replaces whatever was on screen
            info = view.get("info") or {}
            if "seats" not in info or "setup" not in info:
                done.waiting = True
                return done   # the table's sync has not come yet (a host's first view can be ahead of it)
            match = Match(self.rules, info["seats"], 0, info["setup"])   # (a setup it cannot take raises)
            self.started = True
            self.match = done.started = match
            if self.presence_change is not None:
                self._presence(view, done)   # who is away, now that the table's game is on screen
        assert self.match is not None and self.seat is not None
        followed = follow(self.match, self.seat, view["entries"], view.get("observed") or {},
                          view.get("observation"), view["n"])
        self.before.update(followed.before)
        for entry in followed.entries:
            if entry.seat == self.seat:
                self.pending = max(0, self.pending - 1)
        done.entries = followed.entries
        if followed.disagreed:
            done.disagreed = True
            done.said = "This screen could not agree with the table; it goes on with the table's word."
        return done

    def _presence(self, view: dict, done: OnlineUpdate) -> None:
        """Who is away (left, lost connection) in the note; who came back, said once."""
        if not self.started or self.presence_change is None:
            return
        self.away, note, said = self.presence_change(self.away, view)
        if note != self.away_note:
            if note or self.note == self.away_note:   # (a lost connection of our own stays said)
                self.note = note
            self.away_note = note
        if said:
            done.said = said

    def connection(self, up: bool) -> str | None:
        """The connection went down or came back: the status line to show (None: nothing)."""
        self.note = "" if up else "Connection lost: reconnecting\u2026"
        return "Reconnected; caught up with the table." if up else None

    def refused(self, reason: str) -> str:
        """The referee refused our last move: nothing is pending any more."""
        self.pending = 0
        return f"The table refused that move: {reason}"

    def ended(self, result: dict, make_match: Callable[[dict], Match] | None = None) -> tuple[Match, str]:
        """The table's game is over: the referee's whole log (a finished match to replace this
        screen's guesses) and what to say about it."""
        save = result["save"]
        match = make_match(save) if make_match is not None else Match.from_json(save, "the online table's log")
        if result.get("problem"):
            return match, f"Online game {self.table_code} over, but it does not check out: {result['problem']}"
        return match, f"Online game {self.table_code} over; the deck's seed checks out."


Source = LocalSource | ReplaySource | OnlineSource


class Table:
    """One game on screen. `source` is the one on show; beneath it, the sources it covers (a
    replay covers the game it was opened from; an online table, the local game). Listeners
    (plain callables) hear every entry applied through the table: fn(entry)."""

    def __init__(self, source: Source | None = None):
        self.source: Source | None = source
        self._beneath: list[Source | None] = []
        self._listeners: list[Callable[[LogEntry], None]] = []

    # --- what is on show --------------------------------------------------------------
    @property
    def match(self) -> Match | None:
        """The match on show. At an online table whose game has not reached this screen yet,
        the local game stays on show (read-only: the online source refuses actions)."""
        if isinstance(self.source, OnlineSource) and self.source.match is None and self.aside is not None:
            return self.aside.match
        return self.source.match if self.source is not None else None

    @property
    def kind(self) -> str | None:
        return self.source.kind if self.source is not None else None

    @property
    def replaying(self) -> Match | None:
        """The whole match a replay steps through (None: no replay on show)."""
        return self.source.whole if isinstance(self.source, ReplaySource) else None

    @property
    def online(self) -> OnlineSource | None:
        """The online table on show, or beneath the replay on show."""
        for source in (self.source, *reversed(self._beneath)):
            if isinstance(source, OnlineSource):
                return source
            if isinstance(source, LocalSource):
                return None
        return None

    @property
    def aside(self) -> LocalSource | None:
        """The local game put aside while a replay or an online table is on show."""
        return next((s for s in reversed(self._beneath) if isinstance(s, LocalSource)), None)

    def kept_match(self) -> Match | None:
        """The game this screen keeps (saves, resumes): the local one, on show or put aside."""
        if isinstance(self.source, LocalSource):
            return self.source.match
        return self.aside.match if self.aside is not None else None

    def in_progress(self) -> bool:
        """A game New or Open would throw away: the kept one, unless it is over."""
        m = self.kept_match()
        return m is not None and not m.is_over()

    def people(self) -> list[int]:
        """The seats played by people at this screen (online: only ours)."""
        online = self.online
        if online is not None and online.seat is not None:
            return [online.seat]
        m = self.match
        return m.humans() if m is not None else []

    def view(self, seat: int | None) -> SeatView:
        m = self.match
        online = self.online
        pending, note = (online.pending, online.note) if online is not None else (0, "")
        kind = self.kind or LOCAL
        if m is None:
            return SeatView(seat, None, None, [], [], CHANCE, False, None, None, pending, note, kind)
        g = m.state
        to_move = g.current_player()
        over = g.is_terminal()
        mine = seat is not None and seat >= 0
        may_act = mine and not over and kind != REPLAY and to_move in (seat, SIMULTANEOUS)
        legal = list(g.legal_actions(seat)) if may_act else []
        observation = g.observation(seat) if seat is not None and seat >= 0 else None
        clock = g.now() if g.spec.real_time else None
        return SeatView(seat, g, observation, legal, [e.words_for(seat) for e in m.log], to_move, over,
                        g.returns() if over else None, clock, pending, note, kind)

    def state_before(self, index: int) -> State:
        """The position the log's entry `index` was played in (online: the world this screen
        held then, since the log holds stand-ins that do not replay)."""
        online = self.online
        if online is not None and self.kind == ONLINE and index in online.before:
            return online.before[index]
        shown = self.replaying or self.match
        assert shown is not None
        return shown.state_after(index)

    def state_after(self, n: int) -> State | None:
        """The game after its first n log entries (None online, where the log holds stand-ins
        that need not replay, and past the log)."""
        shown = self.replaying or self.match
        if self.kind == ONLINE or shown is None or not 0 <= n <= len(shown.log):
            return None
        return shown.state_after(n)

    # --- changing what is on show -----------------------------------------------------
    def install(self, match: Match) -> None:
        """A new or loaded game on show (ends a replay; online: the table's game as this seat knows it)."""
        self.stop_replay()
        if isinstance(self.source, OnlineSource):
            self.source.match = match
        else:
            self.source = LocalSource(match)

    def start_replay(self, match: Match, n: int = 0) -> ReplaySource:
        """Step through `match`, read-only; the game on show waits beneath."""
        if not isinstance(self.source, ReplaySource):
            self._beneath.append(self.source)
        self.source = ReplaySource(match, n)
        return self.source

    def stop_replay(self) -> None:
        if isinstance(self.source, ReplaySource):
            self.source = self._beneath.pop() if self._beneath else None

    def go_online(self, source: OnlineSource) -> None:
        """Show an online table; the local game waits beneath."""
        self.stop_replay()
        if isinstance(self.source, OnlineSource):
            self.leave_online()
        self._beneath.append(self.source)
        self.source = source

    def leave_online(self, restore: bool = True) -> OnlineSource | None:
        """Back to the local game put aside (restore), or keep the table's match on show as a
        local one. Returns the source left."""
        self.stop_replay()
        online = self.source
        if not isinstance(online, OnlineSource):
            return None
        below = self._beneath.pop() if self._beneath else None
        if restore and below is not None:
            self.source = below
        else:
            self.source = LocalSource(online.match) if online.match is not None else None
        return online

    # --- acting -----------------------------------------------------------------------
    def listen(self, fn: Callable[[LogEntry], None]) -> None:
        self._listeners.append(fn)

    def announce(self, entry: LogEntry | None) -> None:
        """Tell the listeners of an entry applied to the match outside act/step (a computer
        that thought in a worker thread, an animation's end, an online update)."""
        if entry is not None:
            for fn in list(self._listeners):
                fn(entry)

    def act(self, seat: int | None, action) -> Result:
        """A seat's action: accepted and logged, sent (online) or refused with the reason."""
        if self.source is None or self.match is None:
            return Result.refused("There is no game on the table.")
        if self.kind == REPLAY:
            return Result.refused(REPLAY_REFUSAL)
        if self.match.is_over():
            return Result.refused(OVER_REFUSAL)
        result = self.source.act(seat, action)
        self.announce(result.entry)
        return result

    def step(self) -> LogEntry | None:
        """Local: one action that needs no person (a chance outcome, a computer's move)."""
        if not isinstance(self.source, LocalSource) or self.match is None:
            return None
        entry = self.match.step()
        self.announce(entry)
        return entry

    # --- undo and save ------------------------------------------------------------------
    def _last_move(self) -> LogEntry | None:
        m = self.match
        return next((e for e in reversed(m.log) if e.seat != CHANCE), None) if m is not None else None

    def source_refusal(self) -> str | None:
        """Why nothing on show can be taken back whatever was played (None: a local game)."""
        if self.match is None:
            return "There is no game to take a move back in."
        if self.kind == REPLAY:
            return REPLAY_REFUSAL
        if self.kind == ONLINE:
            return "At an online table a move the table has taken can't be taken back."
        return None

    def undo_refusal(self, people: list[int], viewer: int | None = None,
                     allowed: Callable[[int], bool] | None = None) -> str | None:
        """Why the people here may not take back their last move, in their words (None: they
        may). A person takes back only their own last action, while no other seat has acted
        since and never past a chance outcome they saw (Match.undo_refusal); with several
        people, only the one on screen (`viewer`); `allowed(n)`: the game's own limit."""
        why = self.source_refusal()
        if why:
            return why
        last = self._last_move()
        if last is None or last.seat not in people:
            return "There is no move of yours to take back."
        if len(people) > 1 and last.seat != viewer:
            return "The next player is at the screen now: the last move is not theirs to take back."
        m = self.match
        assert m is not None
        why = m.undo_refusal(last.seat)
        if why:
            return why
        n = m.fair_undo_point(last.seat)
        if n is not None and allowed is not None and not allowed(n):
            return "The rules of this game don't let that move be taken back."
        return None

    def undo_point(self, people: list[int], viewer: int | None = None,
                   allowed: Callable[[int], bool] | None = None) -> int | None:
        """The log length undo goes back to (None: nothing to take back; see undo_refusal)."""
        if self.undo_refusal(people, viewer, allowed) is not None:
            return None
        last = self._last_move()
        assert last is not None and self.match is not None
        return self.match.fair_undo_point(last.seat)

    def undo(self, people: list[int], viewer: int | None = None,
             allowed: Callable[[int], bool] | None = None) -> int | None:
        """Take back the people's last move; returns the seat whose move it was (None: nothing)."""
        n = self.undo_point(people, viewer, allowed)
        if n is None:
            return None
        assert self.match is not None
        seat = self.match.log[n].seat
        self.match.undo_to(n)
        return seat

    def save(self) -> dict | None:
        """The kept game as the body of a save (None: nothing to save); an online table's view
        and a replay are no game to resume."""
        m = self.kept_match()
        return None if m is None else m.to_json()


def log_viewer(table: Table) -> int | None:
    """Whose words the move log reads (LogEntry.words_for): everything (None) once the game is
    over or when only computers play; else the one person here, or the public words when
    several people share the screen."""
    whole = table.replaying or table.match
    people = table.people()
    if whole is None or whole.is_over() or not people:
        return None
    return people[0] if len(people) == 1 else SPECTATOR


def replay_viewer(replay: Match, state: State) -> int | None:
    """Whose view a replay shows: a finished game's whose turn it was, cards and all; an
    unfinished game's only what the people at this screen could see (the one person's own
    view; with several people, or none, nobody's private view)."""
    if replay.is_over():
        actor = state.current_player()
        return actor if actor >= 0 else None
    people = replay.humans()
    return people[0] if len(people) == 1 else None
