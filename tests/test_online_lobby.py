"""The lobby's list of public tables and spectators, through a real nats-server: two
referees with shares; a public table is listed (a private one is not) whichever referee
answers; a spectator finds it there and watches a whole game, seeing what every seat may
see and nothing more (the rules' public view of each entry), and the end; the server
refuses the spectator's credentials anything but the table's public subject."""
from __future__ import annotations

import asyncio

import pytest

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.online import client as C  # noqa: E402
from stateside.online import protocol as P  # noqa: E402
from stateside.online import referee as R  # noqa: E402
from stateside.online.auth import JwtAuthorizer  # noqa: E402
from stateside.online.server import NatsServer, find_nats_server  # noqa: E402
from test_online_play import seeded_random  # noqa: E402

pytestmark = pytest.mark.skipif(find_nats_server() is None,
                                reason="nats-server is not installed (pip install '.[online]')")


@pytest.fixture
def srv(tmp_path):
    s = NatsServer(tmp_path / "nats").start()
    yield s
    s.stop()


def test_a_spectator_finds_a_public_table_in_the_list_and_watches_it_to_the_end(srv):
    guest = srv.guest_url()

    async def go():
        refs = [R.Referee(srv.referee_url(), authorizer=JwtAuthorizer(srv.trust, srv.url),
                          allow_chosen_seed=True, share=(i + 1, 2)) for i in range(2)]
        await asyncio.gather(*(r.start() for r in refs))
        try:
            public = [await C.host_table(guest, "ten-days", ["human", "human"], ["Ann", "Bo"], {"turn_limit": 4},
                                         seed=21 + i, public=True) for i in range(3)]
            private = await C.host_table(guest, "ten-days", ["human", "human"], seed=9)
            listed = await C.list_tables(guest)
            codes = {t["table"] for t in listed}
            with pytest.raises(C.OnlineError, match="private"):
                await C.watch_table(guest, private["table"])
            code = public[0]["table"]
            watcher = await C.Spectator(guest, code).connect()
            seats = [await C.SeatClient(guest, await C.join_table(guest, code, s)).connect() for s in (0, 1)]
            await asyncio.gather(*(c.play(seeded_random(21), timeout=60) for c in seats))
            while watcher.end is None:
                await watcher.wait_change(10)
            # the spectator's credentials: the public subject only
            creds = await C.watch_table(guest, public[1]["table"])
            spy = await nats.connect(srv.url, **C.connect_options(creds))
            errors = []

            async def on_error(e):
                errors.append(str(e))
            spy._error_cb = on_error
            await spy.subscribe(P.private_subject(public[1]["table"], 0))
            await spy.publish(P.intent_subject(public[1]["table"], 0), b'{"type":"leave"}')
            await spy.flush()
            await asyncio.sleep(0.3)
            await spy.close()
            full = seats[0].verify()
            views = [c.entries for c in seats]
            for c in seats:
                await c.close()
            await watcher.close()
            return codes, public, private, watcher, full, views, errors
        finally:
            await asyncio.gather(*(r.stop() for r in refs))

    codes, public, private, watcher, full, views, errors = asyncio.run(go())
    assert {t["table"] for t in public} <= codes and private["table"] not in codes
    assert len(watcher.entries) == len(full.log) and watcher.end["save"] == full.to_json()
    hidden = [e for e in watcher.entries if e.get("hidden")]
    assert hidden   # the deal and the draws from the deck are no spectator's business
    for e in hidden:
        assert "action" not in e
    # a seat sees at least what the spectator sees, entry by entry
    for mine, theirs in zip(views[0], watcher.entries):
        assert theirs.get("hidden") or not mine.get("hidden")
    said = [e.lower() for e in errors]
    assert any("permissions violation for subscription" in e and "seat.0" in e for e in said), errors
    assert any("permissions violation for publish" in e and "in.0" in e for e in said), errors


def test_the_host_gives_a_seat_that_stays_empty_to_a_computer(srv):
    guest = srv.guest_url()

    async def go():
        ref = R.Referee(srv.referee_url(), authorizer=JwtAuthorizer(srv.trust, srv.url), allow_chosen_seed=True)
        await ref.start()
        try:
            host = await C.host_table(guest, "ten-days", ["human", "human"], ["Ann", "Bo"], {"turn_limit": 6},
                                      seed=41, host_seat=0)
            a, b = [await C.SeatClient(guest, await C.join_table(guest, host["table"], s)).connect() for s in (0, 1)]
            choose = seeded_random(41)
            while a.n < 12:   # a few moves each, whoever's turn it is
                mover = next((c for c in (a, b) if c.my_turn() and c.n == max(a.n, b.n)), None)
                if mover is None:
                    await asyncio.sleep(0.01)
                    continue
                at = mover.n
                await mover.act(choose(mover))
                while mover.n == at:
                    await mover.wait_change(5)
            await b.give_to_computer(0, "easy")   # not the host: refused
            while not b.refusals:
                await b.wait_change(5)
            await b.leave()
            while a.status != "lobby":
                await a.wait_change(5)
            await a.give_to_computer(1, "champion")   # no such level
            while not a.refusals:
                await a.wait_change(5)
            await a.give_to_computer(1, "easy")
            await a.play(seeded_random(41), timeout=60)
            match = a.verify()
            await a.close()
            return b.refusals, a.refusals, match, a.info
        finally:
            await ref.stop()

    b_refused, a_refused, match, info = asyncio.run(go())
    assert "only the host" in b_refused[0]["reason"]
    assert "not a computer level" in a_refused[0]["reason"]
    assert match.is_over() and match.seats == ["human", "ai:easy"] and info["seats"] == ["human", "ai:easy"]
    assert any(e.seat == 1 for e in match.log[-10:])   # the computer played Bo's seat to the end
