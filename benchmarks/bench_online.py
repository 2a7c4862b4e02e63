"""Load run of online play, loopback only: N tables of two random players each, at once,
through a nats-server with JetStream and K referee processes (`stateside server --nats`).
Stops by itself after --seconds (or when every game has ended) and prints turns per
second and the 50th/99th percentile turn latency (a player's intent sent -> the
referee's update for it received, through the conditional append to the log).

    python benchmarks/bench_online.py [--tables 50] [--referees 1] [--seconds 60] [--game ten-days]
                                      [--unpartitioned]

With several referees each serves a share of the tables (the server maps each table's
intents to one of 16 partitions; referee i of K takes partitions i-1, i-1+K, ...);
--unpartitioned lets any referee take any intent instead, as a comparison.

Measured 2026-11-30, 200 tables of 10 Days (400 players), --seconds 45, one 2-core
machine shared with other work (so the figures are rough):
  1 referee:                      628 turns/s, turn latency p50 255 ms, p99 554 ms
  4 referees, tables partitioned: 730 turns/s, p50 57 ms, p99 200 ms
  4 referees, unpartitioned:      177 turns/s, p50 83 ms, p99 6434 ms (each referee re-reads
                                  logs it did not write, and loses races to append)
Seating the 400 players (a credential each, the server's configuration reloaded each
time) took 65-68 s.

Re-measured 2026-11-30 ~09:00 UTC after real time, leaving and revocation were added, same
command, on the same 2 cores under much heavier other work (load average 6-9):
  1 referee:                      235 and 387 turns/s (two runs), p50 505 / 397 ms,
                                  p99 2261 / 1252 ms (the first run: 42 ConnectionClosedError
                                  at the clients, none in the second)
  1 referee, the code before:     269 turns/s, p50 509 ms, p99 1726 ms (same load, for comparison)
  4 referees, tables partitioned: 379 turns/s, p50 126 ms, p99 663 ms
Seating took 61-71 s. The drop from the morning's figures is the machine's load, not the
code: 40 tables for 20 s, old and new back to back, gave 371 and 629 turns/s.

Re-measured 2026-11-30 ~10:05 UTC on a quiet machine (nothing else running), same command,
after the five games were all playable online:
  1 referee:                      817 turns/s, p50 202 ms, p99 399 ms
  4 referees, tables partitioned: 691 turns/s, p50 51 ms, p99 137 ms (51 games finished)
Seating the 400 players took 69-72 s.
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
from stateside.online.server import NatsServer


def start_referees(srv: NatsServer, k: int, data: Path, partitioned: bool = True) -> list[subprocess.Popen]:
    url = f"nats://127.0.0.1:{srv.port}"   # the referee's password comes from --auth-dir
    procs = []
    for i in range(k):
        share = ["--share", f"{i + 1}/{k}"] if partitioned and k > 1 else []
        p = subprocess.Popen([sys.executable, "-m", "stateside.online.server", "--nats", url, "--auth-dir", str(data),
                              "--server-pid", str(srv.proc.pid), "--load-test", *share], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "STATESIDE_CONFIG_DIR": str(data / "cfg")})
        line = p.stdout.readline()
        if "ready" not in line:
            raise SystemExit(f"a referee did not start: {line!r}")
        procs.append(p)
    return procs


def process_cpu_s(pid: int) -> float:
    """User and system CPU seconds of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


async def seat(client: C.SeatClient, rng: random.Random, latencies: list, stop_at: float) -> int:
    loop = asyncio.get_running_loop()
    moves = 0
    while client.end is None and loop.time() < stop_at:
        try:
            moves += await turn(client, rng, latencies, stop_at)
        except Exception as e:   # an overloaded server: a flush that timed out; count it, go on
            errors.append(type(e).__name__)
    return moves


errors: list[str] = []


async def turn(client: C.SeatClient, rng: random.Random, latencies: list, stop_at: float) -> int:
    """One move of ours (timed: intent sent -> its update back), or one wait for news."""
    loop = asyncio.get_running_loop()
    if not client.my_turn():
        if not await client._wait(stop_at + 5):
            await client.sync()
        return 0
    at = client.n
    t0 = time.perf_counter()
    await client.act(client.legal[rng.randrange(len(client.legal))])
    while client.n == at and client.end is None and loop.time() < stop_at:
        if not await client._wait(stop_at + 5):
            await client.sync()
    if client.n == at:
        return 0
    latencies.append(time.perf_counter() - t0)
    return 1


async def main(args) -> None:
    data = Path(tempfile.mkdtemp(prefix="stateside-bench-"))
    srv = NatsServer(data).start()
    referees = []
    try:   # (a referee that does not start must not leave the nats-server running)
        referees = start_referees(srv, args.referees, data, not args.unpartitioned)
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
            try:
                await c.close()
            except (OSError, asyncio.TimeoutError):   # a connection the loaded server dropped already
                pass
        lat = sorted(latencies)
        p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")  # noqa: E731
        how = "any referee takes any table" if args.unpartitioned or args.referees == 1 else "tables partitioned"
        print(f"{args.tables} tables of {args.game}, 2 random players each, {args.referees} referee process(es) "
              f"({how}), nats-server on 127.0.0.1, {os.cpu_count()} cores")
        print(f"  seating {2 * args.tables} players (credentials issued, server reloaded): {setup_s:.1f} s")
        print(f"  ran {elapsed:.1f} s: {sum(moves)} player turns, {sum(moves) / elapsed:.0f} turns/s; "
              f"{actions} logged actions in all (with chance draws), {actions / elapsed:.0f} appends/s; "
              f"{finished} games finished")
        cpu = sum(process_cpu_s(r.pid) for r in referees)
        if cpu and sum(moves):
            print(f"  referee CPU: {cpu:.1f} s in all (start-up and seating included), "
                  f"{cpu * 1000 / sum(moves):.2f} ms per player turn")
        print(f"  turn latency: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, mean "
              f"{statistics.fmean(lat) * 1000 if lat else float('nan'):.1f} ms"
              + (f"; {len(errors)} client errors ({', '.join(sorted(set(errors)))})" if errors else ""))
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
    parser.add_argument("--unpartitioned", action="store_true", help="any referee takes any table's intents")
    a = parser.parse_args()
    a.seconds = min(a.seconds, 150.0)
    asyncio.run(main(a))
