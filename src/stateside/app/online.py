"""Game > Play online…: host a table or join one by its code, wait in the lobby, then play
one seat in the game's own mode, driven by the referee (see online/ARCHITECTURE.md).

Qt and asyncio each want the thread they run in: the online client (nats-py, asyncio)
runs in a worker thread with its own event loop; everything it hears goes into a
thread-safe queue that a QTimer in the GUI thread drains, and the GUI's commands go the
other way with loop.call_soon_threadsafe. Nothing here touches a game's rules: the mode
applies what the referee confirmed (attach_online / online_update in the mode).
"""
from __future__ import annotations

import asyncio
import collections
import html
import queue
import sys
import threading
import time
import traceback
from contextlib import contextmanager

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from stateside.board.plain import literal, plain_label

DEFAULT_SERVER = "nats://127.0.0.1:4222"   # where `stateside server` listens by default
PEOPLE_CHOICES = {"you": "You", "human": "Another person"}   # then the game's computer levels
DEFAULT_LEVELS = ("easy", "medium", "hard")
RESEND_AFTER_S = 1.5    # an intent with no answer by then is sent again (a referee replaced)
QUIET_SYNC_S = 2.0      # nothing heard for this long: ask the referee where the game is


def guest_url(server: str) -> str:
    """The server's address as nats://HOST:PORT (a guest signs in with a key of its own)."""
    server = server.strip() or DEFAULT_SERVER
    if "://" not in server:
        server = "nats://" + server
    scheme, rest = server.split("://", 1)
    rest = rest.split("@")[-1]
    if ":" not in rest:
        rest += ":4222"
    return f"{scheme}://{rest}"


@contextmanager
def _slot_errors():
    """Collects the exceptions that slots raise while a signal is emitted inside: PySide6
    hands them to sys.excepthook (and prints them) instead of raising them from emit()."""
    caught: list[BaseException] = []
    hook = sys.excepthook
    sys.excepthook = lambda _kind, value, _tb: caught.append(value)
    try:
        yield caught
    finally:
        sys.excepthook = hook


# What a message that fails is, for the one line that says so.
_WHAT_FAILED = {"lobby": "lobby", "ended": "final log", "refused": "refusal", "connection": "connection",
                "failed": "message"}


class OnlineSession(QObject):
    """One seat at one online table, for the GUI thread. Signals carry snapshots (containers
    made for them), never the client's own lists and dicts (those belong to the worker thread).

    The views go as Python objects (Signal(object)): a Signal(dict) would turn them into
    Qt variants, and a number beyond 64 bits in a host's setup then fails in emit itself.
    A message the screen cannot use (its slot raises) is said once, through `failed`,
    and the seat is given up; the table's later messages are not shown."""

    lobby = Signal(object)      # {"table", "status", "joined": {seat: name}, "names", "seats", "seat"}
    update = Signal(object)     # the seat's view: entries, observation, legal, to_move, status, info
    connection = Signal(bool)   # False: the connection is lost (it reconnects by itself); True: back
    refused = Signal(str)       # the referee refused our move: why
    failed = Signal(str)        # hosting or joining failed, or the table cannot be shown here: why
    ended = Signal(object)      # {"save": the whole match, "returns", "problem": None or why unverified}
    closed = Signal()           # the session is over (left, the game ended, or closed): the shell tidies up

    def __init__(self, server: str = DEFAULT_SERVER, parent: QObject | None = None, poll_ms: int = 30,
                 ping_s: float | None = None):
        super().__init__(parent)
        from stateside.online.protocol import PING_EVERY_S

        # Our heartbeat's period: while it comes, the others know we are there (see protocol.PING).
        self.ping_s = PING_EVERY_S if ping_s is None else ping_s
        self.guest = guest_url(server)
        self.seat: int | None = None
        self.table: str | None = None
        self.game: str | None = None
        self.client = None
        self._inbox: queue.Queue = queue.Queue()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="stateside-online", daemon=True)
        self._thread.start()
        self._wake: asyncio.Event | None = None
        self._pending: collections.deque = collections.deque()   # our moves not yet sent
        self._closed = False
        self._unusable: str | None = None   # why this screen cannot show the table (said once)
        self._game_shown = False            # an update past the lobby was shown
        self._task = None
        self._seating = None   # the host or join under way in the worker thread (a concurrent future)
        self.real_time = False   # a real-time game's moves go at once (set when the seat is taken)
        # Game > Leave the online table: play_online puts it in the Game menu while the session
        # lives; whoever drives the session (the mode) connects its triggered signal.
        self.leave_action = QAction("Leave the online table", self)
        self.leave_action.setToolTip("Give up your seat: the others wait until someone takes it by the table code.")
        # The host's: a seat that stays empty goes to a computer (enabled while the table waits for it).
        self.computer_action = QAction("Give the empty seat to a computer", self)
        self.computer_action.setToolTip("The server's easiest computer player takes the seat nobody holds; "
                                        "the game goes on.")
        self.computer_action.setEnabled(False)
        self.computer_action.triggered.connect(self.give_empty_seat)
        # Game > Resign…: attach_session asks first (confirm_resign); enabled while the game is on.
        self.resign_action = QAction("Resign…", self)
        self.resign_action.setToolTip("Give up this game: it ends at once, you take last place and the other "
                                      "players share the win.")
        self.resign_action.setEnabled(False)
        self._last_view: dict | None = None
        self.timer = QTimer(self, interval=poll_ms, timeout=self._drain)
        self.timer.start()

    # --- from the GUI thread --------------------------------------------------------
    def host(self, game: str, kinds: list[str], names: list[str], options: dict | None = None,
             seed: int | None = None, public: bool = False) -> None:
        """Open a table: kinds are "you", "human" or "ai:<level>", exactly one "you"; a
        public table is listed in the lobby and spectators may watch it."""
        seats = ["human" if k in ("you", "human") else k for k in kinds]
        mine = kinds.index("you")
        self._submit(self._host_and_join(game, seats, names, options or {}, seed, mine, public))

    def join(self, code: str, name: str | None = None) -> None:
        """Take a free seat at the table, as `name` (the name the host gave if None)."""
        self._submit(self._join(code.strip().upper(), None, name))

    def send(self, action_json, **fields) -> None:
        """Our move. In a turn game it is sent when the game is at our turn (moves queue up:
        keep, then discard); in a real-time game at once, with its fields (round=N: the
        round it is for), and never resent: a race has no turn to wait for, and a slap sent
        twice could count twice."""
        self._loop.call_soon_threadsafe(self._queue_move, action_json, fields)

    def leave(self, timeout: float = 5.0) -> str | None:
        """Leave the table (the referee frees the seat and revokes our credentials), then
        close. A game already over is only closed. Returns why leaving failed, or None."""
        if self._closed:
            return None
        problem = None
        if self._seating is not None:   # a seat still being taken (its code shown, its client not yet
            try:                        # connected) is left once it is taken, not kept
                self._seating.result(timeout)
            except Exception:   # (_guarded says what went wrong; a join that never ends is not waited for)
                pass
        c = self.client
        if c is not None and c.end is None and not c.gone and not c.closed:   # a closed table has no seats
            fut = asyncio.run_coroutine_threadsafe(c.leave(timeout), self._loop)
            try:
                fut.result(timeout + 1)
            except Exception as e:   # no referee answered: the seat stays taken until it does
                problem = str(e) or type(e).__name__
        self.close()
        return problem

    def resign(self, timeout: float = 5.0) -> str | None:
        """Resign (the referee ends the game; its end comes as `ended`, naming who resigned).
        Returns why it failed, or None."""
        c = self.client
        if self._closed or c is None or c.end is not None:
            return None
        fut = asyncio.run_coroutine_threadsafe(c.resign(timeout), self._loop)
        try:
            fut.result(timeout + 1)
        except Exception as e:   # refused (a real-time table) or no referee answered
            return str(e) or type(e).__name__
        return None

    def give_empty_seat(self) -> None:
        """The host's Give the empty seat to a computer: the first seat nobody holds goes to
        the game's easiest computer level offered here."""
        view = self._last_view
        seats = empty_seats(view) if view else []
        if not seats or self.client is None:
            return
        from stateside.engine.match import rules_for

        levels = [lv for lv in rules_for(self.game).spec.ai_levels if lv in _OFFERED_LEVELS]
        if not levels:
            return
        self.computer_action.setEnabled(False)
        client = self.client
        self._loop.call_soon_threadsafe(lambda: asyncio.ensure_future(client.give_to_computer(seats[0], levels[0])))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.timer.stop()
        fut = asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop)
        try:
            fut.result(timeout=5)
        except Exception:   # a server gone already: nothing to say goodbye to
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self.closed.emit()

    def _submit(self, coro) -> None:
        """Taking a seat (host, join), in the worker thread; leave and close wait for it."""
        self._seating = asyncio.run_coroutine_threadsafe(self._guarded(coro), self._loop)

    def _drain(self) -> None:
        """GUI thread: hand what the worker heard to the signals (the latest view only)."""
        last_update = None
        while not self._closed and self._unusable is None:
            try:
                kind, body = self._inbox.get_nowait()
            except queue.Empty:
                break
            if kind == "update":
                last_update = body
                continue
            if last_update is not None and kind in ("ended", "refused"):
                self._deliver("update", last_update)   # in order: the view before what followed it
                last_update = None
            self._deliver(kind, body)
        if last_update is not None:
            self._deliver("update", last_update)
        if self._unusable is not None and not self._closed:
            self.leave()   # nobody gave the seat up on hearing why (the lobby's dialog only says it)

    def _deliver(self, kind: str, body) -> None:
        """Emit one message; if its slots cannot use it, say why once and stop showing the table."""
        if self._closed or self._unusable is not None:
            return
        with _slot_errors() as errors:
            try:
                getattr(self, kind).emit(body)
            except Exception as e:   # the message cannot even be handed over (a wrong type)
                errors.append(e)
        if not errors:
            if kind == "update" and isinstance(body, dict):
                self._last_view = body
                self.computer_action.setEnabled(bool(empty_seats(body)) and self._game_shown
                                                and (body.get("info") or {}).get("host_seat") == self.seat)
                if body.get("status") != "lobby":
                    self._game_shown = True
                self.resign_action.setEnabled(self._game_shown and not self.real_time
                                              and body.get("status") in ("playing", "lobby"))
            elif kind in ("ended", "failed"):
                self.resign_action.setEnabled(False)
            return
        error = errors[0]
        print(f"stateside: online table {self.table}: its {kind} message could not be shown here:", file=sys.stderr)
        traceback.print_exception(error, file=sys.stderr)
        what = _WHAT_FAILED.get(kind, "message")
        if kind == "update":
            what = "moves" if self._game_shown else "setup"
        reason = str(error) if isinstance(error, ValueError) and str(error) else f"{type(error).__name__}: {error}"
        self._unusable = (f"Table {self.table}: the table's {what} cannot be shown here: {reason}. "
                          "You have left the table.")
        if kind != "failed":   # (a failed message that fails again is not said twice)
            self.failed.emit(self._unusable)   # the dialog or the game's screen says it (attach_session)

    # --- in the worker thread -------------------------------------------------------------
    def _post(self, kind: str, body) -> None:
        self._inbox.put((kind, body))

    async def _guarded(self, coro) -> None:
        from stateside.online.client import OnlineError

        try:
            await coro
        except OnlineError as e:
            self._post("failed", str(e))
        except (TimeoutError, OSError) as e:
            self._post("failed", f"cannot reach the server at {self.guest.split('@')[-1]}: {e or 'timed out'}")
        except Exception as e:   # nats-py's own errors (no servers, authorization...)
            self._post("failed", f"{type(e).__name__}: {e}")

    async def _host_and_join(self, game, seats, names, options, seed, mine, public=False) -> None:
        from stateside.online import client as C

        host = await C.host_table(self.guest, game, seats, names, options, seed=seed, public=public, host_seat=mine)
        await self._join(host["table"], mine)

    async def _join(self, code: str, seat: int | None, name: str | None = None) -> None:
        from stateside.online import client as C

        creds = await C.join_table(self.guest, code, seat, name)
        self.table, self.seat, self.game = creds["table"], creds["seat"], creds["game"]
        self.real_time = _is_real_time(self.game)
        self._wake = asyncio.Event()
        self.client = C.SeatClient(self.guest, creds, on_event=self._on_event)
        await self.client.connect()
        self._task = asyncio.create_task(self._run())

    def _on_event(self, what: str) -> None:
        if what == "disconnected":
            self._post("connection", False)
        elif what == "reconnected":
            self._post("connection", True)
        if self._wake is not None:
            self._wake.set()

    def _queue_move(self, action_json, fields: dict) -> None:
        if self.real_time:   # a race: now or never (the referee stamps it on arrival)
            if self.client is not None:
                asyncio.ensure_future(self._act_now(action_json, fields))
            return
        self._pending.append((action_json, fields))
        if self._wake is not None:
            self._wake.set()

    async def _act_now(self, action_json, fields: dict) -> None:
        try:
            await self.client.act(action_json, **fields)
        except Exception as e:   # disconnected: the slap is lost, as one sent too late would be
            self._post("refused", f"not sent: the connection is down ({e or type(e).__name__})")

    async def _run(self) -> None:
        """Tell the GUI what changed; send our queued moves one at a time, each for the
        position it was chosen in; ask again when the referee is silent."""
        c = self.client
        seen_refusals, sent_n, sent_at, heard_at = 0, None, 0.0, time.monotonic()
        last_sent = None
        ended = False
        pinged_at = 0.0
        while not self._closed:
            if time.monotonic() - pinged_at >= self.ping_s:   # our heartbeat: we are here
                pinged_at = time.monotonic()
                try:
                    await c.ping()
                except Exception:   # disconnected: the others will hear we are lost
                    pass
            try:
                await asyncio.wait_for(self._wake.wait(), min(0.5, self.ping_s))
                heard_at = time.monotonic()
            except TimeoutError:
                pass
            self._wake.clear()
            now = time.monotonic()
            for r in c.refusals[seen_refusals:]:
                if r["reason"].startswith("stale") and sent_n is not None and c.n > sent_n:
                    continue   # a resent move that had been recorded after all
                self._pending.clear()
                sent_n = None
                self._post("refused", r["reason"])
            seen_refusals = len(c.refusals)
            self._post("update", self._snapshot())
            if c.status == "lobby":
                self._post("lobby", self._lobby_view())
            if c.end is not None and not ended and c.n == len(c.end["save"]["actions"]):
                ended = True
                self._post("ended", self._verified())
            if c.closed and not ended:   # the referee cannot go on with this table: say why, once
                ended = True
                self._post("failed", f"Table {c.table} was closed by the server: {c.closed}")
            if sent_n is not None and c.n > sent_n:
                sent_n = None   # confirmed
            try:
                if sent_n is None and self._pending and c.my_turn():
                    last_sent = self._pending.popleft()
                    sent_n, sent_at = c.n, now
                    await c.act(last_sent[0], **last_sent[1])
                elif sent_n is not None and now - sent_at > RESEND_AFTER_S:
                    await c.sync()   # the answer went missing: catch up, then send again
                    if c.n == sent_n and c.my_turn():
                        await c.act(last_sent[0], **last_sent[1])
                    sent_at = now
                elif now - heard_at > QUIET_SYNC_S or c.status == "lobby":
                    heard_at = now
                    await c.sync()
            except Exception:   # disconnected meanwhile: the reconnection syncs and we try again
                sent_at = now

    def _snapshot(self) -> dict:
        c = self.client
        return {"table": c.table, "seat": c.seat, "n": c.n, "entries": list(c.entries),
                "observation": c.observation, "legal": c.legal, "to_move": c.to_move,
                "observed": dict(c.observed),
                "status": c.status, "info": dict(c.info)}

    def _lobby_view(self) -> dict:
        c = self.client
        info = c.info
        return {"table": c.table, "seat": c.seat, "status": c.status, "game": info.get("game"),
                "names": (info.get("setup") or {}).get("players", []), "seats": info.get("seats", []),
                "joined": {int(k): v for k, v in (info.get("joined") or {}).items()}}

    def _verified(self) -> dict:
        c = self.client
        try:
            c.verify()
            problem = None
        except Exception as e:   # the referee's word against the log: say so, keep its record
            problem = str(e)
        return {"save": c.end["save"], "returns": c.end["returns"], "problem": problem,
                "resigned": c.end.get("resigned"), "seat": c.seat, "table": c.table}

    async def _shutdown(self) -> None:
        if self._seating is not None and not self._seating.done():   # a client connecting: close it too
            await asyncio.wait([asyncio.wrap_future(self._seating)], timeout=5)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)   # let it finish before the loop stops
        if self.client is not None:
            await self.client.close()


class WatchWindow(QDialog):
    """A spectator at a public table: who is seated, the move log as every seat may read
    it (hidden moves stay hidden), and the result. The asyncio Spectator runs in a worker
    thread of its own; a QTimer shows what it heard."""

    def __init__(self, server: str, code: str, titles: dict | None = None, parent: QWidget | None = None,
                 poll_ms: int = 50):
        super().__init__(parent)
        self.code = code.strip().upper()
        self.titles = titles or {}
        self.setWindowTitle(f"Watching table {self.code}")
        self.setMinimumSize(420, 360)
        layout = QVBoxLayout(self)
        self.heading = plain_label(f"Table {self.code}: connecting\u2026")
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        self.moves = QListWidget()
        self.moves.setToolTip("The moves as every player may see them; a spectator sees no hidden card.")
        layout.addWidget(self.moves)
        close = QPushButton("Stop watching")
        close.clicked.connect(self.close)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(close)
        layout.addLayout(row)
        self.spectator = None
        self.problem: str | None = None
        self._shown = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="stateside-watch", daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(guest_url(server)), self._loop)
        self.timer = QTimer(self, interval=poll_ms, timeout=self._refresh)
        self.timer.start()

    async def _start(self, guest: str) -> None:
        from stateside.online import client as C

        try:
            self.spectator = await C.Spectator(guest, self.code).connect()
        except Exception as e:   # a private table, no such table, no server: said in the window
            self.problem = str(e) or type(e).__name__

    def _refresh(self) -> None:
        w = self.spectator
        if self.problem:
            self.heading.setText(f"Cannot watch table {self.code}: {self.problem}")
            return
        if w is None:
            return
        entries = list(w.entries)   # (a copy: the worker thread appends to its own list)
        for entry in entries[self._shown:]:
            self.moves.addItem(str(entry.get("text") or "(a move)"))
        if len(entries) > self._shown:
            self._shown = len(entries)
            self.moves.scrollToBottom()
        info = dict(w.info)
        names = (info.get("setup") or {}).get("players", [])
        game = self.titles.get(info.get("game"), info.get("game", ""))
        if w.end is not None:
            scores = w.end.get("scores") or []
            result = ", ".join(f"{n} {s}" for n, s in zip(names, scores)) if scores else "over"
            state = f"The game is over: {result}."
            if w.end.get("resigned"):
                state = resign_words({**w.end, "seat": None}, names)
        elif w.status == "closed":
            state = "The server closed this table."
        else:
            joined = {int(k) for k in (info.get("joined") or {})}
            away = [str(n) for s, n in enumerate(names)
                    if s < len(info.get("seats", [])) and info["seats"][s] == "human" and s not in joined]
            state = ("Waiting for " + ", ".join(away) + ".") if away else f"Playing: {len(entries)} moves so far."
            lost = presence_note({"table": self.code, "info": info, "seat": None})
            if lost and not away:   # (someone lost connection: the spectator is told too)
                state += f" {lost}"
        self.heading.setText(f"Table {self.code}, {game}: {', '.join(str(n) for n in names)}. {state}")

    def closeEvent(self, event) -> None:
        self.timer.stop()
        if self.spectator is not None:
            fut = asyncio.run_coroutine_threadsafe(self.spectator.close(), self._loop)
            try:
                fut.result(timeout=5)
            except Exception:   # the server is gone already
                pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        super().closeEvent(event)


class OnlineDialog(QDialog):
    """Host a table or join one by its code; then the lobby, until every seat is taken."""

    def __init__(self, games: list[tuple], parent: QWidget | None = None):
        """games: (id, title, fewest players, most players[, computer levels[, variants]])
        of the games playable online."""
        super().__init__(parent)
        self.setWindowTitle("Play online")
        self.games = games
        self.session: OnlineSession | None = None
        self.setMinimumWidth(460)
        outer = QVBoxLayout(self)
        self.pages = QStackedWidget()
        outer.addWidget(self.pages)

        # --- page 0: where, and host or join
        start = QWidget()
        sv = QVBoxLayout(start)
        form = QFormLayout()
        self.server = QLineEdit(DEFAULT_SERVER)
        self.server.setToolTip("The address of a `stateside server` (the default: one on this computer).")
        form.addRow("Server:", self.server)
        self.name = QLineEdit("You")
        self.name.setMaxLength(16)
        form.addRow("Your name:", self.name)
        sv.addLayout(form)
        tabs = QTabWidget()
        host = QWidget()
        hf = QFormLayout(host)
        self.game = QComboBox()
        for gid, title, *_ in games:
            self.game.addItem(title, gid)
        hf.addRow("Game:", self.game)
        self.variant = QComboBox()
        self.variant.setToolTip("The way to play (the game's variants)")
        hf.addRow("Way to play:", self.variant)
        self.count = QSpinBox()
        hf.addRow("Players:", self.count)
        self.kinds: list[QComboBox] = []
        self.seat_rows: list[QWidget] = []
        for i in range(max((g[3] for g in games), default=2)):
            kind = QComboBox()   # filled with the chosen game's levels (_game_changed)
            hf.addRow(f"Seat {i + 1}:", kind)
            self.kinds.append(kind)
        self.public = QCheckBox("Public: listed in the lobby, spectators may watch")
        self.public.setToolTip("A private table is found only by its code.")
        hf.addRow(self.public)
        self.host_form = hf
        self.host_button = QPushButton("Host a table")
        self.host_button.clicked.connect(self._host)
        hf.addRow(self.host_button)
        tabs.addTab(host, "Host a table")
        join = QWidget()
        jf = QFormLayout(join)
        self.code = QLineEdit()
        self.code.setPlaceholderText("e.g. K7QX3M")
        self.code.setMaxLength(6)
        jf.addRow("Table code:", self.code)
        self.join_button = QPushButton("Join")
        self.join_button.clicked.connect(self._join)
        jf.addRow(self.join_button)
        # The server's public tables: pick one to fill in its code.
        self.open_tables = QListWidget()
        self.open_tables.setToolTip("Public tables on this server; double-click one waiting for players to join it.")
        self.open_tables.currentItemChanged.connect(self._table_picked)
        self.open_tables.itemDoubleClicked.connect(lambda _item: self._join())
        self.refresh_button = QPushButton("Refresh the list")
        self.refresh_button.clicked.connect(self.refresh_tables)
        jf.addRow("Public tables:", self.open_tables)
        self.watch_button = QPushButton("Watch")
        self.watch_button.setToolTip("Watch the public table with this code as a spectator.")
        self.watch_button.clicked.connect(self._watch)
        buttons = QHBoxLayout()
        buttons.addWidget(self.refresh_button)
        buttons.addWidget(self.watch_button)
        jf.addRow(buttons)
        # Apart, the public tables that finished (the most recent first): replayed from the server.
        self.finished_tables = QListWidget()
        self.finished_tables.setMaximumHeight(110)
        self.finished_tables.setToolTip("Public games that ended on this server, the latest first; "
                                        "double-click one to replay it.")
        self.finished_tables.itemDoubleClicked.connect(lambda _item: self._replay())
        jf.addRow("Finished:", self.finished_tables)
        self.replay_button = QPushButton("Replay")
        self.replay_button.setToolTip("Replay the finished game chosen above, move by move, on its board.")
        self.replay_button.clicked.connect(self._replay)
        jf.addRow(self.replay_button)
        self.watching: WatchWindow | None = None
        self.replayed: str | None = None   # the finished table replayed from the list
        tabs.addTab(join, "Join a table")
        self.tabs = tabs
        # the list of public tables fills the first time the Join tab is shown
        tabs.currentChanged.connect(lambda i: i == 1 and self.open_tables.count() == 0 and self.refresh_tables())
        sv.addWidget(tabs)
        self.message = plain_label()   # the server's reasons among them
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b02a37;")
        sv.addWidget(self.message)
        self.pages.addWidget(start)

        # --- page 1: the lobby
        lobby = QWidget()
        lv = QVBoxLayout(lobby)
        self.code_label = plain_label()
        self.code_label.setAlignment(Qt.AlignCenter)
        self.code_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.code_label.setStyleSheet("font-size: 30px; font-weight: bold; color: #1d3557; letter-spacing: 4px;")
        lv.addWidget(self.code_label)
        hint = QLabel("Tell the other players this code: they choose Game \u203a Play online\u2026 \u203a "
                      "Join a table, with the same server.")
        hint.setWordWrap(True)
        lv.addWidget(hint)
        self.seated = QLabel()
        self.seated.setTextFormat(Qt.RichText)   # the host's names in it are escaped
        lv.addWidget(self.seated)
        lv.addStretch(1)
        leave = QPushButton("Leave the table")
        leave.clicked.connect(self.reject)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(leave)
        lv.addLayout(row)
        self.pages.addWidget(lobby)

        self.game.currentIndexChanged.connect(self._game_changed)
        self.count.valueChanged.connect(self._count_changed)
        self._game_changed()
        self._recall()

    # What the dialog remembers between uses (the window's settings file): name, server, game.
    _REMEMBERED = ("online/name", "online/server", "online/game")

    def _settings(self):
        return getattr(self.parent(), "settings", None)

    def _recall(self) -> None:
        settings = self._settings()
        if settings is None:
            return
        name, server, game = (settings.value(k) for k in self._REMEMBERED)
        if isinstance(name, str) and name.strip():
            self.name.setText(name[:self.name.maxLength()])
        if isinstance(server, str) and server.strip():
            self.server.setText(server)
        at = self.game.findData(game) if isinstance(game, str) else -1
        if at >= 0:
            self.game.setCurrentIndex(at)

    def remember(self) -> None:
        settings = self._settings()
        if settings is None:
            return
        for key, value in zip(self._REMEMBERED, (self.name.text().strip(), self.server.text().strip(),
                                                 self.game.currentData())):
            if value:
                settings.setValue(key, value)

    def _game_changed(self) -> None:
        i = self.game.currentIndex()
        if i < 0:
            return
        _gid, _title, lo, hi = self.games[i][:4]
        levels = self.games[i][4] if len(self.games[i]) > 4 else DEFAULT_LEVELS
        variants = self.games[i][5] if len(self.games[i]) > 5 else ()
        self.count.setRange(lo, hi)
        for n, kind in enumerate(self.kinds):
            keep = kind.currentData()
            kind.clear()
            for key, label in PEOPLE_CHOICES.items():
                kind.addItem(label, key)
            for level in levels:
                kind.addItem(f"Computer ({level})", f"ai:{level}")
            at = kind.findData(keep) if keep else -1
            kind.setCurrentIndex(at if at >= 0 else (0 if n == 0 else 1))
        self.variant.clear()
        for v in variants:
            self.variant.addItem(variant_title(v), v)
        self.host_form.setRowVisible(self.variant, bool(variants))
        self._count_changed()

    def _count_changed(self) -> None:
        for i, kind in enumerate(self.kinds):
            self.host_form.setRowVisible(kind, i < self.count.value())

    def seat_kinds(self) -> list[str]:
        return [self.kinds[i].currentData() for i in range(self.count.value())]

    def _session(self) -> OnlineSession:
        if self.session is not None:
            self.session.close()
        self.session = OnlineSession(self.server.text(), self)
        self.session.failed.connect(self._failed)
        self.session.lobby.connect(self._show_lobby)
        self.session.update.connect(self._update)
        return self.session

    def _host(self) -> None:
        kinds = self.seat_kinds()
        if kinds.count("you") != 1:
            self.message.setText("Choose \u201cYou\u201d for exactly one seat.")
            return
        me = self.name.text().strip() or "You"
        names, people, computers = [], 1, 0
        for k in kinds:
            if k == "you":
                names.append(me)
            elif k == "human":
                people += 1
                names.append(f"Player {people}")
            else:
                computers += 1
                names.append(f"Computer {computers}")
        options = {"variant": self.variant.currentData()} if self.variant.count() else {}
        self._busy("Opening a table\u2026")
        self.remember()
        self._session().host(self.game.currentData(), kinds, names, options, public=self.public.isChecked())

    def refresh_tables(self) -> None:
        """Ask the server for its public tables (in the background; the list fills when they come)."""
        from stateside.online import client as C

        self.open_tables.clear()
        self.open_tables.addItem("Looking\u2026")
        self.refresh_button.setEnabled(False)
        guest = guest_url(self.server.text())
        titles = {g[0]: g[1] for g in self.games}

        def fetch():
            try:
                result = asyncio.run(C.lobby_lists(guest))
            except Exception as e:   # no server there, no referee: say so in the list
                result = f"No list: {e}"
            self._listed = result

        self._listed = None
        worker = threading.Thread(target=fetch, daemon=True)
        worker.start()

        def done():
            if worker.is_alive():
                QTimer.singleShot(50, done)
                return
            self.refresh_button.setEnabled(True)
            listed = self._listed
            self.show_tables(listed if isinstance(listed, str) else listed["tables"], titles)
            self.show_finished([] if isinstance(listed, str) else listed["finished"], titles)
        QTimer.singleShot(50, done)

    def show_finished(self, tables: list[dict], titles: dict) -> None:
        self.finished_tables.clear()
        for t in tables:
            names = [str(n) for n in t.get("names", [])]
            if t.get("resigned"):
                result = f"{t['resigned']} resigned"
            else:
                won = [n for n, share in zip(names, t.get("returns") or []) if share > 0]
                result = f"{_names(won)} won" if won else "no winner"
            when = time.strftime("%H:%M", time.localtime(t["ended"])) if isinstance(t.get("ended"), int) else ""
            # what matters first (the list is narrow); who played, in the tooltip
            item = QListWidgetItem(f"{t['table']}  {titles.get(t['game'], t['game'])}: {result}"
                                   + (f" ({when})" if when else ""))
            item.setToolTip(f"{', '.join(names)}: {t.get('n', 0)} moves" + (f", ended at {when}" if when else ""))
            item.setData(Qt.UserRole, t["table"])
            self.finished_tables.addItem(item)
        self.replay_button.setEnabled(bool(tables))
        if tables:
            self.finished_tables.setCurrentRow(0)

    def _replay(self) -> None:
        """The finished table chosen, replayed from the server's log in its game's screen."""
        from stateside.online import client as C

        item = self.finished_tables.currentItem()
        code = item.data(Qt.UserRole) if item is not None else None
        if not code:
            return
        self._busy(f"Fetching table {code}\u2026")
        guest = guest_url(self.server.text())
        box: dict = {}
        worker = threading.Thread(target=lambda: box.update(_fetch_look(C, guest, code)), daemon=True)
        worker.start()

        def done():
            if worker.is_alive():
                QTimer.singleShot(50, done)
                return
            if "problem" in box:
                self._failed(f"Cannot replay table {code}: {box['problem']}")
                return
            problem = replay_from_server(self.parent(), code, box["look"])
            if problem:
                self._failed(problem)
                return
            self.replayed = code
            super(OnlineDialog, self).reject()
        QTimer.singleShot(50, done)

    def show_tables(self, tables, titles: dict) -> None:
        self.open_tables.clear()
        if isinstance(tables, str):
            self.open_tables.addItem(tables)
            return
        if not tables:
            self.open_tables.addItem("No public table on this server just now.")
            return
        for t in tables:
            free = [s for s, kind in enumerate(t["seats"]) if kind == "human" and str(s) not in t["joined"]]
            people = ", ".join(str(n) for n in t["names"])
            state = f"{len(free)} seat(s) free" if t["status"] == "lobby" else "playing"
            item = QListWidgetItem(f"{t['table']}  {titles.get(t['game'], t['game'])}: {people} \u2014 {state}")
            item.setData(Qt.UserRole, t["table"])
            self.open_tables.addItem(item)

    def _picked_code(self) -> str:
        """The code typed, or else the one of the public table chosen in the list."""
        item = self.open_tables.currentItem()
        if not self.code.text().strip() and item is not None and item.data(Qt.UserRole):
            self.code.setText(item.data(Qt.UserRole))
        return self.code.text()

    def _watch(self) -> None:
        """A spectator's window for the table (it lives beside the main window); the dialog closes."""
        self.remember()
        self.watching = WatchWindow(self.server.text(), self._picked_code(), {g[0]: g[1] for g in self.games},
                                    self.parent())
        self.watching.setAttribute(Qt.WA_DeleteOnClose)
        self.watching.show()
        super().reject()

    def _table_picked(self, item) -> None:
        code = item.data(Qt.UserRole) if item is not None else None
        if code:
            self.code.setText(code)

    def _join(self) -> None:
        self._busy("Joining\u2026")
        self.remember()
        self._session().join(self._picked_code(), self.name.text().strip() or None)

    def _busy(self, text: str) -> None:
        self.message.setStyleSheet("color: #444;")
        self.message.setText(text)
        self.host_button.setEnabled(False)
        self.join_button.setEnabled(False)

    def _failed(self, reason: str) -> None:
        self.message.setStyleSheet("color: #b02a37;")
        self.message.setText(reason)
        self.host_button.setEnabled(True)
        self.join_button.setEnabled(True)
        self.pages.setCurrentIndex(0)

    def _show_lobby(self, view: dict) -> None:
        self.pages.setCurrentIndex(1)
        self.code_label.setText(str(view["table"]))
        rows = []
        for s, name in enumerate(view["names"]):
            name = html.escape(str(name))   # chosen by whoever hosted the table
            kind = view["seats"][s] if s < len(view["seats"]) else "human"
            if kind != "human":
                who = f"{name} <span style='color:#666'>(computer, run by the server)</span>"
            elif s in view["joined"]:
                who = f"<b>{name}</b>" + (" (you)" if s == view["seat"] else " \u2713 seated")
            else:
                who = f"{name} <span style='color:#b02a37'>\u2014 waiting\u2026</span>"
            rows.append(f"Seat {s + 1}: {who}")
        self.seated.setText("<br>".join(rows))

    def _update(self, view: dict) -> None:
        if view["status"] != "lobby":   # every seat is taken: play
            self.session.update.disconnect(self._update)
            self.session.lobby.disconnect(self._show_lobby)
            self.session.failed.disconnect(self._failed)
            self.accept()
        elif self.pages.currentIndex() == 0:
            self._show_lobby({"table": view["table"], "seat": view["seat"], "status": "lobby",
                              "names": (view["info"].get("setup") or {}).get("players", []),
                              "seats": view["info"].get("seats", []),
                              "joined": {int(k): v for k, v in (view["info"].get("joined") or {}).items()}})

    def reject(self) -> None:
        if self.session is not None:   # "Leave the table" in the lobby: the seat is free again
            self.session.leave()
            self.session = None
        super().reject()


def _fetch_look(C, guest: str, code: str) -> dict:
    try:
        look = asyncio.run(C.look_table(guest, code))
    except Exception as e:   # the server is gone, or the table was never finished
        return {"problem": str(e) or type(e).__name__}
    if not look.get("end"):
        return {"problem": "its game is not over yet"}
    return {"look": look}


def replay_from_server(window, code: str, look: dict) -> str | None:
    """Open a finished table's whole log (the end's save, from the server) as a replay in
    its game's screen, as Game > Replay… opens a saved file. Returns why not, or None."""
    from stateside.errors import StatesideError

    end = look["end"]
    save = end.get("save") or {}
    game = save.get("game")
    if window is None or not hasattr(window, "mode_ids") or game not in window.mode_ids():
        return f"Table {code} is a game of {game!r}, which is not installed here."
    mode = window.open_mode(game)
    if not mode.replays:
        return f"{mode.title} cannot show a replay."
    if mode.online is not None:
        return f"You are playing at online table {mode.online.table} in {mode.title}: leave it first."
    try:
        match = mode.match_from_save(save, f"table {code}")
    except StatesideError as e:
        return f"Cannot replay table {code}: {e}"
    window.choose(game)
    mode.start_replay(match)
    words = resign_words({**end, "seat": None}, match.names) if end.get("resigned") else "replayed from the server"
    mode.replay_bar.title.setText(f"Table {code}: {words}")
    return None


def online_games(window) -> list[tuple]:
    """The installed games whose mode can be played online (it declares plays_online)."""
    from stateside.engine.match import rules_for
    from stateside.games import load_object

    out = []
    for info in window.games:
        if not info.mode:
            continue
        try:
            if not load_object(info.mode).plays_online:
                continue
            spec = rules_for(info.id).spec
        except Exception:   # a broken game is reported when it is opened, not here
            continue
        levels = tuple(level for level in spec.ai_levels if level in _OFFERED_LEVELS)
        out.append((info.id, info.title, spec.min_players, spec.max_players, levels, spec.variants))
    return out


# Computer levels a person may seat (a game may also define simulated people for its own
# measurements, which are not opponents to offer).
_OFFERED_LEVELS = ("beginner", "easy", "medium", "hard")


def variant_title(variant: str) -> str:
    """ "usa-west" -> "USA West", "buy-and-sell" -> "Buy and Sell"."""
    small = {"and", "of", "the"}
    return " ".join("USA" if w == "usa" else (w if w in small and i else w.capitalize())
                    for i, w in enumerate(variant.split("-")))


def play_online(window) -> None:
    """Game > Play online…: the dialog, then the game's mode driven by the session."""
    try:
        import nats  # noqa: F401
    except ImportError:
        QMessageBox.information(window, "Play online", "Online play needs the online extra: "
                                "pip install 'stateside[online]'.")
        return
    games = online_games(window)
    if not games:
        QMessageBox.information(window, "Play online", "No installed game can be played online yet.")
        return
    dialog = OnlineDialog(games, window)
    if dialog.exec() != QDialog.Accepted or dialog.session is None:
        return
    attach_session(window, dialog.session)


def attach_session(window, session: OnlineSession):
    """Show the session's game in its mode, driven by the session, and offer Game > Leave
    the online table while the session lives. Returns the mode (None if it cannot be shown)."""
    window.choose(session.game)
    mode = window.current
    if mode is None or mode.game_id != session.game or not mode.plays_online:
        session.close()
        QMessageBox.warning(window, "Play online", literal(f"The game {session.game} cannot be shown here."))
        return None
    session.setParent(mode)   # it lives as long as the game it drives
    mode.attach_online(session)

    def unusable(reason: str) -> None:   # the table cannot be shown here: back to the game played before
        if mode.online is session:
            mode.leave_online()
        mode.status.emit(reason)

    session.failed.connect(unusable)
    menu = getattr(window, "game_menu", None)
    if menu is not None:
        actions = menu.actions()
        online = getattr(window, "act_online", None)
        after = actions.index(online) + 1 if online in actions else len(actions)
        if after < len(actions):
            menu.insertAction(actions[after], session.leave_action)
        else:
            menu.addAction(session.leave_action)
        menu.insertAction(session.leave_action, session.computer_action)
        menu.insertAction(session.computer_action, session.resign_action)
        # The menu entries go when the session ends: left, the game over, or another table.
        for entry in (session.leave_action, session.computer_action, session.resign_action):
            session.closed.connect(lambda entry=entry: menu.removeAction(entry))
    session.resign_action.triggered.connect(lambda: confirm_resign(window, session))
    # The mode leaves (so its screen goes back to the game it had) only if it still drives this session.
    session.leave_action.triggered.connect(lambda: mode.leave_online() if mode.online is session else session.leave())
    return mode


def empty_seats(view: dict) -> list[int]:
    """The people's seats nobody holds at the table the view is of."""
    info = view.get("info") or {}
    joined = {int(k) for k in (info.get("joined") or {})}
    return [s for s, kind in enumerate(info.get("seats", [])) if kind == "human" and s not in joined]


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def away(view: dict) -> tuple[list[str], list[str]]:
    """Who is missing at the table: (the names of the seats that left, of the seats that
    lost their connection), as the players chose them (the host's for a seat never taken)."""
    info = view.get("info") or {}
    names = (info.get("setup") or {}).get("players", [])
    seats = info.get("seats", [])
    joined = {int(k): str(v) for k, v in (info.get("joined") or {}).items()}
    left = [str(names[s]) if s < len(names) else f"Seat {s + 1}"
            for s, kind in enumerate(seats) if kind == "human" and s not in joined]
    lost = [joined[s] for s in sorted(int(x) for x in info.get("lost") or []) if s in joined and s != view.get("seat")]
    return left, lost


def presence_note(view: dict) -> str:
    """Who is missing, in words for the table's banner: "Gil left; the table waits. Share
    code K7QX3M", "Bo lost connection; the table waits." (empty when everyone is there)."""
    left, lost = away(view)
    parts = []
    if left:
        note = f"{_names(left)} left; the table waits. Share code {view.get('table')}"
        info = view.get("info") or {}
        if info.get("host_seat") is not None and info.get("host_seat") == view.get("seat"):
            note += ", or Game \u203a Give the empty seat to a computer"
        parts.append(note)
    if lost:   # the table waits only if it is their move (the others may play on meanwhile)
        parts.append(f"{_names(lost)} lost connection" + ("; the table waits." if _waits_for_lost(view) and not left
                                                          else "."))
    return " ".join(parts)


def _waits_for_lost(view: dict) -> bool:
    from stateside.engine.protocol import SIMULTANEOUS

    lost = {int(s) for s in (view.get("info") or {}).get("lost") or []}
    to_move = view.get("to_move")
    return to_move in lost or to_move == SIMULTANEOUS


def presence_change(before: tuple, view: dict) -> tuple[tuple, str, str | None]:
    """What a screen shows as people come and go: (who is away now: (left, lost), to pass
    back as `before` next time; the banner's note; what to say in the status bar, or None
    when nothing changed): "Gil lost connection; the table waits.", then "Gil is back."."""
    left, lost = away(view)
    now = (tuple(left), tuple(lost))
    note = presence_note(view)
    was_left, was_lost = (tuple(before[0]), tuple(before[1])) if len(before) == 2 else ((), ())
    if now == (was_left, was_lost):
        return now, note, None
    back = [n for n in was_left + was_lost if n not in left + lost]
    if back:
        said = f"{_names(back)} {'is' if len(back) == 1 else 'are'} back."
        if was_left and not left:   # the table had stopped for a seat that left
            said += " The game goes on."
        return now, note, said
    return now, note, note


def resign_words(result: dict, names: list[str]) -> str:
    """A resigned table's end in words: "Gil resigned: Ann wins." ("You resigned" at the
    resigner's screen; several winners share the win)."""
    r = result.get("resigned") or {}
    seat = r.get("seat")
    who = "You" if seat == result.get("seat") else str(r.get("name") or "A player")
    returns = result.get("returns") or []
    winners = [("you" if s == result.get("seat") else str(names[s]) if s < len(names) else f"Seat {s + 1}")
               for s, share in enumerate(returns) if share > 0]
    if not winners:
        return f"{who} resigned: the game is over."
    if len(winners) == 1:
        return f"{who} resigned: {winners[0]} {'win' if winners[0] == 'you' else 'wins'}."
    return f"{who} resigned: {_names(winners)} share the win."


def confirm_resign(window, session: OnlineSession) -> bool:
    """Game > Resign…: asks, then resigns; True if resigned. At a table of three or more the
    game ends for everyone (the others share the win): leaving instead lets them play on."""
    info = (session._last_view or {}).get("info") or {}
    others = len(info.get("seats", [])) - 1
    more = (" The game ends for everyone: the other players share the win. To let them play on, "
            "leave the table instead (Game \u203a Leave the online table); the host may give your seat "
            "to a computer.") if others >= 2 else " The game ends at once and the other player wins."
    answer = QMessageBox.question(window, "Resign", literal(f"Resign the game at table {session.table}?{more}"),
                                  QMessageBox.Yes | QMessageBox.No, QMessageBox.No)
    if answer != QMessageBox.Yes:
        return False
    problem = session.resign()
    if problem:
        QMessageBox.warning(window, "Resign", literal(problem))
        return False
    return True


def _is_real_time(game: str) -> bool:
    from stateside.engine.match import rules_for

    try:
        return bool(rules_for(game).spec.real_time)
    except Exception:   # an unknown game cannot be played here anyway (play_online says so)
        return False
