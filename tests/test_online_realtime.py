"""Scrambled States online, in real time, through a real nats-server (started here on
127.0.0.1 at a free port). Headless clients react to each round with a set reaction
time and a simulated network delay added before they send; the referee stamps each
slap on arrival (ARCHITECTURE.md, "Real time"): the first to arrive wins, whatever time
a client writes in its move. A round that a change of referee interrupts is void and the
game goes on. The finished game is an ordinary save that replays to the same result,
and its seed checks out."""
from __future__ import annotations

import asyncio
import time

import pytest

from stateside.engine.match import Match
from stateside.games.scrambled_states.cards import load_cards
from stateside.games.scrambled_states.rules import matches

nats = pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.online import client as C  # noqa: E402
from stateside.online.referee import Referee  # noqa: E402
from online_support import NEEDS_NATS, bare_server_per_module  # noqa: E402

pytestmark = NEEDS_NATS

# Short games: three cards win, a quarter second between rounds, rounds of at most 3 s.
SHORT = {"target": 3, "round_pause_ms": 250, "round_limit_ms": 3000}
CARDS = load_cards()


server = bare_server_per_module()


def answer(obs: dict) -> list:
    """The right move for the round on the table: the first matching card (every player
    picks the same one, so a later slap is "too late", not a tie), the center card on
    Hand, or No Match."""
    r, seat = obs["round"], obs["seat"]
    if r["face"] == "hand":
        return ["slap", seat, 0, r["center"]]
    found = sorted(c for c in obs["face_up"] if c and matches(r["center"], c, r["face"], CARDS))
    return ["slap", seat, 0, found[0]] if found else ["no-match", seat, 0]


async def reactor(client: C.SeatClient, reaction_ms: int, latency_ms: int, claimed_t: int):
    """Play one seat: each round, once the die has landed, wait `reaction_ms` (a person's
    reaction), then `latency_ms` (the network), then send the move, claiming `claimed_t`
    as its time (the referee ignores it)."""
    acted = set()

    async def send(move, number):
        await asyncio.sleep((reaction_ms + latency_ms) / 1000)
        if client.end is None:
            await client.act(move, round=number)

    sending = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while client.end is None:
        if loop.time() > deadline:
            raise AssertionError(f"seat {client.seat}: the game did not end (at {client.n})")
        obs = client.observation
        r = obs and obs.get("round")
        if obs and obs["phase"] == "open" and r and r["number"] not in acted and client.seat not in r["barred"]:
            acted.add(r["number"])
            move = answer(obs)
            move[2] = claimed_t
            sending.append(asyncio.create_task(send(move, r["number"])))
        try:
            await client.wait_change(1.0)
        except asyncio.TimeoutError:
            await client.sync()   # heard nothing for a second (a referee replaced): catch up
    for task in sending:
        task.cancel()


async def caught_up(client: C.SeatClient):
    """After the end: every entry of the log as this seat saw it (a sync fills any gap)."""
    total = len(client.end["save"]["actions"])
    for _ in range(100):
        if client.n == total:
            return
        await client.sync()
        await asyncio.sleep(0.05)
    raise AssertionError(f"seat {client.seat} has {client.n} of {total} entries")


async def open_table(server, seed, options=SHORT):
    host = await C.host_table(server.guest_url(), "scrambled-states", ["human", "human"], ["Ann", "Ben"],
                              options, seed=seed)
    creds = [await C.join_table(server.guest_url(), host["table"], s) for s in (0, 1)]
    return host, [await C.SeatClient(server.guest_url(), c).connect() for c in creds]


def check_replay(end: dict, client: C.SeatClient) -> Match:
    match = client.verify()    # the seed matches its commitment; every draw is the seed's
    replay = Match.from_json(end["save"], "the online game")
    assert replay.state.returns() == end["returns"] == match.state.returns()
    assert replay.state.scores() == end["scores"]
    return replay


@pytest.mark.parametrize("reactions,latencies,claims,winner", [
    ((30, 30), (5, 60), (10**6, 0), 0),      # the same reaction: the nearer player arrives first
    ((150, 20), (20, 20), (0, 10**6), 1),    # the same network: the faster reactor wins
], ids=["latency-decides", "reaction-decides"])
def test_the_first_slap_to_arrive_wins_whatever_time_the_client_claims(server, reactions, latencies, claims,
                                                                        winner):
    async def go():
        ref = Referee(server.referee_url(), authorizer=server.authorizer, allow_chosen_seed=True)
        await ref.start()
        try:
            host, clients = await open_table(server, seed=5)
            await asyncio.gather(*(reactor(c, reactions[c.seat], latencies[c.seat], claims[c.seat])
                                   for c in clients))
            for c in clients:
                await caught_up(c)
            end = clients[0].end
            replays = [check_replay(end, c) for c in clients]
            for c in clients:
                await c.close()
            return end, replays, clients
        finally:
            await ref.stop()

    end, (replay, _), clients = asyncio.run(go())
    results = replay.state.results
    decided = [e for e in results if e.kind in ("win", "hand", "no-match", "tie")]
    assert decided and all(e.players == (winner,) for e in decided), [(e.kind, e.players) for e in decided]
    assert replay.state.winners() == [winner] and end["scores"][winner] == SHORT["target"]
    # The loser's moves were taken as they arrived: too late on the same card, or refused
    # as stale once the round was over; never at the time it claimed.
    loser = replay.state.actions and [a for a in replay.state.actions if a.player == 1 - winner]
    assert all(a.t != claims[1 - winner] for a in loser)
    assert end["voids"] == []


def test_a_round_interrupted_by_a_referee_kill_is_void_and_the_game_goes_on(server):
    async def go():
        first = Referee(server.referee_url(), authorizer=server.authorizer, allow_chosen_seed=True)
        await first.start()
        host, clients = await open_table(server, seed=8)
        # Slow reactions: the referee dies with round 2 open and nobody's slap in yet.
        playing = [asyncio.create_task(reactor(c, 500, 10 * c.seat, 0)) for c in clients]
        a = clients[0]
        while not (a.observation and a.observation["phase"] == "open" and a.observation["round"]["number"] == 2):
            await a.wait_change(10)
        await first.kill()
        await asyncio.sleep(0.1)
        second = Referee(server.referee_url(), authorizer=server.authorizer)   # reads the log, takes over
        await second.start()
        try:
            await asyncio.gather(*playing)
            for c in clients:
                await caught_up(c)
            end = a.end
            replay = check_replay(end, a)
            texts = [e["text"] for e in a.entries]
            for c in clients:
                await c.close()
            return end, replay, texts
        finally:
            await second.stop()

    end, replay, texts = asyncio.run(go())
    assert [v["round"] for v in end["voids"]] == [2]
    void_n = end["voids"][0]["n"]
    assert texts[void_n] == "Round 2 is void: the table changed referee mid-round."
    kinds = {e.round: e.kind for e in replay.state.results}
    assert kinds[2] == "void" and kinds[1] != "void"
    assert max(kinds) > 2 and replay.state.is_terminal()      # new rounds were dealt and played
    assert max(replay.state.scores()) == SHORT["target"]


def test_online_real_time_needs_timed_rounds(server):
    async def go():
        ref = Referee(server.referee_url(), authorizer=server.authorizer)
        await ref.start()
        try:
            with pytest.raises(C.OnlineError) as e:
                await C.host_table(server.guest_url(), "scrambled-states", ["human", "human"],
                                   options={"round_limit_ms": 0})
            return str(e.value)
        finally:
            await ref.stop()
    assert "timed rounds" in asyncio.run(go())


def test_a_seat_that_leaves_stops_the_clock_until_it_is_taken_again(server):
    async def go():
        ref = Referee(server.referee_url(), authorizer=server.authorizer, allow_chosen_seed=True)
        await ref.start()
        try:
            host, (a, b) = await open_table(server, seed=11)
            code = host["table"]
            while not (a.observation and a.observation["phase"] == "open"):
                await a.wait_change(10)
            await b.leave()
            while a.status != "lobby":
                await a.wait_change(5)
            rt = ref.realtime[code]
            while not rt.paused:   # the referee's own word that the table's clock stands still
                await asyncio.sleep(0.01)
            state = ref.tables[code].match.state
            at, deadline = state.now(), state.next_deadline()
            # Wait past the moment a running clock would have taken the round's next deadline.
            while deadline is not None and rt.game_time(time.monotonic()) <= deadline + 50:
                await asyncio.sleep(0.02)
            still = ref.tables[code].match.state.now()
            count = len(a.refusals)
            await a.act(answer(a.observation) if a.observation["round"] else ["no-match", 0, 0])
            while len(a.refusals) == count:
                await a.wait_change(5)
            waiting = a.refusals[-1]["reason"]
            back = await C.join_table(server.guest_url(), code)     # by the table code alone
            b2 = await C.SeatClient(server.guest_url(), back).connect()
            await asyncio.gather(reactor(a, 30, 5, 0), reactor(b2, 60, 5, 0))
            for c in (a, b2):
                await caught_up(c)
            replay = check_replay(a.end, a)
            await a.close()
            await b2.close()
            return at, still, waiting, back, replay
        finally:
            await ref.stop()

    at, still, waiting, back, replay = asyncio.run(go())
    assert still == at and "waiting for players" in waiting
    assert back["seat"] == 1 and replay.state.is_terminal()
