"""Partitioned referees through a real nats-server: four referees, each with a share of
the 16 partitions, host, seat and play many tables to the end through the real seating
path (the lobby, credentials issued by rewriting the server's users, the seats'
connections); each game is exactly the local seeded match. The table count is 40 in
the default suite and STATESIDE_PARTITION_TABLES (200 in .ci/run) otherwise.

Also: our hash of a table code is the server's partition() (held against the mapping
the server applies), a log is read in batches, and a starting referee loads only its
own tables, several at once."""
from __future__ import annotations

import asyncio
import json
import os
import time

import pytest

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.online import client as C  # noqa: E402
from stateside.online import protocol as P  # noqa: E402
from stateside.online import referee as R  # noqa: E402
from stateside.online.auth import JwtAuthorizer  # noqa: E402
from stateside.online.server import NatsServer, find_nats_server  # noqa: E402
from test_online_play import local_match, seeded_random  # noqa: E402

pytestmark = pytest.mark.skipif(find_nats_server() is None,
                                reason="nats-server is not installed (pip install '.[online]')")

TABLES = int(os.environ.get("STATESIDE_PARTITION_TABLES", "40"))
GAME, SEATS, OPTIONS = "ten-days", ["human", "human"], {"turn_limit": 4}


@pytest.fixture
def srv(tmp_path):
    s = NatsServer(tmp_path / "nats").start()
    yield s
    s.stop()


def referees(srv, k: int) -> list[R.Referee]:
    """k referees as k processes of `stateside server --nats` would be: each its own
    authorizer over the server's data folder, each a share i/k."""
    return [R.Referee(srv.referee_url(), authorizer=JwtAuthorizer(srv.trust, srv.url),
                      allow_chosen_seed=True, share=(i + 1, k), limits=R.Limits.generous(),
                      name=f"referee-{i + 1}of{k}")
            for i in range(k)]


def test_our_partition_of_a_code_is_the_servers(srv):
    codes = sorted({P.new_table_code() for _ in range(60)})

    async def go():
        nc = await nats.connect(srv.referee_url(), **srv.referee_options())
        seen = {}

        async def cb(msg):
            parts = msg.subject.split(".")   # ss.p.<k>.t.<code>.in.0
            seen[parts[4]] = int(parts[2])
        await nc.subscribe(P.partition_wildcard("*"), cb=cb)
        for code in codes:
            await nc.publish(P.intent_subject(code, 0), b"{}")
        await nc.flush()
        for _ in range(100):
            if len(seen) == len(codes):
                break
            await asyncio.sleep(0.02)
        await nc.close()
        return seen

    seen = asyncio.run(go())
    assert seen == {code: P.partition_of(code) for code in codes}
    assert len(set(seen.values())) > 8   # the codes spread over the partitions


def test_four_referees_play_many_tables_to_the_end(srv):
    guest = srv.guest_url()
    figures = {}

    async def go():
        refs = referees(srv, 4)
        await asyncio.gather(*(r.start() for r in refs))
        try:
            t0 = time.perf_counter()

            async def one(i):
                seed = 1000 + i
                # the host asks whichever referee the lobby's queue picks; the joins too
                host = await C.host_table(guest, GAME, SEATS, None, OPTIONS, seed=seed)
                creds = await asyncio.gather(*(C.join_table(guest, host["table"], s) for s in (0, 1)))
                clients = [await C.SeatClient(guest, c).connect() for c in creds]
                return seed, host, clients
            tables = await asyncio.gather(*(one(i) for i in range(TABLES)))
            figures["seating_s"] = time.perf_counter() - t0
            t1 = time.perf_counter()
            await asyncio.gather(*(c.play(seeded_random(seed), timeout=120)
                                   for seed, _, clients in tables for c in clients))
            figures["play_s"] = time.perf_counter() - t1
            results = [(seed, host, [c.verify() for c in clients]) for seed, host, clients in tables]
            for _, _, clients in tables:
                for c in clients:
                    await c.close()
            return results, [dict(r.stats) for r in refs], [set(r.tables) | set(r._locks) for r in refs]
        finally:
            await asyncio.gather(*(r.stop() for r in refs))

    results, stats, touched = asyncio.run(go())
    assert len(results) == TABLES
    for seed, host, (m0, m1) in results:
        setup = {**m0.initial_setup}
        local = local_match(GAME, SEATS, seed, setup)
        assert m0.actions == m1.actions == local.actions, host["table"]
        assert m0.state.returns() == local.state.returns()
    # each table was served by its owner alone: no conditional append lost a race
    assert sum(s["conflicts"] for s in stats) == 0, stats
    owners = {code: i for i, codes in enumerate(touched) for code in codes}
    for _, host, _ in results:
        assert owners[host["table"]] == P.partition_of(host["table"]) % 4, host["table"]
        assert sum(host["table"] in codes for codes in touched) == 1
    assert all(s["appends"] > 0 for s in stats)   # every referee had tables of its own
    assert sum(s["handed"] for s in stats) > 0    # joins that reached another referee went to the owner
    print(f"\n{TABLES} tables, 4 referees: seating {figures['seating_s']:.1f} s, play {figures['play_s']:.1f} s")


def test_a_log_is_read_in_batches_and_a_starting_referee_loads_its_tables_at_once(srv, monkeypatch):
    guest = srv.guest_url()
    monkeypatch.setattr(R, "LOG_BATCH", 3)   # a game's log is several batches here

    async def go():
        ref = R.Referee(srv.referee_url(), authorizer=JwtAuthorizer(srv.trust, srv.url),
                        allow_chosen_seed=True, limits=R.Limits.generous())
        await ref.start()
        codes = []
        try:
            for i in range(8):
                host = await C.host_table(guest, GAME, ["human", "random"], None, OPTIONS, seed=50 + i)
                codes.append(host["table"])
            creds = await C.join_table(guest, codes[0], 0)
            client = await C.SeatClient(guest, creds).connect()
            await client.play(seeded_random(50), timeout=60)
            await client.close()
            full = await ref._read_log(codes[0])
        finally:
            await ref.stop()
        # the same records, one by one, as JetStream's plain get gives them
        nc = await nats.connect(srv.referee_url(), **srv.referee_options())
        js, one_by_one, seq = nc.jetstream(), [], 1
        while True:
            try:
                raw = await js.get_msg(P.LOG_STREAM, seq=seq, subject=P.log_subject(codes[0]), next=True)
            except Exception:
                break
            one_by_one.append((raw.seq, json.loads(raw.data)))
            seq = raw.seq + 1
        await nc.close()

        # A referee with share 1/2 starts: it reads only the tables of its partitions,
        # several at once.
        mine = [c for c in codes if P.partition_of(c) % 2 == 0]
        calls, busy, most = [], [0], [0]
        starter = R.Referee(srv.referee_url(), share=(1, 2), limits=R.Limits.generous(),
                            connect_options=srv.referee_options())
        original = starter._resume

        async def counted(subject, code):
            calls.append(code)
            busy[0] += 1
            most[0] = max(most[0], busy[0])
            try:
                await original(subject, code)
            finally:
                busy[0] -= 1
        starter._resume = counted
        await starter.start()
        await starter.stop()
        return full, one_by_one, codes, mine, calls, most[0]

    full, one_by_one, _, mine, calls, most = asyncio.run(go())
    assert len(full) > 3 * 3 and full == one_by_one
    assert [rec["type"] for _, rec in full][:2] == ["table", "join"] and full[-1][1]["type"] == "end"
    assert sorted(calls) == sorted(mine)
    assert most == min(len(mine), R.RESUME_AT_ONCE) or len(mine) < 2
