"""A headless client: hosts or joins a table, then plays one seat through the referee.

The app's online dialog and the tests use the same class. A client knows only what the
referee sends its seat: the entries of the log as its seat may see them, its own
observation, and its legal actions when it is to move. It sends intents; when a message
is missing (a gap in the numbering, a reconnection) it asks the referee to sync it from
the last entry it has, so it loses nothing.
"""
from __future__ import annotations

import asyncio
import base64
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

import nats
import nkeys

from stateside.online import auth as A
from stateside.online import protocol as P


class OnlineError(RuntimeError):
    """The referee refused a lobby request, or the server could not be reached."""


RENEW_RETRY_S = 30.0      # a renewal that failed (server or referee away) is tried again after this
OBSERVED_KEPT = 200       # the observations kept, one per entry: enough for any batch a screen catches up on


async def _quiet(_error) -> None:
    """nats-py logs every failed try with a traceback; the caller reports the outcome."""


def server_address(url: str) -> str:
    """A server's address without any user or password in it (nats://HOST:PORT): a client
    signs in with keys, never with a name and password."""
    rest = url.strip().split("://", 1)[-1].split("@")[-1]
    return f"nats://{rest}"


def signing_in(key: nkeys.KeyPair, jwt: str) -> dict:
    """nats.connect's options that sign in with a user JWT and prove the key it names (the
    server's nonce, signed with the private key, which never leaves this process)."""
    return {"user_jwt_cb": lambda: jwt.encode(),
            "signature_cb": lambda nonce: base64.b64encode(key.sign(nonce.encode()))}


def connect_options(credentials: dict) -> dict:
    """nats.connect's options for a seat's or a spectator's credentials (join_table's or
    watch_table's reply): its JWT, its key, its own inbox."""
    key = A.key_from_seed(credentials["seed"])
    return {**signing_in(key, credentials["jwt"]), "inbox_prefix": A.user_inbox(credentials["user"])}


async def _guest_connection(url: str):
    """Connect as a guest: a fresh key and the guest JWT it signs itself (the server allows
    it the lobby's requests and an inbox named after the key; online.auth)."""
    key = A.new_key("user")
    try:
        # One quick second try inside nats-py (its default is 60 tries, 2 s apart: two
        # minutes before a wrong address is reported).
        return await nats.connect(server_address(url), name="stateside-guest", allow_reconnect=False,
                                  connect_timeout=3, max_reconnect_attempts=1, reconnect_time_wait=0.1,
                                  error_cb=_quiet, inbox_prefix=A.guest_inbox(A.public(key)),
                                  **signing_in(key, A.guest_jwt(key)))
    except (OSError, nats.errors.Error) as e:
        where = server_address(url).removeprefix("nats://")
        raise OnlineError(f"cannot reach the server at {where}: {e or type(e).__name__}") from None


async def _lobby(url: str, subject: str, body: dict, timeout: float = 10.0) -> dict:
    """A lobby request; the referee's reply (which only this connection may read)."""
    nc = await _guest_connection(url)
    try:
        msg = await nc.request(subject, P.encode(body), timeout=timeout)
    except nats.errors.NoRespondersError:
        raise OnlineError("no referee is running on that server") from None
    except nats.errors.TimeoutError:
        raise OnlineError("the referee did not answer in time") from None
    finally:
        await nc.close()
    try:
        reply = P.decode(msg.data, P.MAX_SERVER_PAYLOAD, "the referee's reply", None)
    except P.ProtocolError as e:
        raise OnlineError(str(e)) from None
    if not reply.get("ok"):
        raise OnlineError(str(reply.get("reason") or "refused")[:300])
    return reply


def _keyed(reply: dict, key: nkeys.KeyPair) -> dict:
    """A reply with credentials, and the private key they are for (kept here, never sent)."""
    if "jwt" in reply:
        if reply.get("user") != A.public(key):
            raise OnlineError("the referee's credentials are not for this client's key")
        reply["seed"] = key.seed.decode()
    return reply


async def host_table(guest_url: str, game: str, seats: list[str], names: list[str] | None = None,
                     options: dict | None = None, seed: int | None = None, public: bool = False,
                     host_seat: int | None = None) -> dict:
    """Open a table (public: listed in the lobby, spectators welcome); the reply holds its
    code ("table") and the seed's commitment."""
    body = {"type": "host", "game": game, "seats": seats, "names": names, "options": options or {}}
    if public:
        body["public"] = True
    if host_seat is not None:
        body["host_seat"] = host_seat
    if seed is not None:
        body["seed"] = seed    # honoured only by a referee started for tests or benchmarks
    return await _lobby(guest_url, P.LOBBY_HOST, body)


async def join_table(guest_url: str, code: str, seat: int | None = None, name: str | None = None) -> dict:
    """Take a seat, as `name` (before the game starts the seat's player is called so;
    None keeps the name the host gave): {"table", "seat", "user", "jwt", "seed", ...}. The
    key is made here for this seat; the referee signs a JWT for its public half."""
    key = A.new_key("user")
    body = {"type": "join", "table": code, "seat": seat, "user_key": A.public(key)}
    if name is not None:
        body["name"] = name
    for attempt in range(3):   # two referees seating two players at once: one is told to retry
        try:
            return _keyed(await _lobby(guest_url, P.LOBBY_JOIN, body), key)
        except OnlineError as e:
            if "try again" not in str(e) or attempt == 2:
                raise


async def look_table(guest_url: str, code: str) -> dict:
    return await _lobby(guest_url, P.LOBBY_LOOK, {"type": "look", "table": code})


async def list_tables(guest_url: str) -> list[dict]:
    """The server's public tables: {"table", "game", "names", "seats", "status", "n", "joined"}
    each, the ones waiting for players first."""
    return (await lobby_lists(guest_url))["tables"]


async def lobby_lists(guest_url: str) -> dict:
    """The server's public tables, live and finished apart: {"tables": [as list_tables],
    "finished": [{"table", "game", "names", "seats", "n", "ended" (Unix time), "returns",
    "resigned" (a name or None)}, the most recent first]}. A finished one replays from
    `look_table(code)["end"]["save"]`."""
    reply = await _lobby(guest_url, P.LOBBY_LIST, {"type": "list"})
    return {"tables": reply.get("tables", []), "finished": reply.get("finished", [])}


async def watch_table(guest_url: str, code: str, since: int = 0, credentials: bool = True) -> dict:
    """A public table's log from `since` as every seat may see it, with a spectator's
    credentials for what follows (unless the game is over: then its end)."""
    key = A.new_key("user")
    body = {"type": "watch", "table": code, "since": since, "credentials": credentials}
    if credentials:
        body["user_key"] = A.public(key)
    return _keyed(await _lobby(guest_url, P.LOBBY_WATCH, body), key)


class Spectator:
    """Watches a public table: the entries as every seat may see them (the rules' public
    words, hidden moves without their action), who is seated, the end. Reads the public
    subject with a spectator's credentials; a gap is filled through the lobby."""

    def __init__(self, guest_url: str, code: str, on_event: Callable[[str], None] | None = None):
        self.guest_url, self.table, self.on_event = guest_url, code, on_event
        self.entries: list[dict] = []
        self.info: dict = {}
        self.status = "lobby"
        self.end: dict | None = None
        self.left: list[dict] = []
        self.nc = None
        self._closing = False
        self._again: asyncio.Task | None = None   # watching again after the server cut us off
        self._changed = asyncio.Event()

    @property
    def n(self) -> int:
        return len(self.entries)

    async def connect(self) -> Spectator:
        first = await watch_table(self.guest_url, self.table)
        self._take(first)
        if self.end is None:
            nc = None

            async def on_closed():
                # the server cut us off for good (a spectator's JWT expires as a seat's does,
                # A.SEAT_LIFETIME_S): watch again, with new credentials, unless we closed
                if nc is self.nc and not self._closing and self.end is None and self.status != "closed":
                    self._again = asyncio.get_running_loop().create_task(self._watch_again())
            try:
                nc = await nats.connect(server_address(self.guest_url), name=f"stateside-watch-{self.table}",
                                        error_cb=_quiet, closed_cb=on_closed, max_reconnect_attempts=-1,
                                        reconnect_time_wait=0.2, **connect_options(first))
            except Exception as e:   # nats-py raises several kinds
                raise OnlineError(f"cannot watch table {self.table}: the server refused the spectator's "
                                  f"credentials ({e or type(e).__name__})") from None
            self.nc = nc
            await self.nc.subscribe(P.public_subject(self.table), cb=self._on_public)
            await self.nc.flush()
            await self.catch_up()   # what happened between the first read and the subscription
        return self

    async def _watch_again(self) -> None:
        while not self._closing and self.end is None:
            try:
                await self.connect()
                return
            except OnlineError:   # the server or the referee away for now
                await asyncio.sleep(RENEW_RETRY_S)

    async def catch_up(self) -> None:
        while True:
            page = await watch_table(self.guest_url, self.table, self.n, credentials=False)
            self._take(page)
            if not page.get("more"):
                return

    def _take(self, page: dict) -> None:
        self.info = {k: page[k] for k in ("game", "setup", "seats", "joined", "lost") if k in page}
        self.status = page.get("status", self.status)
        self.entries[page["since"]:] = page["entries"]
        if page.get("end"):
            self.end, self.status = page["end"], "over"
        self._tell()

    async def _on_public(self, msg) -> None:
        try:
            m = P.decode(msg.data, P.MAX_SERVER_PAYLOAD, "the referee's message", None)
        except P.ProtocolError:
            return
        kind = m["type"]
        if kind == "entries":
            for entry in m["entries"]:
                if entry["n"] == self.n:
                    self.entries.append(entry)
                elif entry["n"] > self.n:   # a gap: read the log so far again
                    await self.catch_up()
                    return
            self.status = "playing" if self.status == "lobby" else self.status
        elif kind == "end":
            self.end, self.status = m, "over"
        elif kind == "left":
            self.left.append(m)
            self.info["joined"], self.status = m.get("joined", {}), m.get("status", self.status)
        elif kind == "closed":
            self.status = "closed"
        elif kind == "presence":   # a seat lost its connection, or is back
            self.info["lost"] = m.get("lost", [])
        self._tell()

    def _tell(self) -> None:
        self._changed.set()
        if self.on_event is not None:
            self.on_event("changed")

    async def wait_change(self, timeout: float = 10.0) -> None:
        self._changed.clear()
        await asyncio.wait_for(self._changed.wait(), timeout)

    async def close(self) -> None:
        self._closing = True
        if self._again is not None and self._again is not asyncio.current_task():
            self._again.cancel()   # (a watch again waiting to retry)
        if self.nc is not None and not self.nc.is_closed:
            await self.nc.close()


class SeatClient:
    """One seat at one table."""

    def __init__(self, guest_url: str, credentials: dict, on_event: Callable[[str], None] | None = None):
        self.guest_url = guest_url
        # Told "changed", "disconnected" or "reconnected" (in the client's event loop): the
        # app's worker thread wakes on it instead of polling.
        self.on_event = on_event
        self.table = credentials["table"]
        self.seat = credentials["seat"]
        self.user = credentials["user"]              # our public key (the seat's user)
        self.credentials = credentials               # its JWT and our private key (never sent)
        self.entries: list[dict] = []          # the log as this seat may see it
        self.observation: dict | None = None
        self.observed: dict[int, dict] = {}    # entries seen -> this seat's observation at that point
        self.legal: list | None = None
        self.to_move: int | None = None
        self.status = "lobby"
        self.info: dict = {}                   # game, setup, seats, seed commitment (from sync)
        self.end: dict | None = None
        self.refusals: list[dict] = []
        self.errors: list[str] = []            # what the server said (permission violations...)
        self.left: list[dict] = []             # "left" notes: a seat (perhaps ours) left the table
        self.presence: list[dict] = []         # "presence" notes: a seat lost its connection, or is back
        self.gone = False                      # we left: our credentials are revoked
        self.closed: str | None = None         # the referee closed the table: why
        self.nc = None
        self._changed = asyncio.Event()
        self._synced = False
        self._closing = False                  # close() was called: nothing is renewed or revived
        self._renewal: asyncio.Task | None = None
        self._tasks: set[asyncio.Task] = set()

    @property
    def n(self) -> int:
        return len(self.entries)

    async def connect(self) -> SeatClient:
        self.nc = await self._open()
        await self.sync()
        self._renewal = self._background(self._renew_forever())
        return self

    def _background(self, coro) -> asyncio.Task:
        """A task of ours (renewing, reviving): close() cancels it and waits for it."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _live(self) -> bool:
        """Still at the table: neither left, over, closed by the referee, nor closed by us."""
        return not (self.gone or self.end is not None or self.closed or self._closing)

    async def _open(self):
        """A connection with our credentials as they are now, reading our private subject.
        Its callbacks speak only while it is ours (a renewal replaces it)."""
        holder: list = []

        def ours() -> bool:
            return bool(holder) and holder[0] is self.nc

        async def on_error(e):
            if not ours():
                return
            self.errors.append(str(e))
            # Our credentials were revoked (we left, or the game is over): stop reconnecting.
            revoked = any(w in str(e).lower() for w in ("authorization", "authentication"))
            if revoked and not self._live():
                asyncio.get_running_loop().create_task(self.close())

        async def on_reconnect():   # whatever was said while away is in the log: catch up
            if ours():
                self._tell("reconnected")
                await self.sync()

        async def on_disconnect():
            if ours():
                self._tell("disconnected")

        async def on_closed():
            # nats-py gives up for good on some refusals, an expired JWT among them (a
            # machine asleep past RENEW: our renewal never ran): new credentials, a new
            # connection, and a sync
            if ours() and self._live():
                self._tell("disconnected")
                self._background(self._renew_until_done())

        try:   # the JWT is good at once: the server checks its signatures, it keeps no list of users
            nc = await nats.connect(server_address(self.guest_url), name=f"stateside-{self.table}-{self.seat}",
                                    error_cb=on_error, reconnected_cb=on_reconnect,
                                    disconnected_cb=on_disconnect, closed_cb=on_closed,
                                    max_reconnect_attempts=-1, reconnect_time_wait=0.2,
                                    allow_reconnect=True, **connect_options(self.credentials))
        except Exception as e:   # nats-py raises several kinds
            raise OnlineError(f"cannot connect to the server as seat {self.seat}: {e or type(e).__name__}") from None
        holder.append(nc)
        await nc.subscribe(P.private_subject(self.table, self.seat), cb=self._on_private)
        return nc

    # --- credentials that outlive their JWT ---------------------------------------------------
    def renew_at(self) -> float:
        """When our JWT should be renewed (Unix time): with a quarter of its life left."""
        claims = A.decode_jwt(self.credentials["jwt"])
        expires = claims.get("exp")
        if not isinstance(expires, (int, float)):
            return math.inf   # (a JWT without an expiry never needs it)
        issued = claims.get("iat", expires)
        return expires - max(0.0, expires - issued) / 4

    async def renew(self) -> None:
        """New credentials for our own key (the referee signs them while we hold the seat),
        then a new connection with them in place of the old: a game may last longer than
        a seat's JWT (A.SEAT_LIFETIME_S). What was said meanwhile comes with the sync."""
        key = A.key_from_seed(self.credentials["seed"])
        body = {"type": "join", "table": self.table, "seat": self.seat, "user_key": self.user}
        reply = _keyed(await _lobby(self.guest_url, P.LOBBY_JOIN, body), key)
        if not reply.get("renewed"):
            raise OnlineError("the referee did not renew this seat's credentials")
        self.credentials = {**self.credentials, "jwt": reply["jwt"]}
        old, self.nc = self.nc, await self._open()
        await self.sync()
        if old is None or old.is_closed:
            self._tell("reconnected")   # (a renewal in time was never seen as a lost connection)
            return
        try:
            await old.close()
        except (asyncio.CancelledError, nats.errors.Error):
            pass   # (the server may drop an expired connection as we close it)

    async def _renew_forever(self) -> None:
        while self._live():
            await asyncio.sleep(max(1.0, self.renew_at() - time.time()))
            await self._renew_until_done()

    async def _renew_until_done(self) -> None:
        """renew(), again every RENEW_RETRY_S while the server or the referee is away. Also
        what a connection closed for good while we still hold the seat calls at once."""
        while self._live():
            try:
                await self.renew()
                return
            except OnlineError as e:
                self.errors.append(f"renewal: {e}")
                await asyncio.sleep(RENEW_RETRY_S)

    async def close(self) -> None:
        self._closing = True
        tasks = [t for t in self._tasks if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=1.0)
        if self.nc is None or self.nc.is_closed:
            return
        try:
            await self.nc.close()
        except asyncio.CancelledError:
            # The server may drop a revoked seat's connection while it closes (after leave):
            # nats-py then cancels its own waiter. Only our task's cancellation goes on.
            if asyncio.current_task().cancelling():
                raise

    async def sync(self) -> None:
        # not flushed either: asked whenever a second passed without news, its answer is the check
        await self._send({"type": "sync", "since": self.n}, flush=False)

    async def _send(self, body: dict, flush: bool = True) -> None:
        await self.nc.publish(P.intent_subject(self.table, self.seat), P.encode(body))
        if not flush:   # the client's writer sends it within the loop's next turn
            return
        try:
            await self.nc.flush()
        except nats.errors.FlushTimeoutError:   # a busy server: the message is on its way, or a
            self.errors.append("flush timeout")   # sync (the play loop's, after a second) asks again

    async def leave(self, timeout: float = 5.0) -> None:
        """Leave the table: the referee logs it, tells the others and revokes this seat's
        credentials (the server refuses them from then on). In the lobby the seat is free
        again; during a game the table waits until the seat is taken again by its code
        (join_table gives new credentials). Returns once the referee confirmed, then closes."""
        if self.nc is None or self.nc.is_closed:
            return
        count = len([n for n in self.left if n["seat"] == self.seat])
        await self._send({"type": "leave"})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len([n for n in self.left if n["seat"] == self.seat]) == count:
            if self.refusals and self.refusals[-1].get("reason", "").startswith("stale"):
                self.refusals.pop()
                await self._send({"type": "leave"})
            left = deadline - loop.time()
            if left <= 0:
                raise OnlineError("the referee did not confirm that you left")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), min(left, 1.0))
            except TimeoutError:
                pass
        self.gone = True
        self.status = "left"
        await self.close()

    async def ping(self) -> None:
        """A heartbeat (P.PING_EVERY_S apart): while they come, the others know we are there;
        when they stop for P.LOST_AFTER_S, the others hear we lost our connection. Not flushed."""
        if self.nc is not None and self.nc.is_connected and self.end is None and not self.gone and not self.closed:
            await self.nc.publish(P.intent_subject(self.table, self.seat), P.PING)

    async def resign(self, timeout: float = 5.0) -> None:
        """Resign: the game ends at once, we take last place and the other seats share the
        win (see protocol.resignation_returns). Returns once the end came; OnlineError with
        the referee's reason if it refused (a real-time table, a game not started)."""
        if self.end is not None:
            return
        refused = len(self.refusals)
        await self._send({"type": "resign", "id": secrets.token_hex(6)})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.end is None:
            if len(self.refusals) > refused:
                raise OnlineError(f"cannot resign: {self.refusals[-1]['reason']}")
            left = deadline - loop.time()
            if left <= 0:
                raise OnlineError("the referee did not confirm that you resigned")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), min(left, 1.0))
            except TimeoutError:
                await self.sync()   # the end went missing: a sync brings it

    async def give_to_computer(self, seat: int, level: str) -> None:
        """The host gives a seat nobody holds to a computer of that level (refused otherwise)."""
        await self._send({"type": "computer", "for": seat, "level": level, "id": secrets.token_hex(6)})

    async def act(self, action_json: Any, **fields: Any) -> str:
        """Send an intent for our seat at the current point of the game; its id. A real-time
        game's move also names the round it is for (round=N): the referee refuses it as
        stale once that round is over, and ignores the time written in the action."""
        iid = secrets.token_hex(6)
        # Not flushed: a round trip to the server per move cost the players' processes more than
        # the move (its update is the answer; one that never comes is sent again after a sync).
        await self._send({**fields, "type": "act", "n": self.n, "action": action_json, "id": iid}, flush=False)
        return iid

    # --- receiving ---------------------------------------------------------------------
    async def _on_private(self, msg) -> None:
        try:
            m = P.decode(msg.data, P.MAX_SERVER_PAYLOAD, "the referee's message", None)
        except P.ProtocolError as e:
            self.errors.append(str(e))
            return
        kind = m["type"]
        if kind == "refused":
            self.refusals.append(m)
            self._changed.set()
            self._tell("changed")
            return
        elif kind == "sync":
            since = m["since"]
            if since > self.n:   # a page after one we missed: ask again from what we have
                await self.sync()
                return
            self.entries[since:] = m["entries"]
            if m.get("more"):    # a long game comes in pages under the server's message limit
                await self.sync()
                return
            self._synced = True
            self.info = {k: m[k] for k in ("game", "setup", "seats", "seed_commitment", "joined", "host_seat",
                                           "lost") if k in m}
            self._take_state(m)
            if m.get("end"):
                self.end = m["end"]
        elif kind == "update":   # a turn's entries (its action and what it brought), then our state
            news = m.get("entries") or ([m["entry"]] if m.get("entry") is not None else [])
            for entry in news:
                if entry["n"] == self.n:
                    self.entries.append(entry)
                elif entry["n"] > self.n:   # we missed something: catch up from the log
                    await self.sync()
                    return
            if m["n"] == self.n:   # (entries we had already, from a sync that overtook them, are skipped)
                self._take_state(m)
        elif kind == "end":
            self.end = m
            self.status = "over"
        elif kind == "closed":   # the referee could not go on with this table (see its reason)
            self.closed = str(m.get("reason", "closed by the referee"))[:300]
            self.status, self.legal = "closed", None
        elif kind == "left":   # a seat left (ours when we asked to): who is seated now
            self.left.append(m)
            self.info["joined"] = m.get("joined", {})
            if m["seat"] != self.seat:
                self.status, self.legal = m.get("status", self.status), None
        elif kind == "presence":   # a seat lost its connection (its heartbeats stopped), or is back
            self.presence.append(m)
            self.info["lost"] = m.get("lost", [])
        self._changed.set()
        self._tell("changed")

    def _tell(self, what: str) -> None:
        if self.on_event is not None:
            self.on_event(what)

    def _take_state(self, m: dict) -> None:
        self.observation, self.legal = m["observation"], m["legal"]
        self.to_move, self.status = m["to_move"], m["status"]
        if m.get("n") == self.n and self.observation is not None:   # (a screen's world agrees entry by entry)
            self.observed[self.n] = self.observation
            self.observed.pop(self.n - OBSERVED_KEPT, None)

    async def wait_change(self, timeout: float = 10.0) -> None:
        self._changed.clear()
        await asyncio.wait_for(self._changed.wait(), timeout)

    def my_turn(self) -> bool:
        return self.status == "playing" and self.to_move == self.seat and bool(self.legal)

    async def play(self, choose: Callable[[SeatClient], Any], stop_after: int | None = None,
                   timeout: float = 30.0) -> None:
        """Play until the game ends (or after `stop_after` of our own moves): `choose`
        gets this client and returns the action's JSON, one of self.legal. An intent that
        got no answer within a second (a referee replaced meanwhile) is sent again after a
        sync; the referee refuses it as stale if the first one was recorded after all."""
        moves = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.end is None:
            if self.closed:
                raise OnlineError(f"the table was closed: {self.closed}")
            if stop_after is not None and moves >= stop_after:
                return
            if self.my_turn():
                at, refused = self.n, len(self.refusals)
                await self.act(choose(self))
                moves += 1
                while self.n == at and self.end is None and len(self.refusals) == refused:
                    if not await self._wait(deadline):
                        await self.sync()
                        break
                if self.n == at and len(self.refusals) > refused:
                    reason = self.refusals[-1]["reason"]
                    if not reason.startswith("stale"):
                        raise OnlineError(f"refused: {reason}")
                    await self.sync()
                    await self._wait(deadline)
            elif not await self._wait(deadline):
                await self.sync()   # a lost message: ask again rather than wait forever

    async def _wait(self, deadline: float) -> bool:
        """Wait for news (at most a second); False when none came."""
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            raise OnlineError(f"seat {self.seat}: the game did not go on (at action {self.n}, "
                              f"status {self.status}, to move {self.to_move})")
        self._changed.clear()
        try:
            await asyncio.wait_for(self._changed.wait(), min(left, 1.0))
            return True
        except TimeoutError:
            return False

    # --- the end: check the referee -----------------------------------------------------------
    def verify(self) -> Any:
        """Check the finished game: the seed matches the commitment made at the start, every
        chance draw is the one the seeding rule gives, and every entry this seat saw is the
        action in the full log. Returns the replayed Match (save it like a hot-seat game)."""
        from stateside.engine.match import Match, chance_rng, sample_chance
        from stateside.engine.protocol import CHANCE

        if self.end is None:
            raise OnlineError("the game is not over")
        end = self.end
        if P.seed_commitment(end["seed"], end["salt"]) != self.info.get("seed_commitment"):
            raise OnlineError("the seed published at the end does not match the one promised at the start")
        save = end["save"]
        if save["seed"] != end["seed"]:
            raise OnlineError("the save's seed is not the published seed")
        match = Match.from_json(save, "the referee's log")
        probe = Match(save["game"], save["seats"], save["seed"], save["setup"])
        for i, entry in enumerate(match.log):
            if entry.seat == CHANCE:
                expected = sample_chance(probe.state, chance_rng(save["seed"], i))
                if expected != entry.action:
                    raise OnlineError(f"chance draw {i} is not the one the seed gives")
            probe.apply(entry.action)
        if len(self.entries) != len(match.log):
            raise OnlineError(f"this seat saw {len(self.entries)} entries, the log has {len(match.log)}")
        for mine, full in zip(self.entries, save["actions"]):
            if not mine.get("hidden") and mine["action"] != full:
                raise OnlineError(f"entry {mine['n']} differs from the log")
        return match
