"""Seating with signed user JWTs: what a seat costs, and whether it grows with the seats.

    PYTHONPATH=src python benchmarks/bench_seating.py [--tables 200]

A nats-server and one referee on 127.0.0.1 (the referee in this process, as the tests
run it). Prints, on the machine's load (printed too):

  sign:    the referee's signing of one seat's JWT (the best of 5 runs of 2,000), microseconds
  join:    one seat taken and connected (host excluded), one after another, for the first
           20 seats and for the last 20 after `--tables` x 2 seats were taken, milliseconds
           (median); with users in nats.conf this grew from 7-25 ms to 205-219 ms
  seating: `--tables` tables hosted and two seats each joined, all at once, seconds (the
           referee shares this process's event loop with the 600 clients: bench_online.py's
           figure, with the referee in a process of its own, is the one to compare)
  revoke:  one revocation pushed (the seats' account re-signed, read back), milliseconds (median of 20)
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from stateside.online import auth as A  # noqa: E402
from stateside.online import client as C  # noqa: E402
from stateside.online.referee import Limits, Referee  # noqa: E402
from stateside.online.server import NatsServer  # noqa: E402


def sign_us(srv: NatsServer) -> float:
    keys = [A.public(A.new_key("user")) for _ in range(2000)]
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for i, k in enumerate(keys):
            srv.authorizer._sign("K7QX3M", k, "K7QX3M-0", *A.seat_permissions("K7QX3M", i % 2, A.user_inbox(k)))
        best = min(best, (time.perf_counter() - t) / len(keys))
    srv.authorizer.issued.clear()
    return best * 1e6


async def join_ms(guest: str, count: int) -> float:
    """Median time of `count` joins, each followed by the seat's connection and first sync."""
    times = []
    for _ in range(count // 2):
        host = await C.host_table(guest, "ten-days", ["human", "human"])
        for s in (0, 1):
            t = time.perf_counter()
            client = await C.SeatClient(guest, await C.join_table(guest, host["table"], s)).connect()
            times.append(time.perf_counter() - t)
            await client.close()
    return statistics.median(times) * 1000


async def seat_all(guest: str, tables: int) -> float:
    async def one():
        host = await C.host_table(guest, "ten-days", ["human", "human"])
        await asyncio.gather(*(C.join_table(guest, host["table"], s) for s in (0, 1)))
    t = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(tables)))
    return time.perf_counter() - t


async def revoke_ms(srv: NatsServer) -> float:
    times = []
    for _ in range(20):
        t = time.perf_counter()
        await srv.authorizer.revoke_user(A.public(A.new_key("user")))
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


async def run(srv: NatsServer, tables: int) -> dict:
    ref = Referee(srv.referee_url(), authorizer=srv.authorizer, limits=Limits.generous())
    await ref.start()
    try:
        guest = srv.guest_url()
        await join_ms(guest, 2)   # (warming up: the game's rules loaded, the first connections made)
        first = await join_ms(guest, 20)
        seating = await seat_all(guest, tables)
        last = await join_ms(guest, 20)
        return {"first": first, "seating": seating, "last": last, "revoke": await revoke_ms(srv)}
    finally:
        await ref.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    args = parser.parse_args()
    srv = NatsServer(Path(tempfile.mkdtemp(prefix="stateside-seating-"))).start()
    try:
        print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
        print(f"sign: {sign_us(srv):.0f} us a seat's JWT")
        r = asyncio.run(run(srv, args.tables))
        print(f"join: {r['first']:.1f} ms (first 20 seats), {r['last']:.1f} ms (after {2 * args.tables + 20} seats)")
        print(f"seating {2 * args.tables}: {r['seating']:.2f} s")
        print(f"revoke: {r['revoke']:.1f} ms a push")
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
