"""Seats signed with NATS JWTs, held against the real nats-server: what the referee signs is
accepted, and the server itself refuses a revoked seat, an expired JWT, a JWT signed by a
key the account does not list, one altered after signing, a guest that gives itself
permissions, and a guest reading another guest's replies. Taking and leaving seats writes
nothing into the server's configuration."""
from __future__ import annotations

import asyncio
import time

import pytest

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")
pytest.importorskip("nkeys", reason="online play needs nkeys (pip install '.[online]')")

from stateside.online import auth as A  # noqa: E402
from stateside.online import client as C  # noqa: E402
from stateside.online import protocol as P  # noqa: E402
from stateside.online.referee import Referee  # noqa: E402
from stateside.online.server import NatsServer  # noqa: E402
from online_support import NEEDS_NATS, bare_server_per_module  # noqa: E402

pytestmark = NEEDS_NATS
server = bare_server_per_module()


async def sign_in(server, key, jwt, errors=None, **options):
    """A connection with this JWT, proving `key`; the server's refusal raises."""
    async def on_error(e):
        if errors is not None:
            errors.append(str(e).lower())
    return await nats.connect(server.url, allow_reconnect=False, max_reconnect_attempts=0, connect_timeout=2,
                              error_cb=on_error, **C.signing_in(key, jwt), **options)


async def refused(server, key, jwt) -> str | None:
    """The server's word when it refuses the JWT at connect; None when it lets it in."""
    try:
        nc = await sign_in(server, key, jwt)
    except Exception as e:   # nats-py reports a refused login in several ways
        return str(e).lower() or type(e).__name__
    await nc.close()
    return None


def seat_jwt(server, key, signer=None, expires=None, table="K7QX3M", seat=0, account=None):
    """A seat's JWT as the referee makes it, or with another signer, expiry or account."""
    pub, sub = A.seat_permissions(table, seat, A.user_inbox(A.public(key)))
    claims = A.user_claims(A.public(key), f"{table}-{seat}", account or server.trust.pub["seats"], pub, sub,
                           expires=time.time() + 3600 if expires is None else expires)
    return A.encode_jwt(signer or server.trust.keys["seat_signing"], claims)


def test_what_the_referee_signs_is_accepted_and_every_forgery_refused(server):
    async def go():
        key = A.new_key("user")
        out = {"good": await refused(server, key, seat_jwt(server, key))}
        # Signed by a key the seats' account does not list (an attacker's own account key).
        out["other signer"] = await refused(server, key, seat_jwt(server, key, signer=A.new_key("account")))
        # Claiming the game account (the referee's, JetStream) with its own signature.
        out["game account"] = await refused(server, key, seat_jwt(server, key, signer=A.new_key("account"),
                                                                  account=server.trust.pub["account"]))
        # Altered after signing: seat 0's JWT made to say seat 1 (the signature no longer fits).
        good = seat_jwt(server, key)
        head, body, sig = good.split(".")
        claims = A._unb64(body).replace(b".in.0", b".in.1")
        out["altered"] = await refused(server, key, f"{head}.{A._b64(claims)}.{sig}")
        # A good JWT whose key the connection does not hold (the nonce signed by another key).
        out["stolen"] = await refused(server, A.new_key("user"), good)
        # Expired a minute ago.
        out["expired"] = await refused(server, key, seat_jwt(server, key, expires=time.time() - 60))
        # The public guest key cannot sign a user with permissions of its own choosing.
        greedy = A.encode_jwt(A.key_from_seed(A.GUEST_SIGNING_SEED),
                              A.user_claims(A.public(key), "greedy", A.GUEST_ACCOUNT, [">"], [">"]))
        out["greedy guest"] = await refused(server, key, greedy)
        return out
    out = asyncio.run(go())
    assert out.pop("good") is None
    for what, word in out.items():
        assert word and "authorization" in word, (what, word)


def test_a_jwt_that_expires_while_connected_is_cut_off(server):
    async def go():
        key = A.new_key("user")
        errors, closed = [], asyncio.Event()

        async def on_closed():
            closed.set()
        nc = await sign_in(server, key, seat_jwt(server, key, expires=time.time() + 1.8), errors,
                           closed_cb=on_closed)
        await asyncio.wait_for(closed.wait(), 10)   # the server closes it at the expiry
        return str(nc.last_error).lower()
    said = asyncio.run(go())
    assert "authentication expired" in said


def test_a_revoked_seat_is_cut_off_and_can_neither_connect_nor_publish(server):
    async def go():
        ref = Referee(server.referee_url(), authorizer=server.authorizer)
        await ref.start()
        conf = server.data_dir / "nats.conf"
        written = (conf.read_text(), conf.stat().st_mtime_ns)
        try:
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "human"])
            code = host["table"]
            seats = [await C.join_table(server.guest_url(), code, s) for s in (0, 1)]
            clients = [await C.SeatClient(server.guest_url(), c).connect() for c in seats]
            while clients[0].status != "playing":
                await clients[0].wait_change(5)
            # A connection of seat 1's own, beside its client: it stays until the revocation.
            errors, closed = [], asyncio.Event()

            async def on_closed():
                closed.set()
            key = A.key_from_seed(seats[1]["seed"])
            spare = await sign_in(server, key, seats[1]["jwt"], errors, closed_cb=on_closed)
            await clients[1].leave()                      # logged, then revoked
            await asyncio.wait_for(closed.wait(), 5)      # the server cut the spare connection off
            errors.append(str(spare.last_error).lower())
            again = await refused(server, key, seats[1]["jwt"])
            # Nothing it sent after the revocation reached the referee: the table still waits.
            n = ref.tables[code].n
            try:
                await spare.publish(P.intent_subject(code, 1), P.encode({"type": "act", "n": n, "action": [0]}))
            except Exception as e:   # (nats-py refuses to publish on a closed connection)
                errors.append(str(e).lower())
            await clients[0].sync()
            await clients[0].wait_change(5)
            after = (ref.tables[code].n, ref.tables[code].status)
            # Seat 1 taken again: a new key and JWT, and the game goes on.
            back = await C.join_table(server.guest_url(), code, 1)
            fresh = await C.SeatClient(server.guest_url(), back).connect()
            while fresh.status != "playing":
                await fresh.wait_change(5)
            for c in (clients[0], fresh):
                await c.close()
            return errors, again, (n, "lobby"), after, back, seats[1], written, (conf.read_text(),
                                                                                 conf.stat().st_mtime_ns)
        finally:
            await ref.stop()
    errors, again, before, after, back, old, written, now = asyncio.run(go())
    assert any("authentication revoked" in e for e in errors), errors
    assert again and "authorization" in again
    assert after == before
    assert back["user"] != old["user"] and back["seat"] == 1
    # Three seats taken and one left: the server's configuration was not touched.
    assert now == written and old["user"] not in now[0] and back["user"] not in now[0]


def test_a_guest_reads_only_its_own_inbox(server):
    async def go():
        ref = Referee(server.referee_url(), authorizer=server.authorizer)
        await ref.start()
        try:
            a, b = A.new_key("user"), A.new_key("user")
            errors, seen = [], []

            async def sniff(msg):
                seen.append(msg.data)
            spy = await sign_in(server, a, A.guest_jwt(a), errors, inbox_prefix=A.guest_inbox(A.public(a)))
            await spy.subscribe(A.guest_inbox(A.public(b)) + ".>", cb=sniff)   # b's replies: refused
            await spy.subscribe(P.LOBBY_HOST, cb=sniff)                          # others' requests: refused
            other = await sign_in(server, b, A.guest_jwt(b), inbox_prefix=A.guest_inbox(A.public(b)))
            reply = await other.request(P.LOBBY_HOST, P.encode({"type": "host", "game": "ten-days",
                                                                "seats": ["human", "human"]}), timeout=5)
            await spy.flush()
            await other.close()
            await spy.close()
            return errors, seen, P.decode(reply.data, P.MAX_SERVER_PAYLOAD)
        finally:
            await ref.stop()
    errors, seen, reply = asyncio.run(go())
    assert reply["ok"] and seen == []
    assert sum("permissions violation for subscription" in e for e in errors) == 2, errors


def test_a_revocation_outlives_a_restart_of_the_server(tmp_path):
    """The pushed account is kept in the resolver's folder, and the preloaded one (older)
    does not replace it when the server starts again."""
    srv = NatsServer(tmp_path / "nats").start()
    key = A.new_key("user")
    try:
        async def revoke():
            jwt = await srv.authorizer.issue("K7QX3M", 0, A.public(key))
            before = await refused(srv, key, jwt)
            await srv.authorizer.revoke_user(A.public(key))
            await srv.authorizer.close()
            return jwt, before
        jwt, before = asyncio.run(revoke())
        srv.stop()
        srv = NatsServer(tmp_path / "nats", port=srv.port).start()
        after = asyncio.run(refused(srv, key, jwt))
    finally:
        srv.stop()
    assert before is None
    assert after and "authorization" in after


def test_the_server_cuts_off_a_seat_or_guest_sending_more_than_its_limit(server):
    """A seat may send 16 KiB at most (the referee reads 8), a guest 8 KiB (the lobby 4):
    beyond that the server closes the connection before the message reaches anyone."""
    async def go():
        said = {}
        seat = A.new_key("user")
        guest = A.new_key("user")
        pub, sub = A.seat_permissions("K7QX3M", 0, A.user_inbox(A.public(seat)))
        seat_jwt_ = A.encode_jwt(server.trust.keys["seat_signing"], A.user_claims(
            A.public(seat), "K7QX3M-0", server.trust.pub["seats"], pub, sub, expires=time.time() + 60,
            limits=A.SEAT_LIMITS))
        for what, key, jwt, subject, within, size in (
                ("seat", seat, seat_jwt_, P.intent_subject("K7QX3M", 0), 15_000, 20_000),
                ("guest", guest, A.guest_jwt(guest), P.LOBBY_LOOK, 7_000, 10_000)):
            closed = asyncio.Event()

            async def on_closed(closed=closed):
                closed.set()
            nc = await sign_in(server, key, jwt, closed_cb=on_closed)
            await nc.publish(subject, b"x" * within)   # within the limit: nothing happens
            await nc.flush()
            assert nc.is_connected, what
            await nc.publish(subject, b"x" * size)
            await asyncio.wait_for(closed.wait(), 5)
            said[what] = str(nc.last_error).lower()
        return said
    said = asyncio.run(go())
    assert all("maximum payload" in s for s in said.values()), said


def test_lobby_requests_crossing_revocations_are_all_answered(server):
    """Revoking re-signs the seats' account; the game account, which answers the lobby,
    stays as it is, so no guest's reply is lost on its way (when the seats lived in the
    game account, a look sent while a revocation was pushed went unanswered)."""
    async def go():
        ref = await nats.connect(server.url, **server.referee_options())

        async def answer(msg):
            await msg.respond(b'{"type": "reply", "ok": true}')
        await ref.subscribe(P.LOBBY_LOOK, cb=answer)
        await ref.flush()
        key = A.new_key("user")
        guest = await sign_in(server, key, A.guest_jwt(key), inbox_prefix=A.guest_inbox(A.public(key)))
        done, pushes, lost = asyncio.Event(), [0], [0]

        async def revoke_meanwhile():
            while not done.is_set():
                await server.authorizer.revoke_user(A.public(A.new_key("user")))
                pushes[0] += 1

        async def look():
            try:
                await guest.request(P.LOBBY_LOOK, b"{}", timeout=2)
            except nats.errors.TimeoutError:
                lost[0] += 1
        pusher = asyncio.create_task(revoke_meanwhile())
        for _ in range(40):
            await asyncio.gather(*(look() for _ in range(5)))
            await asyncio.sleep(0.005)
        done.set()
        await pusher
        await server.authorizer.close()
        for nc in (guest, ref):
            await nc.close()
        return pushes[0], lost[0]
    pushes, lost = asyncio.run(go())
    assert pushes >= 10 and lost == 0, (pushes, lost)


def test_a_join_without_a_proper_public_key_is_refused_clearly(server):
    async def go():
        ref = Referee(server.referee_url(), authorizer=server.authorizer)
        await ref.start()
        try:
            code = (await C.host_table(server.guest_url(), "ten-days", ["human", "human"]))["table"]
            out = []
            account_key = A.public(A.new_key("account"))
            good = A.public(A.new_key("user"))
            broken = good[:-1] + ("B" if good[-1] == "A" else "A")   # its checksum no longer fits
            for key in (None, "nonsense", account_key, broken):
                with pytest.raises(C.OnlineError) as e:
                    await C._lobby(server.guest_url(), P.LOBBY_JOIN, {"type": "join", "table": code, "seat": 0,
                                                                      "user_key": key})
                out.append(str(e.value))
            look = await C.look_table(server.guest_url(), code)
            return out, look
        finally:
            await ref.stop()
    out, look = asyncio.run(go())
    assert all("user_key" in reason for reason in out), out
    assert "checksum" in out[3] and look["joined"] == {}   # nobody was seated


def test_a_revocation_another_referee_pushed_over_is_pushed_again(server):
    """Each referee pushes the whole seats' account, and the server keeps the last one
    pushed: a referee that read the account just before another's push went out drops the
    other's revocation. So a referee looks again a moment after its push, and pushes
    again what went missing."""
    async def go():
        one, two = A.JwtAuthorizer(server.trust, server.url), A.JwtAuthorizer(server.trust, server.url)
        a, b = A.public(A.new_key("user")), A.public(A.new_key("user"))
        real_held = two._held
        stale = await real_held(await two._system(), server.trust.pub["seats"])   # read before a's push
        await one.revoke_user(a)
        reads = [stale]

        async def held_once_stale(nc, account):
            return reads.pop() if reads else await real_held(nc, account)
        two._held = held_once_stale
        await two.revoke_user(b)   # pushed from the stale read: a is gone from the server
        nc = await one._system()

        async def revoked():
            return (await real_held(nc, server.trust.pub["seats"]))["nats"].get("revocations") or {}
        right_after = set(await revoked())
        loop = asyncio.get_running_loop()
        end = loop.time() + 8
        while a not in await revoked() and loop.time() < end:   # one's second look puts it back
            await asyncio.sleep(0.05)
        final = set(await revoked())
        for auth in (one, two):
            await auth.close()
        return a, b, right_after, final
    a, b, right_after, final = asyncio.run(go())
    assert a not in right_after and b in right_after   # the race happened
    assert {a, b} <= final


def test_a_seat_outlives_its_jwt_and_a_stranger_cannot_renew_it(server):
    """A seat's JWT lives a few hours; a game may last longer, or its player come back after
    it expired. Here seats live 3 s: one seat renews before its JWT expires, the other's
    connection is cut off at the expiry (as if its machine slept through the renewal) and
    comes back by itself, as does a spectator's; both then play on, watched. A stranger asking to renew a taken seat with
    its own key is refused, and with the seat's public key gets only a JWT it cannot use."""
    async def go():
        authorizer = A.JwtAuthorizer(server.trust, server.url, lifetime_s=3.0)
        ref = Referee(server.referee_url(), authorizer=authorizer)
        await ref.start()
        guest = server.guest_url()
        try:
            host = await C.host_table(guest, "ten-days", ["human", "human"], public=True)
            a = await C.SeatClient(guest, await C.join_table(guest, host["table"], 0)).connect()
            b = await C.SeatClient(guest, await C.join_table(guest, host["table"], 1)).connect()
            watcher = await C.Spectator(guest, host["table"]).connect()
            watcher_nc = watcher.nc
            b._renewal.cancel()   # b sleeps through its renewal
            first_jwt, b_jwt, b_nc = a.credentials["jwt"], b.credentials["jwt"], b.nc
            deadline = time.monotonic() + 15
            while (a.credentials["jwt"] == first_jwt or b.credentials["jwt"] == b_jwt
                   or watcher.nc is watcher_nc) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            # a stranger: its own key for a taken seat; then the seat's public key with its own nonce
            stranger = None
            try:
                await C.join_table(guest, host["table"], 0)
            except C.OnlineError as e:
                stranger = str(e)
            renewed = await C._lobby(guest, P.LOBBY_JOIN, {"type": "join", "table": host["table"], "seat": 0,
                                                          "user_key": a.user})
            thief = await refused(server, A.new_key("user"), renewed["jwt"])
            moves = []
            while len(set(moves)) < 2 and len(moves) < 60:   # both seats play on, past their first JWTs
                mover = a if a.my_turn() else b
                at = mover.n
                await mover.act(mover.legal[0])
                while mover.n == at:
                    await mover.wait_change(10)
                moves.append(mover.seat)
                while not (a.my_turn() or b.my_turn()):
                    await asyncio.sleep(0.01)
            out = {"renewed": a.credentials["jwt"] != first_jwt, "b cut off": str(b_nc.last_error).lower(),
                   "b revived": b.credentials["jwt"] != b_jwt and b.nc is not b_nc,
                   "stranger": stranger, "thief": thief, "moves": moves,
                   "renewals": ref.stats["renewals"], "b open": not b.nc.is_closed}
            played = ref.tables[host["table"]].n   # the spectator watches again, too: all of it, as a sees it
            while (watcher.n < played or a.n < played) and time.monotonic() < deadline + 10:
                await asyncio.sleep(0.02)
            out["watched"] = (watcher.n, a.n, str(watcher_nc.last_error).lower())
            await watcher.close()
            await a.close()
            await b.close()
            return out
        finally:
            await ref.stop()
            await authorizer.close()
    out = asyncio.run(go())
    assert out["renewed"] and out["b revived"] and out["b open"], out
    assert "authentication expired" in out["b cut off"]   # b was cut off by the server, and came back
    assert out["renewals"] >= 3, out   # a's before its expiry, b's after, the stranger's probe
    assert out["stranger"] and "taken" in out["stranger"]
    assert out["thief"] and "authorization" in out["thief"]
    assert sorted(set(out["moves"])) == [0, 1]
    assert out["watched"][0] == out["watched"][1] and "authentication expired" in out["watched"][2]
