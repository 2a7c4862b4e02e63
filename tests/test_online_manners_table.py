"""The manners of an online table at the referee (issue 23, items 4 and 5), through a real
nats-server: a seat resigns (the end, logged, names who; the resigner last, the others
sharing the win); a seat whose heartbeats stop is "lost" to the others and "back" at its
next one (with a test's clock: no waiting), nothing of it logged; finished public tables
are listed apart from live ones, the most recent first, and replay from the server."""
from __future__ import annotations

import asyncio
import time

import pytest

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.engine.match import Match  # noqa: E402
from stateside.online import client as C  # noqa: E402
from stateside.online import protocol as P  # noqa: E402
from stateside.online import referee as R  # noqa: E402
from stateside.online.server import NatsServer, find_nats_server  # noqa: E402

pytestmark = pytest.mark.skipif(find_nats_server() is None,
                                reason="nats-server is not installed (pip install '.[online]')")


@pytest.fixture
def srv(tmp_path):
    s = NatsServer(tmp_path / "nats").start()
    yield s
    s.stop()


async def until(condition, *clients, timeout: float = 10.0) -> None:
    """Wait for the clients' news until condition() holds (no fixed sleep)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("the awaited message did not come")
        await asyncio.gather(*(c.wait_change(0.2) for c in clients), return_exceptions=True)


async def seated(guest, code, names):
    return [await C.SeatClient(guest, await C.join_table(guest, code, s, name)).connect()
            for s, name in enumerate(names)]


def referee(srv, **kw) -> R.Referee:
    return R.Referee(srv.referee_url(), authorizer=srv.authorizer, allow_chosen_seed=True, **kw)


def test_a_seat_resigns_the_game_ends_with_the_resigner_last_and_everyone_told(srv):
    guest = srv.guest_url()

    async def go():
        ref = referee(srv)
        await ref.start()
        try:
            code = (await C.host_table(guest, "ten-days", ["human", "human", "human"], public=True, seed=5))["table"]
            first = await seated(guest, code, ["Ann"])
            with pytest.raises(C.OnlineError, match="not started"):   # nobody there yet: leave instead
                await first[0].resign()
            others = [await C.SeatClient(guest, await C.join_table(guest, code, s, name)).connect()
                      for s, name in ((1, "Gil"), (2, "Bo"))]
            seats = first + others
            watcher = await C.Spectator(guest, code).connect()
            await until(lambda: all(c.status == "playing" for c in seats), *seats)
            await seats[1].resign()   # Gil
            await until(lambda: all(c.end is not None for c in seats) and watcher.end is not None, *seats, watcher)
            for end in [c.end for c in seats] + [watcher.end]:
                assert end["resigned"] == {"seat": 1, "name": "Gil"}
                assert end["returns"] == [0.5, 0.0, 0.5]   # Gil last, the two others share the win
            match = seats[0].verify()   # the whole log, checked against the seed, as any end
            assert not match.is_over()   # (the game itself did not finish: it was resigned)
            await seats[0].resign()   # no second resignation: the end is there already
            with pytest.raises(C.OnlineError, match="over"):
                await C.join_table(guest, code, 1, "Gil")
            for c in seats:
                await c.close()
            await watcher.close()
        finally:
            await ref.stop()
        # A referee that never saw the table reads the resignation from the log.
        again = referee(srv)
        await again.start()
        try:
            look = await C.look_table(guest, code)
            assert look["status"] == "over" and look["end"]["resigned"]["name"] == "Gil"
            assert look["end"]["returns"] == [0.5, 0.0, 0.5]
        finally:
            await again.stop()
    asyncio.run(go())


def test_resignation_returns():
    assert P.resignation_returns(2, 0) == [0.0, 1.0]
    assert P.resignation_returns(4, 2) == [1 / 3, 1 / 3, 0.0, 1 / 3]


def test_a_seat_whose_heartbeats_stop_is_lost_to_the_others_and_back_at_the_next(srv):
    guest = srv.guest_url()

    async def go():
        ref = referee(srv)
        ref.presence_every_s = 3600.0   # the sweep runs when the test says, with the test's clock
        await ref.start()
        try:
            code = (await C.host_table(guest, "ten-days", ["human", "human"], public=True, seed=5))["table"]
            ann, gil = await seated(guest, code, ["Ann", "Gil"])
            watcher = await C.Spectator(guest, code).connect()
            await until(lambda: ann.status == gil.status == "playing", ann, gil)
            await gil.ping()
            await gil.nc.flush()
            await until(lambda: (code, 1) in ref._presence, ann, timeout=5)
            appends = ref.stats["appends"]
            # Not yet silent long enough: nobody is lost (swept at the moment of the ping)
            await ref.presence_sweep(now=ref._presence[(code, 1)][0] + ref.lost_after_s / 2)
            assert ann.presence == [] and ref.tables[code].lost == set()
            # Ann never sent a heartbeat: she is not watched, so never called lost
            await ref.presence_sweep(now=time.monotonic() + 3600)
            assert ref.tables[code].lost == {1} and (code, 0) not in ref._presence   # (the sweep is done)
            await until(lambda: ann.presence and watcher.info.get("lost"), ann, watcher)
            assert [(n["name"], n["state"], n["lost"]) for n in ann.presence] == [("Gil", "lost", [1])]
            assert watcher.info["lost"] == [1]
            # Gil's next heartbeat: back, to everyone (himself included)
            await gil.ping()
            await until(lambda: len(ann.presence) == 2 and gil.presence, ann, gil)
            assert (ann.presence[-1]["state"], ann.presence[-1]["lost"]) == ("back", [])
            assert ref.stats["appends"] == appends   # presence is published, never logged
            # a seat that syncs (reconnected) shows the lost seats in its sync
            await ref.presence_sweep(now=time.monotonic() + 7200)
            await until(lambda: len(ann.presence) == 3, ann)
            await ann.sync()
            await until(lambda: ann.info.get("lost") == [1], ann)
            await gil.leave()   # a seat that left is no longer watched
            assert (code, 1) not in ref._presence and ref.tables[code].lost == set()
            await ann.close()
            await watcher.close()
        finally:
            await ref.stop()
    asyncio.run(go())


def test_finished_public_tables_are_listed_apart_newest_first_and_replay_from_the_server(srv):
    guest = srv.guest_url()

    async def go():
        ref = referee(srv)
        await ref.start()
        try:
            ended = []
            for i in range(2):
                code = (await C.host_table(guest, "ten-days", ["human", "human"], ["Ann", "Bo"], public=True,
                                           seed=11 + i))["table"]
                seats = await seated(guest, code, ["Ann", "Bo"])
                await until(lambda s=seats: all(c.status == "playing" for c in s), *seats)
                await seats[0].play(lambda c: c.legal[0], stop_after=1)
                await seats[1].resign()
                await until(lambda s=seats: all(c.end for c in s), *seats)
                ended.append((code, seats[0].verify()))
                for c in seats:
                    await c.close()
            live = (await C.host_table(guest, "ten-days", ["human", "human"], public=True))["table"]
            private = (await C.host_table(guest, "ten-days", ["human", "human"], seed=3))["table"]
            seats = await seated(guest, private, ["Ann", "Bo"])
            await seats[0].resign()   # a private table's end is not listed
            for c in seats:
                await c.close()
            lists = await C.lobby_lists(guest)
            while len(lists["finished"]) < 2:   # the listing is recorded just after the end is sent
                lists = await C.lobby_lists(guest)
            assert [t["table"] for t in lists["tables"]] == [live]
            assert [t["table"] for t in lists["finished"]] == [ended[1][0], ended[0][0]]   # the latest first
            first = lists["finished"][0]
            assert (first["names"], first["resigned"], first["returns"]) == (["Ann", "Bo"], "Bo", [1.0, 0.0])
            # replayable from the server: the end's save is the whole match
            save = (await C.look_table(guest, first["table"]))["end"]["save"]
            replay = Match.from_json(save, "the server's log")
            assert [e.action for e in replay.log] == [e.action for e in ended[1][1].log]
        finally:
            await ref.stop()
        again = referee(srv)   # a referee started later reads the list from the server
        await again.start()
        try:
            assert [t["table"] for t in again.finished_tables()] == [ended[1][0], ended[0][0]]
        finally:
            await again.stop()
    asyncio.run(go())
