"""The referee: the only writer of every game's log (see ARCHITECTURE.md).

It hosts tables, issues seats' credentials, checks intents, runs the computer seats and
draws chance outcomes (Match.step's seeding rule with a secret seed), appends each action
to the game's JetStream subject on condition that nobody else appended first, and tells
each seat what it may know. Several referees may run against one NATS: they share the
work through a queue group and the conditional append keeps each game's log single-file;
a referee that starts reads the logs and carries on every unfinished game.
"""
from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import secrets
import time
from dataclasses import dataclass, field

import nats
from nats.js import api
from nats.js.errors import APIError, NoStreamResponseError, NotFoundError, ServiceUnavailableError

from stateside.engine.match import HUMAN, MAX_NAME, Match, chance_rng, check_seats, rules_for, sample_chance
from stateside.engine.protocol import CHANCE, SIMULTANEOUS, TERMINAL
from stateside.errors import IllegalActionError, SaveError
from stateside.online import protocol as P
from stateside.online.auth import check_user_key
from stateside.online.protocol import Conflict
from stateside.online.realtime import RealTimeTable, owner_subject, void_interrupted_round
from stateside.online.visibility import entry_views

log = logging.getLogger("stateside.referee")
WRONG_LAST_SEQUENCE = 10071     # JetStream's error code for a failed conditional append
# A cluster electing a new leader (a node lost) answers nothing, or "unavailable", for a
# few seconds; the referee keeps trying that long, resending the same record (its
# Nats-Msg-Id makes a resend that was stored after all a duplicate, not a second record).
TRANSIENT = (nats.errors.TimeoutError, nats.errors.NoRespondersError, nats.errors.ConnectionReconnectingError,
             nats.errors.ConnectionClosedError, NoStreamResponseError, asyncio.TimeoutError)
PATIENCE_S = 30.0


class TableClosed(Exception):
    """The table's log cannot be played on (it does not replay, or the rules refused an
    action they had listed): the referee closes it with this reason; the others go on."""


@dataclass(frozen=True)
class Limits:
    """What one guest or one seat may ask of a referee (see ARCHITECTURE.md, "Limits").
    A guest is known by the connection and the address the server names in each lobby
    request (Nats-Request-Info, which a client cannot forge)."""
    lobby_per_connection: tuple[float, float] = (5.0, 20.0)    # requests a second, burst
    lobby_per_address: tuple[float, float] = (20.0, 60.0)
    waiting_per_connection: int = 5      # tables hosted that nobody has started yet
    waiting_per_address: int = 20
    waiting_tables: int = 2_000          # such tables on this referee altogether
    lobby_ttl_s: float = 3600.0          # a table nobody started is closed after this
    intents_per_seat: tuple[float, float] = (100.0, 300.0)
    syncs_per_seat: tuple[float, float] = (5.0, 20.0)
    sweep_every_s: float = 60.0

    @classmethod
    def generous(cls) -> Limits:
        """For load tests and benchmarks, whose many tables come from one address."""
        return cls(lobby_per_connection=(1e6, 1e6), lobby_per_address=(1e6, 1e6), waiting_per_connection=10**6,
                   waiting_per_address=10**6, waiting_tables=P.MAX_TABLES,
                   intents_per_seat=(1e6, 1e6), syncs_per_seat=(1e6, 1e6))


SYNC_PAGE_BYTES = 256 * 1024    # a sync's entries per message, far below the server's limit


@dataclass
class Table:
    code: str
    match: Match
    salt: str
    commitment: str
    joined: dict = field(default_factory=dict)      # seat -> {"name", "user"}
    entries: list = field(default_factory=list)     # full entries: n, seat, text, action, events
    views: list = field(default_factory=list)       # per entry: (each seat's view, the public view)
    last_seq: int = 0                               # stream sequence of the log's last record
    ended: bool = False
    closed: str = ""                                # why the referee closed it (it cannot go on)
    created: float = 0.0                            # when it was hosted (time.time())
    host: tuple = ()                                # (connection, address) of the guest who hosted it
    voids: list = field(default_factory=list)       # real time: rounds voided by a change of referee
    driver: str = ""                                # real time: the referee that drives the table
    public: bool = False                            # listed in the lobby; spectators may watch it
    host_seat: int | None = None                    # the host's own seat: it may give an empty seat to a computer
    resigned: dict | None = None                    # {"seat", "name"}: the seat whose resignation ended the game
    result: dict | None = None                      # a resigned game's {"returns", "scores"} (its state has none)
    lost: set = field(default_factory=set)          # seats whose heartbeats stopped (not logged: presence)
    _humans_of: object = field(default=None, repr=False, compare=False)   # the match _humans was read from
    _humans: tuple = field(default=(), repr=False, compare=False)

    @property
    def n(self) -> int:
        return len(self.entries)

    def human_seats(self) -> tuple[int, ...]:
        # read several times a turn (status): kept until the match is made again (a seat's
        # kind or name changed)
        if self._humans_of is not self.match:
            self._humans_of, self._humans = self.match, tuple(self.match.humans())
        return self._humans

    @property
    def status(self) -> str:
        if self.closed:
            return "closed"
        if self.ended:
            return "over"
        return "playing" if all(map(self.joined.__contains__, self.human_seats())) else "lobby"

    @property
    def waiting(self) -> bool:
        """Hosted, and never started (nobody has moved and not every seat is taken)."""
        return not self.ended and self.n == 0 and self.status == "lobby"


_refusal = P.refusal


@dataclass
class _BatchRead:
    """One batched read of a log: its replies as they come, and the end of the batch."""
    done: asyncio.Future
    msgs: list = field(default_factory=list)
LOG_BATCH = 1024          # records per read of a log (JetStream's batched direct get)
# A direct get unanswered this long is asked again (the server drops some while it reloads
# its users; a cluster electing a leader answers 503, and _patiently waits that out).
READ_PATIENCE_S = 1.0
RESUME_AT_ONCE = 16       # tables a starting referee reads from the log at once
LIST_GATHER_S = 0.25      # how long a lobby list waits for the other referees' tables
FREEZE_EVERY_S = 1.0      # a referee process of its own: survivors leave the collector's view this often
PRESENCE_EVERY_S = 1.0    # how often the referee looks for seats whose heartbeats stopped
GC_YOUNG_OBJECTS = 10_000  # and its youngest generation is collected after this many allocations (700 by default)


class Referee:
    def __init__(self, url: str | list[str], authorizer=None, replicas: int = 1, allow_chosen_seed: bool = False,
                 name: str | None = None, connect_options: dict | None = None,
                 share: tuple[int, int] | None = None, revoke_after_end_s: float = 10.0,
                 limits: Limits | None = None, freeze_gc: bool = False, watch_pauses: bool = False):
        self.url = url   # one server, or a cluster's servers (the client fails over among them)
        self.connect_options = connect_options or {}
        self.share = share   # (i, n): serve only the i-th of n shares of the intents' partitions
        self.authorizer = authorizer
        # A finished game's credentials are revoked this long after its end was sent: time
        # for a client that missed the end to sync it (a guest's `look` also returns it).
        self.revoke_after_end_s = revoke_after_end_s
        self.replicas = replicas
        self.allow_chosen_seed = allow_chosen_seed    # tests and benchmarks only: a seed a host picks
        self.name = name or f"referee-{secrets.token_hex(2)}"
        self.tables: dict[str, Table] = {}
        self.nc = None
        self.js = None
        self._subs = []
        self._tasks: set[asyncio.Task] = set()
        self._locks: dict[str, asyncio.Lock] = {}
        self.realtime: dict[str, RealTimeTable] = {}    # the real-time tables this referee drives
        self.stats = {"appends": 0, "conflicts": 0, "refusals": 0, "retries": 0, "dropped": 0, "closed": 0,
                      "handed": 0, "renewals": 0}
        self.limits = limits or Limits()
        # A referee process of its own (`stateside server`) freezes what start-up made, so that
        # the garbage collector's full passes go over the tables only, not the games' data.
        self.freeze_gc = freeze_gc
        self.watch_pauses = watch_pauses   # benchmarks: the longest stall of the event loop, of a collection
        self.stats.update(longest_pause_ms=0.0, longest_gc_ms=0.0, longest_gc_cpu_ms=0.0, full_gcs=0)
        self._gc_started = self._gc_cpu_started = 0.0
        self._lobby_rate = (P.RateLimit(*self.limits.lobby_per_connection),
                            P.RateLimit(*self.limits.lobby_per_address))
        self._intent_rate = P.RateLimit(*self.limits.intents_per_seat)
        self._sync_rate = P.RateLimit(*self.limits.syncs_per_seat)
        self._told_slow: dict = {}    # seat -> when it was last told to slow down
        # Presence (see ARCHITECTURE.md, "Who is there"): (table, seat) -> [last heard, lost?],
        # for the seats that send heartbeats; tests set lost_after_s or call presence_sweep(now).
        self._presence: dict[tuple[str, int], list] = {}
        self.lost_after_s = P.LOST_AFTER_S
        self.presence_every_s = PRESENCE_EVERY_S
        self._finished: list[dict] = []   # the latest finished public tables' listings, newest last

    # --- life ------------------------------------------------------------------------
    async def start(self) -> None:
        # (the referee's own user JWT comes with the authorizer that signs the seats)
        options = {**getattr(self.authorizer, "connect_options", {}), **self.connect_options}
        self.nc = await connect_referee(self.url, name=self.name, **options)
        self.js = self.nc.jetstream(timeout=5)
        await self._log_stream()
        try:
            await self._start_finished()
        except (APIError, *TRANSIENT) as e:   # (an account without room for a second stream)
            log.warning("referee: no list of finished tables: %s", _said(e))
        # The replies to batched reads of the log, each read under a token of its own.
        self._reads: dict[str, _BatchRead] = {}
        self._read_inbox = self.nc.new_inbox()
        self._subs.append(await self.nc.subscribe(f"{self._read_inbox}.*", cb=self._on_read_reply))
        # A flood beyond these is dropped by the client library (a slow consumer), not held in memory.
        pending = {"pending_msgs_limit": 50_000, "pending_bytes_limit": 64 * 1024 * 1024}
        self._subs += [
            await self.nc.subscribe(P.LOBBY_HOST, queue=P.REFEREE_QUEUE, cb=self._lobby_guard(self._on_host),
                                    **pending),
            await self.nc.subscribe(P.LOBBY_JOIN, queue=P.REFEREE_QUEUE, cb=self._lobby_guard(self._on_join),
                                    **pending),
            await self.nc.subscribe(P.LOBBY_LOOK, queue=P.REFEREE_QUEUE, cb=self._lobby_guard(self._on_look),
                                    **pending),
            await self.nc.subscribe(P.LOBBY_WATCH, queue=P.REFEREE_QUEUE, cb=self._lobby_guard(self._on_watch),
                                    **pending),
            await self.nc.subscribe(P.LOBBY_LIST, queue=P.REFEREE_QUEUE, cb=self._lobby_guard(self._on_list),
                                    **pending),
            # every referee (no queue): the public tables it serves, for a list another gathers
            await self.nc.subscribe(P.REFEREE_LIST, cb=self._on_referee_list),
        ]
        if self.share is None:   # every table: mapped by our nats.conf, or as sent (a server without it)
            for subject in (P.partition_wildcard("*"), P.INTENT_WILDCARD):
                self._subs.append(await self.nc.subscribe(subject, queue=P.REFEREE_QUEUE,
                                                          cb=self._on_intent_arrival, **pending))
        else:   # our partitions; a second referee with the same share stands by in each queue
            for k in P.share_partitions(self.share):
                queue = f"{P.REFEREE_QUEUE}.p{k}"
                self._subs.append(await self.nc.subscribe(P.partition_wildcard(k), queue=queue,
                                                          cb=self._on_intent_arrival, **pending))
                # joins and looks for our tables, handed over by the referee that got them
                for kind, handler in (("join", self._on_join), ("look", self._on_look), ("watch", self._on_watch)):
                    self._subs.append(await self.nc.subscribe(
                        P.partition_lobby_subject(k, kind), queue=queue, cb=self._handed(handler), **pending))
        await self.resume_all()
        self._background(self._sweep_forever())
        self._background(self._presence_forever())
        if self.freeze_gc:
            gc.collect()
            gc.freeze()
            # A young collection every GC_YOUNG_OBJECTS allocations, not 700: most of a turn's
            # objects die by their reference counts first (measured with 200 busy tables: the
            # referee's CPU per turn 11% lower, its longest collection no longer)
            gc.set_threshold(GC_YOUNG_OBJECTS, *gc.get_threshold()[1:])
            self._background(self._freeze_forever())
        if self.watch_pauses:
            self._background(self._watch_pauses())
            gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_started, self._gc_cpu_started = time.perf_counter(), time.process_time()
            return
        ms = (time.perf_counter() - self._gc_started) * 1000
        cpu_ms = (time.process_time() - self._gc_cpu_started) * 1000
        self.stats["full_gcs"] += info.get("generation") == 2
        if ms > self.stats["longest_gc_ms"]:
            self.stats["longest_gc_ms"] = round(ms, 1)
        # Its CPU time too: on a busy machine a collection's wall time also counts the moments
        # the process was not scheduled (measured: 53 ms of wall time for 0.7 ms of CPU).
        if cpu_ms > self.stats["longest_gc_cpu_ms"]:
            self.stats.update(longest_gc_cpu_ms=round(cpu_ms, 2), longest_gc_generation=info.get("generation"))

    async def _freeze_forever(self, every_s: float = FREEZE_EVERY_S) -> None:
        """Move what survived into the collector's permanent generation, again and again:
        a full collection then scans only what is newer (measured: 9 full collections in 20 s,
        up to 306 ms each, with 200 tables). The tables' objects are still freed by their
        reference counts when a table leaves memory; only cyclic garbage made before a
        freeze is never collected (about half an object per game of 10 Days)."""
        while True:
            await asyncio.sleep(every_s)
            gc.freeze()

    async def _watch_pauses(self, every_s: float = 0.02) -> None:
        """The longest time the event loop could not run anything (a collection, a long
        handler): how late a short sleep wakes up."""
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(every_s)
            late = (loop.time() - t - every_s) * 1000
            if late > self.stats["longest_pause_ms"]:
                self.stats["longest_pause_ms"] = round(late, 1)

    async def stop(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        await self.kill()

    async def kill(self) -> None:
        """Stop as a crash would: no goodbye, whatever was under way is lost. Its tasks are
        cancelled and waited for (briefly), so that none is left pending when the loop stops."""
        tasks = [t for t in self._tasks if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        if self.nc is not None and not self.nc.is_closed:
            await self.nc.close()
        if tasks:
            await asyncio.wait(tasks, timeout=2.0)
        if hasattr(self.authorizer, "close"):   # its connection for the revocations
            await self.authorizer.close()

    def _background(self, coro) -> asyncio.Task:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def owns(self, code: str) -> bool:
        """Whether this referee serves the table (every table without a share)."""
        return self.share is None or P.partition_of(code) % self.share[1] == self.share[0] - 1

    def _lobby_guard(self, handler):
        """A lobby request, limited per guest before it costs anything more: each gets its
        own task (tables proceed in parallel; each table's FIFO lock keeps its order). A
        join or look for a table of another referee's share goes to that referee as it
        came (its reply address and the server's header naming the guest kept)."""
        async def cb(msg):
            guest = guest_of(msg)
            if guest and not (self._lobby_rate[0].allow(guest[0]) and self._lobby_rate[1].allow(guest[1])):
                self.stats["dropped"] += 1
                return   # a guest over its rate hears nothing: answering would cost as much
            if self.share is not None and handler in (self._on_join, self._on_look, self._on_watch):
                code = _table_of(msg.data)
                if code is not None and not self.owns(code):
                    kind = {self._on_join: "join", self._on_look: "look"}.get(handler, "watch")
                    self.stats["handed"] += 1
                    self._background(self._guard(lambda m: self._hand_over(m, code, kind), msg))
                    return
            self._background(self._guard(lambda m: handler(m, guest), msg))
        return cb

    async def _hand_over(self, msg, code: str, kind: str) -> None:
        """Ask the table's owner (the server answers a guest's request only from the
        connection it reached) and pass its reply on."""
        try:
            reply = await self.nc.request(P.partition_lobby_subject(P.partition_of(code), kind), msg.data,
                                          timeout=8.0, headers=msg.headers)
            payload = reply.data
        except (nats.errors.NoRespondersError, nats.errors.TimeoutError):
            payload = P.encode({"type": "reply", "ok": False,
                                "reason": f"the referee of table {code} is not answering; try again later"})
        if msg.reply:
            await self.nc.publish(msg.reply, payload)

    def _handed(self, handler):
        """A lobby request another referee handed us (its guest's rate already counted there)."""
        async def cb(msg):
            self._background(self._guard(lambda m: handler(m, guest_of(m)), msg))
        return cb

    async def _guard(self, handler, msg):
        try:
            await handler(msg)
        except asyncio.CancelledError:
            raise
        except Exception:   # one bad table must not stop the referee
            log.exception("referee: handling %s failed", msg.subject)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_every_s)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("referee: the sweep of old tables failed")

    async def sweep(self) -> None:
        """Close the tables nobody started within the lobby's time to live (their codes and
        their places in the limits are freed), and forget finished tables (they stay in
        the log, read again when someone looks)."""
        now = time.time()
        for code, table in list(self.tables.items()):
            if table.waiting and now - table.created > self.limits.lobby_ttl_s:
                async with self._lock_for(code):
                    if self.tables.get(code) is table and table.waiting:
                        minutes = max(1, round(self.limits.lobby_ttl_s / 60))
                        await self._close(table, f"nobody started the game within {minutes} minutes of hosting")
            elif table.ended and code not in self.realtime:
                self.tables.pop(code, None)

    # --- what a real-time table asks of its referee (realtime.TableHost) ---------------------
    def lock_for(self, code: str) -> asyncio.Lock:
        return self._lock_for(code)

    def background(self, coro) -> asyncio.Task:
        return self._background(coro)

    async def append(self, table: Table, record: dict) -> None:
        await self._append(table, record)

    async def commit(self, table: Table, action, text: str | None = None) -> dict:
        return await self._commit(table, action, text)

    def next_automatic(self, table: Table):
        return self._next_automatic(table)

    async def end(self, table: Table) -> None:
        await self._end(table)

    # --- the log ------------------------------------------------------------------------
    async def _append(self, table: Table, record: dict) -> None:
        payload = P.encode(record)
        digest = hashlib.sha256(payload).hexdigest()[:16]
        headers = {"Nats-Expected-Last-Subject-Sequence": str(table.last_seq),
                   "Nats-Msg-Id": f"{table.code}:{table.last_seq}:{digest}"}
        try:
            ack = await self._patiently(lambda: self.js.publish(P.log_subject(table.code), payload,
                                                                stream=P.LOG_STREAM, headers=headers))
        except APIError as e:
            if e.err_code == WRONG_LAST_SEQUENCE:
                self.stats["conflicts"] += 1
                raise Conflict(str(e)) from None
            raise
        if ack.duplicate:   # the same record was already written (a retry): re-read to be sure
            raise Conflict("duplicate")
        table.last_seq = ack.seq
        self.stats["appends"] += 1

    async def _log_stream(self) -> None:
        """The games' log stream, found or made (batched reads allowed on an older one)."""
        info = await self._stream(api.StreamConfig(
            name=P.LOG_STREAM, subjects=[P.LOG_SUBJECTS], storage=api.StorageType.FILE,
            num_replicas=self.replicas, duplicate_window=120.0,
            max_msg_size=P.MAX_SERVER_PAYLOAD, allow_direct=True))
        config = info.config
        if not config.allow_direct:   # a log made before batched reads: allow them now
            config.allow_direct = True
            await self._patiently(lambda: self.js.update_stream(config))

    async def _stream(self, config: api.StreamConfig) -> api.StreamInfo:
        """A stream, found or made. Referees that start together may each find it missing;
        the server makes it for one and refuses the others (its store is being made, or the
        name is taken), who then find it made."""
        deadline = time.monotonic() + PATIENCE_S
        while True:
            try:
                return await self._patiently(lambda: self.js.stream_info(config.name))
            except NotFoundError:
                pass
            try:
                return await self._patiently(lambda: self.js.add_stream(config))
            except APIError as e:
                # 10049: the store is being made by another; 10058: the name was taken meanwhile.
                # Anything else (an account without room for it) is said at once.
                if e.err_code not in (10049, 10058) or time.monotonic() > deadline:
                    raise
                self.stats["retries"] += 1
                await asyncio.sleep(0.1)   # another referee's creation under way: look again

    async def _patiently(self, call):
        """call() again while the cluster is electing a leader (at most PATIENCE_S)."""
        deadline = time.monotonic() + PATIENCE_S
        while True:
            try:
                return await call()
            except TRANSIENT:
                if time.monotonic() > deadline:
                    raise
            except APIError as e:
                # 503: no leader just now; "service unavailable" (no responder): the JetStream
                # API of the account is being set up again, as when the server reloads its users
                if not (e.code == 503 or isinstance(e, ServiceUnavailableError)) or time.monotonic() > deadline:
                    raise
            self.stats["retries"] += 1
            await asyncio.sleep(0.2)

    async def _read_log(self, code: str, after: int = 0) -> list[tuple[int, dict]]:
        """The log's records with a stream sequence above `after`, LOG_BATCH to a round trip
        (JetStream's batched direct get: one request, the records, then an end-of-batch)."""
        subject, out, seq = P.log_subject(code), [], after + 1
        while True:
            batch = await self._patiently(lambda at=seq: self._read_batch(subject, at))
            out.extend(batch)
            if len(batch) < LOG_BATCH:
                return out
            seq = batch[-1][0] + 1

    async def _read_batch(self, subject: str, seq: int) -> list[tuple[int, dict]]:
        token = secrets.token_hex(6)
        # The replies gather in a list and the read wakes once, at the end of the batch (a
        # wait per record cost more than the record): unanswered for READ_PATIENCE_S, with
        # nothing new meanwhile, it is asked again.
        read = self._reads[token] = _BatchRead(asyncio.get_running_loop().create_future())
        try:
            await self.nc.publish(f"$JS.API.DIRECT.GET.{P.LOG_STREAM}",
                                  json.dumps({"seq": seq, "next_by_subj": subject, "batch": LOG_BATCH}).encode(),
                                  reply=f"{self._read_inbox}.{token}")
            seen = 0
            while not read.done.done():
                try:
                    await asyncio.wait_for(asyncio.shield(read.done), READ_PATIENCE_S)
                except TimeoutError:
                    if len(read.msgs) == seen:
                        raise
                    seen = len(read.msgs)
            out = []
            for msg in read.msgs:
                headers = msg.headers or {}
                status = headers.get("Status")
                if status is None:
                    out.append((int(headers["Nats-Sequence"]), json.loads(msg.data)))
                elif status in ("204", "404"):   # the end of the batch; nothing (more) there
                    return out
                elif status == "503":            # no leader just now: _patiently tries again
                    raise ServiceUnavailableError(code=503, description="no leader for the log")
                else:
                    raise APIError(code=int(status), description=headers.get(api.Header.DESCRIPTION, ""))
            return out
        finally:
            del self._reads[token]
            read.done.cancel()

    async def _on_read_reply(self, msg) -> None:
        read = self._reads.get(msg.subject.rsplit(".", 1)[-1])
        if read is not None and not read.done.done():
            read.msgs.append(msg)
            if msg.headers and "Status" in msg.headers:   # the end of the batch (or its error)
                read.done.set_result(None)

    async def load(self, code: str) -> Table | None:
        """The table as its log says (None when there is no such table). A table already
        known is brought up to date from its last record read, not replayed again."""
        table = self.tables.get(code)
        records = await self._read_log(code, table.last_seq if table is not None else 0)
        if table is None:
            if not records or records[0][1].get("type") != "table":
                return None
            seq0, head = records.pop(0)
            try:
                match = new_match(head["game"], head["seats"], head["seed"], head["setup"])
            except Exception as e:   # a poisoned record: whatever it holds
                match = None
                reason = f"its setup cannot start a game ({e})"
            table = Table(code, match, head.get("salt", ""), head.get("commitment", ""), last_seq=seq0,
                          created=head.get("created", 0.0) if isinstance(head.get("created"), (int, float)) else 0.0,
                          host=tuple(head.get("host") or ()), public=head.get("public") is True,
                          host_seat=head.get("host_seat") if type(head.get("host_seat")) is int else None)
            if match is None:   # a poisoned log: this table is closed, the referee goes on
                table.closed, table.ended = reason, True
        for seq, rec in records:
            kind = rec.get("type")
            try:
                if table.closed:
                    pass   # nothing after the fault is played (a "closed" record is the last)
                elif kind == "join":
                    table.joined[rec["seat"]] = {"name": rec["name"], "user": rec["user"]}
                    _rename(table, rec["seat"], rec["name"])
                elif kind == "leave":
                    table.joined.pop(rec["seat"], None)
                elif kind == "computer":
                    _seat_kind(table, rec["seat"], rec["kind"])
                elif kind == "driver":
                    table.driver = rec["name"]
                elif kind == "void":
                    table.voids.append({"round": rec["round"], "n": rec["n"], "reason": rec["reason"]})
                elif kind in ("action", "actions"):   # one action, or a turn's with its follow-ups
                    for _, action_json in ([[rec.get("seat"), rec["action"]]] if kind == "action" else rec["moves"]):
                        void = next((v for v in table.voids if v["n"] == table.n), None)
                        self._apply(table, table.match.state.action_from_json(action_json),
                                    f"Round {void['round']} is void: {void['reason']}." if void else None)
                elif kind == "end":
                    table.ended = True
                    if isinstance(rec.get("resigned"), dict):   # the log's word: the game's state has no result
                        table.resigned = {"seat": int(rec["resigned"]["seat"]), "name": str(rec["resigned"]["name"])}
                        table.result = {"returns": list(rec["returns"]), "scores": rec.get("scores")}
                elif kind == "closed":
                    table.closed, table.ended = str(rec.get("reason", "closed")), True
            except Exception as e:   # whatever the log holds, one table must not stop the referee
                table.closed, table.ended = f"its log does not replay at record {seq} ({_said(e)})", True
            table.last_seq = seq
        self.tables[code] = table
        return table

    async def table(self, code: str) -> Table | None:
        return self.tables.get(code) or await self.load(code)

    async def resume_all(self) -> None:
        """Read every game's log and carry on the unfinished ones (after a fail-over)."""
        try:
            info = await self._patiently(lambda: self.js.stream_info(P.LOG_STREAM, subjects_filter=P.LOG_SUBJECTS))
        except NotFoundError:
            return
        gate = asyncio.Semaphore(RESUME_AT_ONCE)   # several at once: each read is mostly waiting

        async def resume(subject):
            code = subject.rsplit(".", 1)[-1]
            async with gate:
                try:
                    await self._resume(subject, code)
                except asyncio.CancelledError:
                    raise
                except Exception:   # one table's log must never stop a referee from starting
                    log.exception("referee: table %s could not be resumed", code)
        await asyncio.gather(*(resume(s) for s in sorted((info.state.subjects or {}).keys())
                               if self.owns(s.rsplit(".", 1)[-1])))

    async def _resume(self, subject: str, code: str) -> None:
        last = await self._patiently(lambda: self.js.get_last_msg(P.LOG_STREAM, subject))
        try:
            kind = json.loads(last.data).get("type")
        except (ValueError, AttributeError):
            kind = None
        if kind in ("end", "closed"):
            return   # finished games are read only when someone asks for them
        async with self._lock_for(code):
            table = await self.load(code)
            if table is None:
                return
            if table.closed:   # found broken now: say so in its log, once, and to its seats
                await self._close(table, table.closed)
                return
            if table.status != "playing":
                return
            if table.match.rules.spec.real_time:
                await self._own_realtime(table)
            else:
                await self._drive(table)

    def _lock_for(self, code: str) -> asyncio.Lock:
        """One lock per table (FIFO): a table's intents are handled one at a time, in order."""
        return self._locks.setdefault(code, asyncio.Lock())

    # --- playing ----------------------------------------------------------------------------
    def _apply(self, table: Table, action, text: str | None = None) -> dict:
        """Apply a committed action to the referee's match; the full entry (its text
        replaced by `text`: a round voided by a change of referee says so)."""
        action_json = table.match.state.action_to_json(action)
        entry_log = table.match.apply(action)   # with the audience and words the rules declare
        entry, seats, public = entry_views(entry_log, action_json, table.match.state.num_players, text)
        table.entries.append(entry)
        table.views.append((seats, public))
        return entry

    async def _commit(self, table: Table, action, text: str | None = None, follow: bool = False) -> dict:
        """Apply the action, then log it: the rules refuse it before anything is written
        (so a log never holds an action that does not replay). With `follow`, the
        automatic actions it brings (chance draws, computers' moves) are applied too and
        logged with it in one record: one append per player turn. If the append fails, the
        game in memory is ahead of the log: it is forgotten, and read again from the log.
        A follow-up that fails closes the table (TableClosed) after what went before it
        is logged. Returns the first entry."""
        first = table.n
        moves, entries = [], []
        failure = None
        while action is not None:
            state = table.match.state
            moves.append([state.actor(action), state.action_to_json(action)])
            try:
                entries.append(self._apply(table, action, text))
            except IllegalActionError as e:   # listed as legal, refused when played: the game cannot go on
                moves.pop()
                failure = TableClosed(f"the rules refused an action they had offered ({_said(e)})")
                break
            action, text = None, None
            if follow and table.status == "playing":
                try:
                    action = self._next_automatic(table)
                except Exception as e:   # a computer player or the rules failed: this table only
                    log.exception("referee: table %s cannot go on", table.code)
                    failure = TableClosed(f"the game cannot go on ({_said(e)})")
        if moves:
            record = {"type": "action", "n": first, "seat": moves[0][0], "action": moves[0][1]} if len(moves) == 1 \
                else {"type": "actions", "n": first, "moves": moves}
            try:
                await self._append(table, record)
            except BaseException:
                if self.tables.get(table.code) is table:
                    del self.tables[table.code]
                raise
            await self._publish_entries(table, entries)
        if failure is not None:
            raise failure
        return entries[0]

    async def _close(self, table: Table, reason: str) -> None:
        """The table cannot go on: logged as closed (a referee starting later skips it),
        every seat and the public subject told why, credentials revoked."""
        try:
            await self._append(table, {"type": "closed", "reason": reason})
        except Conflict:
            pass   # another referee wrote meanwhile; the reason still goes to the seats
        table.closed, table.ended = reason, True
        self.stats["closed"] += 1
        log.warning("referee: table %s closed: %s", table.code, reason)
        note = P.encode({"type": "closed", "table": table.code, "reason": reason})
        await self.nc.publish(P.public_subject(table.code), note)
        for s in table.joined:
            await self.nc.publish(P.private_subject(table.code, s), note)
        self._background(self._after_end(table.code))

    def _next_automatic(self, table: Table):
        """The action the referee takes now (a chance draw or a computer's move), or None."""
        match = table.match
        p = match.state.current_player()
        if p == TERMINAL or match.state.is_terminal():
            return None
        if p == CHANCE:
            return sample_chance(match.state, chance_rng(match.seed, table.n))
        if p == SIMULTANEOUS or match.players[p] is None:
            return None
        return match.decide(p)[0]

    async def _drive(self, table: Table) -> None:
        """Take the referee's own actions until a person must act; end a finished game."""
        while table.status == "playing":
            try:
                action = self._next_automatic(table)
                if action is None:
                    break
                await self._commit(table, action, follow=True)
            except Conflict:   # another referee is driving this game: take its log as it is
                table = await self.load(table.code)
            except TableClosed as e:
                await self._close(table, str(e))
                return
            except (TimeoutError, nats.errors.Error, APIError):
                raise
            except Exception as e:   # a computer player or the rules failed: close this table only
                log.exception("referee: table %s cannot go on", table.code)
                await self._close(table, f"the game cannot go on ({_said(e)})")
                return
        if table.match.is_over() and not table.ended:
            await self._end(table)

    async def _end(self, table: Table, resigned: dict | None = None) -> bool:
        """Log the end (a finished game's returns, or a resignation's) and send it; False
        when another referee wrote first (the table is read again)."""
        m = table.match
        record = {"type": "end", "returns": m.state.returns(), "scores": m.state.scores()}
        if resigned is not None:
            record.update(returns=P.resignation_returns(len(m.seats), resigned["seat"]), resigned=resigned)
        try:
            await self._append(table, record)
        except Conflict:
            await self.load(table.code)
            return False
        table.ended = True
        if resigned is not None:
            table.resigned, table.result = resigned, {"returns": record["returns"], "scores": record["scores"]}
        end = P.encode(self._end_message(table))   # the whole match: written once for everyone
        await self.nc.publish(P.public_subject(table.code), end)
        for s in table.joined:
            await self.nc.publish(P.private_subject(table.code, s), end)
        self._forget_presence(table)
        if table.public:
            self._background(self._record_finished(table))
        self._background(self._after_end(table.code))
        return True

    async def _after_end(self, code: str) -> None:
        """revoke_after_end_s after the end (time for a client that missed it to sync): the
        table's credentials revoked, and the table out of memory (read from the log when
        someone asks for it: a sync, a look, a replay)."""
        await asyncio.sleep(self.revoke_after_end_s)
        if self.authorizer is not None:
            table = self.tables.get(code)
            # (the seats' keys from the log: a referee that took the table over signed none of them)
            seated = [j["user"] for j in table.joined.values() if j.get("user")] if table is not None else []
            try:
                await self.authorizer.revoke_table(code, seated)
            except Exception:   # the server is gone or its folder unwritable: the seats stay until it restarts
                log.exception("referee: revoking table %s's credentials failed", code)
        table = self.tables.get(code)
        if table is not None and table.ended and code not in self.realtime:
            del self.tables[code]
            lock = self._locks.get(code)
            if lock is not None and not lock.locked():
                del self._locks[code]

    async def _leave(self, table: Table, seat: int) -> dict | None:
        """The seat leaves: logged, its credentials revoked, the others told. In the lobby
        the seat is free again; during a game the table waits (status "lobby") until
        someone takes the seat again by the table code, with new credentials."""
        user = table.joined[seat]["user"]
        if not table.ended:
            try:
                await self._append(table, {"type": "leave", "seat": seat})
            except Conflict:
                await self.load(table.code)
                return _refusal("stale: the table changed; sync and try again")
            table.joined.pop(seat)
            self._presence.pop((table.code, seat), None)
            table.lost.discard(seat)
            if table.code in self.realtime:   # a real-time game's clock stops while the seat is empty
                self.realtime[table.code].poke()
            elif table.match.rules.spec.real_time:   # driven by another referee: tell it
                try:
                    await self.nc.request(owner_subject(table.code), b'{"kind":"wake"}', timeout=1.0)
                except (nats.errors.NoRespondersError, nats.errors.TimeoutError):
                    pass   # nobody drives it: whoever takes it over reads the leave in the log
        note = {"type": "left", "table": table.code, "seat": seat, "name": table.match.names[seat],
                "status": table.status, "joined": {str(s): j["name"] for s, j in table.joined.items()}}
        await self.nc.publish(P.public_subject(table.code), P.encode(note))
        for s in {*table.joined, seat}:
            await self.nc.publish(P.private_subject(table.code, s), P.encode(note))
        for s in table.joined:   # the others: their status (waiting for the seat) and no legal moves
            await self.nc.publish(P.private_subject(table.code, s), P.encode(self._seat_update(table, s, None)))
        await self.nc.flush()
        if self.authorizer is not None:
            await self.authorizer.revoke_user(user)
        return None

    async def _give_to_computer(self, table: Table, seat: int, intent: dict) -> dict | None:
        """The host gives a seat nobody holds to a computer of the given level: logged, the
        table told (the seats' kinds change), and the game goes on if every seat is held."""
        iid, target, level = intent.get("id", ""), intent["for"], intent["level"]
        rules = table.match.rules
        if table.host_seat is None or seat != table.host_seat:
            return _refusal("only the host may give a seat to a computer", iid)
        if table.ended:
            return _refusal("the game is over", iid)
        if rules.spec.real_time:
            return _refusal("a seat of a real-time table cannot be given to a computer", iid)
        if not (0 <= target < len(table.match.seats)) or table.match.seats[target] != HUMAN or target in table.joined:
            return _refusal(f"seat {target + 1 if isinstance(target, int) else target} is not an empty seat "
                            "of a person", iid)
        if level not in rules.spec.ai_levels:
            return _refusal(f"{level[:20]!r} is not a computer level of {table.match.game_id} "
                            f"({', '.join(rules.spec.ai_levels)})", iid)
        kind = f"ai:{level}"
        try:
            await self._append(table, {"type": "computer", "seat": target, "kind": kind})
        except Conflict:
            await self.load(table.code)
            return _refusal("stale: the table changed; sync and try again", iid)
        _seat_kind(table, target, kind)
        for s in table.joined:   # the seats' kinds as they are now (a sync without entries)
            await self.nc.publish(P.private_subject(table.code, s), P.encode(self._sync_message(table, s, table.n)))
        await self.nc.publish(P.public_subject(table.code), P.encode(
            {"type": "computer", "table": table.code, "seat": target, "kind": kind, "status": table.status}))
        if table.status == "playing":
            await self._drive(table)
        return None

    def _end_message(self, table: Table) -> dict:
        m = table.match
        result = table.result or {"returns": m.state.returns(), "scores": m.state.scores()}
        end = {"type": "end", "table": table.code, "returns": result["returns"], "scores": result["scores"],
               "seed": m.seed, "salt": table.salt, "seed_commitment": table.commitment,
               "save": m.to_json(), "voids": list(table.voids)}
        if table.resigned is not None:
            end["resigned"] = table.resigned
        return end

    def _seat_update(self, table: Table, seat: int, entry: dict | None, to_move: int | None = None,
                     status: str | None = None) -> dict:
        """The seat's state now (to_move and status may be given: read once for every seat)."""
        state = table.match.state
        if to_move is None:
            to_move = state.current_player()
        if status is None:
            status = table.status
        msg = {"type": "update", "table": table.code, "n": table.n, "status": status,
               "to_move": to_move, "observation": state.observation(seat),
               "legal": [state.action_to_json(a) for a in state.legal_actions(seat)]
               if to_move in (seat, SIMULTANEOUS) and status == "playing" else None}
        if entry is not None:
            msg["entry"] = table.views[entry["n"]][0][seat]
        return msg

    async def _publish_entries(self, table: Table, entries: list[dict]) -> None:
        """A turn's entries (its action and the automatic ones it brought) in one message to
        the public subject and one to each seat (the entries as it may see them, then its
        observation and legal moves after the last). A private table's turns skip the public
        subject: nobody may watch it, and each seat reads more in its own update (a third of
        the messages a turn that nobody read)."""
        code, views = table.code, table.views
        to_move, status = table.match.state.current_player(), table.status
        publish = self.nc.publish
        if table.public:
            await publish(P.public_subject(code), P.encode(
                {"type": "entries", "table": code, "n": table.n, "to_move": to_move,
                 "entries": [views[e["n"]][1] for e in entries]}))
        for s in table.joined:
            update = self._seat_update(table, s, None, to_move, status)
            update["entries"] = [views[e["n"]][0][s] for e in entries]
            await publish(P.private_subject(code, s), P.encode(update))

    def _sync_message(self, table: Table, seat: int, since: int) -> dict:
        """The entries from `since` as this seat may see them, in pages of at most
        SYNC_PAGE_BYTES ("more": true until the last page; the client asks for the next)."""
        m = table.match
        msg = self._seat_update(table, seat, None)
        page, size = [], 0
        for seats, _ in table.views[since:]:
            view = seats[seat]
            size += len(P.encode(view))
            if page and size > SYNC_PAGE_BYTES:
                break
            page.append(view)
        msg.update({"type": "sync", "since": since, "game": m.game_id, "setup": m.initial_setup,
                    "seats": m.seats, "seat": seat, "seed_commitment": table.commitment,
                    "joined": {str(s): j["name"] for s, j in table.joined.items()},
                    "entries": page, "voids": list(table.voids), "host_seat": table.host_seat,
                    "lost": sorted(table.lost)})
        if since + len(page) < table.n:
            msg["more"] = True
        elif table.ended:
            msg["end"] = self._end_message(table)
        return msg

    # --- intents from seats --------------------------------------------------------------
    async def _on_intent_arrival(self, msg) -> None:
        """Every intent, the moment it arrives: a real-time table's move is stamped now
        (its time in the game is its arrival) and queued; anything else is handled in turn."""
        arrived = time.monotonic()
        try:
            code, seat = P.parse_intent_subject(msg.subject)
        except P.ProtocolError:
            return
        if not self._intent_rate.allow((code, seat)):
            self._slow_down(code, seat)
            return
        if msg.data == P.PING:   # a heartbeat: no task, no lock, nothing logged
            self._heard(code, seat, arrived, ping=True)
            return
        self._heard(code, seat, arrived)
        rt = self.realtime.get(code)
        if rt is not None and self.tables[code].status == "playing":   # else refused below
            try:
                intent = P.check_intent(P.decode(msg.data, P.MAX_INTENT_BYTES, "the intent"))
            except P.ProtocolError:
                intent = None   # refused by the usual path below
            if intent is not None and intent["type"] == "act":
                rt.arrive(arrived, seat, intent)
                return
        self._background(self._guard(lambda m: self._on_intent(m, arrived), msg))

    def _slow_down(self, code: str, seat: int) -> None:
        """A seat over its rate: its messages are dropped; it is told so once a second."""
        self.stats["dropped"] += 1
        now = time.monotonic()
        if now - self._told_slow.get((code, seat), 0.0) >= 1.0:
            if len(self._told_slow) > 10_000:
                self._told_slow.clear()
            self._told_slow[(code, seat)] = now
            self._background(self.nc.publish(P.private_subject(code, seat), P.encode(_refusal(
                "too many messages: slow down (what you sent beyond the limit was dropped)"))))

    async def _on_intent(self, msg, arrived: float | None = None) -> None:
        try:
            code, seat = P.parse_intent_subject(msg.subject)
        except P.ProtocolError:
            return
        async with self._lock_for(code):
            reply = await self._handle_intent(code, seat, msg.data, time.monotonic() if arrived is None else arrived)
        if reply is not None:
            if reply["type"] == "refused":
                self.stats["refusals"] += 1
            await self.nc.publish(P.private_subject(code, seat), P.encode(reply))

    async def _handle_intent(self, code: str, seat: int, data: bytes, arrived: float = 0.0) -> dict | None:
        """The refusal or reply for one intent (None when the updates say it all)."""
        try:
            intent = P.check_intent(P.decode(data, P.MAX_INTENT_BYTES, "the intent"))
        except P.ProtocolError as e:
            return _refusal(str(e))
        iid = intent.get("id", "")
        if intent["type"] == "sync" and not self._sync_rate.allow((code, seat)):
            self._slow_down(code, seat)
            return None
        table = await self.table(code)
        if table is None:
            return _refusal(f"there is no table {code}", iid)
        if table.closed:
            return {"type": "closed", "table": code, "reason": table.closed}
        if "seat" in intent and intent["seat"] != seat:
            return _refusal(f"you are seat {seat}; you cannot act for seat {intent['seat']}", iid)
        if seat not in table.joined:   # seated by another referee meanwhile? the log says
            table = await self.load(code)
        if seat not in table.joined:
            return _refusal(f"seat {seat} of table {code} has not been taken", iid)
        if intent["type"] == "leave":
            return await self._leave(table, seat)
        if intent["type"] == "ping":   # a heartbeat written otherwise than P.PING: heard on arrival
            return None
        if intent["type"] == "resign":
            return await self._resign(table, seat, iid)
        if intent["type"] == "computer":
            return await self._give_to_computer(table, seat, intent)
        if table.match.rules.spec.real_time and table.status == "playing":
            act = intent["type"] == "act"
            rt = self.realtime.get(code) or await self._own_realtime(table, seat, data if act else None)
            table = self.tables[code]
            if act:
                if rt is not None:
                    rt.arrive(arrived, seat, intent)
                return None   # else forwarded to the referee that drives the table
            if rt is None:    # a sync: the log says it all; the driving referee takes any draw
                return self._sync_message(table, seat, min(intent.get("since", 0), table.n))
        if intent["type"] == "sync":
            if table.status == "playing" and self._next_automatic(table) is not None:
                await self._drive(table)   # a draw that a lost server interrupted: take it now
                table = self.tables[code]
            return self._sync_message(table, seat, min(intent.get("since", 0), table.n))
        if table.status != "playing":
            return _refusal("the game is over" if table.ended else "the table is still waiting for players", iid)
        if intent["n"] != table.n:   # perhaps another referee moved on: look at the log first
            table = await self.load(code)
            if intent["n"] != table.n:
                return _refusal(f"stale: the game is at action {table.n}, your intent was for action "
                                f"{intent['n']}; sync and try again", iid)
        state = table.match.state
        if state.current_player() != seat:
            who = state.current_player()
            whose = table.match.names[who] if 0 <= who < len(table.match.names) else "nobody's"
            return _refusal(f"not your turn: it is {whose}'s turn" if who >= 0 else f"not your turn ({whose})", iid)
        try:
            action = state.action_from_json(intent["action"])
            legal = action in state.legal_actions(seat)
        except Exception as e:   # whatever a client sends, a refusal: never a fault in the referee
            return _refusal(f"malformed action for {table.match.game_id}: {_said(e)}", iid)
        if not legal:
            return _refusal(f"illegal action: {json.dumps(intent['action'])[:200]} is not one of your "
                            f"{len(state.legal_actions(seat))} legal actions", iid)
        try:
            await self._commit(table, action, follow=True)
        except Conflict:
            await self.load(code)
            return _refusal("stale: another move was recorded first; sync and try again", iid)
        except TableClosed as e:
            await self._close(table, str(e))
            return None
        except (APIError, *TRANSIENT) as e:   # the log's store refused it (a full disk, a limit): nothing was played
            log.error("referee: table %s: the log refused an append: %r", code, e)
            await self.load(code)
            why = getattr(e, "description", None) or type(e).__name__
            return _refusal(f"the server could not record your move ({why}); try again later", iid)
        # _commit took the automatic actions the move brought (_drive would only ask again
        # for one and find none): what may be left is the end.
        table = self.tables[code]
        if table.match.is_over() and not table.ended:
            await self._end(table)
        return None

    # --- the manners of a table: resigning, who is there, finished tables ------------------
    async def _resign(self, table: Table, seat: int, iid: str = "") -> dict | None:
        """The seat resigns: the game ends at once, logged as an `end` with the resignation
        (the resigner last, every other seat sharing the win: protocol.resignation_returns),
        and everyone at the table (and its spectators) gets the end, which names who resigned."""
        if table.ended:
            return _refusal("the game is over", iid)
        if table.match.rules.spec.real_time:
            return _refusal("a real-time table cannot be resigned; leave it instead", iid)
        if table.n == 0 and table.status == "lobby":
            return _refusal("the game has not started: leave the table instead", iid)
        if not await self._end(table, {"seat": seat, "name": table.joined[seat]["name"]}):
            return _refusal("stale: the table changed; sync and try again", iid)
        log.info("referee: table %s: seat %d resigned", table.code, seat)
        return None

    def _heard(self, code: str, seat: int, now: float, ping: bool = False) -> None:
        """A message from the seat (any intent is a sign of life). A seat is watched from its
        first heartbeat on (a client without them is never called lost); a lost one is back."""
        key = (code, seat)
        p = self._presence.get(key)
        if p is None:
            if not ping:
                return
            table = self.tables.get(code)
            if table is None or table.ended or seat not in table.joined:
                return   # (a table not in memory is read at the seat's next sync)
            p = self._presence[key] = [now, False]
        p[0] = now
        if p[1]:
            p[1] = False
            self._background(self._tell_presence(code, seat, "back"))

    async def _presence_forever(self) -> None:
        while True:
            await asyncio.sleep(self.presence_every_s)
            try:
                await self.presence_sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("referee: the presence sweep failed")

    async def presence_sweep(self, now: float | None = None) -> None:
        """Mark lost the watched seats not heard from for lost_after_s (`now`: a test's clock)."""
        now = time.monotonic() if now is None else now
        for key, p in list(self._presence.items()):
            table = self.tables.get(key[0])
            if table is None or table.ended or key[1] not in table.joined:
                self._presence.pop(key, None)
            elif not p[1] and now - p[0] > self.lost_after_s:
                p[1] = True
                await self._tell_presence(key[0], key[1], "lost")

    async def _tell_presence(self, code: str, seat: int, state: str) -> None:
        """Everyone at the table (and its spectators) hears that a seat was lost or is back."""
        table = self.tables.get(code)
        if table is None or seat not in table.joined:
            return
        (table.lost.add if state == "lost" else table.lost.discard)(seat)
        note = P.encode({"type": "presence", "table": code, "seat": seat, "name": table.joined[seat]["name"],
                         "state": state, "lost": sorted(table.lost)})
        await self.nc.publish(P.public_subject(code), note)
        for s in table.joined:
            await self.nc.publish(P.private_subject(code, s), note)

    def _forget_presence(self, table: Table) -> None:
        for s in list(table.joined):
            self._presence.pop((table.code, s), None)
        table.lost.clear()

    async def _start_finished(self) -> None:
        """The finished public tables' stream (made if missing), its latest listings read,
        and the new ones heard as any referee records them (every referee lists them all)."""
        info = await self._stream(api.StreamConfig(
            name=P.DONE_STREAM, subjects=[P.DONE_SUBJECTS], storage=api.StorageType.FILE,
            num_replicas=self.replicas, max_msgs=P.DONE_KEPT, max_msg_size=4096, duplicate_window=120.0))
        last, first = info.state.last_seq, info.state.first_seq
        for seq in range(max(first, last - P.MAX_FINISHED + 1), last + 1):
            try:
                self._take_finished((await self._patiently(lambda at=seq: self.js.get_msg(P.DONE_STREAM, at))).data)
            except (NotFoundError, APIError):
                continue   # removed meanwhile (the stream keeps DONE_KEPT)
        self._subs.append(await self.nc.subscribe(P.DONE_SUBJECTS, cb=self._on_finished))

    async def _on_finished(self, msg) -> None:
        self._take_finished(msg.data)

    def _take_finished(self, data: bytes) -> None:
        try:
            listing = json.loads(data)
            code = listing["table"]
        except (ValueError, KeyError, TypeError):
            return   # only referees publish there
        self._finished = [t for t in self._finished if t.get("table") != code][-(P.MAX_FINISHED - 1):] + [listing]

    async def _record_finished(self, table: Table) -> None:
        """A public table's end, in the finished tables' stream (its whole log stays in the
        table's own; a replay reads it there through `look`)."""
        m = table.match
        listing = {"table": table.code, "game": m.game_id, "names": m.names, "seats": m.seats, "n": table.n,
                   "ended": round(time.time()), "returns": (table.result or {}).get("returns") or m.state.returns(),
                   "resigned": (table.resigned or {}).get("name")}
        try:
            await self._patiently(lambda: self.js.publish(P.done_subject(table.code), P.encode(listing),
                                                          stream=P.DONE_STREAM,
                                                          headers={"Nats-Msg-Id": f"done:{table.code}"}))
        except Exception:   # the list of finished tables misses it; the game itself is in its log
            log.exception("referee: table %s's end could not be listed", table.code)

    def finished_tables(self) -> list[dict]:
        """The latest finished public tables, the most recent first (at most MAX_FINISHED)."""
        return self._finished[::-1]   # (kept in the order they ended)

    # --- real time -----------------------------------------------------------------------
    async def _own_realtime(self, table: Table, seat: int | None = None, data: bytes | None = None,
                            wake: bool = False) -> RealTimeTable | None:
        """Make sure one referee drives this real-time table: if another answers on the
        table's owner subject, hand it the intent (or the news that the table plays again)
        and return None; if nobody does, take the table over (voiding an interrupted round)
        and drive it here. Called with the table's lock held."""
        code = table.code
        if data is not None or wake:
            body = {"kind": "intent", "seat": seat, "data": data.decode("utf-8", "replace")} if data is not None \
                else {"kind": "wake"}
        else:
            body = {"kind": "ping"}
        try:
            await self.nc.request(owner_subject(code), json.dumps(body).encode(), timeout=1.0)
            return None
        except (nats.errors.NoRespondersError, nats.errors.TimeoutError):
            pass   # nobody drives it (its referee is gone): ours now
        table = await self.load(code)
        try:
            # Written first: a driver that finds it in the log (after a failed append) stops.
            await self._append(table, {"type": "driver", "name": self.name})
            table.driver = self.name
            if not wake:
                table = await void_interrupted_round(self, table)
        except Conflict:   # another referee took it over first: let it drive
            await self.load(code)
            return None
        rt = RealTimeTable(self, code)
        self.realtime[code] = rt
        await rt.start()
        return rt

    # --- the lobby -------------------------------------------------------------------------
    async def _reply(self, msg, body: dict) -> None:
        """Answer a lobby request. Only the asker reads it: a guest's inbox is named after
        its own key, and no other guest may subscribe there (online.auth.guest_scope)."""
        if msg.reply:
            await self.nc.publish(msg.reply, P.encode({"type": "reply", **body}))

    async def _lobby_request(self, msg, handle) -> None:
        """Decode a lobby request, run `handle(req)`; any refusal becomes the reply.
        `handle` returns the reply's body and a follow-up (or None)."""
        follow = None
        try:
            req = P.decode(msg.data, P.MAX_LOBBY_BYTES, "the request")
            body, follow = await handle(req)
        except (P.ProtocolError, ValueError) as e:
            body = {"ok": False, "reason": str(e)[:300]}
        await self._reply(msg, body)
        if follow is not None:
            await follow()

    async def _on_host(self, msg, guest: tuple = ()) -> None:
        async def handle(req):
            return await self._host(req, guest), None
        await self._lobby_request(msg, handle)

    async def _host(self, req: dict, guest: tuple = ()) -> dict:
        game, seats, names = req.get("game"), req.get("seats"), req.get("names")
        try:
            rules = rules_for(game) if isinstance(game, str) else None
        except ValueError:
            rules = None
        if rules is None:
            raise P.ProtocolError(f"there is no game {str(game)[:40]!r}")
        if not isinstance(seats, list) or not all(isinstance(k, str) for k in seats):
            raise P.ProtocolError("\"seats\" must list each seat: human, random or ai:<level>")
        check_seats(rules, seats)
        if HUMAN not in seats:
            raise P.ProtocolError("an online table needs at least one human seat")
        if names is None:
            names = [f"Player {i + 1}" for i in range(len(seats))]
        if not isinstance(names, list) or len(names) != len(seats) or not all(
                isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME and n.isprintable() for n in names):
            raise P.ProtocolError(f"\"names\" must give each seat a name of 1 to {MAX_NAME} printable characters")
        options = req.get("options") or {}
        if not isinstance(options, dict):
            raise P.ProtocolError("\"options\" must be an object")
        public = req.get("public", False)
        if type(public) is not bool:
            raise P.ProtocolError("\"public\" must be true (listed in the lobby, spectators welcome) or false")
        host_seat = req.get("host_seat")
        if host_seat is not None and not (type(host_seat) is int and 0 <= host_seat < len(seats)
                                          and seats[host_seat] == HUMAN):
            raise P.ProtocolError("\"host_seat\" must be one of the table's human seats (the host's own)")
        self._check_room(guest)
        setup = {**rules.default_setup(len(seats)), **options, "players": names}
        seed = secrets.randbits(63)
        if self.allow_chosen_seed and type(req.get("seed")) is int:
            seed = req["seed"]
        if rules.spec.real_time and not (type(setup.get("round_limit_ms", 1)) is int
                                         and setup.get("round_limit_ms", 1) > 0):
            # a round a change of referee interrupts is voided by running out its time limit
            raise P.ProtocolError(f"{game} online needs timed rounds (round_limit_ms above 0)")
        match = new_match(rules, seats, seed, setup)
        salt = secrets.token_hex(16)
        for _ in range(20 * (self.share[1] if self.share else 1)):
            code = P.new_table_code()
            if not self.owns(code):
                continue   # a table of ours from the start: its intents come to us
            table = Table(code, match, salt, P.seed_commitment(seed, salt), created=time.time(), host=guest,
                          public=public, host_seat=host_seat)
            record = {"type": "table", "game": match.game_id, "setup": setup, "seats": seats, "seed": seed,
                      "salt": salt, "commitment": table.commitment, "created": table.created, "host": list(guest),
                      "public": public, "host_seat": host_seat}
            try:
                await self._append(table, record)   # expects an empty subject: a new code
            except Conflict:
                continue
            self.tables[code] = table
            return {"ok": True, "table": code, "game": match.game_id, "seats": seats, "names": names,
                    "seed_commitment": table.commitment}
        raise P.ProtocolError("no free table code; try again")

    def _check_room(self, guest: tuple) -> None:
        """Refuse a new table past the limits: live tables, tables nobody has started
        (altogether, per guest connection, per address)."""
        lim = self.limits
        live = [t for t in self.tables.values() if not t.ended]
        if len(live) >= P.MAX_TABLES:
            raise P.ProtocolError("this referee hosts as many tables as it can; try again later")
        waiting = [t for t in live if t.waiting]
        if len(waiting) >= lim.waiting_tables:
            raise P.ProtocolError("too many tables are waiting for players here; try again later")
        if guest:
            if sum(t.host[:1] == guest[:1] for t in waiting) >= lim.waiting_per_connection or \
                    sum(t.host[1:2] == guest[1:2] for t in waiting) >= lim.waiting_per_address:
                raise P.ProtocolError("you have hosted as many tables as may wait for players at once; "
                                      "start or leave one first")

    async def _on_join(self, msg, guest: tuple = ()) -> None:
        async def handle(req):
            code = P.check_code(req.get("table"))
            async with self._lock_for(code):
                body, table = await self._join(code, req)
            return body, (None if body.get("renewed") else lambda: self._after_join(code, table, body))
        await self._lobby_request(msg, handle)

    async def _after_join(self, code: str, table: Table, body: dict) -> None:
        async with self._lock_for(code):
            for s in table.joined:   # who is seated now, and whether the game (re)starts
                if s != body.get("seat"):   # (a sync without entries: the names and seats with the state)
                    await self.nc.publish(P.private_subject(code, s), P.encode(self._sync_message(table, s, table.n)))
            if table.status == "playing" and table.match.rules.spec.real_time:
                rt = self.realtime.get(code)
                if rt is not None:
                    rt.wake.set()   # a seat taken again: the paused clock runs on
                else:
                    await self._own_realtime(table, wake=True)
            elif table.status == "playing":
                await self._drive(table)

    async def _join(self, code: str, req: dict):
        table = await self.load(code)   # another referee may have seated someone: read the log
        if table is None:
            raise P.ProtocolError(f"there is no table {code}")
        if table.closed:
            raise P.ProtocolError(f"table {code} was closed: {table.closed}")
        if table.ended:
            raise P.ProtocolError(f"the game at table {code} is over")
        free = [s for s in table.human_seats() if s not in table.joined]
        seat = req.get("seat")
        if seat is None:
            if not free:
                raise P.ProtocolError(f"every seat at table {code} is taken")
            seat = free[0]
        if type(seat) is not int or seat not in table.human_seats():
            raise P.ProtocolError(f"seat {seat!r} is not a human seat of table {code}")
        if self.authorizer is None:
            raise P.ProtocolError("this referee cannot issue credentials (started with --nats and no "
                                  "--auth-dir); ask the operator")
        if seat in table.joined:
            if req.get("user_key") == table.joined[seat]["user"]:
                return await self._renew(table, seat), table
            raise P.ProtocolError(f"seat {seat} of table {code} is taken")
        name = req.get("name")
        if name is None:
            name = table.match.names[seat]
        elif not (isinstance(name, str) and 0 < len(name.strip()) <= MAX_NAME and name.isprintable()):
            raise P.ProtocolError(f"\"name\" must be 1 to {MAX_NAME} printable characters")
        name = name.strip()
        user = check_user_key(req.get("user_key"))   # the client's own public key: it signs in with its private one
        jwt = await self.authorizer.issue(code, seat, user)
        try:
            await self._append(table, {"type": "join", "seat": seat, "name": name, "user": user})
        except Conflict:
            await self.load(code)
            raise P.ProtocolError("the table changed while you joined; try again") from None
        table.joined[seat] = {"name": name, "user": user}
        self._presence.pop((code, seat), None)   # a new person: heard from by their own heartbeats
        table.lost.discard(seat)
        _rename(table, seat, name)
        return _seat_reply(table, seat, user, jwt), table

    async def _renew(self, table: Table, seat: int) -> dict:
        """New credentials for a seat's own key, asked by whoever holds it (a seat's JWT lives
        A.SEAT_LIFETIME_S; a game may last longer, or its player come back after it expired).
        A JWT names the public key it is for, and the server lets in only the holder of the
        private key, so a renewal tells a stranger nothing usable. Nothing is logged: the
        seat is the same player's."""
        user = table.joined[seat]["user"]
        jwt = await self.authorizer.issue(table.code, seat, user)
        self.stats["renewals"] += 1
        return {**_seat_reply(table, seat, user, jwt), "renewed": True}

    async def _on_look(self, msg, guest: tuple = ()) -> None:
        async def handle(req):
            code = P.check_code(req.get("table"))
            async with self._lock_for(code):
                known = code in self.tables
                table = await self.load(code)   # another referee may be running it: read the log
                if table is not None and table.ended and not known:
                    self.tables.pop(code, None)   # a finished table read for a look is not kept
            if table is None:
                raise P.ProtocolError(f"there is no table {code}")
            if table.closed:
                raise P.ProtocolError(f"table {code} was closed: {table.closed}")
            body = {"ok": True, "table": table.code, "game": table.match.game_id, "seats": table.match.seats,
                    "names": table.match.names, "status": table.status,
                    "joined": {str(s): j["name"] for s, j in table.joined.items()}}
            if table.ended:   # everything is public once the seed is: a seat revoked meanwhile reads it here
                body["end"] = self._end_message(table)
            return body, None
        await self._lobby_request(msg, handle)

    # --- the public tables: the lobby's list, and spectators ---------------------------------
    def _public_tables(self) -> list[dict]:
        return [_listing(t) for t in self.tables.values() if t.public and not t.ended][:P.MAX_LISTED]

    async def _on_referee_list(self, msg) -> None:
        if msg.reply:
            await self.nc.publish(msg.reply, json.dumps(self._public_tables()).encode())

    async def _on_list(self, msg, guest: tuple = ()) -> None:
        """The public tables of every referee (each serves its own share): asked of all of
        them at once, their answers gathered for a moment; open ones first."""
        async def handle(_req):
            found: dict[str, dict] = {}
            inbox = self.nc.new_inbox()

            async def collect(reply):
                try:
                    for t in json.loads(reply.data):
                        if t["table"] not in found or t["n"] > found[t["table"]]["n"]:
                            found[t["table"]] = t
                except (ValueError, KeyError, TypeError):
                    pass   # only referees answer here
            sub = await self.nc.subscribe(inbox, cb=collect)
            await self.nc.publish(P.REFEREE_LIST, b"{}", reply=inbox)
            await asyncio.sleep(LIST_GATHER_S)
            await sub.unsubscribe()
            tables = sorted(found.values(), key=lambda t: (t["status"] != "lobby", t["table"]))[:P.MAX_LISTED]
            return {"ok": True, "tables": tables, "finished": self.finished_tables()}, None
        await self._lobby_request(msg, handle)

    async def _on_watch(self, msg, guest: tuple = ()) -> None:
        """A spectator of a public table: credentials for its public subject, and the log so
        far as every seat may see it (from "since"; in pages, as a seat's sync)."""
        async def handle(req):
            code = P.check_code(req.get("table"))
            since = req.get("since", 0)
            if type(since) is not int or since < 0:
                raise P.ProtocolError("\"since\" must be a whole number of actions")
            async with self._lock_for(code):
                table = await self.load(code)
            if table is None:
                raise P.ProtocolError(f"there is no table {code}")
            if table.closed:
                raise P.ProtocolError(f"table {code} was closed: {table.closed}")
            if not table.public:
                raise P.ProtocolError(f"table {code} is private: only its players see it")
            body = {"ok": True, "table": code, "game": table.match.game_id, "setup": table.match.initial_setup,
                    "seats": table.match.seats, "status": table.status, "n": table.n,
                    "joined": {str(s): j["name"] for s, j in table.joined.items()}, "lost": sorted(table.lost)}
            page, size = [], 0
            for _, public in table.views[min(since, table.n):]:
                size += len(P.encode(public))
                if page and size > SYNC_PAGE_BYTES:
                    break
                page.append(public)
            body.update(since=min(since, table.n), entries=page, more=min(since, table.n) + len(page) < table.n)
            if table.ended:
                body["end"] = self._end_message(table)
            elif req.get("credentials", True):
                if self.authorizer is None:
                    raise P.ProtocolError("this referee cannot issue credentials; ask the operator")
                body["user"] = check_user_key(req.get("user_key"))
                body["jwt"] = await self.authorizer.issue_spectator(code, body["user"])
            return body, None
        await self._lobby_request(msg, handle)


def _listing(table: Table) -> dict:
    """A public table as the lobby lists it."""
    m = table.match
    return {"table": table.code, "game": m.game_id, "names": m.names, "seats": m.seats, "status": table.status,
            "n": table.n, "joined": {str(s): j["name"] for s, j in table.joined.items()}}


def _seat_reply(table: Table, seat: int, user: str, jwt: str) -> dict:
    """A join's reply: the seat's credentials (for the client's own key) and the table."""
    return {"ok": True, "table": table.code, "seat": seat, "user": user, "jwt": jwt,
            "game": table.match.game_id, "names": table.match.names, "seed_commitment": table.commitment}


def _seat_kind(table: Table, seat: int, kind: str) -> None:
    """The seat is played by `kind` (a computer) from now on: the game is made again with
    the new seats and its actions replayed (the computer's seed follows the match's rule)."""
    m = table.match
    seats = list(m.seats)
    seats[seat] = kind
    again = new_match(m.rules, seats, m.seed, m.initial_setup)
    for action in m.actions:
        again.apply(action)
    table.match = again


def _rename(table: Table, seat: int, name: str) -> None:
    """The seat's player is called as the person who took it chose, if nothing was played
    yet (the game's words then name them); a seat taken again mid-game keeps its name in
    the game, and the person's own in `joined`."""
    m = table.match
    if table.n or m.names[seat] == name:
        return
    names = list(m.names)
    names[seat] = name
    table.match = new_match(m.rules, m.seats, m.seed, {**m.initial_setup, "players": names})


def _table_of(data: bytes) -> str | None:
    """The table code a lobby request names (None when it names none: refused where it came)."""
    try:
        return P.check_code(P.decode(data, P.MAX_LOBBY_BYTES, "the request").get("table"))
    except (P.ProtocolError, ValueError):
        return None


def guest_of(msg) -> tuple:
    """(connection, address) of the guest behind a lobby request, from the header the
    server adds when the request crosses from the guests' account (a client's own header
    of that name is replaced by the server's); () on a server without that set-up."""
    raw = (msg.headers or {}).get("Nats-Request-Info") if msg.headers else None
    if not raw:
        return ()
    try:
        info = json.loads(raw)
        return (f"{info.get('server', '')}/{int(info['id'])}", str(info.get("host", "")))
    except (ValueError, KeyError, TypeError):
        return ()


def new_match(game, seats: list, seed: int, setup: dict) -> Match:
    """A table's game, made through the same strict path as a saved game's (ranges,
    consistency, invariants): a setup a save would refuse is refused here."""
    rules = rules_for(game) if isinstance(game, str) else game
    try:
        return Match.from_json({"game": rules.spec.id, "setup": setup, "seed": seed, "seats": seats, "actions": []},
                               "the setup", rules=rules)
    except SaveError as e:
        raise P.ProtocolError(str(e).removeprefix("the setup: ")[:300]) from None


def _said(error: Exception) -> str:   # what went wrong, briefly, for a refusal or a closed table
    text = str(error).strip()
    return (text or type(error).__name__)[:200]


async def connect_referee(url, name: str, connect_timeout: float = 5.0, **options):
    """The referee's connection: it reconnects for ever once up, but the first connection
    must succeed within connect_timeout (ConnectionError saying where), and a failed try
    is one log line, not a traceback."""
    async def quiet(e):   # nats-py reports every failed try; the caller says the outcome once
        log.debug("referee: NATS: %s", e or type(e).__name__)
    options.setdefault("error_cb", quiet)
    where = ", ".join(u.split("@")[-1] for u in (url if isinstance(url, list) else [url]))
    try:
        return await asyncio.wait_for(nats.connect(url, name=name, max_reconnect_attempts=-1, reconnect_time_wait=0.2,
                                                   connect_timeout=2, **options), connect_timeout)
    except (TimeoutError, OSError, nats.errors.Error) as e:
        raise ConnectionError(f"cannot reach NATS at {where} ({e or type(e).__name__})") from None
