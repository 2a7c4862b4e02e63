"""Online play against its floor, loopback only: the referee (`python -m stateside.online.server
--nats`, processes of its own) beside a minimal NATS request/reply loop (the floor), in
the same run, through the same nats-server, with the same load generator (processes of
its own: the players).

    python benchmarks/bench_online.py [--quick] [--tables 200] [--referees 1] [--workers 2]

The floor is the least a referee could do per turn: an intent arrives, is appended to
JetStream with Nats-Expected-Last-Subject-Sequence and a Nats-Msg-Id (as the referee's
conditional append), and the update goes to both seats (two fan-out publishes). No game,
no checks, no visibility. A player turn is an intent sent -> its update received.

Phases (each --seconds long; --quick: 15 s each, the whole run under 3 minutes):
  1. seating: 200 tables of 10 Days hosted and 400 seats issued through the lobby, at once
  2. instant players, 200 tables: the floor, then the referee; turns per second
  3. people's pace (think time exponential, mean 2 s), 200 tables: the floor, then the
     referee; the 50th and 99th percentile of the turn latency
  4. takeover: a referee that has just started reads a finished table from the log
The referees report, when they stop, their longest garbage collection in CPU time (the
pause the referee makes itself: `longest referee pause`; its wall time, printed too, also
counts the moments the shared machine gave to other processes) and how late their event
loop woke at worst. Each phase also prints the CPU milliseconds per player turn of the
referee (or the floor), the nats-server and the players over the measured window: CPU time
hardly depends on the machine's load, so `--cpu` (seating and instant players only, about
a minute with --quick) is the figure to compare while working on the referee (the players'
processes collect as a referee's does, see Collector; `--plain-gc` for Python's defaults); `--profile
DIR` writes cProfile files (CPU time) of the referees and the players. The last six lines
are the figures:

  turns/s ratio to floor: R        (phase 2, referee / floor)
  p50 ratio to floor: R            (phase 3, referee / floor)
  p99 ratio to floor: R
  longest referee pause: N ms
  seating 400: S s
  takeover of a finished table: N ms

Figures and the machine's load at the time: see the notes at the end of this file.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nats
from nats.js import api

from stateside.online import client as C
from stateside.online.server import NatsServer

GAME = "ten-days"
FLOOR_STREAM = "FLOOR_LOG"


def referee_auth() -> dict:
    """The floor's connections sign in as the referee's user (the file main() names)."""
    creds = os.environ.get("STATESIDE_REFEREE_CREDS")
    return {"user_credentials": creds} if creds else {}


# --- the floor: the least a referee could do ----------------------------------------------
async def floor_loop(url: str, ready_path: str) -> None:
    nc = await nats.connect(url, **referee_auth())
    js = nc.jetstream(timeout=5)
    try:
        await js.delete_stream(FLOOR_STREAM)
    except Exception:
        pass
    await js.add_stream(api.StreamConfig(name=FLOOR_STREAM, subjects=["floor.log.>"], storage=api.StorageType.FILE))
    last: dict[str, int] = {}

    async def handle(msg):
        _, _, table, _, seat = msg.subject.split(".")   # floor.t.<T>.in.<s>
        body = json.loads(msg.data)
        seq = last.get(table, 0)
        try:
            ack = await js.publish(f"floor.log.{table}", msg.data, stream=FLOOR_STREAM,
                                   headers={"Nats-Expected-Last-Subject-Sequence": str(seq),
                                            "Nats-Msg-Id": f"{table}:{seq}"})
        except Exception as e:   # (the server reloading its users, say): the seat sends again, as ours do
            print(f"floor: {e!r}", file=sys.stderr)
            return
        last[table] = max(last.get(table, 0), ack.seq)
        update = json.dumps({"type": "update", "n": body["n"] + 1, "to_move": 1 - int(seat)}).encode()
        if msg.reply:
            await msg.respond(b'{"ok":true}')
        await nc.publish(f"floor.t.{table}.seat.0", update)
        await nc.publish(f"floor.t.{table}.seat.1", update)

    async def cb(msg):
        asyncio.get_running_loop().create_task(handle(msg))   # tables in parallel, as the referee's
    await nc.subscribe("floor.t.*.in.*", cb=cb)
    await nc.flush()
    Path(ready_path).write_text("ready")
    await asyncio.Event().wait()


# --- the players (a worker process runs a slice of the seats) ---------------------------------
async def floor_seat(url: str, table: str, seat: int, think: float, rng: random.Random, stop_at: float,
                     latencies: list, go_at: float = 0.0) -> int:
    nc = await nats.connect(url, **referee_auth())
    state = {"n": 0, "to_move": 0}
    changed = asyncio.Event()

    async def cb(msg):
        m = json.loads(msg.data)
        if m["n"] > state["n"]:
            state.update(m)
            changed.set()
    await nc.subscribe(f"floor.t.{table}.seat.{seat}", cb=cb)
    await nc.flush()
    loop = asyncio.get_running_loop()
    # Every seat of every process subscribed first: a floor seat never asks again, so an
    # update sent before its partner's process had subscribed stopped that table for good
    # (all 200, in some runs: 0 turns).
    await asyncio.sleep(max(0.0, go_at - loop.time()))
    turns = 0
    while loop.time() < stop_at:
        if state["to_move"] != seat:
            changed.clear()
            try:
                await asyncio.wait_for(changed.wait(), 1.0)
            except asyncio.TimeoutError:
                pass
            continue
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        at = state["n"]
        t0 = time.perf_counter()
        intent = json.dumps({"type": "act", "n": at}).encode()
        await nc.publish(f"floor.t.{table}.in.{seat}", intent)
        while state["n"] == at and loop.time() < stop_at:
            changed.clear()
            try:
                await asyncio.wait_for(changed.wait(), 1.0)
            except asyncio.TimeoutError:   # no answer: send it again (a referee's client does too)
                await nc.publish(f"floor.t.{table}.in.{seat}", intent)
        if state["n"] > at:
            latencies.append(time.perf_counter() - t0)
            turns += 1
    await nc.close()
    return turns


async def referee_seat(guest: str, creds: dict, think: float, rng: random.Random, stop_at: float,
                       latencies: list) -> int:
    client = await C.SeatClient(guest, creds).connect()
    loop = asyncio.get_running_loop()
    turns = 0
    while client.end is None and loop.time() < stop_at:
        if not client.my_turn():
            if not await client._wait(stop_at + 5):
                await client.sync()
            continue
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
            if not client.my_turn():
                continue
        at = client.n
        t0 = time.perf_counter()
        await client.act(client.legal[rng.randrange(len(client.legal))])
        while client.n == at and client.end is None and loop.time() < stop_at:
            if not await client._wait(stop_at + 5):
                await client.sync()
        if client.n > at:
            latencies.append(time.perf_counter() - t0)
            turns += 1
    await client.close()
    return turns


async def worker(job: dict) -> dict:
    loop = asyncio.get_running_loop()
    start_at = loop.time() + max(0.0, job["start_wall"] - time.time())   # every process's window the same
    stop_at = start_at + job["seconds"]
    latencies: list[float] = []
    rng = random.Random(job["seed"])
    if job["kind"] == "floor":
        go_at = start_at - min(1.0, job["warmup"] / 2)
        runs = [floor_seat(job["url"], t, s, job["think"], random.Random(rng.random()), stop_at, latencies, go_at)
                for t, s in job["seats"]]
    else:
        runs = [referee_seat(job["url"], creds, job["think"], random.Random(rng.random()), stop_at, latencies)
                for creds in job["seats"]]
    tasks = [asyncio.ensure_future(r) for r in runs]
    await asyncio.sleep(max(0.0, start_at - loop.time()))
    latencies.clear()   # what was measured while the others were still connecting is dropped
    collector = Collector(job.get("freeze", True))
    cpu0 = time.process_time()
    await asyncio.sleep(max(0.0, stop_at - loop.time()))
    cpu = time.process_time() - cpu0   # the players' CPU over the measured window only
    collector.stop()
    done = await asyncio.gather(*tasks, return_exceptions=True)
    errors = [type(d).__name__ for d in done if isinstance(d, BaseException)]
    return {"turns": len(latencies), "latencies": latencies, "errors": errors, "cpu_s": cpu,
            "gc_s": collector.cpu_s}


class Collector:
    """A players' process stands in for the clients of 100 people, each of whom would have a
    process and a heap of their own: here one full collection scans all 100 clients' logs
    and observations (measured, 200 instant tables: 0.67 of the referee players' 3.65 s of
    CPU, 18%, against 1% for the floor's players, which keep nothing). So, for floor and
    referee alike, the players' processes collect as a referee's does (online.referee:
    survivors frozen every second, a young collection every 10,000 allocations), and the
    collector's CPU time is counted (printed with the players' CPU). `--plain-gc` keeps
    Python's defaults."""

    def __init__(self, freeze: bool):
        import gc

        self.gc, self.cpu_s, self._t = gc, 0.0, 0.0
        self._task = None
        if freeze:
            from stateside.online.referee import FREEZE_EVERY_S, GC_YOUNG_OBJECTS

            gc.collect()
            gc.freeze()
            gc.set_threshold(GC_YOUNG_OBJECTS, *gc.get_threshold()[1:])

            async def again():
                while True:
                    await asyncio.sleep(FREEZE_EVERY_S)
                    gc.freeze()
            self._task = asyncio.ensure_future(again())
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, _info: dict) -> None:
        if phase == "start":
            self._t = time.process_time()
        else:
            self.cpu_s += time.process_time() - self._t

    def stop(self) -> None:
        self.gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user + system; Linux's /proc, else NaN)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return math.nan


def run_workers(job: dict, seats: list, workers: int, servers: dict | None = None) -> dict:
    """The seats split over `workers` processes; their turns and latencies together, and
    the CPU seconds that the players and the processes `servers` (name -> pid) spent in
    the measured window (CPU time hardly depends on what else the machine runs)."""
    procs = []
    job = {**job, "start_wall": time.time() + job["warmup"]}
    for w in range(workers):
        part = {**job, "seats": seats[w::workers], "seed": job["seed"] * 100 + w}
        # (on standard input: 200 seats' JWTs and keys are longer than a command line may be)
        proc = subprocess.Popen([sys.executable, __file__, "--worker", "-"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
        proc.stdin.write(json.dumps(part))
        proc.stdin.close()
        proc.stdin = None   # (communicate() below reads only)
        procs.append(proc)
    servers = servers or {}
    time.sleep(max(0.0, job["start_wall"] - time.time()))
    before = {name: cpu_seconds(pid) for name, pid in servers.items()}
    time.sleep(job["seconds"])
    cpu = {name: cpu_seconds(pid) - before[name] for name, pid in servers.items()}
    out = {"turns": 0, "latencies": [], "errors": [], "cpu": {**cpu, "players": 0.0}, "gc_s": 0.0}
    for p in procs:
        stdout, _ = p.communicate(timeout=job["warmup"] + job["seconds"] + 120)
        r = json.loads(stdout.strip().splitlines()[-1])
        out["turns"] += r["turns"]
        out["latencies"] += r["latencies"]
        out["errors"] += r["errors"]
        out["cpu"]["players"] += r["cpu_s"]
        out["gc_s"] += r["gc_s"]
    return out


def cpu_per_turn(r: dict) -> str:
    """Each process's CPU per player turn, in ms (the players' collector's share of theirs)."""
    turns = max(1, r["turns"])
    return ", ".join(f"{name} {1000 * s / turns:.3f}" for name, s in r["cpu"].items()) \
        + f" (their collector {1000 * r['gc_s'] / turns:.3f})"


def pct(values: list, q: float) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))] * 1000 if v else math.nan


# --- the run --------------------------------------------------------------------------------
def start_referees(srv: NatsServer, k: int, data: Path, profile: str | None = None) -> list[subprocess.Popen]:
    url = f"nats://127.0.0.1:{srv.port}"   # the referee's credentials and keys come from --auth-dir
    procs = []
    for i in range(k):
        share = ["--share", f"{i + 1}/{k}"] if k > 1 else []
        run = [__file__, "--profiled", str(Path(profile) / f"referee-{i + 1}.prof"), "referee"] if profile \
            else ["-m", "stateside.online.server"]
        p = subprocess.Popen([sys.executable, *run, "--nats", url, "--auth-dir", str(data),
                              "--load-test", *share], stdout=subprocess.PIPE,
                             text=True, env={**os.environ, "STATESIDE_CONFIG_DIR": str(data / "cfg")})
        line = p.stdout.readline()
        if "ready" not in line:
            raise SystemExit(f"a referee did not start: {line!r}")
        procs.append(p)
    return procs


def start_floor(srv: NatsServer, data: Path) -> subprocess.Popen:
    """The floor loop's process, once it has subscribed."""
    ready = data / "floor.ready"
    floor = subprocess.Popen([sys.executable, __file__, "--floor", srv.referee_url(), str(ready)])
    while not ready.exists():
        if floor.poll() is not None:
            raise SystemExit("the floor loop stopped as it started")
        time.sleep(0.05)
    return floor


def stop_referees(procs: list[subprocess.Popen]) -> list[dict]:
    stats = []
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            out, _ = p.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
        for line in out.splitlines():
            if line.startswith("referee stats "):
                stats.append(json.loads(line.removeprefix("referee stats ")))
    return stats


LOST: list[str] = []   # lobby requests that got no answer (said in the output)


async def seat_everyone(guest: str, tables: int) -> tuple[list[dict], float]:
    t = time.perf_counter()

    async def one(_):
        for _attempt in range(3):
            try:
                host = await C.host_table(guest, GAME, ["human", "human"])
                return await asyncio.gather(*(C.join_table(guest, host["table"], s) for s in (0, 1)))
            except C.OnlineError as e:
                # A guest's request that crosses a reload of the server's users may lose its
                # reply (no reload at all with signed user JWTs: issue 23, item 1): a new table.
                LOST.append(str(e))
        raise SystemExit(f"seating failed three times: {LOST[-1]}")
    pairs = await asyncio.gather(*(one(i) for i in range(tables)))
    return [c for pair in pairs for c in pair], time.perf_counter() - t


async def takeover_ms(srv: NatsServer, guest: str) -> tuple[float, int]:
    """A finished game (one seat against a computer, played out), then a referee that has
    just started reads it from the log: the time of that read and replay."""
    from stateside.online.referee import Limits, Referee

    host = await C.host_table(guest, GAME, ["human", "random"])
    client = await C.SeatClient(guest, await C.join_table(guest, host["table"], 0)).connect()
    await client.play(lambda c: c.legal[0], timeout=120)
    await client.close()
    # as a referee process of its own starts: its start-up frozen out of the collector's view
    # (else a full collection of this process's other objects lands in a read: 196 ms once)
    ref = Referee(srv.referee_url(), limits=Limits.generous(), connect_options=srv.referee_options(),
                  freeze_gc=True)
    await ref.start()
    try:
        times, cpu = [], []
        for _ in range(5):   # the best of five: the machine is shared
            ref.tables.pop(host["table"], None)
            t, c = time.perf_counter(), time.process_time()
            table = await ref.load(host["table"])
            times.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            assert table is not None and table.ended
        print(f"  takeover: {', '.join(f'{t:.1f}' for t in times)} ms (CPU {', '.join(f'{c:.1f}' for c in cpu)})",
              flush=True)
        return min(times), table.n
    finally:
        await ref.stop()


def main(args) -> None:
    data = Path(tempfile.mkdtemp(prefix="stateside-bench-"))
    srv = NatsServer(data).start()
    os.environ["STATESIDE_REFEREE_CREDS"] = str(data / "referee.creds")   # (the floor's processes too)
    referees, floor = [], None
    phase_s = args.seconds
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    try:
        referees = start_referees(srv, args.referees, data, args.profile)
        guest = srv.guest_url()
        seats, seating_s = asyncio.run(seat_everyone(guest, args.tables))
        # (Runs whose floor made 0 turns, blamed on the server's reloads until now, were floor
        # seats that never heard the first update: see floor_seat.)
        floor = start_floor(srv, data)
        servers = {"nats-server": srv.proc.pid}
        print(f"{args.tables} tables of {GAME}, 2 players each; {args.referees} referee process(es); "
              f"{args.workers} player processes; nats-server on 127.0.0.1; {os.cpu_count()} cores; "
              f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
        print(f"  seating: {2 * args.tables} seats issued through the lobby in {seating_s:.2f} s"
              + (f" ({len(LOST)} requests unanswered and made again: {LOST[0]})" if LOST else ""), flush=True)
        floor_seats = [(f"F{i:05d}", s) for i in range(args.tables) for s in (0, 1)]
        base = {"seconds": phase_s, "warmup": 3.0, "profile": args.profile, "freeze": not args.plain_gc}
        results = {}
        paces = (("instant", 0.0),) if args.cpu else (("instant", 0.0), ("paced", args.think))
        for pace, think in paces:
            results[("floor", pace)] = run_workers({**base, "kind": "floor", "url": srv.referee_url(),
                                                    "think": think, "seed": 1}, floor_seats, args.workers,
                                                   {"floor": floor.pid, **servers})
            results[("referee", pace)] = run_workers({**base, "kind": "referee", "url": guest, "think": think,
                                                      "seed": 2}, seats, args.workers,
                                                     {**{f"referee{i + 1}": p.pid for i, p in enumerate(referees)},
                                                      **servers})
            for who in ("floor", "referee"):
                r = results[(who, pace)]
                print(f"  {pace:8s} {who:8s}: {r['turns'] / phase_s:7.0f} turns/s, p50 {pct(r['latencies'], .5):6.1f} ms, "
                      f"p99 {pct(r['latencies'], .99):6.1f} ms"
                      + (f"; {len(r['errors'])} player errors ({', '.join(sorted(set(r['errors'])))})"
                         if r["errors"] else ""), flush=True)
                print(f"  {'':8s} {'':8s}  CPU ms per turn: {cpu_per_turn(r)}", flush=True)
        if args.cpu:   # the instant phase only: the CPU figures, for working on the referee
            r = results[("referee", "instant")]
            ms = 1000 * sum(v for k, v in r["cpu"].items() if k.startswith("referee")) / max(1, r["turns"])
            stats = stop_referees(referees)
            referees = []
            print(f"  referees: {json.dumps(stats)}")
            print(f"referee CPU per turn: {ms:.3f} ms (load average {os.getloadavg()[0]:.2f})")
            return
        take_ms, entries = asyncio.run(takeover_ms(srv, guest))
        print(f"  takeover: a finished table of {entries} entries read from the log and replayed", flush=True)
        stats = stop_referees(referees)
        referees = []
        pause = max((s.get("longest_gc_cpu_ms", math.nan) for s in stats), default=math.nan)
        pause_wall = max((s.get("longest_gc_ms", math.nan) for s in stats), default=math.nan)
        stall = max((s.get("longest_pause_ms", math.nan) for s in stats), default=math.nan)
        appends = sum(s.get("appends", 0) for s in stats)
        print(f"  referees: {sum(s.get('full_gcs', 0) for s in stats)} full collections; the longest collection "
              f"{pause:.1f} ms of CPU, the longest in wall time {pause_wall:.1f} ms (a process not scheduled "
              f"mid-collection counts there); the event loop woke at most {stall:.0f} ms late (the machine's "
              "other work included)", flush=True)
        print(f"  referees: {appends} appends, {sum(s.get('conflicts', 0) for s in stats)} conflicts; "
              f"load average after: {os.getloadavg()[0]:.2f}", flush=True)
        fi, ri = results[("floor", "instant")], results[("referee", "instant")]
        fp, rp = results[("floor", "paced")], results[("referee", "paced")]
        # The machine's other work moves the wall-clock ratio by 0.1-0.3 from run to run; CPU per
        # turn hardly moves: on 2 cores of their own, floor and referee would both be CPU-bound.
        cpu_ratio = sum(fi["cpu"].values()) / max(1, fi["turns"]) / (sum(ri["cpu"].values()) / max(1, ri["turns"]))
        print(f"  CPU per turn, every process of the run: floor {1000 * sum(fi['cpu'].values()) / max(1, fi['turns']):.3f}"
              f" ms, referee {1000 * sum(ri['cpu'].values()) / max(1, ri['turns']):.3f} ms (ratio {cpu_ratio:.2f})")
        # The ceiling: the referee's side with a referee that cost only what the floor loop
        # costs (no rules, no views), its server and players as measured (ONLINE.md).
        per = lambda r, k: sum(v for name, v in r["cpu"].items() if name.startswith(k)) / max(1, r["turns"])  # noqa: E731
        ideal = per(fi, "floor") + per(ri, "nats-server") + per(ri, "players")
        print(f"  a referee that cost what the floor loop costs would reach a CPU ratio of at most "
              f"{sum(fi['cpu'].values()) / max(1, fi['turns']) / ideal:.2f} (floor loop {1000 * per(fi, 'floor'):.3f}"
              f" ms, the referee {1000 * per(ri, 'referee'):.3f} ms a turn)")
        print(f"turns/s ratio to floor: {ri['turns'] / max(1, fi['turns']):.2f}")
        print(f"p50 ratio to floor: {pct(rp['latencies'], .5) / pct(fp['latencies'], .5):.2f}")
        print(f"p99 ratio to floor: {pct(rp['latencies'], .99) / pct(fp['latencies'], .99):.2f}")
        print(f"longest referee pause: {pause:.1f} ms")
        print(f"seating {2 * args.tables}: {seating_s:.2f} s")
        print(f"takeover of a finished table: {take_ms:.1f} ms")
    finally:
        stop_referees(referees)
        if floor is not None:
            floor.terminate()
            floor.wait(10)
        srv.stop()


def profiled(path: str, call):
    """call() under cProfile counting CPU time (not wall time: the machine is shared)."""
    import cProfile

    prof = cProfile.Profile(time.process_time)
    try:
        return prof.runcall(call)
    finally:
        prof.dump_stats(path)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        job = json.loads(sys.stdin.read() if sys.argv[2] == "-" else sys.argv[2])
        run = lambda: asyncio.run(worker(job))   # noqa: E731
        if job.get("profile"):
            out = profiled(str(Path(job["profile"]) / f"players-{job['kind']}-{job['seed']}.prof"), run)
        else:
            out = run()
        print(json.dumps(out))
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[1] == "--profiled" and sys.argv[3] == "referee":
        from stateside.online.server import _referee_only
        sys.exit(profiled(sys.argv[2], lambda: _referee_only(sys.argv[4:])))
    if len(sys.argv) == 4 and sys.argv[1] == "--floor":
        try:
            asyncio.run(floor_loop(sys.argv[2], sys.argv[3]))
        except KeyboardInterrupt:
            pass
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="15 s a phase: the whole run under 3 minutes")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--referees", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="player processes")
    parser.add_argument("--seconds", type=float, default=30.0, help="each phase (at most 120)")
    parser.add_argument("--think", type=float, default=2.0, help="people's mean think time, seconds")
    parser.add_argument("--cpu", action="store_true",
                        help="seating and instant players only, and the referee's CPU per turn")
    parser.add_argument("--plain-gc", action="store_true",
                        help="the players' processes keep Python's collector defaults (see Collector)")
    parser.add_argument("--profile", metavar="DIR",
                        help="cProfile (CPU time) of the referees and the players into DIR (slower)")
    a = parser.parse_args()
    a.seconds = 15.0 if a.quick else min(a.seconds, 120.0)
    main(a)


# 2026-12-02 04:37 and 04:40 UTC (the quick journey check; the ceiling line new), load 1.2-1.4:
# turns/s ratio 0.53 and 0.53; CPU per turn 0.220 / 0.395 and 0.221 / 0.393 ms (0.56); the
# ceiling (a referee that cost only the floor loop) 0.71 and 0.72; p50 1.13, 1.30; p99 1.29,
# 1.48; longest collection 11.0, 11.7 ms of CPU; seating 0.67, 0.74 s; takeover 12.5, 13.6 ms.
#
# 2026-12-02 02:54 and 02:59 UTC (orjson reading in the clients, a private table's turns off
# the public subject, the players' processes collecting as a referee's does), load 1.8-2.0
# -> 1.5-1.7: turns/s ratio 0.70 (4294, 3018) and 0.52 (7393, 3860); CPU per turn of every
# process 0.225 / 0.393 ms (0.57) and 0.250 / 0.448 (0.56); p50 1.20, 1.06; p99 1.34, 1.59;
# longest collection 12.9, 13.3 ms of CPU; seating 1.46, 0.74 s; takeover 18.3, 18.6 ms.
# --cpu back to back, 02:56-02:57, load 1.5 -> 3.1: the players 0.215 ms a turn on main
# d73d557, 0.181 here (referee 0.152 / 0.156, nats-server 0.071 / 0.072; the floor's side
# 0.232 / 0.221 ms in all); the CPU ratio 0.53 -> 0.54. See benchmarks/ONLINE.md.
#
# Notes, issue 23 item 3 (this branch; the whole story in benchmarks/ONLINE.md). --quick,
# 2026-12-02, every process at nice 10:
# 02:07 UTC, load 6.9 -> 6.1: floor 2089 turns/s, referee 1936 (0.93; CPU per turn of every
#   process, floor 0.293 ms / referee 0.486 ms: 0.60); p50 1.2 / 1.8 ms (1.46), p99 35.1 / 16.5
#   ms (0.47); longest collection 3.4 ms of CPU (26.1 ms wall); seating 1.43 s; takeover
#   37.7 ms (18.9 ms of CPU).
# 02:09 UTC, load 6.0 -> 4.6: floor 4516, referee 2003 (0.44; CPU 0.250 / 0.479: 0.52); p50
#   1.2 / 1.3 ms (1.13), p99 5.3 / 7.0 ms (1.32); collection 3.4 ms CPU (22.7 wall); seating
#   1.68 s; takeover 17.8 ms (16.3 CPU).
# 02:11 UTC, load 4.6 -> 3.1: floor 4092, referee 2034 (0.50; CPU 0.261 / 0.501: 0.52); p50
#   1.2 / 1.5 ms (1.20), p99 3.8 / 6.4 ms (1.69); collection 4.2 ms CPU (11.4 wall); seating
#   0.81 s; takeover 40.6 ms (18.8 CPU).
# 02:16 UTC, load 3.6 -> 5.0: floor 3848, referee 1926 (0.50; CPU 0.284 / 0.559: 0.51); p50
#   1.4 / 1.6 ms (1.13), p99 6.8 / 6.8 ms (1.00); collection 4.0 ms CPU (16.5 wall); seating
#   1.02 s; takeover 20.7 ms (18.9 CPU).
# 02:20 UTC, load 3.4 -> 4.2 (the decoder built once): floor 3586, referee 2059 (0.57; CPU
#   0.294 / 0.516: 0.57); p50 1.4 / 1.6 ms (1.10), p99 6.6 / 7.1 ms (1.08); collection 3.3 ms
#   CPU (19.2 wall); seating 1.44 s; takeover 23.8 ms (21.8 CPU).
# --cpu back to back, 02:04-02:07, load 4.6-6.9: the referee's CPU per turn 0.226 ms on main
#   88441e8, 0.172 here (nats-server 0.101 -> 0.081, players 0.313 -> 0.250; the floor loop
#   0.060, its server 0.062, its players 0.139).
# No full collection in any of these runs. Earlier runs whose floor made 0 turns were floor
# seats that missed their table's first update (fixed: see floor_seat), not the reloads.
#
# Notes (figures measured with --quick; the machine's 2 cores were shared with other work,
# load average 5-7 throughout, so every figure is rough; the ratios compare runs of the
# same minutes):
#
# 2026-12-01 23:20 UTC, load 7.0-7.4, before the collector was frozen periodically:
#   floor 2305 turns/s, referee 806 (ratio 0.35); at people's pace p50 1.4 / 1.9 ms (1.41),
#   p99 11.0 / 25.0 ms (2.28); 9 full collections, the longest 306 ms; seating 400 in 2.37 s;
#   takeover of a finished table (767 entries) 23.5 ms.
# 2026-12-01 23:43 UTC, load 6.5 -> 5.3, survivors frozen every second:
#   floor 3337 turns/s, referee 1382 (ratio 0.41); p50 1.4 / 1.6 ms (1.17), p99 10.1 / 6.7 ms
#   (0.66); 2 full collections, the longest 19.9 ms (the event loop woke up to 429 ms late:
#   the process was not scheduled); seating 400 in 2.16 s; takeover (765 entries) 24.8 ms.
# 2026-12-01 23:53 UTC, load 3.5 -> 4.3, the same code:
#   floor 2965 turns/s, referee 1611 (ratio 0.54); p50 1.5 / 2.0 ms (1.34), p99 11.7 / 13.7 ms
#   (1.17); 5 full collections, the longest 22.4 ms (the loop up to 651 ms late); seating 400
#   in 2.25 s; takeover (763 entries) 30.5 ms. So under this load the ratios move by 0.1-0.3
#   from run to run; the p99 at people's pace is within 2x of the floor's in the last two runs.
# Seating: 2 of 6 runs lost one lobby reply among the 400 at once (a request that crosses a
# reload of the server's users; the seating retries it now and says so).
# Before this issue (main 81f42a6, from the issue): 884 turns/s against a floor of 3,835
# (0.22), 1.26 appends a player turn, 9 full collections in 20 s of 97 ms on average,
# seating 400 in 39-68 s, takeover of a whole game 245 ms.
# Where a referee's turn goes (cProfile, 200 instant tables): applying the action and its
# chance draw (match.apply, the rules, the views) about half, JSON and nats-py's publishes
# most of the rest; 1.2 ms of CPU a player turn against the floor's ~0.3.
