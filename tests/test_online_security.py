"""Online play's defences, against a real nats-server started here on 127.0.0.1:
the server's permissions stop a seat acting for another, reading another's private
subject or touching the log; the referee refuses every bad intent clearly and changes
nothing; a seat's private key never travels, and its JWT alone signs nobody in."""
from __future__ import annotations

import asyncio
import json

import pytest

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.online import client as C  # noqa: E402
from stateside.online import protocol as P  # noqa: E402
from stateside.online.referee import Referee  # noqa: E402
from online_support import NEEDS_NATS, bare_server_per_module  # noqa: E402

pytestmark = NEEDS_NATS
server = bare_server_per_module()


def run(server, body):
    """Run body(referee, code, [client0, client1]) at a fresh two-seat 10 Days table."""
    async def go():
        ref = Referee(server.referee_url(), authorizer=server.authorizer, allow_chosen_seed=True)
        await ref.start()
        try:
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "human"], seed=7)
            creds = [await C.join_table(server.guest_url(), host["table"], s) for s in (0, 1)]
            clients = [await C.SeatClient(server.guest_url(), c).connect() for c in creds]
            for c in clients:
                while c.status != "playing":
                    await c.wait_change(5)
            result = await body(ref, host["table"], clients)
            for c in clients:
                await c.close()
            return result
        finally:
            await ref.stop()
    return asyncio.run(go())


async def raw_connection(server, client, errors):
    """A connection of our own with a seat's credentials (its JWT and key), as a hostile
    client would make it."""
    async def on_error(e):
        errors.append(str(e))
    return await nats.connect(server.url, error_cb=on_error, allow_reconnect=False,
                              **C.connect_options(client.credentials))


async def refused_by_server(errors, kind, count=1, timeout=10.0):
    """Wait for the server's own word: `count` permission violations of `kind`
    ("publish" or "subscription"). A message the server refused never reached anyone,
    so the checks that follow need no waiting of their own."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while sum(f"permissions violation for {kind}" in e.lower() for e in errors) < count:
        if loop.time() > end:
            raise AssertionError(f"no {count} {kind} violation(s) reported: {errors}")
        await asyncio.sleep(0.02)


def test_the_server_refuses_a_seat_publishing_for_another_seat(server):
    async def body(ref, code, clients):
        before = ref.tables[code].n
        errors = []
        nc = await raw_connection(server, clients[0], errors)
        # Seat 0's credentials, seat 1's intent subject, a move seat 1 could make.
        action = (clients[1].legal or clients[0].legal)[0]
        await nc.publish(P.intent_subject(code, 1), P.encode({"type": "act", "n": before, "action": action}))
        await refused_by_server(errors, "publish")
        await clients[1].sync()   # a round trip through the referee: anything that got through is handled
        await clients[1].wait_change(5)
        await nc.close()
        return errors, before, ref.tables[code].n
    errors, before, after = run(server, body)
    assert any("permissions violation" in e.lower() and "publish" in e.lower() for e in errors), errors
    assert after == before


def test_the_server_refuses_subscribing_to_another_seats_private_subject_or_the_log(server):
    async def body(ref, code, clients):
        errors, got = [], []
        nc = await raw_connection(server, clients[0], errors)

        async def spy(msg):
            got.append(msg.subject)
        await nc.subscribe(P.private_subject(code, 1), cb=spy)
        await nc.subscribe(P.log_subject(code), cb=spy)
        await nc.subscribe(">", cb=spy)
        await refused_by_server(errors, "subscription", 3)
        await clients[1].sync()          # the referee now writes to seat 1's private subject
        await clients[1].wait_change(5)
        await nc.flush()
        await nc.close()
        return errors, got
    errors, got = run(server, body)
    assert sum("permissions violation for subscription" in e.lower() for e in errors) >= 3, errors
    assert got == []


def test_the_server_refuses_a_client_writing_the_log_or_using_jetstream(server):
    async def body(ref, code, clients):
        errors = []
        nc = await raw_connection(server, clients[0], errors)
        before = (await ref.js.stream_info(P.LOG_STREAM)).state.messages
        await nc.publish(P.log_subject(code), P.encode({"type": "action", "n": 0, "action": "x"}))
        await nc.publish("$JS.API.STREAM.INFO." + P.LOG_STREAM, b"")
        await refused_by_server(errors, "publish", 2)
        after = (await ref.js.stream_info(P.LOG_STREAM)).state.messages
        await nc.close()
        return errors, before, after
    errors, before, after = run(server, body)
    assert sum("permissions violation for publish" in e.lower() for e in errors) >= 2, errors
    assert after == before


def test_a_guest_may_only_ask_to_host_join_or_look(server):
    async def body(ref, code, clients):
        errors = []

        async def on_error(e):
            errors.append(str(e))
        key = C.A.new_key("user")
        nc = await nats.connect(server.url, error_cb=on_error, allow_reconnect=False,
                                **C.signing_in(key, C.A.guest_jwt(key)))
        await nc.subscribe(P.LOBBY_JOIN)          # would read the joiners' table codes
        await nc.publish(P.intent_subject(code, 0), P.encode({"type": "sync"}))
        await refused_by_server(errors, "subscription")
        await refused_by_server(errors, "publish")
        await nc.close()
        return errors
    errors = run(server, body)
    low = [e.lower() for e in errors]
    assert any("permissions violation for subscription" in e for e in low), errors
    assert any("permissions violation for publish" in e for e in low), errors


def test_a_seats_private_key_never_travels_and_its_jwt_alone_signs_nobody_in(server):
    """Another guest may not listen to the guests' replies at all (each guest's inbox is
    its own); and a seat's JWT, even if it were seen, is worthless without the key that
    only the client holds: the server asks the connection to sign its nonce."""
    async def go():
        ref = Referee(server.referee_url(), authorizer=server.authorizer)
        await ref.start()
        errors = []

        async def on_error(e):
            errors.append(str(e))
        key = C.A.new_key("user")
        spy = await nats.connect(server.url, allow_reconnect=False, error_cb=on_error,
                                 inbox_prefix=C.A.guest_inbox(C.A.public(key)), **C.signing_in(key, C.A.guest_jwt(key)))
        await spy.subscribe(P.GUEST_INBOX_PREFIX + ".>")     # every guest's replies: refused
        try:
            await refused_by_server(errors, "subscription")
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "human"])
            creds = await C.join_table(server.guest_url(), host["table"], 0)
            # The JWT with a key of our own (not the one it names): the server refuses it.
            thief = C.A.new_key("user")
            stolen = await refused_login(server, {**creds, "seed": thief.seed.decode()})
            own = await refused_login(server, creds)
            with pytest.raises(C.OnlineError, match="taken"):
                await C.join_table(server.guest_url(), host["table"], 0)
            with pytest.raises(C.OnlineError, match="no table"):
                await C.join_table(server.guest_url(), "AAAAAA", 0)
            with pytest.raises(C.OnlineError, match="table code"):
                await C.join_table(server.guest_url(), "no such code!", 0)
            return creds, stolen, own
        finally:
            await spy.close()
            await ref.stop()
    creds, stolen, own = asyncio.run(go())
    assert C.A.decode_jwt(creds["jwt"])["sub"] == creds["user"]
    assert stolen and not own


def test_the_referee_refuses_bad_tables(server):
    async def go():
        ref = Referee(server.referee_url(), authorizer=server.authorizer)
        await ref.start()
        try:
            out = []
            for args in (("scrambled-states", ["human", "human"], None, {"round_limit_ms": 0}),
                         ("chess", ["human", "human"]),
                         ("ten-days", ["random", "random"]), ("ten-days", ["human"] * 9),
                         ("ten-days", ["human", "robot"])):
                with pytest.raises(C.OnlineError) as e:
                    await C.host_table(server.guest_url(), *args)
                out.append(str(e.value))
            return out
        finally:
            await ref.stop()
    real_time, unknown, no_human, too_many, bad_seat = asyncio.run(go())
    assert "needs timed rounds" in real_time
    assert "no game 'chess'" in unknown
    assert "at least one human seat" in no_human
    assert "players, not 9" in too_many
    assert "unknown player 'robot'" in bad_seat


def test_every_bad_intent_is_refused_clearly_and_changes_nothing(server):
    async def body(ref, code, clients):
        table = ref.tables[code]
        mover = table.match.state.current_player()
        me, other = clients[mover], clients[1 - mover]
        n, seq = table.n, table.last_seq
        state = table.match.state
        illegal = next(a for a in state.candidate_actions(mover) if a not in state.legal_actions(mover))
        cases = [
            (me, b"{not json", "not valid JSON"),
            (me, json.dumps({"type": "act", "n": n, "action": "x" * 9000}).encode(), "too large"),
            (me, b"[1, 2]", "JSON object"),
            (me, P.encode({"type": "shout"}), "unknown intent type"),
            (me, P.encode({"type": "act", "action": me.legal[0]}), "needs \"n\""),
            (me, P.encode({"type": "act", "n": n, "seat": 1 - mover, "action": me.legal[0]}),
             f"cannot act for seat {1 - mover}"),
            (other, P.encode({"type": "act", "n": n, "action": me.legal[0]}), "not your turn"),
            (me, P.encode({"type": "act", "n": n - 1, "action": me.legal[0]}), "stale"),
            (me, P.encode({"type": "act", "n": n + 5, "action": me.legal[0]}), "stale"),
            (me, P.encode({"type": "act", "n": n, "action": {"what": [1, 2]}}), "malformed action"),
            (me, P.encode({"type": "act", "n": n, "action": state.action_to_json(illegal)}), "illegal action"),
        ]
        replies = []
        for client, payload, _ in cases:
            count = len(client.refusals)
            await client.nc.publish(P.intent_subject(code, client.seat), payload)
            for _ in range(50):
                if len(client.refusals) > count:
                    break
                await asyncio.sleep(0.02)
            replies.append(client.refusals[count]["reason"] if len(client.refusals) > count else None)
        after = (ref.tables[code].n, ref.tables[code].last_seq)
        # ... and the game still goes on: the right move is accepted.
        await me.act(me.legal[0])
        for _ in range(50):
            if ref.tables[code].n > n:
                break
            await asyncio.sleep(0.02)
        return cases, replies, (n, seq), after, ref.tables[code].n

    cases, replies, before, after, final = run(server, body)
    for (_, _, expected), reply in zip(cases, replies):
        assert reply is not None and expected in reply, (expected, reply)
    assert after == before           # nothing was appended to the log
    assert final > before[0]


async def refused_login(server, creds):
    """True when the server refuses these credentials (a revoked seat, a forged JWT...)."""
    try:
        nc = await nats.connect(server.url, allow_reconnect=False, connect_timeout=2, max_reconnect_attempts=0,
                                error_cb=C._quiet, **C.connect_options(creds))
    except Exception as e:   # nats-py reports a refused login in several ways
        return "authorization" in str(e).lower() or isinstance(e, nats.errors.NoServersError)
    await nc.close()
    return False


async def until(predicate, timeout=5.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)


def test_a_seat_that_leaves_the_lobby_is_free_again_and_its_credentials_are_refused(server):
    async def go():
        ref = Referee(server.referee_url(), authorizer=server.authorizer)
        await ref.start()
        try:
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "human"])
            code = host["table"]
            creds = await C.join_table(server.guest_url(), code, 0)
            client = await C.SeatClient(server.guest_url(), creds).connect()
            await until(lambda: client.info.get("joined") == {"0": "Player 1"})
            await client.leave()
            look = await C.look_table(server.guest_url(), code)
            refused = await refused_login(server, creds)
            again = await C.join_table(server.guest_url(), code, 0)   # the seat is free: anyone may take it
            fresh = await C.SeatClient(server.guest_url(), again).connect()
            await until(lambda: fresh.status == "lobby" and fresh.info.get("joined") == {"0": "Player 1"})
            await fresh.close()
            return look, refused, creds, again
        finally:
            await ref.stop()
    look, refused, creds, again = asyncio.run(go())
    assert look["joined"] == {} and look["status"] == "lobby"
    assert refused
    assert again["seat"] == 0 and again["user"] != creds["user"]


def test_a_seat_that_leaves_mid_game_pauses_it_rejoins_by_code_and_all_is_revoked_at_the_end(server):
    async def go():
        ref = Referee(server.referee_url(), authorizer=server.authorizer, allow_chosen_seed=True,
                      revoke_after_end_s=0.2)
        await ref.start()
        try:
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "human"], seed=9)
            code = host["table"]
            creds = [await C.join_table(server.guest_url(), code, s) for s in (0, 1)]
            a, b = [await C.SeatClient(server.guest_url(), c).connect() for c in creds]
            choose = lambda c: c.legal[0]   # noqa: E731
            b_task = asyncio.create_task(b.play(choose, timeout=30))
            await a.play(choose, stop_after=3, timeout=30)
            b_task.cancel()   # seat 1 walks away mid-game
            await asyncio.sleep(0.3)
            n_before = ref.tables[code].n
            await b.leave()
            await until(lambda: a.left and a.status == "lobby")
            told = a.left[-1]
            # While the seat is empty the game waits: a move is refused and nothing is logged.
            count = len(a.refusals)
            await a.act([0])
            await until(lambda: len(a.refusals) > count)
            waiting = a.refusals[-1]["reason"]
            refused_b = await refused_login(server, creds[1])
            # The seat is taken again by the table code alone; new credentials, the same game.
            back = await C.join_table(server.guest_url(), code)
            b2 = await C.SeatClient(server.guest_url(), back).connect()
            await until(lambda: b2.n >= n_before and b2.status == "playing" and a.status == "playing")
            await asyncio.gather(a.play(choose, timeout=60), b2.play(choose, timeout=60))
            match = a.verify()
            # The end's grace (0.2 s), then every seat of the table is revoked: wait for it.
            refused_end = []
            for c in (creds[0], back):
                for _ in range(100):
                    if await refused_login(server, c):
                        break
                    await asyncio.sleep(0.1)
                refused_end.append(await refused_login(server, c))
            look = await C.look_table(server.guest_url(), code)
            for c in (a, b2):
                await c.close()
            return told, waiting, refused_b, back, creds, match, refused_end, look, n_before
        finally:
            await ref.stop()
    told, waiting, refused_b, back, creds, match, refused_end, look, n_before = asyncio.run(go())
    assert told["seat"] == 1 and told["status"] == "lobby" and told["joined"] == {"0": "Player 1"}
    assert "waiting for players" in waiting
    assert refused_b
    assert back["seat"] == 1 and back["user"] != creds[1]["user"]
    assert match.is_over() and len(match.log) > n_before
    assert refused_end == [True, True]
    assert look["status"] == "over" and look["end"]["returns"] == match.state.returns()


def test_a_referee_that_took_a_table_over_revokes_every_seat_at_the_end(server):
    """The seats were signed by a referee that died; the one that took the table over and
    saw it end revokes them too (it reads their keys from the log), not only its own."""
    from stateside.online.auth import JwtAuthorizer

    async def go():
        first = Referee(server.referee_url(), authorizer=JwtAuthorizer(server.trust, server.url),
                        allow_chosen_seed=True)
        await first.start()
        second = None
        try:
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "human"], seed=4)
            creds = [await C.join_table(server.guest_url(), host["table"], s) for s in (0, 1)]
            a, b = [await C.SeatClient(server.guest_url(), c).connect() for c in creds]
            await first.kill()   # a crash: nothing revoked, nobody told
            second = Referee(server.referee_url(), authorizer=JwtAuthorizer(server.trust, server.url),
                             allow_chosen_seed=True, revoke_after_end_s=0.2)
            await second.start()
            choose = lambda c: c.legal[0]   # noqa: E731
            await asyncio.gather(a.play(choose, timeout=60), b.play(choose, timeout=60))
            issued_by_second = list(second.authorizer.issued.get(host["table"], []))
            refused = []
            for c in creds:
                for _ in range(100):
                    if await refused_login(server, c):
                        break
                    await asyncio.sleep(0.1)
                refused.append(await refused_login(server, c))
            for c in (a, b):
                await c.close()
            return issued_by_second, refused
        finally:
            if second is not None:
                await second.stop()
    issued_by_second, refused = asyncio.run(go())
    assert issued_by_second == []   # the second referee signed none of the seats
    assert refused == [True, True]
