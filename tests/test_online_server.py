"""`stateside server` as a player or an operator runs it: the embedded server answers
guests and stops cleanly; a referee process killed (SIGKILL) mid-game is replaced by
another `stateside server --nats ...` that resumes from the JetStream log."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.engine.match import Match  # noqa: E402
from stateside.online import client as C  # noqa: E402
from stateside.online.server import NatsServer, find_nats_server, free_port  # noqa: E402

pytestmark = pytest.mark.skipif(find_nats_server() is None or not hasattr(signal, "SIGKILL"),
                                reason="nats-server is not installed (pip install '.[online]')")


def start_command(args, env_dir):
    env = {**os.environ, "STATESIDE_CONFIG_DIR": str(env_dir)}
    proc = subprocess.Popen([sys.executable, "-m", "stateside", "server", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 30
    lines = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "ready" in line:
            return proc, lines
    proc.kill()
    raise AssertionError(f"stateside server did not start: {lines} {proc.stderr.read()}")


def test_stateside_server_hosts_a_table_and_stops_cleanly(tmp_path):
    port = free_port()
    proc, lines = start_command(["--port", str(port), "--data", str(tmp_path / "data")], tmp_path)
    try:
        assert f"nats://127.0.0.1:{port}" in lines[0] and "JetStream" in lines[0]
        guest = f"nats://127.0.0.1:{port}"   # (a guest signs itself in with a key of its own)

        async def go():
            host = await C.host_table(guest, "ten-days", ["human", "ai:easy"], ["Ada", "Computer"])
            look = await C.look_table(guest, host["table"])
            creds = await C.join_table(guest, host["table"])
            client = await C.SeatClient(guest, creds).connect()
            while client.status != "playing":
                await client.wait_change(10)
            await client.close()
            return host, look, creds, await C.look_table(guest, host["table"])
        host, look, creds, look_after = asyncio.run(go())
        assert look["status"] == "lobby" and look["joined"] == {}
        assert creds["seat"] == 0 and look_after["joined"] == {"0": "Ada"} and look_after["status"] == "playing"
        assert (tmp_path / "data" / "jetstream").is_dir()
        # The keys, the referee's credentials and the configuration: for their owner only.
        for name in ("auth.json", "referee.creds", "nats.conf"):
            assert oct((tmp_path / "data" / name).stat().st_mode & 0o777) == "0o600", name
        conf = (tmp_path / "data" / "nats.conf").read_text()
        assert "operator:" in conf and "type: full" in conf
        assert "users" not in conf and "password" not in conf and creds["user"] not in conf
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0


def test_stateside_server_refuses_bad_options(tmp_path):
    out = subprocess.run([sys.executable, "-m", "stateside", "server", "--port", "0"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--port must be 1 to 65535" in out.stderr
    out = subprocess.run([sys.executable, "-m", "stateside", "server", "--auth-dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "goes with --nats" in out.stderr


def test_a_killed_referee_process_is_replaced_and_the_game_goes_on(tmp_path):
    import random

    from stateside.engine.match import seat_rng_seed

    data = tmp_path / "data"
    srv = NatsServer(data).start()
    # The referee's credentials and keys come from the server's folder, never the command line.
    args = ["--nats", f"nats://127.0.0.1:{srv.port}", "--auth-dir", str(data)]
    first, _ = start_command(args, tmp_path)
    second = None
    try:
        async def go():
            nonlocal second
            host = await C.host_table(srv.guest_url(), "ten-days", ["human", "random"])
            creds = await C.join_table(srv.guest_url(), host["table"], 0)
            client = await C.SeatClient(srv.guest_url(), creds).connect()
            rng = random.Random(seat_rng_seed(5, 0, 0))
            await client.play(lambda c: c.legal[rng.randrange(len(c.legal))], stop_after=5)
            at = client.n
            first.send_signal(signal.SIGKILL)
            first.wait(timeout=10)
            second, _ = start_command(args, tmp_path)
            await client.play(lambda c: c.legal[rng.randrange(len(c.legal))], timeout=60)
            match = client.verify()
            await client.close()
            return at, match
        at, match = asyncio.run(go())
        assert at > 5 and match.is_over()
        assert Match.from_json(match.to_json()).actions == match.actions
    finally:
        for p in (first, second):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
        srv.stop()


def test_online_modules_load_no_qt():
    code = ("import sys\nimport stateside.online.referee, stateside.online.client, stateside.online.server\n"
            "print(','.join(sorted(m for m in sys.modules if m.startswith('PySide6'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


def test_a_server_nobody_runs_is_reported_in_seconds():
    """nats-py on its own tries 60 times, 2 s apart: a mistyped address took two minutes."""
    from stateside.online.server import free_port

    start = time.monotonic()
    with pytest.raises(C.OnlineError, match="cannot reach the server at 127.0.0.1"):
        asyncio.run(C.host_table(f"nats://guest:guest@127.0.0.1:{free_port()}", "ten-days", ["human", "human"]))
    assert time.monotonic() - start < 15


def test_a_folder_of_the_password_server_keeps_its_games_and_loses_its_passwords(tmp_path):
    """Before JWTs, the games' logs lived under the account named STATESIDE and the seats'
    passwords in seats.json: a server started on such a folder serves the old games and
    removes the passwords nobody reads any more."""
    from stateside.online.referee import Referee

    data = tmp_path / "data"

    async def with_referee(srv, body):
        ref = Referee(srv.referee_url(), authorizer=srv.authorizer)
        await ref.start()
        try:
            return await body()
        finally:
            await ref.stop()

    srv = NatsServer(data).start()
    try:
        host = asyncio.run(with_referee(srv, lambda: C.host_table(srv.guest_url(), "ten-days", ["human", "human"],
                                                                   ["Ann", "Bo"])))
    finally:
        srv.stop()
    store = data / "jetstream" / "jetstream"
    (store / srv.trust.pub["account"]).rename(store / "STATESIDE")   # as the old server kept it
    (data / "seats.json").write_text('{"K7QX3M-0-abc": {"password": "p"}}')
    srv = NatsServer(data).start()
    try:
        look = asyncio.run(with_referee(srv, lambda: C.look_table(srv.guest_url(), host["table"])))
    finally:
        srv.stop()
    assert look["names"] == ["Ann", "Bo"] and look["status"] == "lobby"
    assert not (data / "seats.json").exists() and not (store / "STATESIDE").exists()
