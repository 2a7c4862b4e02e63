"""Hostile clients against a real nats-server on 127.0.0.1 (issue 27's findings 1-6):
a guest reads no secret and cannot take another's seat, one guest cannot block hosting
or stall other tables, a poisoned log never stops a referee, deep or huge messages are
refused plainly, and `stateside server` fails fast and in one line."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time

import pytest

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from nats.js.errors import APIError  # noqa: E402

from stateside.online import auth as A  # noqa: E402
from stateside.online import client as C  # noqa: E402
from stateside.online import protocol as P  # noqa: E402
from stateside.online import referee as R  # noqa: E402
from stateside.online.referee import Limits, Referee  # noqa: E402
from stateside.online.server import (  # noqa: E402
    NatsServer,
    ServerError,
    free_port,
    referee_credentials,
    referee_urls,
)
from online_support import NEEDS_NATS, bare_server_per_module  # noqa: E402

pytestmark = NEEDS_NATS
server = bare_server_per_module()


@pytest.fixture
def fresh_server(tmp_path):
    """A server of its own: no other test's tables count towards the limits."""
    srv = NatsServer(tmp_path / "nats").start()
    yield srv
    srv.stop()


async def until(predicate, timeout=10.0, what="the condition"):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def referee(server, **kw):
    ref = Referee(server.referee_url(), authorizer=server.authorizer, **kw)
    await ref.start()
    return ref


async def guest(server, errors=None):
    async def on_error(e):
        if errors is not None:
            errors.append(str(e).lower())
    key = A.new_key("user")   # a guest signs itself in (online.auth.guest_jwt)
    return await nats.connect(server.url, allow_reconnect=False, error_cb=on_error,
                              inbox_prefix=A.guest_inbox(A.public(key)), **C.signing_in(key, A.guest_jwt(key)))


async def raw_lobby(nc, subject, body, headers=None, timeout=5.0):
    """One lobby request on an existing guest connection; the reply."""
    msg = await nc.request(subject, P.encode(body), timeout=timeout, headers=headers)
    return P.decode(msg.data, P.MAX_SERVER_PAYLOAD, "reply", None)


# --- 1. guests read no secrets ----------------------------------------------------------

def test_a_guest_may_not_listen_to_any_inbox_but_its_own_and_reads_no_code_key_or_seed(server):
    """Finding 1: a guest listening to _INBOX.> saw the referee's JetStream replies (the
    table's seed and salt after a restart) and every lobby reply (codes, credentials).
    Now a guest may read only the inbox named after its own key."""
    async def go():
        errors, seen = [], []

        async def sniff(msg):
            seen.append(msg.data)
        spy = await guest(server, errors)
        for subject in ("_INBOX.>", P.GUEST_INBOX_PREFIX + ".>", "_R_.>"):
            await spy.subscribe(subject, cb=sniff)
        ref = await referee(server)
        try:
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "human"])
            creds = await C.join_table(server.guest_url(), host["table"], 0)
            await C.look_table(server.guest_url(), host["table"])
            table = ref.tables[host["table"]]
            secrets_ = [host["table"], creds["seed"], str(table.match.seed), table.salt]
        finally:
            await ref.stop()
        again = await referee(server)   # a restart: it reads every unfinished game's log
        try:
            assert host["table"] in again.tables
            await C.look_table(server.guest_url(), host["table"])
        finally:
            await again.stop()
        await spy.flush()
        await spy.close()
        return errors, seen, secrets_
    errors, seen, secrets_ = asyncio.run(go())
    for subject in ("_inbox.>", P.GUEST_INBOX_PREFIX.lower() + ".>", "_r_.>"):
        assert any("permissions violation for subscription" in e and f'"{subject}"' in e for e in errors), errors
    assert seen == []
    for data in seen:
        for secret in secrets_:
            assert secret.encode() not in data


# --- 2. a poisoned log never stops a referee -------------------------------------------------

def test_a_log_that_does_not_replay_closes_its_table_and_the_referee_starts(server):
    """Finding 2: a table whose log no longer replays made `stateside server` exit at
    start, for every table; now that table is closed with its reason, the others go on."""
    async def go():
        ref = await referee(server, allow_chosen_seed=True)
        try:
            good = await C.host_table(server.guest_url(), "ten-days", ["human", "ai:easy"], seed=3)
            bad = await C.host_table(server.guest_url(), "ten-days", ["human", "ai:easy"], seed=4)
            # The bad table's log gets an action no game can play (as a poisoned record would).
            table = ref.tables[bad["table"]]
            await ref._append(table, {"type": "action", "n": table.n, "seat": 0, "action": ["no", "such", "move"]})
            creds = await C.join_table(server.guest_url(), good["table"], 0)
        finally:
            await ref.stop()
        again = await referee(server)
        try:
            closed = again.tables[bad["table"]]
            with pytest.raises(C.OnlineError, match="was closed: its log does not replay"):
                await C.join_table(server.guest_url(), bad["table"], 0)
            last = await again.js.get_last_msg(P.LOG_STREAM, P.log_subject(bad["table"]))
            client = await C.SeatClient(server.guest_url(), creds).connect()
            await until(lambda: client.my_turn(), what="the good table's turn")
            await client.play(lambda c: c.legal[0], stop_after=2)
            await client.close()
            return closed.status, json.loads(last.data), client.n
        finally:
            await again.stop()
    status, last, n = asyncio.run(go())
    assert status == "closed"
    assert last["type"] == "closed" and "does not replay" in last["reason"]
    assert n > 2


def test_an_action_the_rules_refuse_after_listing_it_closes_the_table_and_is_never_logged(server):
    """The freeze of finding 2/9: a referee now applies an action before logging it, so a
    refused one never enters the log; the table is closed with a message to its seats."""
    class Stubborn(Referee):
        def _next_automatic(self, table):
            action = super()._next_automatic(table)
            if action is not None and table.n >= 3:
                original = table.match.state.apply_action

                def refuse(a):
                    table.match.state.apply_action = original
                    raise R.IllegalActionError("square 0,0 already holds a tile")
                table.match.state.apply_action = refuse
            return action

    async def go():
        ref = Stubborn(server.referee_url(), authorizer=server.authorizer, allow_chosen_seed=True)
        await ref.start()
        try:
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "ai:easy"], seed=5)
            creds = await C.join_table(server.guest_url(), host["table"], 0)
            client = await C.SeatClient(server.guest_url(), creds).connect()
            await until(lambda: client.closed is not None or client.my_turn(), what="a turn or the close")
            if client.closed is None:
                with pytest.raises(C.OnlineError, match="the table was closed"):
                    await client.play(lambda c: c.legal[0], stop_after=10)
            await until(lambda: client.closed is not None, what="the table's close")
            seqs = [rec for _, rec in await ref._read_log(host["table"])]
            await client.close()
            return client.closed, seqs, ref.tables[host["table"]].n
        finally:
            await ref.stop()
    reason, records, n = asyncio.run(go())
    assert "refused an action they had offered" in reason and "already holds a tile" in reason
    assert records[-1]["type"] == "closed"
    # what was logged is what was played (a turn's follow-ups share the record of its action)
    assert sum(1 if r["type"] == "action" else len(r["moves"]) if r["type"] == "actions" else 0
               for r in records) == n


# --- 3. hosting cannot be blocked ---------------------------------------------------------------

def test_one_guest_cannot_fill_the_tables_and_a_forged_header_does_not_help(fresh_server):
    server = fresh_server

    """Finding 3: one guest filled the table limit in seconds. Tables nobody started are
    bounded per connection and per address, named by the server (not the client)."""
    async def go():
        ref = await referee(server, limits=Limits(waiting_per_connection=2, waiting_per_address=3))
        try:
            nc = await guest(server)
            replies = []
            for i in range(3):   # the third on this connection is over its bound, forged header or not
                forged = {"Nats-Request-Info": json.dumps({"id": 1000 + i, "host": f"10.0.0.{i}"})}
                replies.append(await raw_lobby(nc, P.LOBBY_HOST, {"type": "host", "game": "ten-days",
                                                                   "seats": ["human", "human"]}, headers=forged))
            await nc.close()
            other = await guest(server)   # a new connection from the same address: its bound is 3
            replies.append(await raw_lobby(other, P.LOBBY_HOST, {"type": "host", "game": "ten-days",
                                                                  "seats": ["human", "human"]}))
            replies.append(await raw_lobby(other, P.LOBBY_HOST, {"type": "host", "game": "ten-days",
                                                                  "seats": ["human", "human"]}))
            await other.close()
            hosts = {t.host for t in ref.tables.values()}
            return replies, hosts
        finally:
            await ref.stop()
    replies, hosts = asyncio.run(go())
    assert [r["ok"] for r in replies] == [True, True, False, True, False]
    assert "as many tables as may wait" in replies[2]["reason"]
    assert all(h[1] == "127.0.0.1" for h in hosts)   # the server's word, not the forged 10.0.0.x


def test_tables_nobody_starts_expire_and_free_their_place(fresh_server):
    server = fresh_server

    async def go():
        ref = await referee(server, limits=Limits(waiting_per_address=1, lobby_ttl_s=0.3, sweep_every_s=0.05))
        try:
            first = await C.host_table(server.guest_url(), "ten-days", ["human", "human"])
            with pytest.raises(C.OnlineError, match="as many tables as may wait"):
                await C.host_table(server.guest_url(), "ten-days", ["human", "human"])
            await until(lambda: ref.tables[first["table"]].closed, what="the lobby table to expire")
            second = await C.host_table(server.guest_url(), "ten-days", ["human", "human"])
            with pytest.raises(C.OnlineError, match="was closed: nobody started the game"):
                await C.look_table(server.guest_url(), first["table"])
            return second
        finally:
            await ref.stop()
    assert asyncio.run(go())["ok"]


def test_a_guest_over_its_lobby_rate_is_dropped(server):
    async def go():
        ref = await referee(server, limits=Limits(lobby_per_connection=(0.5, 3)))
        try:
            nc = await guest(server)
            for _ in range(10):   # published without waiting: the referee answers three
                await nc.publish(P.LOBBY_LOOK, P.encode({"type": "look", "table": "AAAAAA"}),
                                 reply=nc.new_inbox())
            await nc.flush()
            await until(lambda: ref.stats["dropped"] >= 7, what="the drops")
            await nc.close()
            return ref.stats["dropped"]
        finally:
            await ref.stop()
    assert asyncio.run(go()) == 7


# --- 4. floods, depth and size ----------------------------------------------------------------

def test_a_seat_s_sync_flood_is_dropped_and_other_tables_play_on(server):
    """Finding 4: 6,300 syncs a second from one seat stalled every table."""
    async def go():
        ref = await referee(server, allow_chosen_seed=True, limits=Limits(syncs_per_seat=(2, 5)))
        try:
            clients = []
            for seed in (1, 2):
                host = await C.host_table(server.guest_url(), "ten-days", ["human", "ai:easy"], seed=seed)
                creds = await C.join_table(server.guest_url(), host["table"], 0)
                clients.append(await C.SeatClient(server.guest_url(), creds).connect())
            flooder, player = clients
            await until(lambda: player.my_turn(), what="the player's turn")
            for _ in range(2000):
                await flooder.nc.publish(P.intent_subject(flooder.table, 0), P.encode({"type": "sync", "since": 0}))
            at = player.n
            await player.act(player.legal[0])
            await flooder.nc.flush()
            await until(lambda: player.n > at, what="the other table's move", timeout=10)
            await until(lambda: any("slow down" in r["reason"] for r in flooder.refusals), what="the warning")
            await until(lambda: ref.stats["dropped"] >= 1900, what="the drops")
            for c in clients:
                await c.close()
            return ref.stats["dropped"]
        finally:
            await ref.stop()
    assert asyncio.run(go()) >= 1900


def test_deeply_nested_intents_and_lobby_requests_are_refused_plainly(server):
    """Finding 4: an intent nested 3,000 deep (under 8 KiB) raised RecursionError in the
    referee, which then answered nothing."""
    deep_intent = b'{"type": "act", "n": 0, "action": ' + b"[" * 3000 + b"]" * 3000 + b"}"
    deep_lobby = b'{"type": "look", "table": "AAAAAA", "x": ' + b"[" * 2000 + b"]" * 2000 + b"}"
    assert len(deep_intent) < P.MAX_INTENT_BYTES

    async def go():
        ref = await referee(server, allow_chosen_seed=True)
        try:
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "ai:easy"], seed=1)
            creds = await C.join_table(server.guest_url(), host["table"], 0)
            client = await C.SeatClient(server.guest_url(), creds).connect()
            await client.nc.publish(P.intent_subject(host["table"], 0), deep_intent)
            await until(lambda: client.refusals, what="the refusal")
            nc = await guest(server)
            msg = await nc.request(P.LOBBY_LOOK, deep_lobby, timeout=5)
            await nc.close()
            await client.close()
            return client.refusals[0]["reason"], P.decode(msg.data, 10**6, "reply")
        finally:
            await ref.stop()
    intent_reason, lobby_reply = asyncio.run(go())
    assert "nested too deeply" in intent_reason
    assert lobby_reply["ok"] is False and "nested too deeply" in lobby_reply["reason"]


@pytest.mark.parametrize("text, ok", [(b'{"type": "x", "a": "[[[[[[[[[[[[[[[[[[[[[[[[[["}', True),
                                      (b'{"type": "x", "a": ' + b"[" * 17 + b"]" * 17 + b"}", False),
                                      (b'{"type": "x", "a": NaN}', False),
                                      (b'{"type": "x", "a": ' + b"9" * 5000 + b"}", False)])
def test_decode_bounds_nesting_constants_and_digits(text, ok):
    if ok:
        assert P.decode(text, 10**6)["type"] == "x"   # brackets inside a string do not count
    else:
        with pytest.raises(P.ProtocolError):
            P.decode(text, 10**6)


def test_a_long_game_syncs_in_pages_under_the_message_limit(server, monkeypatch):
    """Finding 4: a long 10 Days game needed a sync of 1.9 MB against the 1 MB limit."""
    monkeypatch.setattr(R, "SYNC_PAGE_BYTES", 600)   # so that a short game needs many pages

    async def go():
        ref = await referee(server, allow_chosen_seed=True)
        pages = []
        make = ref._sync_message

        def counted(table, seat, since):
            msg = make(table, seat, since)
            pages.append(len(P.encode(msg)))
            return msg
        ref._sync_message = counted
        try:
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "ai:easy"], seed=6)
            creds = await C.join_table(server.guest_url(), host["table"], 0)
            first = await C.SeatClient(server.guest_url(), creds).connect()
            await first.play(lambda c: c.legal[0], stop_after=6)
            await until(lambda: first.my_turn() or first.end is not None, what="the turn")
            pages.clear()
            fresh = C.SeatClient(server.guest_url(), creds)
            await fresh.connect()
            await until(lambda: fresh._synced, what="the whole sync")
            table = ref.tables[host["table"]]
            result = len(pages), [e["n"] for e in fresh.entries], table.n, fresh.observation == first.observation
            await fresh.close()
            await first.close()
            return result
        finally:
            await ref.stop()
    npages, numbers, n, same = asyncio.run(go())
    assert npages > 2
    assert numbers == list(range(n)) and same


def test_a_move_the_log_cannot_store_is_refused_with_a_reason(server):
    """Finding 6: with a full disk, moves went unanswered."""
    async def go():
        ref = await referee(server, allow_chosen_seed=True)
        try:
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "ai:easy"], seed=2)
            creds = await C.join_table(server.guest_url(), host["table"], 0)
            client = await C.SeatClient(server.guest_url(), creds).connect()
            await until(lambda: client.my_turn(), what="the turn")
            publish = ref.js.publish

            async def full(*a, **kw):
                ref.js.publish = publish
                raise APIError(code=500, err_code=10047, description="insufficient storage resources available")
            ref.js.publish = full
            n = client.n
            await client.act(client.legal[0])
            await until(lambda: client.refusals, what="the refusal")
            await client.play(lambda c: c.legal[0], stop_after=1)   # the next try is recorded
            await client.close()
            return client.refusals[0]["reason"], n, client.n
        finally:
            await ref.stop()
    reason, before, after = asyncio.run(go())
    assert "could not record your move" in reason and "insufficient storage" in reason
    assert after > before


# --- 5. setups from a host, checked as strictly as a save ----------------------------------------

def test_a_host_s_setup_is_checked_like_a_save(server):
    async def go():
        ref = await referee(server)
        out = []
        try:
            for names, options in ((["Ada", "Bo\x1b[2J"], {}), (["Ada"], {}), (["A" * 100, "Bo"], {}),
                                   (["Ada", "Bo"], {"turn_limit": "x"})):
                with pytest.raises(C.OnlineError) as e:
                    await C.host_table(server.guest_url(), "ten-days", ["human", "human"], names, options)
                out.append(str(e.value))
        finally:
            await ref.stop()
        return out
    control, short, long_, setup = asyncio.run(go())
    assert "printable" in control and "printable" in short and "printable" in long_
    assert "cannot start a game of ten-days: turn_limit" in setup


# --- 6. the server's faults: one line, at once ---------------------------------------------------

def run_cli(args, env=None, timeout=60):
    return subprocess.run([sys.executable, "-m", "stateside", "server", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def test_a_dead_nats_address_ends_the_referee_in_one_line():
    dead = free_port()
    start = time.monotonic()
    out = run_cli(["--nats", f"nats://127.0.0.1:{dead}"])
    took = time.monotonic() - start
    assert out.returncode != 0
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "cannot reach NATS" in lines[0] and str(dead) in lines[0], out.stderr
    assert took < 40


@pytest.mark.parametrize("url, words", [("", "needs the address"), ("   ", "needs the address"),
                                        ("nats://referee:secret@127.0.0.1:4222", "must not carry a password"),
                                        ("nats://127.0.0.1:99999", "is not an address")])
def test_bad_nats_addresses_are_refused_in_one_line(url, words):
    out = run_cli(["--nats", url])
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert out.returncode != 0 and len(lines) == 1 and words in lines[0], out.stderr


def test_the_referee_s_credentials_come_from_the_environment_or_the_data_folder(tmp_path, monkeypatch):
    assert referee_credentials(tmp_path) is None
    (tmp_path / "referee.creds").write_text("(a creds file)")
    assert referee_credentials(tmp_path) == tmp_path / "referee.creds"
    monkeypatch.setenv("STATESIDE_REFEREE_CREDS", str(tmp_path / "elsewhere.creds"))
    with pytest.raises(ServerError, match="is not a file"):
        referee_credentials(tmp_path)
    assert referee_urls("nats://h1:1,h2:2") == ["nats://h1:1", "nats://h2:2"]
    with pytest.raises(ServerError, match="is not an address"):
        referee_urls("nats://h1")


def test_sigterm_stops_a_referee_still_trying_to_connect():
    proc = subprocess.Popen([sys.executable, "-m", "stateside", "server", "--nats", f"nats://127.0.0.1:{free_port()}"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(2.0)   # it is in its first connection's tries (five seconds of them)
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(timeout=5)
    finally:
        proc.kill()
    assert rc in (0, -signal.SIGTERM)
    assert "Traceback" not in proc.stderr.read()


def test_stateside_server_says_so_when_its_nats_server_dies(tmp_path):
    data = tmp_path / "data"
    proc = subprocess.Popen([sys.executable, "-m", "stateside", "server", "--port", str(free_port()),
                             "--data", str(data)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "STATESIDE_CONFIG_DIR": str(tmp_path)})
    try:
        line = ""
        deadline = time.monotonic() + 30
        while "ready" not in line and time.monotonic() < deadline:
            line = proc.stdout.readline()
        assert "ready" in line
        os.kill(json.loads((data / "server.json").read_text())["pid"], signal.SIGKILL)
        rc = proc.wait(timeout=15)
        err = proc.stderr.read()
    finally:
        proc.kill()
    assert rc != 0
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "nats-server stopped" in lines[0], err


def test_a_jetstream_api_blip_while_the_server_reloads_its_users_is_waited_out(server):
    """With the guests in an account of their own, each reload of the users (a seat
    issued or revoked) makes the game account's JetStream API answer "no responders" for
    a moment (measured: 4 of 5,000 calls during 30 reloads); the referee tries again."""
    from nats.js.errors import ServiceUnavailableError

    async def go():
        ref = await referee(server)
        try:
            host = await C.host_table(server.guest_url(), "ten-days", ["human", "human"])
            read_batch = ref._read_batch   # (the log is read in batches of direct gets)
            blips = []

            async def blip(*a, **kw):
                if not blips:
                    blips.append(1)
                    raise ServiceUnavailableError()
                return await read_batch(*a, **kw)
            ref._read_batch = blip
            ref.tables.clear()   # read the table from the log again, through the blip
            creds = await C.join_table(server.guest_url(), host["table"], 0)
            return blips, creds
        finally:
            await ref.stop()
    blips, creds = asyncio.run(go())
    assert blips == [1] and creds["seat"] == 0
