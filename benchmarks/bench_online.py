"""Load run of online play, loopback only: N tables of two random players each, at once,
through a nats-server with JetStream and K referee processes (`stateside server --nats`).
Stops by itself after --seconds (or when every game has ended) and prints turns per
second and the 50th/99th percentile turn latency (a player's intent sent -> the
referee's update for it received, through the conditional append to the log).

    python benchmarks/bench_online.py [--tables 50] [--referees 1] [--seconds 60] [--game ten-days]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from stateside.online import client as C
from stateside.online.server import NatsServer, referee_password


def start_referees(srv: NatsServer, k: int, data: Path) -> list[subprocess.Popen]:
    url = f"nats://referee:{referee_password(data)}@127.0.0.1:{srv.port}"
    procs = []
    for _ in range(k):
        p = subprocess.Popen([sys.executable, "-m", "stateside", "server", "--nats", url, "--auth-dir", str(data),
                              "--server-pid", str(srv.proc.pid)], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "STATESIDE_CONFIG_DIR": str(data / "cfg")})
        line = p.stdout.readline()
        if "ready" not in line:
            raise SystemExit(f"a referee did not start: {line!r}")
        procs.append(p)
    return procs


async def seat(client: C.SeatClient, rng: random.Random, latencies: list, stop_at: float) -> int:
    loop = asyncio.get_running_loop()
    moves = 0
    while client.end is None and loop.time() < stop_at:
        if client.my_turn():
            at = client.n
            t0 = time.perf_counter()
            await client.act(client.legal[rng.randrange(len(client.legal))])
            while client.n == at and client.end is None and loop.time() < stop_at:
                if not await client._wait(stop_at + 5):
                    await client.sync()
            if client.n > at:
                latencies.append(time.perf_counter() - t0)
                moves += 1
        elif not await client._wait(stop_at + 5):
            await client.sync()
    return moves


async def main(args) -> None:
    data = Path(tempfile.mkdtemp(prefix="stateside-bench-"))
    srv = NatsServer(data).start()
    referees = start_referees(srv, args.referees, data)
    try:
        guest = srv.guest_url()
        t = time.perf_counter()
        clients = []
        for i in range(args.tables):
            host = await C.host_table(guest, args.game, ["human", "human"])
            for s in (0, 1):
                creds = await C.join_table(guest, host["table"], s)
                clients.append(await C.SeatClient(guest, creds).connect())
        setup_s = time.perf_counter() - t
        latencies: list[float] = []
        loop = asyncio.get_running_loop()
        start = loop.time()
        stop_at = start + args.seconds
        rngs = [random.Random(i) for i in range(len(clients))]
        moves = await asyncio.gather(*(seat(c, r, latencies, stop_at) for c, r in zip(clients, rngs)))
        elapsed = loop.time() - start
        finished = sum(1 for c in clients[::2] if c.end is not None)
        actions = sum(c.n for c in clients[::2])
        for c in clients:
            await c.close()
        lat = sorted(latencies)
        p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")  # noqa: E731
        print(f"{args.tables} tables of {args.game}, 2 random players each, {args.referees} referee process(es), "
              f"nats-server on 127.0.0.1, {os.cpu_count()} cores")
        print(f"  seating {2 * args.tables} players (credentials issued, server reloaded): {setup_s:.1f} s")
        print(f"  ran {elapsed:.1f} s: {sum(moves)} player turns, {sum(moves) / elapsed:.0f} turns/s; "
              f"{actions} logged actions in all (with chance draws), {actions / elapsed:.0f} appends/s; "
              f"{finished} games finished")
        print(f"  turn latency: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, mean "
              f"{statistics.fmean(lat) * 1000 if lat else float('nan'):.1f} ms")
    finally:
        for r in referees:
            r.terminate()
        for r in referees:
            try:
                r.wait(timeout=10)
            except subprocess.TimeoutExpired:
                r.kill()
        srv.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--referees", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60.0, help="at most this long (capped at 150)")
    parser.add_argument("--game", default="ten-days")
    a = parser.parse_args()
    a.seconds = min(a.seconds, 150.0)
    asyncio.run(main(a))
