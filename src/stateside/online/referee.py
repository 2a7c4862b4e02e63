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
import hashlib
import json
import logging
import secrets
import time
from dataclasses import dataclass, field

import nats
from nats.js import api
from nats.js.errors import APIError, NoStreamResponseError, NotFoundError

from stateside.engine.match import HUMAN, Match, chance_rng, check_seats, rules_for, sample_chance
from stateside.engine.protocol import CHANCE, SIMULTANEOUS, TERMINAL
from stateside.errors import IllegalActionError
from stateside.online import protocol as P
from stateside.online.realtime import RealTimeTable, owner_subject, void_interrupted_round
from stateside.online.visibility import entry_view, hidden_from

log = logging.getLogger("stateside.referee")
WRONG_LAST_SEQUENCE = 10071     # JetStream's error code for a failed conditional append
# A cluster electing a new leader (a node lost) answers nothing, or "unavailable", for a
# few seconds; the referee keeps trying that long, resending the same record (its
# Nats-Msg-Id makes a resend that was stored after all a duplicate, not a second record).
TRANSIENT = (nats.errors.TimeoutError, nats.errors.NoRespondersError, nats.errors.ConnectionReconnectingError,
             nats.errors.ConnectionClosedError, NoStreamResponseError, asyncio.TimeoutError)
PATIENCE_S = 30.0


class Conflict(Exception):
    """Someone else appended to this game's log first: reload it and think again."""


@dataclass
class Table:
    code: str
    match: Match
    salt: str
    commitment: str
    joined: dict = field(default_factory=dict)      # seat -> {"name", "user"}
    entries: list = field(default_factory=list)     # full entries: n, seat, text, action, events
    hidden: list = field(default_factory=list)      # per entry: the seats that may not see it
    last_seq: int = 0                               # stream sequence of the log's last record
    ended: bool = False
    voids: list = field(default_factory=list)       # real time: rounds voided by a change of referee
    driver: str = ""                                # real time: the referee that drives the table

    @property
    def n(self) -> int:
        return len(self.entries)

    def human_seats(self) -> list[int]:
        return self.match.humans()

    @property
    def status(self) -> str:
        if self.ended:
            return "over"
        return "playing" if all(s in self.joined for s in self.human_seats()) else "lobby"


def _refusal(reason: str, intent_id: str = "") -> dict:
    return {"type": "refused", "id": intent_id, "reason": reason}


class Referee:
    def __init__(self, url: str | list[str], authorizer=None, replicas: int = 1, allow_chosen_seed: bool = False,
                 name: str | None = None, connect_options: dict | None = None,
                 share: tuple[int, int] | None = None, revoke_after_end_s: float = 10.0):
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
        self.stats = {"appends": 0, "conflicts": 0, "refusals": 0, "retries": 0}

    # --- life ------------------------------------------------------------------------
    async def start(self) -> None:
        self.nc = await nats.connect(self.url, name=self.name, max_reconnect_attempts=-1,
                                     reconnect_time_wait=0.2, **self.connect_options)
        self.js = self.nc.jetstream(timeout=5)
        try:
            await self._patiently(lambda: self.js.stream_info(P.LOG_STREAM))
        except NotFoundError:
            await self._patiently(lambda: self.js.add_stream(api.StreamConfig(
                name=P.LOG_STREAM, subjects=[P.LOG_SUBJECTS], storage=api.StorageType.FILE,
                num_replicas=self.replicas, duplicate_window=120.0,
                max_msg_size=P.MAX_SERVER_PAYLOAD)))
        self._subs = [
            await self.nc.subscribe(P.LOBBY_HOST, queue=P.REFEREE_QUEUE, cb=self._spawn(self._on_host)),
            await self.nc.subscribe(P.LOBBY_JOIN, queue=P.REFEREE_QUEUE, cb=self._spawn(self._on_join)),
            await self.nc.subscribe(P.LOBBY_LOOK, queue=P.REFEREE_QUEUE, cb=self._spawn(self._on_look)),
        ]
        if self.share is None:   # every table: mapped by our nats.conf, or as sent (a server without it)
            for subject in (P.partition_wildcard("*"), P.INTENT_WILDCARD):
                self._subs.append(await self.nc.subscribe(subject, queue=P.REFEREE_QUEUE,
                                                          cb=self._on_intent_arrival))
        else:   # our partitions; a second referee with the same share stands by in each queue
            for k in P.share_partitions(self.share):
                self._subs.append(await self.nc.subscribe(P.partition_wildcard(k), queue=f"{P.REFEREE_QUEUE}.p{k}",
                                                          cb=self._on_intent_arrival))
        await self.resume_all()

    async def stop(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        if self.nc is not None and not self.nc.is_closed:
            await self.nc.close()

    async def kill(self) -> None:
        """Stop as a crash would: no goodbye, whatever was under way is lost."""
        for t in list(self._tasks):
            t.cancel()
        if self.nc is not None and not self.nc.is_closed:
            await self.nc.close()

    def _spawn(self, handler):
        # Each message gets its own task so that tables proceed in parallel; each
        # table's lock (FIFO) keeps one table's intents in arrival order.
        async def cb(msg):
            task = asyncio.create_task(self._guard(handler, msg))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return cb

    async def _guard(self, handler, msg):
        try:
            await handler(msg)
        except asyncio.CancelledError:
            raise
        except Exception:   # one bad table must not stop the referee
            log.exception("referee: handling %s failed", msg.subject)

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
                if e.code != 503 or time.monotonic() > deadline:   # 503: no leader just now
                    raise
            self.stats["retries"] += 1
            await asyncio.sleep(0.2)

    async def _read_log(self, code: str, after: int = 0) -> list[tuple[int, dict]]:
        """The log's records with a stream sequence above `after`."""
        subject, out, seq = P.log_subject(code), [], after + 1
        while True:
            try:
                raw = await self._patiently(lambda: self.js.get_msg(P.LOG_STREAM, seq=seq, subject=subject,
                                                                     next=True))
            except NotFoundError:
                return out
            out.append((raw.seq, json.loads(raw.data)))
            seq = raw.seq + 1

    async def load(self, code: str) -> Table | None:
        """The table as its log says (None when there is no such table). A table already
        known is brought up to date from its last record read, not replayed again."""
        table = self.tables.get(code)
        records = await self._read_log(code, table.last_seq if table is not None else 0)
        if table is None:
            if not records or records[0][1].get("type") != "table":
                return None
            seq0, head = records.pop(0)
            match = Match(head["game"], head["seats"], head["seed"], head["setup"])
            table = Table(code, match, head["salt"], head["commitment"], last_seq=seq0)
        for seq, rec in records:
            kind = rec.get("type")
            if kind == "join":
                table.joined[rec["seat"]] = {"name": rec["name"], "user": rec["user"]}
            elif kind == "leave":
                table.joined.pop(rec["seat"], None)
            elif kind == "driver":
                table.driver = rec["name"]
            elif kind == "void":
                table.voids.append({"round": rec["round"], "n": rec["n"], "reason": rec["reason"]})
            elif kind == "action":
                void = next((v for v in table.voids if v["n"] == table.n), None)
                self._apply(table, table.match.state.action_from_json(rec["action"]),
                            f"Round {void['round']} is void: {void['reason']}." if void else None)
            elif kind == "end":
                table.ended = True
            table.last_seq = seq
        self.tables[code] = table
        return table

    async def table(self, code: str) -> Table | None:
        return self.tables.get(code) or await self.load(code)

    async def resume_all(self) -> None:
        """Read every game's log and carry on the unfinished ones (after a fail-over)."""
        try:
            info = await self.js.stream_info(P.LOG_STREAM, subjects_filter=P.LOG_SUBJECTS)
        except NotFoundError:
            return
        for subject in sorted((info.state.subjects or {}).keys()):
            code = subject.rsplit(".", 1)[-1]
            last = await self.js.get_last_msg(P.LOG_STREAM, subject)
            if json.loads(last.data).get("type") == "end":
                continue   # finished games are read only when someone asks for them
            async with self._lock_for(code):
                table = await self.load(code)
                if table is None or table.status != "playing":
                    continue
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
        state = table.match.state
        actor = state.actor(action)
        hidden = hidden_from(state, action, actor)
        entry_log = table.match.apply(action)
        entry = {"n": entry_log.index, "seat": actor, "text": text or entry_log.text,
                 "action": state.action_to_json(action),
                 "events": [getattr(ev, "text", str(ev)) for ev in entry_log.events]}
        table.entries.append(entry)
        table.hidden.append(hidden)
        return entry

    async def _commit(self, table: Table, action, text: str | None = None) -> dict:
        state = table.match.state
        record = {"type": "action", "n": table.n, "seat": state.actor(action),
                  "action": state.action_to_json(action)}
        await self._append(table, record)
        entry = self._apply(table, action, text)
        await self._publish_entry(table, entry)
        return entry

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
            action = self._next_automatic(table)
            if action is None:
                break
            try:
                await self._commit(table, action)
            except Conflict:   # another referee is driving this game: take its log as it is
                table = await self.load(table.code)
        if table.match.is_over() and not table.ended:
            await self._end(table)

    async def _end(self, table: Table) -> None:
        m = table.match
        record = {"type": "end", "returns": m.state.returns(), "scores": m.state.scores()}
        try:
            await self._append(table, record)
        except Conflict:
            await self.load(table.code)
            return
        table.ended = True
        end = self._end_message(table)
        await self.nc.publish(P.public_subject(table.code), P.encode(end))
        for s in table.joined:
            await self.nc.publish(P.private_subject(table.code, s), P.encode(end))
        if self.authorizer is not None:
            task = asyncio.create_task(self._revoke_later(table.code))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _revoke_later(self, code: str) -> None:
        await asyncio.sleep(self.revoke_after_end_s)
        try:
            await self.authorizer.revoke_table(code)
        except Exception:   # the server is gone or its folder unwritable: the seats stay until it restarts
            log.exception("referee: revoking table %s's credentials failed", code)

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

    def _end_message(self, table: Table) -> dict:
        m = table.match
        return {"type": "end", "table": table.code, "returns": m.state.returns(), "scores": m.state.scores(),
                "seed": m.seed, "salt": table.salt, "seed_commitment": table.commitment,
                "save": m.to_json(), "voids": list(table.voids)}

    def _seat_update(self, table: Table, seat: int, entry: dict | None) -> dict:
        state = table.match.state
        to_move = state.current_player()
        msg = {"type": "update", "table": table.code, "n": table.n, "status": table.status,
               "to_move": to_move, "observation": state.observation(seat),
               "legal": [state.action_to_json(a) for a in state.legal_actions(seat)]
               if to_move in (seat, SIMULTANEOUS) and table.status == "playing" else None}
        if entry is not None:
            msg["entry"] = entry_view(entry, table.match.names, seat not in table.hidden[entry["n"]])
        return msg

    async def _publish_entry(self, table: Table, entry: dict) -> None:
        public = entry_view(entry, table.match.names, not table.hidden[entry["n"]])
        await self.nc.publish(P.public_subject(table.code),
                              P.encode({"type": "entry", "table": table.code, "n": table.n,
                                        "to_move": table.match.state.current_player(), "entry": public}))
        for s in table.joined:
            await self.nc.publish(P.private_subject(table.code, s), P.encode(self._seat_update(table, s, entry)))

    def _sync_message(self, table: Table, seat: int, since: int) -> dict:
        m = table.match
        msg = self._seat_update(table, seat, None)
        msg.update({"type": "sync", "since": since, "game": m.game_id, "setup": m.initial_setup,
                    "seats": m.seats, "seat": seat, "seed_commitment": table.commitment,
                    "joined": {str(s): j["name"] for s, j in table.joined.items()},
                    "entries": [entry_view(e, m.names, seat not in table.hidden[e["n"]])
                                for e in table.entries[since:]], "voids": list(table.voids)})
        if table.ended:
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
        rt = self.realtime.get(code)
        if rt is not None and self.tables[code].status == "playing":   # else refused below
            try:
                intent = P.check_intent(P.decode(msg.data, P.MAX_INTENT_BYTES, "the intent"))
            except P.ProtocolError:
                intent = None   # refused by the usual path below
            if intent is not None and intent["type"] == "act":
                rt.arrive(arrived, seat, intent)
                return
        task = asyncio.create_task(self._guard(lambda m: self._on_intent(m, arrived), msg))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
        table = await self.table(code)
        if table is None:
            return _refusal(f"there is no table {code}", iid)
        if "seat" in intent and intent["seat"] != seat:
            return _refusal(f"you are seat {seat}; you cannot act for seat {intent['seat']}", iid)
        if seat not in table.joined:
            return _refusal(f"seat {seat} of table {code} has not been taken", iid)
        if intent["type"] == "leave":
            return await self._leave(table, seat)
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
        except (ValueError, TypeError, KeyError, IndexError) as e:
            return _refusal(f"malformed action for {table.match.game_id}: {str(e)[:200]}", iid)
        if not legal:
            return _refusal(f"illegal action: {json.dumps(intent['action'])[:200]} is not one of your "
                            f"{len(state.legal_actions(seat))} legal actions", iid)
        try:
            await self._commit(table, action)
        except Conflict:
            await self.load(code)
            return _refusal("stale: another move was recorded first; sync and try again", iid)
        except IllegalActionError as e:   # cannot happen after the check above; say so plainly
            return _refusal(f"illegal action: {e}", iid)
        await self._drive(self.tables[code])
        return None

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
        if msg.reply:
            await self.nc.publish(msg.reply, P.encode({"type": "reply", **body}))

    async def _on_host(self, msg) -> None:
        try:
            body = await self._host(P.decode(msg.data, P.MAX_LOBBY_BYTES, "the request"))
        except (P.ProtocolError, ValueError) as e:
            body = {"ok": False, "reason": str(e)[:300]}
        await self._reply(msg, body)

    async def _host(self, req: dict) -> dict:
        game, seats, names = req.get("game"), req.get("seats"), req.get("names")
        try:
            rules = rules_for(game) if isinstance(game, str) else None
        except ValueError:
            rules = None
        if rules is None:
            raise P.ProtocolError(f"there is no game {str(game)[:40]!r}")
        if not isinstance(seats, list):
            raise P.ProtocolError("\"seats\" must list each seat: human, random or ai:<level>")
        check_seats(rules, seats)
        if HUMAN not in seats:
            raise P.ProtocolError("an online table needs at least one human seat")
        if names is None:
            names = [f"Player {i + 1}" for i in range(len(seats))]
        options = req.get("options") or {}
        if not isinstance(options, dict):
            raise P.ProtocolError("\"options\" must be an object")
        if len(self.tables) >= P.MAX_TABLES:
            raise P.ProtocolError("this referee hosts as many tables as it can; try again later")
        setup = {**rules.default_setup(len(seats)), **options, "players": names}
        seed = secrets.randbits(63)
        if self.allow_chosen_seed and type(req.get("seed")) is int:
            seed = req["seed"]
        try:
            match = Match(rules, seats, seed, setup)
        except ValueError as e:
            raise P.ProtocolError(f"the setup cannot start a game of {game}: {e}") from None
        if rules.spec.real_time and setup.get("round_limit_ms", 1) <= 0:
            # a round a change of referee interrupts is voided by running out its time limit
            raise P.ProtocolError(f"{game} online needs timed rounds (round_limit_ms above 0)")
        salt = secrets.token_hex(16)
        for _ in range(20):
            code = P.new_table_code()
            table = Table(code, match, salt, P.seed_commitment(seed, salt))
            record = {"type": "table", "game": match.game_id, "setup": setup, "seats": seats, "seed": seed,
                      "salt": salt, "commitment": table.commitment, "created": time.time()}
            try:
                await self._append(table, record)   # expects an empty subject: a new code
            except Conflict:
                continue
            self.tables[code] = table
            return {"ok": True, "table": code, "game": match.game_id, "seats": seats, "names": names,
                    "seed_commitment": table.commitment}
        raise P.ProtocolError("no free table code; try again")

    async def _on_join(self, msg) -> None:
        try:
            req = P.decode(msg.data, P.MAX_LOBBY_BYTES, "the request")
            code = P.check_code(req.get("table"))
            async with self._lock_for(code):
                body, table = await self._join(code, req)
        except (P.ProtocolError, ValueError) as e:
            body, table = {"ok": False, "reason": str(e)[:300]}, None
        await self._reply(msg, body)
        if table is not None:
            async with self._lock_for(code):
                for s in table.joined:   # who is seated now, and whether the game (re)starts
                    if s != body.get("seat"):
                        await self.nc.publish(P.private_subject(code, s), P.encode(self._seat_update(table, s, None)))
                if table.status == "playing" and table.match.rules.spec.real_time:
                    rt = self.realtime.get(code)
                    if rt is not None:
                        rt.wake.set()   # a seat taken again: the paused clock runs on
                    else:
                        await self._own_realtime(table, wake=True)
                elif table.status == "playing":
                    await self._drive(table)

    async def _join(self, code: str, req: dict):
        key = req.get("key")
        if not isinstance(key, str) or len(key) != 64:
            raise P.ProtocolError("a join needs \"key\": 64 hex digits to seal your password with")
        table = await self.load(code)   # another referee may have seated someone: read the log
        if table is None:
            raise P.ProtocolError(f"there is no table {code}")
        free = [s for s in table.human_seats() if s not in table.joined]
        seat = req.get("seat")
        if seat is None:
            if not free:
                raise P.ProtocolError(f"every seat at table {code} is taken")
            seat = free[0]
        if type(seat) is not int or seat not in table.human_seats():
            raise P.ProtocolError(f"seat {seat!r} is not a human seat of table {code}")
        if seat in table.joined:
            raise P.ProtocolError(f"seat {seat} of table {code} is taken")
        if self.authorizer is None:
            raise P.ProtocolError("this referee cannot issue credentials (started with --nats and no "
                                  "--auth-dir); ask the operator")
        user, password = await self.authorizer.issue(code, seat)
        name = table.match.names[seat]
        try:
            await self._append(table, {"type": "join", "seat": seat, "name": name, "user": user})
        except Conflict:
            await self.load(code)
            raise P.ProtocolError("the table changed while you joined; try again") from None
        table.joined[seat] = {"name": name, "user": user}
        return ({"ok": True, "table": code, "seat": seat, "user": user, "password_sealed": P.seal(password, key),
                 "game": table.match.game_id, "names": table.match.names,
                 "seed_commitment": table.commitment}, table)

    async def _on_look(self, msg) -> None:
        try:
            req = P.decode(msg.data, P.MAX_LOBBY_BYTES, "the request")
            code = P.check_code(req.get("table"))
            async with self._lock_for(code):
                table = await self.load(code)   # another referee may be running it: read the log
            if table is None:
                raise P.ProtocolError(f"there is no table {req.get('table')}")
            body = {"ok": True, "table": table.code, "game": table.match.game_id, "seats": table.match.seats,
                    "names": table.match.names, "status": table.status,
                    "joined": {str(s): j["name"] for s, j in table.joined.items()}}
            if table.ended:   # everything is public once the seed is: a seat revoked meanwhile reads it here
                body["end"] = self._end_message(table)
        except (P.ProtocolError, ValueError) as e:
            body = {"ok": False, "reason": str(e)[:300]}
        await self._reply(msg, body)
