"""Real-time tables (GameSpec.real_time: Scrambled States) at the referee.

The fairness rule (ARCHITECTURE.md, "Real time"): the referee stamps every intent the
moment it arrives, with its own monotonic clock mapped onto the game's time axis; the
time a client writes in its action is ignored. Intents are taken in arrival order, each
at its arrival time, after everything the game's clock brings before that time (the die
landing, a tie window closing, a computer's planned slap). The game's own rules then
decide: the first correct slap to arrive is pending, a correct slap on another card
arriving within the tie window (200 ms by default) ties, the same card later is "a
moment too late". A round that a change of referee interrupts is void.

One referee drives a real-time table at a time: it answers on the table's owner subject
(`ss.rt.<T>.owner`), where another referee that received an intent for the table
forwards it. A referee that finds nobody there takes the table over: it logs a `void`
record, runs the interrupted round's clock out (the round ends void, or as its logged
slaps decide it) and deals the next round.

Scrambled States is the one real-time game: its seat actions ("slap", "no-match",
"buzz", each [kind, seat, time, card?]) and its rounds (`state.round`, `state.to_draw`)
are read here by name, without importing the game. Another real-time game would need the
same names, or a protocol method for "the round in progress".
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any, Protocol

from stateside.errors import IllegalActionError
from stateside.online import protocol as P
from stateside.play.realtime import CHANCE_DUE, GameClock, due_by, next_due_ms

log = logging.getLogger("stateside.referee")
SEAT_KINDS = ("slap", "no-match", "buzz")
VOID_REASON = "the table changed referee mid-round"


class TableHost(Protocol):
    """What a real-time table needs of the referee that drives it (referee.Referee is one):
    the tables it knows, their locks, the log and the automatic actions."""
    nc: Any
    name: str
    tables: dict
    realtime: dict
    stats: dict

    def lock_for(self, code: str) -> asyncio.Lock: ...
    def background(self, coro) -> asyncio.Task: ...
    async def load(self, code: str) -> Any: ...
    async def append(self, table, record: dict) -> None: ...
    async def commit(self, table, action, text: str | None = None) -> dict: ...
    def next_automatic(self, table) -> Any: ...
    async def end(self, table) -> None: ...


def owner_subject(code: str) -> str:
    return f"{P.PREFIX}.rt.{code}.owner"


class RealTimeTable:
    """The referee's clock and intent queue for one real-time table it drives."""

    def __init__(self, referee: TableHost, code: str):
        self.referee = referee
        self.code = code
        self.queue: asyncio.Queue = asyncio.Queue()   # (arrival monotonic s, seat, intent), in arrival order
        self.wake = asyncio.Event()                   # the table's status changed (a seat left or came back)
        self.task: asyncio.Task | None = None
        self.sub = None
        self.clock = GameClock(time.monotonic)   # monotonic seconds <-> game milliseconds
        self.paused = False   # waiting for an empty seat to be taken: the game's clock stands still

    # --- the clock (play.realtime's, as at every screen) -----------------------------------
    def restart_clock(self, game_now: int) -> None:
        """Game time `game_now` is now; it runs with the wall clock from here."""
        self.clock.restart(game_now)

    def game_time(self, mono: float) -> int:
        return self.clock.game_time(mono)

    def mono_at(self, game_t: int) -> float:
        return self.clock.mono_at(game_t)

    def poke(self) -> None:
        """The table's status changed (a seat left): the driver looks again at once."""
        self.queue.put_nowait(None)

    def arrive(self, arrived: float, seat: int, intent: dict) -> None:
        """An act intent, stamped when it arrived (before any waiting)."""
        self.queue.put_nowait((arrived, seat, intent))

    # --- life -------------------------------------------------------------------------------
    async def start(self) -> None:
        ref = self.referee
        self.sub = await ref.nc.subscribe(owner_subject(self.code), cb=self._on_forward)
        table = ref.tables[self.code]
        self.restart_clock(table.match.state.now())
        self.task = ref.background(self._run())

    async def stop(self) -> None:
        if self.sub is not None:
            try:
                await self.sub.unsubscribe()
            except Exception:   # the connection is already closed
                pass
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()

    async def _on_forward(self, msg) -> None:
        """Another referee got an intent for this table (or a join that restarts it)."""
        arrived = time.monotonic()
        try:
            body = json.loads(msg.data)
            if body.get("kind") == "intent":
                intent = P.check_intent(P.decode(body["data"].encode(), P.MAX_INTENT_BYTES, "the intent"))
                if intent["type"] == "act":
                    self.arrive(arrived, int(body["seat"]), intent)
            elif body.get("kind") == "wake":   # the table changed at another referee: look again
                self.wake.set()
                self.poke()
        except (ValueError, KeyError, TypeError, P.ProtocolError):
            pass   # only referees may publish here; a bad forward is dropped
        if msg.reply:
            await self.referee.nc.publish(msg.reply, b'{"ok":true}')

    # --- driving ----------------------------------------------------------------------------
    async def _run(self) -> None:
        ref = self.referee
        try:
            while True:
                try:
                    if not await self._step():
                        break
                except P.Conflict:   # another referee wrote the log (a seat left there): read it again
                    async with ref.lock_for(self.code):
                        table = await ref.load(self.code)
                    if table.driver != ref.name:   # another referee took the table over: it drives now
                        break
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("referee: the real-time table %s stopped", self.code)
        finally:
            if ref.realtime.get(self.code) is self:
                del ref.realtime[self.code]
            await self.stop()

    async def _step(self) -> bool:
        """Take what is due, then wait for the next intent or moment; False once the game is over."""
        ref = self.referee
        async with ref.lock_for(self.code):
            table = ref.tables[self.code]
            if table.ended:
                return False
            paused = table.status != "playing"
            if paused:
                self.wake.clear()   # under the lock: a join that restarts us sets it after
            else:
                await self.catch_up(self.game_time(time.monotonic()))
                table = ref.tables[self.code]
                if table.match.is_over():
                    await ref.end(table)
                    return False
                t_next = next_due_ms(table.match)
                wait_until = self.mono_at(t_next) if t_next is not None else None
        if paused:   # a seat left: the game's clock stops until the seat is taken again
            self.paused = True
            try:
                await self.wake.wait()
            finally:
                self.paused = False
            async with ref.lock_for(self.code):
                table = await ref.load(self.code)
                self.restart_clock(table.match.state.now())
            return True
        timeout = None if wait_until is None else max(0.0, wait_until - time.monotonic())
        try:
            item = await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return True   # a deadline or a computer's moment: the next step's catch_up takes it
        if item is None:   # a seat left (here, or at another referee): read the log again
            async with ref.lock_for(self.code):
                await ref.load(self.code)
            return True
        arrived, seat, intent = item
        async with ref.lock_for(self.code):
            reply = await self.take(seat, intent, arrived)
        if reply is not None:
            ref.stats["refusals"] += 1
            await ref.nc.publish(P.private_subject(self.code, seat), P.encode(reply))
        return True

    async def catch_up(self, t: int) -> None:
        """Commit everything the game's clock brings up to game time t: chance draws,
        deadlines, computers' planned actions, in time order; then time itself."""
        ref = self.referee
        # play.realtime's clock loop, the one every screen runs; here each action is committed
        # to the table's log, and a chance outcome is the referee's own draw.
        for action in due_by(lambda: ref.tables[self.code].match, t):
            table = ref.tables[self.code]
            await ref.commit(table, ref.next_automatic(table) if action is CHANCE_DUE else action)

    async def take(self, seat: int, intent: dict, arrived: float) -> dict | None:
        """One seat's intent, at the game time of its arrival; a refusal or None."""
        ref = self.referee
        iid = intent.get("id", "")
        table = ref.tables[self.code]
        if seat not in table.joined:
            return P.refusal(f"seat {seat} of table {self.code} has not been taken", iid)
        if table.status != "playing":
            return P.refusal("the game is over" if table.ended else "the table is still waiting for players", iid)
        if "seat" in intent and intent["seat"] != seat:
            return P.refusal(f"you are seat {seat}; you cannot act for seat {intent['seat']}", iid)
        t = max(self.game_time(arrived), table.match.state.now())
        await self.catch_up(t)
        table = ref.tables[self.code]
        state = table.match.state
        if table.match.is_over():
            return P.refusal("the game is over", iid)
        raw = intent["action"]
        if not (isinstance(raw, list) and raw and raw[0] in SEAT_KINDS):
            return P.refusal(f"malformed action for {table.match.game_id}: a move is [\"slap\", seat, time, "
                            "card], [\"no-match\", seat, time] or [\"buzz\", seat, time]", iid)
        if len(raw) >= 2 and raw[1] != seat:
            return P.refusal(f"you are seat {seat}; you cannot act for seat {raw[1]}", iid)
        # The client's time is not trusted: the action happens when it arrived.
        try:
            action = state.action_from_json([raw[0], seat, state.now(), *raw[3:4]])
        except (ValueError, TypeError) as e:
            return P.refusal(f"malformed action for {table.match.game_id}: {str(e)[:200]}", iid)
        number = state.round.number if state.round is not None and not state.to_draw else None
        if "round" in intent and intent["round"] != number:
            return P.refusal(f"stale: round {intent['round']} is over (this is round {number}); "
                            "your action came too late", iid)
        if action not in state.legal_actions(seat):
            try:
                state.clone().apply_action(action)
                why = "not one of your legal actions"
            except IllegalActionError as e:   # the game's own words: "Wait for the die to land."
                why = str(e)
            return P.refusal(f"illegal action: {why}", iid)
        try:
            await ref.commit(table, action)
        except P.Conflict:   # another referee wrote this table's log: it is no longer ours
            await ref.load(self.code)
            return P.refusal("stale: another move was recorded first; sync and try again", iid)
        return None


async def void_interrupted_round(referee: TableHost, table, reason: str = VOID_REASON):
    """A referee taking over a real-time table mid-round: log a void for the round and
    run its clock out, deadline by deadline, so that the game deals a new round. A round
    whose correct slap is already in the log closes as the log says (its tie window
    ends); otherwise nobody wins it. Returns the table as it is afterwards."""
    state = table.match.state
    if state.is_terminal() or state.to_draw or state.round is None:
        return table   # between rounds (dealing) or over: nothing is interrupted
    number = state.round.number
    first = not state.round.pending   # a round with a logged correct slap is decided, not void
    if first:
        await referee.append(table, {"type": "void", "round": number, "n": table.n, "reason": reason})
        table.voids.append({"round": number, "n": table.n, "reason": reason})
    while not state.is_terminal() and not state.to_draw and state.round.number == number:
        deadline = state.next_deadline()
        if deadline is None:   # untimed rounds are refused at hosting; never wait forever
            break
        text = f"Round {number} is void: {reason}." if first else None
        await referee.commit(table, state.advance_action(deadline), text=text)
        first = False
        state = table.match.state
    return table
