"""A three-node NATS cluster (three nats-server processes on 127.0.0.1, routes between
them, JetStream on each, the games' log replicated three times) loses the node that leads
the log in the middle of a game of 10 Days: the referee, connected to that node, moves to
another, the game goes on, and nothing is lost (the finished game is exactly the local
seeded match, and the log holds every record once). The nodes trust one operator, as the
README's cluster set-up says: every connection signs in with a JWT, the seats' signed by
the referee. The fail-over time is measured."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time

import pytest

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.engine.match import Match  # noqa: E402
from stateside.online import client as C  # noqa: E402
from stateside.online import protocol as P  # noqa: E402
from stateside.online.auth import JwtAuthorizer, Trust  # noqa: E402
from stateside.online.referee import Referee  # noqa: E402
from stateside.online.server import find_nats_server, free_port  # noqa: E402
from test_online_play import seeded_random  # noqa: E402

pytestmark = pytest.mark.skipif(find_nats_server() is None or not hasattr(signal, "SIGKILL"),
                                reason="nats-server is not installed (pip install '.[online]')")


def start_cluster(tmp_path, size=3):
    """Three nodes with one data folder's keys (DATA/auth.json, copied to each node in a real
    deployment), each with its own resolver folder and JetStream store."""
    trust = Trust.load(tmp_path / "keys")
    ports = [free_port() for _ in range(size)]
    routes = [free_port() for _ in range(size)]
    procs = []
    for i in range(size):
        node = tmp_path / f"n{i}"
        node.mkdir()
        peers = ", ".join(f'"nats://127.0.0.1:{r}"' for j, r in enumerate(routes) if j != i)
        conf = node / "nats.conf"
        conf.write_text("\n".join([
            f'server_name: "n{i}"', f"listen: 127.0.0.1:{ports[i]}",
            f'jetstream {{ store_dir: "{node / "js"}", max_memory_store: 64MB, max_file_store: 256MB }}',
            f'cluster {{ name: "stateside", listen: 127.0.0.1:{routes[i]}, routes: [{peers}] }}',
            *trust.config_lines(node / "accounts"), ""]))
        log = open(node / "nats.log", "wb")
        procs.append(subprocess.Popen([find_nats_server(), "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT))
        log.close()
    return [f"nats://127.0.0.1:{p}" for p in ports], procs, trust


async def refused_everywhere(urls, creds, timeout=10.0) -> bool:
    """Whether every node refuses these credentials (waiting for the revocation to reach each)."""
    end = time.monotonic() + timeout
    for url in urls:
        while True:
            try:
                nc = await nats.connect(url, allow_reconnect=False, max_reconnect_attempts=0, connect_timeout=2,
                                        error_cb=C._quiet, **C.connect_options(creds))
            except Exception as e:   # refused: "Authorization Violation"
                if "authorization" in str(e).lower():
                    break
                raise
            await nc.close()
            if time.monotonic() > end:
                return False
            await asyncio.sleep(0.1)
    return True


async def stream_leader(url: str, trust) -> tuple[str, int, int]:
    """The node leading the log, its replica count, and how many records it holds."""
    nc = await nats.connect(url, **JwtAuthorizer(trust, url).connect_options)
    try:
        info = await nc.jetstream(timeout=5).stream_info(P.LOG_STREAM)
        return info.cluster.leader, info.config.num_replicas, info.state.messages
    finally:
        await nc.close()


def test_a_three_node_cluster_loses_its_leader_mid_game_and_nothing_is_lost(tmp_path):
    urls, procs, trust = start_cluster(tmp_path)
    seed, seats = 8, ["human", "human"]
    figures = {}

    async def go():
        boot = Referee(urls, replicas=3, authorizer=JwtAuthorizer(trust, urls))   # the log, on all three nodes
        await boot.start()
        await boot.stop()
        leader, replicas, _ = await stream_leader(urls[0], trust)
        assert replicas == 3
        lead = int(leader[1:])
        others = [u for i, u in enumerate(urls) if i != lead]
        # The referee sits on the leader's node; the players on another node.
        ref = Referee([urls[lead], *others], authorizer=JwtAuthorizer(trust, [urls[lead], *others]),
                      allow_chosen_seed=True,
                      connect_options={"dont_randomize": True})
        await ref.start()
        assert ref.nc.connected_url.port == int(urls[lead].rsplit(":", 1)[1])
        try:
            guest = others[0]
            host = await C.host_table(guest, "ten-days", seats, None, {"turn_limit": 16}, seed=seed)
            clients = [await C.SeatClient(guest, await C.join_table(guest, host["table"], s)).connect()
                       for s in (0, 1)]
            playing = [asyncio.create_task(c.play(seeded_random(seed), timeout=90)) for c in clients]
            while clients[0].n < 40:
                await clients[0].wait_change(10)
            procs[lead].send_signal(signal.SIGKILL)   # the log's leader, and the referee's node
            killed = time.monotonic()
            at = clients[0].n + 3   # (an update or two may have been on its way before)
            while clients[0].n < at and clients[0].end is None:
                await clients[0]._wait(killed + 60)
            figures["failover_s"] = time.monotonic() - killed
            await asyncio.gather(*playing)
            figures["after"] = ref.nc.connected_url.port
            match = clients[0].verify()
            clients[1].verify()
            for c in clients:
                await c.close()
            # The table's seats revoked through the node the referee is on: refused on both
            # nodes left (the full resolver passes the seats' account to the others).
            await ref.authorizer.revoke_table(host["table"])
            figures["refused"] = [await refused_everywhere(others, c.credentials) for c in clients]
            new_leader, _, records = await stream_leader(others[0], trust)
            log = [rec for _, rec in await ref._read_log(host["table"])]
            kinds = [rec["type"] for rec in log]
            moves = [m for rec in log if rec["type"] in ("action", "actions")
                     for m in ([rec["action"]] if rec["type"] == "action" else [a for _, a in rec["moves"]])]
            return match, new_leader, (records, kinds, moves), leader, ref.stats
        finally:
            await ref.stop()

    try:
        start = time.monotonic()
        online, new_leader, records, old_leader, stats = asyncio.run(go())
        figures["total_s"] = time.monotonic() - start
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                p.wait(10)
    local = Match("ten-days", ["random", "random"], seed, online.initial_setup)
    local.play_out()
    assert online.actions == local.actions and online.state.returns() == local.state.returns()
    assert new_leader != old_leader
    assert figures["refused"] == [True, True]
    # every record once: the table, two joins, each player turn's actions, the end
    records, kinds, moves = records
    assert moves == local.to_json()["actions"]
    assert records == len(kinds) and kinds[:3] == ["table", "join", "join"] and kinds[-1] == "end"
    assert kinds.count("actions") + kinds.count("action") == len(kinds) - 4
    assert figures["after"] != int(urls[int(old_leader[1:])].rsplit(":", 1)[1])
    print(f"\nfail-over: {figures['failover_s']:.1f} s to three more actions; whole test {figures['total_s']:.1f} s; "
          f"referee retries {stats['retries']}")
    if os.environ.get("STATESIDE_FIGURES"):
        with open(os.environ["STATESIDE_FIGURES"], "a") as f:
            f.write(f"cluster fail-over {figures['failover_s']:.2f} s, test {figures['total_s']:.1f} s\n")
