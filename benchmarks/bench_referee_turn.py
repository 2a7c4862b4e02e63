"""The referee's own CPU per player turn, without NATS: the real Referee handles each
intent (decode, checks, the rules' apply and chance draw, the views, the log record and
the updates, encoded) while fakes stand in for the NATS connection and JetStream.

    python benchmarks/bench_referee_turn.py [--tables 40] [--profile]

Random legal moves at `--tables` tables of 10 Days, two seats each, until every game is
over. What it leaves out is what bench_online.py measures with the real server: nats-py,
asyncio's tasks, the sockets. CPU time, so the machine's other work hardly moves it.
Figures: see the notes at the end of this file and benchmarks/ONLINE.md.
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import random
import time
from types import SimpleNamespace

from stateside.engine.match import rules_for
from stateside.online import protocol as P
from stateside.online.referee import Limits, Referee, Table, new_match


class FakeConnection:
    """Counts what the referee publishes."""

    def __init__(self):
        self.messages = 0
        self.bytes = 0

    async def publish(self, subject, payload=b"", reply="", headers=None):
        self.messages += 1
        self.bytes += len(payload)

    async def flush(self):
        pass


class FakeJetStream:
    """Every append succeeds, in order."""

    def __init__(self):
        self.seq = 0

    async def publish(self, subject, payload, stream=None, headers=None):
        self.seq += 1
        return SimpleNamespace(seq=self.seq, duplicate=False)


async def run(tables: int, profile: bool) -> None:
    ref = Referee("nats://unused", limits=Limits.generous())
    ref.nc, ref.js = FakeConnection(), FakeJetStream()
    rules = rules_for("ten-days")
    live = []
    for g in range(tables):
        table = Table(P.new_table_code(), new_match(rules, ["human", "human"], g, rules.default_setup(2)), "salt", "c")
        table.joined = {0: {"name": "Ann", "user": "u0"}, 1: {"name": "Bob", "user": "u1"}}
        ref.tables[table.code] = table
        await ref._drive(table)   # the deal
        live.append(table)
    rng = random.Random(1)
    intents = []
    prof = cProfile.Profile(time.process_time) if profile else None
    turns, cpu = 0, 0.0
    while live:
        for table in list(live):
            if table.ended:
                live.remove(table)
                continue
            state = table.match.state
            seat = state.current_player()
            legal = state.legal_actions(seat)
            action = state.action_to_json(legal[rng.randrange(len(legal))])
            intents.append(P.encode({"type": "act", "n": table.n, "action": action, "id": "x"}))
            start = time.process_time()   # the referee's part only, not the players' choice
            if prof:
                prof.enable()
            reply = await ref._handle_intent(table.code, seat, intents[-1])
            if prof:
                prof.disable()
            cpu += time.process_time() - start
            if reply is not None:
                raise SystemExit(f"the referee refused a legal move: {reply}")
            turns += 1
    print(f"{tables} tables of 10 Days played out: {turns} player turns, {1000 * cpu / turns:.4f} ms of the "
          f"referee's CPU per turn; {ref.nc.messages / turns:.2f} messages, {ref.nc.bytes / turns:.0f} bytes "
          f"published a turn")
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--profile", action="store_true", help="cProfile (CPU time) of the referee's part")
    a = parser.parse_args()
    if not 1 <= a.tables <= 10_000:
        parser.error("--tables must be 1 to 10000")
    asyncio.run(run(a.tables, a.profile))


# Notes (CPU time; the machine's 2 cores shared, every run at nice 10):
# 2026-12-02 02:13 UTC, load 3.5: main 88441e8 0.1008 and 0.0998 ms a turn; after issue 23
#   item 3 (orjson, the status and the turn's updates read once, no second _drive) 0.0711 and
#   0.0691. 3.01 messages and 1662 bytes published a turn either way.
# 01:59-02:02 UTC, load about 6: main 0.118-0.128 ms, after 0.076-0.102.
